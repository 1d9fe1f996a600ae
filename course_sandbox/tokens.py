"""The sandbox's approximate tokenizer.

Real tokenizers are not public, so the sandbox counts one token per started
group of four characters of each word or punctuation run, plus small fixed
overheads per message, block and tool. The counts are stable and close enough
in size to the real ones to show what a long history or prompt caching costs.
"""

import json
import re

_PIECES = re.compile(r"\w+|[^\w\s]+")
MESSAGE_OVERHEAD = 4
BLOCK_OVERHEAD = 3
TOOL_OVERHEAD = 20


def count_text(text: str) -> int:
    """Tokens in a piece of text."""
    return sum((len(piece) + 3) // 4 for piece in _PIECES.findall(text))


def count_value(value: object) -> int:
    """Tokens in any JSON value, counted on its compact serialisation."""
    if isinstance(value, str):
        return count_text(value)
    return count_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def count_block(block: dict) -> int:
    """Tokens in one content block (a request block or a response block)."""
    kind = block.get("type")
    if kind == "text":
        body: object = block.get("text", "")
    elif kind == "thinking":
        body = block.get("thinking", "")
    elif kind in ("tool_use", "server_tool_use"):
        body = [block.get("name", ""), block.get("input", {})]
    elif kind == "tool_result":
        body = block.get("content", "")
    else:
        body = {k: v for k, v in block.items() if k not in ("cache_control", "signature")}
    return BLOCK_OVERHEAD + count_value(body)


def count_tool(tool: dict) -> int:
    """Tokens in one tool definition."""
    return TOOL_OVERHEAD + count_value({k: v for k, v in tool.items() if k != "cache_control"})
