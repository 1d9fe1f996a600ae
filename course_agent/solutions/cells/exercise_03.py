# Exercise 3: the loop of this notebook, with an error at the cap that says how many tool calls were made, and
# which tools they were (read from messages). It uses the notebook's client, MODEL, TOOLS, run_tool and REVIEW_RULES.

def tool_calls(messages: list) -> list[str]:
    """The name of every tool the model asked for so far, in order."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    if messages is None:  # no history given: start a new one
        messages = []
    messages.append({"role": "user", "content": f"Review merge request !{pr_number}."})

    for iteration in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        messages.append({"role": "assistant", "content": response.content})  # the whole response, always

        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")

        results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": run_tool(block.name, block.input)})
        messages.append({"role": "user", "content": results})  # all results in ONE message

    names = tool_calls(messages)
    raise RuntimeError(f"No answer after {max_iterations} iterations: {len(names)} tool calls "
                       f"({', '.join(names)})")
