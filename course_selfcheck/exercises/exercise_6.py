"""Exercise 6 (notebook 6): every stop reason handled on purpose, and a refusal answered once by the fallback
model. The exercise is the self-check's stop-reason rules, so its report is theirs."""

from collections.abc import Callable

from course_agent.i18n import N_
from ..report import Report
from .loops import grade_loop

RULES = ["pause_turn", "refusal", "fallback", "cut_tool_call", "returns_answer", "cap"]


def check_exercise_6(loop: Callable | None, language: str | None = None) -> Report:
    """Every stop reason handled on purpose: the self-check's stop-reason rules."""
    return grade_loop(6, loop, language, RULES,
                      N_("Not done yet: handle every stop reason on purpose (see the rules marked ✘ or – below)."),
                      N_("A match (or a chain of if statements) on response.stop_reason, one branch each; pause_turn "
                         "appends the response and continues without a new user message; a refusal sends the same "
                         "messages once to fallback_model(), and a second refusal ends the run."))
