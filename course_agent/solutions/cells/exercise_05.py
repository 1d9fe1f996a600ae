# Exercise 5: the loop of exercise 4, in which a failing tool never ends the run: tool_result catches whatever the tool
# raises (GitLab's 404, a missing file, a call without its arguments, a tool that does not exist) and sends it back to
# the model as that call's result, with is_error. It uses the notebook's client, MODEL, TOOLS, run_tool and
# REVIEW_RULES.
from concurrent.futures import ThreadPoolExecutor


def tool_calls(messages: list) -> list[str]:
    """As in exercises 3 and 4: the name of every tool the model asked for so far, in order."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def tool_result(call) -> dict:
    """The tool_result block that answers one call: a failure too, with is_error, never an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:  # any failure of the tool is the model's to read
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def run_all(calls: list) -> list[dict]:
    """As run_all in notebook 4's demo, without its `answer` parameter (there for the demo's slow tool): every
    tool_use of a turn in a thread of its own, the results in order, each from tool_result as defined when it runs."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tool_result, calls))


def review_safely(pr_number: int, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        messages.append({"role": "assistant", "content": response.content})

        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")

        calls = [block for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": run_all(calls)})  # all results in ONE message

    names = tool_calls(messages)  # the error of exercise 3: what the run was doing
    raise RuntimeError(f"No answer after {max_iterations} iterations: {len(names)} tool calls "
                       f"({', '.join(names)})")
