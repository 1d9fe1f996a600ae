"""Context editing (beta `context-management-2025-06-27`): before the model reads a request, the API clears
old tool results (`clear_tool_uses_20250919`) and old thinking (`clear_thinking_20251015`) once the request
passes a trigger, and reports what it cleared in the response's `context_management.applied_edits`. The
client's own `messages` stay whole: the edit is made on the server's copy of each request.

Defaults, from the docs' context-editing page: trigger 100,000 input tokens, keep 3 tool uses, nothing
excluded, tool inputs kept; thinking of the last assistant turn kept. The placeholder's wording is the
sandbox's (the docs say a placeholder tells the model the result was removed, without quoting it).
"""

from collections.abc import Callable

from ..errors import invalid
from ..request import Request

BETA = "context-management-2025-06-27"
CLEARED_RESULT = "[Tool result cleared by context editing to save context]"
CLEAR_TOOL_USES = "clear_tool_uses_20250919"
CLEAR_THINKING = "clear_thinking_20251015"
COMPACT = "compact_20260112"


def requires_beta(field: str, beta: str) -> str:
    """The 400 for a beta field sent without its header (API style: the wording is not documented)."""
    return f"{field}: this field requires the `{beta}` beta (anthropic-beta header)."


def check(request: Request) -> None:
    """The betas each edit needs, and the order the API asks for (thinking first)."""
    for i, edit in enumerate(request.edits):
        if edit["type"] in (CLEAR_TOOL_USES, CLEAR_THINKING) and BETA not in request.betas:
            raise invalid(requires_beta(f"context_management.edits.{i}", BETA))
        if edit["type"] == CLEAR_THINKING and i > 0:
            # API style; the docs: "clear_thinking_20251015 must be listed first" when strategies are combined.
            raise invalid(f"context_management.edits.{i}: `{CLEAR_THINKING}` must be the first edit.")


def _blocks(message: dict) -> list[dict]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def clear_tool_uses(messages: list[dict], edit: dict, input_tokens: int,
                    tokens: Callable[[dict], int]) -> tuple[list[dict], dict | None]:
    """The messages with the oldest tool results replaced, and the applied edit (None when not triggered)."""
    uses = [(i, block) for i, m in enumerate(messages) if m["role"] == "assistant"
            for block in _blocks(m) if block.get("type") == "tool_use"]
    trigger = edit.get("trigger") or {"type": "input_tokens", "value": 100_000}
    reached = len(uses) if trigger["type"] == "tool_uses" else input_tokens
    if reached < trigger["value"]:
        return messages, None
    keep = (edit.get("keep") or {"value": 3})["value"]
    excluded = set(edit.get("exclude_tools") or [])
    clear_inputs = edit.get("clear_tool_inputs") or False
    old = uses[:max(len(uses) - keep, 0)]
    clearing = {block["id"]: block for _, block in old if block["name"] not in excluded}
    if not clearing:
        return messages, None
    cleared_tokens = 0
    edited = []
    for message in messages:
        new_blocks = []
        for block in _blocks(message):
            new = block
            if block.get("type") == "tool_result" and block.get("tool_use_id") in clearing:
                new = {**block, "content": CLEARED_RESULT}
            elif block.get("type") == "tool_use" and block.get("id") in clearing and (
                    clear_inputs is True or (isinstance(clear_inputs, list) and block["name"] in clear_inputs)):
                new = {**block, "input": {}}
            cleared_tokens += tokens(block) - tokens(new)
            new_blocks.append(new)
        edited.append({**message, "content": new_blocks})
    at_least = (edit.get("clear_at_least") or {"value": 0})["value"]
    if cleared_tokens < at_least:  # docs: "only modified if at least this many tokens can be removed"
        return messages, None
    return edited, {"type": CLEAR_TOOL_USES, "cleared_tool_uses": len(clearing),
                    "cleared_input_tokens": cleared_tokens}


def clear_thinking(messages: list[dict], edit: dict, tokens: Callable[[dict], int]) -> tuple[list[dict], dict | None]:
    """The messages with thinking removed from all but the last `keep` assistant turns."""
    keep = edit.get("keep") or {"type": "thinking_turns", "value": 1}
    if keep == "all" or keep.get("type") == "all":
        return messages, None
    thinking = ("thinking", "redacted_thinking")
    turns = [i for i, m in enumerate(messages)
             if m["role"] == "assistant" and any(b.get("type") in thinking for b in _blocks(m))]
    clearing = set(turns[:max(len(turns) - keep["value"], 0)])
    if not clearing:
        return messages, None
    cleared_tokens = sum(tokens(b) for i in clearing for b in _blocks(messages[i]) if b.get("type") in thinking)
    edited = [{**m, "content": [b for b in _blocks(m) if b.get("type") not in thinking]} if i in clearing else m
              for i, m in enumerate(messages)]
    edited = [m for m in edited if m["content"]]  # a turn that only thought is left out
    return edited, {"type": CLEAR_THINKING, "cleared_thinking_turns": len(clearing),
                    "cleared_input_tokens": cleared_tokens}


def apply(request: Request, count: Callable[[Request], int], tokens: Callable[[dict], int]
          ) -> tuple[Request, list[dict]]:
    """The request as the model reads it after the clearing edits, and the edits applied, in order."""
    applied = []
    for edit in request.edits:
        messages = list(request.messages)
        if edit["type"] == CLEAR_TOOL_USES:
            messages, done = clear_tool_uses(messages, edit, count(request), tokens)
        elif edit["type"] == CLEAR_THINKING:
            messages, done = clear_thinking(messages, edit, tokens)
        else:
            continue
        if done is not None:
            request = request.with_messages(messages)
            applied.append(done)
    return request, applied
