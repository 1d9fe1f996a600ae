"""Failures on demand: the next requests to a path get an error status, a delay, or a
dropped connection, so a lesson (or a test) can watch a client's retries at work."""

import threading
from dataclasses import dataclass


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

    def __init__(self) -> None:
        self._queue: list[Fault] = []
        self._lock = threading.Lock()

    def add(self, fault: Fault) -> Fault:
        if fault.times < 1:
            raise ValueError("a fault must apply at least once (times >= 1)")
        if fault.kind not in ("status", "slow", "drop"):
            raise ValueError(f"unknown fault kind {fault.kind!r}: use 'status', 'slow' or 'drop'")
        if fault.kind == "status" and not 400 <= fault.status <= 599:
            raise ValueError(f"a status fault needs an HTTP error status (400-599), got {fault.status}")
        if not (isinstance(fault.delay, (int, float)) and 0 <= fault.delay <= 600):
            raise ValueError(f"delay must be between 0 and 600 seconds, got {fault.delay!r}")
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
        with self._lock:
            self._queue.clear()

    def pending(self) -> list[Fault]:
        with self._lock:
            return list(self._queue)

    def take(self, path: str) -> Fault | None:
        """The fault for a request to `path`, if any, counting one use of it."""
        with self._lock:
            for fault in self._queue:
                if path.startswith(fault.path_prefix):
                    fault.times -= 1
                    if fault.times == 0:
                        self._queue.remove(fault)
                    return fault
        return None
