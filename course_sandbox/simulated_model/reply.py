"""What the simulated model decides to say: content blocks, why it stopped, and the
reasoning that becomes a thinking block when the request enables thinking."""

from collections.abc import Callable
from dataclasses import dataclass, field

NewId = Callable[[str], str]
"""Makes the next deterministic id with a prefix, e.g. new_id("toolu_01")."""


@dataclass
class Reply:
    blocks: list[dict] = field(default_factory=list)
    stop_reason: str = "end_turn"
    stop_details: dict | None = None
    reasoning: str = ""
    notes: list[str] = field(default_factory=list)
    """Text blocks that say which values were assumed (assumptions.py): a model that must start a forced
    answer with the call (Haiku 5.5) writes them after it instead of dropping them."""


def text_reply(text: str, reasoning: str = "") -> Reply:
    return Reply([{"type": "text", "text": text}], "end_turn", reasoning=reasoning)


def tool_reply(preface: str, uses: list[tuple[str, dict]], new_id: NewId, reasoning: str = "",
               notes: list[str] | None = None) -> Reply:
    """A turn that asks for one or more tools, with a sentence before them as real models write, and
    the notes of what it assumed."""
    blocks: list[dict] = [{"type": "text", "text": text} for text in [preface, *(notes or [])] if text]
    for name, tool_input in uses:
        blocks.append({"type": "tool_use", "id": new_id("toolu_01"), "name": name, "input": tool_input})
    return Reply(blocks, "tool_use", reasoning=reasoning, notes=list(notes or []))


def call_first(reply: Reply) -> Reply:
    """The reply with its notes after its calls: a forced answer that must start with the call still
    says what it assumed, after it (the docs forbid only text before the call)."""
    notes = [b for b in reply.blocks if b["type"] == "text" and b["text"] in reply.notes]
    if not notes:
        return reply
    rest = [b for b in reply.blocks if not any(b is note for note in notes)]
    reply.blocks = [*rest, *notes]
    return reply
