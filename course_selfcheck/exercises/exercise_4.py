"""Exercise 4 (notebook 4): the calls of one turn run concurrently, in the calls' order, with all their
results in one message.

Each file read of the scenario is held by the sandbox for SLOW_READ seconds, and the grader watches how
many reads are in flight at once (started and not yet answered). Reads that run one after another never
overlap, however fast the machine; reads that run at the same time overlap for about SLOW_READ seconds,
however loaded it is, and whatever the learner's loop adds around them (notebook 4's own `run_all` waits
0.3 s in each call). So overlap is judged, not the wall time against a fixed limit."""

import threading
from collections.abc import Callable

from course_sandbox import Sandbox

from course_agent.i18n import N_, ntr, tr
from ..report import Report
from ..scenario import Run, Sandboxes, run_scenario
from ..wire import results_for, tool_uses
from .grading import Requirement, Seen
from .loops import crashed, grade_loop
from .reading import text

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
        self.sandbox: Sandbox | None = None
        """The scenario's sandbox, kept until `release`: the files the turn read are read again from it."""
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def _watch(self, sandbox: Sandbox) -> None:
        while not self._stop.wait(POLL):
            self.most = max(self.most, sandbox.faults.held)

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
        self.sandbox = sandbox

    def file(self, tool_input: object) -> str | None:
        """The text of the file a read_file call asked for (its path, at its ref or main), as the sandbox has it."""
        if self.sandbox is None or not isinstance(tool_input, dict) or not isinstance(tool_input.get("path"), str):
            return None
        try:
            raw = self.sandbox.gitlab.raw_file(tool_input["path"], str(tool_input.get("ref") or "main"))
        except Exception:  # no such file or ref: the call's own result says so, nothing to compare
            return None
        return raw.decode("utf-8", "replace")

    def release(self) -> None:
        if self.sandbox is not None:
            self.sandboxes.give_back(self.sandbox)
            self.sandbox = None


def _parallel_turn(run: Run) -> tuple[int, dict] | None:
    """(index of the call, its reply) of the first answered turn with several tool calls and a next call."""
    turn = next(((i, r) for i, r in run.answered if len(tool_uses(r)) >= 2), None)
    return None if turn is None or turn[0] + 1 >= len(run.calls) else turn


def _lines_in(file: str, result: str) -> int:
    """How many of a file's distinct lines a result holds (each line found anywhere in it: a result that numbers
    its lines, or adds a header, still holds them)."""
    return sum(1 for line in {line.strip() for line in file.splitlines()} if len(line) > 3 and line in result)


def _mispaired(reply: dict, results: list[dict], watch: InFlight) -> str | None:
    """The path of the first read whose tool_result (by its tool_use_id) holds more of another call's file than of
    its own: results put in the order they finished, under the ids in the calls' order, send one file's text as
    another's."""
    sent = {b.get("tool_use_id"): text(b.get("content")) for b in results}  # a string, or text blocks
    files = {use.get("id"): watch.file(use.get("input")) for use in tool_uses(reply)}
    for use in tool_uses(reply):
        own, result = files.get(use.get("id")), sent.get(use.get("id"))
        if not own or result is None:
            continue
        mine = _lines_in(own, result)
        if any(other and other != own and _lines_in(other, result) > mine
               for key, other in files.items() if key != use.get("id")):
            return str(use["input"]["path"])
    return None


def _concurrent(loop: Callable, lang: str) -> Seen:
    with Sandboxes() as sandboxes:
        watch = InFlight(sandboxes)
        try:
            run = run_scenario(loop, 484, slow_files=SLOW_READ, sandboxes=watch)  # type: ignore[arg-type]
            turn = _parallel_turn(run)
            wrong = None if turn is None else _mispaired(turn[1], results_for(
                run.calls[turn[0] + 1].body, [u.get("id") for u in tool_uses(turn[1])]), watch)
        finally:
            watch.release()
    problem = crashed(run, lang)
    if problem is not None:
        return problem
    if turn is None:
        return Seen(None, tr("no turn with several calls was answered", lang))
    i, reply = turn
    reads = [e for e in run.gitlab_between(run.calls[i], run.calls[i + 1]) if FILES in e.path]
    ids = [u.get("id") for u in tool_uses(reply)]
    sent = [b.get("tool_use_id") for b in results_for(run.calls[i + 1].body, ids)]
    if len(reads) < 2:
        return Seen(None, tr("the turn read fewer than two files", lang))
    if sent != ids:
        return Seen(False, tr("the results came back in another order than the calls", lang))
    if wrong is not None:
        return Seen(False, tr("the result sent under the id of read_file({path}) holds another file's text: each "
                              "result must go with its own call's id (results taken in the order they finished, "
                              "under the ids in the calls' order, mix them up)", lang, path=wrong))
    figures = {"seconds": f"{SLOW_READ:g}", "most": watch.most}
    if watch.most < 2:
        return Seen(False, ntr(
            "the turn read {n} file, each held {seconds} s by the sandbox; no two reads were in flight at once "
            "(2 or more were expected): the reads ran one after another",
            "the turn read {n} files, each held {seconds} s by the sandbox; no two reads were in flight at once "
            "(2 or more were expected): the reads ran one after another", len(reads), lang, **figures))
    return Seen(True, ntr(
        "the turn read {n} file, each held {seconds} s by the sandbox; {most} reads were in flight at once: "
        "they ran at the same time",
        "the turn read {n} files, each held {seconds} s by the sandbox; {most} reads were in flight at once: "
        "they ran at the same time", len(reads), lang, **figures))


TASK = N_("Rewrite the loop of notebook 3 so that it runs the calls of a turn concurrently (with run_all), keeps their "
         "order, and still returns all results in one message.")
CONCURRENT = Requirement(
    "concurrent", N_("The calls of one turn run concurrently, and their results keep the calls' order"), _concurrent,
    task=TASK)
NOTE = N_("Not done yet: run the calls of a turn at the same time (run_all or a thread pool), keep their order, and "
          "send all results in one message.")
HINT = N_("run_all(calls) above runs the calls in threads and returns the results in the calls' order; "
          "concurrent.futures.ThreadPoolExecutor.map does the same.")


def check_exercise_4(loop: Callable | None, language: str | None = None) -> Report:
    """The calls of one turn run concurrently, in order, with all results in one message."""
    return grade_loop(4, loop, language, ["whole_response", "one_message", "cap", "returns_answer"], NOTE, HINT, CONCURRENT,
                      tasks={"one_message": TASK})
