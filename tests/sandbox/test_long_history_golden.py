"""Long conversations answered byte for byte as before the server's per-request work was cut (#26).

Each scenario drives 20+ requests over a growing history (thinking blocks sent back, cache
breakpoints, streamed and plain answers, context editing, the thinking-binding errors) through
plain HTTP, and hashes every status and raw response body in order. The digests were taken on the
code before the optimisation: any change in a response, a signature, a usage figure or an error
fails here. A deliberate change of the sandbox's behaviour updates them (print `_digest(...)`).
"""

import hashlib
import json
import urllib.error
import urllib.request

import pytest

from course_sandbox import Sandbox
from course_sandbox.sse import message_of
from review_material import DIFF_482, TOOLS, default_answer
from sandbox_http import ANTHROPIC_VERSION

BINDING_BETA = "thinking-binding-controls-2026-08-01"
EDITING_BETA = "context-management-2025-06-27"
COMPACT_BETA = "compact-2026-09-04"
SYSTEM = [{"type": "text", "text": "You review merge requests. " * 200, "cache_control": {"type": "ephemeral"}}]


def _post(sandbox: Sandbox, path: str, body: dict, betas: tuple[str, ...] = ()) -> tuple[int, bytes]:
    headers = {"x-api-key": sandbox.api_key, "anthropic-version": ANTHROPIC_VERSION,
               "content-type": "application/json"}
    if betas:
        headers["anthropic-beta"] = ",".join(betas)
    request = urllib.request.Request(sandbox.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class Conversation:
    """A hand-written agent loop that keeps every exchange's raw bytes."""

    def __init__(self, sandbox: Sandbox, betas: tuple[str, ...] = (), **params) -> None:
        self.sandbox, self.betas, self.params = sandbox, betas, params
        self.messages: list[dict] = [{"role": "user", "content": "Review merge request !482."}]
        self.exchanges: list[bytes] = []

    def send(self, path: str = "/v1/messages", messages: list[dict] | None = None,
             betas: tuple[str, ...] | None = None, **extra) -> tuple[int, dict]:
        body = {**self.params, **extra, "messages": self.messages if messages is None else messages}
        body = {k: v for k, v in body.items() if v is not None}  # `max_tokens=None`: count_tokens takes none
        status, raw = _post(self.sandbox, path, body, self.betas if betas is None else betas)
        self.exchanges.append(b"%d\n%s" % (status, raw))
        reply = message_of(raw) if body.get("stream") else json.loads(raw)
        return status, reply

    def turn(self, n: int, stream: bool = False) -> dict:
        """One iteration: ask, append the answer as is, answer its tool calls (each result a little different)."""
        status, reply = self.send(stream=stream) if stream else self.send()
        assert status == 200, reply
        self.messages.append({"role": "assistant", "content": reply["content"]})
        results = []
        for block in reply["content"]:
            if block["type"] == "tool_use":
                content, is_error = default_answer(block["name"], block["input"])
                results.append({"type": "tool_result", "tool_use_id": block["id"],
                                "content": f"{content}\n# call {n}", "is_error": is_error})
        self.messages.append({"role": "user", "content": results or f"Now review merge request !{483 + n}."})
        return reply


def _digest(exchanges: list[bytes]) -> str:
    digest = hashlib.sha256()
    for raw in exchanges:
        digest.update(hashlib.sha256(raw).digest())
    return digest.hexdigest()


@pytest.fixture()
def sandbox():
    with Sandbox() as started:
        yield started


def _binding_errors(conversation: Conversation) -> None:
    """The thinking-binding checks on the long history: edited, moved, dropped, and allowed."""
    history = conversation.messages
    last = max(i for i, m in enumerate(history) if m["role"] == "assistant")
    edited = json.loads(json.dumps(history))
    block = next(b for b in edited[last]["content"] if b["type"] == "thinking")
    block["thinking"] += " (edited)"
    assert conversation.send(messages=edited)[0] == 400
    earlier = json.loads(json.dumps(history))
    earlier[0]["content"] = "Review merge request !482, briefly."
    assert conversation.send(messages=earlier)[0] == 400
    assert conversation.send(messages=earlier, betas=(BINDING_BETA,),
                             thinking={"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}
                             )[0] == 200
    assert conversation.send(messages=earlier, betas=(BINDING_BETA,), model="claude-opus-5")[0] == 200
    assert conversation.send("/v1/messages/count_tokens", max_tokens=None)[0] == 200
    moved = [history[0], *history[3:5], *history[1:3], *history[5:]]  # two whole iterations swapped
    assert conversation.send(messages=moved)[0] == 400


def test_a_stuck_loop_with_preserved_thinking_and_caching(sandbox):
    """The check cell's case: a model asking for the same tool, 24 times, its thinking bound to the prefix."""
    conversation = Conversation(sandbox, model="claude-opus-5-5", max_tokens=8000, thinking={"type": "adaptive"},
                                tools=TOOLS, system=SYSTEM, cache_control={"type": "ephemeral"})
    sandbox.force(*["stuck"] * 24)
    for n in range(24):
        conversation.turn(n, stream=n % 5 == 4)
    _binding_errors(conversation)
    assert _digest(conversation.exchanges) == "ba1211498d01109be56c728fac0b106628ed0fd3f25898d0822b690721071ea5"


def test_a_long_natural_review_with_manual_thinking(sandbox):
    """The simulated reviewer reading real diffs and files, one merge request after another."""
    conversation = Conversation(sandbox, model="claude-sonnet-4-6", max_tokens=6000,
                                thinking={"type": "enabled", "budget_tokens": 2000}, tools=TOOLS, system=SYSTEM)
    for n in range(22):
        conversation.turn(n, stream=n % 7 == 3)
    assert conversation.send("/v1/messages/count_tokens", max_tokens=None)[0] == 200
    assert _digest(conversation.exchanges) == "5b709ddc7cd4155edf193772f924242da5c649dc352907f95704e72fd37834ed"


def test_context_editing_and_compaction_on_a_long_history(sandbox):
    """Edited copies of the request (signed over what was sent), then an on-demand compaction."""
    edits = [{"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 2}},
             {"type": "clear_tool_uses_20250919", "trigger": {"type": "tool_uses", "value": 4},
              "keep": {"type": "tool_uses", "value": 2}}]
    conversation = Conversation(sandbox, (EDITING_BETA, COMPACT_BETA), model="claude-sonnet-5-5", max_tokens=8000,
                                thinking={"type": "adaptive"}, tools=TOOLS,
                                system="You review merge requests.\n" + DIFF_482 * 20,
                                context_management={"edits": edits})
    sandbox.force(*["stuck"] * 20)
    for n in range(22):
        conversation.turn(n, stream=n % 6 == 5)
    status, summary = conversation.send(compaction={"type": "summarize"}, context_management=None)
    assert status == 200, summary
    conversation.messages = [{"role": "assistant", "content": summary["content"]},
                             {"role": "user", "content": "Go on with the review."}]
    for n in range(22, 25):  # the model reads on from the summary
        conversation.turn(n)
    assert _digest(conversation.exchanges) == "3ce0bac3f7e75e08af655b5fffc645327a3ba895f83b0f06f88aceb44b598352"
