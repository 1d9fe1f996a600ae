"""The self-check lives in `course_selfcheck`; the old path `course_agent.checks` still works, with a warning."""

import subprocess
import sys


def _run(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-c", script],
                          capture_output=True, text=True, timeout=120)


def test_the_new_home_and_the_package_top_import_without_a_warning():
    done = _run("from course_selfcheck import check_loop\n"
                "from course_selfcheck.exercises import check_exercise_7\n"
                "import course_agent\n"
                "assert course_agent.check_loop is check_loop\n")
    assert done.returncode == 0, done.stderr
    assert "DeprecationWarning" not in done.stderr


def test_the_old_path_warns_once_and_gives_the_same_objects():
    done = _run(
        "import course_selfcheck, course_selfcheck.exercises.exercise_7 as new\n"
        "from course_agent.checks import check_loop\n"
        "from course_agent.checks.exercises import check_exercise_8\n"
        "import course_agent.checks.exercises.exercise_7 as old\n"
        "import course_agent.checks.loop_exercises\n"
        "from course_selfcheck.exercises import check_exercise_8 as eight\n"
        "assert old is new and check_loop is course_selfcheck.check_loop and check_exercise_8 is eight\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("DeprecationWarning") == 1, done.stderr
    assert "course_agent.checks moved to course_selfcheck" in done.stderr


def test_both_moved_packages_resolve_side_by_side():
    done = _run("import course_agent.sandbox.server as s, course_agent.checks.scenario as c\n"
                "import course_sandbox.server, course_selfcheck.scenario\n"
                "assert s is course_sandbox.server and c is course_selfcheck.scenario\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("DeprecationWarning") == 2, done.stderr


def test_the_old_path_of_a_module_that_does_not_exist_fails_as_before():
    done = _run("import course_agent.checks.no_such_module")
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr and "course_selfcheck.no_such_module" in done.stderr
