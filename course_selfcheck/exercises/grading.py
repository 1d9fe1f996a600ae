"""The grader's machinery shared by every exercise: a requirement as a row of data, the report built
from the rows, the "not done yet" report of an untouched placeholder, and running the learner's code
without letting it raise into, or hang, the notebook (a crash is reported as crash.py words it)."""

import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Generic, TypeVar

from course_agent.i18n import language as pick_language
from course_agent.i18n import ntr, tr

from ..crash import because_raised, crash_report
from ..report import BROKEN, NOT_CHECKED, PASSED, Finding, Report

MAX_ITERATIONS = 10
"""The cap of the grader's own review loops."""
REVIEWED = 482
"""The merge request the graders review."""
DEMO_MRS = tuple(range(482, 488))
"""The demo GitLab's merge requests."""

Subject = TypeVar("Subject")
"""What an exercise's checks read: the learner's object, or what the grader saw of it."""


@dataclass(frozen=True)
class Seen:
    """What a check saw of one requirement: met (True), not met (False) or not observable (None)."""

    ok: bool | None
    detail: str
    hint: str | None = None
    """A msgid (marked with N_) that replaces the requirement's hint for this case; "" gives none."""
    raised: BaseException | None = None
    """The learner's exception that kept this requirement from being checked (then ok is None)."""


@dataclass(frozen=True)
class Requirement(Generic[Subject]):
    """One requirement of an exercise: its rule name, its title and hint (msgids, marked with N_) and the
    check that judges it, so that an exercise reads as a table and not as a chain of branches."""

    rule: str
    title: str
    check: Callable[[Subject, str], Seen]
    hint: str = ""
    where: str = ""
    task: str = ""
    """The sentence of the exercise's text this requirement comes from (a msgid), shown when it is broken."""


def requirement(rule: str, title: str, hint: str = "", where: str = "",
                task: str = "") -> Callable[[Callable], Requirement]:
    """Makes the check function below it its exercise's requirement row: the rule, title and hint (msgids)
    stand right above the code that judges them."""
    def row(check: Callable) -> Requirement:
        return Requirement(rule, title, check, hint, where, task)
    return row


def finding(row: Requirement, seen: Seen, lang: str) -> Finding:
    """A requirement's finding in the report's language: passed, broken, or not checked when unobservable."""
    status = NOT_CHECKED if seen.ok is None else PASSED if seen.ok else BROKEN
    return Finding(row.rule, status, seen.detail, tr(row.title, lang), where=tr(row.where, lang) if row.where else "",
                   task=tr(row.task, lang) if row.task else "")


def setting(name: str) -> Any:
    """A knob of the exercises package (TOOL_TIMEOUT, APPROVER_TIMEOUT), read when used so a test can lower it."""
    return getattr(import_module(__package__), name)


class Grade:
    """The findings of one exercise as its requirements are checked, then the Report."""

    def __init__(self, number: int, language: str | None, requirements: Iterable[Requirement]) -> None:
        self.lang = pick_language(language)
        self.number = number
        self.requirements = list(requirements)
        self.findings: list[Finding] = []
        self.hints: list[str] = []
        self.raised: BaseException | None = None
        """The first exception of the learner's code that kept a requirement from being checked."""

    def title(self) -> str:
        return tr("Exercise {number}", self.lang, number=self.number)

    def record(self, row: Requirement, seen: Seen) -> None:
        """One requirement's finding, and its hint when it is not met."""
        self.findings.append(finding(row, seen, self.lang))
        if seen.raised is not None and self.raised is None:
            self.raised = seen.raised
        hint = row.hint if seen.hint is None else seen.hint
        if seen.ok is False and hint:
            self.hints.append(tr(hint, self.lang))

    def run(self, rows: Iterable[Requirement[Subject]], subject: Subject) -> None:
        """Check each row on what the grader saw, in the table's order."""
        for row in rows:
            self.record(row, row.check(subject, self.lang))

    def all_broken(self, rows: Iterable[Requirement], detail: str, hint: str = "") -> None:
        """Rows that cannot be met at all (the learner handed in the wrong kind of thing): one detail, one hint."""
        for index, row in enumerate(rows):
            self.record(row, Seen(False, detail, hint if index == 0 else ""))

    def not_done(self, what: str) -> Report:
        """The report of an untouched placeholder: one "not done yet" line (a msgid), and nothing else: no requirement
        is judged, so none is listed, and no hint comes before a try (not_done_report)."""
        return not_done_report(self.title(), tr(what, self.lang), self.lang)

    def stopped_by(self, error: BaseException, rows: Iterable[Requirement]) -> None:
        """Rows the learner's exception kept from being checked: "not checked because your code raised X"."""
        for row in rows:
            self.record(row, Seen(None, because_raised(error, self.lang), raised=error))

    def report(self, done: str | Callable[[], str] = "") -> Report:
        """The report; `done` (said only when every requirement is met) may be a function, to be computed then."""
        broken = [f for f in self.findings if f.status == BROKEN]
        unchecked = [f for f in self.findings if f.status == NOT_CHECKED]
        if self.raised is not None:
            return crash_report(self.title(), self.raised, self.findings, self.lang, self.hints)
        if broken:
            note = ntr("{n} requirement is not met yet; what the check saw is under each one, and the hints "
                       "below say where to look.",
                       "{n} requirements are not met yet; what the check saw is under each one, and the hints "
                       "below say where to look.", len(broken), self.lang)
        elif unchecked:
            note = ntr("Nothing is wrong so far, but {n} requirement could not be checked: see why below.",
                       "Nothing is wrong so far, but {n} requirements could not be checked: see why below.",
                       len(unchecked), self.lang)
        else:
            said = done() if callable(done) else done
            note = tr("Done: every requirement was checked and met.", self.lang) + " " + said
        return Report(self.title(), self.findings, self.lang, note, self.hints)


def is_placeholder(value: Any) -> bool:
    """The exercise cell's value as the notebook left it: None, ..., or an empty list, dict or string."""
    return value is None or value is Ellipsis or (isinstance(value, (list, tuple, dict, str)) and not value)


def call(function: Callable, *args: Any, timeout: float | None = None,
         raised: list[BaseException] | None = None) -> tuple[Any, BaseException | None, bool]:
    """Call a learner's function: (value, exception, timed_out), never raising, never hanging the grader.
    The timeout is TOOL_TIMEOUT unless given. With `raised`, every exception raised inside the call, caught there
    or not, is appended to it: what a function raised and then turned into a result is seen too."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        if raised is not None:
            sys.settrace(_exceptions_into(raised))
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # the learner's code may raise anything, even SystemExit
            outcome["error"] = error
        finally:
            sys.settrace(None)

    worker = threading.Thread(target=run, name="course-agent-exercise", daemon=True)
    worker.start()
    worker.join(setting("TOOL_TIMEOUT") if timeout is None else timeout)
    if worker.is_alive():
        return None, None, True
    return outcome.get("value"), outcome.get("error"), False


def _exceptions_into(raised: list[BaseException]) -> Callable:
    """A trace function (sys.settrace) that only collects the exceptions raised in the frames it sees: no line
    events, so the traced call runs at nearly its own speed."""
    def trace(frame: Any, event: str, arg: Any) -> Callable:
        frame.f_trace_lines = False
        if event == "exception":
            raised.append(arg[1])
        return trace
    return trace


class NotDone(Report):
    """An untouched placeholder's report: its first line says "not done yet", not a count of verdicts."""

    def header(self) -> str:
        return tr("{title}: not done yet", self.language, title=self.title)


def not_done_report(title: str, what: str, lang: str, hints: Iterable[str] = ()) -> Report:
    """One plain "not done yet" line (`what`, already in the learner's language). Hints only for something handed
    in that the check cannot use: before any try the notebook's own Hints 1-3 come first, and a check's specific
    hint, often close to Hint 3, would skip them (instructor read 61, F7)."""
    return NotDone(title, [], lang, tr("Not done yet: {what}", lang, what=what), list(hints))
