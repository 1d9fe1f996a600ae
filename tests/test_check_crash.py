"""A loop that raises a Python error is reported as a crash first, by check_loop as by the graders: the
exception and the learner's line above the findings, never a rule passed on a run the crash ended; and rules
that share a scenario are judged on one run of the loop."""

import pytest

import learner_styles as styles
from course_selfcheck import BROKEN, NOT_CHECKED, PASSED, check_loop
from course_selfcheck.loop_exercises import check_exercise_6


def crashes_at_once(pr):
    return styles.review_with(pr, styles.claude, max_turns="10")  # range("10"): TypeError before any request


def crashes_on_its_second_tool_call(pr):
    """Runs one tool call right, then reads an attribute that does not exist: the stuck model's second
    request would have been answered by a cap, but this loop has none to show."""
    history = [{"role": "user", "content": f"Review merge request {pr}"}]
    turns = 0
    while True:
        response = styles.claude.messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                 tools=styles.TOOL_SPECS, messages=history)
        if response.stop_reason == "end_turn":
            return styles._finish(response)
        turns += 1
        content = response.content if turns < 2 else response.contents
        history.append({"role": "assistant", "content": content})
        history.append({"role": "user", "content": [styles.execute(b) for b in content if b.type == "tool_use"]})


STEPS = {"tool_use": "go", "end_turn": "done", "refusal": "stop", "max_tokens": "stop"}


async def async_dispatch_loop(pr):
    """An async loop that looks its stop reason up in a table without pause_turn: KeyError there only."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    async with styles.anthropic.AsyncAnthropic(max_retries=0) as client:
        for _ in range(10):
            response = await client.messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                    tools=styles.TOOL_SPECS, messages=history)
            step = STEPS[response.stop_reason]
            if step != "go":
                return styles._finish(response)
            history.append({"role": "assistant", "content": response.content})
            history.append({"role": "user", "content": [styles.execute(b) for b in response.content
                                                        if b.type == "tool_use"]})
    raise RuntimeError("no answer after 10 turns")


@pytest.mark.parametrize("language, header, because", [
    ("en", "your code raised TypeError", "because your code raised TypeError"),
    ("ru", "ваш код выбросил исключение TypeError", "ваш код выбросил исключение TypeError"),
])
def test_a_loop_that_raises_before_any_request_is_a_crash_not_a_missing_client(language, header, because):
    report = check_loop(crashes_at_once, language=language)
    assert report.raised is not None and isinstance(report.raised, TypeError)
    assert header in report.header(), report.text()
    assert "range(" in report.note or "max_turns" in report.note, report.text()  # the learner's own line
    assert "anthropic" not in report.note, report.text()  # no advice about clients that does not fit
    assert report.findings and all(f.status == NOT_CHECKED and because in f.detail for f in report.findings)
    assert header in report._repr_html_()


def test_a_crash_after_the_first_tool_call_never_passes_the_cap():
    report = check_loop(crashes_on_its_second_tool_call, rules="cap")
    assert isinstance(report.raised, AttributeError), report.text()
    assert report.passed == [], report.text()
    assert "contents" in report.note and "because your code raised AttributeError" in report.findings[0].detail


def test_a_crash_in_one_scenario_keeps_the_other_runs_verdicts():
    report = check_loop(async_dispatch_loop, rules=["whole_response", "pause_turn", "returns_answer"])
    assert isinstance(report.raised, KeyError) and "'pause_turn'" in report.note, report.text()
    status = {f.rule: f.status for f in report.findings}
    assert status["whole_response"] == status["returns_answer"] == PASSED, report.text()
    assert status["pause_turn"] in (BROKEN, NOT_CHECKED)


def test_the_exercise_names_the_crash_its_rules_met():
    report = check_exercise_6(async_dispatch_loop, language="en")
    assert report.header() == "Exercise 6: your code raised KeyError", report.text()
    assert "STEPS[response.stop_reason]" in report.note


def test_rules_with_one_scenario_share_one_run_of_the_loop():
    calls = []

    def counted(pr):
        calls.append(pr)
        return styles.review_with(pr, styles.claude)

    report = check_loop(counted, rules=["whole_response", "returns_answer"])
    assert calls == [482] and report.ok, report.text()
    calls.clear()
    report = check_loop(counted, rules=["whole_response", "returns_answer", "cached"])  # cached: the same review
    assert calls == [482], report.text()
    assert report.passed == ["whole_response", "returns_answer"] and report.broken == ["cached"]  # no cache_control
    calls.clear()
    assert check_loop(counted, rules=["whole_response", "cap", "returns_answer"]).ok
    # the shared run and the stuck model's; then, the cap having passed with no cap parameter to read, the
    # wandering model's (is it a repeat detector?) and the pausing model's (does it count every request?)
    assert calls == [482, 482, 482, 482]


def takes_the_first_text(pr):
    """A loop that reads the first text block with next(): on a refusal (no content) it raises StopIteration."""
    history = [{"role": "user", "content": f"Review merge request {pr}"}]
    for _ in range(10):
        response = styles.claude.messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                 tools=styles.TOOL_SPECS, messages=history)
        if response.stop_reason != "tool_use":
            return next(b.text for b in response.content if b.type == "text")
        history.append({"role": "assistant", "content": response.content})
        history.append({"role": "user",
                        "content": [styles.execute(b) for b in response.content if b.type == "tool_use"]})
    raise RuntimeError("cap")


def test_stop_iteration_from_next_is_a_crash_not_a_refusal_handled():
    report = check_loop(takes_the_first_text, rules=["refusal", "returns_answer"])
    assert isinstance(report.raised, StopIteration), report.text()
    assert report.passed == ["returns_answer"] and report.not_checked == ["refusal"], report.text()


def test_a_walk_over_every_message_is_told_why_it_crashed():
    """'str' object has no attribute 'type' in a walk over the messages: the first user message's content is a
    string. The crash report says so (instructor read 58)."""
    from course_agent.solutions import reference, solution_code
    from course_selfcheck.loop_exercises import check_exercise_3

    namespace = reference(3)
    source = solution_code(3).replace('        if message["role"] == "assistant":\n            names +=',
                                         "        names +=")
    assert 'if message["role"]' not in source
    exec(compile(source, "<exercise 3 walked over every message>", "exec"), namespace)
    for language, why in (("en", "the first user message's content is a plain string"),
                          ("ru", "content первого сообщения от user — обычная строка")):
        report = check_exercise_3(namespace["review_pull_request"], language=language)
        assert isinstance(report.raised, AttributeError) and why in report.note, report.text()


def test_a_name_repeated_in_a_quote_is_said_with_its_count():
    from course_selfcheck.report import collapsed

    assert collapsed("20 tool calls (" + ", ".join(["get_diff"] * 20) + ")") == "20 tool calls (get_diff ×20)"
    cut = "20 tool calls (" + ", ".join(["get_diff"] * 19) + ", get_…"
    assert collapsed(cut) == "20 tool calls (get_diff, get_diff, get_diff, …"
    assert collapsed("4 tool calls (get_diff, get_diff, read_file, read_file)").endswith("read_file, read_file)")
