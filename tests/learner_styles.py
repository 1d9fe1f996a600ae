"""Learner loops written in other styles than the course's: other names, other SDK paths,
classes, closures, partials, async, thinking. Each is correct unless its name says what it breaks.

Their clients point at a closed port: only the self-check's retargeting (by type) can make them work.
"""

import asyncio
import functools
import json

import anthropic
import gitlab

DEAD = "http://127.0.0.1:9"
claude = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)
aclaude = anthropic.AsyncAnthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)
repo = gitlab.Gitlab(DEAD, private_token="not-a-token").projects.get("course/shop", lazy=True)
MODEL = "claude-opus-5"
SYSTEM = "You review merge requests. Use the tools; end with a verdict."

TOOL_SPECS = [
    {"name": "fetch_mr_diff", "description": "Fetch the diff of a merge request.",
     "input_schema": {"type": "object", "properties": {"mr_id": {"type": "integer"}}, "required": ["mr_id"]}},
    {"name": "get_file_contents", "description": "Read a file of the repository.",
     "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}, "branch": {"type": "string"}},
                      "required": ["file_path"]}},
    {"name": "merge_request_merge", "description": "Merge the merge request into the target branch.",
     "input_schema": {"type": "object", "properties": {"mr_id": {"type": "integer"}}, "required": ["mr_id"]}},
]


def fetch_mr_diff(mr_id):
    mr = repo.mergerequests.get(mr_id)
    return mr.title + "\n" + "\n".join(f"--- a/{c['old_path']}\n+++ b/{c['new_path']}\n{c['diff'] or '(too large)'}"
                                        for c in mr.changes()["changes"])


def get_file_contents(file_path, branch="main"):
    return repo.files.raw(file_path, ref=branch).decode()


def merge_request_merge(mr_id):
    return "Merging needs a human's approval, and none was given. Not merged."


HANDLERS = {"fetch_mr_diff": fetch_mr_diff, "get_file_contents": get_file_contents,
            "merge_request_merge": merge_request_merge}


def execute(block):
    try:
        return {"type": "tool_result", "tool_use_id": block.id, "content": str(HANDLERS[block.name](**block.input))}
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the model
        return {"type": "tool_result", "tool_use_id": block.id, "content": f"Error: {exc}", "is_error": True}


def _finish(response):
    return "".join(b.text for b in response.content if b.type == "text")


def _decide(response, history):
    """Shared stop-reason handling: returns ("done", text) or ("go", None); raises when the loop must end."""
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "done", _finish(response)
    if response.stop_reason == "pause_turn":
        history.append({"role": "assistant", "content": response.content})
        return "go", None
    if response.stop_reason in ("refusal", "max_tokens", "model_context_window_exceeded"):
        raise RuntimeError(f"stopped: {response.stop_reason}")
    history.append({"role": "assistant", "content": response.content})
    history.append({"role": "user", "content": [execute(b) for b in response.content if b.type == "tool_use"]})
    return "go", None


def streaming_loop(pr):
    history = [{"role": "user", "content": f"Please review MR !{pr}"}]
    for _ in range(15):
        with claude.messages.stream(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                    messages=history) as stream:
            response = stream.get_final_message()
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("iteration limit")


def with_options_loop(pr):
    history = [{"role": "user", "content": f"Please review MR !{pr}"}]
    for _ in range(12):
        response = claude.with_options(timeout=60).messages.create(
            model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS, messages=history)
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("iteration limit")


def raw_response_loop(pr):
    history = [{"role": "user", "content": f"Please review MR !{pr}"}]
    for _ in range(12):
        raw = claude.messages.with_raw_response.create(model=MODEL, max_tokens=8000, system=SYSTEM,
                                                       tools=TOOL_SPECS, messages=history)
        state, text = _decide(raw.parse(), history)
        if state == "done":
            return text
    raise RuntimeError("iteration limit")


def beta_loop(pr):
    history = [{"role": "user", "content": f"Please review MR !{pr}"}]
    for _ in range(12):
        response = claude.beta.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                               messages=history)
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("iteration limit")


class Reviewer:
    def __init__(self, llm, project, turns=10):
        self.llm, self.project, self.turns = llm, project, turns

    def review(self, pr):
        history = [{"role": "user", "content": f"Review !{pr} please."}]
        for _ in range(self.turns):
            response = self.llm.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                                messages=history)
            state, text = _decide(response, history)
            if state == "done":
                return text
        raise RuntimeError(f"gave up after {self.turns} turns")


reviewer = Reviewer(claude, repo)


def make_closure_loop():
    llm = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)

    def run(pr):
        history = [{"role": "user", "content": f"Review merge request {pr}"}]
        for _ in range(10):
            response = llm.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                           messages=history)
            state, text = _decide(response, history)
            if state == "done":
                return text
        raise RuntimeError("too many steps")

    return run


def review_with(pr, llm, max_turns=10):
    history = [{"role": "user", "content": f"Review merge request {pr}"}]
    for _ in range(max_turns):
        response = llm.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                       messages=history)
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")


partial_loop = functools.partial(review_with, llm=claude)


async def async_loop(pr):
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = await aclaude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                                 messages=history)
        if response.stop_reason == "end_turn":
            return _finish(response)
        if response.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": response.content})
            continue
        if response.stop_reason != "tool_use":
            raise RuntimeError(response.stop_reason)
        history.append({"role": "assistant", "content": response.content})
        results = await asyncio.gather(*(asyncio.to_thread(execute, b) for b in response.content
                                         if b.type == "tool_use"))
        history.append({"role": "user", "content": list(results)})
    raise RuntimeError("too many turns")


def thinking_loop(pr, keep_thinking=True, model=MODEL, thinking=None):
    """Thinking shown (summarized) on today's model; `model`/`thinking` give an older model's manual thinking."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=model, max_tokens=16000, system=SYSTEM, tools=TOOL_SPECS,
                                          thinking=thinking or {"type": "adaptive", "display": "summarized"},
                                          messages=history)
        if not keep_thinking:
            content = [b for b in response.content if b.type in ("text", "tool_use")]
            response = response.model_copy(update={"content": content})
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")


def dict_history_loop(pr):
    """Keeps the history as plain JSON (model_dump), as people do to save it."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason == "end_turn":
            return _finish(response)
        if response.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in response.content]})
            continue
        if response.stop_reason != "tool_use":
            raise RuntimeError(response.stop_reason)
        history.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in response.content]})
        history.append({"role": "user", "content": [execute(b) for b in response.content if b.type == "tool_use"]})
        json.dumps(history)
    raise RuntimeError("too many turns")


def cap_30_loop(pr):
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(30):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("30 iterations and no answer")


# Loops that break one rule each, in ways people really do.
def last_block_only_loop(pr):
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason == "end_turn":
            return _finish(response)
        if response.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": response.content})
            continue
        if response.stop_reason != "tool_use":
            raise RuntimeError(response.stop_reason)
        history.append({"role": "assistant", "content": [response.content[-1]]})  # drops the text before it
        history.append({"role": "user", "content": [execute(b) for b in response.content if b.type == "tool_use"]})
    raise RuntimeError("too many turns")


def aborts_on_tool_error_loop(pr):
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason == "end_turn":
            return _finish(response)
        if response.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": response.content})
            continue
        if response.stop_reason != "tool_use":
            raise RuntimeError(response.stop_reason)
        history.append({"role": "assistant", "content": response.content})
        results = []
        for block in response.content:
            if block.type == "tool_use":
                try:
                    results.append({"type": "tool_result", "tool_use_id": block.id,
                                    "content": str(HANDLERS[block.name](**block.input))})
                except Exception:  # noqa: BLE001
                    return "aborted"
        history.append({"role": "user", "content": results})
    raise RuntimeError("too many turns")


def never_returns_loop(pr):
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    answer = None
    for _ in range(20):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason == "end_turn":
            answer = _finish(response)
            history.append({"role": "assistant", "content": response.content})
            history.append({"role": "user", "content": "Anything else?"})
            continue
        if response.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": response.content})
            continue
        if response.stop_reason != "tool_use":
            raise RuntimeError(response.stop_reason)
        history.append({"role": "assistant", "content": response.content})
        history.append({"role": "user", "content": [execute(b) for b in response.content if b.type == "tool_use"]})
    raise RuntimeError(f"stopped at the cap of 20 requests; the last answer was {answer!r}")  # the cap itself is right


def pause_text_only_loop(pr):
    """On pause_turn keeps only the text of the paused response (drops the server tool's work)."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason == "pause_turn":
            history.append({"role": "assistant", "content": [b for b in response.content if b.type == "text"]})
            continue
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")


def cut_call_answered_with_an_error_loop(pr):
    """Keeps the cut response and answers its call with an error result, without running it."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason == "max_tokens" and any(b.type == "tool_use" for b in response.content):
            history.append({"role": "assistant", "content": response.content})
            history.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": b.id, "is_error": True,
                 "content": "This call was cut off by max_tokens and was NOT run; send it again."}
                for b in response.content if b.type == "tool_use"]})
            continue
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")


URL, TOKEN = DEAD, "not-a-token"


def gitlab_per_call_merge_loop(pr):
    """Builds its GitLab client from saved settings on every call, and merges without asking."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        llm = anthropic.Anthropic(base_url=DEAD, api_key="sk-ant-not-a-key", max_retries=0)
        response = llm.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                       messages=history)
        if response.stop_reason != "tool_use":
            return _finish(response)
        history.append({"role": "assistant", "content": response.content})
        results = []
        for block in response.content:
            if block.type == "tool_use" and block.name == "merge_request_merge":
                project = gitlab.Gitlab(URL, private_token=TOKEN).projects.get("course/shop")
                project.mergerequests.get(block.input["mr_id"]).merge()
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": "merged"})
            elif block.type == "tool_use":
                results.append(execute(block))
        history.append({"role": "user", "content": results})
    raise RuntimeError("cap")


# Styles that reach the HTTP libraries in other ways: the check routes them where requests leave the process.
import httpx2  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402

custom_http = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0,
                                  http_client=httpx2.Client(timeout=httpx2.Timeout(30.0), follow_redirects=True))
own_project = gitlab.Gitlab(DEAD + "/gitlab", private_token="not-a-token").projects.get(4242, lazy=True)
"""The learner's own GitLab (under a path) and project (by id): the check's sandbox stands in for both."""


def custom_http_client_loop(pr):
    return review_with(pr, custom_http)


def own_project_loop(pr):
    """Looks the merge request up through a Project of its own GitLab, made before the check, first."""
    try:
        own_project.mergerequests.get(pr)
    except gitlab.GitlabGetError:  # !999 of the tool-error scenario: the tools will say so
        pass
    return review_with(pr, claude)


def thread_pool_loop(pr):
    """Asks the model from a worker thread, and runs the tools of a turn in a pool."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(10):
            response = pool.submit(claude.messages.create, model=MODEL, max_tokens=8000, system=SYSTEM,
                                   tools=TOOL_SPECS, messages=history).result()
            if response.stop_reason != "tool_use":
                state, text = _decide(response, history)
                if state == "done":
                    return text
                continue
            history.append({"role": "assistant", "content": response.content})
            uses = [b for b in response.content if b.type == "tool_use"]
            history.append({"role": "user", "content": list(pool.map(execute, uses))})
    raise RuntimeError("too many turns")


def asyncio_run_each_turn_loop(pr):
    """A plain function that runs each request of an async client with its own asyncio.run (a new event
    loop each time)."""
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = asyncio.run(aclaude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM,
                                                       tools=TOOL_SPECS, messages=history))
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")


async def async_stream_loop(pr):
    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        async with aclaude.messages.stream(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                           messages=history) as stream:
            response = await stream.get_final_message()
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")


async def aiohttp_loop(pr):
    """An AsyncAnthropic on the SDK's aiohttp transport, built inside the loop (needs the aiohttp extra)."""
    llm = anthropic.AsyncAnthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0,
                                   http_client=anthropic.DefaultAioHttpClient())
    async with llm:
        history = [{"role": "user", "content": f"Review MR {pr}."}]
        for _ in range(10):
            response = await llm.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                                 messages=history)
            state, text = _decide(response, history)
            if state == "done":
                return text
    raise RuntimeError("too many turns")


def cut_call_run_and_dropped_loop(pr):
    """Runs the cut response's tool calls (in a thread of their own) and throws their results away, then raises a
    right error: the call ran all the same (attack 18's H3)."""
    import threading

    history = [{"role": "user", "content": f"Review MR {pr}."}]
    for _ in range(10):
        response = claude.messages.create(model=MODEL, max_tokens=8000, system=SYSTEM, tools=TOOL_SPECS,
                                          messages=history)
        if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
            for block in response.content:
                if block.type == "tool_use":
                    worker = threading.Thread(target=execute, args=(block,))
                    worker.start()
                    worker.join()
            raise RuntimeError(f"The answer was cut ({response.stop_reason}): the history no longer fits, or the "
                               "reply ran out of its budget")
        state, text = _decide(response, history)
        if state == "done":
            return text
    raise RuntimeError("too many turns")
