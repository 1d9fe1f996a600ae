"""A least-recently-used cache bounded by bytes, not by entries: a few huge values (a 5 MB
prompt block, a large file) cannot make the sandbox's memory grow without bound."""

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

_MISSING = object()


def size_of(value: Any) -> int:
    """Roughly how many bytes a key or value holds (containers are summed one level deep)."""
    if isinstance(value, (str, bytes, bytearray)):
        return sys.getsizeof(value)
    if isinstance(value, (tuple, list)):
        return sys.getsizeof(value) + sum(size_of(v) for v in value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k) + size_of(v) for k, v in value.items())
    return sys.getsizeof(value)


class BytesCache:
    """key -> value, evicting the least recently used entries once `max_bytes` is exceeded.
    A single value larger than a quarter of the budget is computed but not kept."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            found = self._entries.get(key, _MISSING)
            if found is _MISSING:
                return default
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any) -> None:
        size = size_of(key) + size_of(value) + 64
        if size > self.max_bytes // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._entries[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes and self._entries:
                _, (_, freed) = self._entries.popitem(last=False)
                self._bytes -= freed

    def get_or_compute(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        found = self.get(key, _MISSING)
        if found is _MISSING:
            found = compute()
            self.put(key, found)
        return found

    def pop(self, key: Hashable) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
