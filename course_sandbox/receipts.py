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


_answers: "OrderedDict[str, list[Receipt]]" = OrderedDict()
_lock = threading.Lock()


def keep(message: dict) -> None:
    """Remember a response message the sandbox is about to send."""
    texts = tuple(b.get("text", "") for b in message.get("content", []) if b.get("type") == "text")
    receipt = Receipt(message.get("stop_reason"), message.get("stop_sequence"), texts)
    with _lock:
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


def any_answered() -> bool:
    """True once a sandbox of this process has answered a Messages request."""
    with _lock:
        return bool(_answers)
