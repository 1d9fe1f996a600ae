"""Exercise 9 (notebook 9, optional): what the reviewer costs over every merge request, as a table a team
would read before trusting it with a budget. The table's requirements are exercise 8's older form."""

from typing import Any

from ..report import Report
from .exercise_8 import check_rows


def check_exercise_9(rows: Any, language: str | None = None) -> Report:
    """`rows`: one (pr, verdict, calls, billed_input) per demo merge request, !482 to !487."""
    return check_rows(9, rows, language)
