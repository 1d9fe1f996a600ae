"""Exercise 8 in two steps, as notebook 8 asks for it: step 1 the cut (check_exercise_8(loop, step=1)), step 2
caching and the bill, checked with everything by the default call. The default keeps grading the whole exercise, and a
step that is neither 1 nor 2 is an error, never a lighter check."""

import pytest

import grader_attempts as attempts
import learner_loops
from course_agent.solutions import reference
from course_selfcheck.exercises import check_exercise_8
from course_selfcheck.exercises.exercise_8 import LOOP_RULES, STEP_1_RULES

STEP_1_ONLY = attempts.attempt(cache=None, bill=None)
"""A loop grown through step 1 only: results cut and said so, every earlier rule and the gate kept, no caching and no
bill yet."""


def test_step_1_is_the_whole_exercise_but_caching_and_the_bill():
    assert STEP_1_RULES == [rule for rule in LOOP_RULES if rule not in ("cached", "bill")]
    assert "cut_result" in STEP_1_RULES and "returns_answer" in STEP_1_RULES


@pytest.mark.parametrize("language, title", [("en", "Exercise 8, step 1: "), ("ru", "Упражнение 8, шаг 1: ")])
def test_the_reference_passes_step_1_and_the_whole(language, title, capsys):
    loop = reference(8, language)["review_with_cost"]
    first = check_exercise_8(loop, language=language, step=1)
    assert first.ok and first.header().startswith(title), first.text()
    assert {"cut_result", *STEP_1_RULES[:4]} <= set(first.passed), first.text()
    assert not {"cached", "bill"} & {f.rule for f in first.findings}, first.text()
    assert check_exercise_8(loop, language=language).ok


def test_a_loop_grown_through_step_1_only_passes_step_1_and_not_the_whole_exercise(capsys):
    first = check_exercise_8(STEP_1_ONLY, step=1)
    assert first.ok, first.text()
    whole = check_exercise_8(STEP_1_ONLY)
    assert not whole.ok and set(whole.broken) == {"cached", "bill"}, whole.text()


@pytest.mark.parametrize("language, note", [
    ("en", "Not done yet: cut oversized results and say so (see"),
    ("ru", "Пока не сделано: обрезайте слишком большие результаты и говорите об этом (см.")])
def test_step_1_fails_a_silent_cut_and_says_so(language, note, capsys):
    report = check_exercise_8(attempts.attempt("silent_cut", cache=None, bill=None), language=language, step=1)
    assert not report.ok and report.broken == ["cut_result"], report.text()
    assert report.note.startswith(note), report.text()
    assert next(f for f in report.findings if f.rule == "cut_result").task, report.text()


def test_step_1_keeps_nothing_for_later_and_the_whole_check_does(monkeypatch, capsys):
    from course_selfcheck.exercises import loops

    kept = []
    monkeypatch.setattr(loops, "keep", lambda number, loop, text=None: kept.append(number))
    loop = reference(8)["review_with_cost"]
    assert check_exercise_8(loop, step=1).ok and kept == []
    assert check_exercise_8(loop).ok and kept == [8]


@pytest.mark.parametrize("language, title", [("en", "Exercise 8, step 1: not done yet"),
                                             ("ru", "Упражнение 8, шаг 1: пока не сделано")])
def test_step_1_untouched_is_not_done_yet(language, title):
    for loop in (None, learner_loops.placeholder_loop):
        report = check_exercise_8(loop, language=language, step=1)
        assert not report.ok and report.findings == [] and report.passed == [], report.text()
        assert report.text().startswith(title), report.text()


def test_any_other_step_fails_closed():
    for step in (0, 3, "1", None):
        with pytest.raises(ValueError):
            check_exercise_8(None, step=step)
    with pytest.raises(ValueError):  # the rows of the older form have no steps
        check_exercise_8([(482, "approve", 2, 100.0)], step=1)


def test_the_demo_data_version_is_hashed_once_and_again_when_a_file_changes(tmp_path, monkeypatch):
    """demo_data_version reads the demo project's files once per process; a file changed (its size or mtime) is seen,
    and its digest changes."""
    import os
    from pathlib import Path

    import course_sandbox.demo_gitlab
    from course_selfcheck.exercises.exercise_8 import demo_data_version

    (tmp_path / "project" / "mr").mkdir(parents=True)
    changed = tmp_path / "project" / "mr" / "482.json"
    changed.write_text('{"title": "one"}')
    monkeypatch.setattr(course_sandbox.demo_gitlab, "__file__", str(tmp_path / "demo_gitlab.py"))
    reads = []
    read_bytes = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or read_bytes(self))
    first = demo_data_version()
    assert demo_data_version() == first and len(reads) == 1
    changed.write_text('{"title": "two"}')
    os.utime(changed, ns=(changed.stat().st_atime_ns, changed.stat().st_mtime_ns + 10**9))
    assert demo_data_version() != first and len(reads) == 2
