"""Exercise 1 (notebook 1): `counting` is the Message of a call that counts from 1 to 10 and stops
right before 5, which shows stop_sequences, stop_reason and stop_sequence at work."""

import re
from dataclasses import dataclass, replace
from typing import Any

from course_agent.client import using_sandbox
from course_agent.i18n import N_, tr
from course_sandbox import receipts

from ..report import Report
from .grading import Grade, Seen, is_placeholder, requirement
from .reading import get, kind, short, text, unwrap

TASK = N_("Ask the model to count from 1 to 10, and make it stop right before it writes 5, using the stop_sequences "
          "parameter.")


@dataclass(frozen=True)
class Counting:
    """The parts of the learner's response that the requirements read."""

    content: Any
    stop_reason: Any
    stop_sequence: Any
    asked: str | None = None
    """What the request asked, when the sandbox that answered it kept it (None: not known)."""


TO_TEN = re.compile(r"(?<!\d)10(?!\d)|\bten\b|десят|десяти", re.I)
"""The count's end as a request may say it."""
RANGE = re.compile(r"(\d+)\s*(?:to|through|until|до|по|-|–|—)\s*(\d+)", re.I)
"""A range the request names in figures ("from 1 to 10", «от 1 до 10»): it must be 1 to 10."""


CUT_HINT = N_("Raise max_tokens (200 is plenty): it is the budget of the whole answer, thinking included, and it ran "
             "out before the count reached 5, so no stop sequence could be met.")


def _no_sequence_met(seen: Counting, lang: str) -> str:
    """Requirement 1's detail when no stop sequence was met: said once, and requirements 2 and 3, broken by the same
    cause, say the same (the report shows them as "the same cause as requirement 1", without hints of their own)."""
    if seen.stop_reason == "max_tokens":
        return tr("stop_reason is 'max_tokens': the budget (max_tokens, thinking included) ran out before the count "
                  "reached 5.", lang)
    if seen.stop_reason == "end_turn" and seen.stop_sequence is None:
        return tr("stop_reason is 'end_turn': the model wrote its whole answer, and no stop sequence was met.", lang)
    return ""


@requirement("stop_reason", N_("stop_reason is 'stop_sequence'"),
             N_("Pass stop_sequences=[\"5\"] to messages.create: the model stops as soon as it would write one of "
                "them, and stop_reason is 'stop_sequence'. 'end_turn' means none was met."), task=TASK)
def _reason(seen: Counting, lang: str) -> Seen:
    if seen.stop_reason == "max_tokens":  # what to fix first: the budget, not the stop sequence (it may be right)
        return Seen(False, _no_sequence_met(seen, lang), hint=CUT_HINT)
    said = _no_sequence_met(seen, lang) or tr("stop_reason is {value}.", lang, value=short(seen.stop_reason))
    return Seen(seen.stop_reason == "stop_sequence", said)


@requirement("stop_sequence", N_("stop_sequence is '5'"),
             N_("stop_sequence names which of your stop sequences was met. To stop right before 5, the stop "
                "sequence is exactly '5'."), task=TASK)
def _sequence(seen: Counting, lang: str) -> Seen:
    said = seen.stop_sequence  # "5", and the 5 with the spaces or punctuation around it: " 5", "5,", "\n5"
    met = isinstance(said, str) and re.fullmatch(r"[\W_]*5[\W_]*", said) is not None
    if not met and _no_sequence_met(seen, lang):
        return Seen(False, _no_sequence_met(seen, lang), hint="")
    return Seen(met, tr("stop_sequence is {value}.", lang, value=short(seen.stop_sequence)))


@requirement("text", N_("The text counts from 1 to 4, and no 5"),
             N_("Ask the model to count from 1 to 10, e.g. \"Count from 1 to 10.\": the text should end just "
                "before 5, and the stop sequence itself is never part of the text."), task=TASK)
def _text(seen: Counting, lang: str) -> Seen:
    written = text(seen.content)
    numbers = [int(n) for n in re.findall(r"\d+", written)]
    counted = numbers[-4:] == [1, 2, 3, 4]  # the count the text ends with ("Counting from 1 to 10: 1, 2, 3, 4,")
    if counted and 0 in numbers:
        return Seen(False, tr("the text is {value}: the count starts at 0, and the task counts from 1.", lang,
                              value=short(written)))
    asked_range = RANGE.search(seen.asked or "")
    if counted and seen.asked is not None and (not TO_TEN.search(seen.asked) or (
            asked_range is not None and (asked_range.group(1), asked_range.group(2)) != ("1", "10"))):
        return Seen(False, tr("you asked: {asked}; the task asks the model to count from 1 to 10.", lang,
                              asked=short(seen.asked, 80)))
    ok = counted and 5 not in numbers
    if not ok and _no_sequence_met(seen, lang):
        return Seen(False, _no_sequence_met(seen, lang), hint="")
    return Seen(ok, tr("the text is {value}.", lang, value=short(written)))


REQUIREMENTS = (_reason, _sequence, _text)


def _as_returned(message: Any, seen: Counting, lang: str) -> tuple[receipts.Receipt | None, str | None]:
    """(the sandbox's record of this Message, None) when the offline sandbox returned it unchanged; (None, why not)
    when it did not. With the live API there is nothing here to compare with (and nothing to gain by building one's
    own): (None, None), and its Message is judged as it is."""
    if not using_sandbox():
        return None, None
    said = (seen.stop_reason, seen.stop_sequence, text(seen.content))
    answers = receipts.answered(get(message, "id"))
    if not answers:
        return None, tr("the sandbox of this kernel never returned a Message with the id {id}: this one was built by "
                        "hand, not returned by client.messages.create.", lang, id=short(get(message, "id")))
    same = next((a for a in answers if (a.stop_reason, a.stop_sequence, "\n".join(a.texts)) == said), None)
    if same is None:
        return None, tr("the sandbox returned the Message {id} with other content: it was changed after "
                        "client.messages.create returned it.", lang, id=short(get(message, "id")))
    return same, None


WHAT = N_("`counting` is still empty. Put the Message that client.messages.create returns into it and run this cell "
          "again.")


def check_exercise_1(counting: Any, language: str | None = None) -> Report:
    """Notebook 1: `counting` is the Message of a call that counts from 1 to 10 and stops right before 5."""
    g = Grade(1, language, REQUIREMENTS)
    if is_placeholder(counting):
        return g.not_done(WHAT)
    counting = unwrap(counting)
    if isinstance(counting, (list, tuple)) and counting and get(counting[0], "role") is None:
        seen = Counting(counting, None, None)  # the response's content instead of the response
    else:
        seen = Counting(get(counting, "content"), get(counting, "stop_reason"), get(counting, "stop_sequence"))
    if seen.content is None and seen.stop_reason is None:
        g.all_broken(REQUIREMENTS, tr("expected the Message that client.messages.create returns, got {kind}.",
                                      g.lang, kind=kind(counting)),
                     N_("Keep the whole response: counting = client.messages.create(...), not a part of it."))
        return g.report()
    if seen.stop_reason is not None and get(counting, "id") is None and get(counting, "usage") is None:
        g.all_broken(REQUIREMENTS, tr("this {kind} has no id and no usage: it was not returned by the API. Keep what "
                                      "client.messages.create returns.", g.lang, kind=kind(counting)),
                     N_("Keep the whole response: counting = client.messages.create(...), not a part of it."))
        return g.report()
    receipt, changed = (None, None) if isinstance(counting, (list, tuple)) else _as_returned(counting, seen, g.lang)
    if receipt is not None:
        seen = replace(seen, asked=receipt.asked)
    if changed:
        g.all_broken(REQUIREMENTS, changed, N_("Keep the whole response, as it is: counting = "
                                               "client.messages.create(...)."))
        return g.report()
    g.run(REQUIREMENTS, seen)
    return g.report(tr("The stop sequence '5' is not in the text: the model stopped before writing it.", g.lang))
