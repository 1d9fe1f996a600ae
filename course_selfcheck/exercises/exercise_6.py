"""Exercise 6 (notebook 6): every stop reason handled on purpose, and a refusal answered once by the fallback
model. The exercise is the self-check's stop-reason rules, with the earlier notebooks' rules still checked on the
same loop, so its report is theirs; each rule names the sentence of the task it comes from."""

from collections.abc import Callable

from course_agent.i18n import N_

from ..report import Report
from .loops import EARLIER, grade_loop

STOPS = ["pause_turn", "cut_tool_call", "cut_answer", "context_full", "stop_sequence", "unknown_stop", "returns_answer"]
RULES = [*EARLIER, *STOPS[:4], "refusal", "fallback", *STOPS[4:]]
PARTS = {1: [*EARLIER, *STOPS], 2: ["refusal", "fallback"]}
"""Part 1, the stop reasons; part 2, a refusal answered once by the fallback model. No part: the whole exercise."""
CUT = N_("max_tokens and model_context_window_exceeded raise clear errors, or at max_tokens ask again with a larger "
         "max_tokens; the cut tool call is never run.")
TASKS = {
    "pause_turn": N_("pause_turn continues without a new user message."),
    "refusal": N_("A refusal is answered once by the fallback model: send the same messages to fallback_model() and "
                  "go on with it; if it refuses too, stop with stop_details."),
    "fallback": N_("A refusal is answered once by the fallback model: send the same messages to fallback_model() and "
                   "go on with it; if it refuses too, stop with stop_details."),
    "cut_tool_call": CUT,
    "cut_answer": CUT,
    "context_full": CUT,
    "stop_sequence": N_("stop_sequence returns the text so far; any other stop reason raises an error that names it."),
    "unknown_stop": N_("stop_sequence returns the text so far; any other stop reason raises an error that names it."),
    "returns_answer": N_("Write review_every_stop so that it handles every stop reason on purpose."),
}


def check_exercise_6(loop: Callable | None, language: str | None = None, part: int | None = None) -> Report:
    """Every stop reason handled on purpose: the self-check's stop-reason rules, and the earlier ones kept; `part` 1
    judges the stop reasons alone, 2 the refusal alone, none the whole exercise (the one that keeps your loop)."""
    if part is not None and part not in PARTS:
        raise ValueError(f"exercise 6 has parts 1 and 2, not {part!r}")
    return grade_loop(6, loop, language, PARTS[part] if part else RULES,
                      N_("Not done yet: handle every stop reason on purpose (see the rules marked ✘ or – below)."),
                      HINTS[part], tasks=TASKS, part=part)


HINTS = {
    1: N_("Which stop reasons can a response end with, and which of them mean the answer is finished? what_to_do "
          "above says what a loop does for each: give each its branch, and a last one for a value you do not know."),
    2: N_("After a refusal, what does the fallback model need to answer the same question? The same messages, sent "
          "once to fallback_model(); a second refusal ends the run with its stop_details."),
    None: N_("Give each stop reason its branch, as what_to_do above decides, and a last one for a value you do not "
             "know; after a refusal, what does the fallback model need to answer the same question?"),
}
"""What to think of when a part is not done: part 1's hint says nothing of part 2, and the other way round."""
