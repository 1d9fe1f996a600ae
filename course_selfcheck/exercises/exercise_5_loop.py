"""Exercise 5 (notebook 5) on the learner's own loop: the loop of exercise 4 grown so that a failing tool never ends
the run. Its report is the self-check's: notebook 5's rule (GitLab's 404 for a merge request that does not exist, and
a call without its arguments, each sent back as a result with is_error) with the rules of notebooks 3 and 4 still
checked on the same loop; a loop that passes is kept for notebook 6.

The older form of the exercise, a dispatcher run_tool_missing_file(name, tool_input), is graded by exercise_5.py:
check_exercise_5 tells the two apart by how many arguments the function must be given."""

import inspect
import re
from collections.abc import Callable

from course_agent.i18n import N_, tr
from course_sandbox.messages_api import UNKNOWN_TOOL

from ..report import BROKEN, Report
from ..rules import (
    FAILING_TURN,
    how_it_ended,
    others_spoiled,
    returns_answer,
    short_value,
    succeeded_as_error,
    without_arguments,
)
from ..scenario import Run, run_scenario
from ..wire import results_for, tool_uses
from .exercise_3 import grade_own_loop
from .exercise_4 import CONCURRENT, out_of_order
from .grading import Requirement, Seen
from .loops import crashed, untouched

NAMES_IT = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b")
"""An exception's type as its name is written (TypeError, KeyError, GitlabGetError): a tool that reads its input its
own way fails with another type than TypeError, and says it."""
SAYS_WHAT = re.compile(r"missing|argument|path|required", re.I)
"""What a call without its arguments fails with, in any wording Python or a tool gives it."""
SAYS_404 = re.compile(r"404|not found", re.I)
"""GitLab's own message for a merge request it does not have ('404: 404 Not found'), as str(error), repr(error) or
traceback.format_exception_only print it: a sentence of the loop's own ('GitLab could not find it') loses it."""
SAYS_DROPPED = re.compile(r"connect|abort|closed|disconnect|reset|remote|refused|timed? ?out|соединени", re.I)
"""Words of the dropped connection's own message ("('Connection aborted.', RemoteDisconnected('Remote end closed
connection without response'))"), read once the exception types are left out: "ConnectionError: the tool failed"
says the type only."""


def _each_call_its_own(loop: Callable, lang: str) -> Seen:
    """In a turn of two reads where the first fails (a call without its arguments) and the second works: the failed
    call's result is an error that names the exception's type and carries its message; the other call's result is
    its file; the run goes on to the answer."""
    run = run_scenario(loop, *FAILING_TURN)
    worked = succeeded_as_error(run, lang)
    if worked is not None:
        return Seen(False, worked, hint=ONLY_FAILURES_HINT)
    turn = without_arguments(run)
    if turn is not None and turn[0] + 1 == len(run.calls) and run.error is not None and not run.hung:
        return Seen(False, tr("the model called {tool} without its arguments, and the loop stopped with {error}: "
                              "catch the failure where the tool runs, and send it back as that call's result", lang,
                              tool=turn[2].get("name"), error=f"{type(run.error).__name__}: {str(run.error)[:120]}"))
    problem = crashed(run, lang)
    if problem is not None:
        return problem
    if turn is None or turn[0] + 1 >= len(run.calls):
        return Seen(None, tr("no call without its arguments was answered in this run", lang))
    i, _, bad = turn
    failed = (results_for(run.calls[i + 1].body, [bad.get("id")]) or [{}])[-1]
    said = str(failed.get("content"))
    if failed.get("is_error") is not True:
        return Seen(False, tr("the call of {tool} without its arguments got a result without is_error: True", lang,
                              tool=bad.get("name")))
    if not NAMES_IT.search(said) or not SAYS_WHAT.search(said):
        return Seen(False, tr("the call of {tool} without its arguments failed, and its result says {said}: say what "
                              "went wrong, the error's type and its message", lang, tool=bad.get("name"),
                              said=said[:120]))
    spoiled = others_spoiled(run, lang)
    if spoiled:
        return Seen(False, spoiled, hint=WHOLE_TURN_HINT if _one_error_for_all(run, i, turn[1]) else None)
    if out_of_order(run):  # notebook 4's order, kept when a call fails: a failed result is not sent last
        return Seen(False, tr("in the turn where one call failed, the results came back in another order than the "
                              "calls: each result keeps its call's place, a failed one too", lang))
    last = run.answered[-1][1].get("stop_reason") if run.answered else None  # the model finished its review
    if not isinstance(run.returned, str) or last != "end_turn" or returns_answer(run, lang).status == BROKEN:
        return Seen(False, tr("after the failed call the run did not go on to the answer ({value})", lang,
                              value=str(run.returned)[:80]))
    seen = [tr("a turn of two reads, one without its arguments: that one came back as an error naming its type and "
               "message, the other with its file, and the review went on", lang)]
    for more in (_whatever_fails(loop, lang), _gitlab_error_named(loop, lang)):
        if more is not None and more.ok is False:
            return more
        if more is not None:  # shown and met: said; a run that did not show it is not claimed
            seen.append(more.detail)
    return Seen(True, "; ".join(seen))


ONLY_FAILURES_HINT = N_("A call that worked went back to the model as an error: is_error: True belongs only in the "
                        "except branch, where the tool raised. A result the tool returned goes back as it is, without "
                        "is_error.")
WHOLE_TURN_HINT = N_("Every result of that turn carries the same error: your try wraps the whole turn. Put it inside "
                     "the function each thread runs (tool_result), around one call, so that each call's failure is "
                     "its own.")


def _one_error_for_all(run: Run, i: int, reply: dict) -> bool:
    """Every result of the turn `reply` (call i's answer) is an error, the same one: a try around the whole turn."""
    results = results_for(run.calls[i + 1].body, [u.get("id") for u in tool_uses(reply)])
    said = {str(r.get("content")) for r in results if r.get("is_error") is True}
    return len(results) >= 2 and len(said) == 1 and all(r.get("is_error") is True for r in results)


MISSING = 999
"""A merge request the demo GitLab does not have: get_diff fails with GitLab's 404."""


def _gitlab_error_named(loop: Callable, lang: str) -> Seen | None:
    """GitLab's 404 for a merge request that does not exist comes back naming its type too (a loop that words
    GitLab's errors its own way, 'GitLab: 404 Not found', drops it). None when the run did not show it (a loop that
    raised there is judged by errors_are_results)."""
    run = run_scenario(loop, MISSING)
    failed = [b for call in run.calls for b in results_for(call.body, [u.get("id") for _, r in run.answered
                                                                       for u in tool_uses(r)])
              if b.get("is_error") is True]
    if not failed or run.error is not None:
        return None
    said = str(failed[0].get("content"))
    if NAMES_IT.search(said) and SAYS_404.search(NAMES_IT.sub(" ", said)):
        return Seen(True, tr("GitLab's 404 came back naming its type and its message", lang))
    return Seen(False, tr("GitLab answered 404 for !{pr}, and the call's result says {said}: say what went wrong, the "
                          "error's type and its message", lang, pr=MISSING, said=short_value(said)))


def _whatever_fails(loop: Callable, lang: str) -> Seen | None:
    """FAILING_TURN again, the other read's connection dropped: two calls of one turn fail, with two kinds of
    error, and the run still goes on to the answer (a loop that catches only the errors it has seen, or gives up
    after a number of failures, stops). Met (True) when both came back and the review went on; None when the run
    did not show it."""
    run = run_scenario(loop, *FAILING_TURN, dropped_files=True)
    turn = without_arguments(run)
    if turn is None or untouched(run) or run.hung or run.stopped_by_check:
        return None
    if run.error is not None:
        return Seen(False, tr("in a turn of two reads, one without its arguments and one whose GitLab connection "
                              "dropped, the loop stopped with {error}: catch whatever a tool raises, not only the "
                              "errors you have met, and send it back as that call's result", lang,
                              error=f"{type(run.error).__name__}: {str(run.error)[:120]}"), raised=None)
    i, reply, bad = turn
    others = {str(u.get("id")): u.get("input") for u in tool_uses(reply) if u.get("id") != bad.get("id")}
    sent = results_for(run.calls[i + 1].body, list(others)) if i + 1 < len(run.calls) else []
    for result in sent:  # the dropped read: an error, or its file if the tool tried again
        text, file = str(result.get("content")), run.file(others.get(str(result.get("tool_use_id"))))
        if result.get("is_error") is not True and not (file and file.strip()[:200] in text):
            return Seen(False, tr("a read whose GitLab connection dropped got a result without is_error: True "
                                  "({said})", lang, said=short_value(text)))
        if result.get("is_error") is True and not SAYS_DROPPED.search(NAMES_IT.sub(" ", text)):
            return Seen(False, tr("a read whose GitLab connection dropped came back as an error, but its result says "
                                  "{said}: say what went wrong, the error's type and its message (the connection's "
                                  "own words)", lang, said=short_value(text)))
    if not sent or run.error is not None or not isinstance(run.returned, str):
        return None
    return Seen(True, tr("with the other read's connection dropped too, both came back as errors and the review went "
                         "on", lang))


def _unknown_tool(loop: Callable, lang: str) -> Seen:
    """The model asks for a tool the loop does not offer (the sandbox's unknown_tool, beside a call of its own): the
    lookup of that name fails, and the failure comes back as that call's result with is_error, as any other; the run
    goes on. A loop that looks the tool up before its try dies of the KeyError."""
    run = run_scenario(loop, 482, ("unknown_tool",))
    asked = next(((i, u) for i, r in run.answered for u in tool_uses(r) if u.get("name") == UNKNOWN_TOOL), None)
    if asked is None:
        problem = crashed(run, lang)
        return problem if problem is not None else Seen(None, tr("the model never asked for {tool} in this run", lang,
                                                                 tool=UNKNOWN_TOOL))
    i, use = asked
    offered = {t.get("name") for t in run.calls[i].body.get("tools") or [] if isinstance(t, dict)}
    if UNKNOWN_TOOL in offered:
        return Seen(None, tr("your loop offers a tool named {tool}, the name the check asks for as one that does not "
                             "exist", lang, tool=UNKNOWN_TOOL))
    sent = results_for(run.calls[i + 1].body, [use.get("id")]) if i + 1 < len(run.calls) else []
    if not sent and run.error is not None and not run.hung and not run.stopped_by_check:
        return Seen(False, tr("the model asked for {tool}, a tool your loop does not offer, and the loop stopped with "
                              "{error}: look the tool up inside the try too, so that a name it does not know comes "
                              "back as that call's error result", lang, tool=UNKNOWN_TOOL,
                              error=f"{type(run.error).__name__}: {str(run.error)[:120]}"), raised=None)
    if not sent:
        return Seen(None, tr("the model asked for {tool}, and no result came back for it ({ending})", lang,
                             tool=UNKNOWN_TOOL, ending=how_it_ended(run, lang)))
    said = str(sent[-1].get("content"))
    if sent[-1].get("is_error") is not True or not said.strip():
        return Seen(False, tr("the model asked for {tool}, a tool your loop does not offer, and its result was "
                              "{said} without is_error: True: a name the loop does not know is a failed call, sent "
                              "back as an error", lang, tool=UNKNOWN_TOOL, said=short_value(said)))
    return Seen(True, tr("the model asked for {tool}, a tool your loop does not offer: it came back as an error "
                         "result ({said}), and the run went on", lang, tool=UNKNOWN_TOOL, said=short_value(said)))


UNKNOWN = Requirement(
    "unknown_tool", N_("A call of a tool that does not exist comes back as an error result"), _unknown_tool,
    task=N_("Grow your loop so that a failing tool never ends the run: where a tool runs, catch whatever it raises "
            "(a tool that does not exist too)."))


RULES = ["whole_response", "one_message", "errors_are_results", "cap", "returns_answer"]
TASK = N_("Grow your loop so that a failing tool never ends the run: the failure goes back to the model as that call's "
          "tool_result, with is_error: True and what went wrong (the error's type and its message).")
TASKS = {"errors_are_results": TASK,
         "concurrent": N_("Your loop of notebook 4 still runs the calls of a turn at once, their results in the calls' "
                          "order.")}
NOTE = N_("Not done yet: a tool that fails must go back to the model as a tool_result with is_error: True (see the "
          "rules marked ✘ or – below).")
HINT = N_("Where in your loop does a tool run? What happens there when it raises: who catches the exception, and what "
          "does the model get for that call?")


def takes_a_merge_request(function: object) -> bool:
    """A loop, loop(pr_number, ...), rather than a dispatcher, run_tool(name, tool_input): it can be called with one
    argument."""
    try:
        signature = inspect.signature(function)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in signature.parameters.values() if p.kind in positional and p.default is p.empty]
    return len(required) <= 1


EACH_CALL = Requirement(
    "says_what_failed", N_("A failed call's result names the error, and the turn's other calls keep their results"),
    _each_call_its_own, task=TASK)


def check_loop_5(loop: Callable | None, language: str | None = None) -> Report:
    """Your loop of notebook 4, with a failing tool's error sent back as a result (is_error) instead of raised."""
    return grade_own_loop(5, loop, language, RULES, NOTE, HINT, EACH_CALL,
                          N_("A failing tool went back to the model as its call's result, naming the error, and the "
                             "review went on."), tasks=TASKS, kept=((4, CONCURRENT), (5, UNKNOWN)))
