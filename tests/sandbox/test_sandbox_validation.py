"""The sandbox rejects what the real Messages API rejects, with the real error strings."""

import anthropic
import pytest

import json
import math

from sandbox_http import MODEL, raw_post
from course_sandbox import request_schema
from course_sandbox.thinking import sign

OLDER = "claude-opus-4-6"  # manual (extended) thinking and its rules: models before Opus 4.7
SAMPLING = "claude-opus-4-5"  # takes temperature/top_p/top_k and a prefill while thinking is off
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


@pytest.mark.parametrize("split", [False, True], ids=["one message", "appended twice"])
def test_a_tool_use_id_sent_twice_is_refused(client, split):
    """A response appended to the history twice (once before a match, once in its branch): the API combines the two
    assistant messages and refuses the repeated id."""
    again = [{"role": "assistant", "content": [USE]}, {"role": "assistant", "content": [USE]}] if split else \
        [{"role": "assistant", "content": [USE, {**USE}]}]
    error = rejection(client, [{"role": "user", "content": "Review PR #482"}, *again,
                               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a",
                                                              "content": "diff"}]}], tools=TOOLS)
    assert isinstance(error, anthropic.BadRequestError)
    where = "messages.2.content.0" if split else "messages.1.content.1"
    assert error.body["error"]["message"] == f"{where}: `tool_use` ids must be unique"


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


def test_text_before_the_tool_results_is_refused(client):
    """Docs (tool use): in the user message with the results, tool_result blocks come first; text only after."""
    second = {**USE, "id": "toolu_b"}
    result_a = {"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}
    result_b = {"type": "tool_result", "tool_use_id": "toolu_b", "content": "file"}
    error = rejection(client, [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": [USE, second]},
        {"role": "user", "content": [result_a, {"type": "text", "text": "Here is the file:"}, result_b]},
    ], tools=TOOLS)
    assert error.body["error"]["message"] == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )


@pytest.mark.parametrize("after", [
    [{"type": "text", "text": "Keep it short."}],
    "Keep it short.",  # a separate user message, merged into the same turn
])
def test_text_after_all_the_tool_results_is_accepted(client, after):
    results = [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]
    messages = [{"role": "user", "content": "Review PR #482"}, {"role": "assistant", "content": [USE]}]
    if isinstance(after, str):
        messages += [{"role": "user", "content": results}, {"role": "user", "content": after}]
    else:
        messages += [{"role": "user", "content": results + after}]
    assert create(client, messages, tools=TOOLS).role == "assistant"


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
    error = rejection(client, messages, tools=TOOLS, max_tokens=3000, model=OLDER,
                      thinking={"type": "enabled", "budget_tokens": 1024})
    assert error.body["error"]["message"] == (
        "messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be "
        "modified. These blocks must remain as they were in the original response."
    )
    messages[1]["content"][0] = block
    assert create(client, messages, tools=TOOLS, max_tokens=3000, model=OLDER,
                  thinking={"type": "enabled", "budget_tokens": 1024}).stop_reason


def test_dropped_thinking_block(client):
    error = rejection(client, [
        {"role": "user", "content": "Review PR #482"},
        {"role": "assistant", "content": [USE]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]},
    ], tools=TOOLS, max_tokens=3000, model=OLDER, thinking={"type": "enabled", "budget_tokens": 1024})
    assert error.body["error"]["message"].startswith(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When "
        "`thinking` is enabled, a final `assistant` message must start with a thinking block"
    )


def _a_tool_turn_with_thinking(client) -> tuple[list[dict], object]:
    """A real answer of today's model (adaptive thinking on by default) that thought and then called a tool."""
    messages = [{"role": "user", "content": "Review PR #482: get its diff first."}]
    for _ in range(3):
        answer = create(client, messages, tools=TOOLS, max_tokens=4000)
        kinds = [b.type for b in answer.content]
        if "tool_use" in kinds and "thinking" in kinds:
            return messages, answer
        messages = [{"role": "user", "content": "Think about it, then call get_diff for PR 482."}]
    pytest.fail(f"no thinking tool-use answer to send back: {kinds}")


def _sent_back(messages: list[dict], blocks: list) -> list[dict]:
    results = [{"type": "tool_result", "tool_use_id": b.id, "content": "diff"} for b in blocks if b.type == "tool_use"]
    return [*messages, {"role": "assistant", "content": [b.model_dump() for b in blocks]},
            {"role": "user", "content": results}]


def test_adaptive_thinking_dropped_or_moved_is_refused(client):
    """Docs (Fable 5 migration guide): "The API rejects edited, reordered, or partially dropped thinking blocks
    with a 400 error" - adaptive thinking too, when the answer had the block; sent back whole, it is taken."""
    messages, answer = _a_tool_turn_with_thinking(client)
    thought = [b for b in answer.content if b.type == "thinking"]
    rest = [b for b in answer.content if b.type != "thinking"]
    for blocks in (rest, [*rest, *thought]):
        error = rejection(client, _sent_back(messages, blocks), tools=TOOLS, max_tokens=4000)
        assert error.body["error"]["message"].startswith(
            f"messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{rest[0].type}`. "
            "When `thinking` is enabled, a final `assistant` message must start with a thinking block")
    assert create(client, _sent_back(messages, answer.content), tools=TOOLS, max_tokens=4000).stop_reason


def test_adaptive_turn_that_thought_nothing_is_taken(client):
    """Adaptive thinking may think nothing on a turn (docs: "a simple request can produce no thinking block"): a
    tool-use turn the sandbox never sent, with no thinking block, is not taken for a dropped one."""
    messages = [{"role": "user", "content": "Review PR #482"}, {"role": "assistant", "content": [USE]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "diff"}]}]
    assert create(client, messages, tools=TOOLS, max_tokens=4000).stop_reason


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
     "messages.0.role: Input should be 'user', 'assistant' or 'system'"),
    ({"extra_body": {"messages": [{"role": "user", "content": [{"type": "text"}]}]}},
     "messages.0.content.0.text.text: Field required"),
    ({"thinking": {"type": "enabled", "budget_tokens": 100}},
     "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"),
    ({"tool_choice": {"type": "tool"}}, "tool_choice.tool.name: Field required"),
    ({"tools": [{"name": "bad name", "input_schema": {"type": "object"}}]},
     "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"),
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
    error = rejection(client, [{"role": "user", "content": "hi"}], max_tokens=1500, model=OLDER,
                      thinking={"type": "enabled", "budget_tokens": 2000})
    assert error.body["error"]["message"].startswith("`max_tokens` must be greater than `thinking.budget_tokens`")


# Refused as the real API refuses them (wording from its answers, or in its style where undocumented)

THINKING = {"type": "enabled", "budget_tokens": 1024}
HI = [{"role": "user", "content": "hi"}]
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "Qk0="}}
DOCS = ("Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/"
        "extended-thinking#important-considerations-when-using-extended-thinking")


@pytest.mark.parametrize("messages, params, message", [
    (HI, {"model": OLDER, "thinking": THINKING, "max_tokens": 2000, "extra_body": {"temperature": 0.5}},
     f"`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. {DOCS}"),
    (HI, {"model": OLDER, "thinking": {"type": "adaptive"}, "extra_body": {"temperature": 0}},
     f"`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. {DOCS}"),
    (HI, {"model": OLDER, "thinking": THINKING, "max_tokens": 2000, "extra_body": {"top_k": 5}},
     f"`top_k` must be unset when thinking is enabled. {DOCS}"),
    (HI, {"model": OLDER, "thinking": THINKING, "max_tokens": 2000, "tools": TOOLS, "tool_choice": {"type": "any"}},
     "Thinking may not be enabled when tool_choice forces tool use."),
    (HI, {"model": OLDER, "thinking": THINKING, "max_tokens": 2000, "tools": TOOLS,
          "tool_choice": {"type": "tool", "name": "get_diff"}},
     "Thinking may not be enabled when tool_choice forces tool use."),
    ([*HI, {"role": "assistant", "content": "The answer is "}], {},
     "messages: final assistant content cannot end with trailing whitespace"),
    ([*HI, {"role": "assistant", "content": [{"type": "text", "text": "Sure.\n"}]}], {},
     "messages: final assistant content cannot end with trailing whitespace"),
    ([{"role": "user", "content": [{"type": "text", "text": ""}]}], {}, "messages: text content blocks must be non-empty"),
    (HI, {"tools": [TOOLS[0], {**TOOLS[0], "description": "again"}]}, "tools: Tool names must be unique."),
    ([{"role": "user", "content": [IMAGE]}], {},
     "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' "
     "or 'image/webp'"),
    (HI, {"tools": [{"name": "get_diff", "input_schema": {"type": "object", "properties": {"pr": "integer"}}}]},
     "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
     "(https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use."),
    (HI, {"tools": [{"name": "get_diff", "input_schema": {"type": "string"}}]},
     "tools.0.custom.input_schema.type: Input should be 'object'"),
    (HI, {"extra_body": {"temperature": 1.5}}, "temperature: Input should be less than or equal to 1"),
    (HI, {"extra_body": {"temperature": -0.1}}, "temperature: Input should be greater than or equal to 0"),
    (HI, {"tools": [{"type": "mcp_toolset", "mcp_server_name": "gitlab", "colour": "red"}]},
     "tools.0.mcp_toolset.colour: Extra inputs are not permitted"),
    (HI, {"output_config": {"effort": "extreme"}},
     "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"),
    (HI, {"metadata": {"user_id": "u", "team": "a"}}, "metadata.team: Extra inputs are not permitted"),
    (HI, {"extra_body": {"context_management": {"edits": [{"type": "clear_tool_uses_20250919", "colour": 1}]}}},
     "context_management.edits.0.clear_tool_uses_20250919.colour: Extra inputs are not permitted"),
    # a union member named by its tag: what is missing in it, not that the tag fits another member
    (HI, {"extra_body": {"context_management": {"edits": [{"type": "clear_tool_uses_20250919",
                                                            "trigger": {"type": "input_tokens"}}]}}},
     "context_management.edits.0.clear_tool_uses_20250919.trigger.value: Field required"),
    (HI, {"extra_body": {"context_management": {"edits": [{"type": "clear_thinking_20251015",
                                                            "keep": {"type": "thinking_turns"}}]}}},
     "context_management.edits.0.clear_thinking_20251015.keep.value: Field required"),
    (HI, {"extra_body": {"context_management": {"edits": [{"type": "clear_tool_uses_20250919",
                                                            "keep": {"type": "thinking_turns", "value": 1}}]}}},
     "context_management.edits.0.clear_tool_uses_20250919.keep: Input tag 'thinking_turns' found using 'type' does "
     "not match any of the expected tags: 'tool_uses'"),
    (HI, {"extra_body": {"mcp_servers": [{"type": "url", "url": "https://mcp.example.com"}]}},
     "mcp_servers.0.name: Field required"),
    (HI, {"tools": [{"type": "web_search_20990101", "name": "web_search"}]},
     "tools.0: Input tag 'web_search_20990101' found using 'type' does not match any of the expected tags: "),
])
def test_refused_like_the_api(client, messages, params, message):
    error = rejection(client, messages, **params)
    assert isinstance(error, anthropic.BadRequestError)
    assert error.body["error"]["type"] == "invalid_request_error"
    assert error.body["error"]["message"].startswith(message)


def test_temperature_nan_is_refused(sandbox):
    body = json.dumps({"model": MODEL, "max_tokens": 10, "messages": HI, "temperature": math.nan}).encode()
    assert b"NaN" in body
    status, answer = raw_post(sandbox, "/v1/messages", body)
    assert (status, answer["error"]["message"]) == (400, "temperature: Input should be a finite number")


def test_missing_anthropic_version_header(sandbox):
    body = json.dumps({"model": MODEL, "max_tokens": 10, "messages": HI}).encode()
    status, answer = raw_post(sandbox, "/v1/messages", body, headers={"anthropic-version": ""})
    assert status == 400
    assert answer["error"] == {"type": "invalid_request_error", "message": "anthropic-version: header is required"}
    status, answer = raw_post(sandbox, "/v1/messages", body, headers={"anthropic-version": "2023-06-01, 2023-06-01"})
    assert (status, answer["error"]["message"]) == (400, 'anthropic-version: "2023-06-01, 2023-06-01" is not a valid version')
    assert raw_post(sandbox, "/v1/messages", body)[0] == 200


def test_every_request_gets_its_own_request_id_the_same_on_every_run(client):
    def ids() -> list[str]:
        from course_sandbox import Sandbox

        with Sandbox() as sb:
            c = sb.client(max_retries=0)
            got = [c.messages.with_raw_response.create(model=MODEL, max_tokens=10, messages=HI).headers["request-id"]
                   for _ in range(2)]
            try:
                c.messages.create(model="claude-nonexistent-1", max_tokens=10, messages=HI)
            except anthropic.NotFoundError as error:
                assert error.body["request_id"] == error.response.headers["request-id"]
                got.append(error.body["request_id"])
            return got

    first, second = ids(), ids()
    assert len(set(first)) == 3  # identical requests, distinct ids
    assert first == second       # and the same ids on the next run


# Accepted, as the real API accepts them

MCP_SERVER = {"type": "url", "url": "https://mcp.example.com/sse", "name": "gitlab",
              "authorization_token": "token", "tool_configuration": {"enabled": True, "allowed_tools": ["get_diff"]}}


@pytest.mark.parametrize("messages, params", [
    (HI, {"model": OLDER, "thinking": THINKING, "max_tokens": 2000, "extra_body": {"temperature": 1}}),
    (HI, {"thinking": {"type": "adaptive"}, "tools": TOOLS, "tool_choice": {"type": "auto"}}),
    ([*HI, {"role": "assistant", "content": "The answer is"}], {"model": SAMPLING}),
    ([{"role": "user", "content": [{**IMAGE, "source": {**IMAGE["source"], "media_type": "image/webp"}},
                                   {"type": "text", "text": "What is this?"}]}], {}),
    (HI, {"output_config": {"effort": "low", "format": {"type": "json_schema", "schema": {"type": "object"}}}}),
    (HI, {"model": SAMPLING, "metadata": {"user_id": "learner-1"}, "service_tier": "standard_only", "inference_geo": "us",
          "speed": "standard", "cache_control": {"type": "ephemeral", "ttl": "1h"},
          "container": {"id": "container_1"}, "diagnostics": {"previous_message_id": "msg_1"},
          "stop_sequences": ["END"], "extra_body": {"top_p": 0.9, "top_k": 40, "temperature": 0.2}}),
    (HI, {"container": {"id": "container_1", "skills": [{"skill_id": "pdf", "type": "anthropic", "version": "latest"}]},
          "extra_headers": {"anthropic-beta": "server-side-fallback-2026-07-01,context-management-2025-06-27"},
          "extra_body": {"fallbacks": [{"model": "claude-sonnet-5"}],
                         "context_management": {"edits": [{"type": "clear_thinking_20251015"}]}}}),
    # the API refuses `compaction` with `context_management`, so it has a request of its own
    (HI, {"extra_headers": {"anthropic-beta": "compact-2026-09-04"}, "extra_body": {"compaction": {"type": "summarize"}}}),
    (HI, {"tools": [{"name": "get_diff", "description": "diff", "strict": True, "defer_loading": False,
                     "input_examples": [{"pr": 482}], "allowed_callers": ["direct"], "eager_input_streaming": True,
                     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}},
                                      "required": ["pr"], "additionalProperties": False}}]}),
    (HI, {"tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 2,
                     "allowed_domains": ["example.com"]}]}),
])
def test_valid_requests_are_accepted(client, messages, params):
    assert create(client, messages, **params).stop_reason


def test_beta_mcp_toolset_with_mcp_servers_is_accepted(client):
    response = client.beta.messages.create(
        model=MODEL, max_tokens=100, messages=HI, betas=["mcp-client-2025-11-20", "context-management-2025-06-27"],
        mcp_servers=[MCP_SERVER],
        tools=[{"type": "mcp_toolset", "mcp_server_name": "gitlab",
                "default_config": {"enabled": True}, "configs": {"get_diff": {"enabled": True}}}],
        context_management={"edits": [{"type": "clear_tool_uses_20250919"}]}, timeout=30)
    assert response.stop_reason == "end_turn"


SYSTEM = {"role": "system", "content": "Answer briefly."}
PLACEMENT = ("messages.{i}: a system message must follow a user message (or an assistant message that ends in a "
             "server tool result) and be followed by an assistant message or end the list")


@pytest.mark.parametrize("messages", [
    [*HI, SYSTEM],
    [*HI, SYSTEM, {"role": "assistant", "content": "Sure"}, {"role": "user", "content": "2+2?"}],
    [*HI, {"role": "assistant", "content": [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}]}, SYSTEM],
])
def test_system_role_message_is_accepted_where_the_docs_place_it(client, messages):
    """The docs (mid-conversation system messages): right after a user turn, or an assistant turn ending in a
    server tool's result; right before an assistant turn, or last."""
    assert create(client, messages).stop_reason


@pytest.mark.parametrize(("messages", "i"), [
    ([*HI, SYSTEM, {"role": "user", "content": "2+2?"}], 1),
    ([*HI, {"role": "assistant", "content": "4"}, SYSTEM], 2),
])
@pytest.mark.parametrize("endpoint", ["create", "count_tokens"])
def test_system_role_message_elsewhere_is_refused(client, messages, i, endpoint):
    call = client.messages.create if endpoint == "create" else client.messages.count_tokens
    extra = {"max_tokens": 100} if endpoint == "create" else {}
    with pytest.raises(anthropic.BadRequestError) as caught:
        call(model=MODEL, messages=messages, **extra)
    assert caught.value.body["error"]["message"] == PLACEMENT.format(i=i)


@pytest.mark.parametrize(("model", "takes"), [
    ("claude-opus-4-8", True), ("claude-opus-5", True), ("claude-opus-5-5", True), ("claude-sonnet-5-5", True),
    ("claude-haiku-5-5", True), ("claude-fable-5-1", True), ("claude-mythos-5", True),
    ("claude-sonnet-5", False), ("claude-opus-4-7", False), ("claude-opus-4-6", False), ("claude-sonnet-4-6", False),
    ("claude-haiku-4-5", False), ("claude-opus-4-5", False), ("claude-mythos-preview", False),
])
def test_system_role_message_only_on_the_models_that_take_it(client, model, takes):
    """The docs list the models with mid-conversation system messages: Opus 4.8, the 5.x models but Sonnet 5."""
    if takes:
        assert create(client, [*HI, SYSTEM], model=model).stop_reason
        return
    with pytest.raises(anthropic.BadRequestError) as caught:
        create(client, [*HI, SYSTEM], model=model)
    assert caught.value.body["error"]["message"] == "role 'system' is not supported on this model"
    assert create(client, HI, model=model).stop_reason  # the same request without it is fine


@pytest.mark.parametrize("endpoint", ["create", "count_tokens"])
def test_system_role_message_cannot_come_first(client, endpoint):
    """The docs (mid-conversation system messages): such an entry cannot be the first entry; a 400."""
    messages = [{"role": "system", "content": "Answer briefly."}, *HI]
    call = client.messages.create if endpoint == "create" else client.messages.count_tokens
    extra = {"max_tokens": 100} if endpoint == "create" else {}
    with pytest.raises(anthropic.BadRequestError) as caught:
        call(model=MODEL, messages=messages, **extra)
    assert caught.value.body["error"]["message"] == 'messages: first message must use the "user" role'


def test_schema_verdicts_keep_digests_not_bodies():
    big = "x" * 5_000_000
    before = len(request_schema.VERDICTS)
    for i in range(3):
        assert request_schema.first_problem(
            {"model": MODEL, "max_tokens": 10, "system": f"{i}{big}", "messages": HI}) is None
    assert len(request_schema.VERDICTS) <= before + 6
    assert all(len(key[1]) == 64 for key in request_schema.VERDICTS._seen)
    assert request_schema.VERDICTS.size <= 8192


def test_max_tokens_zero_prewarms_the_cache(client):
    rules = [{"type": "text", "text": "rule " * 3000, "cache_control": {"type": "ephemeral"}}]
    warm = create(client, HI, system=rules, max_tokens=0)
    assert (warm.content, warm.stop_reason, warm.usage.output_tokens) == ([], "max_tokens", 0)
    assert warm.usage.cache_creation_input_tokens > 0
    assert create(client, HI, system=rules).usage.cache_read_input_tokens == warm.usage.cache_creation_input_tokens
