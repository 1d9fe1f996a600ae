"""A loop observer for terminals: one line per API call and per tool result, with sizes,
tokens and cache use, so a long run shows what it is doing."""

import sys
from typing import TextIO

from anthropic.types import Message, MessageParam

from .loop import LoopObserver
from .redaction import redact


class ProgressPrinter(LoopObserver):
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr

    def _say(self, line: str) -> None:
        print(redact(line), file=self.stream, flush=True)

    def on_response(self, iteration: int, response: Message) -> None:
        usage = response.usage
        calls = ", ".join(f"{b.name}({', '.join(f'{k}={v!r}' for k, v in b.input.items())})"[:120]
                          for b in response.content if b.type == "tool_use")
        self._say(f"[{iteration}] {response.stop_reason}: in {usage.input_tokens} tok "
                  f"(cache read {usage.cache_read_input_tokens or 0}, write {usage.cache_creation_input_tokens or 0}), "
                  f"out {usage.output_tokens} tok" + (f" -> {calls}" if calls else ""))

    def on_message(self, message: MessageParam) -> None:
        if message["role"] != "user" or isinstance(message["content"], str):
            return
        for block in message["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                content = block.get("content", "")
                size = len(content) if isinstance(content, str) else sum(len(str(c)) for c in content)
                status = "ERROR " if block.get("is_error") else ""
                first = content.splitlines()[0][:100] if isinstance(content, str) and content else ""
                self._say(f"    {status}result {size} chars" + (f": {first}" if status else ""))
