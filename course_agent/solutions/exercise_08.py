"""Exercise 8 (notebook 8), a spoiler: your loop with caching, its cost read from `usage`, and a tool
result cut at 20,000 characters that says it was cut and how to read the rest.

    from course_agent.solutions.exercise_08 import review_with_cost
    check_exercise_8(review_with_cost)

Below it, the older exercise: the course's reviewer on all six demo merge requests (`rows = solve(client)`).
"""

from course_agent.i18n import language as course_language, ntr, tr
from course_agent.review import review, reviewer_toolbox
from course_agent.solutions import TOOLS, run_tool
from course_agent.solutions.exercise_06 import review_every_stop

LIMIT = 20_000
"""Characters of a result the model gets at once; it asks for the rest with `start`."""
READ_FROM = {"name": "read_file", "description": "Read a file from the repository at a branch (default main), "
             f"{LIMIT} characters at a time; `start` skips that many characters.",
             "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"},
                                                               "start": {"type": "integer"}}, "required": ["path"]}}
CUT_TOOLS = [READ_FROM if tool["name"] == "read_file" else tool for tool in TOOLS]


def run_cut(name: str, tool_input: dict) -> dict:
    """run_tool, with read_file's text cut at LIMIT characters and a note saying so."""
    if name != "read_file":
        return run_tool(name, tool_input)
    asked = {key: value for key, value in tool_input.items() if key != "start"}  # the history keeps the input as sent
    start = tool_input.get("start") or 0
    result = run_tool(name, asked)
    text = result["content"][start:]
    if result.get("is_error") or len(text) <= LIMIT:
        return {**result, "content": text}
    note = tr("[cut: characters {start} to {end} of {size}. Call read_file with start={end} for the rest.]",
              start=start, end=start + LIMIT, size=start + len(text))
    return {"content": text[:LIMIT] + "\n\n" + note}


def billed(usage):
    """Input tokens as billed: cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def review_with_cost(pr_number: int, max_iterations: int = 20) -> str:
    usage: list = []
    text = review_every_stop(pr_number, max_iterations, tools=CUT_TOOLS, run_tool=run_cut, usage=usage,
                             cache_control={"type": "ephemeral"})  # automatic caching: the whole prefix, every call
    print(ntr("billed input: {billed} tokens in {n} call", "billed input: {billed} tokens in {n} calls", len(usage),
              billed=f"{billed(usage):.0f}"))
    return text


# The older exercise: the course's reviewer on the six demo merge requests, one row each.
def verdict_of(text: str) -> str:
    """The review's last line, "Verdict: request changes." -> "request changes"."""
    last = text.strip().splitlines()[-1]
    return last.split(":", 1)[-1].strip().rstrip(".")


def solve(client, gitlab_tools=None, language: str | None = None):
    """One row per merge request: (pr, verdict, model calls, billed input tokens)."""
    rows = []
    for pr in range(482, 488):
        toolbox = reviewer_toolbox(gitlab_tools) if gitlab_tools is not None else None
        result = review(pr, client=client, toolbox=toolbox, cache=True, language=course_language(language))
        rows.append((pr, verdict_of(result.text), result.iterations, billed(result.usage)))
    for pr, verdict, calls, billed_input in rows:
        print(f"!{pr}  {verdict:18}  {calls} calls  {billed_input:7.0f} billed input tokens")
    costliest = max(rows, key=lambda row: row[3])
    print(f"most expensive: !{costliest[0]} ({costliest[3]:.0f} billed input tokens); compare its usage with the others'")
    return rows
