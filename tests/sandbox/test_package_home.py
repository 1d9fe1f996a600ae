"""The sandbox lives in `course_sandbox`; the old path `course_agent.sandbox` still works, with a warning."""

import subprocess
import sys


def _run(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-c", script],
                          capture_output=True, text=True, timeout=120)


def test_the_new_home_imports_without_a_warning():
    done = _run("import course_sandbox.demo_gitlab.project; from course_sandbox import Sandbox, Faults")
    assert done.returncode == 0, done.stderr
    assert "DeprecationWarning" not in done.stderr


def test_the_old_path_warns_and_gives_the_same_objects():
    done = _run(
        "import course_sandbox, course_sandbox.simulated_model.reviewer as new\n"
        "from course_agent.sandbox import Sandbox\n"
        "import course_agent.sandbox.simulated_model.reviewer as old\n"
        "from course_agent.sandbox.demo_gitlab import PROJECT_ID\n"
        "assert old is new and Sandbox is course_sandbox.Sandbox and PROJECT_ID\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("DeprecationWarning") == 1, done.stderr
    assert "course_agent.sandbox moved to course_sandbox" in done.stderr


def test_the_old_path_of_a_module_that_does_not_exist_fails_as_before():
    done = _run("import course_agent.sandbox.no_such_module")
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr and "course_sandbox.no_such_module" in done.stderr
