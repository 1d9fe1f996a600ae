"""A loop observer for terminals: one line per API call and per tool result, with sizes,
tokens and cache use, so a long run shows what it is doing."""

import sys
from typing import TextIO

from anthropic.types import Message, MessageParam

from .i18n import ntr, tr
from .loop import LoopObserver
from .redaction import redact


class ProgressPrinter(LoopObserver):
    def __init__(self, stream: TextIO | None = None, language: str | None = None) -> None:
        self.stream = stream or sys.stderr
        self.language = language

    def _say(self, line: str) -> None:
        print(redact(line), file=self.stream, flush=True)

    def on_response(self, iteration: int, response: Message) -> None:
        usage = response.usage
        calls = ", ".join(f"{b.name}({', '.join(f'{k}={v!r}' for k, v in b.input.items())})"[:120]
                          for b in response.content if b.type == "tool_use")
        self._say(f"[{iteration}] {response.stop_reason}: " + tr(
            "in {input} tok (cache read {read}, write {written}), out {output} tok", self.language,
            input=usage.input_tokens, read=usage.cache_read_input_tokens or 0,
            written=usage.cache_creation_input_tokens or 0, output=usage.output_tokens)
            + (f" -> {calls}" if calls else ""))

    def on_message(self, message: MessageParam) -> None:
        if message["role"] != "user" or isinstance(message["content"], str):
            return
        for block in message["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                content = block.get("content", "")
                size = len(content) if isinstance(content, str) else sum(len(str(c)) for c in content)
                failed = bool(block.get("is_error"))
                first = content.splitlines()[0][:100] if isinstance(content, str) and content else ""
                line = (ntr("ERROR result {n} char", "ERROR result {n} chars", size, self.language) if failed
                        else ntr("result {n} char", "result {n} chars", size, self.language))
                self._say("    " + line + (f": {first}" if failed else ""))
