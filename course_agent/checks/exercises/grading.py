"""The grader's machinery shared by every exercise: a requirement as a row of data, the report built
from the rows, the "not done yet" report of an untouched placeholder, and running the learner's code
without letting it raise into, or hang, the notebook."""

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Generic, TypeVar

from ...i18n import language as pick_language, ntr, tr
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


@dataclass(frozen=True)
class Requirement(Generic[Subject]):
    """One requirement of an exercise: its rule name, its title and hint (msgids, marked with N_) and the
    check that judges it, so that an exercise reads as a table and not as a chain of branches."""

    rule: str
    title: str
    check: Callable[[Subject, str], Seen]
    hint: str = ""
    where: str = ""


def finding(row: Requirement, seen: Seen, lang: str) -> Finding:
    """A requirement's finding in the report's language: passed, broken, or not checked when unobservable."""
    status = NOT_CHECKED if seen.ok is None else PASSED if seen.ok else BROKEN
    return Finding(row.rule, status, seen.detail, tr(row.title, lang), where=tr(row.where, lang) if row.where else "")


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

    def title(self) -> str:
        return tr("Exercise {number}", self.lang, number=self.number)

    def record(self, row: Requirement, seen: Seen) -> None:
        """One requirement's finding, and its hint when it is not met."""
        self.findings.append(finding(row, seen, self.lang))
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

    def not_done(self, what: str, hints: Iterable[str]) -> Report:
        """The report of an untouched placeholder: nothing passed, what to do first (msgids)."""
        nothing = tr("nothing to check yet.", self.lang)
        findings = [Finding(row.rule, NOT_CHECKED, nothing, tr(row.title, self.lang)) for row in self.requirements]
        note = tr("Not done yet: {what}", self.lang, what=tr(what, self.lang))
        return Report(self.title(), findings, self.lang, note, [tr(hint, self.lang) for hint in hints])

    def report(self, done: str | Callable[[], str] = "") -> Report:
        """The report; `done` (said only when every requirement is met) may be a function, to be computed then."""
        broken = [f for f in self.findings if f.status == BROKEN]
        unchecked = [f for f in self.findings if f.status == NOT_CHECKED]
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


def call(function: Callable, *args: Any, timeout: float | None = None) -> tuple[Any, BaseException | None, bool]:
    """Call a learner's function: (value, exception, timed_out), never raising, never hanging the grader.
    The timeout is TOOL_TIMEOUT unless given."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # the learner's code may raise anything, even SystemExit
            outcome["error"] = error

    worker = threading.Thread(target=run, name="course-agent-exercise", daemon=True)
    worker.start()
    worker.join(setting("TOOL_TIMEOUT") if timeout is None else timeout)
    if worker.is_alive():
        return None, None, True
    return outcome.get("value"), outcome.get("error"), False


def error_text(error: BaseException) -> str:
    """An exception as the learner would read it in a traceback's last line."""
    return f"{type(error).__name__}: {error}"
