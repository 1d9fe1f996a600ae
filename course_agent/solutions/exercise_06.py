"""Exercise 6 (notebook 6), a spoiler: notebook 3's loop with every stop reason handled on purpose, and a
refusal answered once by the fallback model.

    from course_agent.solutions.exercise_06 import review_every_stop
    check_exercise_6(review_every_stop)

Notebooks 7 and 8 grow this same loop: `run_tool` becomes a gated one, `tools` gains a cut read_file, and
`request` carries cache_control; `usage`, when given a list, collects every response's usage.
"""

from course_agent.config import fallback_model
from course_agent.i18n import ntr, tr
from course_agent.review import REVIEW_RULES
from course_agent.solutions import MODEL, TOOLS, client, run_tool


def text_of(response) -> str:
    return "\n".join(block.text for block in response.content if block.type == "text")


def review_every_stop(pr_number: int, max_iterations: int = 20, *, tools: list = TOOLS, run_tool=run_tool,
                      usage: list | None = None, **request) -> str:
    messages = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
    model = MODEL
    for _ in range(max_iterations):
        response = client.messages.create(model=model, max_tokens=16000, system=REVIEW_RULES, tools=tools,
                                          messages=messages, **request)
        if usage is not None:
            usage.append(response.usage)
        match response.stop_reason:
            case "end_turn" | "stop_sequence":
                return text_of(response)
            case "pause_turn":  # the same turn goes on: the response appended, no new user message
                messages.append({"role": "assistant", "content": response.content})
                continue
            case "refusal" if model != fallback_model():  # once, on another model; never the same one again
                model = fallback_model()
                continue
            case "refusal":
                raise RuntimeError(tr("the model refused: {details}", details=response.stop_details))
            case "max_tokens":  # a cut tool call is never run
                raise RuntimeError(tr("the answer was cut: raise max_tokens (the cut tool call was not run)"))
            case "model_context_window_exceeded":
                raise RuntimeError(tr("the context window is full: shorten the history"))
            case "tool_use":
                messages.append({"role": "assistant", "content": response.content})
                messages.append({"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": block.id, **run_tool(block.name, block.input)}
                    for block in response.content if block.type == "tool_use"
                ]})
            case other:
                raise RuntimeError(tr("unexpected stop reason: {stop}", stop=other))
    raise RuntimeError(ntr("no answer after {n} iteration", "no answer after {n} iterations", max_iterations))


review_pull_request = review_every_stop
"""The name notebook 3 gave the loop, under which the solutions' registry may look for notebook 6's."""
