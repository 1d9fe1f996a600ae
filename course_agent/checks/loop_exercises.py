"""Graders of the exercises that change the loop itself (notebooks 3, 4 and 6): each runs the
learner's loop in a recorded scenario, like the self-check, and judges the exercise's own
requirement besides the rules it touches."""

import functools
import re
from collections.abc import Callable

from ..i18n import language as pick_language
from ..i18n import ntr, tr
from . import judge
from .report import BROKEN, NOT_CHECKED, PASSED, Finding, Report
from .scenario import run_scenario
from .wire import blocks, tool_uses

SLOW_READ = 1.0
"""Seconds each file read takes in notebook 4's scenario: run one after another, they add up."""


def _placeholder(loop: object) -> bool:
    return loop is None or loop is Ellipsis


def _not_done(title: str, lang: str, what: str) -> Report:
    return Report(title, [Finding("exercise", NOT_CHECKED, what, title)], lang,
                  tr("Not done yet: write your solution in the exercise cell above, then run this cell again.", lang))


def check_exercise_3(loop: Callable | None, language: str | None = None) -> Report:
    """The cap's error names how many tool calls the loop made and which tools: run on !484, max_iterations=2."""
    lang = pick_language(language)
    title = tr("Exercise {n}", lang, n=3)
    if _placeholder(loop):
        return _not_done(title, lang, tr("no loop was given", lang))
    run = run_scenario(functools.partial(loop, max_iterations=2), 484)
    called = [u for _, reply in run.answered for u in tool_uses(reply)]
    names = sorted({str(u.get("name")) for u in called})
    requirement = tr("When the cap is reached, the error says how many tool calls were made and which tools", lang)
    if not called:
        finding = Finding("cap_message", NOT_CHECKED, tr("the model called no tool in this run", lang), requirement)
    elif run.error is None:
        finding = Finding("cap_message", BROKEN, tr("with max_iterations=2 the loop did not raise: it returned {value}",
                                                    lang, value=repr(run.returned)[:80]), requirement)
    else:
        message = str(run.error)
        missing = [n for n in names if n not in message]
        has_count = re.search(rf"\b{len(called)}\b", message) is not None
        if missing or not has_count:
            finding = Finding("cap_message", BROKEN, tr(
                "the error says {message!r}; it should name {count} tool calls and the tools {names}", lang,
                message=message[:160], count=len(called), names=", ".join(names)), requirement)
        else:
            finding = Finding("cap_message", PASSED, tr("the error says {message!r}", lang, message=message[:160]),
                              requirement)
    rules = judge(loop, ["whole_response", "cap"], lang)
    report = Report(title, [finding, *rules.findings], lang)
    if finding.status != PASSED:
        report.note = tr("Not done yet: the error at the cap must say how many tool calls were made and which "
                         "tools they were.", lang)
        report.hints = [tr("Count the tool_use blocks in the assistant messages of `messages`, and collect their "
                           "names, just before raising.", lang)]
    return report


def check_exercise_4(loop: Callable | None, language: str | None = None) -> Report:
    """The calls of one turn run concurrently, in order, with all results in one message."""
    lang = pick_language(language)
    title = tr("Exercise {n}", lang, n=4)
    if _placeholder(loop):
        return _not_done(title, lang, tr("no loop was given", lang))
    run = run_scenario(loop, 484, slow_files=SLOW_READ)
    requirement = tr("The calls of one turn run concurrently, and their results keep the calls' order", lang)
    parallel = next(((i, r) for i, r in run.answered if len(tool_uses(r)) >= 2), None)
    if parallel is None or parallel[0] + 1 >= len(run.calls):
        finding = Finding("concurrent", NOT_CHECKED, tr("no turn with several calls was answered", lang), requirement)
    else:
        i, reply = parallel
        reads = [e for e in run.gitlab_between(run.calls[i], run.calls[i + 1]) if "/repository/files/" in e.path]
        ids = [u.get("id") for u in tool_uses(reply)]
        sent = [b.get("tool_use_id") for m in run.calls[i + 1].body.get("messages") or [] if isinstance(m, dict)
                for b in blocks(m.get("content")) if b.get("type") == "tool_result" and b.get("tool_use_id") in ids]
        one_after_another = len(reads) * SLOW_READ
        if len(reads) < 2:
            finding = Finding("concurrent", NOT_CHECKED, tr("the turn read fewer than two files", lang), requirement)
        elif sent != ids:
            finding = Finding("concurrent", BROKEN, tr("the results came back in another order than the calls", lang),
                              requirement)
        elif run.seconds >= one_after_another - SLOW_READ / 2:
            finding = Finding("concurrent", BROKEN, ntr(
                "{n} file read of {seconds} s took at least {total} s in all: one after another, not at the same time",
                "{n} file reads of {seconds} s each took at least {total} s in all: one after another, not at the "
                "same time", len(reads), lang, seconds=f"{SLOW_READ:g}", total=f"{one_after_another:g}"), requirement)
        else:
            finding = Finding("concurrent", PASSED, ntr(
                "{n} file read of {seconds} s took less than {total} s in all: at the same time",
                "{n} file reads of {seconds} s each took less than {total} s in all: at the same time",
                len(reads), lang, seconds=f"{SLOW_READ:g}", total=f"{one_after_another:g}"), requirement)
    rules = judge(loop, ["whole_response", "one_message"], lang)
    report = Report(title, [finding, *rules.findings], lang)
    if finding.status != PASSED:
        report.note = tr("Not done yet: run the calls of a turn at the same time (run_all or a thread pool), keep "
                         "their order, and send all results in one message.", lang)
        report.hints = [tr("Toolbox.run_all(calls) runs the calls in threads and returns the results in the calls' "
                           "order; concurrent.futures.ThreadPoolExecutor.map does the same.", lang)]
    return report


def check_exercise_6(loop: Callable | None, language: str | None = None) -> Report:
    """Every stop reason handled on purpose: the self-check's stop-reason rules."""
    lang = pick_language(language)
    title = tr("Exercise {n}", lang, n=6)
    if _placeholder(loop):
        return _not_done(title, lang, tr("no loop was given", lang))
    rules = judge(loop, ["pause_turn", "refusal", "cut_tool_call", "returns_answer", "cap"], lang)
    report = Report(title, rules.findings, lang)
    if not report.ok:
        report.note = tr("Not done yet: handle every stop reason on purpose (see the rules marked ✘ or – below).",
                         lang)
        report.hints = [tr("A chain of if statements on response.stop_reason, one branch each; pause_turn appends "
                           "the response and continues without a new user message.", lang)]
    return report
