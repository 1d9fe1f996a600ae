"""The self-check: a correct loop passes every rule; a loop that breaks one rule is flagged for it alone."""

import pytest

import learner_loops
from course_agent import solutions
from course_agent.checks import CHECKS, RULES, check_loop

client = None  # the module-level client that the check repoints, as in a notebook


@pytest.fixture(autouse=True)
def reset_solutions():
    yield
    solutions.project = None
    solutions.client = None


def test_the_reference_solution_passes_everything():
    report = check_loop(solutions.review_pull_request, show=False)
    assert [f.status for f in report.findings] == ["passed"] * len(CHECKS)


@pytest.mark.parametrize("rule", list(CHECKS))
def test_each_broken_rule_is_flagged_alone(rule):
    report = check_loop(learner_loops.make_loop(breaks=rule), show=False)
    assert report.broken == [rule], report.text()


def test_the_check_leaves_the_learners_globals_as_they_were():
    solutions.client = "mine"
    try:
        check_loop(solutions.review_pull_request, rules=["refusal"], show=False)
        assert solutions.client == "mine" and solutions.project is None
    finally:
        solutions.client = None


@pytest.mark.parametrize("language, first", [("en", "Self-check of review_pull_request"),
                                              ("ru", "Самопроверка review_pull_request")])
def test_the_report_reads_in_both_languages(language, first, capsys):
    report = check_loop(learner_loops.make_loop(breaks="refusal"), rules=["refusal", "cap"], language=language)
    printed = capsys.readouterr().out
    assert printed.startswith(first) and printed == report.text() + "\n"
    assert ("Why it matters" if language == "en" else "Почему это важно") in printed
    assert ("notebook 6" if language == "en" else "блокнот 6") in printed


def test_a_hanging_loop_is_abandoned_and_reported(monkeypatch):
    import threading
    from course_agent import checks
    monkeypatch.setattr(checks, "TIMEOUT", 0.5)
    stop = threading.Event()

    def review_pull_request(pr_number):
        client.messages.create(model="claude-opus-5", max_tokens=100, messages=[
            {"role": "user", "content": "hi"}])
        stop.wait(5)  # stuck, not calling the API

    report = check_loop(review_pull_request, rules=["errors_are_results"], show=False)
    stop.set()
    assert report.broken == ["errors_are_results"] and "did not finish" in report.findings[0].detail


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown rules"):
        check_loop(solutions.review_pull_request, rules=["speed"])
    with pytest.raises(TypeError, match="your loop function"):
        check_loop("review_pull_request")


def test_every_rule_has_words_in_both_languages():
    assert set(RULES) == set(CHECKS)
