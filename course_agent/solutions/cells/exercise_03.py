# Exercise 3: the loop of this notebook, as the exercise cell starts it, with the error at the cap changed: it says how
# many tool calls were made and which tools they were (read from messages). It uses the notebook's client, MODEL,
# TOOLS, run_tool and REVIEW_RULES.

def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    """The loop: call the model, run what it asks for, repeat until it is done."""
    if messages is None:  # no history given: start a new one
        messages = []
    messages.append({"role": "user", "content": f"Review merge request !{pr_number}."})

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )

        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})  # keep the answer in the history
            return "\n".join(block.text for block in response.content if block.type == "text")

        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")

        # 1. The model's response goes into the history whole
        messages.append({"role": "assistant", "content": response.content})

        # 2. Run every tool it asked for
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": run_tool(block.name, block.input),
            })

        # 3. The results go back in a user message
        messages.append({"role": "user", "content": results})

    names = []  # the tools of every tool_use block in the history, in order
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    raise RuntimeError(f"No answer after {max_iterations} iterations: "
                       f"{len(names)} tool calls ({', '.join(names)})")
