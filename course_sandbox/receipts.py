"""What this process's sandboxes answered, by message id: a grader told "here is the Message the API returned"
asks whether a sandbox really returned it, unchanged, instead of trusting an object anyone can build by hand.

Process-wide, since a learner's sandbox may be stopped (or another started) before the check runs; bounded,
since a long session answers many requests. The same id can carry several answers (an identical request
answered again after an ordered misbehaviour), so each id keeps every answer it had.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

KEPT = 4096
"""Ids remembered; the oldest are forgotten first."""


@dataclass(frozen=True)
class Receipt:
    """The parts of an answer a grader compares with what it is shown."""

    stop_reason: str | None
    stop_sequence: str | None
    texts: tuple[str, ...]
    """The text blocks, in order."""
    tool_use_ids: tuple[str, ...] = ()
    """The ids of its tool_use blocks, in order (each unique: a history's message can be traced to its answer)."""
    asked: str = ""
    """The text of the request's last user message: what the answer answered."""
    thinking: int = 0
    """How many thinking and redacted_thinking blocks it carried: a tool-use turn sent back without them was
    changed (the API refuses a dropped or reordered thinking block)."""


_answers: "OrderedDict[str, list[Receipt]]" = OrderedDict()
_by_tool_use: "OrderedDict[str, Receipt]" = OrderedDict()
_lock = threading.Lock()


def keep(message: dict, asked: str = "") -> None:
    """Remember a response message the sandbox is about to send, and the text it answered."""
    content = message.get("content", [])
    texts = tuple(b.get("text", "") for b in content if b.get("type") == "text")
    uses = tuple(str(b.get("id")) for b in content if b.get("type") == "tool_use")
    thought = sum(b.get("type") in ("thinking", "redacted_thinking") for b in content)
    receipt = Receipt(message.get("stop_reason"), message.get("stop_sequence"), texts, uses, asked, thought)
    with _lock:
        for use in uses:
            _by_tool_use[use] = receipt
        while len(_by_tool_use) > KEPT:
            _by_tool_use.popitem(last=False)
        answers = _answers.setdefault(message["id"], [])
        if receipt not in answers:
            answers.append(receipt)
        _answers.move_to_end(message["id"])
        while len(_answers) > KEPT:
            _answers.popitem(last=False)


def answered(message_id: object) -> list[Receipt]:
    """Every answer a sandbox of this process sent with this id (none: it sent no such message)."""
    with _lock:
        return list(_answers.get(message_id, ())) if isinstance(message_id, str) else []


def answer_with_tool_use(tool_use_id: object) -> Receipt | None:
    """The answer a sandbox of this process sent with this tool_use block, if any."""
    with _lock:
        return _by_tool_use.get(tool_use_id) if isinstance(tool_use_id, str) else None


def answers_with(texts: tuple[str, ...]) -> list[Receipt]:
    """The answers without a tool call whose text blocks were exactly these (a final answer, traced by its text)."""
    with _lock:
        return [r for answers in _answers.values() for r in answers if r.texts == texts and not r.tool_use_ids]
