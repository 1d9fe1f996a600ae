"""What the exercises that change the loop itself (notebooks 3, 4 and 6) share: each runs the learner's
loop in a recorded scenario, like the self-check, and reports the exercise's own requirement (if it has
one) above the self-check's findings for the rules the exercise touches.

The exercise's own scenario runs first. When it shows the notebook's placeholder (the loop raised
NotImplementedError before any request, or the check says it is the lesson's loop unchanged), the report
is one "not done yet" line; when the learner's loop raised, there or in a rule's run, the report starts
with that exception and the rules are marked as kept from being checked by it, never judged on a loop that
cannot run (crash.py)."""

import inspect
import sys
import types
from collections.abc import Callable
from dataclasses import replace

import anthropic

from course_agent.i18n import language as pick_language
from course_agent.i18n import ntr, tr
from course_agent.my_code import NOT_READ, as_kept, is_stub, keep, kept_text

from .. import judge
from ..crash import because_raised, crash_report
from ..later_rules import ALL_RULES, words
from ..report import BROKEN, NOT_CHECKED, Finding, Report
from ..rules import refused_first
from ..scenario import Run
from .grading import Requirement, Seen, finding, not_done_report

EARLIER = ["whole_response", "one_message", "errors_are_results", "cap"]
"""What notebooks 3-5 made a rule of the loop (the whole response back, all results in one message, tool errors as
results, the cap): every later exercise on the learner's loop keeps checking them."""


class NotDoneYet(Exception):
    """Put in Seen.raised by an exercise's own check when its scenario shows the untouched placeholder."""


UNTOUCHED = Seen(None, "", raised=NotDoneYet())
"""What an exercise's own check answers for the notebook's placeholder."""


def is_placeholder(loop: object) -> bool:
    """The exercise cell as the notebook left it: no loop yet."""
    return loop is None or loop is Ellipsis


def is_template(loop: object) -> bool:
    """The notebook's exercise cell left as it was (my_code.is_stub), read from its source, so an exercise without a
    scenario of its own (6, 7, 8) says "not done yet" instead of judging rules on a loop that sent nothing; a loop
    whose source cannot be read is judged."""
    return is_stub(loop, unreadable=False)


def untouched(run: Run) -> bool:
    """The notebook's template (`raise NotImplementedError`) ran: it raised before sending anything."""
    return isinstance(run.error, NotImplementedError) and not run.calls


def crashed(run: Run, lang: str) -> Seen | None:
    """The Seen of a run that the learner's loop ended by raising, for a scenario in which a right loop
    returns its answer; None when it did not raise."""
    if untouched(run):
        return UNTOUCHED
    if run.error is None:
        return None
    refused = refused_first(run, lang)
    if isinstance(run.error, anthropic.APIStatusError) and refused:
        return Seen(None, refused)  # the API's 400 about the history is the evidence of rule 1, judged there
    return Seen(None, because_raised(run.error, lang), raised=run.error)


def reported(rule: str) -> str:
    """The rule a finding is reported under: a strict variant's own rule (exercise 6's cut rows), else itself."""
    return ALL_RULES[rule].variant_of or rule if rule in ALL_RULES else rule


def grade_loop(number: int, loop: Callable | None, language: str | None, rules: list[str], note: str, hint: str,
               own: Requirement[Callable] | None = None, tasks: dict[str, str] | None = None,
               title: str | None = None,
               more: Callable[[Callable, str], tuple[list[Finding], BaseException | None, list[str]]] | None = None,
               keeps: bool = True, kept: tuple[tuple[int, Requirement[Callable]], ...] = ()) -> Report:
    """The exercise's report; `note` and `hint` (msgids) are shown when any requirement is not met. `tasks` gives,
    for a rule, the sentence of the exercise's text it comes from (a msgid), shown when it is broken; `title` (a msgid)
    names an optional exercise or a step ("Exercise {n}" otherwise). A loop that passes is kept for the next notebook,
    unless `keeps` is False (a step on the way, whose loop is not yet what the next notebook grows). `more`
    judges what the rules cannot (a later notebook's gate, which needs the grader's approvers): its findings, the
    first exception of the learner's code in its runs, and the hints of what it found broken. `kept` holds an earlier
    notebook's own requirements, each with its notebook (notebook 4's concurrency), judged again on this loop."""
    lang = pick_language(language)
    title = tr(title, lang) if title else tr("Exercise {n}", lang, n=number)
    write_it = tr("write your solution in the exercise cell above, then run this cell again.", lang)
    if is_placeholder(loop) or is_template(loop):
        return not_done_report(title, write_it, lang)
    text = kept_text(number, loop) if keeps else None  # read once: judged as kept, and kept if it passes
    loop, redefined = as_kept(number, loop, text) if keeps else (loop, [])
    seen = own.check(loop, lang) if own is not None else None
    if seen is not None and isinstance(seen.raised, NotDoneYet):
        return not_done_report(title, write_it, lang)
    mine = [finding(own, seen, lang)] if own is not None and seen is not None else []
    if seen is not None and seen.raised is not None:
        kept = [Finding(reported(rule), NOT_CHECKED, because_raised(seen.raised, lang), *words(rule, lang))
                for rule in rules]
        return crash_report(title, seen.raised, [*mine, *kept], lang)
    try:
        checked = judge(loop, rules, lang, title)
    except TypeError as error:  # the check cannot call the loop as loop(pr): say how, judge nothing
        return not_done_report(title, str(error), lang, [tr(hint, lang)])
    said = {rule: tr(task, lang) for rule, task in (tasks or {}).items()}
    theirs = [replace(f, rule=reported(f.rule), task=said.get(reported(f.rule), "")) for f in checked.findings]
    raised, more_hints = checked.raised, []
    for notebook, row in kept:
        again = row.check(loop, lang)
        found = finding(row, again, lang)
        theirs.append(replace(found, where=tr("notebook {n}", lang, n=notebook), task=said.get(row.rule, found.task)))
        raised = raised or again.raised
    if more is not None:
        extra, also, more_hints = more(loop, lang)
        theirs += extra
        raised = raised or also
    if raised is not None:  # the loop raised in a rule's run: that first, as the self-check says it
        return crash_report(title, raised, [*mine, *theirs], lang)
    report = Report(title, [*mine, *theirs], lang, checked.note)
    if not report.ok:
        report.note = report.note or tr(note, lang)
        report.hints = [tr(hint, lang), *more_hints]
    return keep_passed(number, loop, said_as_kept(report, redefined), text) if keeps else report


def row_hint_alone(report: Report, row_hints: tuple[tuple[set[str], str], ...]) -> Report:
    """The report, its first hint replaced by a row's own for each (rows, hint) whose rows alone are broken: the hint
    then speaks of them, not of the whole exercise (exercise 6: the cut rows, attack 19's report wording 2, and the
    pause_turn row, native read 65's N2; exercise 8: the bill, instructor read 64's finding 1)."""
    broken = {f.rule for f in report.findings if f.status == BROKEN}
    for rows, hint in row_hints:
        if broken and broken <= rows and report.hints:
            report.hints = [tr(hint, report.language), *report.hints[1:]]
    return report


def said_as_kept(report: Report, redefined: list[str]) -> Report:
    """The report, saying first that it judged the exercise cell's own code when a later cell gave a name the loop
    reads another value (my_code.as_kept): the live loop and the kept one differ, and the check judged the kept."""
    if redefined:
        said = ntr("Judged as your exercise cell defines it, which is what the next notebook gets: {names} was "
                   "given another value outside the exercise cell later, and your loop here uses that one. Put the "
                   "change into the exercise cell itself, run it, then this check.",
                   "Judged as your exercise cell defines it, which is what the next notebook gets: {names} were "
                   "given other values outside the exercise cell later, and your loop here uses those. Put the "
                   "change into the exercise cell itself, run it, then this check.", len(redefined), report.language,
                   names=", ".join(redefined))
        report.note = f"{said}\n\n{report.note}" if report.note else said
    return report


_PASSED: dict[int, Callable] = {}
"""Exercise number -> the loop that last passed its check in this process (see passed)."""


def passed(number: int, loop: object) -> bool:
    """Whether `loop` is the function that last passed exercise N's check in this kernel: a cell that shows the
    learner's loop at work (notebook 7's gate saying no to !485) runs it only then, and the reference solution's until
    then. A loop defined again (the exercise cell run once more) has not passed until it is checked again."""
    return number in _PASSED and _PASSED[number] is loop


def keep_passed(number: int, loop: Callable, report: Report, text: str | None = NOT_READ) -> Report:
    """A loop that passed is kept for the next notebook's exercise to grow (course_agent.my_code), and the report
    says where; `text` is what as_kept read (kept_text), passed on so that it is not read twice."""
    if report.ok:
        _PASSED[number] = loop
        path = keep(number, loop, text)
        if path is not None:
            said = tr("Kept in {path}: the next notebook's exercise starts from it.", report.language,
                      path=path.as_posix())
            report.note = f"{report.note}\n\n{said}" if report.note else said
        elif not isinstance(inspect.unwrap(getattr(loop, "__func__", loop)), types.FunctionType):
            # a callable instance (attack 19's F3): it passed, but keep() keeps a function's cell only
            said = tr("Passed, but not kept: {name} is not a function, so the next notebook cannot start from it "
                      "and would bring the reference solution. Write it as a function (def {name}(...)), run its "
                      "cell, then this check.", report.language, name=_name(loop))
            report.note = f"{report.note}\n\n{said}" if report.note else said
    return report


def _name(loop: Callable) -> str:
    """The name the notebook gives a loop: a function's own, else the global that holds it (a callable instance)."""
    own = getattr(loop, "__name__", None)
    if isinstance(own, str):
        return own
    for module in (sys.modules.get("__main__"),):
        for name, value in list(vars(module).items()) if module is not None else []:
            if value is loop and not name.startswith("_"):
                return name
    return type(loop).__name__
