"""Notebook 3's project, tools and rules: the code of its cells, for the later notebooks to import.

Written by notebooks/build.py from notebooks/source/shared_cells.py: edit that file, not this one.
"""

import gitlab

from course_agent.client import gitlab_settings

url, token, project_path = gitlab_settings()  # GITLAB_URL / GITLAB_TOKEN / GITLAB_PROJECT, or the sandbox's demo GitLab
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path)


def get_diff(pr: int) -> str:
    """The changes of merge request !pr: title, source branch, description and the diff of every file."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show: read the file instead)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main") -> str:
    """A whole file of the repository, at a branch or commit."""
    return project.files.raw(path, ref=ref).decode("utf-8")


TOOLS = [
    {
        "name": "get_diff",
        "description": "Get the changes of a merge request: title, source branch and the diff of every file.",
        "input_schema": {
            "type": "object",
            "properties": {"pr": {"type": "integer", "description": "The merge request number, e.g. 482."}},
            "required": ["pr"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a whole file from the repository at a branch (default main): the code around a change, "
                       "or the callers of a function the change alters.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file's path from the repository root."},
                "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                         "source_branch shows the changed file."},
            },
            "required": ["path"],
        },
    },
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file}


def run_tool(name: str, tool_input: dict) -> str:
    """An ordinary dispatcher: the tool's name picks the function. Nothing AI about it."""
    return FUNCTIONS[name](**tool_input)


REVIEW_RULES = """You review GitLab merge requests. Start with get_diff. When a change alters a function that is
used elsewhere, read the files that use it with read_file. Cite findings as path:line.
End with a line "Verdict: approve." or "Verdict: request changes."
"""
