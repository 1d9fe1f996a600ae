"""Failures on demand: the next requests to a path get an error status, a delay, or a
dropped connection, so a lesson (or a test) can watch a client's retries at work.

A "slow" fault is capped (at most MAX_DELAY seconds, and at most `slow_capacity` requests held
at once), so it delays the requests it targets and never takes every worker of the server:
a targeted request that finds every slot taken is answered at once. Clearing the faults, or
stopping the sandbox, releases the requests being held."""

import threading
from collections import Counter
from dataclasses import dataclass

MAX_DELAY = 30.0
"""The longest a "slow" fault may hold a request, in seconds (enough to trip any client timeout)."""


@dataclass
class Fault:
    kind: str  # "status", "slow" or "drop"
    path_prefix: str = "/v1/"
    times: int = 1
    status: int = 0
    retry_after: float | None = None
    delay: float = 0.0


class Faults:
    """A queue of faults, taken first-come by the requests whose path they match."""

    def __init__(self, slow_capacity: int = 4) -> None:
        self._queue: list[Fault] = []
        self._lock = threading.Lock()
        self.slow_capacity = slow_capacity
        """How many requests a "slow" fault may hold at once (the server keeps workers for the rest)."""
        self._held = 0
        self._holding: Counter[str] = Counter()
        self._release = threading.Event()

    @property
    def held(self) -> int:
        """How many requests a "slow" fault is holding right now (a grader watches them overlap)."""
        with self._lock:
            return self._held

    def holding(self) -> set[str]:
        """The path prefixes of the faults holding a request right now (a grader watches which kinds of request
        overlap: a file read and a merge request's read held at once ran at the same time)."""
        with self._lock:
            return {prefix for prefix, n in self._holding.items() if n > 0}

    def add(self, fault: Fault) -> Fault:
        if fault.times < 1:
            raise ValueError("a fault must apply at least once (times >= 1)")
        if fault.kind not in ("status", "slow", "drop"):
            raise ValueError(f"unknown fault kind {fault.kind!r}: use 'status', 'slow' or 'drop'")
        if fault.kind == "status" and not 400 <= fault.status <= 599:
            raise ValueError(f"a status fault needs an HTTP error status (400-599), got {fault.status}")
        if not (isinstance(fault.delay, (int, float)) and 0 <= fault.delay <= MAX_DELAY):
            raise ValueError(f"delay must be between 0 and {MAX_DELAY:g} seconds, got {fault.delay!r}")
        if not isinstance(fault.path_prefix, str) or not fault.path_prefix.startswith("/"):
            raise ValueError(f"path must start with '/', got {fault.path_prefix!r}")
        if fault.retry_after is not None and not (
                isinstance(fault.retry_after, (int, float)) and 0 <= fault.retry_after <= 3600):
            raise ValueError(f"retry_after must be between 0 and 3600 seconds, got {fault.retry_after!r}")
        with self._lock:
            self._queue.append(fault)
        return fault

    def status(self, status: int, *, times: int = 1, retry_after: float | None = None, path: str = "/v1/") -> Fault:
        """Answer the next `times` requests with this HTTP status (429, 500, 529...)."""
        return self.add(Fault("status", path, times, status=status, retry_after=retry_after))

    def rate_limit(self, *, times: int = 1, retry_after: float = 0.01, path: str = "/v1/") -> Fault:
        return self.status(429, times=times, retry_after=retry_after, path=path)

    def overloaded(self, *, times: int = 1, retry_after: float = 0.01, path: str = "/v1/") -> Fault:
        return self.status(529, times=times, retry_after=retry_after, path=path)

    def server_error(self, *, times: int = 1, retry_after: float | None = 0.01, path: str = "/v1/") -> Fault:
        return self.status(500, times=times, retry_after=retry_after, path=path)

    def slow(self, seconds: float, *, times: int = 1, path: str = "/v1/") -> Fault:
        """Delay the next responses (enough to trip a client's timeout)."""
        return self.add(Fault("slow", path, times, delay=seconds))

    def drop(self, *, times: int = 1, path: str = "/v1/") -> Fault:
        """Close the connection without answering."""
        return self.add(Fault("drop", path, times))

    def clear(self) -> None:
        """Forget every pending fault, and let go of the requests a "slow" fault is holding."""
        with self._lock:
            self._queue.clear()
            if self._held:
                self._release.set()

    def release(self) -> None:
        """Let go of the requests being held (the sandbox is stopping)."""
        self._release.set()

    def pending(self) -> list[Fault]:
        with self._lock:
            return list(self._queue)

    def take(self, path: str) -> Fault | None:
        """The fault for a request to `path`, if any, counting one use of it. A "slow" fault
        whose slots are all taken is left for a later request."""
        with self._lock:
            for fault in self._queue:
                if path.startswith(fault.path_prefix):
                    if fault.kind == "slow":
                        if self._held >= self.slow_capacity:
                            return None
                        self._held += 1
                        self._holding[fault.path_prefix] += 1
                        if self._held == 1:
                            self._release.clear()
                    fault.times -= 1
                    if fault.times == 0:
                        self._queue.remove(fault)
                    return fault
        return None

    def hold(self, fault: Fault) -> None:
        """Wait out a "slow" fault taken by take() (sooner if the faults are cleared)."""
        try:
            self._release.wait(min(fault.delay, MAX_DELAY))
        finally:
            with self._lock:
                self._held -= 1
                self._holding[fault.path_prefix] -= 1
