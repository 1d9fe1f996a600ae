"""The loop that keeps every rule of the course at once: the yardstick of the self-check's own tests, not a
notebook's solution (those are in cells/, each at its notebook's level).

Written the way the notebooks write it (module-level `client`, `project`, `TOOLS`, `run_tool`; the project
is fetched lazily, so importing this starts nothing on GitLab): the whole response appended, all results
in one message, tool errors as results (notebook 5's run_tool_safely), a cap whose error names the tool
calls, every stop reason handled, and no merge without a human's yes. `review_pull_request_concurrently`
is the same loop with the calls of a turn run at the same time.

    from course_agent.solutions import complete_loop
    check_loop(complete_loop.review_pull_request)
"""

from concurrent.futures import ThreadPoolExecutor

import gitlab

from course_agent.client import gitlab_settings, make_client
from course_agent.config import model_id
from course_agent.i18n import ntr, tr
from course_agent.review import REVIEW_RULES
from course_agent.safety import ApprovalRequest, default_approver
from course_agent.solutions.exercise_02 import TOOLS as READING_TOOLS
from course_agent.solutions.exercise_02 import diff_of, file_of
from course_agent.solutions.exercise_05 import run_tool_safely
from course_agent.tools import Risk

client = make_client()  # a real anthropic.Anthropic: the offline sandbox, or the live API with a key
url, token, project_path = gitlab_settings()
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path, lazy=True)
MODEL = model_id()

TOOLS = [*READING_TOOLS, {
    "name": "merge_pr", "description": "Merge a merge request into main.",
    "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]},
}]


def get_diff(pr: int) -> str:
    return diff_of(project, pr)


def read_file(path: str, ref: str = "main") -> str:
    return file_of(project, path, ref)


def merge_pr(pr: int) -> str:
    verdict = default_approver()(ApprovalRequest("merge_pr", {"pr": pr}, Risk.DANGEROUS))
    if not verdict.approved:
        raise PermissionError(f"a human denied the merge of !{pr} ({verdict.by})")
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


FUNCTIONS = {"get_diff": get_diff, "read_file": read_file, "merge_pr": merge_pr}


def run_tool(name: str, tool_input: dict) -> dict:
    """A tool's result; any failure becomes a result with is_error, never an exception."""
    return run_tool_safely(FUNCTIONS, name, tool_input)


def run_one_by_one(calls: list) -> list[dict]:
    """The tool_result of every tool_use block of a turn, in the calls' order."""
    return [{"type": "tool_result", "tool_use_id": block.id, **run_tool(block.name, block.input)} for block in calls]


def tool_calls(messages: list) -> list[str]:
    """The names of the tools the assistant messages of a history asked for (SDK blocks or dicts)."""
    return [block["name"] if isinstance(block, dict) else block.name
            for message in messages if message["role"] == "assistant" and isinstance(message["content"], list)
            for block in message["content"] if (block["type"] if isinstance(block, dict) else block.type) == "tool_use"]


def review_pull_request(pr_number: int, max_iterations: int = 20, run_calls=run_one_by_one) -> str:
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
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
            # retrying will not help
            raise RuntimeError(tr("the model refused: {details}", details=response.stop_details))
        if stop == "max_tokens":
            raise RuntimeError(tr("the answer was cut: increase max_tokens (any tool call in it was not run)"))
        if stop == "model_context_window_exceeded":
            raise RuntimeError(tr("the context window is full: start afresh with a shorter history"))
        if stop != "tool_use":
            raise RuntimeError(tr("unexpected stop reason: {stop}", stop=stop))
        messages.append({"role": "assistant", "content": response.content})
        calls = [block for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": run_calls(calls)})  # all results in ONE message
    calls = tool_calls(messages)
    raise RuntimeError(ntr("no answer after {n} iteration: {k} tool calls ({names})",
                           "no answer after {n} iterations: {k} tool calls ({names})", max_iterations,
                           k=len(calls), names=", ".join(sorted(set(calls)))))


def run_all(calls: list) -> list[dict]:
    """Every call of the turn in a thread of its own; pool.map gives the results in the calls' order."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda block: run_tool(block.name, block.input), calls))
    return [{"type": "tool_result", "tool_use_id": block.id, **result}
            for block, result in zip(calls, results, strict=True)]


def review_pull_request_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    return review_pull_request(pr_number, max_iterations, run_calls=run_all)
