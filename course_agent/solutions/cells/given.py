# What a notebook has defined when its loop exercise starts (its setup, gitlab, tools and review_rules cells,
# and from notebook 7 on the gate's tools), in English: the reference solutions run on top of it, in one
# namespace, as in the notebook. tests/test_solutions.py holds it to the notebooks' shared cells.

import gitlab

from course_agent.client import gitlab_settings, make_client
from course_agent.config import model_id

client = make_client()
MODEL = model_id()

url, token, project_path = gitlab_settings()
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path, lazy=True)

REVIEW_RULES = """You review GitLab merge requests. Start with get_diff. When a change alters a function that is
used elsewhere, read the files that use it with read_file. Cite findings as path:line.
End with a line "Verdict: approve." or "Verdict: request changes."
"""


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


# %% from notebook 7 on
MERGE = {"name": "merge_pr", "description": "Merge a merge request into main.",
         "input_schema": {"type": "object", "required": ["pr"], "properties": {
             "pr": {"type": "integer", "description": "The number of the merge request to merge, e.g. 482."}}}}
DANGEROUS = ["merge_pr"]


def merge_pr(pr: int) -> str:
    """Merge merge request !pr into main: the tool that must never run without a human's yes."""
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


FUNCTIONS["merge_pr"] = merge_pr
TOOLS = TOOLS[:2] + [MERGE]  # notebook 3's two tools, then merge_pr (the same when this cell runs again)


def ask_human(name: str, tool_input: dict) -> bool:
    """Ask in the notebook; anything but "yes" is a no, and so is having no one to ask (input() raises)."""
    try:
        return input(f"{name} {tool_input}: run it? [yes/no] ").strip().lower() == "yes"
    except Exception:
        return False


# %% from notebook 8 on
def read_file(path: str, ref: str = "main", start: int = 0) -> str:
    """A file of the repository from character `start` on: after a cut, `start` reads the rest."""
    return project.files.raw(path, ref=ref).decode("utf-8")[start:]


READ_FILE = {
    "name": "read_file",
    "description": "Read a file from the repository at a branch (default main), from character `start` on (default "
                   "0, the beginning): the code around a change, or the callers of a function the change alters.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file's path from the repository root."},
            "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                     "source_branch shows the changed file."},
            "start": {"type": "integer", "description": "The character to read from: the start a cut result names."},
        },
        "required": ["path"],
    },
}
FUNCTIONS["read_file"] = read_file  # run_tool picks the function from FUNCTIONS: now this one
TOOLS = [READ_FILE if tool["name"] == "read_file" else tool for tool in TOOLS]


def billed(usage):
    """Input tokens as billed on Opus 5: 5-minute cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


LIMIT = 20_000


# %% from notebook 9 on
from course_agent.review import review  # noqa: E402, F401 (what notebook 9 imports, where it does)
