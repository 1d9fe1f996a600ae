"""The reviewer as notebook 8 leaves it: the take-home cell of notebooks/en/08_full_reviewer.ipynb.

Written by notebooks/build.py from notebooks/source/take_home.en.py.in: edit that file, not this one.
Offline: run `course-agent sandbox` in another terminal, and run the `export` lines it prints in this
one; for the real services, export ANTHROPIC_API_KEY, GITLAB_URL, GITLAB_TOKEN and GITLAB_PROJECT instead.
Then: python examples/en/review_after_08.py
"""

# The reviewer as notebook 8 leaves it, whole, needing only anthropic and python-gitlab: paste it into a notebook
# or a .py file of your own. It reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, when set), GITLAB_URL, GITLAB_TOKEN
# and GITLAB_PROJECT from the environment: your own for the real services, or those `course-agent sandbox` prints.
import os
from concurrent.futures import ThreadPoolExecutor

import anthropic
import gitlab

# the course's model, unless COURSE_AGENT_MODEL names another
MODEL = os.environ.get("COURSE_AGENT_MODEL", "claude-opus-5")
LIMIT = 20_000  # the most characters of a tool result sent to the model

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


def read_file(path: str, ref: str = "main", start: int = 0) -> str:
    """A file of the repository, at a branch or commit, from character `start` on."""
    return project.files.raw(path, ref=ref).decode("utf-8")[start:]


def merge_pr(pr: int) -> str:
    """Merge merge request !pr into main: never run without a human's yes."""
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


TOOLS = [
    {"name": "get_diff", "description": "Get the changes of a merge request: title, source branch and the diff of "
                                        "every file.",
     "input_schema": {"type": "object", "required": ["pr"], "properties": {
         "pr": {"type": "integer", "description": "The merge request number, e.g. 482."}}}},
    {"name": "read_file", "description": "Read a file from the repository at a branch (default main), from "
                                         "character `start` on (default 0, the beginning): the code around a "
                                         "change, or the callers of a function the change alters.",
     "input_schema": {"type": "object", "required": ["path"], "properties": {
         "path": {"type": "string", "description": "The file's path from the repository root."},
         "ref": {"type": "string", "description": "The branch or commit; the diff's source_branch has the change."},
         "start": {"type": "integer", "description": "The character to read from: the start a cut result names."}}}},
    {"name": "merge_pr", "description": "Merge a merge request into main.",
     "input_schema": {"type": "object", "required": ["pr"], "properties": {
         "pr": {"type": "integer", "description": "The number of the merge request to merge, e.g. 482."}}}},
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file, "merge_pr": merge_pr}
DANGEROUS = ["merge_pr"]  # tools that run only after a human's yes

REVIEW_RULES = """You review GitLab merge requests. Start with get_diff. When a change alters a function that is
used elsewhere, read the files that use it with read_file. Cite findings as path:line.
End with a line "Verdict: approve." or "Verdict: request changes."
"""


def ask_human(name: str, tool_input: dict) -> bool:
    """Ask at the keyboard; anything but "yes" is a no, and so is having no one to ask (no terminal)."""
    try:
        return input(f"{name} {tool_input}: run it? [yes/no] ").strip().lower() == "yes"
    except Exception:
        return False


def run_tool(name: str, tool_input: dict) -> str:
    """The dispatcher: the tool's name picks the function."""
    text = FUNCTIONS[name](**tool_input)
    if len(text) <= LIMIT:
        return text
    if name == "read_file":  # the one tool that can read on
        start = tool_input.get("start", 0)
        return (f"{text[:LIMIT]}\n\n[cut: characters {start} to {start + LIMIT} of {start + len(text)}. "
                f"Call read_file with start={start + LIMIT} for the rest.]")
    return f"{text[:LIMIT]}\n\n[cut: the first {LIMIT} of {len(text)} characters; read the files with read_file.]"


def tool_result(call) -> dict:
    """The result of one tool_use block; a tool that fails gives an error result, not an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def approved(approve, name: str, tool_input: dict) -> bool:
    """Only an explicit True is a yes; an approver that fails is a no."""
    try:
        return approve(name, tool_input) is True
    except Exception:
        return False


def denied(call) -> dict:
    """The result of a dangerous call without a yes: an error the model reads; nothing ran."""
    return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
            "content": f"A human denied this call: {call.name} was not run. "
                       "Do not try to do the same thing another way; report it instead."}


def run_all(calls: list, approve) -> list[dict]:
    """The gate first, one question at a time (a person answers one after another); then the allowed calls of
    the turn at once, as in notebook 4, the results in the calls' order."""
    results = {}  # the result of each call, by its tool_use_id
    allowed = []
    for call in calls:
        if call.name in DANGEROUS and not approved(approve, call.name, call.input):
            results[call.id] = denied(call)  # not run: the model reads why
        else:
            allowed.append(call)
    with ThreadPoolExecutor(max_workers=8) as pool:
        for result in pool.map(tool_result, allowed):
            results[result["tool_use_id"]] = result
    return [results[call.id] for call in calls]  # in the calls' order


def billed(usage: list) -> float:
    """Input tokens as billed on MODEL: cache writes at 1.25 times the price, cache reads at 0.1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def review(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    """The loop, every request cached, and what it cost printed at the end."""
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    usage = []
    try:
        for _ in range(max_iterations):
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages, cache_control={"type": "ephemeral"})
            usage.append(response.usage)
            match response.stop_reason:
                case "end_turn" | "stop_sequence":
                    messages.append({"role": "assistant", "content": response.content})  # keep the answer too
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
                    # the gate first, then the allowed calls, concurrently
                    messages.append({"role": "user", "content": run_all(calls, approve)})
                case other:
                    raise RuntimeError(f"Unexpected stop: {other}")
        raise RuntimeError(f"No answer after {max_iterations} iterations")
    finally:  # however the run ends
        print(f"billed input: {billed(usage):.0f} tokens in {len(usage)} calls")


if __name__ == "__main__":  # true when run as a script (python review.py) or in a notebook cell, not when imported
    print(review(482))
