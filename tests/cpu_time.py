"""CPU seconds this process spends on a piece of work: the hang guards of the tests (a regex that backtracks for ever,
a reader gone quadratic) count work done, not time spent waiting for a core, so the load of a shared machine cannot
trip them. Speed targets live in benchmarks/; each bound here is many times the work's measured cost."""

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def cpu_seconds(work: Callable[[], T]) -> tuple[T, float]:
    """`work()`'s result and the CPU seconds the process (every thread: an in-process sandbox's included) spent on it."""
    started = time.process_time()
    result = work()
    return result, time.process_time() - started
