"""Learner-style loops for testing the self-check: the reference, and one variant per broken rule.

Written like the notebooks: module-level `client` and `project`, which the check finds by type and
points at its sandbox (here they point at a closed port, so only the check's retargeting can make them work).
"""

import anthropic
import gitlab

from course_agent import solutions
from course_agent.solutions import complete_loop
from course_agent.solutions import MODEL, REVIEW_RULES, TOOLS, run_tool

client = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url="http://127.0.0.1:9", max_retries=0)
project = gitlab.Gitlab("http://127.0.0.1:9", private_token="not-a-token").projects.get("course/shop", lazy=True)


def make_loop(breaks: str = ""):
    """A loop that keeps every rule of the lesson except the one named in `breaks`."""

    def review_pull_request(pr_number, max_iterations=20):
        complete_loop.project = project  # the borrowed tools read the project the check points us at
        messages = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
        iterations = range(10**9) if breaks == "cap" else range(max_iterations)
        for _ in iterations:
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages)
            stop = response.stop_reason
            if stop in ("end_turn", "stop_sequence"):
                return response.content[-1].text
            if stop == "pause_turn":
                messages.append({"role": "assistant", "content": response.content})
                if breaks == "pause_turn":
                    messages.append({"role": "user", "content": "continue"})
                continue
            if stop == "refusal":
                if breaks == "refusal":
                    continue
                raise RuntimeError("refused" if breaks == "refusal_said" else f"refused: {response.stop_details}")
            if stop in ("max_tokens", "model_context_window_exceeded") and breaks != "cut_tool_call":
                raise RuntimeError(f"cut by {stop}")
            if stop not in ("tool_use", "max_tokens", "model_context_window_exceeded"):
                raise RuntimeError(f"unexpected stop reason {stop}")
            content = response.content
            if breaks == "whole_response":
                content = [b for b in content if b.type == "text"]
            messages.append({"role": "assistant", "content": content})
            results = []
            for block in response.content:
                if block.type != "tool_use":
                    continue
                if breaks == "errors_are_results":
                    result = {"content": solutions.FUNCTIONS[block.name](**block.input)}
                elif breaks == "merge_asks" and block.name == "merge_pr":
                    project.mergerequests.get(block.input["pr"]).merge()
                    result = {"content": "merged"}
                else:
                    result = run_tool(block.name, block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, **result})
            if breaks == "one_message":
                messages.extend({"role": "user", "content": [r]} for r in results)
            else:
                messages.append({"role": "user", "content": results})
        raise RuntimeError("too many iterations")

    return review_pull_request


def notebook_4_loop(pr_number, max_iterations=20):
    """Exercise 4 with a run_all of its own (a lambda in pool.map) whose every call waits 0.3 s."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    complete_loop.project = project

    def slow_run_tool(name, tool_input):
        time.sleep(0.3)  # pretend GitLab is far away
        return run_tool(name, tool_input)["content"]

    def run_all(calls):
        with ThreadPoolExecutor(max_workers=8) as pool:
            return list(pool.map(lambda b: {"type": "tool_result", "tool_use_id": b.id,
                                            "content": slow_run_tool(b.name, b.input)}, calls))

    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        if response.stop_reason == "end_turn":
            return "\n".join(b.text for b in response.content if b.type == "text")
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_all([b for b in response.content if b.type == "tool_use"])})
    raise RuntimeError(f"No answer after {max_iterations} iterations")


def crashing_loop(pr_number, max_iterations=20):
    """A loop with a bug: it reads the response as a dict and raises TypeError on the first response."""
    messages = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        if response["stop_reason"] == "end_turn":
            return response
    raise RuntimeError("no answer")


def placeholder_loop(pr_number: int, max_iterations: int = 20) -> str:
    """The exercise cell as notebook 4 leaves it."""
    raise NotImplementedError("your code here")


def lesson_loop(language="en"):
    """Notebook 3's loop as the lesson writes it: the exercise's starting point, left unchanged."""
    too_many = ("Ответа нет: достигнуто ограничение итераций (max_iterations={})" if language == "ru"
                else "No answer after {} iterations")

    def review_pull_request(pr_number, messages=None, max_iterations=20):
        complete_loop.project = project
        messages = [] if messages is None else messages
        messages.append({"role": "user", "content": f"Review pull request #{pr_number}."})
        for _ in range(max_iterations):
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages)
            if response.stop_reason == "end_turn":
                return "\n".join(b.text for b in response.content if b.type == "text")
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": complete_loop.run_one_by_one(
                [b for b in response.content if b.type == "tool_use"])})
        raise RuntimeError(too_many.format(max_iterations))

    return review_pull_request


class CapReached(Exception):
    """A learner's own exception for the cap."""


def dict_style_loop(says, off_by_one=False):
    """Exercise 3 in another style: responses as dicts (model_dump), a while loop, a custom exception whose
    message `says(names)` builds from the tool names the history asked for."""

    def review(pr_number, max_iterations=20):
        complete_loop.project = project
        history = [{"role": "user", "content": f"Please review MR !{pr_number}"}]
        turns = 0
        while True:
            if turns == max_iterations - (1 if off_by_one else 0):
                names = [b["name"] for m in history if m["role"] == "assistant" for b in m["content"]
                         if b["type"] == "tool_use"]
                raise CapReached(says(names))
            turns += 1
            reply = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                           messages=history).model_dump()
            blocks = [{k: v for k, v in b.items() if v is not None} for b in reply["content"]]
            if reply["stop_reason"] == "end_turn":
                return "".join(b.get("text", "") for b in blocks)
            history.append({"role": "assistant", "content": blocks})
            history.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": b["id"], **run_tool(b["name"], b["input"])}
                for b in blocks if b["type"] == "tool_use"]})

    return review
