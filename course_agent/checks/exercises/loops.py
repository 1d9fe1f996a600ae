"""What the exercises that change the loop itself (notebooks 3, 4 and 6) share: each runs the learner's
loop in a recorded scenario, like the self-check, and reports the exercise's own requirement (if it has
one) above the self-check's findings for the rules the exercise touches."""

from collections.abc import Callable

from ...i18n import language as pick_language, tr
from .. import judge
from ..report import NOT_CHECKED, PASSED, Finding, Report
from .grading import Requirement, finding


def is_placeholder(loop: object) -> bool:
    """The exercise cell as the notebook left it: no loop yet."""
    return loop is None or loop is Ellipsis


def grade_loop(number: int, loop: Callable | None, language: str | None, rules: list[str], note: str, hint: str,
               own: Requirement[Callable] | None = None) -> Report:
    """The exercise's report; `note` and `hint` (msgids) are shown when its own requirement (or, without one,
    any rule) is not met."""
    lang = pick_language(language)
    title = tr("Exercise {n}", lang, n=number)
    if is_placeholder(loop):
        return Report(title, [Finding("exercise", NOT_CHECKED, tr("no loop was given", lang), title)], lang,
                      tr("Not done yet: write your solution in the exercise cell above, then run this cell again.",
                         lang))
    mine = [finding(own, own.check(loop, lang), lang)] if own is not None else []
    report = Report(title, [*mine, *judge(loop, rules, lang).findings], lang)
    met = mine[0].status == PASSED if mine else report.ok
    if not met:
        report.note = tr(note, lang)
        report.hints = [tr(hint, lang)]
    return report

