"""Streaming, thinking signatures and caching usage, read by the real SDK."""

from sandbox_http import MODEL
from review_material import TOOLS
from course_sandbox.thinking import verify

THINKING = {"type": "adaptive", "display": "summarized"}


def test_stream_gives_the_same_message_as_create(client):
    params = dict(model=MODEL, max_tokens=1000, tools=TOOLS,
                  messages=[{"role": "user", "content": "Review PR #482"}])
    created = client.messages.create(**params)
    with client.messages.stream(**params) as stream:
        events = [event.type for event in stream]
        final = stream.get_final_message()
    assert final.to_dict() == created.to_dict()
    assert events[0] == "message_start"
    assert "input_json" in events
    assert events[-1] == "message_stop"


def test_stream_of_text_arrives_in_pieces(client):
    with client.messages.stream(model=MODEL, max_tokens=2000,
                                messages=[{"role": "user", "content": "Explain the agent loop"}]) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(pieces) > 5
    assert "".join(pieces) == "".join(block.text for block in final.content if block.type == "text")


def test_cut_tool_input_streams_as_partial_json(client):
    off = {"type": "disabled"}  # so that the cut falls in the tool call, not in the thinking before it
    with client.messages.stream(model=MODEL, max_tokens=17, tools=TOOLS, thinking=off,
                                messages=[{"role": "user", "content": "Review PR #482"}]) as stream:
        final = stream.get_final_message()
    created = client.messages.create(model=MODEL, max_tokens=17, tools=TOOLS, thinking=off,
                                     messages=[{"role": "user", "content": "Review PR #482"}])
    assert final.stop_reason == created.stop_reason == "max_tokens"
    assert final.content[-1].input == created.content[-1].input


def test_thinking_blocks_are_signed_and_round_trip(client):
    messages = [{"role": "user", "content": "Review PR #482"}]
    first = client.messages.create(model=MODEL, max_tokens=3000, thinking=THINKING, tools=TOOLS, messages=messages)
    assert first.content[0].type == "thinking"
    assert verify(first.content[0].thinking, first.content[0].signature)
    with client.messages.stream(model=MODEL, max_tokens=3000, thinking=THINKING, tools=TOOLS,
                                messages=messages) as stream:
        assert stream.get_final_message().content[0] == first.content[0]
    use = next(block for block in first.content if block.type == "tool_use")
    messages += [{"role": "assistant", "content": first.content},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "no diff"}]}]
    second = client.messages.create(model=MODEL, max_tokens=3000, thinking=THINKING, tools=TOOLS, messages=messages)
    assert second.stop_reason in ("end_turn", "tool_use")


def test_prompt_caching_writes_then_reads(client):
    system = [{"type": "text", "text": "Review rules. " * 600, "cache_control": {"type": "ephemeral"}}]
    params = dict(model=MODEL, max_tokens=500, system=system, messages=[{"role": "user", "content": "Hello"}])
    first = client.messages.create(**params)
    second = client.messages.create(**params)
    assert first.usage.cache_creation_input_tokens > 1024
    assert first.usage.cache_read_input_tokens == 0
    assert second.usage.cache_creation_input_tokens == 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    assert second.usage.input_tokens == first.usage.input_tokens


def test_prompt_below_the_minimum_is_silently_not_cached(client):
    system = [{"type": "text", "text": "Short rules.", "cache_control": {"type": "ephemeral"}}]
    params = dict(model=MODEL, max_tokens=500, system=system, messages=[{"role": "user", "content": "Hello"}])
    client.messages.create(**params)
    again = client.messages.create(**params)
    assert again.usage.cache_creation_input_tokens == again.usage.cache_read_input_tokens == 0


def test_automatic_caching_follows_a_growing_conversation(client):
    messages = [{"role": "user", "content": "Tell me about the agent loop. " + "Context. " * 800}]
    first = client.messages.create(model=MODEL, max_tokens=2000, cache_control={"type": "ephemeral"},
                                   messages=messages)
    messages += [{"role": "assistant", "content": first.content}, {"role": "user", "content": "And the cap?"}]
    second = client.messages.create(model=MODEL, max_tokens=2000, cache_control={"type": "ephemeral"},
                                    messages=messages)
    assert first.usage.cache_creation_input_tokens > 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    assert second.usage.cache_creation_input_tokens > 0


def test_one_hour_ttl_is_reported_apart(client):
    system = [{"type": "text", "text": "Rules. " * 2000, "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
    first = client.messages.create(model=MODEL, max_tokens=500, system=system,
                                   messages=[{"role": "user", "content": "Hello"}])
    assert first.usage.cache_creation.ephemeral_1h_input_tokens == first.usage.cache_creation_input_tokens > 0


def test_count_tokens_matches_billed_input(client):
    params = dict(model=MODEL, messages=[{"role": "user", "content": "Review PR #482"}], tools=TOOLS)
    counted = client.messages.count_tokens(**params).input_tokens
    billed = client.messages.create(max_tokens=500, **params).usage
    assert counted == billed.input_tokens + billed.cache_read_input_tokens + billed.cache_creation_input_tokens


def test_a_stream_has_its_own_request_id(client):
    params = dict(model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "Hello"}])
    ids = []
    for _ in range(2):
        with client.messages.with_streaming_response.create(**params, stream=True) as response:
            ids.append(response.headers["request-id"])
            assert response.headers["content-type"].startswith("text/event-stream")
    assert ids[0] != ids[1] and all(i.startswith("req_01") for i in ids)


def test_a_stream_with_max_tokens_zero_generates_nothing(client):
    with client.messages.stream(model=MODEL, max_tokens=0, messages=[{"role": "user", "content": "Hello"}]) as stream:
        final = stream.get_final_message()
    assert (final.content, final.stop_reason, final.usage.output_tokens) == ([], "max_tokens", 0)
