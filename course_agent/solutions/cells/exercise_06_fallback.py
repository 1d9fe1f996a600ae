# Exercise 6, go deeper (optional): exercise 6's loop with a refusal answered once by the fallback model. Only the
# refusal's branch changed, and the model is now a variable of the run; every other rule of exercise 6 is kept.
# It uses the notebook's client, MODEL, TOOLS, run_tool and REVIEW_RULES.
from concurrent.futures import ThreadPoolExecutor

from course_agent.config import fallback_model


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
    model = MODEL

    for _ in range(max_iterations):
        response = client.messages.create(
            model=model, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        match response.stop_reason:
            case "end_turn":
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "stop_sequence":  # your own stop sequence: the text so far is the answer
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "pause_turn":  # the same turn goes on: append the response, and no new user message
                messages.append({"role": "assistant", "content": response.content})
            case "refusal":  # the refused response stays out of the history
                if model == fallback_model():  # the fallback model has refused too: it was asked once
                    raise RuntimeError(f"Both models refused: {response.stop_details}")
                model = fallback_model()  # the same messages go to the fallback model, and the run stays with it
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
