# Exercise 7, "Go further": the same gate, with the calls of a turn still run at once (notebook 4). A tool
# in DANGEROUS runs only when approve(name, tool_input) returns True; any other answer, an exception, or no
# answer is a no, which goes back to the model as an error result, and the loop goes on. The approver is
# asked first, one call at a time; then the allowed calls of the turn run at once, and a denied call's result
# keeps its place. It uses the notebook's client, MODEL, TOOLS, run_tool, REVIEW_RULES, DANGEROUS and
# ask_human.
from concurrent.futures import ThreadPoolExecutor


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
    except Exception:  # nobody could be asked (no keyboard, a closed widget): no answer is a no
        return False


def tool_result(call) -> dict:
    """The result of one tool_use block; a tool that fails gives an error result, not an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def denied(call) -> dict:
    """The result of a dangerous call without a yes: an error the model reads; nothing ran."""
    return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
            "content": f"A human denied this call: {call.name} was not run. "
                       "Do not try to do the same thing another way; report it instead."}


def run_all(calls: list) -> list[dict]:
    """As in exercise 5: every call of the turn in a thread of its own, the results in the calls' order."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tool_result, calls))


def gate_then_run(calls: list, approve) -> list[dict]:
    """The gate first, one question at a time, here in the loop (a person answers one after another); then the
    allowed calls of the turn at once, with run_all; the results in the calls' order."""
    results = {}  # the result of each call, by its `tool_use_id`
    allowed = []
    for call in calls:
        if call.name in DANGEROUS and not approved(approve, call.name, call.input):
            results[call.id] = denied(call)  # not run: the model reads why
        else:
            allowed.append(call)
    for result in run_all(allowed):
        results[result["tool_use_id"]] = result
    return [results[call.id] for call in calls]  # in the calls' order


def review_with_gate(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
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
                calls = [block for block in response.content if block.type == "tool_use"]
                # the gate, then the allowed calls, concurrently
                messages.append({"role": "user", "content": gate_then_run(calls, approve)})
            case other:
                raise RuntimeError(f"Unexpected stop: {other}")

    names = tool_calls(messages)  # the error of exercise 3: what the run was doing
    raise RuntimeError(f"No answer after {max_iterations} iterations: {len(names)} tool calls "
                       f"({', '.join(names)})")
