"""The exercises that change the loop (notebooks 3, 4, 6) are graded on the learner's own loop:
the notebook's unchanged loop is "not done yet", the reference passes, nothing passes unseen."""

import learner_loops
import learner_styles as styles
from course_agent import solutions
from course_agent.checks import check_loop
from course_agent.checks.loop_exercises import check_exercise_3, check_exercise_4, check_exercise_6
from course_agent.solutions import exercise_06


def test_exercise_3_wants_the_tool_calls_named_in_the_caps_error():
    assert check_exercise_3(solutions.review_pull_request).ok
    unchanged = check_exercise_3(learner_loops.make_loop())  # raises "too many iterations"
    assert not unchanged.ok and unchanged.note.startswith("Not done yet")
    assert unchanged.findings[0].status == "broken" and "get_diff" in unchanged.findings[0].detail


def test_exercise_4_sees_whether_the_calls_ran_at_the_same_time():
    assert check_exercise_4(solutions.review_pull_request_concurrently).ok
    assert check_exercise_4(styles.async_loop).ok  # asyncio.gather over threads counts too
    one_by_one = check_exercise_4(solutions.review_pull_request)
    assert not one_by_one.ok and "one after another" in one_by_one.findings[0].detail


def test_exercise_6_is_the_stop_reason_rules_and_a_placeholder_is_not_done():
    assert check_exercise_6(exercise_06.review_every_stop).ok
    no_fallback = check_exercise_6(solutions.review_pull_request)  # stops at the first refusal: no fallback model
    assert no_fallback.broken == ["fallback"]
    empty = check_exercise_6(None, language="ru")
    assert not empty.ok and empty.passed == [] and empty.note.startswith("Пока не сделано")
    broken = check_exercise_6(learner_loops.make_loop(breaks="pause_turn"))  # and, like every make_loop, no fallback
    assert broken.broken == ["pause_turn", "fallback"]


def test_a_client_the_loop_builds_on_its_first_call_is_pointed_at_every_later_scenario():
    """A loop that builds its client once, on its first call, and keeps it (a cached factory, a lazy
    global) builds it during the grader's first scenario; by the next ones it is an old object (the
    collection below makes sure), and must still be pointed at each scenario's own sandbox; after the
    check it is the loop's own client again, not one pointed at a stopped sandbox."""
    import gc

    import anthropic

    kept = {}

    def loop(pr):
        if "client" not in kept:
            kept["client"] = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=styles.DEAD, max_retries=0)
            gc.collect()  # now in the oldest generation, as a client kept for minutes would be
        history = [{"role": "user", "content": f"Please review MR !{pr}"}]
        for _ in range(15):
            response = kept["client"].messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                      tools=styles.TOOL_SPECS, messages=history)
            state, text = styles._decide(response, history)
            if state == "done":
                return text
        raise RuntimeError("iteration limit")

    report = check_loop(loop, rules=["pause_turn", "refusal", "cut_tool_call", "returns_answer", "cap"])
    assert [f.status for f in report.findings].count("not_checked") == 0, report
    assert report.ok, report
    # once the check is over, the loop's own client talks where the loop built it to talk again
    assert (str(kept["client"].base_url).rstrip("/"), kept["client"].api_key) == (styles.DEAD, "sk-ant-not-a-key")
    kept.clear()
    report = check_exercise_3(lambda pr, max_iterations=20: loop(pr))
    assert all(f.status != "not_checked" for f in report.findings[1:]), report
