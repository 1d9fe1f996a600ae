"""What the exercises that change the loop itself (notebooks 3, 4 and 6) share: each runs the learner's
loop in a recorded scenario, like the self-check, and reports the exercise's own requirement (if it has
one) above the self-check's findings for the rules the exercise touches.

The exercise's own scenario runs first. When it shows the notebook's placeholder (the loop raised
NotImplementedError before any request, or the check says it is the lesson's loop unchanged), the report
is one "not done yet" line; when the learner's loop raised, the report starts with that exception and
the rules are marked as kept from being checked by it, never judged on a loop that cannot run."""

from collections.abc import Callable

from course_agent.i18n import language as pick_language, tr
from .. import judge
from ..report import NOT_CHECKED, PASSED, Finding, Report
from ..later_rules import words
from ..scenario import Run
from .grading import Requirement, Seen, because_raised, crash_report, finding, not_done_report


class NotDoneYet(Exception):
    """Put in Seen.raised by an exercise's own check when its scenario shows the untouched placeholder."""


UNTOUCHED = Seen(None, "", raised=NotDoneYet())
"""What an exercise's own check answers for the notebook's placeholder."""


def is_placeholder(loop: object) -> bool:
    """The exercise cell as the notebook left it: no loop yet."""
    return loop is None or loop is Ellipsis


def untouched(run: Run) -> bool:
    """The notebook's template (`raise NotImplementedError`) ran: it raised before sending anything."""
    return isinstance(run.error, NotImplementedError) and not run.calls


BUGS = (TypeError, AttributeError, NameError, LookupError, ImportError, ArithmeticError, AssertionError,
        NotImplementedError)
"""Exceptions that say the learner's code went wrong, as opposed to one it raises on purpose (a cap error)."""


def is_bug(error: BaseException | None) -> bool:
    """The learner's code went wrong: a Python error of BUGS, or a request the API refused."""
    import anthropic

    return isinstance(error, (*BUGS, anthropic.APIError))


def crashed(run: Run, lang: str) -> Seen | None:
    """The Seen of a run that the learner's loop ended by raising, for a scenario in which a right loop
    returns its answer; None when it did not raise."""
    if untouched(run):
        return UNTOUCHED
    if run.error is None:
        return None
    return Seen(None, because_raised(run.error, lang), raised=run.error)


def grade_loop(number: int, loop: Callable | None, language: str | None, rules: list[str], note: str, hint: str,
               own: Requirement[Callable] | None = None) -> Report:
    """The exercise's report; `note` and `hint` (msgids) are shown when its own requirement (or, without one,
    any rule) is not met."""
    lang = pick_language(language)
    title = tr("Exercise {n}", lang, n=number)
    write_it = tr("write your solution in the exercise cell above, then run this cell again.", lang)
    if is_placeholder(loop):
        return not_done_report(title, write_it, lang, [])
    seen = own.check(loop, lang) if own is not None else None
    if seen is not None and isinstance(seen.raised, NotDoneYet):
        return not_done_report(title, write_it, lang, [tr(hint, lang)])
    if seen is not None and seen.raised is not None:
        kept = [Finding(rule, NOT_CHECKED, because_raised(seen.raised, lang), *words(rule, lang)) for rule in rules]
        return crash_report(title, seen.raised, [finding(own, seen, lang), *kept], lang)
    mine = [finding(own, seen, lang)] if own is not None and seen is not None else []
    report = Report(title, [*mine, *judge(loop, rules, lang).findings], lang)
    met = mine[0].status == PASSED if mine else report.ok
    if not met:
        report.note = tr(note, lang)
        report.hints = [tr(hint, lang)]
    return report
