"""Long conversations answered byte for byte as before the server's per-request work was cut (#26).

Each scenario drives 20+ requests over a growing history (thinking blocks sent back, cache
breakpoints, streamed and plain answers, context editing, the thinking-binding errors) through
plain HTTP, and hashes every status and raw response body in order. The digests were taken on the
code before the optimisation: any change in a response, a signature, a usage figure or an error
fails here. The random conversations run in-process (the API object alone); their digest was taken
on the old tree too. A deliberate change of the sandbox's behaviour updates them (print the digest).
"""

import copy
import hashlib
import json
import random
import urllib.error
import urllib.request

import pytest

from course_sandbox import Sandbox
from course_sandbox.errors import ApiError
from course_sandbox.messages_api import MessagesApi
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
    # #40: the prefix-check 400 without the binding beta now adds the API's sentence naming the header it needs
    # (the digest without that sentence was ba1211498d01109be56c728fac0b106628ed0fd3f25898d0822b690721071ea5);
    # #40's second fact-check: Opus 5 runs no prefix check, so its answer reports no `thinking_mismatch_allowed`
    # (the digest with that report was a50ea385262ca246e5e63fc7002456c81e8b6540ae995b68f0fa9e6fd36f5e1e)
    assert _digest(conversation.exchanges) == "f9de699a983c91052de3dd4c05cc3220c0a6c9a56ce11ca1381d990c99a44aaf"


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


def _random_conversations(seed: int) -> tuple[int, str]:
    """Conversations of every shape through the API in-process, one after another on one prompt cache:
    models, thinking modes, breakpoints (system, tools, results, automatic, 1h), stuck turns, edited
    and dropped history. Returns (requests answered, digest of every answer and error)."""
    rng, api, out, answered = random.Random(seed), MessagesApi(), hashlib.sha256(), 0

    def send(body: dict, betas: frozenset[str] = frozenset()) -> dict | None:
        nonlocal answered
        try:
            message, partial = api.create(copy.deepcopy(body), betas)
        except ApiError as error:
            out.update(f"{error.status} {error}".encode())
            return None
        answered += 1
        out.update(json.dumps([message, partial], ensure_ascii=False).encode())
        return message

    for _ in range(25):
        model = rng.choice(["claude-opus-5", "claude-opus-5-5", "claude-sonnet-4-6", "claude-haiku-5-5",
                            "claude-sonnet-5-5"])
        tools = copy.deepcopy(TOOLS)
        if rng.random() < 0.4:
            tools[-1]["cache_control"] = {"type": "ephemeral", **({"ttl": "1h"} if rng.random() < 0.5 else {})}
        body = {"model": model, "max_tokens": 6000, "tools": tools,
                "messages": [{"role": "user", "content": "Review merge request !482."}]}
        system = rng.choice(["You review.", None, [{"type": "text", "text": "You review. " * rng.randint(1, 400),
                                                   **({"cache_control": {"type": "ephemeral"}} if rng.random() < 0.6
                                                      else {})}]])
        if system is not None:
            body["system"] = system
        if model == "claude-sonnet-4-6" and rng.random() < 0.6:
            body["thinking"] = {"type": "enabled", "budget_tokens": 2000}
        elif model != "claude-sonnet-4-6" and rng.random() < 0.5:
            body["thinking"] = {"type": "adaptive"}
        if rng.random() < 0.4:
            body["cache_control"] = {"type": "ephemeral", **({"ttl": "1h"} if rng.random() < 0.3 else {})}
        if rng.random() < 0.3:
            api.force(*["stuck"] * rng.randint(1, 12))
        for step in range(rng.randint(3, 16)):
            message = send(body)
            if message is None:
                break
            body["messages"].append({"role": "assistant", "content": message["content"]})
            results = []
            for block in (b for b in message["content"] if b["type"] == "tool_use"):
                content, is_error = default_answer(block["name"], block["input"])
                result = {"type": "tool_result", "tool_use_id": block["id"], "content": f"{content}\n#{step}"}
                if rng.random() < 0.3:
                    result["is_error"] = is_error
                if rng.random() < 0.2:
                    result["content"] = [{"type": "text", "text": result["content"]}]
                if rng.random() < 0.15:
                    result["cache_control"] = {"type": "ephemeral"}
                results.append(result)
            body["messages"].append({"role": "user", "content": results or [
                {"type": "text", "text": f"Now !{500 + step}.", "citations": None}]})
            if rng.random() < 0.15:  # an earlier block edited, or its breakpoint moved
                variant = copy.deepcopy(body)
                content = rng.choice(variant["messages"])["content"]
                block = rng.choice(content) if isinstance(content, list) else {}
                if block.get("type") in ("thinking", "text"):
                    block[block["type"]] += "!"
                elif block and block.pop("cache_control", None) is None:
                    block["cache_control"] = {"type": "ephemeral"}
                send(variant, frozenset({BINDING_BETA}) if rng.random() < 0.5 else frozenset())
            if rng.random() < 0.1:
                send({**body, "thinking": {**body.get("thinking", {"type": "adaptive"}),
                                           "block_binding": {"prefix_mismatch_behavior": "drop_block"}}},
                     frozenset({BINDING_BETA}))
        try:
            out.update(json.dumps(api.count_tokens(copy.deepcopy(body))).encode())
        except ApiError as error:
            out.update(str(error).encode())
    return answered, out.hexdigest()


def test_random_conversations_are_answered_as_before():
    assert _random_conversations(1) == (296, "efaef3963573ba33f85920e0bf370fbbb495335209929b81ed3d00890602febe")
