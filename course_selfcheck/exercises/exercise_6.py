"""Exercise 6 (notebook 6): every stop reason handled on purpose, and a refusal answered once by the fallback
model. The exercise is the self-check's stop-reason rules, with the earlier notebooks' rules still checked on the
same loop, so its report is theirs; each rule names the sentence of the task it comes from."""

from collections.abc import Callable

from course_agent.i18n import N_
from ..report import Report
from .loops import EARLIER, grade_loop

RULES = [*EARLIER, "pause_turn", "refusal", "fallback", "cut_tool_call", "context_full", "returns_answer"]
PARTS = {1: [*EARLIER, "pause_turn", "cut_tool_call", "context_full", "returns_answer"], 2: ["refusal", "fallback"]}
"""Part 1, the stop reasons; part 2, a refusal answered once by the fallback model. No part: the whole exercise."""
TASKS = {
    "pause_turn": N_("pause_turn continues without a new user message."),
    "refusal": N_("A refusal is answered once by the fallback model: send the same messages to fallback_model() and "
                  "go on with it; if it refuses too, stop with stop_details."),
    "fallback": N_("A refusal is answered once by the fallback model: send the same messages to fallback_model() and "
                   "go on with it; if it refuses too, stop with stop_details."),
    "cut_tool_call": N_("max_tokens and model_context_window_exceeded raise clear errors (the cut tool call is not "
                        "run)."),
    "context_full": N_("max_tokens and model_context_window_exceeded raise clear errors (the cut tool call is not "
                       "run)."),
    "returns_answer": N_("Write review_every_stop so that it handles every stop reason on purpose."),
}


def check_exercise_6(loop: Callable | None, language: str | None = None, part: int | None = None) -> Report:
    """Every stop reason handled on purpose: the self-check's stop-reason rules, and the earlier ones kept; `part` 1
    judges the stop reasons alone, 2 the refusal alone, none the whole exercise (the one that keeps your loop)."""
    if part is not None and part not in PARTS:
        raise ValueError(f"exercise 6 has parts 1 and 2, not {part!r}")
    return grade_loop(6, loop, language, PARTS[part] if part else RULES,
                      N_("Not done yet: handle every stop reason on purpose (see the rules marked ✘ or – below)."),
                      N_("A match (or a chain of if statements) on response.stop_reason, one branch each; pause_turn "
                         "appends the response and continues without a new user message; a refusal sends the same "
                         "messages once to fallback_model(), and a second refusal ends the run."),
                      tasks=TASKS, part=part)
