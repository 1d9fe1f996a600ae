"""Prompt caching by the real rules, on the sandbox's token counts.

The prompt is read in the API's order (tools, then system, then messages) as a
list of blocks. A block with `cache_control` (or the last block, when the request
asks for automatic caching with a top-level `cache_control`) is a breakpoint: the
prefix up to it is written to the cache if it is at least the model's minimum
length. A later request reads the longest cached prefix that ends at one of its
breakpoints or up to 20 blocks before one. At most 4 breakpoints. Entries never
expire in the sandbox (the real cache keeps them 5 minutes or 1 hour), so runs
stay deterministic.
"""

import hashlib
import json
import threading
from dataclasses import dataclass

from . import tokens
from .bytes_cache import BytesCache
from .conversation import Turn
from .errors import invalid
from .request import Request

LOOKBACK_BLOCKS = 20
MAX_BREAKPOINTS = 4
TOOLS_PREAMBLE_TOKENS = 300
"""What the API adds to the prompt when tools are present (the tool-use system prompt)."""
REQUEST_OVERHEAD_TOKENS = 4
MAX_CACHE_ENTRIES = 100_000
"""Prefixes one sandbox remembers (a digest and a number each, about 150 bytes); the oldest go first."""


@dataclass
class Usage:
    input_tokens: int
    cache_read_input_tokens: int
    cache_creation_input_tokens: int
    cache_creation_1h: int
    writes: tuple[tuple[str, int], ...] = ()
    """The prefixes this request writes to the cache (digest, tokens): stored only once it is accepted."""

    @property
    def total_input(self) -> int:
        return self.input_tokens + self.cache_read_input_tokens + self.cache_creation_input_tokens


@dataclass
class _Item:
    tokens: int
    breakpoint_ttl: str | None  # "5m" or "1h" where the block carries cache_control
    digest: str = ""  # hash of the prefix that ends with this block


def _items(request: Request, turns: list[Turn]) -> list[_Item]:
    """The prompt's blocks in cache order, each with its tokens, breakpoint and prefix digest.

    A prefix's digest identifies the model and every block up to it (role and content, not its
    `cache_control`): a message block is hashed as its role, a NUL and its sorted JSON (`Turn.encoded`,
    shared with thinking), which no tool or system block (JSON objects) can be taken for."""
    running = hashlib.sha256(str(request.model).encode())
    items = []

    def add(control: dict | None, count: int) -> None:
        items.append(_Item(count, (control.get("ttl") or "5m") if control else None, running.hexdigest()))

    system = request.system or []
    for n, tool in enumerate(request.tools):
        canonical = _sorted({"tool": tool})
        running.update(canonical)
        add(None, (TOOLS_PREAMBLE_TOKENS if n == 0 else 0) + _tokens(canonical))  # as before #26: no breakpoint
    for block in [{"type": "text", "text": system}] if isinstance(system, str) else system:
        canonical = _sorted(block)
        running.update(canonical)
        add(block.get("cache_control"), _tokens(canonical))
    for turn in turns:
        role = turn.role.encode() + b"\0"
        for n, (block, encoded) in enumerate(zip(turn.blocks, turn.encoded, strict=False)):
            running.update(role + encoded.text)
            add(block.get("cache_control"), (tokens.MESSAGE_OVERHEAD if n == 0 else 0) + encoded.tokens)
    if request.cache_control and items:
        items[-1].breakpoint_ttl = request.cache_control.get("ttl") or "5m"
    return items


def _sorted(block: dict) -> bytes:
    return json.dumps({k: v for k, v in block.items() if k != "cache_control"}, sort_keys=True).encode()


_counted = BytesCache(4 * 1024 * 1024)
"""Token counts of blocks already seen, keyed by the SHA-256 of the block (never by its text, so a
5 MB block costs 32 bytes here): each block of a growing conversation is counted once."""


def _tokens(canonical: bytes) -> int:
    """Tokens of a tool or a system block, given as sorted JSON (a message block's are `Turn.encoded`'s)."""
    key = hashlib.sha256(canonical).digest()
    found = _counted.get(key)
    if found is None:
        block = json.loads(canonical)
        if "tool" in block:
            found = tokens.count_tool(block["tool"])
        else:
            found = tokens.count_block({k: v for k, v in block.items() if k != "role"})
        _counted.put(key, found)
    return found


def count_input(request: Request, turns: list[Turn]) -> int:
    """Input tokens of a request, all of them, as count_tokens reports."""
    return REQUEST_OVERHEAD_TOKENS + sum(item.tokens for item in _items(request, turns))


class PromptCache:
    """One sandbox's cache: prefix digest -> its length in tokens."""

    def __init__(self) -> None:
        self._entries: dict[str, int] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def usage(self, request: Request, turns: list[Turn], min_cacheable: int) -> Usage:
        """Bill a request: read the longest cached prefix, and say which prefixes at its breakpoints
        it writes. Nothing is written here: `store` does it once the request is accepted (a request
        refused later, e.g. for a prompt too long, leaves the cache as it was)."""
        items = _items(request, turns)
        cumulative = []
        total = REQUEST_OVERHEAD_TOKENS
        for item in items:
            total += item.tokens
            cumulative.append(total)
        breakpoints = [n for n, item in enumerate(items) if item.breakpoint_ttl]
        if len(breakpoints) > MAX_BREAKPOINTS:
            raise invalid(
                f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {len(breakpoints)}."
            )
        with self._lock:
            hit = -1
            for b in breakpoints:
                for n in range(b, max(-1, b - LOOKBACK_BLOCKS - 1), -1):
                    if items[n].digest in self._entries:
                        hit = max(hit, n)
                        break
        read = cumulative[hit] if hit >= 0 else 0
        written, ttl = read, "5m"
        writes = []
        for b in breakpoints:
            if b > hit and cumulative[b] >= min_cacheable:
                writes.append((items[b].digest, cumulative[b]))
                written, ttl = cumulative[b], items[b].breakpoint_ttl or "5m"
        creation = written - read
        return Usage(total - read - creation, read, creation, creation if ttl == "1h" else 0, tuple(writes))

    def store(self, usage: Usage) -> None:
        """Write the prefixes an accepted request cached (the oldest entries go when it is full)."""
        with self._lock:
            for digest, length in usage.writes:
                self._entries.pop(digest, None)
                self._entries[digest] = length
                while len(self._entries) > MAX_CACHE_ENTRIES:
                    del self._entries[next(iter(self._entries))]

    def __len__(self) -> int:
        """How many prefixes are cached (for tests and the curious)."""
        return len(self._entries)
