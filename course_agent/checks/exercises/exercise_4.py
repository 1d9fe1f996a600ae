"""Exercise 4 (notebook 4): the calls of one turn run concurrently, in the calls' order, with all their
results in one message. Each file read of the scenario is slowed down, so that time tells."""

from collections.abc import Callable

from ...i18n import N_, ntr, tr
from ..report import Report
from ..scenario import run_scenario
from ..wire import blocks, tool_uses
from .grading import Requirement, Seen
from .loops import grade_loop

SLOW_READ = 1.0
"""Seconds each file read takes in notebook 4's scenario: run one after another, they add up."""


def _concurrent(loop: Callable, lang: str) -> Seen:
    run = run_scenario(loop, 484, slow_files=SLOW_READ)
    parallel = next(((i, r) for i, r in run.answered if len(tool_uses(r)) >= 2), None)
    if parallel is None or parallel[0] + 1 >= len(run.calls):
        return Seen(None, tr("no turn with several calls was answered", lang))
    i, reply = parallel
    reads = [e for e in run.gitlab_between(run.calls[i], run.calls[i + 1]) if "/repository/files/" in e.path]
    ids = [u.get("id") for u in tool_uses(reply)]
    sent = [b.get("tool_use_id") for m in run.calls[i + 1].body.get("messages") or [] if isinstance(m, dict)
            for b in blocks(m.get("content")) if b.get("type") == "tool_result" and b.get("tool_use_id") in ids]
    one_after_another = len(reads) * SLOW_READ
    figures = {"seconds": f"{SLOW_READ:g}", "total": f"{one_after_another:g}"}
    if len(reads) < 2:
        return Seen(None, tr("the turn read fewer than two files", lang))
    if sent != ids:
        return Seen(False, tr("the results came back in another order than the calls", lang))
    if run.seconds >= one_after_another - SLOW_READ / 2:
        return Seen(False, ntr(
            "{n} file read of {seconds} s took at least {total} s in all: one after another, not at the same time",
            "{n} file reads of {seconds} s each took at least {total} s in all: one after another, not at the "
            "same time", len(reads), lang, **figures))
    return Seen(True, ntr("{n} file read of {seconds} s took less than {total} s in all: at the same time",
                          "{n} file reads of {seconds} s each took less than {total} s in all: at the same time",
                          len(reads), lang, **figures))


CONCURRENT = Requirement(
    "concurrent", N_("The calls of one turn run concurrently, and their results keep the calls' order"), _concurrent)
NOTE = N_("Not done yet: run the calls of a turn at the same time (run_all or a thread pool), keep their order, and "
          "send all results in one message.")
HINT = N_("Toolbox.run_all(calls) runs the calls in threads and returns the results in the calls' order; "
          "concurrent.futures.ThreadPoolExecutor.map does the same.")


def check_exercise_4(loop: Callable | None, language: str | None = None) -> Report:
    """The calls of one turn run concurrently, in order, with all results in one message."""
    return grade_loop(4, loop, language, ["whole_response", "one_message"], NOTE, HINT, CONCURRENT)
