"""Exercises 6, 7 and 8 grade the learner's own loop as it grows (fallback, gate, cut and cache). The attempts
below are written in other styles than the reference (other names, dict history, streaming, async, a class):
the right ones pass, each wrong one fails naming its rule, and an untouched placeholder is "not done yet"."""

import asyncio
import html

import anthropic
import gitlab
import pytest

from course_selfcheck import check_loop
from course_selfcheck.exercises import check_exercise_6, check_exercise_7, check_exercise_8, check_fallback
from course_selfcheck.report import BROKEN
from course_agent.solutions import reference, show_solution, solution_code

DEAD = "http://127.0.0.1:9"  # only the check's retargeting (by type) can make these clients work
llm = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)
allm = anthropic.AsyncAnthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)
repo = gitlab.Gitlab(DEAD, private_token="not-a-token").projects.get("course/shop", lazy=True)
PRIMARY, SPARE = "claude-opus-5", "claude-opus-4-8"
RULES = "Review the merge request with the tools. End with a verdict line."
SPECS = [
    {"name": "diff_of", "description": "The diff of a merge request.",
     "input_schema": {"type": "object", "properties": {"mr": {"type": "integer"}}, "required": ["mr"]}},
    {"name": "file_at", "description": "A file of the repository at a ref.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
                      "required": ["path"]}},
    {"name": "merge_pr", "description": "Merge a merge request.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
]


def diff_of(mr: int) -> str:
    request = repo.mergerequests.get(mr)
    return "\n".join([request.title, f"source branch: {request.source_branch}", request.description] + [f"diff --git a/{c['old_path']} b/{c['new_path']}\n"
                                                             + (c["diff"] or "(too large)")
                                                             for c in request.changes()["changes"]])


def file_at(path: str, ref: str = "main") -> str:
    return repo.files.raw(path, ref=ref).decode()


def merge_pr(pr: int) -> str:
    repo.mergerequests.get(pr).merge()
    return "merged"


def run(name: str, args: dict) -> tuple[str, bool]:
    try:
        return str({"diff_of": diff_of, "file_at": file_at, "merge_pr": merge_pr}[name](**args)), False
    except Exception as error:  # a tool error is a result
        return f"{type(error).__name__}: {error}", True


def streamed(**request) -> anthropic.types.Message:
    with llm.messages.stream(**request) as stream:
        return stream.get_final_message()


def server_side(**request) -> anthropic.types.beta.BetaMessage:
    """The API falls back by itself: the `fallbacks` beta parameter."""
    return llm.beta.messages.create(**request, fallbacks=[{"model": SPARE}], betas=["server-side-fallback-2026-07-01"])


def middleware(**request) -> anthropic.types.beta.BetaMessage:
    """The SDK falls back on the client's side: a refused beta request is sent again to the next model."""
    careful = llm.with_options(middleware=[anthropic.BetaRefusalFallbackMiddleware([{"model": SPARE}])])
    return careful.beta.messages.create(**request)


def middleware_per_request(**request) -> anthropic.types.beta.BetaMessage:
    """Wrong: a BetaFallbackState per request forgets the fallback, so the next turn asks the refusing model again."""
    with anthropic.BetaFallbackState():
        return middleware(**request)


def middleware_loop(pr):
    """Right: one BetaFallbackState around the whole conversation keeps it on the model that accepted."""
    with anthropic.BetaFallbackState():
        return loop(pr, fallback="middleware")


def said_yes(approve, name, args) -> bool:
    """Only an explicit True: an approver that raises (nobody to ask), None or "no" is a no."""
    try:
        return approve(name, args) is True
    except Exception:
        return False


def fail_open(approve, name, args) -> bool:
    """Wrong: an approver that cannot be reached is taken as a yes."""
    try:
        return bool(approve(name, args))
    except Exception:
        print("approver unavailable; going ahead")
        return True


def loop(pr, approve=lambda name, args: False, **how):
    """One learner's loop, in dict-history style; the keywords say how it handles each new thing. The bill is printed
    however the run ends (the answer, the cap, an error), in a finally:, as notebook 8 asks."""
    paid = []
    try:
        return _loop(pr, approve, paid, **how)
    finally:
        print("billed input:", sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0)
                                   + 0.1 * (u.cache_read_input_tokens or 0) for u in paid))


def _loop(pr, approve, paid, *, fallback="once", stream=False, gate="error", cut=None, cut_note=True, cache=None,
          turns=20):
    history, model, fell_back = [{"role": "user", "content": f"Please review MR {pr}"}], PRIMARY, 0
    send = {"server": server_side, "middleware": middleware, "per-request": middleware_per_request}.get(
        fallback, streamed if stream else llm.messages.create)
    for _ in range(turns):
        request = dict(model=model, max_tokens=8000, system=RULES, tools=SPECS, messages=history)
        if cache == "auto":
            request["cache_control"] = {"type": "ephemeral"}
        elif cache == "system":
            request["system"] = [{"type": "text", "text": RULES, "cache_control": {"type": "ephemeral"}}]
        reply = send(**request)
        paid.append(reply.usage)
        if reply.stop_reason == "refusal":
            if fallback in ("never", "server", "middleware", "per-request") or (fallback == "once" and fell_back):
                raise RuntimeError(f"refused: {reply.stop_details}")
            model, fell_back = (PRIMARY if fallback == "same" else SPARE), fell_back + 1
            continue
        if reply.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": [b.model_dump() for b in reply.content]})
            continue
        if reply.stop_reason in ("max_tokens", "model_context_window_exceeded"):
            raise RuntimeError(f"cut by {reply.stop_reason}: nothing run")
        if reply.stop_reason in ("end_turn", "stop_sequence"):
            return "".join(b.text for b in reply.content if b.type == "text")
        if reply.stop_reason != "tool_use":
            raise RuntimeError(f"unexpected stop reason {reply.stop_reason}")
        history.append({"role": "assistant", "content": [b.model_dump() for b in reply.content]})
        answers = []
        asked = {"truthy": lambda *a: bool(approve(*a)), "fail-open": lambda *a: fail_open(approve, *a)}.get(
            gate, lambda *a: said_yes(approve, *a))
        for use in (b for b in reply.content if b.type == "tool_use"):
            if use.name == "merge_pr" and gate != "none" and (gate == "all" or not asked(use.name, use.input)):
                if gate == "raise":
                    raise PermissionError("merge refused by a human")
                answers.append({"type": "tool_result", "tool_use_id": use.id, "content": "A human said no.",
                                **({"is_error": True} if gate != "plain" else {})})
                continue
            if gate == "all" and not approve(use.name, use.input):
                answers.append({"type": "tool_result", "tool_use_id": use.id, "content": "refused", "is_error": True})
                continue
            text, failed = run(use.name, use.input)
            if cut and len(text) > cut:
                text = text[:cut] + (f"\n[truncated: {cut} of {len(text)} chars; ask for a narrower part]" if cut_note
                                     else "")
            answers.append({"type": "tool_result", "tool_use_id": use.id, "content": text, "is_error": failed})
        history.append({"role": "user", "content": answers})
    raise RuntimeError("too many turns")


async def async_loop(pr, approve=lambda name, args: False):
    """The exercise-7 loop with AsyncAnthropic, an async approver allowed too."""
    history, model = [{"role": "user", "content": f"Review !{pr}"}], PRIMARY
    for _ in range(20):
        reply = await allm.messages.create(model=model, max_tokens=8000, system=RULES, tools=SPECS, messages=history)
        if reply.stop_reason == "refusal":
            if model == SPARE:
                raise RuntimeError(f"refused twice: {reply.stop_details}")
            model = SPARE
            continue
        if reply.stop_reason in ("end_turn", "stop_sequence"):
            return "".join(b.text for b in reply.content if b.type == "text")
        if reply.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": reply.content})
            continue
        if reply.stop_reason != "tool_use":
            raise RuntimeError(f"stopped: {reply.stop_reason}")
        history.append({"role": "assistant", "content": reply.content})
        results = []
        for use in (b for b in reply.content if b.type == "tool_use"):
            allowed = use.name != "merge_pr" or said_yes(approve, use.name, use.input)
            text, failed = await asyncio.to_thread(run, use.name, use.input) if allowed else ("refused by a human", True)
            results.append({"type": "tool_result", "tool_use_id": use.id, "content": text, "is_error": failed})
        history.append({"role": "user", "content": results})
    raise RuntimeError("cap")


class Reviewer:
    """The gate as a method of a class, its approver a bound method: another way to write the same loop."""

    def __init__(self, threshold: int = 0) -> None:
        self.threshold = threshold

    def review(self, pr, approve=None):
        return loop(pr, approve or (lambda name, args: False), stream=True)


def broken(report) -> list[str]:
    return [f.rule for f in report.findings if f.status == BROKEN]


# ---- exercise 6: every stop reason, a refusal that stops the run; optional: the fallback model once ------------

@pytest.mark.parametrize("attempt", [reference(6)["review_every_stop"], lambda pr: loop(pr, stream=True),
                                     lambda pr: loop(pr), lambda pr: loop(pr, fallback="never"),
                                     lambda pr: loop(pr, fallback="server"), middleware_loop],
                         ids=["reference", "streamed", "dict-history", "no-fallback", "server-side-fallbacks",
                              "sdk-middleware"])
def test_exercise_6_passes_a_refusal_that_stops_and_a_fallback_tried_once(attempt):
    report = check_exercise_6(attempt)
    assert report.ok, str(report)


@pytest.mark.parametrize("attempt", [reference(6, optional=True)["review_every_stop"],
                                     lambda pr: loop(pr, stream=True), lambda pr: loop(pr),
                                     lambda pr: loop(pr, fallback="server"), middleware_loop],
                         ids=["reference", "streamed", "dict-history", "server-side-fallbacks", "sdk-middleware"])
def test_the_optional_check_passes_a_fallback_tried_once(attempt):
    report = check_fallback(attempt)
    assert report.ok, str(report)


@pytest.mark.parametrize("check, fallback, rules", [
    (check_exercise_6, "same", ["refusal"]), (check_exercise_6, "per-request", ["refusal", "fallback"]),
    (check_fallback, "never", ["fallback"]), (check_fallback, "twice", ["fallback"]),
    (check_fallback, "same", ["refusal", "fallback"]),
    # back to the first model after each fallback: "the rest of the run stays with it" is broken too
    (check_fallback, "per-request", ["refusal", "fallback"])])
def test_exercise_6_names_the_refusal_rule_a_loop_breaks(check, fallback, rules):
    report = check(lambda pr: loop(pr, fallback=fallback), language="ru")
    assert broken(report) == rules, str(report)
    assert report.note.startswith("Пока не сделано")


def test_the_fallback_rule_says_what_it_saw_in_both_languages():
    en = check_loop(lambda pr: loop(pr, fallback="never"), rules="fallback", language="en")
    ru = check_loop(lambda pr: loop(pr, fallback="never"), rules="fallback", language="ru")
    assert "without asking the fallback model" in en.findings[0].detail
    assert "не обратился к запасной модели" in ru.findings[0].detail
    looped = check_loop(lambda pr: loop(pr, fallback="twice"), rules="fallback", language="en").findings[0].detail
    assert "refused too, and the loop sent" in looped and "try the fallback once, then stop" in looped


# ---- exercise 7: the gate in the learner's own loop ------------------------------------------------------------

def approver_last(pr_number, max_iterations=20, confirm=None):
    """The approver as a third, named parameter, after the cap."""
    return loop(pr_number, confirm, turns=max_iterations)


@pytest.mark.parametrize("attempt", [reference(7)["review_with_gate"], loop, async_loop, Reviewer().review, approver_last],
                         ids=["reference", "dict-history", "async", "method", "approver-after-the-cap"])
def test_exercise_7_passes_a_gate_that_asks_before_merging_only(attempt):
    report = check_exercise_7(attempt)
    assert report.ok, str(report)


@pytest.mark.parametrize("language, checked, asked", [("en", "names only the stop", "exercise 6"),
                                                      ("ru", "названа только причина остановки", "упражнение 6 требует")])
def test_exercise_7s_kept_cut_rows_say_what_they_checked_on_a_catch_all(language, checked, asked):
    """Native read 58 (A1): the same 'stopped: max_tokens' is ✘ in exercise 6 and ✔ in exercise 7. Exercise 7 keeps
    it a pass (its task checks notebook 6's rules again, on a loop that may come from elsewhere), and its rows say
    what they checked: the cut answer not passed off as whole, the error's words left to exercise 6."""
    seven = check_exercise_7(async_loop, language=language)
    assert seven.ok, str(seven)
    said = {f.rule: f.detail for f in seven.findings}
    for rule in ("cut_tool_call", "cut_answer", "context_full"):
        assert checked in said[rule] and asked in said[rule], (rule, said[rule])
    assert {"cut_answer", "context_full"} <= set(broken(check_exercise_6(async_loop, language=language)))


def test_exercise_6s_strict_cut_rows_are_rules_of_their_own():
    """Exercise 6 names the strict variants of its cut rules (no state set around the check): check_loop judges the
    kept rules as exercises 7 and 8 do, and the variants as exercise 6 does."""
    kept = check_loop(async_loop, rules=["cut_tool_call", "cut_answer", "context_full"], language="en")
    assert kept.ok, str(kept)
    strict = check_loop(async_loop, rules=["cut_tool_call_cause", "cut_answer_cause", "context_full_cause"],
                        language="en")
    assert broken(strict) == ["cut_answer_cause", "context_full_cause"], str(strict)
    assert strict.findings[0].status == "not_checked" and "catch-all" in strict.findings[0].detail, str(strict)


@pytest.mark.parametrize("gate, rule", [("raise", "refusal_is_error"), ("plain", "refusal_is_error"),
                                        ("all", "approver_asked"), ("none", "approver_asked")])
def test_exercise_7_names_the_rule_a_wrong_gate_breaks(gate, rule):
    report = check_exercise_7(lambda pr, approve: loop(pr, approve, gate=gate), language="en")
    assert rule in broken(report), str(report)
    assert not report.ok


def test_exercise_7_says_plainly_when_the_loop_takes_no_approver_and_when_nothing_is_written():
    report = check_exercise_7(lambda pr: loop(pr), language="ru")
    assert "approver_asked" in broken(report) and "не принимает функцию подтверждения" in report.findings[0].detail
    assert check_exercise_7(None).note.startswith("Not done yet")
    assert check_exercise_7(None, None).note.startswith("Not done yet")  # the older form still answers


def test_a_gate_that_never_opens_is_not_a_gate():
    report = check_exercise_7(lambda pr, approve: loop(pr, lambda name, args: False))  # ignores its approver
    assert broken(report) == ["approver_asked", "yes_merges"], str(report)
    assert "approver was never asked" in report.findings[0].detail


@pytest.mark.parametrize("language, said", [
    ("en", "the approver was never asked, though in this run it would have said no"),
    ("ru", "функцию подтверждения так и не спросили, хотя в этом запуске она ответила бы «нет»")])
def test_a_gate_that_opens_without_asking_says_what_the_approver_would_have_said(language, said):
    """Native read 64's A2: the approver was never asked, so the row says what it would have answered, and not, in
    the same line, that it answered ("…never asked (the check's approver said no (False))")."""
    report = check_exercise_7(lambda pr, approve: loop(pr, lambda name, args: True), language=language)
    row = next(f for f in report.findings if f.rule == "fail_closed")
    assert row.status == BROKEN and said in row.detail, report.text()
    assert "(False)" not in row.detail, row.detail


# ---- exercise 8: the cut and the cache ---------------------------------------------------------------------------

def costly(**options):
    """The dict-history loop as exercise 8 has it: the approver a parameter with a default (a no), as ask_human is."""
    def review_with_cost(pr, approve=lambda name, args: False):
        return loop(pr, approve, **options)
    return review_with_cost


@pytest.mark.parametrize("attempt", [reference(8)["review_with_cost"],
                                     costly(cut=20_000, cache="auto"),
                                     costly(cut=20_000, cache="auto", stream=True)],
                         ids=["reference", "dict-history", "streamed"])
def test_exercise_8_passes_a_cut_that_says_so_and_a_cache_that_works(attempt, capsys):
    report = check_exercise_8(attempt)
    assert report.ok, str(report)


@pytest.mark.parametrize("options, rules", [({"cache": "auto"}, ["cut_result"]),
                                            ({"cut": 20_000, "cut_note": False, "cache": "auto"}, ["cut_result"]),
                                            ({"cut": 20_000}, ["cached"]),
                                            ({"cut": 20_000, "cache": "system"}, ["cached"]),
                                            ({"cut": 12_000, "cache": "auto"}, ["cut_result"])],
                         ids=["no-cut", "silent-cut", "no-cache", "breakpoint-on-the-system-prompt-only",
                              "cut-below-LIMIT"])
def test_exercise_8_names_what_is_missing(options, rules):
    report = check_exercise_8(costly(**options), language="ru")
    assert broken(report) == rules, str(report)


def test_exercise_8_never_passes_a_gate_it_could_not_try():
    """A loop that raises NotImplementedError on !485 before sending anything: the gate's requirements are not
    checked (the exception named), and the exercise is not passed."""
    inner = costly(cut=20_000, cache="auto")

    def review_with_cost(pr, approve=lambda name, args: False):
        if pr == 485:
            raise NotImplementedError("not for this merge request")
        return inner(pr, approve)

    report = check_exercise_8(review_with_cost)
    assert not report.ok and isinstance(report.raised, NotImplementedError), str(report)
    gate = [f for f in report.findings if f.rule in ("approver_asked", "yes_merges", "fail_closed")]
    assert len(gate) == 3 and all(f.status == "not_checked" for f in gate), str(report)


def test_exercise_8_keeps_notebook_7s_gate_and_notebook_6s_refusal():
    """Exercise 8 grows exercise 7's loop: one that lost the gate on the way fails there, or that retries a refusal on
    the same model; one without the fallback (notebook 6's optional part) passes."""
    no_gate = check_exercise_8(costly(gate="none", cut=20_000, cache="auto"))
    assert "approver_asked" in broken(no_gate) and "fail_closed" in broken(no_gate), str(no_gate)
    no_approver = check_exercise_8(lambda pr: loop(pr, cut=20_000, cache="auto"))
    assert broken(no_approver) == ["approver_asked"], str(no_approver)
    no_fallback = check_exercise_8(costly(fallback="never", cut=20_000, cache="auto"))
    assert no_fallback.ok, str(no_fallback)
    same = check_exercise_8(costly(fallback="same", cut=20_000, cache="auto"))
    assert "refusal" in broken(same), str(same)


def test_exercise_8_still_grades_the_older_table_and_a_placeholder_is_not_done():
    assert check_exercise_8(None).note.startswith("Not done yet")
    assert check_exercise_8([]).note.startswith("Not done yet")


def test_the_references_are_what_show_solution_shows():
    """show_solution folds the code (HTML <details>); its text says how to print it, solution_code gives it."""
    for notebook, name in ((7, "def review_with_gate"), (8, "def review_with_cost")):
        folded = show_solution(notebook)
        assert name in solution_code(notebook) and html.escape(name) in folded._repr_html_()
        assert name not in repr(folded) and f"solution_code({notebook})" in repr(folded)


# ---- crashes and plurals ------------------------------------------------------------------------------------------

def typo_loop(pr, approve=None):
    history = [{"role": "user", "content": f"Review MR {pr}"}]
    reply = llm.messages.create(model=PRIMARY, max_tokens=8000, system=RULES, tools=SPECS, messages=history)
    return reply.contents  # a typo: Message has .content


@pytest.mark.parametrize("check", [check_exercise_6, check_exercise_7, check_exercise_8])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_crashing_loop_is_never_passed_and_its_error_is_named(check, language):
    report = check(typo_loop, language=language)
    assert not report.ok
    assert "AttributeError" in str(report), str(report)


def test_split_results_are_counted_with_their_plurals():
    import learner_loops

    split = learner_loops.make_loop(breaks="one_message")
    en = check_loop(split, rules="one_message", language="en").findings[0].detail
    ru = check_loop(split, rules="one_message", language="ru").findings[0].detail
    assert en == "2 results of one turn went back in 2 user messages", en
    assert ru == "2 результата одного хода разнесены по разным сообщениям от user (сообщений: 2)", ru


# ---- the notebooks' templates ----------------------------------------------------------------------------------

def template_loop(pr_number: int, approve=None, max_iterations: int = 20) -> str:
    """The exercise cell as notebooks 6-8 leave it."""
    raise NotImplementedError("your code here")


def started_loop(pr_number: int, approve=None) -> str:
    history = [{"role": "user", "content": f"Review !{pr_number}"}]
    return history[0]["content"] + pr_number  # a bug before any request: str + int


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("check", [check_exercise_6, check_exercise_7, check_exercise_8])
def test_the_notebooks_template_is_only_not_done_yet(check, language):
    """The untouched template gives one "not done yet" line, no rule verdicts (#27) and no hint before a try (F7)."""
    report = check(template_loop, language=language)
    assert not report.ok and report.findings == [] and not report.hints, report.text()
    assert report.text().splitlines()[0].endswith("not done yet" if language == "en" else "пока не сделано")


@pytest.mark.parametrize("check", [check_exercise_6, check_exercise_8])
def test_a_loop_that_raises_before_any_request_is_reported_first_as_a_crash(check):
    """Exercises 6 and 8 have no requirement of their own: the crash leads the report, every rule says it was
    kept from being checked by it (not "no request was seen")."""
    report = check(started_loop)
    text = report.text()
    assert not report.ok and "TypeError" in text.splitlines()[0], text
    assert report.passed == [] and report.findings, text
    assert all("TypeError" in f.detail for f in report.findings), text
