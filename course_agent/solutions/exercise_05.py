"""Exercise 5 (notebook 5), a spoiler: review !482 while read_file always fails.

Written as notebook 5 writes it, with a module-level `project`:

    from course_agent.solutions import exercise_05
    run_tool_missing_file = exercise_05.solve(project)
    check_exercise_5(run_tool_missing_file)
"""

import gitlab

project = None  # a python-gitlab Project: the notebook's `project`


def get_diff(pr: int) -> str:
    """The changes of merge request !pr: title, source branch and the diff of every file."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show: read the file instead)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main") -> str:
    """For this exercise: every file is missing."""
    raise FileNotFoundError(f"{path} does not exist at {ref}")


FUNCTIONS = {"get_diff": get_diff, "read_file": read_file}


def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely of notebook 5: a failure becomes a result the model can read, never an exception."""
    try:
        return {"content": FUNCTIONS[name](**tool_input)}
    except gitlab.GitlabError as error:
        return {"content": f"GitLab error {error.response_code}: {error.error_message}", "is_error": True}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


def solve(gitlab_project):
    """Use this project, and hand back the dispatcher (then: print(review(482, run_tool_missing_file)))."""
    global project
    project = gitlab_project
    return run_tool_missing_file
