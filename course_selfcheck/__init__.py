"""Self-check: run a learner's own agent loop against the sandbox and say which rules of the
lesson it keeps, which it breaks, and which the run could not show.

    from course_selfcheck import check_loop
    check_loop(review_pull_request)                  # every rule of the lesson
    check_loop(review_pull_request, rules=["fallback", "cut_result"])  # and named ones of notebooks 6-8
    check_loop(review_pull_request, rules="cap")     # one rule

The loop is called as written, `loop(pr_number)` (awaited if it is `async def`), once per
scenario (rules with the same scenario share its run), each time against a fresh sandbox that
records every request it receives. During the run every HTTP request of the process goes to
that sandbox, whatever client sends it (see retarget.py), so no request of a check reaches the
live API or the learner's GitLab. The rules are judged from the wire and from what the loop
returned or raised; the report says passed only for what it saw.
"""

import difflib
import inspect
from collections.abc import Callable, Iterable

from course_agent.i18n import language as pick_language
from course_agent.i18n import ntr, tr

from .crash import because_raised, crash_report, crashed_run
from .later_rules import ALL_RULES, words
from .report import BROKEN, NOT_CHECKED, PASSED, Finding, Report
from .rules import RULES
from .scenario import TIMEOUT, Run, RunawayLoop, Sandboxes, run_scenario
from .wire import turns

__all__ = ["RULES", "Finding", "Report", "Run", "RunawayLoop", "TIMEOUT", "check_loop", "run_scenario",
           "PASSED", "BROKEN", "NOT_CHECKED"]

EXAMPLE_PR = 482


def _rules(rules: str | Iterable[str] | None) -> list[str]:
    if rules is None:
        return list(RULES)
    chosen = [rules] if isinstance(rules, str) else list(rules)
    unknown = [r for r in chosen if r not in ALL_RULES]
    if unknown:
        close = {r: difflib.get_close_matches(str(r), ALL_RULES, n=1) for r in unknown}
        hints = "; ".join(f"{r!r} → {c[0]!r}?" for r, c in close.items() if c)
        raise ValueError(f"unknown rule(s) {unknown}{' (' + hints + ')' if hints else ''}; "
                         f"choose from {', '.join(ALL_RULES)}")
    return chosen


def _name(loop: Callable) -> str:
    return getattr(loop, "__qualname__", None) or getattr(getattr(loop, "func", None), "__qualname__", None) \
        or type(loop).__name__


def _contract(loop: object, lang: str) -> None:
    """The loop must be callable as loop(pr_number): say clearly what to change if it is not."""
    if isinstance(loop, type):
        raise TypeError(tr("check_loop needs your loop function, not the class {name}: pass the method, e.g. "
                           "check_loop({name}(...).review)", lang, name=loop.__name__))
    if not callable(loop):
        raise TypeError(tr("check_loop needs your loop function, e.g. check_loop(review_pull_request); got {what}",
                           lang, what=repr(loop)[:80]))
    try:
        signature = inspect.signature(loop)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(EXAMPLE_PR)
    except TypeError:
        name = _name(loop)
        raise TypeError(tr("check_loop calls your loop as {name}({pr}), with the merge request number only, but "
                           "{name}{signature} needs more. Give the other parameters default values, or pass a "
                           "wrapper: check_loop(lambda pr: {name}(pr, ...))", lang, name=name, pr=EXAMPLE_PR,
                           signature=str(signature))) from None


def _unobservable(runs: list[Run], name: str, lang: str) -> str:
    """One paragraph when nothing could be judged at all, with what to change; else ''."""
    calls = [c for run in runs for c in run.calls]
    if not calls and inspect.isgenerator(runs[0].returned):
        return tr("Nothing to judge: {name} returned a generator, and nothing ran it. Pass a function that runs "
                  "the loop to its end, e.g. check_loop(lambda pr: list({name}(pr))[-1]).", lang, name=name)
    if not calls:
        first = runs[0]
        ended = (tr("it raised {error}", lang, error=f"{type(first.error).__name__}: {str(first.error)[:200]}")
                 if first.error is not None else tr("it returned {value}", lang, value=repr(first.returned)[:80]))
        return tr("Nothing to judge: the check saw no request from {name} in any scenario ({ended}). The check "
                  "points every anthropic client in this kernel, and the ANTHROPIC_* variables, at its own "
                  "sandbox; a loop that sends its requests another way is not seen. What to change: call the "
                  "model through an anthropic client (a module-level client = make_client(), as in the "
                  "notebooks, or one your loop receives) and make sure the loop calls it for the merge request "
                  "number it is given.", lang, name=name, ended=ended)
    if all(c.status == 401 for c in calls):
        return tr("Nothing to judge: every request of {name} was refused with 401 by the check's sandbox, because "
                  "the loop builds a client with a key of its own. What to change: build the client with "
                  "anthropic.Anthropic() (the key comes from ANTHROPIC_API_KEY), outside the loop or passed in.",
                  lang, name=name)
    return ""


def check_loop(loop: Callable, rules: str | Iterable[str] | None = None, language: str | None = None) -> Report:
    """Check a loop against the lesson's rules (all, or the named ones) and return the report.

    In a notebook the report shows itself; elsewhere print it. `language` is "en" or "ru"
    (default: COURSE_AGENT_LANGUAGE, else the locale).
    """
    return judge(loop, rules, pick_language(language))


def judge(loop: Callable, rules: str | Iterable[str] | None, lang: str, title: str | None = None) -> Report:
    """check_loop in a given language; an exercise's grader gives its own title and adds its own findings.

    Rules with the same scenario (merge request and ordered misbehaviours) are judged on one run. A loop
    that raised a Python error (crash.BUGS) is reported as a crash first: its exception and line above the
    findings, and the rules judged on a run it ended are "not checked because your code raised X" unless
    that run already showed them broken (a crash is never a pass, e.g. of the cap)."""
    chosen = _rules(rules)
    _contract(loop, lang)
    name = _name(loop)
    title = title or tr("Self-check of {name}", lang, name=name)
    runs: dict[tuple[int, tuple[str, ...]], Run] = {}
    findings: list[Finding] = []
    with Sandboxes(expected=len({_scenario(rule) for rule in chosen})) as sandboxes:
        for rule in chosen:
            spec, scenario = ALL_RULES[rule], _scenario(rule)
            if scenario not in runs:
                runs[scenario] = run_scenario(loop, spec.pr, spec.misbehave, sandboxes=sandboxes)
            run = runs[scenario]
            seen = spec.judge(run, lang, loop) if spec.reads_the_loop else spec.judge(run, lang)
            if crashed_run(run) and seen.status != BROKEN:
                seen = Finding(rule, NOT_CHECKED, because_raised(run.error, lang))
            findings.append(Finding(rule, seen.status, seen.detail, *words(rule, lang)))
    findings = _no_merge_unasked(findings, runs, chosen, lang)
    findings = _history_of_its_own(findings, list(runs.values()), lang)
    crash = next((run.error for run in runs.values() if crashed_run(run)), None)
    if crash is not None:
        return crash_report(title, crash, findings, lang)
    note = _unobservable(list(runs.values()), name, lang)
    if note:
        findings = [Finding(f.rule, NOT_CHECKED, tr("no request was seen", lang), f.title, f.why, f.where)
                    for f in findings]
    return Report(title, findings, lang, note)


def _no_merge_unasked(findings: list[Finding], runs: dict[tuple[int, tuple[str, ...]], Run], chosen: list[str],
                      lang: str) -> list[Finding]:
    """A merge in any scenario is a merge nobody said yes to (the check never approves one): whatever rules were
    asked for, the report says so, as rule 8 broken."""
    if any(f.rule in ("merge_asks", "refusal_is_error") and f.status == BROKEN for f in findings):
        return findings
    merged = next(((scenario, run.merged) for scenario, run in runs.items() if run.merged), None)
    if merged is None:
        return findings
    scenario, prs = merged
    rule = next(r for r in chosen if _scenario(r) == scenario)
    seen = Finding("merge_asks", BROKEN, tr("in the run for “{rule}”, the loop merged {prs} though nobody said yes "
                                           "(the check never approves a merge)", lang, rule=tr(ALL_RULES[rule].title,
                                                                                             lang),
                                           prs=", ".join(f"!{pr}" for pr in prs)), *words("merge_asks", lang))
    return [f for f in findings if f.rule != "merge_asks"] + [seen]


def _history_of_its_own(findings: list[Finding], runs: list[Run], lang: str) -> list[Finding]:
    """Each run starts a history of its own: a first request that already holds tool calls or results carries an
    earlier run's conversation (a list as a default argument, or at module level, is shared by every call). Said as
    rule 1 broken: the history the loop sends is not this run's."""
    carried = next((len(run.calls[0].body.get("messages") or []) for run in runs if run.calls and any(
        b.get("type") in ("tool_use", "tool_result") for _, content in turns(run.calls[0].body.get("messages"))
        for b in content)), None)
    if carried is None or not any(f.rule == "whole_response" for f in findings):
        return findings
    seen = Finding("whole_response", BROKEN, ntr(
        "the first request of a review already held {n} message, with tool calls from an earlier review: each call "
        "of the loop starts a history of its own (a list given as a default argument, or made at module level, is "
        "shared by every call)",
        "the first request of a review already held {n} messages, with tool calls from an earlier review: each call "
        "of the loop starts a history of its own (a list given as a default argument, or made at module level, is "
        "shared by every call)", carried, lang), *words("whole_response", lang))
    return [seen if f.rule == "whole_response" else f for f in findings]


def _scenario(rule: str) -> tuple[int, tuple[str, ...]]:
    """What a rule's run is: the merge request reviewed and the misbehaviours ordered from the sandbox."""
    return ALL_RULES[rule].pr, ALL_RULES[rule].misbehave
