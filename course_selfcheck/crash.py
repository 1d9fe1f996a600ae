"""A learner's code that raised: which exceptions say the code went wrong, where in the learner's own code,
and the wording that puts the exception first. Shared by check_loop and the exercises' graders, so both
report a crash the same way and never judge a rule on a loop that could not run."""

import functools
import importlib.util
import json
import os
import re
import sysconfig
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import anthropic

from course_agent.i18n import N_, tr

from .report import Finding, Report, collapsed

BUGS = (TypeError, AttributeError, NameError, LookupError, ImportError, ArithmeticError, AssertionError,
        NotImplementedError, StopIteration, json.JSONDecodeError, UnicodeError)
"""Exceptions that say the learner's code went wrong, as opposed to one it raises on purpose (a cap error:
RuntimeError, ValueError). `next()` on an empty refusal and a tool input read with json.loads are bugs too."""


CAP_ASSERT = re.compile(r"\b(?:max|limit|cap\b|iteration|turns?\b|steps?\b|rounds?\b|budget|итерац|огранич|лимит|ход)",
                        re.I)
"""Words of an `assert` that is the loop's cap ("assert turn < max_iterations, 'no answer after 20 iterations'")."""


def _cap_assert(error: BaseException | None) -> bool:
    """An AssertionError the learner wrote as the cap's error, with a message that says so: on purpose, not a bug."""
    return isinstance(error, AssertionError) and bool(CAP_ASSERT.search(str(error)))


class RaisedByTheCheck(Exception):
    """Mixed into what the check's own stand-ins raise (an approver that breaks): whatever kinds of error they also
    are, an exception of the check that escapes the learner's loop is evidence about the loop, never its bug."""


def is_crash(error: BaseException | None) -> bool:
    """The learner's Python code went wrong (an exception of BUGS), which the rules cannot judge."""
    return isinstance(error, BUGS) and not _cap_assert(error) and not isinstance(error, RaisedByTheCheck)


def crashed_run(run: Any) -> bool:
    """The run ended in a crash (is_crash), unless its error names the stop reason the run last met: a loop may
    raise NotImplementedError("stop reason X is not handled") on purpose, as the answer to a reason it cannot know."""
    if not is_crash(run.error):
        return False
    last = next((reply.get("stop_reason") for _, reply in reversed(run.answered)), None)
    return not (isinstance(run.error, NotImplementedError) and last and str(last) in str(run.error))


def is_bug(error: BaseException | None) -> bool:
    """The learner's code went wrong: a Python error of BUGS, or a request the API refused."""
    return isinstance(error, (*BUGS, anthropic.APIError)) and not _cap_assert(error) \
        and not isinstance(error, RaisedByTheCheck)


def error_text(error: BaseException) -> str:
    """An exception as the learner would read it in a traceback's last line."""
    return f"{type(error).__name__}: {error}"


def quoted_error(error: BaseException, limit: int = 240) -> str:
    """error_text as a report quotes it: a name repeated in a list said once with its count ("get_diff ×20"), then
    cut to `limit` characters."""
    said = collapsed(error_text(error))
    return said if len(said) <= limit else said[: limit - 1] + "…"


WHY = (
    (re.compile(r"'str' object has no attribute '(type|name|id|input|text)'"),
     N_("The likely cause: the first user message's content is a plain string (the task), not a list of blocks, "
        "and a loop over a string gives its characters, which have no .{attribute}. Read only the assistant "
        "messages (message[\"role\"] == \"assistant\"), or check that the content is a list first.")),
)
"""The why of a crash a learner often meets, by what the exception says (a msgid with the match's first group)."""


def why_raised(error: BaseException, lang: str) -> str:
    """Why this exception is likely, for the crashes WHY knows; '' otherwise."""
    for pattern, why in WHY:
        found = pattern.search(str(error))
        if found is not None and isinstance(error, AttributeError):
            return tr(why, lang, attribute=found.group(1))
    return ""


def because_raised(error: BaseException, lang: str) -> str:
    """The detail of a requirement a learner's exception kept from being checked."""
    return tr("because your code raised {error}.", lang, error=type(error).__name__)


def crash_note(error: BaseException, lang: str) -> str:
    """The paragraph above the findings: the exception (type, message, the learner's line), then what to do."""
    where = learner_line(error, lang)
    note = tr("Your code raised {error}", lang, error=quoted_error(error, 300))
    note += f" ({where})" if where else ""
    why = why_raised(error, lang)
    why = f"{why} " if why else ""
    return note + ". " + why + tr("Fix that first: the requirements it kept from being checked are marked below.", lang)


@functools.cache
def library_folders() -> tuple[str, ...]:
    """Where code that is not the learner's lives: the course's packages, the standard library and
    installed packages."""
    paths = sysconfig.get_paths()
    packages = (importlib.util.find_spec(name) for name in ("course_agent", "course_sandbox", "course_selfcheck"))
    folders = {*(str(Path(spec.origin).resolve().parent) + os.sep for spec in packages),
               *(paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths)}
    return tuple(sorted(folders))


def learner_line(error: BaseException, lang: str | None = None) -> str:
    """Where the learner's own code raised: "line N: the code", from the last traceback frame outside
    the course's packages, the standard library and installed packages; '' when there is none."""
    frames = traceback.extract_tb(error.__traceback__)
    outside = library_folders()
    mine = [f for f in frames if not str(Path(f.filename).resolve()).startswith(outside)]
    if not mine:
        return ""
    frame = mine[-1]
    code = (frame.line or "").strip()
    where = tr("line {number}", lang, number=frame.lineno)
    return f"{where}: {code}" if code else where


def crash_report(title: str, error: BaseException, findings: list[Finding], lang: str,
                 hints: Iterable[str] = ()) -> Report:
    """The report of a learner's code that raised: the exception first (its header names it), then the
    findings, in which what it kept from checking says so."""
    return Report(title, findings, lang, crash_note(error, lang), list(hints), raised=error)
