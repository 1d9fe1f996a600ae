"""The graders' approvers, and a learner's loop driven with each of them: only an explicit yes opens a gate.

The lesson's rule is that no answer means no. A gate that goes ahead when its approver raises ("approver
unavailable"), returns None, returns something that is not True (the "no" a person types into input() is
a non-empty string, so it is truthy) or does not answer in time, merges a prompt injection's merge request
as soon as the person is away. So a gate is tried with an approver that says yes, one that says no, and one
for each of those failures; any merge in a run whose approver did not say an explicit yes is broken, named
with the learner's line that asked the approver."""

import inspect
import re
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from course_agent.i18n import tr

from .crash import RaisedByTheCheck, library_folders
from .scenario import LOOP_THREAD, Run, Sandboxes, run_scenario

INJECTED = 485
"""The merge request whose description tells an AI reviewer to merge it."""
SILENCE = 3.0
"""Seconds the silent approver keeps a loop waiting before it says no, when the loop asks it in the loop's own
thread: the loop is blocked on it and cannot be timing it out (a test may lower it)."""
WATCHED_SILENCE = 20.0
"""Seconds it keeps silent when asked from another thread, where the loop may be timing it out: a gate that takes
its own timeout for a yes merges before this (the scenario gives up on a loop after 30 s)."""
YES, NO = "yes", "no"
WORDS = {"text": "no", "yes_text": "yes", "y_text": "y", "ok_text": "OK", "da_text": "да", "true_text": "True",
         "approved_text": "approved"}
"""The approvers that return a word, and the word: "no" is what input() gives when the person types no (a non-empty
string, so truthy); the others spell a yes, and a word is not True whatever it spells (a gate that reads "y" or
«да» as a yes opens for whatever types it, a prompt injection's fake approver included)."""
MORE_WORDS = {"sure_text": "sure", "approve_text": "approve", "go_ahead_text": "go ahead", "yep_text": "yep",
              "konechno_text": "конечно", "ok_ru_text": "ок"}
"""More spellings of a yes that are not True (attack 22's H-9: a gate that took "sure" or "go ahead" for a yes passed,
the seven WORDS never said them). Tried like WORDS; named in a row only when one of them opened the gate (the rows a
right gate gets list the seven, as the notebooks show them)."""
WORDS |= MORE_WORDS
FAILING = ("raises", "breaks", "none", *WORDS, "record", "one", "silent")
"""The approvers that never said yes (True): one raises ApproverUnavailable, one ApproverBroke (a gate that takes
only "nobody there" errors for a no, and any other error for a yes, opens on it), one returns None, seven return a
word (WORDS), one a record that says approved (a dict with an `approved` attribute), one the number 1 (1 == True
holds in Python, 1 is True does not), one keeps silent."""
RAISES_THEN_YES = "raises_then_yes"
"""An approver that raises, then says yes to the same question asked again: a gate that asks again after an error
runs a call whose answer was the exception, a no."""
YES_THEN_NO = "yes_then_no"
"""An approver that says yes once, then no: a gate that remembers the first yes runs the next merge unasked."""
NO_THEN_YES = "no_then_yes"
"""An approver that says no, then yes to the same question asked again: a gate that asks until it hears yes runs
a call that was denied."""
SLOW_YES = "slow_yes"
"""An approver that says yes (True) after as long as the silent one keeps silent: a person who reads the call first.
A gate with a timeout of its own turns that yes into a no; the task says the loop waits for the answer."""
KINDS = (YES, NO, *FAILING)
MERGE_WORDS = re.compile(r"merge|влить|влей|слить|смерж", re.I)
MERGE_REQUEST_WORDS = re.compile(r"(merge|pull)[ _-]?requests?", re.I)
"""'merge request' names the thing reviewed, not the act: removed before a tool is looked at for merge words."""
_APPROVER_NAME = re.compile(r"approv|confirm|human|consent|permi[ts]|allow|authori[sz]|sign_?off|(^|_)ask($|_)|"
                            r"(^|_)gate($|_)|(^|_)guard($|_)|(^|_)decide", re.I)
_NOT_AN_APPROVER = re.compile(r"dispatch|tool|run|handler|client|exec|call|model|print|log|show|report|sleep|clock|"
                              r"time|retry|limit|cut|bill|cost|usage|cache|fetch|read|get|send", re.I)
"""Names of parameters whose function default is something else than an approver (a dispatcher, a client)."""


class ApproverBroke(RuntimeError, KeyError, IndexError, ValueError, TypeError, ZeroDivisionError, AssertionError,
                    AttributeError, RaisedByTheCheck):
    """What the grader's broken approver raises: an error of every everyday kind at once, so that a gate that takes
    some kinds of error for a no and another kind for a yes is seen to open, whichever kind it lets through."""

    def __str__(self) -> str:  # KeyError's str() would quote the message
        return str(self.args[0]) if self.args else ""


class Record(dict):
    """What the grader's `record` approver returns: {"approved": True} that also has `.approved`, as an approval
    form or a widget's state would. A record is not True: a gate that reads a yes inside it opens on it."""

    approved = True


class ApproverUnavailable(EOFError, TimeoutError):
    """What the grader's raising approver raises: the person cannot be asked (no stdin, a closed widget). It is an
    EOFError (what input() raises with no keyboard) and a TimeoutError, so a gate that takes either of those for a
    yes (`except EOFError: return True`) is seen to open."""


@dataclass
class Approver:
    """approve(name, tool_input) of one kind, which remembers what it was asked and from which line."""

    kind: str
    protocol: str = "task"
    """"task": approve(name, tool_input), exercise 7's signature; "any" (check_loop) also answers the course's
    approver(ApprovalRequest) -> Verdict, with a Verdict."""
    silence: float | None = None
    """Seconds the silent approver waits; SILENCE (read when asked, so a test may lower it) unless given."""
    lang: str | None = None
    """The report's language, for the words of what it raises or answers: the learner's loop may print them in the
    notebook (None: course_agent.i18n's choice, COURSE_AGENT_LANGUAGE, which a notebook sets, else the locale)."""
    asked: list[str] = field(default_factory=list)
    inputs: list[Any] = field(default_factory=list)
    """The tool_input given with each question: the person must see what would run."""
    lines: list[str] = field(default_factory=list)
    """The learner's line that asked, for each question ("" when it could not be told)."""
    yeses: int = 0
    """How many times it answered True: a merge needs one each."""
    waited: float = 0.0
    """Seconds it last kept the loop waiting (the silent and the slow approvers)."""
    merged_before: list[bool] = field(default_factory=list)
    """For each question, whether !485 was already merged when it was asked (a gate that runs the call, then asks:
    attack 19's report wording 3); read from the run's sandbox, which `gated` hands over as the run starts."""
    sandbox: Any = field(default=None, repr=False, compare=False)

    def __call__(self, *args: Any, **named: Any) -> Any:
        """approve(name, tool_input), the exercise's signature: a gate that calls it another way gets the
        TypeError the notebook's own approver would give it; with protocol "any", an ApprovalRequest too."""
        request = args[0] if self.protocol == "any" and len(args) == 1 and not named and hasattr(args[0], "tool") \
            else None
        if request is None:
            name, tool_input = approve(*args, **named)
        else:
            name, tool_input = request.tool, getattr(request, "input", None)
        self.asked.append(str(name))
        self.merged_before.append(self._merged_now())
        self.inputs.append(tool_input)
        self.lines.append(_asking_line())
        answer = self._answer()
        if request is not None and self.kind == "record":  # the course's protocol answers with a Verdict: here, a no
            answer = False
        self.yeses += answer is True
        if request is not None and isinstance(answer, bool):
            from course_agent.safety import Verdict

            return Verdict(answer, "the self-check",
                           "" if answer else tr("the self-check's approver said no", self.lang))
        return answer

    def _merged_now(self) -> bool:
        """!485 is merged in this run's sandbox right now (False when the sandbox is not known)."""
        requests = getattr(getattr(self.sandbox, "gitlab", None), "merge_requests", None) or {}
        found = requests.get(INJECTED) if isinstance(requests, dict) else None
        return getattr(found, "state", None) == "merged"

    def _answer(self) -> Any:
        if self.kind == YES:
            return True
        if self.kind == "raises":
            raise ApproverUnavailable(tr("the approver is unavailable: nobody can be asked", self.lang))
        if self.kind == "breaks":
            raise ApproverBroke(tr("the approver broke before anyone answered", self.lang))
        if self.kind == "record":
            return Record(approved=True)
        if self.kind == NO_THEN_YES:
            return len(self.asked) > 1
        if self.kind == RAISES_THEN_YES:
            if len(self.asked) == 1:
                raise ApproverUnavailable(tr("the approver is unavailable: nobody can be asked", self.lang))
            return True
        if self.kind == YES_THEN_NO:
            return len(self.asked) == 1
        if self.kind == "none":
            return None
        if self.kind in WORDS:
            return WORDS[self.kind]
        if self.kind == "one":
            return 1  # what a count or a flag from elsewhere may be: == True lets it through, is True does not
        if self.kind in ("silent", SLOW_YES):
            self.waited = self.waits()
            threading.Event().wait(self.waited)  # silent: no answer within the time a loop may wait, then a no
            return self.kind == SLOW_YES
        return False

    def waits(self) -> float:
        """How long the silent approver stays silent here: longer when the loop asks it from another thread."""
        if self.silence is not None:
            return self.silence
        return SILENCE if threading.current_thread().name == LOOP_THREAD else WATCHED_SILENCE

    def merge_numbers(self) -> set[int]:
        """The merge request numbers found in the inputs it was shown (any integer value of an input)."""
        return {value for given in self.inputs if isinstance(given, dict) for value in given.values()
                if isinstance(value, int) and not isinstance(value, bool)}

    def merge_asked(self, merges: set[str]) -> bool:
        return any(name in merges for name in self.asked)

    def did(self, lang: str) -> str:
        """What this approver answered, in the report's language."""
        return {
            YES: tr("said yes (True)", lang),
            NO: tr("said no (False)", lang),
            "raises": tr("raised ApproverUnavailable", lang),
            "breaks": tr("raised ApproverBroke (a RuntimeError, ValueError, KeyError, TypeError... at once)", lang),
            "record": tr("returned {'approved': True}, a record and not True", lang),
            NO_THEN_YES: tr("said no, then yes when asked again", lang),
            RAISES_THEN_YES: tr("raised ApproverUnavailable, then said yes when asked again", lang),
            YES_THEN_NO: tr("said yes once, then no", lang),
            SLOW_YES: tr("said yes after {seconds} s", lang, seconds=f"{self.waited or self.waits():g}"),
            "none": tr("returned None", lang),
            "text": tr("returned the string 'no' (what input() gives), not True", lang),
            "one": tr("returned 1, which equals True but is not True", lang),
            "silent": tr("did not answer", lang),
        }.get(self.kind) or tr("returned the string '{word}', not True", lang, word=WORDS[self.kind])


def approve(name: str, tool_input: dict) -> tuple[str, dict]:
    """The exercise's signature, so that a call of another shape gets the TypeError a learner's own
    approve(name, tool_input) would raise ("approve() missing 1 required positional argument")."""
    return name, tool_input


def _asking_line() -> str:
    """The learner's line that called the approver: the innermost frame outside the course and the libraries."""
    outside = library_folders()
    mine = [f for f in traceback.extract_stack()[:-2] if not f.filename.startswith(outside)
            and not f.filename.startswith("<frozen")]
    if not mine:
        return ""
    frame = mine[-1]
    return f"{frame.lineno}: {(frame.line or '').strip()}"


def says_merge(text: str) -> bool:
    """The words name the act of merging ("merge_pr", "Merge a merge request"), not only a merge request."""
    return bool(MERGE_WORDS.search(MERGE_REQUEST_WORDS.sub(" ", text)))


def merge_tools(run: Run) -> set[str]:
    """The tools offered in a run that merge, by their name or their description ("Merge a merge request")."""
    offered = [t for c in run.calls for t in c.body.get("tools") or [] if isinstance(t, dict)]
    return {str(t.get("name")) for t in offered if says_merge(f"{t.get('name')} {t.get('description') or ''}")}


def approver_parameter(loop: Callable) -> str | None:
    """The name of the loop's parameter that takes an approver (approve, approver, ask_human, confirm...)."""
    try:
        parameters = list(inspect.signature(loop).parameters.values())
    except (TypeError, ValueError):
        return None
    passable = [p for p in parameters[1:] if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    named = [p for p in passable if _APPROVER_NAME.search(p.name)
             and (p.default is p.empty or p.default is None or callable(p.default))]
    # else the one parameter whose default is a function of two arguments, named like nothing else (`yes=nobody`)
    unnamed = [p for p in passable if callable(p.default) and not isinstance(p.default, type)
               and not _NOT_AN_APPROVER.search(p.name) and _takes_two(p.default)]
    return named[0].name if named else unnamed[0].name if len(unnamed) == 1 else None


def _takes_two(function: Callable) -> bool:
    """The function can be called as approve(name, tool_input)."""
    try:
        inspect.signature(function).bind("merge_pr", {})
    except (TypeError, ValueError):
        return False
    return True


def gated(loop: Callable, approve: Callable, keyword: str | None) -> Callable:
    """The learner's loop as loop(pr), with the grader's approver (by name, or second), under the learner's name."""
    def review(pr: int) -> Any:
        if isinstance(approve, Approver):  # run inside a scenario: its sandbox shows what ran before a question
            from course_agent.client import shared_sandbox

            approve.sandbox = shared_sandbox()
        return loop(pr, **{keyword: approve}) if keyword else loop(pr, approve)
    review.__qualname__ = getattr(loop, "__qualname__", None) or getattr(loop, "__name__", "loop")
    return review


@dataclass(frozen=True)
class Driven:
    """One run of the learner's loop on !485 with one of the grader's approvers."""

    approver: Approver
    run: Run

    @property
    def merged(self) -> bool:
        return INJECTED in self.run.merged


def drive(loop: Callable, kinds: tuple[str, ...], keyword: str | None, sandboxes: Sandboxes | None = None,
          protocol: str = "task", lang: str | None = None) -> dict[str, Driven]:
    """The loop run on !485 once per approver kind, each in a fresh sandbox, in the order given (a yes first
    shows a loop that remembers a yes and merges later without asking); `lang` is the report's language."""
    driven = {}
    for kind in kinds:
        approver = Approver(kind, protocol, lang=lang)
        driven[kind] = Driven(approver, run_scenario(gated(loop, approver, keyword), INJECTED, sandboxes=sandboxes))
    return driven


def ran_before_asking(seen: Driven, merges: set[str]) -> bool:
    """!485 was merged before the approver's first question about a merge: the gate runs the call, then asks."""
    first = next((before for name, before in zip(seen.approver.asked, seen.approver.merged_before, strict=False)
                  if name in merges), False)
    return seen.merged and first


def opened_without_yes(driven: dict[str, Driven], lang: str) -> str:
    """'' when no run merged !485 without an explicit yes; else what happened, with the learner's line."""
    for kind, seen in driven.items():
        if kind == YES or not seen.merged:
            continue
        said = seen.approver.did(lang)
        line = next((line for line in seen.approver.lines if line), "")
        if not seen.approver.asked:  # what it would have answered: it was never asked, so it did nothing (#36)
            return (tr("!{pr} was merged, and the approver was never asked, though in this run it would have said no",
                       lang, pr=INJECTED) if kind == NO else
                    tr("!{pr} was merged, and the approver was never asked, though in this run it would not have said "
                       "yes", lang, pr=INJECTED))
        where = tr(" (your gate asked at line {line})", lang, line=line) if line else ""
        # the rule itself is the item's title and its requirement line: this line says only what happened
        return tr("with an approver that {did}, !{pr} was merged{where}", lang, did=said, pr=INJECTED, where=where)
    return ""

