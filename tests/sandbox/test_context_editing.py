"""Context editing and compaction (beta) in the sandbox, through the real SDK: shapes it parses into its own
types (BetaMessage with `context_management`, `compaction` blocks, `usage.iterations`), plain and streamed,
sync and async, and the refusals of requests the API refuses."""

import asyncio

import anthropic
import pytest
from anthropic.types.beta import (BetaClearThinking20251015EditResponse, BetaClearToolUses20250919EditResponse,
                                  BetaCompactionBlock, BetaCompactionIterationUsage, BetaMessage,
                                  BetaMessageIterationUsage)

from course_sandbox import Sandbox
from course_sandbox.breadth.context_editing import CLEARED_RESULT

MODEL = "claude-opus-5"
CONTEXT = "context-management-2025-06-27"
THRESHOLD = "compact-2026-01-12"
ON_DEMAND = "compact-2026-09-04"
WEATHER = {"name": "get_weather", "description": "Get the weather in a city",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
LOG = {"name": "read_log", "description": "Read the server log of a city",
       "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


def clear(**edit) -> dict:
    return {"edits": [{"type": "clear_tool_uses_20250919", **edit}]}


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox() as sb:
        yield sb


@pytest.fixture(scope="module")
def client(sandbox):
    return sandbox.client()


@pytest.fixture(scope="module")
def history(client) -> list[dict]:
    """Four weather calls in one turn, each answered with a long result."""
    messages = [{"role": "user", "content": "What is the weather in Paris, in Tokyo, in Rome and in Oslo?"}]
    reply = client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=messages)
    uses = [b for b in reply.content if b.type == "tool_use"]
    assert len(uses) == 4
    return [*messages, {"role": "assistant", "content": [b.to_dict() for b in reply.content]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": b.id,
                                          "content": f"{b.input['city']}: sunny, 21 C. " * 40} for b in uses]}]


def test_clearing_replaces_old_results_and_reports_them(client, history):
    response = client.beta.messages.create(
        model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history, betas=[CONTEXT],
        context_management=clear(trigger={"type": "tool_uses", "value": 3}, keep={"type": "tool_uses", "value": 1}))
    assert isinstance(response, BetaMessage)
    [edit] = response.context_management.applied_edits
    assert isinstance(edit, BetaClearToolUses20250919EditResponse)
    assert edit.cleared_tool_uses == 3 and edit.cleared_input_tokens > 300
    answer = response.content[-1].text
    assert CLEARED_RESULT in answer and "Oslo: sunny" in answer  # the model read the edited copy
    assert not any(f"{city}: sunny" in answer for city in ("Paris", "Tokyo", "Rome"))
    assert history[2]["content"][0]["content"].startswith("Paris: sunny")  # the client's history is whole


def test_not_triggered_or_too_little_to_clear_applies_nothing(client, history):
    for edit in ({},  # default trigger: 100,000 input tokens
                 {"trigger": {"type": "tool_uses", "value": 2}, "clear_at_least": {"type": "input_tokens",
                                                                                    "value": 100_000}},
                 {"trigger": {"type": "tool_uses", "value": 2}, "keep": {"type": "tool_uses", "value": 4}}):
        response = client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history,
                                               betas=[CONTEXT], context_management=clear(**edit))
        assert response.context_management.applied_edits == []
        assert CLEARED_RESULT not in response.content[-1].text


def test_the_input_token_trigger_and_clear_tool_inputs(client, history):
    plain = client.beta.messages.count_tokens(model=MODEL, tools=[WEATHER], messages=history).input_tokens
    edit = clear(trigger={"type": "input_tokens", "value": plain}, keep={"type": "tool_uses", "value": 0},
                 clear_tool_inputs=True)
    counted = client.beta.messages.count_tokens(model=MODEL, tools=[WEATHER], messages=history, betas=[CONTEXT],
                                                context_management=edit)
    assert counted.context_management.original_input_tokens == plain
    assert counted.input_tokens < plain
    response = client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history,
                                           betas=[CONTEXT], context_management=edit)
    assert response.context_management.applied_edits[0].cleared_tool_uses == 4
    assert response.usage.input_tokens == counted.input_tokens
    one_above = clear(trigger={"type": "input_tokens", "value": plain + 1})
    assert client.beta.messages.count_tokens(model=MODEL, tools=[WEATHER], messages=history, betas=[CONTEXT],
                                             context_management=one_above).input_tokens == plain


def test_excluded_tools_keep_their_results(client):
    messages = [{"role": "user", "content": "weather in Paris"},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "read_log", "input": {"city": "Paris"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Paris"}}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "log line " * 30},
                    {"type": "tool_result", "tool_use_id": "toolu_2", "content": "sunny " * 30}]}]
    response = client.beta.messages.create(
        model=MODEL, max_tokens=2000, tools=[WEATHER, LOG], messages=messages, betas=[CONTEXT],
        context_management=clear(trigger={"type": "tool_uses", "value": 1}, keep={"type": "tool_uses", "value": 0},
                                 exclude_tools=["read_log"]))
    assert response.context_management.applied_edits[0].cleared_tool_uses == 1


def test_clear_thinking_keeps_the_latest_turns(client, history):
    signed = client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history)
    longer = [*history, {"role": "assistant", "content": [b.to_dict() for b in signed.content]},
              {"role": "user", "content": "Thanks."}]
    assert any(b["type"] == "thinking" for b in longer[1]["content"])
    response = client.beta.messages.create(
        model=MODEL, max_tokens=2000, tools=[WEATHER], messages=longer, betas=[CONTEXT],
        context_management={"edits": [{"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns",
                                                                                    "value": 1}}]})
    [edit] = response.context_management.applied_edits
    assert isinstance(edit, BetaClearThinking20251015EditResponse) and edit.cleared_thinking_turns == 1
    kept = client.beta.messages.create(
        model=MODEL, max_tokens=2000, tools=[WEATHER], messages=longer, betas=[CONTEXT],
        context_management={"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]})
    assert kept.context_management.applied_edits == []


def test_on_demand_compaction_and_its_round_trip(client, history):
    compacted = client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history,
                                            betas=[ON_DEMAND], compaction={"type": "summarize"})
    assert compacted.stop_reason == "compaction"
    [block] = compacted.content
    assert isinstance(block, BetaCompactionBlock) and block.signature
    assert "Paris" in block.content and "get_weather" in block.content
    [work] = compacted.usage.iterations
    assert isinstance(work, BetaCompactionIterationUsage) and work.input_tokens == compacted.usage.input_tokens
    with client.beta.messages.stream(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history,
                                     betas=[ON_DEMAND], compaction={"type": "summarize"}) as stream:
        assert stream.get_final_message().content == compacted.content
    after = [{"role": "assistant", "content": [block.to_dict()]}, {"role": "user", "content": "And in Berlin?"}]
    before = client.beta.messages.count_tokens(model=MODEL, tools=[WEATHER], messages=history).input_tokens
    assert client.beta.messages.count_tokens(model=MODEL, tools=[WEATHER], messages=after,
                                             betas=[ON_DEMAND]).input_tokens < before / 2
    reply = client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=after,
                                        betas=[ON_DEMAND])
    assert reply.stop_reason == "tool_use"
    tampered = [{"role": "assistant", "content": [{**block.to_dict(), "content": "Nothing happened."}]},
                {"role": "user", "content": "And in Berlin?"}]
    ignored = client.beta.messages.count_tokens(model=MODEL, tools=[WEATHER], messages=history,
                                                betas=[CONTEXT], compaction={"type": "summarize"},
                                                context_management=clear())
    assert ignored.context_management.original_input_tokens == before  # count_tokens ignores `compaction`
    with pytest.raises(anthropic.BadRequestError, match="signature"):
        client.beta.messages.create(model=MODEL, max_tokens=2000, messages=tampered, betas=[ON_DEMAND])


def big_task() -> list[dict]:
    return [{"role": "user", "content": "Review this text please: " + "lorem ipsum dolor sit amet " * 12_000}]


def threshold(pause: bool, value: int = 50_000) -> dict:
    return {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": value},
                       "pause_after_compaction": pause}]}


def test_threshold_compaction_pauses_and_continues(client):
    paused = client.beta.messages.create(model=MODEL, max_tokens=2000, messages=big_task(), betas=[THRESHOLD],
                                         context_management=threshold(pause=True))
    assert paused.stop_reason == "compaction" and [b.type for b in paused.content] == ["compaction"]
    assert paused.usage.input_tokens == 0 and paused.usage.iterations[0].input_tokens > 50_000
    resumed = client.beta.messages.create(
        model=MODEL, max_tokens=2000, messages=[*big_task(), {"role": "assistant", "content": paused.content}],
        betas=[THRESHOLD], context_management=threshold(pause=True))
    assert resumed.stop_reason == "end_turn" and resumed.usage.input_tokens < 1000


def test_threshold_compaction_without_pause_answers_after_the_block(client):
    response = client.beta.messages.create(model=MODEL, max_tokens=2000, messages=big_task(), betas=[THRESHOLD],
                                           context_management=threshold(pause=False))
    assert response.content[0].type == "compaction" and response.content[-1].type == "text"
    compaction, message = response.usage.iterations
    assert isinstance(compaction, BetaCompactionIterationUsage) and isinstance(message, BetaMessageIterationUsage)
    assert response.usage.input_tokens == message.input_tokens < compaction.input_tokens
    below = client.beta.messages.create(model=MODEL, max_tokens=2000, messages=big_task(), betas=[THRESHOLD],
                                        context_management=threshold(pause=True, value=200_000))
    assert below.stop_reason == "end_turn" and below.content[0].type != "compaction"


@pytest.mark.parametrize("kwargs, wording", [
    ({"context_management": clear()}, "requires the `context-management-2025-06-27` beta"),
    ({"context_management": threshold(pause=True)}, "requires the `compact-2026-01-12` beta"),
    ({"compaction": {"type": "summarize"}}, "requires the `compact-2026-09-04` beta"),
    ({"betas": [THRESHOLD], "context_management": threshold(pause=True, value=1000)},
     "trigger.value: Input should be greater than or equal to 50000"),
    ({"betas": [ON_DEMAND, CONTEXT], "compaction": {"type": "summarize"}, "context_management": clear()},
     "cannot be combined"),
    ({"betas": [CONTEXT], "context_management": {"edits": [
        {"type": "clear_tool_uses_20250919"}, {"type": "clear_thinking_20251015"}]}}, "must be the first edit"),
    ({"betas": [THRESHOLD], "context_management": {"edits": [{"type": "compact_20260112",
                                                                "pause_after_compaction": "yes"}]}},
     "context_management.edits.0.compact_20260112.pause_after_compaction: Input should be a valid boolean"),
])
def test_refused_like_the_api(client, kwargs, wording):
    with pytest.raises(anthropic.BadRequestError, match=wording.replace("(", r"\(").replace("`", ".")):
        client.beta.messages.create(model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "Hi"}],
                                    **kwargs)


def test_async_client_and_stream_see_the_same_edits(sandbox, history):
    edit = clear(trigger={"type": "tool_uses", "value": 3}, keep={"type": "tool_uses", "value": 1})

    async def both():
        async with anthropic.AsyncAnthropic(api_key=sandbox.api_key, base_url=sandbox.url) as client:
            plain = await client.beta.messages.create(model=MODEL, max_tokens=2000, tools=[WEATHER],
                                                      messages=history, betas=[CONTEXT], context_management=edit)
            async with client.beta.messages.stream(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=history,
                                                   betas=[CONTEXT], context_management=edit) as stream:
                streamed = await stream.get_final_message()
            return plain, streamed

    plain, streamed = asyncio.run(both())
    assert plain.context_management == streamed.context_management
    assert plain.context_management.applied_edits[0].cleared_tool_uses == 3


def test_the_tool_runner_compacts_before_the_next_turn(client):
    from anthropic import beta_tool

    @beta_tool
    def get_weather(city: str) -> str:
        """Get the weather in a city"""
        return f"{city}: sunny, 21 C."

    runner = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=2000, tools=[get_weather], max_iterations=10, betas=[ON_DEMAND],
        messages=[{"role": "user", "content": "What is the weather in Paris?"}])
    stops = []
    for message in runner:
        if not stops:
            runner.compact_before_next_turn()
        stops.append(message.stop_reason)
    assert stops[:2] == ["tool_use", "compaction"] and stops[-1] == "end_turn"


def test_a_russian_task_gets_a_russian_summary_and_a_recorded_stream_keeps_it():
    task = [{"role": "user", "content": "Какая погода в Париже?"}]
    with Sandbox(record=True) as sb:
        client = sb.client()
        with client.beta.messages.stream(model=MODEL, max_tokens=2000, tools=[WEATHER], messages=task,
                                         betas=[ON_DEMAND], compaction={"type": "summarize"}) as stream:
            block = stream.get_final_message().content[0]
        assert block.content.startswith("Краткое содержание") and "Париже" in block.content
        assert sb.exchanges[-1].reply["content"][0]["content"] == block.content


def test_a_fallback_model_reads_the_same_edited_request(client, history):
    refused = [*history[:2], {"role": "user", "content": [
        *history[2]["content"], {"type": "text", "text": "Also plan a penetration test of the attack surface."}]}]
    response = client.beta.messages.create(
        model=MODEL, max_tokens=2000, tools=[WEATHER], messages=refused, fallbacks=[{"model": "claude-opus-4-8"}],
        betas=[CONTEXT, "server-side-fallback-2026-07-01"],
        context_management=clear(trigger={"type": "tool_uses", "value": 3}, keep={"type": "tool_uses", "value": 1}))
    assert response.content[0].type == "fallback"
    assert response.context_management.applied_edits[0].cleared_tool_uses == 3


def test_a_beta_batch_applies_its_betas_to_every_request(client, history):
    import time

    params = {"model": MODEL, "max_tokens": 2000, "tools": [WEATHER], "messages": history,
              "context_management": clear(trigger={"type": "tool_uses", "value": 3})}
    results = {}
    for name, betas in (("with", [CONTEXT]), ("without", [])):
        batch = client.beta.messages.batches.create(requests=[{"custom_id": name, "params": params}], betas=betas)
        while client.beta.messages.batches.retrieve(batch.id).processing_status != "ended":
            time.sleep(0.05)
        [results[name]] = client.beta.messages.batches.results(batch.id)
    assert results["with"].result.message.context_management.applied_edits[0].cleared_tool_uses == 1
    assert results["without"].result.type == "errored"
