"""The reviewer as notebook 6 leaves it: the take-home cell of notebooks/en/06_stop_reasons.ipynb.

Written by notebooks/build.py from notebooks/source/take_home.en.py.in: edit that file, not this one.
Offline: run `course-agent sandbox` in another terminal, and run the `export` lines it prints in this
one; for the real services, export ANTHROPIC_API_KEY, GITLAB_URL, GITLAB_TOKEN and GITLAB_PROJECT instead.
Then: python examples/en/review_after_06.py
"""

# The reviewer as notebook 6 leaves it, whole, needing only anthropic and python-gitlab: paste it into a notebook
# or a .py file of your own. It reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, when set), GITLAB_URL, GITLAB_TOKEN
# and GITLAB_PROJECT from the environment: your own for the real services, or those `course-agent sandbox` prints.
import os
from concurrent.futures import ThreadPoolExecutor

import anthropic
import gitlab

# the course's model, unless COURSE_AGENT_MODEL names another
MODEL = os.environ.get("COURSE_AGENT_MODEL", "claude-opus-5")

client = anthropic.Anthropic()  # the key (and the address, when set) from the environment
project = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"]).projects.get(
    os.environ["GITLAB_PROJECT"])


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
    {"name": "get_diff", "description": "Get the changes of a merge request: title, source branch and the diff of "
                                        "every file.",
     "input_schema": {"type": "object", "required": ["pr"], "properties": {
         "pr": {"type": "integer", "description": "The merge request number, e.g. 482."}}}},
    {"name": "read_file", "description": "Read a file from the repository at a branch (default main): the code "
                                         "around a change, or the callers of a function the change alters.",
     "input_schema": {"type": "object", "required": ["path"], "properties": {
         "path": {"type": "string", "description": "The file's path from the repository root."},
         "ref": {"type": "string", "description": "The branch or commit; the diff's source_branch has the change."}}}},
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file}

REVIEW_RULES = """You review GitLab merge requests. Start with get_diff. When a change alters a function that is
used elsewhere, read the files that use it with read_file. Cite findings as path:line.
End with a line "Verdict: approve." or "Verdict: request changes."
"""


def run_tool(name: str, tool_input: dict) -> str:
    """The dispatcher: the tool's name picks the function."""
    return FUNCTIONS[name](**tool_input)


def tool_result(call) -> dict:
    """The result of one tool_use block; a tool that fails gives an error result, not an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def review(pr_number: int, max_iterations: int = 20) -> str:
    """The loop, with every stop reason handled on purpose: a refusal ends the run, saying why (stop_details)."""
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        match response.stop_reason:
            case "end_turn" | "stop_sequence":
                messages.append({"role": "assistant", "content": response.content})  # keep the answer in the history
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "pause_turn":  # the same turn goes on: no new user message
                messages.append({"role": "assistant", "content": response.content})
            case "refusal":  # never the same request to the same model again: stop, and say why
                raise RuntimeError(f"The model refused: {response.stop_details}")
            case "max_tokens":  # a cut tool call never runs
                raise RuntimeError("The answer was cut (max_tokens): any tool call in it was not run")
            case "model_context_window_exceeded":  # nor does one cut here
                raise RuntimeError("The context window is full: start afresh with a shorter history")
            case "tool_use":
                messages.append({"role": "assistant", "content": response.content})  # the whole response
                calls = [block for block in response.content if block.type == "tool_use"]
                with ThreadPoolExecutor(max_workers=8) as pool:  # at once, as in notebook 4
                    results = list(pool.map(tool_result, calls))
                messages.append({"role": "user", "content": results})  # all results in ONE message
            case other:
                raise RuntimeError(f"Unexpected stop: {other}")
    raise RuntimeError(f"No answer after {max_iterations} iterations")


if __name__ == "__main__":  # true when run as a script (python review.py) or in a notebook cell, not when imported
    print(review(482))
