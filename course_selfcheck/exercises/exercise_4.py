"""Exercise 4 (notebook 4): the calls of one turn run concurrently, in the calls' order, with all their
results in one message.

Each file read of the scenario is held by the sandbox for SLOW_READ seconds, and the grader watches how
many reads are in flight at once (started and not yet answered). Reads that run one after another never
overlap, however fast the machine; reads that run at the same time overlap for about SLOW_READ seconds,
however loaded it is, and whatever the learner's loop adds around them (notebook 4's own `run_all` waits
0.3 s in each call). So overlap is judged, not the wall time against a fixed limit."""

import threading
from collections.abc import Callable

from course_agent.i18n import N_, ntr, tr
from course_sandbox import Sandbox

from ..report import Report
from ..rules import mispaired
from ..scenario import Run, Sandboxes, run_scenario
from ..wire import results_for, tool_uses
from .exercise_3 import grade_own_loop
from .grading import Requirement, Seen
from .loops import crashed

SLOW_READ = 1.0
"""Seconds the sandbox holds each file read in notebook 4's scenario."""
FILES = "/repository/files/"
POLL = 0.01
"""Seconds between two looks at the reads in flight (a tenth of a read's time or less is enough)."""


class InFlight:
    """The most file reads in flight at once in a sandbox: the requests its "slow" faults hold (only the
    file reads have one), looked at every POLL seconds while the scenario runs."""

    def __init__(self, sandboxes: Sandboxes) -> None:
        self.sandboxes = sandboxes
        self.most = 0
        self.kinds = 0
        """The most kinds of GitLab request (file reads, merge request reads) held at once."""
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def _watch(self, sandbox: Sandbox) -> None:
        while not self._stop.wait(POLL):
            self.most = max(self.most, sandbox.faults.held)
            self.kinds = max(self.kinds, len({FILES in prefix for prefix in sandbox.faults.holding()}))

    def take(self) -> Sandbox:
        sandbox = self.sandboxes.take()
        self._watcher = threading.Thread(target=self._watch, args=(sandbox,), daemon=True,
                                         name="course-agent-exercise-4-watch")
        self._watcher.start()
        return sandbox

    def give_back(self, sandbox: Sandbox) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join()
        self.sandboxes.give_back(sandbox)


def _parallel_turn(run: Run) -> tuple[int, dict] | None:
    """(index of the call, its reply) of the first answered turn with several tool calls and a next call."""
    turn = next(((i, r) for i, r in run.answered if len(tool_uses(r)) >= 2), None)
    return None if turn is None or turn[0] + 1 >= len(run.calls) else turn


def _watched(loop: Callable, misbehave: tuple[str, ...], **held: float) -> tuple[Run, InFlight]:
    """The loop run on !484 with the GitLab requests `held` names held (slow_files, slow_merge_requests), and what
    was in flight at once."""
    with Sandboxes() as sandboxes:
        watch = InFlight(sandboxes)
        run = run_scenario(loop, 484, misbehave, sandboxes=watch, **held)  # type: ignore[arg-type]
    return run, watch


ORDER_HINT = N_("Keep the results in the calls' order: as_completed gives them in the order the calls finish (and a "
                "sort puts them in its own); pool.map, as run_all uses it, gives them in the calls' order, whichever "
                "call finishes first.")


def _concurrent(loop: Callable, lang: str) -> Seen:
    # the turn of reads comes the other way round: results sorted back (by path, say) are seen out of order
    run, watch = _watched(loop, ("reversed_calls",), slow_files=SLOW_READ)
    most = watch.most
    turn = _parallel_turn(run)
    problem = crashed(run, lang)
    if problem is not None:
        return problem
    if turn is None:
        return Seen(None, tr("no turn with several calls was answered", lang))
    i, reply = turn
    reads = [e for e in run.gitlab_between(run.calls[i], run.calls[i + 1]) if FILES in e.path]
    ids = [u.get("id") for u in tool_uses(reply)]
    results = results_for(run.calls[i + 1].body, ids)
    sent, wrong = [b.get("tool_use_id") for b in results], mispaired(run, reply, results, lang)
    if len(reads) < 2:
        return Seen(None, tr("the turn read fewer than two files", lang))
    if sent != ids or out_of_order(run):
        return Seen(False, tr("the results came back in another order than the calls", lang), hint=ORDER_HINT)
    if wrong is not None:
        return Seen(False, wrong)
    figures = {"seconds": f"{SLOW_READ:g}", "most": most}
    if most < 2:
        return Seen(False, ntr(
            "the turn read {n} file, each held {seconds} s by the sandbox; no two reads were in flight at once "
            "(2 or more were expected): the reads ran one after another",
            "the turn read {n} files, each held {seconds} s by the sandbox; no two reads were in flight at once "
            "(2 or more were expected): the reads ran one after another", len(reads), lang, **figures))
    diffs = _tools_concurrent(loop, lang)
    if diffs is not None and diffs.ok is False:
        return diffs
    passed = ntr(
        "the turn read {n} file, each held {seconds} s by the sandbox; {most} reads were in flight at once: "
        "they ran at the same time",
        "the turn read {n} files, each held {seconds} s by the sandbox; {most} reads were in flight at once: "
        "they ran at the same time", len(reads), lang, **figures)
    return Seen(True, passed if diffs is None else f"{passed}; {diffs.detail}")


def out_of_order(run: Run) -> bool:
    """Any turn of several calls whose results came back in another order than the calls (an order restored by
    sorting on something else, the ids say, may match it in one turn and not the next)."""
    for i, reply in run.answered:
        ids = [u.get("id") for u in tool_uses(reply)]
        if len(ids) >= 2 and i + 1 < len(run.calls):
            sent = [b.get("tool_use_id") for b in results_for(run.calls[i + 1].body, ids)]
            if sent and sent != ids:
                return True
    return False


def _tools_concurrent(loop: Callable, lang: str) -> Seen | None:
    """A second run, where the model's turn of file reads also asks for get_diff again (the sandbox's mixed_turn) and
    both kinds of GitLab request are held: a read and the diff overlap too (every call of a turn runs at the same
    time, whichever tool it is: not the reads of one tool together, then the next tool's). None when they did, or
    when the run did not show it, or said (ok None) when a tool's call sent GitLab nothing to hold."""
    run, watch = _watched(loop, ("as_is", "mixed_turn"), slow_files=SLOW_READ, slow_merge_requests=SLOW_READ)
    turn = _parallel_turn(run)
    if crashed(run, lang) is not None or turn is None:
        return None
    names = sorted({str(u.get("name")) for u in tool_uses(turn[1])})
    if out_of_order(run):
        return Seen(False, tr("the results came back in another order than the calls", lang), hint=ORDER_HINT)
    asked = {FILES in e.path for e in run.gitlab_between(run.calls[turn[0]], run.calls[turn[0] + 1])}
    if len(names) >= 2 and len(asked) < 2:  # a call answered without GitLab (a repeated call from the loop's memo)
        return Seen(None, tr("in the turn of several calls ({tools}) one tool's call sent GitLab no request (a "
                             "repeated call answered from the loop's own memory), so whether different tools' calls "
                             "run at once was not seen", lang, tools=", ".join(names)))
    if len(names) >= 2 and watch.kinds < 2:
        return Seen(False, tr("in a turn of several calls ({tools}) whose GitLab requests the sandbox held {seconds} s "
                              "each, no two tools' requests were in flight at once: every turn's calls run at the same "
                              "time, whichever tools they are", lang, tools=", ".join(names),
                              seconds=f"{SLOW_READ:g}"))
    return None


TASK = N_("Rewrite the loop of notebook 3 so that it runs the calls of a turn concurrently (with run_all), keeps their "
         "order, and still returns all results in one message.")
CONCURRENT = Requirement(
    "concurrent", N_("The calls of one turn run concurrently, and their results keep the calls' order"), _concurrent,
    task=TASK)
NOTE = N_("Not done yet: run the calls of a turn at the same time (run_all or a thread pool), keep their order, and "
          "send all results in one message.")
HINT = N_("Where in your loop do the calls of a turn run one after another? What above in this notebook runs "
          "several calls at once and keeps their order?")


def check_exercise_4(loop: Callable | None, language: str | None = None) -> Report:
    """The calls of one turn run concurrently, in order, with all results in one message."""
    return grade_own_loop(4, loop, language, ["whole_response", "one_message", "cap", "returns_answer"], NOTE, HINT,
                          CONCURRENT, N_("The calls of a turn ran at the same time, and their results went back in one "
                                         "message, in the calls' order."), tasks={"one_message": TASK})
