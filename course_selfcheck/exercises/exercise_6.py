"""Exercise 6 (notebook 6): every stop reason handled on purpose, a refusal included (the run stops, saying why);
and, optional (the notebook's "Go deeper"), a refusal answered once by the fallback model. The exercise is the
self-check's stop-reason rules, with the earlier notebooks' rules still checked on the same loop, so its report is
theirs; each rule names the sentence of the task it comes from.

The notebook asks for it in two steps, on one function: step 1 the stops that go on or return (pause_turn,
stop_sequence, max_tokens), checked alone by check_exercise_6(loop, step=1); step 2 the stops that end the run with
an error (a full context window, a refusal, an unknown value), checked with everything by check_exercise_6(loop)."""

from collections.abc import Callable

from course_agent.i18n import N_, tr

from ..later_rules import ALL_RULES, STRICT, refused_kept, words
from ..report import BROKEN, Finding, Report
from ..scenario import run_scenario
from .loops import EARLIER, grade_loop, row_hint_alone

STOPS = ["pause_turn", "cut_tool_call", "cut_answer", "context_full", "refusal", "refusal_said", "stop_sequence",
         "unknown_stop", "returns_answer"]
RULES = [*EARLIER, *STOPS]
"""Exercise 6: what notebooks 7 and 8 keep checking on the learner's loop (the fallback is not among them)."""
STEP_1_RULES = [*EARLIER, "pause_turn", "cut_tool_call", "cut_answer", "stop_sequence", "returns_answer"]
"""Step 1: the stops that go on or return, the rules of notebooks 3-5 kept. Each is judged on a scenario in which the
model never refuses, never fills its context window and never stops for an unknown reason, so a loop that does not
handle those yet is not failed for them here."""
FALLBACK_RULES = [*EARLIER, *STOPS[:5], "fallback", *STOPS[6:]]
"""The optional exercise: the same loop with the fallback, every other rule kept (a loop that falls back passes
"refusal_said" too, so that rule gives way to the fallback's own)."""
CUT = N_("max_tokens and model_context_window_exceeded raise clear errors that say what happened (the answer was cut "
         "by max_tokens, or it filled the context window), or at max_tokens ask again once with a larger max_tokens; "
         "the cut tool call is never run.")
REFUSAL = N_("A refusal ends the run with an error that carries stop_details; never the same request to the same "
             "model again.")
FALLBACK = N_("A refusal is answered once by the fallback model: send the same messages to fallback_model() and go "
              "on with it; if it refuses too, stop with stop_details.")
TASKS = {
    "pause_turn": N_("pause_turn continues without a new user message."),
    "refusal": REFUSAL,
    "refusal_said": REFUSAL,
    "fallback": FALLBACK,
    "cut_tool_call": CUT,
    "cut_answer": CUT,
    "context_full": CUT,
    "stop_sequence": N_("stop_sequence returns the text so far; any other stop reason raises an error that names it."),
    "unknown_stop": N_("stop_sequence returns the text so far; any other stop reason raises an error that names it."),
    "returns_answer": N_("Write review_every_stop so that it handles every stop reason on purpose."),
}
STEP_1_CUT = N_("max_tokens raises a clear error that says the answer was cut, or asks again once with a larger "
                "max_tokens; the cut tool call is never run.")
STEP_1_TASKS = {
    "pause_turn": TASKS["pause_turn"],
    "cut_tool_call": STEP_1_CUT,
    "cut_answer": STEP_1_CUT,
    "stop_sequence": N_("stop_sequence returns the text so far."),
    "returns_answer": N_("Grow review_every_stop: end_turn still returns the answer; pause_turn, stop_sequence and "
                         "max_tokens each get a branch."),
}
"""Step 1's sentences: what the notebook's step 1 says of each rule it checks."""


def check_exercise_6(loop: Callable | None, language: str | None = None, *, step: int = 2) -> Report:
    """Every stop reason handled on purpose, a refusal included: the self-check's stop-reason rules, and the earlier
    ones kept. A loop that passes is kept for notebook 7 (course_agent.my_code).

    step=1 checks the notebook's first step only (STEP_1_RULES: pause_turn, stop_sequence, max_tokens and the rules
    of notebooks 3-5), and never keeps the loop: notebook 7 grows the loop that passes the whole exercise (step 2,
    the default)."""
    if step not in (1, 2):
        raise ValueError(f"step must be 1 or 2 (2, the default, checks the whole exercise), got {step!r}")
    if step == 1:
        return row_hint_alone(grade_loop(6, loop, language, asking_the_cause(STEP_1_RULES),
                          N_("Not done yet: handle pause_turn, stop_sequence and max_tokens (see the rules marked ✘ "
                             "or – below)."),
                          N_("Of pause_turn, stop_sequence and max_tokens, which means the turn is still going, which "
                             "means the answer is yours, and which means it was cut? The notebook's cells on each of "
                             "them show it."), tasks=STEP_1_TASKS,
                          title=N_("Exercise 6, step 1"), keeps=False), (PAUSE_ROW_HINT,))
    return row_hint_alone(_fallback_hint_first(grade_loop(6, loop, language, asking_the_cause(RULES),
                      N_("Not done yet: handle every stop reason on purpose (see the rules marked ✘ or – below)."),
                      N_("Which stop reasons can a response end with, and which of them mean the answer is finished? "
                         "what_to_do above says what a loop does for each: give each its branch, and a last one for a "
                         "value you do not know. After a refusal, what must the error say?"), tasks=TASKS,
                      more=_fallback_if_taken)), (CUT_ROW_HINT, PAUSE_ROW_HINT))


def check_fallback(loop: Callable | None, language: str | None = None) -> Report:
    """Notebook 6's optional exercise: exercise 6's loop, a refusal answered once by fallback_model(), every other
    rule kept. A loop that passes is kept for notebook 7 too (it passes exercise 6 as well)."""
    return grade_loop(6, loop, language, asking_the_cause(FALLBACK_RULES),
                      N_("Not done yet: answer a refusal once with the fallback model (see the rules marked ✘ or – "
                         "below)."),
                      FALLBACK_HINT, tasks=TASKS, title=N_("Exercise 6, go deeper: the fallback model"))


def asking_the_cause(rules: list[str]) -> list[str]:
    """The rules as exercise 6 judges them: its text asks for an error that says what happened at a cut, so its cut
    rows are their strict variants (later_rules.CAUSE_ASKED); exercises 7 and 8 keep the rules as they are."""
    return [STRICT.get(rule, rule) for rule in rules]


def _fallback_if_taken(loop: Callable, lang: str) -> tuple[list[Finding], BaseException | None, list[str]]:
    """A loop that answers a refusal with another model (the go-deeper part, done in exercise 6 already) is judged
    on that fallback too: once, to fallback_model(), and a second refusal ends the run. A loop that stops at the
    refusal gets no row here."""
    rule = ALL_RULES["fallback"]
    run = run_scenario(loop, rule.pr, rule.misbehave)
    refused = next((i for i, r in run.answered if r.get("stop_reason") == "refusal"), None)
    if refused is None or refused + 1 >= len(run.calls) \
            or run.calls[refused + 1].body.get("model") == run.calls[refused].body.get("model"):
        return [], None, []
    seen = rule.judge(run, lang, loop)
    found = Finding("fallback", seen.status, seen.detail, *words("fallback", lang), task=tr(FALLBACK, lang))
    if seen.status != BROKEN:
        return [found], None, []
    kept = refused_kept(run.calls[refused].body, run.calls[refused + 1].body)
    return [found], None, [tr(REFUSED_KEPT_HINT if kept else FALLBACK_HINT, lang)]


REFUSED_KEPT_HINT = N_("Your loop appended the refused response before switching models: take it out first, "
                       "messages.pop(), then send the same messages to fallback_model().")
FALLBACK_HINT = N_("After a refusal, what does the fallback model need to answer the same question? The same "
                   "messages, sent once to fallback_model(); a second refusal ends the run with its stop_details.")


def _fallback_hint_first(report: Report) -> Report:
    """When the optional fallback's row is the only one broken, its own hint (the last one, from
    _fallback_if_taken) replaces the exercise's general one, which asks about the refusal's error."""
    broken = {f.rule for f in report.findings if f.status == BROKEN}
    if broken == {"fallback"} and len(report.hints) > 1:
        report.hints = report.hints[1:]
    return report


CUT_ROWS = {"cut_tool_call", "cut_answer", "context_full"}
CUT_HINT = N_("Read the error of each cut's branch as the person who must fix it: does it say what happened there "
              "(at max_tokens the answer was cut, so raise max_tokens; at model_context_window_exceeded the answer "
              "filled the context window, so start a new review with a shorter history), and nothing that names the "
              "other stop as the cause? And is the cut tool call left unrun, whatever way your loop runs its tools?")


PAUSE_HINT = N_("Look at the next request your loop sends after a pause_turn: is the paused response in it once, as "
                "the last message, with no new user message? If your loop appends every response before its match, "
                "the pause_turn branch adds nothing and only goes round again.")


CUT_ROW_HINT = (CUT_ROWS, CUT_HINT)
PAUSE_ROW_HINT = ({"pause_turn"}, PAUSE_HINT)
"""Rows whose own hint replaces the general one when they alone are broken (step 1 has no context-window row)."""
