"""Tools the agent may call, and the dispatcher that runs them.

The dispatcher holds the lesson's rule that a tool error is a result, not an exception:
an unknown tool, input that breaks the tool's schema, a refusal by the safety gate, and any
exception inside the tool all come back as a `tool_result` with `is_error: true` and a
message the model can act on. The calls of one turn run concurrently; results keep the
order of the requests, all of them for ONE user message.
"""

import enum
import json
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from anthropic.types import ToolParam, ToolResultBlockParam, ToolUseBlock
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from .i18n import number, tr
from .redaction import redact

MAX_RESULT_CHARS = 20_000
"""Results longer than this are cut, with a note saying so: a whole catalogue file would
otherwise fill the context window and the bill."""


class Risk(enum.Enum):
    READ_ONLY = "read-only"
    WRITES = "writes"
    DANGEROUS = "dangerous"


class ToolError(Exception):
    """Raised by a tool for a failure the model should read (its message becomes the result)."""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_schema: dict
    function: Callable[..., Any]
    risk: Risk = Risk.READ_ONLY

    def to_param(self) -> ToolParam:
        """The definition sent to the API in `tools=`."""
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


Gate = Callable[[Tool, dict], str | None]
"""Asked before a tool runs: returns None to let it run, or the reason it may not."""


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def cut(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    if len(text) <= limit:
        return text
    # n > limit, so "characters" is plural in English; in Russian the note names the range sent, «символы 0–20 000 из
    # 484 915», as notebook 8's own cut does, and its figures are grouped as Russian writes them
    return text[:limit] + "\n\n" + tr("[truncated: showing the first {limit} of {n} characters. Ask for a narrower "
                                      "part if you need the rest.]", limit=number(limit, digits=0),
                                      n=number(len(text), digits=0))


@dataclass
class Toolbox:
    """The tools of one agent, by name, and how to run what the model asks for."""

    tools: list[Tool]
    gate: Gate | None = None
    max_workers: int = 8
    _validators: dict[str, Draft202012Validator] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        names = [t.name for t in self.tools]
        if len(names) != len(set(names)):
            raise ValueError(f"tool names must be unique, got {names}")
        self._by_name = {t.name: t for t in self.tools}
        for tool in self.tools:
            Draft202012Validator.check_schema(tool.input_schema)
            self._validators[tool.name] = Draft202012Validator(tool.input_schema)

    def params(self) -> list[ToolParam]:
        return [t.to_param() for t in self.tools]

    def get(self, name: str) -> Tool | None:
        return self._by_name.get(name)

    def run(self, block: ToolUseBlock) -> ToolResultBlockParam:
        """One tool call -> its tool_result. Never raises."""
        try:
            content, is_error = self._run(block.name, block.input)
        except Exception as error:  # the loop must survive anything a tool does
            content, is_error = tr("Tool {name} failed: {error}", name=repr(block.name),
                                   error=f"{type(error).__name__}: {error}"), True
        result: ToolResultBlockParam = {"type": "tool_result", "tool_use_id": block.id,
                                        "content": cut(redact(content))}
        if is_error:
            result["is_error"] = True
        return result

    def run_all(self, blocks: Iterable[ToolUseBlock]) -> list[ToolResultBlockParam]:
        """Every call of one turn; results in the order of the calls. Read-only calls run concurrently,
        calls that write or are dangerous one at a time, in order, after them (docs: parallel tool use)."""
        blocks = list(blocks)
        reads = [i for i, b in enumerate(blocks) if self._risk(b.name) is Risk.READ_ONLY]
        results: dict[int, ToolResultBlockParam] = {}
        if len(reads) > 1:
            pool = ThreadPoolExecutor(max_workers=min(self.max_workers, len(reads)))
            try:
                results.update(zip(reads, pool.map(self.run, [blocks[i] for i in reads]), strict=True))
            except BaseException:  # Ctrl-C: do not wait for the calls still running, start no more
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
        for i, block in enumerate(blocks):
            if i not in results:
                results[i] = self.run(block)
        return [results[i] for i in range(len(blocks))]

    def _risk(self, name: str) -> Risk:
        tool = self._by_name.get(name)
        return tool.risk if tool is not None else Risk.READ_ONLY  # an unknown name only gets an error back

    def _run(self, name: str, tool_input: object) -> tuple[str, bool]:
        tool = self._by_name.get(name)
        if tool is None:
            return f"Unknown tool {name!r}. Available tools: {', '.join(self._by_name) or 'none'}.", True
        problem = best_match(self._validators[name].iter_errors(tool_input))
        if problem is not None:
            where = "/".join(str(p) for p in problem.absolute_path) or "input"
            return f"Invalid input for {name}: {where}: {problem.message}. Fix the input and call again.", True
        if self.gate is not None:
            refusal = self.gate(tool, tool_input)  # type: ignore[arg-type]
            if refusal is not None:
                return refusal, True
        try:
            return _text(tool.function(**tool_input)), False  # type: ignore[arg-type]
        except ToolError as error:
            return str(error), True
