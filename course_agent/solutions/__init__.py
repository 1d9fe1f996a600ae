"""Reference solution of the notebooks' exercises (a spoiler: try yours first).

The lesson's loop, written the way the notebooks write it (module-level `client`, `project`,
`TOOLS`, `run_tool`; the project is fetched lazily, so importing this starts nothing on GitLab), with every rule kept: the whole response appended, all results in one
message, tool errors as results, a cap, every stop reason handled, and no merge without a
human's yes. `course_agent.checks.check_loop(review_pull_request)` passes on it.
"""

from concurrent.futures import ThreadPoolExecutor

import gitlab

from ..client import gitlab_settings, make_client
from ..config import model_id
from ..i18n import ntr, tr
from ..review import REVIEW_RULES
from ..safety import ApprovalRequest, default_approver
from ..tools import Risk

client = make_client()  # a real anthropic.Anthropic: the offline sandbox, or the live API with a key
url, token, project_path = gitlab_settings()
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path, lazy=True)
MODEL = model_id()

TOOLS = [
    {"name": "get_diff", "description": "Get the changes of a merge request: title, source branch and the diff.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
    {"name": "read_file", "description": "Read a whole file from the repository at a branch (default main).",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
                      "required": ["path"]}},
    {"name": "merge_pr", "description": "Merge a merge request into main.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
]


def get_diff(pr: int) -> str:
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show: read the file instead)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main") -> str:
    return project.files.raw(path, ref=ref).decode("utf-8")


def merge_pr(pr: int) -> str:
    verdict = default_approver()(ApprovalRequest("merge_pr", {"pr": pr}, Risk.DANGEROUS))
    if not verdict.approved:
        raise PermissionError(f"a human refused to merge !{pr} ({verdict.by})")
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


FUNCTIONS = {"get_diff": get_diff, "read_file": read_file, "merge_pr": merge_pr}


def run_tool(name: str, tool_input: dict) -> dict:
    """A tool's result; any failure becomes a result with is_error, never an exception."""
    try:
        return {"content": FUNCTIONS[name](**tool_input)}
    except gitlab.GitlabError as error:
        return {"content": f"GitLab error {error.response_code}: {error.error_message}", "is_error": True}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


def review_pull_request(pr_number: int, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        stop = response.stop_reason
        if stop in ("end_turn", "stop_sequence"):
            return "\n".join(block.text for block in response.content if block.type == "text")
        if stop == "pause_turn":
            messages.append({"role": "assistant", "content": response.content})  # and no new user message
            continue
        if stop == "refusal":
            raise RuntimeError(tr("the model refused: {details}", details=response.stop_details))  # retrying will not help
        if stop == "max_tokens":
            raise RuntimeError(tr("the answer was cut: raise max_tokens (the cut tool call was not run)"))
        if stop != "tool_use":
            raise RuntimeError(tr("unexpected stop reason: {stop}", stop=stop))
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": block.id, **run_tool(block.name, block.input)}
            for block in response.content if block.type == "tool_use"
        ]})
    calls = [block["name"] if isinstance(block, dict) else block.name
             for message in messages if message["role"] == "assistant" and isinstance(message["content"], list)
             for block in message["content"] if (block["type"] if isinstance(block, dict) else block.type) == "tool_use"]
    raise RuntimeError(ntr("no answer after {n} iteration: {k} tool calls ({names})",
                           "no answer after {n} iterations: {k} tool calls ({names})", max_iterations,
                           k=len(calls), names=", ".join(sorted(set(calls)))))


def review_pull_request_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    """Notebook 4's exercise: the calls of a turn run at the same time, their results in the calls' order."""
    messages = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(max_iterations):
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages)
            if response.stop_reason in ("end_turn", "stop_sequence"):
                return "\n".join(block.text for block in response.content if block.type == "text")
            if response.stop_reason == "pause_turn":
                messages.append({"role": "assistant", "content": response.content})
                continue
            if response.stop_reason != "tool_use":
                raise RuntimeError(tr("stopped: {stop}", stop=response.stop_reason))
            messages.append({"role": "assistant", "content": response.content})
            calls = [block for block in response.content if block.type == "tool_use"]
            results = pool.map(lambda block: run_tool(block.name, block.input), calls)  # map keeps the order
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": block.id, **result} for block, result in zip(calls, results)
            ]})
    raise RuntimeError(ntr("no answer after {n} iteration", "no answer after {n} iterations", max_iterations))


def show_solution(notebook: int) -> None:
    """Print the reference solution of a notebook's exercise (a spoiler: try yours first)."""
    import importlib
    import inspect

    loops = {3: review_pull_request, 4: review_pull_request_concurrently, 6: review_pull_request}
    if notebook in loops:
        print(inspect.getsource(loops[notebook]))
        return
    try:
        module = importlib.import_module(f"{__name__}.exercise_{notebook:02d}")
    except ModuleNotFoundError:
        raise ValueError(f"there is no exercise solution for notebook {notebook}: choose 1 to 8") from None
    print(inspect.getsource(module))
