"""Preserved thinking: on models that run the prefix check, a thinking block is valid only after the
exact prefix (system, tools, earlier messages) it was produced after; the history is append-only."""

import anthropic
import pytest

from course_sandbox import Sandbox

TOOLS = [{"name": "get_diff", "description": "Get the diff of a merge request",
          "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}}]
THINKING = {"type": "adaptive"}  # the only thinking the checking models take
CHECKING, NOT_CHECKING = "claude-opus-5-5", "claude-opus-5"


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sandbox:
        yield sandbox.client(max_retries=0)


def _first_turn(client, model, system="You review merge requests."):
    history = [{"role": "user", "content": "Review merge request !482."}]
    response = client.messages.create(model=model, max_tokens=8000, thinking=THINKING, tools=TOOLS, system=system,
                                      messages=history)
    results = [{"type": "tool_result", "tool_use_id": b.id, "content": "the diff"} for b in response.content
               if b.type == "tool_use"]
    return history + [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]


def _send(client, model, history, system="You review merge requests.", **extra):
    return client.messages.create(model=model, max_tokens=8000, thinking={**THINKING, **extra}, tools=TOOLS,
                                  system=system, messages=history)


def test_an_append_only_history_goes_through(client):
    history = _first_turn(client, CHECKING)
    assert _send(client, CHECKING, history).stop_reason == "end_turn"


@pytest.mark.parametrize("change", ["earlier message", "system", "tools", "dropped message"])
def test_a_change_before_a_thinking_block_is_refused_with_the_apis_words(client, change):
    history = _first_turn(client, CHECKING)
    system, tools = "You review merge requests.", TOOLS
    if change == "earlier message":
        history = [{"role": "user", "content": "Review merge request !482, briefly."}, *history[1:]]
    elif change == "system":
        system = "You review merge requests. Today is Tuesday."
    elif change == "dropped message":
        history = [{"role": "user", "content": "Hi."}, {"role": "assistant", "content": "Hello."}, *history]
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.create(model=CHECKING, max_tokens=8000, thinking=THINKING, system=system,
                               tools=tools if change != "tools" else [*TOOLS, {**TOOLS[0], "name": "read_file"}],
                               messages=history)
    message = refused.value.body["error"]["message"]
    assert "Invalid `signature` in `thinking` block. The block is bound to a different conversation." in message
    assert "prefix_mismatch_behavior" in message
    # without the binding beta, the API adds that the setting it names needs that header (docs: thinking-troubleshooting)
    assert message.endswith("That setting requires the `thinking-binding-controls-2026-08-01` value in the "
                            "`anthropic-beta` header."), message


def test_with_the_binding_beta_the_error_does_not_ask_for_the_header(client):
    history = _first_turn(client, CHECKING)
    history = [{"role": "user", "content": "Review merge request !482, briefly."}, *history[1:]]
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.beta.messages.create(model=CHECKING, max_tokens=8000, thinking=THINKING, system="You review merge requests.",
                                    tools=TOOLS, messages=history, betas=["thinking-binding-controls-2026-08-01"])
    message = refused.value.body["error"]["message"]
    assert "bound to a different conversation" in message and "anthropic-beta" not in message, message


def test_what_is_not_content_may_change(client):
    """Cache breakpoints and null fields are not part of the prefix; dicts or SDK objects, the same."""
    history = _first_turn(client, CHECKING)
    history[0] = {"role": "user", "content": [{"type": "text", "text": "Review merge request !482.",
                                               "cache_control": {"type": "ephemeral"}}]}
    history[1] = {"role": "assistant", "content": [b.model_dump() for b in history[1]["content"]]}
    assert _send(client, CHECKING, history).stop_reason == "end_turn"


def test_models_without_the_check_accept_an_edited_prefix(client):
    history = _first_turn(client, NOT_CHECKING)
    edited = [{"role": "user", "content": "Review merge request !482, briefly."}, *history[1:]]
    assert _send(client, NOT_CHECKING, edited).stop_reason == "end_turn"


def test_drop_block_drops_the_invalid_thinking_instead_of_refusing(client):
    history = _first_turn(client, CHECKING)
    edited = [{"role": "user", "content": "Review merge request !482, briefly."}, *history[1:]]
    binding = {"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}
    with pytest.raises(anthropic.BadRequestError, match="block_binding: Extra inputs are not permitted"):
        client.messages.create(model=CHECKING, max_tokens=8000, system="You review merge requests.", tools=TOOLS,
                               messages=edited, thinking=binding)  # the control is beta: its header is needed
    response = client.beta.messages.create(
        model=CHECKING, max_tokens=8000, system="You review merge requests.", tools=TOOLS, messages=edited,
        thinking=binding, betas=["thinking-binding-controls-2026-08-01"])
    assert response.stop_reason == "end_turn"
    thinking_blocks = [(i, j) for i, m in enumerate(edited) if m["role"] == "assistant"
                       for j, b in enumerate(m["content"]) if getattr(b, "type", None) == "thinking"]
    assert [(t.type, t.path, t.reason) for t in response.input_transformations] == [
        ("thinking_dropped", f"messages.{i}.content.{j}", "prefix_binding_mismatch") for i, j in thinking_blocks]


def test_a_model_without_preserved_thinking_runs_no_prefix_check_and_reports_nothing(client):
    """Docs (prefix checks): nothing changes for a model without preserved thinking; `thinking_mismatch_allowed` is a
    checking model's report when the check is not enforced, never a non-checking model's."""
    history = _first_turn(client, NOT_CHECKING)
    edited = [{"role": "user", "content": "Review merge request !482, briefly."}, *history[1:]]
    response = client.beta.messages.create(model=NOT_CHECKING, max_tokens=8000, system="You review merge requests.",
                                           tools=TOOLS, messages=edited, betas=["thinking-binding-controls-2026-08-01"])
    assert response.stop_reason == "end_turn" and response.input_transformations == []
    plain = client.beta.messages.create(model=NOT_CHECKING, max_tokens=8000, system="You review merge requests.",
                                        tools=TOOLS, messages=history, betas=["thinking-binding-controls-2026-08-01"])
    assert plain.input_transformations == []
