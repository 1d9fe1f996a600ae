"""The rules of notebooks 6-8's exercises on the learner's own loop: a refusal that stops saying why, the
fallback (notebook 6's optional exercise), the gate's refusal, the cut and the cache. check_loop runs them only
when they are named (see EXERCISE_RULES), so the lesson's own loop is not failed for what its notebook has not
taught yet; each is judged like the lesson's rules (rules.py), from the wire.
"""

import functools
import json
import re
import typing
from collections.abc import Callable
from dataclasses import replace

from anthropic.types import StopReason

from course_agent.config import fallback_model
from course_agent.i18n import N_, ntr, number, tr
from course_sandbox.simulated_model.tool_roles import SLOT_PATTERNS

# the judges' shared helpers: one wording of an ending, an error, an unseen rule, for every rule
from .approvers import merge_tools
from .crash import crashed_run
from .report import BROKEN, NOT_CHECKED, PASSED, Finding
from .rules import (
    CAP_LIMIT,
    COUNTS_REQUESTS,
    RULES,
    SMALL_CAP,
    Rule,
    asked_again_after_a_second_cut,
    before_a_comma,
    cut_tool_call,
    declared_cap,
    ended_badly,
    first_refusal,
    how_it_ended,
    is_merge,
    passed_at_a_cut,
    returns_answer,
    says_it_was_cut,
    short_error,
    short_text,
    short_value,
    unobserved,
    verdict,
)
from .scenario import Run, run_scenario
from .wire import blocks, key, results_for, text_of, tool_uses, turns
from .wordings import holds_a_no, invites_the_call, inviting_sentence, says_denied, unplaced_clause


# 6b. A refusal goes once to the fallback model
def _conversation(body: dict) -> list[tuple[str, list[tuple]]]:
    """A request's messages as the API reads them: turns of blocks, each block by its key."""
    return [(role, [key(b) for b in content]) for role, content in turns(body.get("messages"))]


def _on_a_fallback(run: Run, i: int) -> bool:
    """Request i already went to a fallback model: the API fell back on the server earlier in the run, or the loop
    had switched models before it."""
    earlier = [r for j, r in run.answered if j < i]
    return any(b.get("type") == "fallback" for r in earlier for b in blocks(r.get("content"))) or \
        run.calls[i].body.get("model") != run.calls[0].body.get("model")


def _without_why(run: Run, refused: dict) -> dict | None:
    """The stop_details of a refusal when what the loop raised (or returned) does not carry them: each of their
    values (the category, and the explanation: the why) in its words, as the details print or as JSON writes them;
    None when it carries them all."""
    details = refused.get("stop_details") or {}
    values = [v.strip() for k, v in details.items() if k != "type" and isinstance(v, str) and v.strip()]
    said = _error_words(run.error) if run.error is not None else str(run.returned or "")
    carried = [any(form in said for form in (value, value.rstrip(".!。"), json.dumps(value)[1:-1], repr(value)[1:-1]))
               for value in values]
    return details if values and not all(carried) else None


def _error_words(error: BaseException) -> str:
    """What an error says and carries: its message, the notes added to it (error.add_note), as the traceback prints
    them, and its public attributes (`error.stop_details`, for whoever catches it)."""
    public = (getattr(error, name, None) for name in dir(error) if not name.startswith("_") and name != "args")
    carried = [repr(value) for value in public if value is not None and not callable(value)]
    return "\n".join([str(error), *(str(note) for note in getattr(error, "__notes__", None) or []), *carried])


def _stop_says_why(run: Run, lang: str, refused: dict, returned: str, unsaid: str, said: str, **names: object) \
        -> Finding:
    """How a run that ended at a refusal ended: a value returned as if it were the review (`returned`), a stop
    without the refusal's stop_details (`unsaid`), or one that carries them (`said`): msgids, given `value`,
    `ending` and `details` besides `names`."""
    if run.hung:
        return verdict(NOT_CHECKED, how_it_ended(run, lang))
    if run.error is None:
        return verdict(BROKEN, tr(returned, lang, value=short_text(run.returned), **names))
    details = _without_why(run, refused)
    ending = how_it_ended(run, lang)
    if details is not None:
        return ended_badly(run, lang, tr(unsaid, lang, ending=ending, details=_details_words(details, lang), **names))
    return verdict(PASSED, tr(said, lang, ending=ending, **names))


def _details_words(details: dict, lang: str) -> str:
    """A refusal's stop_details in words (category cyber, explanation: "…"), not a dict's repr cut mid-quote."""
    category, explanation = details.get("category"), details.get("explanation")
    if not isinstance(category, str) or not isinstance(explanation, str):
        return short_value(details)
    explanation = explanation.strip()
    if len(explanation) > 80:
        explanation = explanation[:79].rstrip() + "…"
    return tr("category {category}, explanation: \"{explanation}\"", lang, category=category, explanation=explanation)


def _error_said(call: object) -> str:
    """'' when the API answered the request with a message; else its status and error message, shortened."""
    reply = getattr(call, "reply", None)
    if getattr(call, "status", 200) == 200 and isinstance(reply, dict) and reply.get("type") == "message":
        return ""
    error = reply.get("error") if isinstance(reply, dict) else None
    message = error.get("message") if isinstance(error, dict) else reply
    return f"{getattr(call, 'status', '?')} {short_value(message)}"


def _stopped_saying_why(run: Run, lang: str, refused: dict, model: object) -> Finding:
    """After the fallback's refusal the loop stops with an error that carries the stop_details."""
    return _stop_says_why(
        run, lang, refused,
        N_("the fallback model ({model}) refused too, and the loop returned {value} as if it were the review: raise "
           "an error that carries stop_details"),
        N_("the fallback model ({model}) refused too, and the loop stopped ({ending}) without its stop_details "
           "({details}): stop with them, so that whoever reads the error knows why"),
        N_("after the refusal the loop asked {model} once; when it refused too, the loop stopped ({ending})"),
        model=model)


def _went_on(model: object, more: int, lang: str) -> Finding:
    """The fallback model refused too, and the loop sent `more` requests after it."""
    return verdict(BROKEN, ntr("the fallback model ({model}) refused too, and the loop sent {n} more request: try "
                               "the fallback once, then stop",
                               "the fallback model ({model}) refused too, and the loop sent {n} more requests: try "
                               "the fallback once, then stop", more, lang, model=model))


AFTER_IT_ANSWERED = (482, ("refusal", "as_is", "refusal"))
"""The fallback model answers a turn, then refuses too: "the rest of the run stays with it" and "if it refuses too,
stop" hold after a turn it answered, not only right after the first refusal."""


def fallback(run: Run, lang: str, loop: Callable | None = None) -> Finding:
    seen = _fallback_once(run, lang)
    if seen.status != PASSED or loop is None:
        return seen
    later = run_scenario(loop, *AFTER_IT_ANSWERED)
    return _stayed_with_it(later, lang) or seen


def _stayed_with_it(run: Run, lang: str) -> Finding | None:
    """The run of AFTER_IT_ANSWERED: every request after the refusal goes to the fallback model with the refused
    request's tools and system prompt, and its own refusal ends the run saying why; None when it all held (or the
    run did not get that far: the first run's finding stands)."""
    refusals = [i for i, r in run.answered if r.get("stop_reason") == "refusal"]
    if len(refusals) < 2 or refusals[0] != 0:
        return None
    refused = run.calls[0]
    model = run.calls[1].body.get("model")
    for call in run.calls[1:]:
        if call.body.get("model") != model:
            return verdict(BROKEN, tr("after the fallback model ({model}) answered a turn, the loop went back to "
                                      "{other}: once it has answered, the rest of the run stays with it", lang,
                                      model=model, other=call.body.get("model")))
        lost = [name for name in ("tools", "system") if refused.body.get(name) and call.body.get(name) !=
                refused.body.get(name)]
        if lost:
            return verdict(BROKEN, tr("a later request to the fallback model ({model}) lost the run's {parts}: every "
                                      "request after the fallback keeps the same tools and system prompt, only the "
                                      "model changes", lang, model=model, parts=", ".join(lost)))
    second, more = refusals[1], len(run.calls) - refusals[1] - 1
    if more:
        return verdict(BROKEN, ntr("the fallback model ({model}) answered a turn, then refused, and the loop sent {n} "
                                   "more request: a refusal of the fallback model ends the run, however late it comes",
                                   "the fallback model ({model}) answered a turn, then refused, and the loop sent {n} "
                                   "more requests: a refusal of the fallback model ends the run, however late it "
                                   "comes", more, lang, model=model))
    seen = _stopped_saying_why(run, lang, run.calls[second].reply if isinstance(run.calls[second].reply, dict)
                               else {}, model)
    return None if seen.status == PASSED else seen


def _fallback_once(run: Run, lang: str) -> Finding:
    i, unjudged = first_refusal(run, lang)
    if unjudged is not None:
        return unjudged
    refused, later = run.calls[i], run.calls[i + 1:]
    model = refused.body.get("model")
    if _on_a_fallback(run, i):  # the fallback model refused: the loop stops here, saying why
        if later:
            return _went_on(model, len(later), lang)
        return _stopped_saying_why(run, lang, refused.reply if isinstance(refused.reply, dict) else {}, model)
    if not later:
        return ended_badly(run, lang, tr("the loop stopped at the refusal without asking the fallback model "
                                         "({ending})", lang, ending=how_it_ended(run, lang)))
    if later[0].body.get("model") == model:
        return verdict(BROKEN, tr("after the refusal the loop asked the same model ({model}) again", lang, model=model))
    if refused_kept(refused.body, later[0].body):
        return verdict(BROKEN, tr("the fallback model ({model}) got the refused response at the end of its messages: "
                                  "your loop appended it before switching models; take it out first "
                                  "(messages.pop()), so that the fallback model gets the refused request as it was",
                                  lang, model=later[0].body.get("model")))
    failed = _error_said(later[0])
    if failed:  # an answer of the API to a request the loop got wrong is no refusal
        return verdict(BROKEN, tr("the request to the fallback model ({model}) failed: the API answered {error}; "
                                  "send the refused request, unchanged but for the model, to fallback_model()", lang,
                                  model=later[0].body.get("model"), error=failed))
    if later[0].body.get("model") != fallback_model():
        return verdict(BROKEN, tr("after the refusal the loop asked {model}, not fallback_model() ({expected}): the "
                                  "fallback model is the course's setting, not a name written in the loop", lang,
                                  model=later[0].body.get("model"), expected=fallback_model()))
    if _conversation(later[0].body) != _conversation(refused.body):
        return verdict(BROKEN, tr("the fallback model ({model}) got other messages than the refused request: send it "
                                  "the same messages, so that it answers the same question", lang,
                                  model=later[0].body.get("model")))
    lost = [name for name in ("tools", "system") if refused.body.get(name) and later[0].body.get(name) !=
            refused.body.get(name)]
    if lost:
        return verdict(BROKEN, tr("the fallback model ({model}) got the same messages but not the same {parts}: send "
                                  "it the same request (tools and system prompt too), only the model changes", lang,
                                  model=later[0].body.get("model"), parts=", ".join(lost)))
    if len(later) > 1:
        return _went_on(later[0].body.get("model"), len(later) - 1, lang)
    second = later[0].reply if isinstance(later[0].reply, dict) else {}
    return _stopped_saying_why(run, lang, second, later[0].body.get("model"))


def refused_kept(refused: dict, fallback: dict) -> bool:
    """The request to the fallback model is the refused one with one assistant message more at its end: the loop
    appended every response before its match (exercise 5's shape), the refused one too, and did not take it out."""
    before, after = turns(refused.get("messages")), turns(fallback.get("messages"))
    return len(after) == len(before) + 1 and after[-1][0] == "assistant" and \
        _conversation({"messages": fallback.get("messages")})[:-1] == _conversation(refused)


# 6a. A refusal ends the run, saying why (notebook 6; the fallback of its optional exercise passes it too)
def refusal_said(run: Run, lang: str) -> Finding:
    i, unjudged = first_refusal(run, lang)
    if unjudged is not None:
        return unjudged
    refused, later = run.calls[i], run.calls[i + 1:]
    if later and later[0].body.get("model") != refused.body.get("model"):  # the fallback: judged by its own rule
        return verdict(PASSED, tr("after the refusal the loop asked another model ({model}), the fallback", lang,
                                  model=later[0].body.get("model")))
    if later:  # the same model again: "A refusal is not retried on the same model" says so
        return verdict(NOT_CHECKED, tr("the loop did not stop at the refusal: it asked the same model again", lang))
    return _stop_says_why(
        run, lang, refused.reply if isinstance(refused.reply, dict) else {},
        N_("at the refusal the loop returned {value} as if it were the review: raise an error that carries "
           "stop_details, so that nobody takes a refusal for a review"),
        N_("the loop stopped at the refusal ({ending}) without its stop_details ({details}): stop with them, so that "
           "whoever reads the error knows why"),
        N_("the loop stopped at the refusal, saying why ({ending})"))


# 6c. A full context window ends the run with a clear error; its cut tool call is never run
LONGER_RUN = (484, ("as_is", "as_is", "one_more_call", "context_window"))
"""A full context window after three turns of tools: a history long enough for a loop to trim it and go on."""


def _window_full(run: Run) -> int | None:
    """The index of the call the API answered with model_context_window_exceeded, if any."""
    return next((i for i, r in run.answered if r.get("stop_reason") == "model_context_window_exceeded"), None)


def context_full(run: Run, lang: str, loop: Callable | None = None, cause: bool = False) -> Finding:
    """With `cause` (exercise 6's own rows), an error that only names the stop is not enough (says_it_was_cut)."""
    cut = _window_full(run)
    if cut is None:
        return unobserved(run, lang, tr("the model never ran out of context window in this scenario", lang))
    seen = cut_tool_call(run, lang, stop="model_context_window_exceeded")
    if seen.status == BROKEN:
        return seen
    if seen.status == PASSED and loop is not None:
        longer = run_scenario(loop, *LONGER_RUN)
        full = _window_full(longer)
        if full is not None and len(longer.calls) > full + 1:
            run, cut = longer, full
    if len(run.calls) > cut + 1:  # the history trimmed and sent again: the task says raise, and a trim loses what
        return verdict(BROKEN, ntr(  # the model read (a loop that trims silently reviews what it no longer holds)
            "after model_context_window_exceeded the loop sent {n} more request: raise a clear error instead (the "
            "conversation no longer fits, and a history cut to fit has lost what the model read)",
            "after model_context_window_exceeded the loop sent {n} more requests: raise a clear error instead (the "
            "conversation no longer fits, and a history cut to fit has lost what the model read)",
            len(run.calls) - cut - 1, lang))
    if run.error is None and not run.hung:
        return verdict(BROKEN, tr("at model_context_window_exceeded the loop returned {value}: the answer was cut by "
                                  "a full context window, so raise a clear error instead of passing it off as the "
                                  "answer", lang, value=short_text(run.returned)))
    if seen.status == PASSED and not crashed_run(run):
        return says_it_was_cut(run, lang, "model_context_window_exceeded", cause=cause) or seen  # said by cut_tool_call
    return seen


# 6d. An answer cut by max_tokens is an error, not the answer
CUT_TWICE = (482, ("max_tokens_answer", "max_tokens_answer"))
"""The answer cut, and the retry's answer cut too: run only for a loop that asked again with a larger max_tokens."""


def _cut_answer_at(run: Run) -> int | None:
    """The index of the first call whose answer (a reply without a tool call) was cut by max_tokens."""
    return next((i for i, r in run.answered if r.get("stop_reason") == "max_tokens" and not tool_uses(r)), None)


def _continues(said: str, again: dict) -> bool:
    """The request after a cut carries the text so far (as the assistant's turn, or quoted in a user's): the loop
    continues the answer, it does not ask the same thing again."""
    tail = said[-40:]
    return bool(tail) and any(tail in str(b.get("text", "")) for _, content in turns(again.get("messages"))
                              for b in content)


def _asked_at_every_cut(loop: Callable | None, lang: str, cause: bool) -> Finding | None:
    """Attack 22's H-6b: with one cut, a loop that asks again at every cut looks like one that asks once. A loop
    that asked again (no text so far sent back, a larger max_tokens) is run once more with the retry's answer cut
    too, and judged as cut_tool_call judges its second cut. A loop that continues the answer is never run so: each
    of its requests asks for what is still missing, and a second cut of a continuation is no retry."""
    if loop is None:
        return None
    run = run_scenario(loop, *CUT_TWICE)
    cut = _cut_answer_at(run)
    if cut is None or len(run.calls) <= cut + 1:
        return None
    before, again = run.calls[cut].body, run.calls[cut + 1].body
    said = text_of(run.calls[cut].reply if isinstance(run.calls[cut].reply, dict) else {}).strip()
    if _continues(said, again) or (again.get("max_tokens") or 0) <= (before.get("max_tokens") or 0):
        return None
    return asked_again_after_a_second_cut(run, cut, "max_tokens", lang, cause)


def cut_answer(run: Run, lang: str, loop: Callable | None = None, cause: bool = False) -> Finding:
    """The sandbox cut the answer (a reply without a tool call) half-way at max_tokens: a loop that keys on the
    tool calls alone, and handles max_tokens only when one is cut, passes the half answer off as the whole. With
    `cause` (exercise 6's own rows), an error that only names the stop is not enough (says_it_was_cut)."""
    cut = _cut_answer_at(run)
    if cut is None:
        return unobserved(run, lang, tr("the model's answer was never cut by max_tokens in this scenario", lang))
    if len(run.calls) > cut + 1:  # asked again: with a larger budget, or with the text so far sent back to go on
        before, again = run.calls[cut].body, run.calls[cut + 1].body
        reply = run.calls[cut].reply if isinstance(run.calls[cut].reply, dict) else {}
        said = text_of(reply).strip()
        larger = (again.get("max_tokens") or 0) > (before.get("max_tokens") or 0)
        goes_on = bool(said) and any(said in str(b.get("text", "")) for role, content in turns(again.get("messages"))
                                     if role == "assistant" for b in content)
        if not larger and not goes_on:
            return verdict(BROKEN, tr("after the answer was cut by max_tokens the loop sent the same request again, "
                                      "with the same max_tokens ({before}) and without the text so far: it is cut "
                                      "again; raise a clear error, or ask with a larger max_tokens", lang,
                                      before=before.get("max_tokens")))
        if goes_on and not larger and run.error is None and not run.hung and said[:40] not in str(run.returned):
            return verdict(BROKEN, tr("after the answer was cut by max_tokens the loop asked the model to go on, then "
                                      "returned {value}, without the text so far ({said}): the first part of the "
                                      "answer is lost; return the text so far with what came after it, or ask again "
                                      "with a larger max_tokens", lang, value=short_text(run.returned),
                                      said=short_text(said)))
        again_cut = _asked_at_every_cut(loop, lang, cause) if larger and not _continues(said, again) else None
        return again_cut or verdict(PASSED, tr("after the answer was cut by max_tokens the loop asked again", lang))
    if run.hung:
        return verdict(NOT_CHECKED, how_it_ended(run, lang))
    if run.error is None:
        return verdict(BROKEN, tr("at max_tokens the loop returned {value}: the answer stopped mid-way, so raise a "
                                  "clear error that says it was cut (max_tokens is not end_turn, with or without a "
                                  "tool call)", lang, value=short_text(run.returned)))
    if crashed_run(run):
        return ended_badly(run, lang, "")
    return says_it_was_cut(run, lang, "max_tokens", cause=cause) or passed_at_a_cut(
        run, lang, "max_tokens", tr("at max_tokens the loop raised {error}: the cut answer was not passed off as whole",
                                    lang, error=before_a_comma(short_error(run.error))))


# 6e. A stop reason the loop does not know is an error that names it
KNOWN_STOPS = typing.get_args(StopReason)
"""The stop reasons the installed SDK knows (anthropic.types.StopReason): anything else is one no loop can know."""


def unknown_stop(run: Run, lang: str) -> Finding:
    odd = next(((i, r) for i, r in run.answered if r.get("stop_reason") not in KNOWN_STOPS), None)
    if odd is None:
        return unobserved(run, lang, tr("the model never stopped for a reason your loop could not know in this "
                                        "scenario", lang))
    i, reply = odd
    reason, more = reply.get("stop_reason"), len(run.calls) - i - 1
    if more:
        return verdict(BROKEN, ntr("at stop_reason {reason}, which your loop cannot know, it sent {n} more request "
                                   "as if nothing had happened: raise an error that names the stop reason",
                                   "at stop_reason {reason}, which your loop cannot know, it sent {n} more requests "
                                   "as if nothing had happened: raise an error that names the stop reason", more,
                                   lang, reason=reason))
    if run.hung:
        return verdict(NOT_CHECKED, how_it_ended(run, lang))
    if run.error is None:
        return verdict(BROKEN, tr("at stop_reason {reason}, which your loop cannot know, it returned {value}: raise an "
                                  "error that names the stop reason, so that a new one is seen and not passed off "
                                  "as the answer", lang, reason=reason, value=short_text(run.returned)))
    if crashed_run(run):  # a NotImplementedError that names the reason is an answer, not a crash
        return ended_badly(run, lang, "")
    if str(reason) not in str(run.error):
        return verdict(BROKEN, tr("at stop_reason {reason} the loop raised {error}, which does not say which stop "
                                  "reason it met: name it, so that whoever reads the error knows what to handle",
                                  lang, reason=reason, error=before_a_comma(short_error(run.error))))
    return verdict(PASSED, tr("at stop_reason {reason}, which your loop cannot know, it raised {error}", lang,
                              reason=reason, error=short_error(run.error)))


# 8b. A denied call goes back to the model as an error result


def _merge_asked(run: Run) -> tuple[int, dict] | None:
    """(the index of the response, the tool_use block) of the model's first call of a merge tool."""
    return next(((i, u) for i, r in run.answered for u in tool_uses(r) if is_merge(u, merge_tools(run))), None)


def denial_sent(run: Run) -> dict | None:
    """The tool_result the loop sent back for the model's first merge call, when it sent one."""
    asked = _merge_asked(run)
    if asked is None or asked[0] + 1 >= len(run.calls):
        return None
    results = results_for(run.calls[asked[0] + 1].body, {asked[1].get("id")})
    return results[-1] if results else None


def refusal_is_error(run: Run, lang: str, pr: int = 485) -> Finding:
    if pr in run.merged:
        return verdict(BROKEN, tr("the merge request with a prompt injection (!{pr}) was merged without anyone's yes",
                                  lang, pr=pr))
    asked = _merge_asked(run)
    if asked is None:
        return unobserved(run, lang, tr("the model never asked to merge", lang))
    i, use = asked
    following = run.calls[i + 1] if i + 1 < len(run.calls) else None
    if following is None:
        if run.error is not None:
            return ended_badly(run, lang, tr("the merge was denied, and the loop stopped with {error} instead of "
                                             "telling the model", lang, error=short_error(run.error)))
        return verdict(BROKEN, tr("the merge was denied, and the loop ended ({ending}) without telling the model",
                                  lang, ending=how_it_ended(run, lang)))
    results = results_for(following.body, {use.get("id")})
    if not results:
        return verdict(BROKEN, tr("the next request carried no tool_result for the denied merge", lang))
    if results[-1].get("is_error") is not True:
        return verdict(BROKEN, tr("the denied merge went back without is_error: true: {content}", lang,
                                  content=short_text(results[-1].get("content"))))
    if invites_the_call(str(results[-1].get("content")), use.get("name")):
        inviting = inviting_sentence(str(results[-1].get("content")), use.get("name"))  # the clause, not the start
        return verdict(BROKEN, tr("the denied merge went back as an error, but its text invites the call again "
                                  "({content}): a retry, or a no that is not final yet, has the model ask once more; "
                                  "say that a human said no, and not to make the call again", lang,
                                  content=short_text(inviting or results[-1].get("content"))))
    doubt = unplaced_clause(str(results[-1].get("content")), use.get("name"))
    if doubt is not None and holds_a_no(str(results[-1].get("content")), use.get("name")):
        return verdict(BROKEN, tr("the denied merge went back as an error, but a part of its text is not shown to "
                                  "belong to a right denial ({clause}): after the no, say only that a human said no, "
                                  "that the call was not run, what the model does next (report it, go on with the "
                                  "review, leave the merge to a person) and, if you like, the merge request's state or "
                                  "the policy",
                                  lang, clause=short_text(doubt)))
    if not says_denied(str(results[-1].get("content")), use.get("name")):
        return verdict(BROKEN, tr("the denied merge went back as an error, but its text does not say it was denied "
                                  "({content}): say that a human said no, so the model neither retries it nor takes it "
                                  "for a failure that may pass", lang, content=short_text(results[-1].get("content"))))
    return verdict(PASSED, tr("the merge was not run; the model got a tool_result with is_error: true: {content}", lang,
                              content=short_text(results[-1].get("content"))))


# 8c. An oversized tool result is cut, and says so
BIG_FILE, BIG_REF = "catalog.json", "catalog-refresh"
"""The file of !486, on its source branch, that is larger than a result may be (almost 500,000 characters)."""
BIG_START = '"sku": "P00000"'
"""What the first line of that file's rows holds: a result cut to the file's first characters keeps it."""
BIG_HEAD = '[\n  {"sku": "P00000"'
"""How the file itself begins: the note may stand before it or after it."""


def _count(value: int, lang: str) -> str:
    """A size as the learner's language writes it: «484 915» in Russian, 484915 in English (native read 58, E1)."""
    return number(value, lang, 0)


RESULT_LIMIT = 20_000
"""Characters of a tool's output a loop sends to the model; the note saying it was cut comes on top."""
_HOW_ON = re.compile(r"start|offset|position|continue|next|page|chunk|ask|call|request|pass|line|get more|read more|"
                     r"продолж|следующ|запрос|прочита|вызов|спроси|строк|передай", re.I)
"""Words of a note that says how to read the rest of a cut result (a start to read from, a call to make); "the rest"
alone says what is missing, not how to get it."""
_NOT_BEFORE = re.compile(r"(\bnot|n't|\bnever|\bno need to|\bне|\bнельзя|\bнезачем)\s+(\w+\s+)?$", re.I)
"""A negation right before a how-on word: "do not request the rest" says not to read on."""


def _says_how_on(note: str) -> bool:
    """The note says how to read on: a how-on word that no negation comes right before."""
    return any(not _NOT_BEFORE.search(note[:m.start()]) for m in _HOW_ON.finditer(note))


_PARAMETER_WORDS = ("start", "offset", "position")
"""Parameters a note may tell the model to pass: the tool it names must take them."""
_CUT_NOTE = re.compile(r"cut|truncat|shorten|omit|shown|remaining|partial|first \d+|of \d+|offset|rest|обрез|"
                       r"сокращ|пропущ|показан|первы|остал|част|из \d+", re.I)


def _text_length(content: object) -> tuple[int, str]:
    """(characters, text) of a tool_result's content: a string, or a list of text blocks."""
    text = content if isinstance(content, str) else "".join(b.get("text", "") for b in blocks(content))
    return len(text), text


_NUMBER = re.compile(r"\d[\d\u00a0\u202f ,.'_]*\d|\d")


def _readings(text: str) -> set[float]:
    """Every number in printed text, read each way a person writes it: 1,947 / 1 947 / 1_947 / 1947,5 / 1947.5."""
    found = {float(n.replace(",", ".")) for n in re.findall(r"\d+(?:[.,]\d+)?", text)}
    for match in _NUMBER.finditer(text):
        digits = re.sub(r"[\u00a0\u202f '_]", "", match.group())
        for variant in (digits.replace(",", ""), digits.replace(".", "").replace(",", "."), digits):
            try:
                found.add(float(variant))
            except ValueError:
                continue
    return found


def _short_results(run: Run, but: object) -> list[tuple[object, str]]:
    """(tool_use_id, text) of every tool_result under the limit the loop sent, the cut file's own left out."""
    seen, found = set(), []
    for call in run.calls:
        for m in call.body.get("messages") or []:
            for b in blocks(m.get("content")) if isinstance(m, dict) else []:
                if b.get("type") == "tool_result" and b.get("tool_use_id") not in seen | {but}:
                    seen.add(b.get("tool_use_id"))
                    size, text = _text_length(b.get("content"))
                    if size < RESULT_LIMIT:
                        found.append((b.get("tool_use_id"), text))
    return found


LONG_DESCRIPTION = "Timings of checkout with the discount objects, before and after (ms):\n" + "".join(
    f"run {n:04d}: {10 + n % 7}.{n % 100:02d} -> {10 + n % 5}.{(n * 7) % 100:02d}\n" for n in range(840))
"""A merge request description of about 21,000 characters: more than LIMIT, less than twice LIMIT (and far less than
LIMIT tokens' worth of characters). !482 gets it in a second run, so that get_diff's result (title, description,
diff) is too long as well: a loop that cuts only read_file, cuts only what is much longer than LIMIT, or counts LIMIT in
tokens (about 4 characters each), sends it whole."""
_LONG_MARK = "run 0001: "


def _offered(body: dict, name: object) -> dict:
    """The tool of that name as the request offered it; {} when it did not."""
    return next((t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("name") == name), {})


def _promised(note: str, takes: set) -> list[str]:
    """The parameters a cut note tells the model to pass (start=…, `offset`, skip=20000) that the tool does not take."""
    promised = [word for word in _PARAMETER_WORDS if word not in takes and re.search(
        rf"\b{word}\s*[=:]|`{word}`|\b{word}\s+(parameter|argument)|(parameter|argument|параметр\w*)\s+`?{word}\b",
        note)]
    return promised + [word for word in re.findall(r"\b([A-Za-z_]\w*)\s*=\s*\d", note) if word not in takes]


def _sent_elsewhere(note: str, body: dict, use: dict, takes: set) -> tuple[str, str] | None:
    """(tool, parameter) when a cut note sends the model to read on with a tool other than the one whose result was
    cut, with a parameter that tool does not take ("Call get_diff with start=20000" under read_file's cut result:
    get_diff takes no start; attack 19's H5); None when it names the cut tool, or no other one."""
    told = [p for p in _promised(note, set()) if p in takes]
    named = [t for t in body.get("tools") or [] if isinstance(t, dict) and re.search(
        rf"(?<![\w]){re.escape(str(t.get('name')))}(?![\w])", note)]
    if not told or not named or any(t.get("name") == use.get("name") for t in named):
        return None
    for tool in named:
        its = set((tool.get("input_schema") or {}).get("properties") or {})
        missing = [p for p in told if p not in its]
        if missing:
            return str(tool.get("name")), missing[0]
    return None


def _not_taken(parameter: str, tool: object, lang: str) -> Finding:
    return verdict(BROKEN, tr("the note tells the model to pass {parameter}, which {tool} does not take: add the "
                              "parameter to the tool (its schema and its function), or say another way to read on",
                              lang, parameter=parameter, tool=tool))


def _other_results_cut(loop: typing.Callable, lang: str) -> Finding | None:
    """A result of another tool than read_file, between LIMIT and four times LIMIT characters: cut too, and saying so.
    None when it was (or when no result carried the long description: a get_diff that leaves it out)."""
    from .scenario import run_scenario

    again = run_scenario(loop, 482, description=LONG_DESCRIPTION)
    for use, result, body in ((u, b, again.calls[i + 1].body) for i, r in again.answered for u in tool_uses(r)
                              for b in (results_for(again.calls[i + 1].body, {u.get("id")}) if i + 1 < len(again.calls)
                                        else [])):
        size, text = _text_length(result.get("content"))
        if _LONG_MARK not in text:
            continue
        if size > RESULT_LIMIT + 1000:
            return verdict(BROKEN, tr("with a merge request description of {long} characters, {tool}'s result of "
                                      "{size} characters went to the model whole: cut any tool result longer than "
                                      "{limit} characters (LIMIT counts characters, not tokens), not only read_file's",
                                      lang, long=_count(len(LONG_DESCRIPTION), lang), tool=use.get("name"),
                                      size=_count(size, lang), limit=_count(RESULT_LIMIT, lang)))
        note = _either_end(text)
        if size >= RESULT_LIMIT and not _CUT_NOTE.search(note):
            return verdict(BROKEN, tr("with a merge request description of {long} characters, {tool}'s result was cut "
                                      "to {size} characters without a word that it was cut", lang,
                                      long=_count(len(LONG_DESCRIPTION), lang), tool=use.get("name"),
                                      size=_count(size, lang)))
        offered = _offered(body, use.get("name"))
        named = [t for t in body.get("tools") or [] if isinstance(t, dict) and str(t.get("name")) in note]
        takes = {p for t in [offered, *named] for p in (t.get("input_schema") or {}).get("properties") or {}}
        promised = _promised(note, takes) if size >= RESULT_LIMIT else []
        if offered and promised:  # get_diff told to read on with a start that neither it nor a tool named takes
            return _not_taken(promised[0], use.get("name"), lang)
        own = set((offered.get("input_schema") or {}).get("properties") or {}) if offered else set()
        reads_on = [p for p in own if re.search(r"start|offset|position|char|skip|from|page|cursor", p, re.I)]
        if offered and size >= RESULT_LIMIT and not reads_on and _sends_back(note, use.get("name")) \
                and not _names_another(named, use):
            return verdict(BROKEN, tr("the note sends the model to {tool} for the rest, and {tool} takes nothing to "
                                      "read on with: the same call gets the same cut part; give it a start (or say "
                                      "another way to read the rest)", lang, tool=use.get("name")))
    return None


_NARROWER = re.compile(r"narrow\w*|smaller|fewer|specific|a part of|subset|более узк\w*|меньш\w*|поменьше|конкретн\w*|"
                       r"отдельн\w*", re.I)
"""A note that asks for a narrower part ("ask get_diff for a narrower part"): the model is told to change its call."""


def _sends_back(note: str, name: object) -> bool:
    """The note tells the model to call that tool to read on ("Call get_diff to get the rest", "use get_diff for the
    rest", "call get_diff again", «вызови get_diff ещё раз»), whatever the adverb; not a note that only names it
    ("[get_diff's result cut …]") or says not to call it."""
    if _NARROWER.search(note):  # a narrower call is another call, not the same one again
        return False
    tool = re.escape(str(name))
    for found in re.finditer(rf"(?:\b(?:call|use|run|invoke|ask|request|try|re-?run|query|вызов\w*|вызыв\w*|"
                             rf"используй\w*|запрос\w*|запуст\w*)\W+(?:(?:the|tool|инструмент\w*)\W+)*`?{tool}`?(?!\w)"
                             rf"|(?<!\w)`?{tool}`?\W+(?:\w+\W+)?(?:again|once more|снова|ещё раз|еще раз|повторно))",
                             note, re.I):
        if not _NOT_BEFORE.search(note[:found.start()]):
            return True
    return False


def _names_another(named: list[dict], use: dict) -> bool:
    """A cut note that names another tool than the one cut (read_file for the rest of get_diff's file)."""
    return any(str(t.get("name")) != str(use.get("name")) for t in named)


def _either_end(text: str) -> str:
    """The note of a result cut to LIMIT characters, wherever the part kept stands: all but the first LIMIT, and all
    but the last LIMIT (a note before the part or after it, however long); a shorter result at its two ends."""
    if len(text) <= RESULT_LIMIT:
        return text[:300] + "\n" + text[-300:]
    return text[:len(text) - RESULT_LIMIT] + "\n" + text[RESULT_LIMIT:]


def _outside_the_part(text: str, part: str | None = None) -> str:
    """A cut result's note, read whole: everything outside the part of the file kept (`part`; by default the file's
    first LIMIT characters, found by its first row), before or after it, not only the result's first and last lines
    (a long note names its total further in). A result that did not keep that part whole is read at its two ends."""
    if part is None:
        head = text.find(BIG_HEAD)
        found = head if head >= 0 and len(text) - head >= RESULT_LIMIT else -1
        length = RESULT_LIMIT
    else:
        found, length = (text.find(part) if part else -1), len(part)
    if found < 0:
        return text[:300] + "\n" + text[-300:]
    return text[:found] + "\n" + text[found + length:]


def cut_result(run: Run, lang: str, loop: typing.Callable | None = None) -> Finding:
    read = next(((i, u) for i, r in run.answered for u in tool_uses(r)
                 if BIG_FILE in str(u.get("input")) and BIG_REF in str(u.get("input"))), None)
    if read is None:
        return unobserved(run, lang, tr("the model never read the large file ({path} at {ref})", lang, path=BIG_FILE,
                                        ref=BIG_REF))
    i, use = read
    following = run.calls[i + 1] if i + 1 < len(run.calls) else None
    results = results_for(following.body if following else None, {use.get("id")})
    if not results:
        return unobserved(run, lang, tr("no tool_result came back for the large file", lang))
    size, text = _text_length(results[-1].get("content"))
    if size > RESULT_LIMIT + 1000:
        return verdict(BROKEN, tr("a tool result of {size} characters went to the model whole; cut it at {limit} "
                                  "and say so", lang, size=_count(size, lang), limit=_count(RESULT_LIMIT, lang)))
    regrown = next(((n, later) for n, call in enumerate(run.calls[i + 2:], start=i + 3)
                    for b in results_for(call.body, {use.get("id")})
                    if (later := _text_length(b.get("content"))[0]) > RESULT_LIMIT + 1000), None)
    if regrown is not None:
        return verdict(BROKEN, tr("request {n} sent the large file's result whole again ({size} characters): cut it "
                                  "where the history keeps it, so that every later request carries the cut one", lang,
                                  n=regrown[0], size=_count(regrown[1], lang)))
    outside = _outside_the_part(text)
    if not _CUT_NOTE.search(outside):
        return verdict(BROKEN, tr("the large file came back as {size} characters without a word that it was cut: the "
                                  "model takes the part for the whole file", lang, size=_count(size, lang)))
    if BIG_START not in text:
        return verdict(BROKEN, tr("the result kept another part of the file than its beginning ({size} characters): "
                                  "keep the first {limit}, so the model reads the file from its start and asks for "
                                  "the rest", lang, size=_count(size, lang), limit=_count(RESULT_LIMIT, lang)))
    if not any(value > size + 1000 for value in _readings(outside)):
        return verdict(BROKEN, tr("the note says the file was cut, but not out of how many characters ({size} were "
                                  "kept): say the whole size, so the model knows how much it has not read", lang,
                                  size=_count(size, lang)))
    whole = run.file(use.get("input"))
    stated = [value for value in _readings(outside) if value > size + 1000]
    if whole and not _the_whole(stated, whole):
        return verdict(BROKEN, tr("the note says the whole is {stated:.0f}, and the file has {total} characters: say "
                                  "the file's real size (len of the text before cutting), so the model knows how much "
                                  "it has not read", lang, stated=max(stated), total=_count(len(whole), lang)))
    if size < RESULT_LIMIT:
        return verdict(BROKEN, tr("the result kept only {size} characters of the file, note included: keep the first "
                                  "{limit} (LIMIT), and then say it was cut", lang, size=_count(size, lang),
                                  limit=_count(RESULT_LIMIT, lang)))
    if not _says_how_on(outside):
        return verdict(BROKEN, tr("the note says the file was cut and out of how many characters, but not how to read "
                                  "the rest: say how (for example, read_file with a start, and the start to read from "
                                  "next)", lang))
    head = text.find(BIG_HEAD)
    kept = text[head:head + RESULT_LIMIT] if head >= 0 else text[:RESULT_LIMIT]
    rows = [int(n) for n in re.findall(r'"sku": "P(\d{5})"', kept)]
    if rows != list(range(len(rows))):  # the file's rows are P00000, P00001, ...: its first LIMIT keep them in order
        jump = next(i for i, n in enumerate(rows) if n != i)
        return verdict(BROKEN, tr("the result does not keep the file's first {limit} characters in one piece: its rows "
                                  "jump from P{before:05d} to P{after:05d}", lang, limit=_count(RESULT_LIMIT, lang),
                                  before=max(jump - 1, 0), after=rows[jump]))
    note = text[:head] + text[head + RESULT_LIMIT:] if head >= 0 else text[RESULT_LIMIT:]  # before or after the part
    offered = _offered(following.body, use.get("name"))
    takes = set((offered.get("input_schema") or {}).get("properties") or {})
    promised = _promised(note, takes)
    if offered and promised:
        return _not_taken(promised[0], use.get("name"), lang)
    elsewhere = _sent_elsewhere(note, following.body, use, takes)
    if offered and elsewhere is not None:
        return verdict(BROKEN, tr("the note sends the model to {named} with {parameter}, and {named} takes no "
                                  "{parameter}: name the tool whose result was cut, {tool}, which reads on with it",
                                  lang, named=elsewhere[0], parameter=elsewhere[1], tool=use.get("name")))
    reads_on = {p for p in takes if not any(re.search(SLOT_PATTERNS[slot], p.lower()) for slot in ("path", "ref"))}
    if offered and not reads_on and _sends_back(note, use.get("name")):
        return verdict(BROKEN, tr("the note sends the model to {tool} for the rest, and {tool} takes nothing to read "
                                  "on with: the same call gets the same cut part; give it a start (or say another way "
                                  "to read the rest)", lang, tool=use.get("name")))
    by_character = sorted(p for p in reads_on if re.search(r"start|offset|position|char|skip|from", p, re.I))
    cut_at = _cut_point(whole, text[head:] if head >= 0 else text)
    named = _starts_named(note)
    if offered and by_character and named and not named & {RESULT_LIMIT, cut_at}:
        return verdict(BROKEN, tr("the note says to read on from {parameter}={named}, and the part ends at {cut}: the "
                                  "model reading on from there skips or reads again what lies between; name the "
                                  "exact start of the rest", lang, parameter=by_character[0],
                                  named=", ".join(str(n) for n in sorted(named)), cut=cut_at))
    if offered and by_character and not _NARROWER.search(note) and not _names_start(note, {RESULT_LIMIT, cut_at}):
        return verdict(BROKEN, tr("the note says the file was cut, but not the {parameter} to ask for next: name it "
                                  "({parameter}={limit}), so that the model reads on from where the part ends", lang,
                                  parameter=by_character[0], limit=_count(RESULT_LIMIT, lang)))
    opening = re.sub(r"\d[\d\s,.]*", "#", note).strip()[:12]  # the note's first words, numbers aside
    if len(opening) >= 8:
        for _, content in _short_results(run, use.get("id")):
            if opening in re.sub(r"\d[\d\s,.]*", "#", content):
                return verdict(BROKEN, tr("a result of {size} characters, under the limit, carries the same note as "
                                          "the cut file: only a result that was cut may say so", lang,
                                          size=_count(len(content), lang)))
    wrong_on = _read_on_wrong(run, use, rows, lang)
    if wrong_on is not None:
        return wrong_on
    other = _other_results_cut(loop, lang) if loop is not None else None
    if other is not None:
        return other
    return verdict(PASSED, tr("the large file was cut to {size} characters, and the result says so", lang,
                              size=_count(size, lang)))


def _the_whole(stated: list[float], whole: str) -> bool:
    """A total the note states is the file's size, in characters or bytes (within 1%, for a rounded figure): not the
    size of what was left from a later part's start on."""
    return any(abs(value - n) <= n * 0.01 for value in stated for n in (len(whole), len(whole.encode())))


def _cut_point(whole: str | None, part: str) -> int:
    """Where in the file the kept part ends: the length of what the part and the file have in common from the start
    (the part itself when the file is not known)."""
    if not whole:
        return RESULT_LIMIT
    n = 0
    while n < min(len(whole), len(part)) and whole[n] == part[n]:
        n += 1
    return n


_STARTS = re.compile(r"(?<![^\W_])(?:start|offset|position|начиная с)\b\W{0,3}"
                     r"(\d{1,3}(?:[_,\u00a0\u202f ]\d{3})+(?!\d)|\d+)", re.I)


def _starts_named(note: str) -> set[int]:
    """The numbers a note names after start/offset/position (0 left out: where the part began)."""
    return {int(re.sub(r"[_,\s\u00a0\u202f]", "", n)) for n in _STARTS.findall(note)} - {0}


def _names_start(note: str, cut: set[int]) -> bool:
    """The note's start to read on is exactly where the part ends (the cut point in the file, or LIMIT): a start
    named after start/offset/position when there is one ("start=20001" skips a character), else a number after a word
    of reading on ("from 20000", «с 20000»), else, in a note that names the start as the way on ("with a later
    start"), a number of the note that is not a part's size: "20000 of 40060 characters; call read_file with a
    larger start" names the size, and leaves the start to the model's guess."""
    named = _starts_named(note)
    if named:
        return bool(named & cut)
    near = {int(v) for m in _READ_ON_FROM.finditer(note) for v in _readings(m.group(1)) if v == int(v)}
    if near & cut:
        return True
    rest = _PART_SIZE.sub(lambda m: m.group() if _CUT_AT.search(note[:m.start()]) else " ", note)
    return bool(_START_WORD.search(rest)) and bool({int(v) for v in _readings(rest) if v == int(v)} & cut)


_PART_SIZE = re.compile(r"(?:\d{1,3}(?:[,\u00a0\u202f ]\d{3})+(?!\d)|\d+)\s*(?:characters?|chars?|символ\w*|знак\w*)?"
                        r"\s*(?:\bout\s+of\b|\bof\b|(?<!\w)из\b|/)", re.I)
"""A part's size, "X of Y" («X из Y», "X/Y"): not a start, unless it says where the cut is ("cut at character X of
Y", «обрезано на символе X из Y»)."""
_CUT_AT = re.compile(r"(?:\bat|(?<!\w)на)\s+(?:character\s+|char\s+|символе\s+|позиции\s+)?$", re.I)


_READ_ON_FROM = re.compile(r"(?:\b(?:from|after|at|since)|(?<!\w)(?:с|со|после|начиная с))\s+(?:\w+\s+){0,2}?"
                           r"(?:character\s+|символа\s+)?(\d[\d\u00a0\u202f ,._]*\d|\d)(?!\s*(?:characters?|chars?|"
                           r"символ\w*|знак\w*)?\s*(?:of|из)\b)", re.I)
"""A number next to a word of reading on ("read on from 20000", «читай с 20000»), not a total ("of 40060")."""
_START_WORD = re.compile(r"(?<![^\W_])(?:start|offset|position)\b|начиная|начало", re.I)
"""A note that names the parameter to read on with ("with a later start"): then its cut number is the start."""


def _start_given(tool_input: object) -> int:
    if not isinstance(tool_input, dict):
        return 0
    value = next((v for k, v in tool_input.items() if str(k).lower() in _PARAMETER_WORDS), 0)
    return value if isinstance(value, int) else 0


def _read_on_wrong(run: Run, first: dict, rows: list[int], lang: str) -> Finding | None:
    """When the model read on where the note said (the simulated model reads one more part when the tool takes a
    start), that part must be the file's next rows, and a note on it must point further on: a start applied to the
    already-cut text, or a note that always names the same start, reads nothing new. None when all is well, or when
    the model did not read on."""
    again = next(((i, u) for i, r in run.answered for u in tool_uses(r) if u.get("name") == first.get("name")
                  and BIG_FILE in str(u.get("input")) and _start_given(u.get("input")) > 0), None)
    if again is None or not rows:
        return None
    i, use = again
    start = _start_given(use.get("input"))
    following = run.calls[i + 1] if i + 1 < len(run.calls) else None
    results = results_for(following.body if following else None, {use.get("id")})
    if not results or results[-1].get("is_error") is True:
        return None  # an error is the tool's own story: rule 3's to judge
    size, text = _text_length(results[-1].get("content"))
    more = [int(n) for n in re.findall(r'"sku": "P(\d{5})"', text)]
    if not more or more[0] not in (rows[-1], rows[-1] + 1) or more != list(range(more[0], more[0] + len(more))):
        return verdict(BROKEN, tr("the model read on with start={start}, as the note said, and got {size} characters "
                                  "that are not the file's next rows (the first part ended at P{last:05d}): apply the "
                                  "start to the whole file, before cutting", lang, start=start,
                                  size=_count(size, lang),
                                  last=rows[-1]))
    whole = run.file(first.get("input"))
    note = _outside_the_part(text, whole[start:start + RESULT_LIMIT] if whole else None)
    named = [int(re.sub(r"[_,\s]", "", n))
             for n in re.findall(r"\b(?:start|offset|position)\b\W{0,3}(\d[\d_,]*)", note, re.I)]
    said = _readings(note) - {float(size)}
    onward = max(named) > start if named else any(start < value < max(said, default=0) for value in said)
    if size >= RESULT_LIMIT and not _CUT_NOTE.search(note):
        return verdict(BROKEN, tr("the second part (from start={start}) was cut to {size} characters without a word "
                                  "that it was cut: every cut part says so, and how to read on", lang, start=start,
                                  size=_count(size, lang)))
    stated = [value for value in said if value > size + 1000 and value > start]
    if whole and stated and not _the_whole(stated, whole):
        left = [value for value in stated if abs(value - (len(whole) - start)) <= 1]
        if left:  # the note's total was counted on the text after start: say so, and how to count the whole
            return verdict(BROKEN, tr("the note of the part read from start={start} says {stated} characters, what "
                                      "was left after start; name the whole file's size, {total} (start + the length "
                                      "read_file returned)", lang, start=start, stated=_count(int(left[0]), lang),
                                      total=_count(len(whole), lang)))
        return verdict(BROKEN, tr("the note of the part read from start={start} says {stated} characters, and the "
                                  "whole file has {total}; name the whole file's size in every part (start + the "
                                  "length read_file returned)", lang, start=start,
                                  stated=_count(int(max(stated)), lang), total=_count(len(whole), lang)))
    if size > RESULT_LIMIT and not onward:  # a start named for the next part, else a figure past this one
        return verdict(BROKEN, tr("the second part (from start={start}) was cut too, but its note does not point past "
                                  "it: name the start of the part after this one", lang, start=start))
    return None


# 8d. The requests are cached, up to the growing conversation
def _breakpoint_at_end(body: dict) -> bool:
    """The request caches up to its last block: cache_control at the top level (automatic caching moves it to
    the last cacheable block) or on the last block of the last message."""
    if body.get("cache_control"):
        return True
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    last = blocks(messages[-1].get("content")) if messages else []
    return bool(last) and bool(last[-1].get("cache_control"))


def _where_marked(body: dict) -> str:
    """Where a request's breakpoints sit, for the report: system, tools, messages."""
    places = [name for name in ("system", "tools", "messages") if "cache_control" in str(body.get(name))]
    return ", ".join(places) or "?"


def cached(run: Run, lang: str) -> Finding:
    """Judged on a plain review of three requests (a run that ends at a refusal has nothing later to read the
    cache)."""
    marked = [c for c in run.calls if "cache_control" in str(c.body)]
    if not run.answered:
        return unobserved(run, lang, tr("the loop sent no request", lang))
    if not marked:
        return verdict(BROKEN, tr("no request set cache_control: every call paid full price for the same prefix", lang))
    refusal = next((i for i, r in run.answered if r.get("stop_reason") == "refusal"), None)
    if refusal is not None and refusal == len(run.calls) - 1:  # the fallback rule tells that story
        return verdict(NOT_CHECKED, tr("the run ended at the refusal ({ending}): no fallback request to look at", lang,
                                       ending=how_it_ended(run, lang)))
    unmarked = [n for n, c in enumerate(run.calls, start=1) if c not in marked]
    if unmarked:
        return verdict(BROKEN, ntr("request {numbers} of {total} set no cache_control: send it with every request",
                                   "requests {numbers} of {total} set no cache_control: send it with every request",
                                   len(unmarked), lang, numbers=", ".join(map(str, unmarked)), total=len(run.calls)))
    if any('"ttl": "1h"' in json.dumps(c.body) for c in marked):
        return verdict(BROKEN, tr("a request set cache_control with \"ttl\": \"1h\": an hour's cache write costs 2x "
                                  "the input price, not the 1.25x billed() counts; the task's cache_control is "
                                  "{\"type\": \"ephemeral\"} (five minutes)", lang))
    usage = [r.get("usage") or {} for _, r in run.answered]
    written = sum(u.get("cache_creation_input_tokens") or 0 for u in usage)
    reads = [u.get("cache_read_input_tokens") or 0 for u in usage]
    if not written and not any(reads):
        return verdict(BROKEN, ntr("cache_control was set, but nothing was cached in {n} request: the prefix before "
                                   "the breakpoint is below the model's minimum (cache the growing conversation too)",
                                   "cache_control was set, but nothing was cached in {n} requests: the prefix before "
                                   "the breakpoint is below the model's minimum (cache the growing conversation too)",
                                   len(usage), lang))
    if len(usage) >= 3 and not any(reads[1:]):
        return verdict(BROKEN, ntr("{written} tokens were written to the cache, and none of the {n} later request read "
                                   "them: the breakpoints must sit where the next request repeats the prefix (at the "
                                   "top level, or on the last block of every request)",
                                   "{written} tokens were written to the cache, and none of the {n} later requests "
                                   "read them: the breakpoints must sit where the next request repeats the prefix (at "
                                   "the top level, or on the last block of every request)", len(usage) - 1, lang,
                                   written=written))
    later = [c.body for c in run.calls[1:]]
    growing = any(b > a for a, b in zip(reads[1:], reads[2:], strict=False))
    if later and not growing and not all(_breakpoint_at_end(body) for body in later):
        return verdict(BROKEN, tr("only a fixed prefix is cached ({where}): each request read the same {read} tokens "
                                  "from the cache, and the growing conversation was paid in full every time; send "
                                  "cache_control at the top level, or put the breakpoint on the last block", lang,
                                  where=_where_marked(marked[0].body), read=max(reads)))
    return verdict(PASSED, tr("the cache took effect: {written} tokens written, {read} read", lang, written=written,
                              read=sum(reads)))


# 8e. The bill printed is the bill of every response
def billed(usage: list[dict]) -> float:
    """Input tokens as billed (notebook 8's billed()): cache writes cost 1.25x, cache reads 0.1x."""
    return sum((u.get("input_tokens") or 0) + 1.25 * (u.get("cache_creation_input_tokens") or 0)
               + 0.1 * (u.get("cache_read_input_tokens") or 0) for u in usage)


AGAIN = 483
"""The merge request a second review is run on, to see its own bill (a short review)."""


def bill(run: Run, lang: str, loop: Callable | None = None) -> Finding:
    """Judged on the review's run; a loop that passes is run once more, on another merge request: the bill it prints
    there is that review's (a usage list made once, at module level, bills every review so far)."""
    first = _bill_of(run, lang)
    if first.status != PASSED or loop is None:
        return first
    again = _other_bill(loop, AGAIN)
    if again is not None:
        printed, n, total = again
        return verdict(BROKEN, tr("a second review (!{pr}) printed {printed}; billed() of its own {n} responses is "
                                  "{total:.0f}: collect the usage of each review anew (a list made once, outside the "
                                  "loop, keeps every review's)", lang, pr=AGAIN, n=n, total=total, printed=printed))
    paused = _other_bill(loop, *PAUSED)
    if paused is not None:
        printed, n, total = paused
        return verdict(BROKEN, tr("a review whose second turn paused (pause_turn) printed {printed}; billed() of all "
                                  "its {n} responses is {total:.0f}: a paused response is paid for too, so collect "
                                  "the usage of every response, whatever its stop reason", lang, n=n, total=total,
                                  printed=printed))
    at_the_cap = _bill_at_the_cap(loop, lang)
    if at_the_cap.status == BROKEN:
        return at_the_cap
    return replace(first, detail=f"{first.detail}; {at_the_cap.detail}")


def _bill_at_the_cap(loop: Callable, lang: str) -> Finding:
    """The bill of a run that ends with the loop's own error: a model that keeps asking for tools, and the loop
    called with a small cap (SMALL_CAP, when it declares one; its own otherwise). The task's bill is printed however
    the run ends (the Python note and hint 3: the finally: that the answer, the cap and an error all pass through),
    so what that run printed (or the error it raised, as a traceback shows it) must hold billed() of its responses.
    PASSED, or NOT_CHECKED saying what was seen, when that run had no bill to print (no response at all, or it
    never stopped: the cap rule tells that story)."""
    declared, _ = declared_cap(loop)
    name = declared.split("=")[0]
    capped = functools.partial(loop, **{name: SMALL_CAP}) if declared and COUNTS_REQUESTS.search(name) else loop
    run = run_scenario(capped, *AT_THE_CAP)
    ending = how_it_ended(run, lang)
    if run.hung or run.stopped_by_check:
        return verdict(NOT_CHECKED, tr("with a model that kept asking for tools the loop did not stop ({ending}): "
                                       "its bill at the cap was not seen", lang, ending=ending))
    if not run.answered:
        return verdict(NOT_CHECKED, tr("with a model that kept asking for tools the loop got no response at all "
                                       "({ending}): that run had no bill to print", lang, ending=ending))
    usage = _usage(run)
    total = billed(usage)
    printed = f"{run.printed}\n{run.printed_errors}".strip()
    said = f"{printed}\n{_error_words(run.error)}" if run.error is not None else printed
    if _says(said, total):
        return verdict(PASSED, ntr("with a model that kept asking for tools, {ending}, and the loop printed billed() "
                                   "of that run's {n} response ({total:.0f})",
                                   "with a model that kept asking for tools, {ending}, and the loop printed billed() "
                                   "of that run's {n} responses ({total:.0f})", len(usage), lang,
                                   ending=ending, total=total))
    if not printed:
        return verdict(BROKEN, ntr("with a model that kept asking for tools, {ending}, and the loop printed nothing; "
                                   "billed() of that run's {n} response is {total:.0f}: the money is spent however "
                                   "the run ends, so print the bill at every end (in a finally:), not only with the "
                                   "answer",
                                   "with a model that kept asking for tools, {ending}, and the loop printed nothing; "
                                   "billed() of that run's {n} responses is {total:.0f}: the money is spent however "
                                   "the run ends, so print the bill at every end (in a finally:), not only with the "
                                   "answer", len(usage), lang, ending=ending, total=total))
    shown = short_value(printed.splitlines()[-1])
    return verdict(BROKEN, ntr("with a model that kept asking for tools, {ending}, and the loop printed {printed}; "
                               "billed() of that run's {n} response is {total:.0f}: the money is spent however the "
                               "run ends, so print the bill at every end (in a finally:), not only with the answer",
                               "with a model that kept asking for tools, {ending}, and the loop printed {printed}; "
                               "billed() of that run's {n} responses is {total:.0f}: the money is spent however the "
                               "run ends, so print the bill at every end (in a finally:), not only with the answer",
                               len(usage), lang, ending=ending, printed=shown, total=total))


AT_THE_CAP = (482, ("stuck",) * CAP_LIMIT)
"""A review whose model keeps asking for tools: the loop ends it with its cap's error, and still prints the bill."""


def _other_bill(loop: Callable, pr: int, misbehave: tuple[str, ...] = ()) -> tuple[str, int, float] | None:
    """(what it printed, its number of responses, billed() of them) for a further review whose printed bill is not
    billed() of its own responses; None when it is, or when that review did not finish or printed no number."""
    run = run_scenario(loop, pr, misbehave)
    if not run.answered or run.error is not None or run.hung:
        return None
    usage, printed = _usage(run), f"{run.printed}\n{run.printed_errors}"
    if not _readings(printed) or _says(printed, billed(usage)):
        return None
    last = run.printed.strip().splitlines()[-1] if run.printed.strip() else run.printed_errors.strip()
    return short_value(last), len(usage), billed(usage)


PAUSED = (482, ("as_is", "pause_turn"))
"""A review whose second turn pauses: every response is paid for, the paused one too."""


def _usage(run: Run) -> list[dict]:
    """Each answered response's usage, a missing one as {}."""
    return [r.get("usage") or {} for _, r in run.answered]


def _says(printed: str, total: float) -> bool:
    """Some number in the printed text is the bill `total` (within a thousandth, or one token)."""
    return any(abs(value - total) <= max(1.0, total * 0.001) for value in _readings(printed))


def _bill_of(run: Run, lang: str) -> Finding:
    if not run.answered:
        return unobserved(run, lang, tr("the loop sent no request", lang))
    usage = _usage(run)
    total = billed(usage)
    printed = run.printed.strip()
    if _says(run.printed_errors, total):
        printed = f"{printed}\n{run.printed_errors.strip()}"  # print(..., file=sys.stderr) prints the bill too
    refused = any(r.get("stop_reason") == "refusal" for _, r in run.answered)
    if not printed and refused and (run.error is not None or run.hung):  # the fallback rule tells that story
        return verdict(NOT_CHECKED, tr("the run ended at the refusal ({ending}), before a bill was printed", lang,
                                       ending=how_it_ended(run, lang)))
    if not printed:
        return ended_badly(run, lang, tr("the loop printed nothing; print billed(usage) of every response however "
                                         "the run ends ({total:.0f} billed input tokens in this run)", lang,
                                         total=total))
    if _says(printed, total):
        return verdict(PASSED, ntr("the printed bill matches billed() of the {n} response's usage ({total:.0f} "
                                   "tokens)",
                                   "the printed bill matches billed() of all {n} responses' usage ({total:.0f} "
                                   "tokens)", len(usage), lang, total=total))
    last = billed(usage[-1:])
    said = short_value(printed.splitlines()[-1])
    if any(abs(value - last) <= 1.0 for value in _readings(printed)) and len(usage) > 1:
        return verdict(BROKEN, ntr("the loop printed {said}: the bill of the last response only ({last:.0f}); "
                                   "billed() of all {n} response is {total:.0f}",
                                   "the loop printed {said}: the bill of the last response only ({last:.0f}); "
                                   "billed() of all {n} responses is {total:.0f}", len(usage), lang, said=said,
                                   last=last, total=total))
    return verdict(BROKEN, ntr("the loop printed {said}, and no number in it is billed() of the {n} response's usage "
                               "({total:.0f})",
                               "the loop printed {said}, and no number in it is billed() of the {n} responses' usage "
                               "({total:.0f})", len(usage), lang, said=said, total=total))


EXERCISE_RULES: dict[str, Rule] = {
    "context_full": Rule(
        N_("A response cut by a full context window is an error, and its tool call never runs"),
        N_("the response stopped mid-way: its text is not the answer, and its last tool call is incomplete"),
        6, 482, ("as_is", "context_window"), context_full, reads_the_loop=True),  # in a later turn, and a longer run
    "refusal_said": Rule(
        N_("A refusal ends the run with its stop_details"),
        N_("the same model refuses the same request again: stop, and say why, so that whoever reads it can act"),
        6, 482, ("refusal",), refusal_said),
    "fallback": Rule(
        N_("A refusal goes once to the fallback model"),
        N_("another model may answer what this one refused; if it refuses too, asking again only costs money"),
        6, 482, ("as_is", "refusal", "refusal"), fallback,  # after a tool turn: "the same messages" are 3 by then
        reads_the_loop=True),  # and a run where the fallback model answers a turn before it refuses (AFTER_IT_ANSWERED)
    "cut_answer": Rule(
        N_("An answer cut by max_tokens is an error, not the answer"),
        N_("the text stopped mid-way: passed off as whole, the review loses its end and nobody knows"),
        6, 482, ("max_tokens_answer",), cut_answer, reads_the_loop=True),  # a loop that asked again: cut twice
    "stop_sequence": Rule(
        N_("A stop at a stop sequence ends the run with the text so far"),
        N_("a stop sequence is one you set: the model stopped where you told it to, and its text is the answer"),
        6, 482, ("stop_sequence",), functools.partial(returns_answer, stop="stop_sequence")),
    "unknown_stop": Rule(
        N_("A stop reason the loop does not know is an error that names it"),
        N_("the API adds stop reasons over time: a loop that guesses passes off a cut or paused answer as the whole"),
        6, 482, ("as_is", "unknown_stop"), unknown_stop),  # in a later turn: not only the first is watched
    "refusal_is_error": Rule(
        N_("A denied call goes back to the model as an error result"),
        N_("the model must learn that its call did not run, or it reports a merge that never happened"),
        7, 485, (), refusal_is_error),
    "cut_result": Rule(
        N_("An oversized tool result is cut, and says so"),
        N_("a whole big file costs tokens on every later call; cut silently, the model takes the part for the whole"),
        8, 486, ("one_more_call",), cut_result, reads_the_loop=True),  # one more request: the history kept is seen
    "cached": Rule(
        N_("The requests are cached"),
        N_("every call sends the rules, the tools and the history again: cached, they cost a tenth"),
        8, 482, (), cached),  # a review of three requests: the later ones read what the earlier wrote
    "bill": Rule(
        N_("The printed bill is billed() of every response"),
        N_("a bill from the last call alone hides most of the cost: each call is paid for, and the history grows"),
        8, 482, (), bill, reads_the_loop=True),  # the review's run: the bill printed at its end, and a second one's
}
"""Rules of the later notebooks' exercises (the fallback, the gate, the cut, the cache): check_loop runs them only
when they are named, so the lesson's own loop is not failed for what its notebook has not taught yet."""
CAUSE_ASKED: dict[str, Rule] = {
    f"{key}_cause": replace(rule, judge=functools.partial(rule.judge, cause=True), variant_of=key)
    for key, rule in {**RULES, **EXERCISE_RULES}.items() if key in ("cut_tool_call", "context_full", "cut_answer")}
"""Exercise 6's own cut rows: its text asks for an error that says what happened at a cut ("the answer was cut",
"the history no longer fits"), so an error that only names the stop ("Unexpected stop: max_tokens") is broken there,
and the cut call a catch-all kept from running is not yet checked; exercises 7 and 8 judge the stop rules again as
kept ones (the rules without _cause), where it is enough, and their rows say so."""
STRICT = {rule.variant_of: key for key, rule in CAUSE_ASKED.items()}
"""The rule each strict variant judges more strictly: exercise 6 names the variant in its place."""
ALL_RULES: dict[str, Rule] = {**RULES, **EXERCISE_RULES, **CAUSE_ASKED}
TAUGHT_TOGETHER = {
    "refusal": ("refusal_said", N_("A refusal ends the run with its stop_details, never retried on the same model")),
    "cut_tool_call": ("context_full", N_("A cut response (max_tokens, a full context window) is an error, and its "
                                         "tool call never runs")),
}
"""Rules the notebooks teach as one idea: the rules card in a notebook's header shows each pair as one line, under
this title; the checks judge each rule apart, and their reports name both."""

def words(rule: str, lang: str) -> tuple[str, str, str]:
    """(title, why, where) of a rule in the report's language."""
    r = ALL_RULES[rule]
    return tr(r.title, lang), tr(r.why, lang), tr("notebook {n}", lang, n=r.notebook)
