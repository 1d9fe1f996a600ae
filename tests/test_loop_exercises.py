"""The exercises that change the loop (notebooks 3, 4, 6) are graded on the learner's own loop:
the notebook's unchanged loop is "not done yet", the reference passes, nothing passes unseen."""

import learner_loops
import learner_styles as styles
from course_agent import solutions
from course_agent.checks.loop_exercises import check_exercise_3, check_exercise_4, check_exercise_6


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
    assert check_exercise_6(solutions.review_pull_request).ok
    empty = check_exercise_6(None, language="ru")
    assert not empty.ok and empty.passed == [] and empty.note.startswith("Пока не сделано")
    broken = check_exercise_6(learner_loops.make_loop(breaks="pause_turn"))
    assert broken.broken == ["pause_turn"]
