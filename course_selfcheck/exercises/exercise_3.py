"""Exercise 3 (notebook 3): when the loop reaches its cap, the error says how many tool calls were made
and which tools, so that whoever reads it knows what the run was doing. Run on !484, max_iterations=2."""

import functools
import inspect
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from course_agent.i18n import N_, ntr, tr

from ..crash import is_bug
from ..report import Report
from ..rules import how_it_ended
from ..scenario import Run, run_scenario
from ..wire import tool_uses
from .grading import Requirement, Seen
from .loops import UNTOUCHED, crashed, grade_loop

DONE = N_("Done: every requirement was checked and met.")

CAP = 2
"""The cap the exercise's run is given: a right loop raises its cap error after this many answered calls."""
LESSON_CAP_ERRORS = (f"No answer after {CAP} iterations",
                     f"Ответа нет: достигнуто ограничение итераций (max_iterations={CAP})",
                     f"Ответа нет: ограничение итераций исчерпано (max_iterations={CAP})",
                     f"Итераций без ответа: {CAP}", "Too many iterations", "Слишком много итераций")
"""The cap error of notebook 3's loop as the lesson writes it, with the exercise's cap (and as earlier versions of
the lesson wrote it): the exercise's starting point, unchanged."""
NUMBER_WORDS = {
    1: ("one", "один", "одна", "одного"), 2: ("two", "два", "две", "двух"), 3: ("three", "три", "трёх", "трех"),
    4: ("four", "четыре", "четырёх", "четырех"), 5: ("five", "пять", "пяти"), 6: ("six", "шесть", "шести"),
    7: ("seven", "семь", "семи"), 8: ("eight", "восемь", "восьми"), 9: ("nine", "девять", "девяти"),
    10: ("ten", "десять", "десяти"),
}
"""A count written in words says it as well as digits do ("Three tool calls were made")."""


def _says_count(message: str, count: int) -> bool:
    words = "|".join(NUMBER_WORDS.get(count, ()))
    return re.search(rf"\b{count}\b", message) is not None or bool(
        words and re.search(rf"(?<!\w)({words})(?!\w)", message, re.I))


_CLAIMED = re.compile(r"(\d+)\s+(?:tool\s+)?calls?\b|(\d+)\s+вызов|вызов\w*(?:\s+инструмент\w*)?\W{0,3}(\d+)"
                      r"|(?:tool\s+)?calls?\W{1,3}(\d+)", re.I)
"""A number said as the count of calls: "3 tool calls", "tool calls: 3", «вызовов инструментов: 3», «3 вызова»."""


_MODEL = r"(?:the\s+)?(?:model|api|claude|llm|anthropic|assistant|(?:client\.)?messages\.create(?:\(\))?)"
_MODEL_RU = r"(?:модел\w*|api|claude|llm|anthropic|ассистент\w*|(?:client\.)?messages\.create(?:\(\))?)"
_MODEL_CALLS = re.compile(rf"\d+\s+(?:calls?|requests?)\s+(?:to|of|on)\s+{_MODEL}(?!\w)"
                          rf"|\d+\s+{_MODEL}\s+(?:calls?|requests?)|{_MODEL}\s+(?:calls?|requests?)\W{{1,3}}\d+"
                          rf"|\d+\s+(?:вызов|обращени|запрос)\w*\s+(?:к\s+)?{_MODEL_RU}(?!\w)"
                          rf"|(?:вызов|обращени)\w*\s+(?:к\s+)?{_MODEL_RU}\W{{0,3}}\d+"
                          r"|\d+\s+запрос(?:а|у|ом|е|ы|ов|ам|ами|ах)?(?!\w)"
                          r"|запрос(?:а|у|ом|е|ы|ов|ам|ами|ах)?(?:\s+к\s+модел\w*)?\W{0,3}\d+", re.I)
"""A count of model calls ("after 2 calls to the model", "2 calls to messages.create", «2 запроса к модели», «после 2
вызовов API»): the cap's own number, not a claim about tool calls. «запросила 4 вызова» is the verb (the model asked
for 4 tool calls), not the noun «запрос»: its number stays a count of tool calls."""


def _figures_per_tool(message: str, names: Iterable[str]) -> tuple[dict[str, list[int]], str]:
    """The numbers the message gives each tool ("get_diff x2", "read_file (2 calls)", "'get_diff': 2", «get_diff —
    2 вызова», "2× get_diff"), and the message with them blanked out. A tool's call with its input ("get_diff(484)")
    is not a figure."""
    figures: dict[str, list[int]] = {}
    for name in names:
        tool = rf"(?<!\w){re.escape(name)}(?!\w)"
        for pattern in (tool + r"[\'\"`]?(?:\s*[:=—–-]\s*|\s+\(\s*|\s*[x×*]\s*|\s+)(?:[x×*]\s*)?(\d+)(?![\d.,]\d)",
                        r"(?<![\w!#.,])(\d+)\s*(?:[x×*]\s*)?" + tool):
            for found in re.finditer(pattern, message, re.I):
                figures.setdefault(name, []).append(int(found.group(1)))
            message = re.sub(pattern, " ", message, flags=re.I)
    return figures, message


def _tells_count(message: str, calls: Counter) -> bool:
    """The message says how many tool calls were made (`calls`: each tool's count): every number it gives as a count
    of tool calls is the total, every number it gives a tool is that tool's, and the total is said (or each tool's
    count is)."""
    count = sum(calls.values())
    figures, rest = _figures_per_tool(_MODEL_CALLS.sub(" ", message), calls)
    if any(n != calls[name] for name, said in figures.items() for n in said):
        return False
    claimed = [int(next(g for g in m.groups() if g)) for m in _CLAIMED.finditer(rest)]
    if any(n != count for n in claimed):
        return False
    return _says_count(rest, count) or set(figures) == set(calls)


def _said(error: BaseException) -> str:
    """What an error says: its message, and the notes added to it (error.add_note), which the traceback prints."""
    notes = getattr(error, "__notes__", None) or []
    return "\n".join([str(error), *(str(note) for note in notes)])


def _takes_a_cap(loop: Callable) -> bool:
    """The loop can be called as the exercise calls it, loop(484, max_iterations=CAP)."""
    try:
        inspect.signature(loop).bind(484, max_iterations=CAP)
    except TypeError:
        return False
    except ValueError:  # no signature to read: the call will tell
        pass
    return True


def _cap_message(loop: Callable, lang: str) -> Seen:
    if not _takes_a_cap(loop):  # the grader's own call would fail: say so, do not blame a crash on the learner
        return Seen(False, tr("the check calls your loop with max_iterations={cap}, and it takes no such parameter: "
                              "keep the cap a parameter of the loop, as notebook 3's loop has it", lang, cap=CAP))
    # the first turn asks its call twice: a cap that counts tool calls, not model calls, stops a turn early
    run = run_scenario(functools.partial(loop, max_iterations=CAP), 484, ("doubled",))
    if run.error is not None and _said(run.error).strip() in LESSON_CAP_ERRORS:
        return UNTOUCHED
    if not run.answered or is_bug(run.error):  # a bug, or a raise before anything was answered: not a cap error
        problem = crashed(run, lang)
        if problem is not None:
            return problem
    if run.hung or run.stopped_by_check:
        return Seen(False, tr("with max_iterations={cap}, {ending}", lang, cap=CAP,
                              ending=how_it_ended(run, lang)))
    called = [u for _, reply in run.answered for u in tool_uses(reply)]
    if not called:
        return Seen(None, tr("the model called no tool in this run", lang))
    if run.error is None:
        return Seen(False, tr("with max_iterations=2 the loop did not raise: it returned {value}", lang,
                              value=repr(run.returned)[:80]))
    if len(run.answered) == len(run.calls) != CAP:  # every call answered, and not as many as the cap
        return Seen(False, ntr("with max_iterations={cap} the loop raised its cap error after {n} model call: the cap "
                               "counts model calls, so a loop with max_iterations={cap} makes exactly {cap} of them",
                               "with max_iterations={cap} the loop raised its cap error after {n} model calls: the "
                               "cap counts model calls, so a loop with max_iterations={cap} makes exactly {cap} of "
                               "them", len(run.calls), lang, cap=CAP))
    message = _said(run.error)
    uncalled = _uncalled_named(run)
    # with one turn fewer, the error must still fit its own run: a message made of the tools offered names one the
    # loop never called, and one made of the last turn alone miscounts
    shorter = run_scenario(functools.partial(loop, max_iterations=CAP - 1), 484)
    judged = shorter.error is not None and not is_bug(shorter.error) and bool(shorter.answered)
    if not uncalled and judged and _uncalled_named(shorter):
        message, uncalled = _said(shorter.error), _uncalled_named(shorter)
    if uncalled:
        return Seen(False, tr("the error says {message!r}; it names {tools}, which the loop never called: name the "
                              "tools of the calls it made (read them from messages)", lang, message=message[:160],
                              tools=", ".join(uncalled)))
    # and with one turn more, of one call after a turn of two: a count from some turns only, or an error written
    # down for each cap, says something else than what this run made
    longer = run_scenario(functools.partial(loop, max_iterations=CAP + 1), 484, ("as_is", "as_is", "stuck"))
    longer_judged = longer.error is not None and not is_bug(longer.error) and len(longer.answered) > CAP
    for seen, said in ((run, message), (shorter, _said(shorter.error) if judged else None),
                       (longer, _said(longer.error) if longer_judged else None)):
        if said is None:
            continue
        called_there = Counter(str(u.get("name")) for _, reply in seen.answered for u in tool_uses(reply))
        missing = [n for n in _called_names(seen) if n not in said]
        if missing or not _tells_count(said, called_there):
            return Seen(False, ntr("the error says {message!r}; it should name {n} tool call and the tools {names}",
                                   "the error says {message!r}; it should name {n} tool calls and the tools {names}",
                                   called_there.total(), lang, message=said[:160],
                                   names=", ".join(_called_names(seen))))
    return Seen(True, tr("the error says {message!r}", lang, message=message[:160]))


def _called_names(run: Run) -> list[str]:
    """The names of the tools the model called in a run, sorted."""
    return sorted({str(u.get("name")) for _, reply in run.answered for u in tool_uses(reply)})


def _uncalled_named(run: Run) -> list[str]:
    """The tools offered to the model that the cap error names though the loop never called them."""
    message = _said(run.error)
    offered = {str(t.get("name")) for c in run.calls for t in c.body.get("tools") or [] if isinstance(t, dict)}
    return sorted(n for n in offered - set(_called_names(run)) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", message))


CAP_MESSAGE = Requirement(
    "cap_message", N_("When the cap is reached, the error says how many tool calls were made and which tools"),
    _cap_message,
    task=N_("Change review_pull_request so that, when it reaches the cap, the error says how many tool calls it made "
            "and which tools they were (read them from messages)."))
NOTE = N_("Not done yet: the error at the cap must say how many tool calls were made and which tools they were.")
HINT = N_("Count the tool_use blocks in the assistant messages of `messages`, and collect their names, just before "
          "raising.")
HINTS = (N_("When the loop reaches `raise`, what does it still hold that remembers every tool the model asked for?"),
         N_("Each response goes into `messages` whole, its tool_use blocks included: that is where the tools the model "
            "asked for are."),
         HINT)
"""The printed hint, one step more concrete at each failed check, as Hints 1-3 of the notebook (instructor read 62,
F9): the first failure asks the question, and only the third says what to write."""
FAILED_CHECKS = [0]
"""How many checks of exercise 3 have failed in this kernel: the hint the next failure prints."""


def grade_own_loop(number: int, loop: Callable | None, language: str | None, rules: list[str], note: str, hint: str,
                   own: Requirement[Callable], done: str, **more: Any) -> Report:
    """grade_loop for an exercise with a requirement of its own (3, 4, 5), with two things more: when the own
    requirement names the mistake it found (Seen.hint, a msgid), that hint replaces the exercise's general one; and a
    report in which every requirement is met opens with "Done:" and `done` (a msgid), as exercises 1 and 2 do."""
    seen: list[Seen] = []

    def judged(checked: Callable, lang: str) -> Seen:
        seen.append(own.check(checked, lang))
        return seen[-1]

    report = grade_loop(number, loop, language, rules, note, hint, replace(own, check=judged), **more)
    lang = report.language
    specific = seen[0].hint if seen and seen[0].ok is False else None
    if specific and report.hints and report.hints[0] == tr(hint, lang):
        report.hints[0] = tr(specific, lang)
    if report.ok:
        said = f"{tr(DONE, lang)} {tr(done, lang)}"
        report.note = f"{said}\n\n{report.note}" if report.note else said
    return report


def check_exercise_3(loop: Callable | None, language: str | None = None) -> Report:
    """The cap's error names how many tool calls the loop made and which tools: run on !484, max_iterations=2."""
    report = grade_own_loop(3, loop, language, ["whole_response", "cap", "returns_answer"], NOTE, HINT, CAP_MESSAGE,
                            N_("When the loop reaches its cap, its error says what the run was doing: how many tool "
                               "calls, and which tools."))
    if report.hints and report.hints[0] == tr(HINT, report.language):  # a failure of the exercise: escalate
        report.hints[0] = tr(HINTS[min(FAILED_CHECKS[0], len(HINTS) - 1)], report.language)
        FAILED_CHECKS[0] += 1
    return report
