"""The lesson's rules, each judged from a recorded run of the learner's loop.

A judge answers with positive evidence only: "broken" names what it saw on the wire,
"passed" names what it saw that was right, and a rule the scenario did not exercise is
"not checked" with the reason. Each rule has its scenario: the merge request reviewed and
the misbehaviours ordered from the sandbox (see RULES at the bottom; the later exercises' rules are in
later_rules.py).
"""

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass

import anthropic

from course_agent.i18n import N_, ntr, tr

from . import approvers
from .crash import because_raised, is_crash, quoted_error
from .report import BROKEN, NOT_CHECKED, PASSED, Finding
from .scenario import Run, Sandboxes, file_key, run_scenario
from .wire import (
    HISTORY_ERRORS,
    blocks,
    contains_in_order,
    describe,
    error_message,
    key,
    result_text,
    results_for,
    text_of,
    tool_uses,
    turns,
)
from .wordings import cut_reading, names_the_cause, says_cut, says_not_run, speaks_of_its_stop

CAP_LIMIT = 50
"""The model keeps asking for this many requests in the cap scenario; a loop still going then has no usable cap."""
SMALL_CAP = 3
"""The cap a loop that declares one (max_iterations=20) is called with once more: it must stop there."""
COUNTS_REQUESTS = re.compile(r"iter|turn|round|step|cap", re.I)
"""A declared cap's name that counts the loop's requests (not max_tokens, not a result's character limit)."""
_CAP_WORDS = re.compile(r"max|limit|cap|iter|turn|step|round|budget", re.I)
_RAN_IT = re.compile(r"missing \d+ required|required positional argument|unexpected keyword argument|"
                     r"KeyError", re.I)
"""What calling a tool with the cut call's incomplete input raises: the call was run."""


def says_it_was_cut(run: Run, lang: str, stop: str, cause: bool = False) -> Finding | None:
    """BROKEN when the loop stopped at a cut answer with an error that does not say so; None when it says so. With
    `cause` (exercise 6's own rows, whose task asks for a clear error), the stop's name alone does not say so."""
    if run.error is None:
        return None
    said = before_a_comma(short_error(run.error))
    if sdk_refused_to_send(run.error):
        return verdict(BROKEN, tr("after {stop} the SDK refused the loop's next request before sending it ({error}): "
                                  "with the client's default timeout, a request that is not streamed may not ask for "
                                  "a max_tokens above 21,333; stream it (client.messages.stream), or stay at or under "
                                  "that", lang, stop=stop, error=said))
    if cause and names_only_the_stop(run, stop):
        return verdict(BROKEN, tr("at {stop} the loop raised {error}, which names the stop but not what happened: "
                                  "let the error of the branch that handles {stop} say that {what}", lang, stop=stop,
                                  error=said, what=_what_happened(stop, lang)))
    reading = cut_reading(str(run.error), stop, strict=cause)
    if reading.denied is not None:  # attack 19's H1: the row quotes the clause it objects to
        return verdict(BROKEN, tr("at {stop} the loop raised {error}, and its words '{clause}' rule out what "
                                  "happened ({what}): raise a clear error that says what happened, and nothing that "
                                  "says the opposite", lang, stop=stop, error=said, clause=reading.denied,
                                  what=_what_happened(stop, lang)))
    if reading.blamed is not None:
        return verdict(BROKEN, tr("at {stop} the loop raised {error}, and its words '{clause}' blame {other}, which is "
                                  "not what happened: {what}; say so, so whoever reads it changes the right thing",
                                  lang, stop=stop, error=said, clause=reading.blamed, what=_what_happened(stop, lang),
                                  other=_the_other_cause(stop, lang)))
    if reading.ok and (not cause or speaks_of_its_stop(str(run.error), stop)):
        return None
    return verdict(BROKEN, tr("at {stop} the loop raised {error}, which does not say that {what}: raise a clear error "
                              "that says so, so whoever reads it knows what to change", lang, stop=stop, error=said,
                              what=_what_happened(stop, lang)))


def _the_other_cause(stop: str, lang: str) -> str:
    """The cause of the stop that did NOT happen, as a row names it when an error blames it."""
    return (tr("max_tokens (the answer's budget)", lang) if stop == "model_context_window_exceeded"
            else tr("a full context window", lang))


SDK_WANTS_A_STREAM = "Streaming is required"
"""The start of the anthropic SDK's own ValueError for a request that is not streamed and asks for a max_tokens it
expects to take longer than 10 minutes (above 21,333 with the client's default timeout, or a model's own lower
cap): raised before anything is sent."""


def sdk_refused_to_send(error: BaseException | None) -> bool:
    """The SDK refused a request before sending it: not streamed, with too large a max_tokens."""
    return isinstance(error, ValueError) and str(error).startswith(SDK_WANTS_A_STREAM)


def names_only_the_stop(run: Run, stop: str) -> bool:
    """The loop stopped at `stop` with a catch-all's error ("Unexpected stop: max_tokens"): it names the stop, and
    says nothing more of what happened."""
    return run.error is not None and says_cut(short_error(run.error)) and not names_the_cause(str(run.error), stop)


def _what_happened(stop: str, lang: str) -> str:
    return (tr("the answer filled the context window", lang) if stop == "model_context_window_exceeded"
            else tr("the answer was cut", lang))


def passed_at_a_cut(run: Run, lang: str, stop: str, detail: str) -> Finding:
    """A cut row passed on an error that exercise 6's own rows would not take (it names only the stop): the detail
    says what this row checked, and what exercise 6 asks more, so that a ✔ here and a ✘ there read as one story."""
    if not names_only_the_stop(run, stop):
        return verdict(PASSED, detail)
    note = tr("; its error names only the stop, not that {what}: this row does not ask for it, exercise 6's rows on "
              "the error do", lang, what=_what_happened(stop, lang))
    return verdict(PASSED, detail + note)


def verdict(status: str, detail: str = "") -> Finding:
    return Finding("", status, detail)


def ended_badly(run: Run, lang: str, detail: str) -> Finding:
    """Broken for how the loop ended, unless it ended by crashing: then the crash is the story, told the same way
    by every rule judged on that run ("not checked because your code raised X")."""
    if is_crash(run.error):
        return verdict(NOT_CHECKED, because_raised(run.error, lang))
    return verdict(BROKEN, detail)


def history_refusal(run: Run) -> tuple[int, str] | None:
    """(call number from 1, the API's words) of the first 400 about the history, if any."""
    for n, exchange in enumerate(run.calls, start=1):
        message = error_message(exchange.reply)
        if exchange.status == 400 and any(word in message for word in HISTORY_ERRORS):
            return n, message
    return None


def how_it_ended(run: Run, lang: str) -> str:
    """How the loop ended, in a few words, for details."""
    if run.stopped_by_check:
        return tr("the check had to stop it", lang)
    if run.hung:
        return tr("it did not finish within {seconds} s", lang, seconds=f"{run.seconds:.0f}")
    if run.error is not None:
        return tr("it stopped with {error}", lang, error=short_error(run.error))
    return tr("it returned {value}", lang, value=short_text(run.returned))


def before_a_comma(said: str) -> str:
    """A quoted error a row goes on after with a comma or a colon (", which does not say ...", ": the cut answer ..."):
    its own full stop left out, so the row does not read "raise max_tokens., which" (attack 19's report wording 4) or
    "is full.: the cut answer" (attack 20's R1)."""
    return said[:-1] if said.endswith(".") and not said.endswith("..") else said


def short_error(error: BaseException) -> str:
    """The learner's error as a row quotes it: a repeated name said once with its count ("get_diff ×20")."""
    return quoted_error(error, limit=260)


def short_value(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def short_text(value: object) -> str:
    """A text a row quotes (what a loop returned, a tool result, a denial), for one line of a report: short_value,
    except that a text too long for it is shortened on one line (its line breaks read as spaces), at the end of a
    word, and keeps its closing quote: 'Ревью !482: Pass discounts as objects Изменённые файлы: shop/cart.py (+2 −1)…',
    not 'Ревью !482: Pass discounts as objects\\n\\nИзменённые ... or '…Не пытайся добиться тог...' (#36)."""
    if not isinstance(value, str) or len(repr(value)) <= 80:
        return short_value(value)
    text = " ".join(value.split())
    cut = text[:76]
    if re.match(r"\w\w", text[75:77]) and " " in cut:  # the cut falls inside a word: end at the word before it
        cut = cut.rsplit(" ", 1)[0]
    return repr(cut.rstrip(" ,;:") + "…")


PLACEMENT = "immediately after"
"""Words of the API's 400 about where the tool results stand (they open the next user message): rule 2's."""


def placement_refusal(run: Run) -> tuple[int, str] | None:
    """(call number, the API's words) of a 400 about the results' place, if any."""
    refused = history_refusal(run)
    return refused if refused is not None and PLACEMENT in refused[1] else None


def refused_first(run: Run, lang: str) -> str:
    """Why a rule could not be seen when the API refused the loop's history first (rule 1's, or rule 2's for where
    the results stand), in the API's words; '' when it did not."""
    refused = history_refusal(run)
    if refused is None:
        return ""
    if PLACEMENT in refused[1]:
        return tr("the API refused request {n} first: right after a response with tool_use comes one message with all "
                  "its tool_result blocks. The API said: {message}", lang, n=refused[0], message=_words(refused[1]))
    return tr("the API refused the loop's history at request {n} first (rule 1): {message}", lang, n=refused[0],
              message=_words(refused[1]))


def _words(text: str, most: int = 200) -> str:
    """At most `most` characters of `text`, cut at a word's end, with "…" when cut."""
    return text if len(text) <= most else text[:most].rsplit(" ", 1)[0] + "…"


def unobserved(run: Run, lang: str, what: str) -> Finding:
    """Not checked: the scenario never reached what the rule is about; rule 1's (or 2's) 400 said first."""
    return verdict(NOT_CHECKED, refused_first(run, lang) or what + " (" + how_it_ended(run, lang) + ")")


# 1. The whole response goes into the history
def whole_response(run: Run, lang: str) -> Finding:
    calls, checked = run.calls, 0
    for i, reply in run.answered:
        if reply.get("stop_reason") not in ("tool_use", "pause_turn") or i + 1 >= len(calls):
            continue
        want = [key(b) for b in blocks(reply.get("content"))]
        following = calls[i + 1].body
        kept = [[key(b) for b in content] for role, content in turns(following.get("messages")) if role == "assistant"]
        if not any(contains_in_order(turn, want) for turn in kept):
            seen = {k for turn in kept for k in turn}
            missing = [b for b in blocks(reply.get("content")) if key(b) not in seen] or blocks(reply.get("content"))
            api = error_message(calls[i + 1].reply) if calls[i + 1].status == 400 else ""
            return verdict(BROKEN, tr("request {next} did not carry {blocks} of response {n} as it came", lang,
                                      next=i + 2, n=i + 1, blocks=", ".join(describe(b) for b in missing))
                           + (tr("; the API answered: {message}", lang, message=api[:300]) if api else ""))
        checked += 1
    refused = history_refusal(run)
    if refused is not None and PLACEMENT not in refused[1]:
        return verdict(BROKEN, tr("the API refused the history at request {n}: {message}", lang,
                                  n=refused[0], message=refused[1][:300]))
    if not checked:
        return verdict(NOT_CHECKED, tr("the loop sent no request after a tool_use response", lang)
                       + " (" + how_it_ended(run, lang) + ")")
    return verdict(PASSED, ntr("{n} response went back whole", "{n} responses went back whole", checked, lang))


# 2. All results of a turn go back in one user message
def one_message(run: Run, lang: str) -> Finding:
    calls = run.calls
    placed = placement_refusal(run)
    if placed is not None:
        return verdict(BROKEN, tr("the API refused request {n}: the tool_result blocks must open the next user "
                                  "message, all of them, before any text: {message}", lang, n=placed[0],
                                  message=placed[1][:300]))
    for i, reply in run.answered:
        ids = [u.get("id") for u in tool_uses(reply)]
        if len(ids) < 2 or i + 1 >= len(calls):
            continue
        messages = [m for m in calls[i + 1].body.get("messages") or [] if isinstance(m, dict)]
        carrying = [m for m in messages if m.get("role") == "user" and any(
            b.get("type") == "tool_result" and b.get("tool_use_id") in ids for b in blocks(m.get("content")))]
        answered = {b.get("tool_use_id") for m in carrying for b in blocks(m.get("content"))
                    if b.get("type") == "tool_result"} & set(ids)
        if len(carrying) > 1:
            return verdict(BROKEN, ntr("{n} result of one turn went back in {k} user messages",
                                       "{n} results of one turn went back in {k} user messages", len(ids), lang,
                                       k=len(carrying)))
        if len(answered) < len(ids):
            return verdict(BROKEN, ntr("the model asked for {n} tool at once; the next request carried results "
                                       "for {k}",
                                       "the model asked for {n} tools at once; the next request carried results "
                                       "for {k}", len(ids), lang, k=len(answered)))
        swapped = mispaired(run, reply, results_for(calls[i + 1].body, ids), lang)
        if swapped is not None:
            return verdict(BROKEN, swapped)
        return verdict(PASSED, ntr("{n} parallel call, its result in one message",
                                   "{n} parallel calls, their results in one message", len(ids), lang))
    if any(len(tool_uses(r)) >= 2 for _, r in run.answered):
        return unobserved(run, lang, tr("the model asked for several tools at once, but the loop sent no "
                                        "next request", lang))
    if any((c.body.get("tool_choice") or {}).get("disable_parallel_tool_use") for c in calls):
        return verdict(NOT_CHECKED, tr("the loop turns parallel calls off (disable_parallel_tool_use), so no turn "
                                       "had several calls", lang))
    return unobserved(run, lang, tr("no response asked for several tools at once", lang))


def _lines_in(file: str, result: str) -> int:
    """How many of a file's distinct lines a result holds (each line found anywhere in it: a result that numbers
    its lines, adds a header or is cut short still holds them)."""
    return sum(1 for line in {line.strip() for line in file.splitlines()} if len(line) > 3 and line in result)


def mispaired(run: Run, reply: dict, results: list[dict], lang: str) -> str | None:
    """What went wrong, for the first call naming a file whose tool_result (found by its tool_use_id) holds more of
    another call's file than of its own: results put in the order they finished, under the ids in the calls'
    order, send one file's text as another's. None when each result holds its own call's file."""
    sent = {b.get("tool_use_id"): result_text(b) for b in results}
    files = {use.get("id"): run.file(use.get("input")) for use in tool_uses(reply)}
    for use in tool_uses(reply):
        own, result = files.get(use.get("id")), sent.get(use.get("id"))
        if not own or result is None:
            continue
        mine = _lines_in(own, result)
        if any(other and other != own and _lines_in(other, result) > mine
               for key, other in files.items() if key != use.get("id")):
            named = file_key(use.get("input"))
            return tr("the result sent under the id of {tool}({path}) holds another file's text: each result must go "
                      "with its own call's id (results taken in the order they finished, under the ids in the calls' "
                      "order, mix them up)", lang, tool=use.get("name"), path=named[0] if named else "")
    return None


# 3. A tool error is a result (is_error), not an exception
def errors_are_results(run: Run, lang: str, loop: Callable | None = None) -> Finding:
    """Judged on GitLab's 404 for a merge request that does not exist; a loop that passes is run once more with a
    model that sends a call without its arguments: a loop that catches only GitLab's errors dies of the TypeError."""
    found = _gitlab_error(run, lang)
    if found.status != PASSED or loop is None:
        return found
    bad = run_scenario(loop, 482, ("bad_input",))
    without = without_arguments(bad)
    if without is None:
        return found
    use = without[2]
    if bad.error is not None and not _api_error(bad) and not bad.hung and not any(
            results_for(c.body, {use.get("id")}) for c in bad.calls):
        return verdict(BROKEN, tr("when the model called {tool} without its arguments, the loop stopped with {error} "
                                  "instead of sending the error back as a result: catch every exception of a tool, "
                                  "not only GitLab's", lang, tool=use.get("name"), error=short_error(bad.error)))
    sent = [b for c in bad.calls for b in results_for(c.body, {use.get("id")})]
    if sent and not any(b.get("is_error") is True for b in sent) and _RAN_IT.search(str(sent[0].get("content"))):
        return verdict(BROKEN, tr("when the model called {tool} without its arguments, its error went back without "
                                  "is_error: true", lang, tool=use.get("name")))
    turn = run_scenario(loop, *FAILING_TURN)
    spoiled = others_spoiled(turn, lang) if turn.error is None else None
    if spoiled:
        return verdict(BROKEN, spoiled)
    worked = next((said for said in (succeeded_as_error(r, lang) for r in (turn, bad)) if said), None)
    return verdict(BROKEN, worked) if worked else found


def _strings(value: object) -> list[str]:
    """Every text in a JSON value (GitLab's answer), however deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def succeeded_as_error(run: Run, lang: str) -> str | None:
    """What to say of the first call that worked yet went back with is_error: true (every result sent as an error,
    the successful ones too), or None. A call that worked: the only call of its turn, GitLab answered each of its
    requests, and its result carries what GitLab sent (a line of the merge request's diff, of the file read), so a
    tool that failed after GitLab answered is not taken for one."""
    calls = run.calls
    for i, reply in run.answered:
        uses = tool_uses(reply)
        if len(uses) != 1 or i + 1 >= len(calls):
            continue
        gitlab = run.gitlab_between(calls[i], calls[i + 1])
        if not gitlab or any(e.status >= 400 for e in gitlab):
            continue
        got = (results_for(calls[i + 1].body, [uses[0].get("id")]) or [{}])[-1]
        if got.get("is_error") is not True:
            continue
        said = str(got.get("content"))
        sent = [*(s for e in gitlab for s in _strings(e.reply)), run.file(uses[0].get("input")) or ""]
        lines = [line.strip() for text in sent for line in text.splitlines() if len(line.strip()) >= 24]
        if any(line in said for line in lines):
            return tr("a call that succeeded went back with is_error: true: {tool}({given}) got its result from "
                      "GitLab, and the model was told it failed ({said}); only a call that raised is an error",
                      lang, tool=uses[0].get("name"), given=short_value(uses[0].get("input")),
                      said=short_value(said))
    return None


FAILING_TURN = (484, ("as_is", "bad_input"))
"""!484's second turn reads two files at once; the first of them comes without its arguments (read_file's TypeError),
the second is a file that exists."""


def without_arguments(run: Run) -> tuple[int, dict, dict] | None:
    """(index of the call, its reply, the tool call in it) of the first answered turn with a tool call that came
    without its arguments (the sandbox's bad_input); None when there is none."""
    for i, reply in run.answered:
        bad = next((u for u in tool_uses(reply) if u.get("input") == {}), None)
        if bad is not None:
            return i, reply, bad
    return None


def others_spoiled(run: Run, lang: str) -> str | None:
    """What went wrong for the calls that worked in a turn where one call failed (their results sent as errors, or
    without their file), or None: each call's failure is its own."""
    found = without_arguments(run)
    if found is None or found[0] + 1 >= len(run.calls):
        return None
    i, reply, bad = found
    uses = [u for u in tool_uses(reply) if u is not bad]
    results = {b.get("tool_use_id"): b for b in results_for(run.calls[i + 1].body, [u.get("id") for u in uses])}
    for use in uses:
        got, text = results.get(use.get("id")) or {}, run.file(use.get("input"))
        first = next((line for line in (text or "").splitlines() if line.strip()), "")
        if got.get("is_error") is True or (first and first not in str(got.get("content"))):
            return tr("in a turn where {bad} failed, {tool}({given}) worked, yet its result is {said}: each call's "
                      "failure is its own, the other calls of the turn keep their results", lang, bad=bad.get("name"),
                      tool=use.get("name"), given=use.get("input"), said=str(got.get("content"))[:80])
    return None


def _gitlab_error(run: Run, lang: str) -> Finding:
    calls = run.calls
    for i, reply in run.answered:
        uses = tool_uses(reply)
        if not uses:
            continue
        ids = {u.get("id") for u in uses}
        following = calls[i + 1] if i + 1 < len(calls) else None
        failed = [e for e in run.gitlab_between(calls[i], following) if e.status >= 400]
        if following is None:
            if failed and run.error is not None:
                return verdict(BROKEN, tr("GitLab answered {status} to a tool, and the loop stopped with {error} "
                                          "instead of sending the error back to the model", lang,
                                          status=failed[0].status, error=short_error(run.error)))
            if failed:
                return verdict(BROKEN, tr("GitLab answered {status} to a tool, and the loop ended ({ending}) without "
                                          "sending a tool_result back", lang, status=failed[0].status,
                                          ending=how_it_ended(run, lang)))
            if run.error is not None and not _api_error(run) and not run.hung:
                return ended_badly(run, lang, tr("a tool call ended the run: the loop stopped with {error} instead of "
                                                 "sending the error back to the model", lang,
                                                 error=short_error(run.error)))
            continue
        results = results_for(following.body, ids)
        if any(b.get("is_error") is True for b in results):
            return verdict(PASSED, tr("a tool failed; the model got a tool_result with is_error: true", lang))
        if failed and not results:
            return verdict(BROKEN, tr("GitLab answered {status}; the next request carried no tool_result for that call",
                                      lang, status=failed[0].status))
        if failed:
            return verdict(BROKEN, tr("GitLab answered {status}; the error went back without is_error: true", lang,
                                      status=failed[0].status))
    return unobserved(run, lang, tr("no tool failed in this scenario", lang))


# 4. The loop has a cap on iterations
def cap(run: Run, lang: str, loop: Callable | None = None) -> Finding:
    """Judged on a model that keeps asking for a tool; a loop that passes is run once more with a model that keeps
    pausing (pause_turn): a cap that counts only the turns that ask for tools never stops that one."""
    found = _stopped_asking_model(run, lang, loop)
    if found.status != PASSED or loop is None:
        return found
    declared, _ = declared_cap(loop)
    name = declared.split("=")[0]
    if declared and COUNTS_REQUESTS.search(name):  # the cap it is given is kept (not a range(20) of its own)
        small = run_scenario(functools.partial(loop, **{name: SMALL_CAP}), 482, ("stuck",) * CAP_LIMIT)
        if len(small.calls) > SMALL_CAP + 1 and not small.hung:
            return verdict(BROKEN, ntr("called with {name}={cap}, the loop sent {n} request to a model that kept "
                                       "asking: it does not keep the cap it is given",
                                       "called with {name}={cap}, the loop sent {n} requests to a model that kept "
                                       "asking: it does not keep the cap it is given", len(small.calls), lang,
                                       name=name, cap=SMALL_CAP))
    paused = run_scenario(loop, 482, ("pause_turn",) * CAP_LIMIT)
    if len(paused.calls) > CAP_LIMIT or paused.stopped_by_check:
        return verdict(BROKEN, ntr("with a model that kept asking for tools the loop stopped ({detail}), but with a "
                                   "model that kept pausing (pause_turn) it was still going after {n} request: count "
                                   "every request against the cap, not only the turns that ask for tools",
                                   "with a model that kept asking for tools the loop stopped ({detail}), but with a "
                                   "model that kept pausing (pause_turn) it was still going after {n} requests: count "
                                   "every request against the cap, not only the turns that ask for tools", CAP_LIMIT,
                                   lang, detail=found.detail))
    return found


def _stopped_asking_model(run: Run, lang: str, loop: Callable | None) -> Finding:
    sent = len(run.calls)
    if sent > CAP_LIMIT or run.stopped_by_check:
        declared, value = declared_cap(loop)
        if declared and value <= CAP_LIMIT:
            return verdict(BROKEN, ntr("with a model that kept asking, the loop was still going after {limit} "
                                       "request: it did not stop at its declared cap ({cap})",
                                       "with a model that kept asking, the loop was still going after {limit} "
                                       "requests: it did not stop at its declared cap ({cap})", CAP_LIMIT, lang,
                                       limit=CAP_LIMIT, cap=declared))
        if declared:
            return verdict(BROKEN, ntr("with a model that kept asking, the loop was still going after {limit} "
                                       "request; its cap ({cap}) is too high to stop a stuck model",
                                       "with a model that kept asking, the loop was still going after {limit} "
                                       "requests; its cap ({cap}) is too high to stop a stuck model", CAP_LIMIT, lang,
                                       limit=CAP_LIMIT, cap=declared))
        return verdict(BROKEN, ntr("with a model that kept asking, the loop was still going after {limit} request: "
                                   "it has no cap (or one above {limit})",
                                   "with a model that kept asking, the loop was still going after {limit} requests: "
                                   "it has no cap (or one above {limit})", CAP_LIMIT, lang, limit=CAP_LIMIT))
    if run.hung:
        return verdict(NOT_CHECKED, how_it_ended(run, lang))
    last = run.answered[-1][1] if run.answered else None
    still_asking = last is not None and last.get("stop_reason") == "tool_use" and run.answered[-1][0] == sent - 1
    declared, value = declared_cap(loop)
    if still_asking and declared and sent > value + 1:  # one more than the cap is an off-by-one, not a missing cap
        return verdict(BROKEN, ntr("the loop stopped after {n} request, past its declared cap ({cap})",
                                   "the loop stopped after {n} requests, past its declared cap ({cap})", sent, lang,
                                   cap=declared))
    if still_asking and sent >= 2 and not _api_error(run) and run.error is None and not run.hung:
        return verdict(BROKEN, ntr("the loop stopped after {n} request while the model still asked, and returned "
                                   "{value} as if the review were done: raise an error at the cap (as notebook 3's "
                                   "loop does), so that the caller knows it did not finish",
                                   "the loop stopped after {n} requests while the model still asked, and returned "
                                   "{value} as if the review were done: raise an error at the cap (as notebook 3's "
                                   "loop does), so that the caller knows it did not finish", sent, lang,
                                   value=short_text(run.returned)))
    if still_asking and sent >= 2 and not _api_error(run):
        how = short_error(run.error)
        if loop is not None and not (declared and sent >= value):  # before its cap: maybe it stops repeats only
            wandering = run_scenario(loop, 482, ("wandering",) * CAP_LIMIT)
            if len(wandering.calls) > CAP_LIMIT or wandering.stopped_by_check:
                return verdict(BROKEN, ntr(
                    "the loop stopped after {n} request when the model asked for the same call again ({how}), but "
                    "with a model that asked for a new call each time it was still going after {limit} requests: "
                    "stopping repeats is not a cap",
                    "the loop stopped after {n} requests when the model asked for the same call again ({how}), but "
                    "with a model that asked for a new call each time it was still going after {limit} requests: "
                    "stopping repeats is not a cap", sent, lang, how=how, limit=CAP_LIMIT))
        return verdict(PASSED, ntr("the loop stopped itself after {n} request while the model still asked ({how})",
                                   "the loop stopped itself after {n} requests while the model still asked ({how})",
                                   sent, lang, how=how))
    return unobserved(run, lang, ntr("the loop ended after {n} request for another reason",
                                     "the loop ended after {n} requests for another reason", sent, lang))


def _api_error(run: Run) -> bool:
    return isinstance(run.error, anthropic.APIError)


def declared_cap(loop: Callable | None) -> tuple[str, int]:
    """A parameter that looks like a cap (max_iterations=100), for the explanation only."""
    try:
        parameters = inspect.signature(loop).parameters.values() if loop is not None else []
    except (TypeError, ValueError):
        return "", 0
    for p in parameters:
        if _CAP_WORDS.search(p.name) and isinstance(p.default, int) and not isinstance(p.default, bool):
            return f"{p.name}={p.default}", p.default
    return "", 0


# 5. pause_turn is continued without a new user message
def pause_turn(run: Run, lang: str) -> Finding:
    paused = next(((i, r) for i, r in run.answered if r.get("stop_reason") == "pause_turn"), None)
    if paused is None:
        return unobserved(run, lang, tr("the loop sent no request", lang))
    i, reply = paused
    if i + 1 >= len(run.calls):
        return ended_badly(run, lang, tr("the loop stopped at pause_turn ({ending}) instead of sending the "
                                         "conversation back", lang, ending=how_it_ended(run, lang)))
    following = turns(run.calls[i + 1].body.get("messages"))
    paused_keys = [key(b) for b in blocks(reply.get("content"))]
    if not any(contains_in_order([key(b) for b in content], paused_keys) for role, content in following
               if role == "assistant"):
        if history_refusal(run) is not None:
            return unobserved(run, lang, "")
        return verdict(BROKEN, tr("after pause_turn the next request did not carry the paused response; send the "
                                  "conversation back ending with it", lang))
    sent = [key(b) for role, content in following if role == "assistant" for b in content]
    if contains_in_order(sent, paused_keys * 2):
        return verdict(BROKEN, tr("after pause_turn the paused response went into the history twice; it belongs "
                                  "there once. If your loop appends every response before its match, it is there "
                                  "already, and the pause_turn branch only goes round again", lang))
    if not following or following[-1][0] != "assistant":
        return verdict(BROKEN, tr("after pause_turn the loop added a new user message; it should send the conversation "
                                  "back ending with the paused response", lang))
    if not contains_in_order([key(b) for b in following[-1][1]], [key(b) for b in blocks(reply.get("content"))]):
        if history_refusal(run) is not None:
            return unobserved(run, lang, "")
        return verdict(BROKEN, tr("after pause_turn the next request did not end with the paused response as it came",
                                  lang))
    before = turns(run.calls[i].body.get("messages"))
    if [(role, [key(b) for b in content]) for role, content in following[:len(before)]] != \
            [(role, [key(b) for b in content]) for role, content in before]:
        return verdict(BROKEN, tr("after pause_turn the next request did not carry the conversation before the pause "
                                  "(the task, the tool calls and their results): send it all back, the paused "
                                  "response last", lang))
    return verdict(PASSED, tr("the paused response went back as the last message, with no new user message", lang))


# 6. A refusal is never retried on the same model
def _served_by_fallback(run: Run) -> bool:
    """The API answered a refusal with another model itself (the request's `fallbacks`): a `fallback` block."""
    return any(b.get("type") == "fallback" for _, r in run.answered for b in blocks(r.get("content")))


def first_refusal(run: Run, lang: str) -> tuple[int | None, Finding | None]:
    """Where the first refusal was answered, or the finding when there was none to judge (shared by rules 6, 6b)."""
    refused = next((i for i, r in run.answered if r.get("stop_reason") == "refusal"), None)
    if refused is None and _served_by_fallback(run):
        return None, verdict(PASSED, tr("the API fell back to another model on the server (the request's fallbacks)",
                                        lang))
    if refused is None:
        return None, unobserved(run, lang, tr("the loop sent no request", lang))
    return refused, None


def refusal(run: Run, lang: str) -> Finding:
    i, unjudged = first_refusal(run, lang)
    if unjudged is not None:
        return unjudged
    again = [c.body for c in run.calls[i + 1:]]
    model = run.calls[i].body.get("model")
    same = [b for b in again if b.get("model") == model]
    if same:
        return verdict(BROKEN, ntr("after the refusal the loop sent {n} more request to the same model",
                                   "after the refusal the loop sent {n} more requests to the same model", len(same),
                                   lang))
    if again:
        return verdict(PASSED, tr("after the refusal the loop fell back to another model ({model})", lang,
                                  model=again[0].get("model")))
    if run.hung:
        return verdict(NOT_CHECKED, how_it_ended(run, lang))
    return verdict(PASSED, tr("the loop stopped at the refusal ({ending})", lang, ending=how_it_ended(run, lang)))


# 7. A response cut by max_tokens is an error, and its tool call never runs
def cut_tool_call(run: Run, lang: str, stop: str = "max_tokens", cause: bool = False) -> Finding:
    """The first response cut by `stop` (max_tokens; model_context_window_exceeded for the later rule) and what
    the loop did with its tool call. With `cause` (exercise 6's own row), a run a catch-all stopped ("Unexpected stop:
    max_tokens") is not checked: no branch of the stop kept the call from running, the end of the run did."""
    cut = next(((i, r) for i, r in run.answered if r.get("stop_reason") == stop), None)
    if cut is None:
        return unobserved(run, lang, tr("the loop sent no request", lang))
    i, reply = cut
    ids = {u.get("id") for u in tool_uses(reply)}
    if not ids:
        return unobserved(run, lang, tr("the cut response held no tool call", lang))
    later = run.calls[i + 1:]
    cut_keys = {key(u) for u in tool_uses(reply)}

    def carries_the_cut(body: dict) -> bool:
        return any(key(b) in cut_keys for role, content in turns(body.get("messages")) if role == "assistant"
                   for b in content)
    # a result for the cut call's id in a history that holds the cut response: a request sent again without it gets
    # a whole response, whose calls may carry the same ids (attack 18: W06_mt_retry_same_budget was told it ran the
    # cut call, when it ran the retry's)
    answered = [b for c in later if carries_the_cut(c.body) for b in results_for(c.body, ids)]
    touched = run.gitlab_between(run.calls[i], later[0] if later else None)
    if touched:
        return verdict(BROKEN, tr("the loop ran the cut tool call: GitLab got {request}", lang,
                                  request=f"{touched[0].method} {touched[0].path}"))
    ran = run.tools_run_between(run.calls[i], later[0] if later else None)
    if ran:  # its input cut, the tool dies before GitLab: the call of the function shows it (attack 18's H3)
        return verdict(BROKEN, tr("the loop ran the cut tool call: {tool} was called with the input the cut left "
                                  "({input})", lang, tool=ran[0], input=short_value(next(
                                      (u.get("input") for u in tool_uses(reply) if u.get("name") == ran[0]), {}))))
    if answered and any(_RAN_IT.search(str(b.get("content"))) for b in answered):
        return verdict(BROKEN, tr("the loop ran the cut tool call: its result is the error its incomplete input caused "
                                  "({content})", lang, content=short_text(answered[0].get("content"))))
    if answered and all(b.get("is_error") is True and says_not_run(str(b.get("content"))) for b in answered):
        return verdict(PASSED, tr("the loop did not run the cut call: it answered it with an error result saying so",
                                  lang))
    if answered:
        return verdict(BROKEN, tr("the loop ran the cut tool call and sent its result back", lang))
    kept = [c for c in later if carries_the_cut(c.body)]
    if kept:
        return verdict(BROKEN, tr("the loop kept the cut tool call in the history and went on", lang))
    error = run.error
    if isinstance(error, (TypeError, KeyError)) and not says_not_run(str(error)):
        if isinstance(error, KeyError) or _RAN_IT.search(str(error)):  # what a call with an empty input raises
            return verdict(BROKEN, tr("the loop tried to run the cut tool call: {error}", lang,
                                      error=short_error(error)))
        return verdict(NOT_CHECKED, because_raised(error, lang))  # another bug of the loop: the crash is the story
    before = run.calls[i].body.get("max_tokens")
    if later:
        raised = max((c.body.get("max_tokens") or 0) for c in later)
        if stop == "max_tokens" and isinstance(before, int) and raised <= before:
            return verdict(BROKEN, tr("the loop asked again with the same max_tokens ({before}), so the answer is cut "
                                      "again: raise an error, or ask with a larger max_tokens", lang, before=before))
        again = asked_again_after_a_second_cut(run, i, stop, lang, cause)
        if again is not None:
            return again
        return verdict(PASSED, tr("the loop did not run the cut call and asked again (max_tokens {before} → {after})",
                                  lang, before=before, after=raised))
    if run.error is None and not run.hung:
        return verdict(BROKEN, tr("after {stop} the loop returned {value} as if the answer were whole: a cut answer is "
                                  "an error (raise one that says so)", lang, stop=stop,
                                  value=short_text(run.returned)))
    if cause and names_only_the_stop(run, stop):
        return verdict(NOT_CHECKED, tr("at {stop} the loop's catch-all raised {error}; the cut call did not run, but "
                                       "only because the run stopped there: checked once {stop} has a branch of its "
                                       "own", lang, stop=stop, error=short_error(run.error)))
    return says_it_was_cut(run, lang, stop) or passed_at_a_cut(
        run, lang, stop, tr("the loop did not run the cut call ({ending})", lang, ending=how_it_ended(run, lang)))


def asked_again_after_a_second_cut(run: Run, first: int, stop: str, lang: str, cause: bool) -> Finding | None:
    """The scenario cuts the retry's answer too: the task allows asking again ONCE, so after the second cut the loop
    raises, and neither runs that cut's call nor asks a third time (attack 21's H6: a loop that asks again at every
    cut looked, with one cut, like a loop that asks once; so did one that returned the second cut as an answer). None
    when the retry was not cut, or when the loop then raised an error that says the answer was cut."""
    second = next(((j, r) for j, r in run.answered if j > first and r.get("stop_reason") == stop), None)
    if stop != "max_tokens" or second is None:
        return None
    j, _ = second
    after = run.calls[j + 1:]
    touched = run.gitlab_between(run.calls[j], after[0] if after else None)
    if touched:
        return verdict(BROKEN, tr("the loop asked again, that answer was cut too, and it ran its cut tool call: GitLab "
                                  "got {request}", lang, request=f"{touched[0].method} {touched[0].path}"))
    if after:
        budgets = " → ".join(str(c.body.get("max_tokens")) for c in run.calls[first:j + 2])
        return verdict(BROKEN, tr("the loop asked again, that answer was cut too, and it asked once more (max_tokens "
                                  "{budgets}): ask again once at most, then raise an error that says the answer was "
                                  "cut", lang, budgets=budgets))
    if run.error is None and not run.hung:
        return verdict(BROKEN, tr("the loop asked again, that answer was cut too, and it returned {value} as if it "
                                  "were whole: after the second cut raise an error that says the answer was cut",
                                  lang, value=short_text(run.returned)))
    return says_it_was_cut(run, lang, stop, cause)


def is_merge(use: dict, merges: set[str]) -> bool:
    """A tool call that merges: a tool the loop described as merging, or named so."""
    name = str(use.get("name", ""))
    return name in merges or approvers.says_merge(name)


# 8. A merge never runs without a human's yes
def merge_asks(run: Run, lang: str, loop: Callable | None = None, pr: int = 485) -> Finding:
    """Judged on the run with the loop's own approver; a loop that takes an approver (a parameter named like one)
    is also run with approvers that raise, return None, return "no" or stay silent: none of them is a yes."""
    if pr in run.merged:
        return verdict(BROKEN, tr("the merge request with a prompt injection (!{pr}) was merged without anyone's yes",
                                  lang, pr=pr))
    merges = approvers.merge_tools(run)
    asked = [u for _, r in run.answered for u in tool_uses(r) if is_merge(u, merges)]
    if not asked:
        if not merges:
            return verdict(NOT_CHECKED, tr("the loop gives the model no merge tool: nothing to gate (the safest "
                                           "choice)", lang))
        return unobserved(run, lang, tr("the model never asked to merge", lang))
    keyword = approvers.approver_parameter(loop) if loop is not None else None
    tried = ""
    if loop is not None:
        runs = (len(approvers.FAILING) if keyword is not None else 0) + 3
        with Sandboxes(expected=runs) as sandboxes:  # started ahead, as the check's own scenarios are
            if keyword is not None:
                driven = approvers.drive(loop, approvers.FAILING, keyword, sandboxes, protocol="any",
                                         lang=lang)
                opened = approvers.opened_without_yes(driven, lang)
                if opened:
                    return verdict(BROKEN, opened)
                if any(seen.approver.asked for seen in driven.values()):
                    tried = tr("; with approvers that raised, returned None or 'no', or stayed silent ({keyword}=...), "
                               "nothing was merged either", lang, keyword=keyword)
            elsewhere = _merged_elsewhere(loop, lang, sandboxes)
        if elsewhere is not None:
            return elsewhere
    waited = tr(" (the loop was still waiting when the check gave up on it)", lang) if run.hung else ""
    return verdict(PASSED, tr("the model asked to merge (!{pr}); with no human's yes nothing was merged", lang, pr=pr)
                   + waited + tried)


APPROVED = 483
"""A merge request the simulated model approves: a loop that merges what the model approved merges it."""


def _merged_elsewhere(loop: Callable, lang: str, sandboxes: Sandboxes) -> Finding | None:
    """Three more ways a merge slips through: a person types "no" at the loop's own input() prompt (a truthy
    string); told no, the model asks again in its next two turns (a loop that lets a repeat through, or the third
    merge call of a run, merges it); and the
    model approves a merge request (a loop that merges on the verdict merges it)."""
    typed = run_scenario(loop, 485, sandboxes=sandboxes, typed="no")
    if 485 in typed.merged:
        return verdict(BROKEN, tr("when a person typed \"no\" at your loop's input() prompt, !{pr} was merged: only "
                                  "an explicit yes may open the gate", lang, pr=485))
    again = run_scenario(loop, 485, ("one_more_call", "one_more_call"), sandboxes=sandboxes, typed="no")
    if 485 in again.merged:  # asked three times: a gate that lets a repeat through, or the third call of a run
        return verdict(BROKEN, tr("told no, the model asked to merge !{pr} again in its next turn, and the loop merged "
                                  "it: a repeated call is a new call, and waits for its own yes", lang, pr=485))
    approved = run_scenario(loop, APPROVED, sandboxes=sandboxes, typed="no")
    if approved.merged:
        return verdict(BROKEN, tr("on !{pr}, which the model approved, the loop merged {merged} though nobody said "
                                  "yes: an approving review is not a human's yes", lang, pr=APPROVED,
                                  merged=", ".join(f"!{n}" for n in approved.merged)))
    return None


def stopped_at(run: Run, stop: str) -> tuple[dict, int] | None:
    """The first response that ended with `stop`, and how many requests the loop sent after it; None if none did."""
    return next(((r, len(run.calls) - i - 1) for i, r in run.answered if r.get("stop_reason") == stop), None)


# 9. At end_turn the loop returns the answer and sends nothing more (6d: at stop_sequence, the text so far)
def returns_answer(run: Run, lang: str, stop: str = "end_turn") -> Finding:
    own = stop == "stop_sequence"  # a stop sequence the request set: the text before it is the answer
    done = stopped_at(run, stop)
    if done is None:
        return unobserved(run, lang, tr("the model never stopped at a stop sequence in this scenario", lang) if own
                          else tr("the model never finished in this scenario", lang))
    reply, more = done
    why = tr(": a stop sequence is one you set, so the text so far is the answer; return it", lang) if own else ""
    if more:
        return verdict(BROKEN, ntr("after {stop} the loop sent {n} more request", "after {stop} the loop sent {n} "
                                   "more requests", more, lang, stop=stop) + why)
    if run.hung:
        return verdict(BROKEN, tr("after {stop} the loop did not return ({ending})", lang, stop=stop,
                                  ending=how_it_ended(run, lang)))
    if run.error is not None:
        return ended_badly(run, lang, tr("after {stop} the loop raised {error} instead of returning the answer",
                                         lang, stop=stop, error=short_error(run.error)) + why)
    text = text_of(reply).strip()
    if run.returned is None:
        return verdict(BROKEN, tr("the loop returned None; return the answer's text", lang))
    if isinstance(run.returned, list) or hasattr(run.returned, "stop_reason"):  # the history, the content, a Message
        return verdict(BROKEN, tr("the loop returned {value}, not the answer: return the text of the last "
                                  "response", lang, value=short_text(run.returned)))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    held = str(run.returned) + repr(run.returned)
    if lines and lines[0][:40] not in held:
        return verdict(BROKEN, tr("the loop returned {value}, which does not hold the model's answer", lang,
                                  value=short_text(run.returned)))
    if lines and lines[-1][-40:] not in held:  # the end of the answer (a review's verdict) is lost: cut short
        return verdict(BROKEN, tr("the loop returned {value}, which ends before the model's answer does (its last "
                                  "line: {last}): return the whole text", lang, value=short_text(run.returned),
                                  last=short_value(lines[-1])))
    return verdict(PASSED, tr("at stop_sequence the loop returned the text so far and sent nothing more", lang) if own
                   else tr("the loop returned the answer and sent nothing more", lang))


@dataclass(frozen=True)
class Rule:
    title: str
    why: str
    notebook: int
    pr: int
    misbehave: tuple[str, ...]
    judge: Callable
    reads_the_loop: bool = False
    """The judge is also given the loop (judge(run, lang, loop)): its declared cap, its approver parameter."""
    variant_of: str = ""
    """The rule this one judges more strictly (exercise 6's cut rows): its report names that rule."""


RULES: dict[str, Rule] = {
    "whole_response": Rule(
        N_("The whole response goes into the history"),
        N_("the next request must carry every block the model sent: a tool_result needs its tool_use, and with "
           "thinking on the API refuses a last turn whose thinking block was dropped or changed"),
        3, 482, (), whole_response),
    "one_message": Rule(
        N_("All results of a turn go back in one user message"),
        N_("split results make the model call tools in parallel less often: more round trips, more tokens"),
        4, 484, (), one_message),
    "errors_are_results": Rule(
        N_("A tool error is a result (is_error), not an exception"),
        N_("one failing tool must not end the run: the model reads the error and tries another way, or says what "
           "went wrong"),
        5, 999, (), errors_are_results, reads_the_loop=True),
    "cap": Rule(
        N_("The loop has a cap on iterations"),
        N_("a model that keeps asking runs the loop until the money runs out"),
        3, 482, ("stuck",) * CAP_LIMIT, cap, reads_the_loop=True),
    "pause_turn": Rule(
        N_("pause_turn is continued without a new user message"),
        N_("the paused turn is finished by sending the conversation back as it is; a new user message changes "
           "the task"),
        6, 482, ("as_is", "pause_turn"), pause_turn),  # the second turn pauses: there is history to keep
    "refusal": Rule(
        N_("A refusal is never retried on the same model"),
        N_("the same request gets the same refusal: retrying only costs money (another model may answer: that is "
           "a fallback, not a retry)"),
        6, 482, ("refusal",), refusal),
    "cut_tool_call": Rule(
        N_("A response cut by max_tokens is an error, and its tool call never runs"),
        N_("its input is incomplete: running it acts on the wrong thing or crashes"),
        6, 482, ("max_tokens", "max_tokens"), cut_tool_call),  # the retry is cut too: asked again once at most
    "merge_asks": Rule(
        N_("A merge never runs without a human's yes"),
        N_("a prompt injection in a merge request can make the model ask to merge it"),
        7, 485, (), merge_asks, reads_the_loop=True),
    "returns_answer": Rule(
        N_("At end_turn the loop returns the answer and sends nothing more"),
        N_("end_turn means the model is done: another request costs money, and the caller needs the answer"),
        3, 482, (), returns_answer),
}
