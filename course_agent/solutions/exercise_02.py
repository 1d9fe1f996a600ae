"""Exercise 2 (notebook 2), a spoiler: a second tool, read_file, and steps 1 to 4 repeated until end_turn.

    from course_agent.solutions import exercise_02
    TOOLS, exercise_messages = exercise_02.solve(client, project)
    check_exercise_2(TOOLS, exercise_messages)

The tools written here (TOOLS, diff_of, file_of) are the ones every later reference solution uses.
"""

from functools import partial

from course_agent.config import model_id
from course_agent.i18n import language as course_language


def diff_of(project, pr: int) -> str:
    """The changes of merge request !pr: title, source branch, description and the diff of every file."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show: read the file instead)")
    return "\n".join(parts)


def file_of(project, path: str, ref: str = "main") -> str:
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
        "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the "
                       "code that calls a function the merge request changes.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
                "ref": {"type": "string", "description": "Branch or commit; the merge request's source branch "
                                                         "to see the file as changed."},
            },
            "required": ["path"],
        },
    },
]


def solve(client, project, language: str | None = None):
    """Review !482 with get_diff and read_file, one step at a time; return (TOOLS, the whole history)."""
    functions = {"get_diff": partial(diff_of, project), "read_file": partial(file_of, project)}
    task = "Проверь merge request !482." if course_language(language) == "ru" else "Review merge request !482."
    messages = [{"role": "user", "content": task}]
    # Steps 1 to 4 of the notebook, again and again until the model is done (at most 10 times:
    # notebook 3 turns exactly this into the agent loop, with a cap).
    for call in range(1, 11):
        response = client.messages.create(model=model_id(), max_tokens=4000, tools=TOOLS, messages=messages)
        messages.append({"role": "assistant", "content": response.content})  # the response, whole
        print(call, response.stop_reason, [block.name for block in response.content if block.type == "tool_use"])
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                print("   ", block.name, block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": functions[block.name](**block.input)})
        messages.append({"role": "user", "content": results})  # all results of the turn in ONE message
    print("\n".join(block.text for block in response.content if block.type == "text"))  # text blocks by type
    return TOOLS, messages
