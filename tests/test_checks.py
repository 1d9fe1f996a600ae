"""The self-check judges a learner's loop from the wire: correct loops in many styles pass every
rule; a loop that breaks one rule is flagged for it, and nothing is passed that was not seen."""

import threading

import anthropic
import pytest

import learner_loops
import learner_styles as styles
from course_agent import solutions
from course_selfcheck import NOT_CHECKED, PASSED, RULES, check_loop
from course_selfcheck import scenario as scenario_module
from course_agent.client import shared_sandbox

CORRECT = {
    "reference": solutions.review_pull_request,
    "stream": styles.streaming_loop,
    "with_options": styles.with_options_loop,
    "with_raw_response": styles.raw_response_loop,
    "beta": styles.beta_loop,
    "bound method": styles.reviewer.review,
    "closure": styles.make_closure_loop(),
    "partial": styles.partial_loop,
    "async": styles.async_loop,
    "thinking": styles.thinking_loop,
    "history as dicts": styles.dict_history_loop,
    "own cap of 30": styles.cap_30_loop,
    "lambda over two arguments": lambda pr: styles.review_with(pr, styles.claude),
    "own http_client": styles.custom_http_client_loop,
    "own GitLab project": styles.own_project_loop,
    "thread pool": styles.thread_pool_loop,
    "asyncio.run each turn": styles.asyncio_run_each_turn_loop,
    "async stream": styles.async_stream_loop,
}


@pytest.mark.parametrize("name", list(CORRECT))
def test_correct_loops_in_many_styles_pass_every_rule(name):
    report = check_loop(CORRECT[name])
    assert [f.status for f in report.findings] == [PASSED] * len(RULES), report.text()
    assert report.ok


def test_a_loop_on_the_sdks_aiohttp_transport_passes_every_rule():
    pytest.importorskip("aiohttp", reason="the anthropic[aiohttp] extra is not installed")
    report = check_loop(styles.aiohttp_loop)
    assert [f.status for f in report.findings] == [PASSED] * len(RULES), report.text()


@pytest.mark.parametrize("rule", [r for r in RULES if r != "returns_answer"])
def test_each_broken_rule_is_flagged_alone(rule):
    report = check_loop(learner_loops.make_loop(breaks=rule))
    # a history the API refuses at request 2 hides what comes later: the pause is ordered in the second turn (so a
    # loop that drops the history before it is seen), after that refusal
    dependent = {"one_message", "cap", "merge_asks", "returns_answer", "pause_turn"} if rule == "whole_response" \
        else set()
    assert report.broken == [rule], report.text()
    assert set(report.not_checked) == dependent, report.text()


@pytest.mark.parametrize("loop, rule, words", [
    (styles.last_block_only_loop, "whole_response", "did not carry thinking, text"),
    (styles.aborts_on_tool_error_loop, "errors_are_results", "'aborted'"),
    (styles.never_returns_loop, "returns_answer", "after end_turn the loop sent"),
])
def test_rule_breaking_in_other_styles_is_seen(loop, rule, words):
    report = check_loop(loop)
    assert report.broken == [rule], report.text()
    assert words in next(f.detail for f in report.findings if f.rule == rule)


def test_dropped_thinking_is_rule_one_on_todays_model():
    """Adaptive thinking: the API refuses a tool-use turn sent back without the thinking block it had (docs: "The
    API rejects edited, reordered, or partially dropped thinking blocks"), and the check says it was rule 1."""
    report = check_loop(lambda pr: styles.thinking_loop(pr, keep_thinking=False))
    assert report.broken == ["whole_response"], report.text()
    first = report.findings[0]
    assert "thinking" in first.detail and "Expected `thinking`" in first.detail, first.detail
    assert {"one_message", "cap", "pause_turn"} <= set(report.not_checked)


def test_dropped_manual_thinking_is_rule_one_and_the_rules_after_it_are_not_checked():
    """Manual thinking on an older model: the API refuses the history, so the loop stops there."""
    report = check_loop(lambda pr: styles.thinking_loop(pr, keep_thinking=False, model="claude-opus-4-6",
                                                        thinking={"type": "enabled", "budget_tokens": 4000}))
    assert report.broken == ["whole_response"], report.text()
    first = report.findings[0]
    assert "thinking" in first.detail and "tool_use_id" not in first.detail
    assert {"one_message", "cap", "returns_answer", "pause_turn"} <= set(report.not_checked)
    assert all("rule 1" in f.detail for f in report.findings if f.status == NOT_CHECKED)


def test_a_cap_above_the_checks_limit_is_named():
    def review(pr, max_iterations=100):
        return styles.review_with(pr, styles.claude, max_turns=max_iterations)

    report = check_loop(review, rules="cap")
    assert report.broken == ["cap"] and "max_iterations=100" in report.findings[0].detail


def test_a_loop_that_merges_without_asking_is_flagged_and_the_learners_gitlab_is_untouched():
    def merge_happy(pr):
        history = [{"role": "user", "content": f"Review MR {pr}."}]
        for _ in range(10):
            response = styles.claude.messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                     tools=styles.TOOL_SPECS, messages=history)
            if response.stop_reason != "tool_use":
                return styles._finish(response)
            history.append({"role": "assistant", "content": response.content})
            results = []
            for block in response.content:
                if block.type == "tool_use" and block.name == "merge_request_merge":
                    styles.repo.mergerequests.get(block.input["mr_id"]).merge()
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": "merged"})
                elif block.type == "tool_use":
                    results.append(styles.execute(block))
            history.append({"role": "user", "content": results})
        raise RuntimeError("cap")

    mine = shared_sandbox().gitlab.merge_requests[485].state
    report = check_loop(merge_happy, rules=["merge_asks"])
    assert report.broken == ["merge_asks"]
    assert shared_sandbox().gitlab.merge_requests[485].state == mine == "opened"


def test_no_request_leaves_for_the_live_api(monkeypatch):
    """With a live key set, the loop's client (built for the live API) still talks only to the sandbox."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-key-that-must-not-be-used")
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    live = anthropic.Anthropic(max_retries=0)

    def review(pr):
        return styles.review_with(pr, live)

    assert check_loop(review, rules=["refusal", "returns_answer"]).ok
    assert str(live.base_url).startswith("https://api.anthropic.com")


def test_the_learners_key_and_token_reach_no_log_and_no_report(monkeypatch, caplog):
    """Every log of the process at DEBUG (the SDK's, httpx2's, urllib3's, the sandbox's) and the report:
    the learner's key and GitLab token are in none of them, even from clients built inside the loop."""
    import logging

    import gitlab

    key, token = "sk-ant-live-key-never-to-be-seen", "glpat-never-to-be-seen"
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    caplog.set_level(logging.DEBUG)

    def review(pr):
        gitlab.Gitlab("http://127.0.0.1:9", private_token=token).projects.get(7, lazy=True).mergerequests.get(pr)
        return styles.review_with(pr, anthropic.Anthropic(api_key=key, base_url="https://api.anthropic.com",
                                                          max_retries=0))

    report = check_loop(review, rules=["refusal", "returns_answer"])
    assert report.ok, report.text()
    assert caplog.records and not any(secret in text for secret in (key, token)
                                      for text in (caplog.text, report.text(), report._repr_html_()))


def test_nothing_observed_is_said_and_nothing_passes():
    def review(pr):
        return "LGTM"

    report = check_loop(review)
    assert report.passed == [] and report.not_checked == list(RULES)
    assert "Nothing to judge" in report.note and "anthropic client" in report.note


def test_a_loop_that_builds_its_own_client_with_its_own_key_is_judged_on_the_sandbox():
    """The constructor of a client made during the run gets the sandbox's address and key: the requests
    reach the check (never the live API, whatever key the loop holds)."""
    def review(pr):
        own = anthropic.Anthropic(api_key="sk-ant-my-own", base_url="https://api.anthropic.com", max_retries=0)
        return styles.review_with(pr, own)

    report = check_loop(review, rules=["refusal", "returns_answer"])
    assert report.ok, report.text()


def test_a_loop_whose_requests_all_get_401_is_told_why_nothing_was_judged():
    def review(pr):
        own = anthropic.Anthropic(max_retries=0, default_headers={"X-Api-Key": "sk-ant-my-own"})
        return styles.review_with(pr, own)

    report = check_loop(review, rules=["refusal"])
    assert report.passed == [] and "401" in report.note, report.text()


@pytest.mark.parametrize("bad, words", [
    (lambda pr, client: None, "needs more"),
    (styles.Reviewer, "not the class"),
    ("review_pull_request", "your loop function"),
])
def test_a_loop_that_cannot_be_called_as_loop_pr_is_a_clear_error(bad, words):
    with pytest.raises(TypeError, match=words):
        check_loop(bad)


def test_rules_and_language_arguments():
    assert [f.rule for f in check_loop(solutions.review_pull_request, rules="refusal").findings] == ["refusal"]
    with pytest.raises(ValueError, match="'cap'"):
        check_loop(solutions.review_pull_request, rules=["cpa"])
    with pytest.raises(ValueError, match="en, ru"):
        check_loop(solutions.review_pull_request, rules="refusal", language="de")


def test_the_report_reads_in_russian_with_russian_plurals():
    report = check_loop(learner_loops.make_loop(breaks="refusal"), rules=["refusal", "cap"], language="ru")
    text = report.text()
    assert text.startswith("Самопроверка") and "Почему это важно" in text and "блокнот 6" in text
    assert "ещё 1 запрос к той же модели" in text or "ещё 2 запроса" in text or "запросов" in text
    assert "(а)" not in text


def test_the_report_is_a_notebook_object_without_a_dataclass_repr():
    report = check_loop(solutions.review_pull_request, rules="refusal")
    assert repr(report) == report.text() and "Report(" not in repr(report)
    html = report._repr_html_()
    assert "<ol" in html and "✔" in html


def test_a_hanging_loop_is_abandoned_and_reported(monkeypatch):
    monkeypatch.setattr(scenario_module, "TIMEOUT", 1.0)
    stop = threading.Event()

    def review(pr):
        styles.claude.messages.create(model="claude-opus-5", max_tokens=100,
                                      messages=[{"role": "user", "content": "hi"}])
        stop.wait(10)  # stuck, not calling the API

    report = check_loop(review, rules=["returns_answer"])
    stop.set()
    assert report.passed == [] and report.broken == ["returns_answer"]
    assert "did not return" in report.findings[0].detail


def test_the_check_leaves_the_learners_clients_as_they_were():
    before = (str(styles.claude.base_url), styles.claude.api_key, styles.repo.manager.gitlab.url)
    check_loop(styles.streaming_loop, rules=["refusal"])
    assert (str(styles.claude.base_url), styles.claude.api_key, styles.repo.manager.gitlab.url) == before


def test_every_rule_has_words_in_both_languages():
    from course_selfcheck.later_rules import words
    for rule in RULES:
        en, ru = words(rule, "en"), words(rule, "ru")
        assert all(en) and all(ru) and en[0] != ru[0]


def test_an_approval_asked_with_input_gets_no_yes_and_the_check_does_not_wait():
    def review(pr):
        history = [{"role": "user", "content": f"Review MR {pr}."}]
        for _ in range(10):
            response = styles.claude.messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                     tools=styles.TOOL_SPECS, messages=history)
            if response.stop_reason != "tool_use":
                return styles._finish(response)
            history.append({"role": "assistant", "content": response.content})
            results = []
            for block in response.content:
                if block.type == "tool_use" and block.name == "merge_request_merge":
                    try:
                        yes = input(f"Merge !{block.input['mr_id']}? [y/N] ").strip().lower() == "y"
                    except EOFError:
                        yes = False
                    if yes:
                        styles.repo.mergerequests.get(block.input["mr_id"]).merge()
                    results.append({"type": "tool_result", "tool_use_id": block.id,
                                    "content": "merged" if yes else "a human said no", "is_error": not yes})
                elif block.type == "tool_use":
                    results.append(styles.execute(block))
            history.append({"role": "user", "content": results})
        raise RuntimeError("cap")

    report = check_loop(review, rules="merge_asks")
    assert report.passed == ["merge_asks"], report.text()


def test_a_tool_error_caught_without_gitlab_is_still_seen():
    def review(pr):
        def failing(block):
            return {"type": "tool_result", "tool_use_id": block.id, "content": "IndexError: no such MR",
                    "is_error": True}
        history = [{"role": "user", "content": f"Review MR {pr}."}]
        for _ in range(10):
            response = styles.claude.messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                     tools=styles.TOOL_SPECS, messages=history)
            if response.stop_reason != "tool_use":
                return styles._finish(response)
            history.append({"role": "assistant", "content": response.content})
            history.append({"role": "user", "content": [failing(b) for b in response.content if b.type == "tool_use"]})
        raise RuntimeError("cap")

    assert check_loop(review, rules="errors_are_results").passed == ["errors_are_results"]


def test_clients_built_during_the_run_from_saved_settings_talk_to_the_checks_sandbox():
    """A client made from a base URL and key saved before the check still reaches only the sandbox: the
    ungated merge is seen (and happens in the scenario's GitLab, not in the learner's)."""
    mine = shared_sandbox().gitlab.merge_requests[485].state
    report = check_loop(styles.gitlab_per_call_merge_loop, rules=["merge_asks", "returns_answer"])
    assert report.broken == ["merge_asks"], report.text()
    assert shared_sandbox().gitlab.merge_requests[485].state == mine == "opened"


def test_a_paused_response_stripped_to_its_text_breaks_pause_turn():
    report = check_loop(styles.pause_text_only_loop, rules="pause_turn")
    assert report.broken == ["pause_turn"], report.text()


def test_a_cut_call_answered_with_an_error_result_was_not_run():
    report = check_loop(styles.cut_call_answered_with_an_error_loop, rules="cut_tool_call")
    assert report.passed == ["cut_tool_call"], report.text()


def test_a_generator_loop_is_told_to_run_the_generator():
    def review(pr):
        yield styles.streaming_loop(pr)

    report = check_loop(review, rules="refusal")
    assert report.passed == [] and "generator" in report.note


def test_clients_of_the_learners_own_subclasses_and_http_clients_are_routed():
    """No client is looked for: a subclass the learner defined, a client given its own httpx2.Client (with
    hooks and a timeout of its own), and a class that cannot even be hashed around it, all reach the check."""
    import httpx2

    class Meta(type):
        def __eq__(cls, other):
            return cls is other

    class Odd(metaclass=Meta):
        pass

    class MyClient(anthropic.Anthropic):
        pass

    seen = []
    odd = Odd()  # noqa: F841 - lives through the check
    mine = MyClient(api_key="sk-ant-x", base_url=styles.DEAD, max_retries=0)
    custom = anthropic.Anthropic(api_key="sk-ant-x", base_url="https://api.anthropic.com", max_retries=0,
                                 http_client=httpx2.Client(timeout=20, event_hooks={"request": [seen.append]}))
    for llm in (mine, custom):
        report = check_loop(lambda pr: styles.review_with(pr, llm), rules=["refusal", "returns_answer"])
        assert report.ok, report.text()
    assert str(custom.base_url).startswith("https://api.anthropic.com") and not seen  # nothing left for the web


def test_a_check_leaves_one_started_sandbox_for_the_next_checks_first_scenario():
    """The first sandbox of a check is the one no scenario runs beside: the last check left it started."""
    check_loop(solutions.review_pull_request, rules="refusal")
    spare = list(scenario_module._spare)
    assert len(spare) == 1 and spare[0].port and spare[0].exchanges == []
    with scenario_module.Sandboxes(expected=2) as sandboxes:
        first = sandboxes.take()
        sandboxes.give_back(first)
    assert first is spare[0]
    assert len(scenario_module._spare) == 1 and scenario_module._spare[0] not in (first, None)


def test_a_loop_that_makes_its_client_during_the_run_gets_the_scenarios_sandbox():
    """make_client() and shared_sandbox() inside the loop reach the scenario's recording sandbox; after the
    check the kernel's own sandbox is the shared one again."""
    from course_agent.client import make_client

    outer, lent = shared_sandbox(), []

    def review(pr):
        lent.append(shared_sandbox())
        return styles.review_with(pr, make_client(max_retries=0))

    report = check_loop(review, rules=["whole_response", "returns_answer"])
    assert report.ok, report.text()
    assert lent and all(s is not outer for s in lent) and lent[0].exchanges is not None
    assert shared_sandbox() is outer


def test_the_sdks_tool_runner_on_a_thread_is_judged_on_the_conversation_the_api_saw():
    """The SDK's tool runner continues a server-held thread and sends only the new messages: the rules read
    the history the API answered (the held one in front), so a correct runner keeps rules 1 and 5."""
    from anthropic import beta_tool

    @beta_tool
    def fetch_mr_diff(mr_id: int) -> str:
        """Fetch the diff of a merge request."""
        return styles.fetch_mr_diff(mr_id)

    @beta_tool
    def get_file_contents(file_path: str, branch: str = "main") -> str:
        """Read a file of the repository."""
        return styles.get_file_contents(file_path, branch)

    def runner_loop(pr):
        runner = styles.claude.beta.messages.tool_runner(
            model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM, max_iterations=10,
            tools=[fetch_mr_diff, get_file_contents], messages=[{"role": "user", "content": f"Review MR {pr}."}])
        *_, last = runner
        return "".join(b.text for b in last.content if b.type == "text")

    report = check_loop(runner_loop, rules=["whole_response", "pause_turn", "returns_answer"])
    assert report.ok, report.text()


def test_exercise_3_a_loop_that_hangs_at_the_cap_is_not_said_to_return(monkeypatch):
    """A loop that blocks instead of raising at its cap: the cap requirement says it did not finish, never that it
    returned None (found by an attack on the graders)."""
    from course_selfcheck.exercises import check_exercise_3

    monkeypatch.setattr(scenario_module, "TIMEOUT", 1.0)
    stop = threading.Event()

    def review(pr, max_iterations=20):
        for _ in range(max_iterations):
            styles.claude.messages.create(model="claude-opus-5", max_tokens=100,
                                          messages=[{"role": "user", "content": f"Review pull request #{pr}."}])
        stop.wait(10)  # at the cap it waits for something that never comes

    report = check_exercise_3(review)
    stop.set()
    said = next(f.detail for f in report.findings if f.rule == "cap_message")
    assert "cap_message" in report.broken and "returned" not in said and "2" in said, report.text()


def test_a_cut_call_run_and_its_result_thrown_away_was_run():
    """Attack 18's H3: the loop runs the cut call in a thread of its own and drops the result. The cut input binds
    (its last value unfinished: !48 for !482), so the call reaches GitLab, and the wire shows it ran (attack 19's H2:
    whatever path runs it)."""
    report = check_loop(styles.cut_call_run_and_dropped_loop, rules="cut_tool_call")
    assert report.broken == ["cut_tool_call"], report.text()
    assert "GitLab got GET " in report.text() and "merge_requests/48" in report.text(), report.text()
