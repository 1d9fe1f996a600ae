# Exercise 6: the loop of exercise 5 with every stop reason handled on purpose, the rules of notebooks 3-5 kept
# (the whole response back, all results in one message, a tool's failure sent as a result, a cap); a refusal ends
# the run, saying why. The calls of a turn still run at once, with exercise 5's run_all. It uses the notebook's
# client, MODEL, TOOLS, run_tool and REVIEW_RULES.
from concurrent.futures import ThreadPoolExecutor


def tool_calls(messages: list) -> list[str]:
    """As in exercise 3: the name of every tool the model asked for so far, in order."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def tool_result(call) -> dict:
    """The result of one tool_use block; a tool that fails gives an error result, not an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def run_all(calls: list) -> list[dict]:
    """As in exercise 5: every tool_use of a turn in a thread of its own, the results in the calls' order."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tool_result, calls))


def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        match response.stop_reason:
            case "end_turn":
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "stop_sequence":  # your own stop sequence: the text so far is the answer
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "pause_turn":  # the same turn goes on: append the response, and no new user message
                messages.append({"role": "assistant", "content": response.content})
            case "refusal":  # the same request to the same model is refused again: stop, saying why
                raise RuntimeError(f"The model refused: {response.stop_details}")
            case "max_tokens":  # a cut tool call is never run
                raise RuntimeError("The answer was cut: increase max_tokens (any tool call in it was not run)")
            case "model_context_window_exceeded":
                raise RuntimeError("The context window is full: start afresh with a shorter history")
            case "tool_use":
                messages.append({"role": "assistant", "content": response.content})
                calls = [block for block in response.content if block.type == "tool_use"]
                messages.append({"role": "user", "content": run_all(calls)})  # at once; all results in ONE message
            case other:
                raise RuntimeError(f"Unexpected stop: {other}")

    names = tool_calls(messages)  # the error of exercise 3: what the run was doing
    raise RuntimeError(f"No answer after {max_iterations} iterations: {len(names)} tool calls "
                       f"({', '.join(names)})")
