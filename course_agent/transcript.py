"""The conversation on disk: one JSON line per message, written as soon as it is appended,
so a run that fails at iteration 17 can be read, and resumed, from its file."""

import json
from pathlib import Path
from typing import Any

from anthropic.types import MessageParam

from .redaction import redact


def as_json(value: Any) -> Any:
    """A message (or block) with the SDK's model objects turned into plain JSON values."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value


class Transcript:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def append(self, message: MessageParam, **meta: Any) -> None:
        self._write({"message": as_json(message), **meta})

    def event(self, name: str, **data: Any) -> None:
        """A line that is not a message (e.g. why the run stopped); `load()` skips it."""
        self._write({"event": name, **as_json(data)})

    def _write(self, entry: dict) -> None:
        """One JSON line, secrets hidden, appended at once (the file is opened and closed each time)."""
        line = json.dumps(entry, ensure_ascii=False, default=str)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(redact(line) + "\n")

    def messages(self) -> list[MessageParam]:
        """The messages saved so far, ready to pass back as `messages=` (to resume)."""
        return load(self.path)


def load(path: str | Path) -> list[MessageParam]:
    return [entry["message"] for entry in entries(path) if "message" in entry]


def entries(path: str | Path) -> list[dict]:
    """Every line of the file: messages with what was saved beside them (iteration, stop_reason), and events."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


ENDED_FOR_GOOD = ("Refused",)
"""Errors after which sending the same history again cannot help (a refusal: the lesson's rule)."""


def finished(path: str | Path) -> bool:
    """Whether the run saved in the file has ended: with the model's answer (end_turn or stop_sequence), or
    with a refusal, which a retry of the same request would only repeat. Anything else (a tool call without
    its results, pause_turn, a run stopped by another error) can be resumed."""
    every = entries(path)
    if every and every[-1].get("event") == "error" and every[-1].get("kind") in ENDED_FOR_GOOD:
        return True
    saved = [entry for entry in every if "message" in entry]
    return bool(saved) and saved[-1]["message"].get("role") == "assistant" and \
        saved[-1].get("stop_reason") in ("end_turn", "stop_sequence")
