# Exercise 4: the loop of exercise 3 (its cap error says which tools were called), with the calls of a turn run at
# the same time. pool.map gives the results in the calls' order, and they all go back in one message. It uses the
# notebook's client, MODEL, TOOLS, run_tool and REVIEW_RULES.
from concurrent.futures import ThreadPoolExecutor


def tool_calls(messages: list) -> list[str]:
    """As in exercise 3: the name of every tool the model asked for so far, in order."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def tool_result(call) -> dict:
    """The tool_result block that answers one call."""
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def run_all(calls: list) -> list[dict]:
    """As run_all in notebook 4's demo, without its `answer` parameter (there for the demo's slow tool): every
    tool_use of a turn in a thread of its own, the results in order, each from tool_result as defined when it runs."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tool_result, calls))


def review_concurrently(pr_number: int, max_iterations: int = 20) -> str:
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
