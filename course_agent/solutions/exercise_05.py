"""Exercise 5 (notebook 5), a spoiler: review !482 while read_file always fails.

Written as notebook 5 writes it, with a module-level `project`:

    from course_agent.solutions import exercise_05
    run_tool_missing_file = exercise_05.solve(project)
    check_exercise_5(run_tool_missing_file)
"""

from course_agent.solutions.exercise_02 import diff_of

project = None  # a python-gitlab Project: the notebook's `project`


def run_tool_safely(functions: dict, name: str, tool_input: dict) -> dict:
    """A tool's result; any failure becomes a result the model can read (is_error), never an exception."""
    try:
        return {"content": functions[name](**tool_input)}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


def get_diff(pr: int) -> str:
    return diff_of(project, pr)


def read_file(path: str, ref: str = "main") -> str:
    """For this exercise: every file is missing."""
    raise FileNotFoundError(f"{path} does not exist at {ref}")


def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely of notebook 5, with the read_file that always fails."""
    return run_tool_safely({"get_diff": get_diff, "read_file": read_file}, name, tool_input)


def solve(gitlab_project):
    """Use this project, and hand back the dispatcher (then: print(review_with(482, run_tool_missing_file)))."""
    global project
    project = gitlab_project
    return run_tool_missing_file
