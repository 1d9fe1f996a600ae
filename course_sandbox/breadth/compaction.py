"""Compaction (beta): the earlier turns of a conversation replaced by a summary the model writes, in a
`compaction` block that the client sends back. Two ways, as on the API:

- at a token threshold: `context_management.edits` with `compact_20260112` (beta `compact-2026-01-12`).
  When a request's input reaches the trigger (default 150,000 tokens, at least 50,000), the response starts
  with the block and the answer follows from the summary; with `pause_after_compaction` the block is the
  whole response (`stop_reason: "compaction"`) and sending it back unchanged continues the turn.
- on demand: `compaction: {"type": "summarize"}` (beta `compact-2026-09-04`, what the SDK's
  `tool_runner.compact_before_next_turn()` sends): the response is the signed block alone.

A request that carries a block is read from it on: everything before it is dropped, the summary takes its
place (a block with `content: null` is a no-op). The usage of the summarising step is the `compaction` entry
of `usage.iterations`, and not part of the top-level `usage` of a threshold compaction.
"""

import hashlib
import json

from ..conversation import Turn, blocks_of
from ..errors import invalid
from ..request import Request
from ..simulated_model.history import language
from ..words import words
from .context_editing import COMPACT, requires_beta

THRESHOLD_BETA = "compact-2026-01-12"
ON_DEMAND_BETA = "compact-2026-09-04"
DEFAULT_TRIGGER = 150_000
MIN_TRIGGER = 50_000  # docs: the trigger's value is at least 50,000 input tokens
_KEY = b"course-sandbox-compaction"


def sign(summary: str) -> str:
    """The block's signature: it binds the summary, so an edited summary is refused when it comes back."""
    return hashlib.sha256(_KEY + summary.encode()).hexdigest()


def threshold_edit(request: Request) -> dict | None:
    """The request's `compact_20260112` edit, if any."""
    return next((edit for edit in request.edits if edit["type"] == COMPACT), None)


def trigger(edit: dict) -> int:
    return (edit.get("trigger") or {}).get("value", DEFAULT_TRIGGER)


def _blocks_sent(request: Request) -> list[tuple[int, int, dict]]:
    return [(i, j, block) for i, message in enumerate(request.messages)
            for j, block in enumerate(blocks_of(message["content"])) if block.get("type") == "compaction"]


def check(request: Request, counting: bool = False) -> None:
    """Betas, the trigger's floor, and the blocks sent back (API style: the wording is not documented).
    `count_tokens` takes the `compaction` parameter and ignores it (the SDK's docs for the parameter)."""
    betas = request.betas
    if request.compaction is not None and not counting:
        if ON_DEMAND_BETA not in betas:
            raise invalid(requires_beta("compaction", ON_DEMAND_BETA))
        if request.context_management:
            raise invalid("compaction: cannot be combined with `context_management`.")
    for i, edit in enumerate(request.edits):
        if edit["type"] != COMPACT:
            continue
        if THRESHOLD_BETA not in betas:
            raise invalid(requires_beta(f"context_management.edits.{i}", THRESHOLD_BETA))
        if trigger(edit) < MIN_TRIGGER:
            raise invalid(f"context_management.edits.{i}.trigger.value: Input should be greater than or equal "
                          f"to {MIN_TRIGGER}")
    for i, j, block in _blocks_sent(request):
        where = f"messages.{i}.content.{j}"
        if not betas & {THRESHOLD_BETA, ON_DEMAND_BETA}:
            raise invalid(requires_beta(where, ON_DEMAND_BETA))
        if block.get("content") == "":
            raise invalid(f"{where}.content: String should have at least 1 character")
        if block.get("signature") is not None and block["signature"] != sign(block.get("content") or ""):
            raise invalid(f"{where}: Invalid `signature` in `compaction` block. "
                          "Send the block back as it was returned.")
        if block.get("signature") is not None and threshold_edit(request):
            # The SDK's runner: "the API doesn't accept a compaction block together with" a compaction edit.
            raise invalid(f"{where}: a `compaction` block from a compaction request cannot be sent with a "
                          f"`{COMPACT}` edit.")


def resumed(request: Request) -> Request:
    """The request as the model reads it: from the last compaction block on, the summary in place of the rest."""
    sent = _blocks_sent(request)
    if not sent:
        return request
    messages = list(request.messages)
    found = [(i, j, block) for i, j, block in sent if block.get("content")]
    if found:
        i, j, block = found[-1]
        rest = blocks_of(messages[i]["content"])[j + 1:]
        head = [{"role": "user", "content": [{"type": "text", "text": block["content"]}]}]
        messages = head + ([{"role": messages[i]["role"], "content": rest}] if rest else []) + messages[i + 1:]
    # a block with no summary (a failed compaction) is a no-op
    cleaned = [{**m, "content": [b for b in blocks_of(m["content"]) if b.get("type") != "compaction"]}
               for m in messages]
    return request.with_messages([m for m in cleaned if m["content"]])


def summary(turns: list[Turn]) -> str:
    """A plain short summary, as the simulated model writes it: the task, the tools it used, its last answer."""
    said = [turn.text().strip() for turn in turns if turn.role == "user" and turn.text().strip()]
    task = said[0] if said else ""
    lang = language(task)
    calls = [f"{b['name']}({json.dumps(b.get('input', {}), ensure_ascii=False)})"
             for turn in turns if turn.role == "assistant" for b in turn.of_type("tool_use")]
    answers = [turn.text().strip() for turn in turns if turn.role == "assistant" and turn.text().strip()]
    lines = [words(lang, "Summary of the earlier conversation."),
             words(lang, "Task: ") + _clip(task)]
    if calls:
        lines.append(words(lang, "Tool calls so far: ") + f"{len(calls)}: " + "; ".join(calls[:12]))
    if answers:
        lines.append(words(lang, "Last answer: ") + _clip(answers[-1]))
    return "\n".join(lines)


def _clip(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def block(turns: list[Turn], signed: bool) -> dict:
    """The compaction block for these turns (signed when it answers an on-demand request)."""
    content = summary(turns)
    made = {"type": "compaction", "content": content, "encrypted_content": None}
    if signed:
        made |= {"signature": sign(content), "tool_changes": []}
    return made
