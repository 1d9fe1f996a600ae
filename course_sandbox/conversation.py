"""A validated request: the messages as the API sees them, plus the rules the API enforces
on a conversation (tool_use/tool_result pairing, non-empty content, thinking blocks).

Consecutive messages with the same role are merged, as the real API does; every block
remembers where it came from so that errors name the learner's own indexes.
"""

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from . import receipts, thinking
from .block_encoding import Encoded, encode
from .errors import invalid

if TYPE_CHECKING:  # request.py reads its turns with merge_turns
    from .request import Request

FIRST_NOT_USER = 'messages: first message must use the "user" role'

THINKING_MISSING = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. "
    "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
    "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "
    "thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "
    "our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)
THINKING_UNBOUND = (
    "messages.{i}.content.{j}: Invalid `signature` in `thinking` block. The block is bound to a different "
    "conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\"."
)
"""The API's words when something before a thinking block changed (docs: preserved-thinking,
fix-bound-to-a-different-conversation)."""
THINKING_UNBOUND_NO_BETA = (" That setting requires the `thinking-binding-controls-2026-08-01` value in the "
                            "`anthropic-beta` header.")
"""What the same 400 adds when the request did not send that beta header (the setting it names needs it)."""
THINKING_MODIFIED = (
    "messages.{i}.content.{j}: `thinking` or `redacted_thinking` blocks in the latest assistant message "
    "cannot be modified. These blocks must remain as they were in the original response."
)


@dataclass
class Turn:
    """One message after merging, with the original (message, block) index of each block."""

    role: str
    blocks: list[dict]
    origin: list[tuple[int, int]] = field(default_factory=list)
    first_index: int = 0
    raw_message_count: int = 1

    def of_type(self, kind: str) -> list[dict]:
        return [b for b in self.blocks if b.get("type") == kind]

    def text(self) -> str:
        return "\n".join(b["text"] for b in self.of_type("text"))

    @cached_property
    def encoded(self) -> list[Encoded]:
        """Each block's encodings, computed once a request: the thinking-binding check, the signing of
        the answer and the prompt cache all read the whole history. A merged turn is never changed."""
        return [encode(block) for block in self.blocks]


def blocks_of(content: str | list[dict]) -> list[dict]:
    """Content as a list of blocks (a string is one text block)."""
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def merge_turns(messages: list[dict]) -> list[Turn]:
    """Merge consecutive same-role messages and check that none is empty."""
    if messages and messages[0]["role"] == "system":
        # The docs: a mid-conversation system message cannot be the first entry (a 400; they quote no
        # wording, so the API's own for a first message in another role).
        raise invalid(FIRST_NOT_USER)
    turns: list[Turn] = []
    for i, message in enumerate(messages):
        if message["role"] == "system":  # instructions between turns: they neither start nor split a turn
            continue
        blocks = blocks_of(message["content"])
        is_final_assistant = i == len(messages) - 1 and message["role"] == "assistant"
        if not blocks and not is_final_assistant:
            raise invalid(
                f"messages.{i}: all messages must have non-empty content except for the optional final assistant "
                "message"
            )
        origin = [(i, j) for j in range(len(blocks))]
        if turns and turns[-1].role == message["role"]:
            turns[-1].blocks.extend(blocks)
            turns[-1].origin.extend(origin)
            turns[-1].raw_message_count += 1
        else:
            turns.append(Turn(message["role"], blocks, origin, first_index=i))
    if not turns:
        raise invalid("messages: at least one message is required")
    if turns[0].role != "user":
        raise invalid(FIRST_NOT_USER)
    return turns


def check_tool_pairing(turns: list[Turn]) -> None:
    """Every tool_result answers a tool_use of the turn before; every tool_use is answered at the start of
    the turn after (docs, tool use: tool_result blocks come first in the content, text only after them). A
    tool_use id appears once in a request: a response appended twice to the history is refused."""
    seen: set[str] = set()
    for turn in turns:
        for block, (i, j) in zip(turn.blocks, turn.origin, strict=False):
            if block.get("type") == "tool_use":
                if block.get("id") in seen:
                    raise invalid(f"messages.{i}.content.{j}: `tool_use` ids must be unique")
                seen.add(block.get("id"))
    for k, turn in enumerate(turns):
        if turn.role == "user":
            previous_ids = {b["id"] for b in turns[k - 1].of_type("tool_use")} if k else set()
            for block, (i, j) in zip(turn.blocks, turn.origin, strict=False):
                if block.get("type") == "tool_result" and block["tool_use_id"] not in previous_ids:
                    raise invalid(
                        f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: "
                        f"{block['tool_use_id']}. Each `tool_result` block must have a corresponding `tool_use` "
                        "block in the previous message."
                    )
        elif k + 1 < len(turns):
            answered = set()
            for block in turns[k + 1].blocks:  # "immediately after": results first, any text after them
                if block.get("type") != "tool_result":
                    break
                answered.add(block["tool_use_id"])
            missing = [b["id"] for b in turn.of_type("tool_use") if b["id"] not in answered]
            if missing:
                raise invalid(
                    f"messages.{turn.origin[0][0] if turn.origin else turn.first_index}: `tool_use` ids were found "
                    f"without `tool_result` blocks immediately after: {', '.join(missing)}. Each `tool_use` block "
                    "must have a corresponding `tool_result` block in the next message."
                )


def check_thinking(turns: list[Turn], mode: str) -> None:
    """Thinking blocks come back exactly as sent, and a tool-use turn keeps its thinking while thinking is on.

    Manual thinking (`enabled`) wants the thinking block first in any tool-use turn before its results. Adaptive
    thinking may have thought nothing on a turn (docs: "a simple request can produce no thinking block"), so there
    a turn without thinking is refused only when it had some: a thinking block moved behind the turn's other
    blocks, or dropped from an answer this sandbox gave (docs, Fable 5 migration guide: "The API rejects edited,
    reordered, or partially dropped thinking blocks with a 400 error")."""
    assistants = [k for k, t in enumerate(turns) if t.role == "assistant"]
    for k in assistants:
        turn = turns[k]
        latest = k == assistants[-1]
        for block, (i, j) in zip(turn.blocks, turn.origin, strict=False):
            if block.get("type") == "thinking" and not thinking.verify(block["thinking"], block["signature"]):
                if latest:
                    raise invalid(THINKING_MODIFIED.format(i=i, j=j))
                raise invalid(f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block")
    if mode == "disabled" or not assistants:
        return
    k = assistants[-1]
    turn = turns[k]
    in_tool_loop = k + 1 < len(turns) and turns[k + 1].of_type("tool_result")
    if in_tool_loop and turn.of_type("tool_use"):
        first = turn.blocks[0].get("type")
        if first not in THINKING_TYPES and (mode == "enabled" or _had_thinking(turn)):
            raise invalid(THINKING_MISSING.format(i=turn.origin[0][0], found=first))


THINKING_TYPES = ("thinking", "redacted_thinking")


def _had_thinking(turn: Turn) -> bool:
    """The turn holds a thinking block out of its place, or answers this sandbox gave for its calls had one."""
    if any(b.get("type") in THINKING_TYPES for b in turn.blocks):
        return True
    return any((answer := receipts.answer_with_tool_use(b.get("id"))) is not None and answer.thinking
               for b in turn.of_type("tool_use"))


BINDING_BETA = "thinking-binding-controls-2026-08-01"
"""The beta of `thinking.block_binding` and of the response's `input_transformations`."""


def check_thinking_binding(request: "Request", turns: list[Turn]) -> tuple[list[Turn], list[dict]]:
    """Preserved thinking: a thinking block is valid only after the exact prefix it was produced after.

    Models that run the check answer 400 for the first block whose prefix changed; with
    `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` (its beta header required) that block
    and the rest of its turn's consecutive thinking blocks are dropped instead, each reported as a
    `thinking_dropped` input transformation. A model without preserved thinking runs no prefix check, and
    reports nothing (docs: prefix-checks; `thinking_mismatch_allowed` is a checking model's report when the check
    is not enforced for the request, which the sandbox, enforcing it for every account, never is). Returns the
    turns the model reads, and the transformations.
    """
    binding, betas = request.block_binding, request.betas
    if binding is not None and BINDING_BETA not in betas:
        raise invalid(f"thinking.{request.thinking_type or ''}.block_binding: Extra inputs are not permitted")
    if not request.profile.binds_prefix or not any(b.get("type") == "thinking" for turn in turns
                                                   for b in turn.blocks):
        return turns, []  # no prefix check on this model, or nothing to check
    failing = [(k, j) for k, j, prefix in thinking.prefixes(request, turns)
               if not thinking.bound_to(turns[k].blocks[j]["thinking"], turns[k].blocks[j]["signature"], prefix)]
    if not failing:
        return turns, []
    path = lambda k, j: "messages.{}.content.{}".format(*turns[k].origin[j])  # noqa: E731
    if (binding or {}).get("prefix_mismatch_behavior") != "drop_block":
        k, j = failing[0]
        i, j = turns[k].origin[j]
        raise invalid(THINKING_UNBOUND.format(i=i, j=j) + ("" if BINDING_BETA in betas else THINKING_UNBOUND_NO_BETA))
    dropped = set()
    for k, j in failing:  # the block, and the rest of its turn's consecutive thinking blocks
        while j < len(turns[k].blocks) and turns[k].blocks[j].get("type") in ("thinking", "redacted_thinking"):
            dropped.add((k, j))
            j += 1
    kept = []
    for k, turn in enumerate(turns):
        pairs = [(b, o) for j, (b, o) in enumerate(zip(turn.blocks, turn.origin, strict=False))
                 if (k, j) not in dropped]
        kept.append(Turn(turn.role, [b for b, _ in pairs], [o for _, o in pairs], turn.first_index,
                         turn.raw_message_count))
    return kept, [{"type": "thinking_dropped", "path": path(k, j), "reason": "prefix_binding_mismatch"}
                  for k, j in sorted(dropped)]
