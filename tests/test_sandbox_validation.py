"""The sandbox rejects what the real Messages API rejects, with the real error strings."""

import anthropic
import pytest

from sandbox_http import MODEL, raw_post
from course_agent.sandbox.thinking import sign

USE = {"type": "tool_use", "id": "toolu_a", "name": "get_diff", "input": {"pr": 482}}
TOOLS = [{"name": "get_diff", "description": "diff", "input_schema": {"type": "object"}}]


def create(client, messages, **params):
    params.setdefault("max_tokens", 100)
    params.setdefault("model", MODEL)
    params.setdefault("timeout", 30)
    return client.messages.create(messages=messages, **params)


def rejection(client, messages, **params) -> anthropic.APIStatusError:
    with pytest.raises(anthropic.APIStatusError) as caught:
        create(client, messages, **params)
    return caught.value


def test_tool_result_without_matching_tool_use(client):
    error = rejection(client, [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": "Sure."},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]},
    ])
    assert isinstance(error, anthropic.BadRequestError)
    assert error.body["error"]["message"] == (
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_a. Each `tool_result` "
        "block must have a corresponding `tool_use` block in the previous message."
    )


def test_tool_use_without_results_after(client):
    second = {**USE, "id": "toolu_b"}
    error = rejection(client, [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": [USE, second]},
        {"role": "user", "content": "what now?"},
    ], tools=TOOLS)
    assert error.body["error"]["message"] == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a, toolu_b. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )


def test_history_that_kept_only_the_text_gets_the_real_400(client):
    """The lesson's rule 1 broken: the assistant's tool_use was dropped, its result was not."""
    error = rejection(client, [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": "I'll fetch the diff."},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]},
    ], tools=TOOLS)
    assert "unexpected `tool_use_id` found in `tool_result` blocks: toolu_a" in error.message


def test_empty_content(client):
    error = rejection(client, [{"role": "user", "content": "hi"}, {"role": "assistant", "content": []},
                               {"role": "user", "content": "again"}])
    assert error.body["error"]["message"] == (
        "messages.1: all messages must have non-empty content except for the optional final assistant message"
    )


def test_edited_thinking_block(client):
    block = {"type": "thinking", "thinking": "I need the diff.", "signature": sign("I need the diff.")}
    messages = [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": [{**block, "thinking": "I need nothing."}, USE]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]},
    ]
    error = rejection(client, messages, tools=TOOLS, max_tokens=3000,
                      thinking={"type": "enabled", "budget_tokens": 1024})
    assert error.body["error"]["message"] == (
        "messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be "
        "modified. These blocks must remain as they were in the original response."
    )
    messages[1]["content"][0] = block
    assert create(client, messages, tools=TOOLS, max_tokens=3000,
                  thinking={"type": "enabled", "budget_tokens": 1024}).stop_reason


def test_dropped_thinking_block(client):
    error = rejection(client, [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": [USE]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]},
    ], tools=TOOLS, max_tokens=3000, thinking={"type": "enabled", "budget_tokens": 1024})
    assert error.body["error"]["message"].startswith(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When "
        "`thinking` is enabled, a final `assistant` message must start with a thinking block"
    )


def test_max_tokens_above_the_model_limit(client):
    error = rejection(client, [{"role": "user", "content": "hi"}], max_tokens=1_000_000)
    assert error.body["error"]["message"] == (
        "max_tokens: 1000000 > 128000, which is the maximum allowed number of output tokens for claude-opus-5"
    )


def test_unknown_model_is_404(client):
    error = rejection(client, [{"role": "user", "content": "hi"}], model="claude-nonexistent-1")
    assert isinstance(error, anthropic.NotFoundError)
    assert error.body["error"] == {"type": "not_found_error", "message": "model: claude-nonexistent-1"}


def test_bad_key_is_401_and_never_echoed(sandbox):
    client = anthropic.Anthropic(base_url=sandbox.anthropic_base_url, api_key="sk-ant-real-secret-123",
                                 max_retries=0)
    with pytest.raises(anthropic.AuthenticationError) as caught:
        create(client, [{"role": "user", "content": "hi"}])
    assert caught.value.body["error"] == {"type": "authentication_error", "message": "invalid x-api-key"}
    assert "sk-ant-real-secret-123" not in str(caught.value.body)


def test_malformed_json_body(sandbox):
    status, body = raw_post(sandbox, "/v1/messages", b"{not json")
    assert status == 400
    assert body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    assert "not valid JSON" in body["error"]["message"]


@pytest.mark.parametrize("params, message", [
    ({"extra_body": {"max_tokens": "many"}}, "max_tokens: Input should be a valid integer"),
    ({"extra_body": {"colour": "red"}}, "colour: Extra inputs are not permitted"),
    ({"extra_body": {"messages": [{"role": "robot", "content": "hi"}]}},
     "messages.0.role: Input should be 'user' or 'assistant'"),
    ({"extra_body": {"messages": [{"role": "user", "content": [{"type": "text"}]}]}},
     "messages.0.content.0.text: Field required"),
    ({"tools": [{"name": "bad name", "input_schema": {"type": "object"}}]},
     "tools.0.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"),
])
def test_wrong_types_and_unknown_fields(client, params, message):
    error = rejection(client, [{"role": "user", "content": "hi"}], **params)
    assert error.body["error"]["message"] == message


def test_consecutive_same_role_messages_are_merged(client):
    response = create(client, [{"role": "user", "content": "Hello"}, {"role": "user", "content": "there"}])
    assert response.stop_reason == "end_turn"


def test_too_many_cache_breakpoints(client):
    cached = {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
    error = rejection(client, [{"role": "user", "content": [cached] * 5}])
    assert error.body["error"]["message"] == "A maximum of 4 blocks with cache_control may be provided. Found 5."


def test_budget_must_be_below_max_tokens(client):
    error = rejection(client, [{"role": "user", "content": "hi"}], max_tokens=1500,
                      thinking={"type": "enabled", "budget_tokens": 2000})
    assert error.body["error"]["message"].startswith("`max_tokens` must be greater than `thinking.budget_tokens`")
