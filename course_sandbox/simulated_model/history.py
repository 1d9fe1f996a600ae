"""What the simulated model reads from the conversation: the task, the language, and the
tool calls it made so far with their results."""

import re
from dataclasses import dataclass

from ..conversation import Turn

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@dataclass
class Call:
    """A tool call from the history and, once answered, its result."""

    id: str
    name: str
    input: dict
    result: str | None = None
    is_error: bool = False


def result_text(block: dict) -> str:
    """The text of a tool_result block, whether its content is a string or a list of blocks."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))


def task_turn(turns: list[Turn]) -> Turn:
    """The latest user turn that says something in words (not only tool results)."""
    for turn in reversed(turns):
        if turn.role == "user" and turn.text().strip():
            return turn
    return turns[0]


def language(text: str) -> str:
    """'ru' when the text is written in Russian, else 'en'."""
    return "ru" if _CYRILLIC.search(text) else "en"


def calls(turns: list[Turn], whole: bool = False) -> list[Call]:
    """Every tool call made since the task was given (whole=True: in the whole conversation), in
    order, with its result if any."""
    start = 0 if whole else turns.index(task_turn(turns))
    made: list[Call] = []
    for k in range(start, len(turns)):
        turn = turns[k]
        if turn.role != "assistant":
            continue
        results = {b["tool_use_id"]: b for b in turns[k + 1].of_type("tool_result")} if k + 1 < len(turns) else {}
        for block in turn.of_type("tool_use"):
            result = results.get(block["id"])
            made.append(Call(
                block["id"], block["name"], block.get("input") or {},
                None if result is None else result_text(result),
                bool(result and result.get("is_error")),
            ))
    return made


def results_were_split(turns: list[Turn]) -> bool:
    """True once the results of one parallel turn came back over several user messages.

    The API merges consecutive user messages, so this is legal; but, as the lesson says,
    a model that sees it learns to stop calling tools in parallel.
    """
    for k, turn in enumerate(turns[:-1]):
        if turn.role == "assistant" and len(turn.of_type("tool_use")) > 1:
            nxt = turns[k + 1]
            sources = {i for block, (i, _) in zip(nxt.blocks, nxt.origin, strict=False)
                       if block.get("type") == "tool_result"}
            if len(sources) > 1:
                return True
    return False
