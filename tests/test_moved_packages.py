"""Two packages moved out of `course_agent`: the sandbox (`course_sandbox`) and the self-check
(`course_selfcheck`). Their new homes import without a warning; each old path still works, with one
DeprecationWarning, and gives the very same module objects (course_agent.moved serves both)."""

import subprocess
import sys

import pytest


def _run(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-c", script],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("script", [
    "import course_sandbox.demo_gitlab.project; from course_sandbox import Sandbox, Faults",
    "from course_selfcheck import check_loop\n"
    "from course_selfcheck.exercises import check_exercise_7\n"
    "import course_agent\n"
    "from course_agent import make_client, Toolbox\n",
    "from course_shared.hunks import hunks\nimport course_sandbox.demo_gitlab.positions\n",
], ids=["course_sandbox", "course_selfcheck", "course_shared"])
def test_the_new_homes_import_without_a_warning(script):
    done = _run(script)
    assert done.returncode == 0, done.stderr
    assert "DeprecationWarning" not in done.stderr


@pytest.mark.parametrize("script, moved", [
    ("import course_sandbox, course_sandbox.simulated_model.reviewer as new\n"
     "from course_agent.sandbox import Sandbox\n"
     "import course_agent.sandbox.simulated_model.reviewer as old\n"
     "from course_agent.sandbox.demo_gitlab import PROJECT_ID\n"
     "assert old is new and Sandbox is course_sandbox.Sandbox and PROJECT_ID\n",
     "course_agent.sandbox moved to course_sandbox"),
    ("import course_selfcheck, course_selfcheck.exercises.exercise_7 as new\n"
     "from course_agent.checks import check_loop\n"
     "from course_agent.checks.exercises import check_exercise_8\n"
     "import course_agent.checks.exercises.exercise_7 as old\n"
     "import course_agent.checks.loop_exercises\n"
     "from course_selfcheck.exercises import check_exercise_8 as eight\n"
     "assert old is new and check_loop is course_selfcheck.check_loop and check_exercise_8 is eight\n",
     "course_agent.checks moved to course_selfcheck"),
    ("import course_agent\nfrom course_selfcheck import check_loop\n"
     "assert course_agent.check_loop is check_loop\n",
     "course_agent.check_loop moved to course_selfcheck"),
    ("import course_shared.hunks as new\nfrom course_agent.hunks import hunks, hunk_lines\n"
     "assert hunks is new.hunks and hunk_lines is new.hunk_lines\n",
     "course_agent.hunks moved to course_shared.hunks"),
], ids=["course_sandbox", "course_selfcheck", "check_loop", "hunks"])
def test_the_old_path_warns_once_and_gives_the_same_objects(script, moved):
    done = _run(script)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("DeprecationWarning") == 1, done.stderr
    assert moved in done.stderr and "goes in course-agent 0.3" in done.stderr


def test_both_moved_packages_resolve_side_by_side():
    done = _run("import course_agent.sandbox.server as s, course_agent.checks.scenario as c\n"
                "import course_sandbox.server, course_selfcheck.scenario\n"
                "assert s is course_sandbox.server and c is course_selfcheck.scenario\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("DeprecationWarning") == 2, done.stderr


@pytest.mark.parametrize("old, new", [("course_agent.sandbox", "course_sandbox"),
                                      ("course_agent.checks", "course_selfcheck")])
def test_the_old_path_of_a_module_that_does_not_exist_fails_as_before(old, new):
    done = _run(f"import {old}.no_such_module")
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr and f"{new}.no_such_module" in done.stderr
