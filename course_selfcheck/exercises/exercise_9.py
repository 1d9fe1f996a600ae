"""Exercise 9 (notebook 9, optional): what the reviewer costs over every merge request, as a table a team
would read before trusting it with a budget. The table's requirements are exercise 8's older form, and one of its
own: each merge request reviewed once (!482's row is `result`, its review above the exercise)."""

from typing import Any

from course_agent.i18n import N_, tr

from ..crash import error_text
from ..later_rules import billed
from ..report import Report
from .exercise_8 import Table, _as_number, _costliest, _row, _usage_rows, _verdict_kind, check_rows, reviewed_afresh
from .grading import DEMO_MRS, Grade, Requirement, Seen
from .reading import short


def _reviewed_once(table: Table, lang: str) -> Seen:
    """Each row's bill against the least a first review of that merge request can bill: the course's reviewer run
    again in a fresh sandbox (exercise 8's spot check's run, kept for the process), its first request counted as
    read from the cache whole (the rules a review before it wrote, and more), so the floor is the same whichever
    merge requests were reviewed before it; the rest of its conversation is written to the cache once, at 1.25x. A
    review run again reads all of it at 0.1x, and bills less."""
    rows = {pr: row for row, pr in zip(table.rows, table.prs, strict=False) if pr in DEMO_MRS}
    judged = {pr: _as_number(row.get("billed")) for pr, row in rows.items()
              if (_as_number(row.get("billed")) or 0) > 0 and _verdict_kind(row.get("verdict")) not in (None, "error")}
    if not judged:
        return Seen(None, tr("no row of a demo merge request with a verdict and a bill to compare.", lang))
    least = {}
    for pr in sorted(judged):
        try:
            first = _usage_rows(reviewed_afresh(pr, lang).usage)
        except Exception as error:
            return Seen(None, tr("the course's reviewer failed on !{pr}: {error}", lang, pr=pr,
                                 error=short(error_text(error), 160)))
        least[pr] = (billed(first) - billed(first[:1]) + 0.1 * sum(first[0].values())) * 0.99
    again = [pr for pr, mine in judged.items() if mine < least[pr]]
    if again:
        return Seen(False, tr("your table bills {rows}; a first review bills at least {least}: a merge request "
                              "reviewed again reads its whole conversation from the cache. Take !482's row from "
                              "`result`, its review above, and review each of the others once.", lang,
                              rows=", ".join(f"!{pr} {judged[pr]:.0f}" for pr in again),
                              least=", ".join(f"!{pr} {least[pr]:.0f}" for pr in again)))
    return Seen(True, tr("each bill is one a first review can give: every merge request reviewed once.", lang))


REVIEWED_ONCE = Requirement(
    "reviewed_once", N_("Each merge request reviewed once: no bill is a second review's"), _reviewed_once,
    N_("!482's row comes from `result`, the review above the exercise; review !483 to !487 once each."),
    task=N_("A budget counts each merge request reviewed once: !482's row comes from `result`, its review above."))


def check_exercise_9(rows: Any, language: str | None = None) -> Report:
    """`rows`: one (pr, verdict, calls, billed_input) per demo merge request, !482 to !487, each reviewed once."""
    report = check_rows(9, rows, language)
    read = [_row(r) for r in rows] if isinstance(rows, (list, tuple)) else []
    if not any(read):  # not done yet, or not a table: exercise 8's rows say so
        return report
    g = Grade(9, language, ())
    g.findings, g.hints = list(report.findings), list(report.hints)
    table = Table([row or {} for row in read], g.lang)
    g.record(REVIEWED_ONCE, _reviewed_once(table, g.lang))
    return g.report(lambda: _costliest(table))
