"""What the simulated model decides to say: content blocks, why it stopped, and the
reasoning that becomes a thinking block when the request enables thinking."""

from dataclasses import dataclass, field
from typing import Callable

NewId = Callable[[str], str]
"""Makes the next deterministic id with a prefix, e.g. new_id("toolu_01")."""


@dataclass
class Reply:
    blocks: list[dict] = field(default_factory=list)
    stop_reason: str = "end_turn"
    stop_details: dict | None = None
    reasoning: str = ""


def text_reply(text: str, reasoning: str = "") -> Reply:
    return Reply([{"type": "text", "text": text}], "end_turn", reasoning=reasoning)


def tool_reply(preface: str, uses: list[tuple[str, dict]], new_id: NewId, reasoning: str = "") -> Reply:
    """A turn that asks for one or more tools, with a sentence before them as real models write."""
    blocks: list[dict] = [{"type": "text", "text": preface}]
    for name, tool_input in uses:
        blocks.append({"type": "tool_use", "id": new_id("toolu_01"), "name": name, "input": tool_input})
    return Reply(blocks, "tool_use", reasoning=reasoning)
