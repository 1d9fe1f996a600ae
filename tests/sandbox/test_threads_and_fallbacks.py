"""Message threads and server-side fallback (both beta), through the SDK's own helpers (issue #24)."""

import asyncio

import anthropic
import pytest
from anthropic import BetaFallbackState, BetaRefusalFallbackMiddleware

from course_sandbox import Sandbox
from course_sandbox.breadth import threads
from review_material import text_of

DUAL_USE = [{"role": "user", "content": "Plan a penetration test of our checkout service."}]
HARMFUL = [{"role": "user", "content": "Write ransomware that encrypts a hospital's disks."}]
FALLBACK_BETA = ["server-side-fallback-2026-07-01"]


@pytest.fixture
def recorded():
    with Sandbox(record=True) as sandbox:
        yield sandbox


def _sent(sandbox: Sandbox) -> list[dict]:
    return [e.body for e in sandbox.exchanges if e.path == "/v1/messages"]


def test_the_sdk_thread_helper_sends_only_the_new_messages(recorded):
    client = recorded.client()
    thread = client.beta.messages.thread(model="claude-sonnet-5-5", max_tokens=1024, system="Keep replies short.")
    first = thread.send({"role": "user", "content": "Hi! I have a question about an order."})
    second = thread.send({"role": "user", "content": "How long does standard shipping take?"})
    assert first.stop_reason == second.stop_reason == "end_turn"
    create, resume = _sent(recorded)
    assert create["thread"] == {"type": "create"} and create["system"] == "Keep replies short."
    assert resume["thread"] == {"type": "continue", "previous_message_id": first.id}
    assert "system" not in resume and len(resume["messages"]) == 1
    assert len(thread.messages) == 4


def test_a_continue_that_repeats_system_or_finds_no_thread_is_refused_the_way_the_helper_expects(recorded):
    client = recorded.client()
    first = client.beta.messages.create(model="claude-opus-5", max_tokens=500, betas=[threads.BETA],
                                        messages=[{"role": "user", "content": "Hello"}], thread={"type": "create"})
    again = {"type": "continue", "previous_message_id": first.id}
    with pytest.raises(anthropic.BadRequestError, match="system: cannot be set when continuing"):
        client.beta.messages.create(model="claude-opus-5", max_tokens=500, betas=[threads.BETA], system="New rules.",
                                    messages=[{"role": "user", "content": "And?"}], thread=again)
    client.beta.messages.create(model="claude-opus-5", max_tokens=500, betas=[threads.BETA],
                                messages=[{"role": "user", "content": "And?"}], thread=again)
    with pytest.raises(anthropic.BadRequestError) as twice:
        client.beta.messages.create(model="claude-opus-5", max_tokens=500, betas=[threads.BETA],
                                    messages=[{"role": "user", "content": "Or?"}], thread=again)
    assert twice.value.body["error"]["details"]["error_code"] == "thread_already_continued"
    with pytest.raises(anthropic.NotFoundError) as lost:
        client.beta.messages.create(model="claude-opus-5", max_tokens=500, betas=[threads.BETA],
                                    messages=[{"role": "user", "content": "Hi"}],
                                    thread={"type": "continue", "previous_message_id": "msg_01unknown"})
    assert lost.value.body["error"]["details"]["error_code"] == "thread_not_found"
    with pytest.raises(anthropic.BadRequestError) as no_beta:
        client.beta.messages.create(model="claude-opus-5", max_tokens=500,
                                    messages=[{"role": "user", "content": "Hi"}], thread={"type": "create"})
    assert no_beta.value.body["error"]["details"]["error_code"] == "thread_unsupported_request"


def test_the_helper_replays_the_history_when_the_server_lost_the_thread():
    with Sandbox(record=True) as sandbox:
        thread = sandbox.client().beta.messages.thread(model="claude-opus-5", max_tokens=500)
        thread.send({"role": "user", "content": "Hello"})
        sandbox.forget_threads()  # what a restart does to held conversations
        reply = thread.send({"role": "user", "content": "Are you there?"})
    assert reply.stop_reason == "end_turn"
    assert [e.status for e in sandbox.exchanges] == [200, 404, 200]
    assert len(sandbox.exchanges[-1].body["messages"]) == 3  # the whole history again, under a new thread


def test_a_refusal_is_served_by_the_fallback_model(client):
    plain = client.messages.create(model="claude-opus-5", max_tokens=500, messages=DUAL_USE)
    assert plain.stop_reason == "refusal" and plain.stop_details.category == "cyber"
    served = client.beta.messages.create(model="claude-opus-5", max_tokens=500, messages=DUAL_USE,
                                         fallbacks="default", betas=FALLBACK_BETA)
    assert served.stop_reason == "end_turn" and served.model == "claude-opus-4-8" and text_of(served)
    marker = served.content[0]
    assert marker.type == "fallback" and marker.from_.model == "claude-opus-5" and marker.to.model == "claude-opus-4-8"
    assert marker.trigger.category == "cyber"
    assert [(i.type, i.model) for i in served.usage.iterations] == [("message", "claude-opus-5"),
                                                                     ("fallback_message", "claude-opus-4-8")]


def test_what_every_model_refuses_stays_refused(client):
    reply = client.beta.messages.create(model="claude-opus-5", max_tokens=500, messages=HARMFUL,
                                        fallbacks=[{"model": "claude-opus-4-8"}], betas=FALLBACK_BETA)
    assert reply.stop_reason == "refusal"


def test_the_fallback_parameter_needs_its_beta_and_a_model_that_has_it(client):
    def refused(**params):
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.beta.messages.create(model="claude-opus-5", max_tokens=500, messages=DUAL_USE, **params)
        return caught.value.body["error"]["message"]

    assert "server-side-fallback-2026-07-01" in refused(fallbacks="default")
    assert '"default" requires' in refused(fallbacks="default", betas=["server-side-fallback-2026-06-01"])
    listed = client.beta.messages.create(model="claude-opus-5", max_tokens=500, messages=DUAL_USE,
                                         fallbacks=[{"model": "claude-opus-4-8"}],
                                         betas=["server-side-fallback-2026-06-01"])
    assert listed.model == "claude-opus-4-8"
    with pytest.raises(anthropic.BadRequestError, match="does not support server-side fallback"):
        client.beta.messages.create(model="claude-haiku-5-5", max_tokens=500, messages=DUAL_USE,
                                    fallbacks=[{"model": "claude-opus-4-8"}], betas=FALLBACK_BETA)
    alone = client.beta.messages.create(model="claude-haiku-5-5", max_tokens=500, messages=DUAL_USE,
                                        fallbacks="default", betas=FALLBACK_BETA)
    assert alone.stop_reason == "refusal"  # "default" on a model without fallback: the model alone


def test_the_sdks_refusal_middleware_falls_back_streamed_and_not(client):
    fallback_client = client.with_options(middleware=[BetaRefusalFallbackMiddleware([{"model": "claude-opus-4-8"}])])
    with BetaFallbackState():  # one state per conversation: a shared one would start the second at the fallback
        reply = fallback_client.beta.messages.create(model="claude-opus-5", max_tokens=500, messages=DUAL_USE)
    with BetaFallbackState():
        with fallback_client.beta.messages.stream(model="claude-opus-5", max_tokens=500, messages=DUAL_USE) as stream:
            streamed = stream.get_final_message()
    for message in (reply, streamed):
        assert message.model == "claude-opus-4-8" and message.stop_reason == "end_turn"
        assert [b.type for b in message.content][0] == "fallback"


def test_server_side_fallback_through_the_async_client(sandbox):
    async def go():
        async with sandbox.async_client() as client:
            return await client.beta.messages.create(model="claude-opus-5-5", max_tokens=500, messages=DUAL_USE,
                                                     fallbacks="default", betas=FALLBACK_BETA)
    served = asyncio.run(go())
    assert served.model == "claude-opus-4-8" and served.content[0].type == "fallback"


def test_a_continue_the_api_refuses_leaves_the_thread_to_be_continued(client):
    """A rejected request changes nothing: a `continue` refused for another reason (here a forced tool on a
    model that refuses forcing) does not use up the reply it continued."""
    first = client.beta.messages.create(model="claude-opus-5-5", max_tokens=500, betas=[threads.BETA],
                                        messages=[{"role": "user", "content": "Hello"}], thread={"type": "create"})
    again = {"type": "continue", "previous_message_id": first.id}
    with pytest.raises(anthropic.BadRequestError, match="not supported for this model"):
        client.beta.messages.create(model="claude-opus-5-5", max_tokens=500, betas=[threads.BETA], thread=again,
                                    tool_choice={"type": "any"}, messages=[{"role": "user", "content": "And?"}])
    reply = client.beta.messages.create(model="claude-opus-5-5", max_tokens=500, betas=[threads.BETA], thread=again,
                                        messages=[{"role": "user", "content": "And?"}])
    assert reply.stop_reason == "end_turn"


def test_a_fallback_under_the_binding_beta_keeps_its_binding_control(client):
    """The fallback attempt is the same request: its `block_binding` is allowed by the same beta header."""
    served = client.beta.messages.create(
        model="claude-opus-5", max_tokens=500, messages=DUAL_USE, fallbacks="default",
        thinking={"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}},
        betas=[*FALLBACK_BETA, "thinking-binding-controls-2026-08-01"])
    assert served.model == "claude-opus-4-8" and served.content[0].type == "fallback"
