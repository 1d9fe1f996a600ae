# Exercise 8: the loop of exercise 7, with every request cached, what it cost printed, and a tool result longer
# than LIMIT cut, with a line that says so and how to read the rest (the `start` to read on from). It uses the
# notebook's client, MODEL, TOOLS, run_tool, REVIEW_RULES, DANGEROUS, ask_human, billed and LIMIT.
# Step 1 is the cut (run_cut, used by tool_result); step 2 is caching and the bill (cache_control, usage, finally).


def tool_calls(messages: list) -> list[str]:
    """As in exercise 3: the name of every tool the model asked for so far, in order."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def approved(approve, name: str, tool_input: dict) -> bool:
    """Only an explicit True is a yes."""
    try:
        return approve(name, tool_input) is True
    except Exception:
        return False


def run_cut(name: str, tool_input: dict) -> str:  # step 1
    """run_tool, with a result longer than LIMIT cut, and a line that says how to read the rest."""
    text = run_tool(name, tool_input)  # read_file already starts at its `start`
    if len(text) <= LIMIT:
        return text
    if name != "read_file":  # only read_file can read from the middle
        return f"{text[:LIMIT]}\n\n[cut: the first {LIMIT} of {len(text)} characters. The rest was not sent.]"
    start = tool_input.get("start", 0)
    end = start + LIMIT
    return (f"{text[:LIMIT]}\n\n[cut: characters {start} to {end} of {start + len(text)}. Call read_file with "
            f"start={end} for the rest.]")


def tool_result(call) -> dict:
    """As in exercise 5, with a long result cut (run_cut); a tool that fails gives an error result."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_cut(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def denied(call) -> dict:
    """The result of a dangerous call without a yes: an error the model reads; nothing ran."""
    return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
            "content": f"A human denied this call: {call.name} was not run. "
                       "Do not try to do the same thing another way; report it instead."}


def review_with_cost(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    usage = []  # step 2: every response's usage, billed in the finally
    try:
        for _ in range(max_iterations):
            response = client.messages.create(
                model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
                cache_control={"type": "ephemeral"},  # automatic caching: the breakpoint follows the conversation
            )
            usage.append(response.usage)
            match response.stop_reason:
                case "end_turn":
                    return "\n".join(block.text for block in response.content if block.type == "text")
                case "stop_sequence":
                    return "\n".join(block.text for block in response.content if block.type == "text")
                case "pause_turn":
                    messages.append({"role": "assistant", "content": response.content})
                case "refusal":
                    raise RuntimeError(f"The model refused: {response.stop_details}")
                case "max_tokens":
                    raise RuntimeError("The answer was cut: increase max_tokens (any tool call in it was not run)")
                case "model_context_window_exceeded":
                    raise RuntimeError("The context window is full: start afresh with a shorter history")
                case "tool_use":
                    messages.append({"role": "assistant", "content": response.content})
                    results = []  # the gate, call by call
                    for call in [block for block in response.content if block.type == "tool_use"]:
                        if call.name in DANGEROUS and not approved(approve, call.name, call.input):
                            results.append(denied(call))  # not run: the model reads why
                        else:
                            results.append(tool_result(call))
                    messages.append({"role": "user", "content": results})  # all results in ONE message
                case other:
                    raise RuntimeError(f"Unexpected stop: {other}")
        names = tool_calls(messages)  # the error of exercise 3: what the run was doing
        raise RuntimeError(f"No answer after {max_iterations} iterations: {len(names)} tool calls "
                           f"({', '.join(names)})")
    finally:  # runs however the `try` ends (an answer, an error): the bill is printed either way
        print(f"billed input: {billed(usage):.0f} tokens in {len(usage)} calls")
