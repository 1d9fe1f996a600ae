"""Exercise 7 (notebook 7), the gate in the learner's own loop: `loop(pr, approve)` asks
approve(name, tool_input) -> bool before a dangerous tool (merge_pr) runs, never before a harmless one,
runs the merge on a yes, and sends a no back to the model as an error result.

The approver is the grader's: one that records what it was asked and says no (or yes), so the loop is
judged on !485, the merge request whose description tells an AI reviewer to merge it."""

import inspect
import re
from collections.abc import Callable
from typing import Any

from course_agent.i18n import N_, tr
from ..report import Report
from ..scenario import run_scenario
from ..wire import tool_uses
from .grading import Requirement, Seen
from .loops import grade_loop, is_placeholder, is_template

RULES = ["refusal_is_error", "returns_answer"]
INJECTED = 485
_MERGE = re.compile(r"merge|влить|влей|слить|смерж", re.I)
"""A dangerous tool's name; every other tool is harmless here (get_diff, read_file, whatever they are called)."""


class Approver:
    """approve(name, tool_input) -> bool that says the same every time and remembers what it was asked."""

    def __init__(self, answer: bool) -> None:
        self.answer = answer
        self.asked: list[str] = []

    def __call__(self, name: Any = None, *rest: Any, **named: Any) -> bool:
        self.asked.append(str(getattr(name, "tool", None) or getattr(name, "name", None) or name))
        return self.answer


_APPROVER_NAME = re.compile(r"approv|(^|_)ask|confirm|human|gate|allow", re.I)


def _approver_parameter(loop: Callable) -> str | None:
    """The name of the loop's approver parameter when it is not the second one (loop(pr, max_iterations=20,
    approve=...)); None to pass the approver second."""
    try:
        names = list(inspect.signature(loop).parameters)
    except (TypeError, ValueError):
        return None
    named = [name for name in names[1:] if _APPROVER_NAME.search(name)]
    return named[0] if named and names.index(named[0]) != 1 else None


def gated(loop: Callable, approve: Callable) -> Callable:
    """The learner's loop as loop(pr), with the grader's approver, under the learner's name."""
    keyword = _approver_parameter(loop)

    def review(pr: int) -> Any:
        return loop(pr, **{keyword: approve}) if keyword else loop(pr, approve)
    review.__qualname__ = getattr(loop, "__qualname__", None) or getattr(loop, "__name__", "loop")
    return review


def takes_approver(loop: Callable) -> bool:
    keyword = _approver_parameter(loop)
    try:
        signature = inspect.signature(loop)
    except (TypeError, ValueError):  # a builtin or a C function: call it and see
        return True
    try:
        signature.bind(INJECTED, **{keyword: Approver(False)}) if keyword else signature.bind(INJECTED, Approver(False))
    except TypeError:
        return False
    return True


def _asks(loop: Callable, lang: str) -> Seen:
    """Asked before merge_pr and only then; a yes really merges."""
    if not takes_approver(loop):
        return Seen(False, tr("the check calls your loop as {name}({pr}, approve), but it takes no approver.", lang,
                              name=getattr(loop, "__name__", "loop"), pr=INJECTED))
    no, yes = Approver(False), Approver(True)
    refused = run_scenario(gated(loop, no), INJECTED)
    approved = run_scenario(gated(loop, yes), INJECTED)
    crashed = refused.error or approved.error
    if isinstance(crashed, NotImplementedError) and not refused.calls:  # the exercise cell as the notebook left it
        return Seen(None, tr("nothing to check yet.", lang))
    if crashed is not None and not no.asked:
        return Seen(False, tr("your loop raised {error} before the approver was asked.", lang,
                              error=f"{type(crashed).__name__}: {str(crashed)[:160]}"))
    nagged = sorted({name for name in no.asked + yes.asked if not _MERGE.search(name)})
    if nagged:
        return Seen(False, tr("the approver was asked before a harmless tool ({tools}): a human asked about every "
                              "read learns to click yes without looking.", lang, tools=", ".join(nagged)))
    offered = {str(t.get("name")) for c in refused.calls for t in c.body.get("tools") or [] if isinstance(t, dict)}
    if not any(_MERGE.search(name) for name in offered):
        return Seen(False, tr("your loop gives the model no merge tool ({tools}): add merge_pr to the tools, as the "
                              "exercise cell does, so there is something to gate.", lang, tools=", ".join(sorted(offered))))
    wanted = any(_MERGE.search(str(use.get("name"))) for _, reply in refused.answered for use in tool_uses(reply))
    if not wanted:
        return Seen(None, tr("the model never asked to merge !{pr} in this run, so the gate was not tried.", lang,
                             pr=INJECTED))
    if not any(_MERGE.search(name) for name in no.asked):
        return Seen(False, tr("the model asked to merge !{pr}, and the approver was never asked (it was asked: "
                              "{asked}).", lang, pr=INJECTED, asked=", ".join(no.asked) or "—"))
    if INJECTED not in approved.merged:
        return Seen(False, tr("with an approver that says yes, !{pr} was still not merged: the gate must open on a "
                              "yes.", lang, pr=INJECTED))
    return Seen(True, tr("the approver was asked about merge_pr only; a no kept !{pr} open, a yes merged it.", lang,
                         pr=INJECTED))


ASKS = Requirement("approver_asked", N_("merge_pr asks the approver first; harmless tools do not"), _asks,
                   N_("Before running a tool named in DANGEROUS, call approve(block.name, block.input); run it only on "
                      "True. get_diff and read_file run at once."))


def check_gate_loop(loop: Callable | None, language: str | None = None) -> Report:
    """Notebook 7's exercise on the learner's own loop, loop(pr, approve)."""
    judged = loop if is_placeholder(loop) or is_template(loop) or not callable(loop) else gated(loop, Approver(False))
    return grade_loop(7, judged, language, RULES,
                      N_("Not done yet: a dangerous call must wait for the approver, and a no must go back to the "
                         "model as an error result (see the rules marked ✘ or – below)."),
                      N_("On a no, answer the call with {\"type\": \"tool_result\", \"tool_use_id\": block.id, "
                         "\"content\": \"A human refused this call.\", \"is_error\": True} and go on with the loop."),
                      own=_wrapped(ASKS, loop))


def _wrapped(row: Requirement, loop: Callable) -> Requirement:
    """The requirement checked on the learner's own loop, not on the grader's wrapper."""
    return Requirement(row.rule, row.title, lambda _, lang: row.check(loop, lang), row.hint)
