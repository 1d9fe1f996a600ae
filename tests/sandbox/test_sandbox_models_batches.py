"""/v1/models and /v1/messages/batches through the real anthropic client."""

import time
import typing

import anthropic
import pytest
from anthropic.types import Model, ModelInfo

from sandbox_http import MODEL
from course_sandbox.models import KNOWN_MODELS
from review_material import text_of

HI = [{"role": "user", "content": "Count from 1 to 10"}]


def request(custom_id: str, **params) -> dict:
    return {"custom_id": custom_id, "params": {"model": MODEL, "max_tokens": 100, "messages": HI, **params}}


def ended(client, batch_id: str, timeout: float = 10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        batch = client.messages.batches.retrieve(batch_id)
        if batch.processing_status == "ended":
            return batch
        time.sleep(0.05)
    raise AssertionError(f"batch {batch_id} did not end in {timeout} s")


# /v1/models

def sdk_models() -> list[str]:
    return [m for arg in typing.get_args(Model) for m in typing.get_args(arg)]


def test_every_model_the_sdk_names_is_listed_with_its_limits(client):
    listed = {m.id: m for m in client.models.list()}  # the SDK follows the pages
    assert set(sdk_models()) <= set(listed)
    for model_id, info in listed.items():
        assert isinstance(info, ModelInfo) and info.type == "model" and info.display_name.startswith("Claude ")
        assert info.max_tokens == KNOWN_MODELS[model_id].max_output_tokens
        assert info.max_input_tokens == KNOWN_MODELS[model_id].context_window
        assert info.created_at is not None


@pytest.mark.parametrize(("model_id", "context", "output"), [
    # the docs' model pages: "Context window: 1M tokens · Max output: 128K tokens", 200K/64K on Opus 4.5, Haiku 4.5
    ("claude-opus-4-6", 1_000_000, 128_000), ("claude-opus-4-7", 1_000_000, 128_000),
    ("claude-opus-4-8", 1_000_000, 128_000), ("claude-sonnet-4-6", 1_000_000, 128_000),
    ("claude-opus-5", 1_000_000, 128_000), ("claude-sonnet-5-5", 1_000_000, 128_000),
    ("claude-opus-4-5-20251101", 200_000, 64_000), ("claude-haiku-4-5", 200_000, 64_000),
])
def test_limits_are_the_model_pages(client, model_id, context, output):
    info = client.models.retrieve(model_id)
    assert (info.max_input_tokens, info.max_tokens) == (context, output)
    with client.messages.stream(model=model_id, max_tokens=output, messages=[{"role": "user", "content": "Hi"}]) as s:
        assert s.get_final_message().stop_reason == "end_turn"
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(model=model_id, max_tokens=output + 1, messages=[{"role": "user", "content": "Hi"}],
                               stream=True)


@pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")
def test_every_listed_model_answers_messages(client):
    for info in client.models.list(limit=100).data:
        response = client.messages.create(model=info.id, max_tokens=50, messages=[{"role": "user", "content": "Hello"}])
        assert response.model == info.id


def test_pagination(client):
    everything = [m.id for m in client.models.list(limit=1000).data]
    first = client.models.list(limit=3)
    assert [m.id for m in first.data] == everything[:3]
    assert first.has_more and (first.first_id, first.last_id) == (everything[0], everything[2])
    second = client.models.list(limit=3, after_id=first.last_id)
    assert [m.id for m in second.data] == everything[3:6]
    before = client.models.list(limit=2, before_id=everything[5])
    assert [m.id for m in before.data] == everything[3:5]
    last = client.models.list(limit=3, after_id=everything[-2])
    assert [m.id for m in last.data] == everything[-1:] and not last.has_more
    assert [m.id for m in client.models.list(limit=2)] == everything  # auto-pagination
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.models.list(limit=0)
    assert caught.value.body["error"]["message"] == "limit: Input should be greater than or equal to 1"


def test_retrieve_and_unknown_model(client):
    info = client.models.retrieve("claude-opus-4-5-20251101")
    assert (info.display_name, info.created_at.year, info.lifecycle) == ("Claude Opus 4.5", 2025, "deprecated")
    with pytest.raises(anthropic.NotFoundError) as caught:
        client.models.retrieve("claude-nonexistent-1")
    assert caught.value.body["error"] == {"type": "not_found_error", "message": "model: claude-nonexistent-1"}


# /v1/messages/batches

def test_batch_lifecycle_and_results(client):
    batch = client.messages.batches.create(requests=[
        request("counts"),
        request("empty-text", messages=[{"role": "user", "content": [{"type": "text", "text": ""}]}]),
        request("unknown-model", model="claude-nonexistent-1"),
    ])
    assert batch.processing_status == "in_progress" and batch.results_url is None
    assert batch.request_counts.processing == 3 and batch.ended_at is None
    assert (batch.expires_at - batch.created_at).total_seconds() == 24 * 3600
    done = ended(client, batch.id)
    assert done.request_counts.model_dump() == {"processing": 0, "succeeded": 1, "errored": 2, "canceled": 0,
                                                "expired": 0}
    assert done.results_url.endswith(f"/v1/messages/batches/{batch.id}/results") and done.ended_at
    results = {r.custom_id: r.result for r in client.messages.batches.results(batch.id)}
    assert results["counts"].type == "succeeded"
    assert text_of(results["counts"].message).startswith("1, 2, 3")
    assert results["empty-text"].type == "errored"
    assert results["empty-text"].error.error.message == "messages: text content blocks must be non-empty"
    assert results["unknown-model"].error.error.type == "not_found_error"
    # a result is the answer /v1/messages gives the same params
    direct = client.messages.create(**request("x")["params"])
    assert results["counts"].message.content == direct.content


def test_cancel_marks_unanswered_requests_canceled(sandbox, client):
    sandbox.messages_api.batches.delay = 30  # stays in_progress until canceled
    batch = client.messages.batches.create(requests=[request("a"), request("b")])
    canceling = client.messages.batches.cancel(batch.id)
    assert canceling.processing_status == "canceling" and canceling.cancel_initiated_at is not None
    done = ended(client, batch.id)
    assert done.request_counts.canceled == 2
    assert [r.result.type for r in client.messages.batches.results(batch.id)] == ["canceled", "canceled"]
    with pytest.raises(anthropic.BadRequestError):
        client.messages.batches.cancel(batch.id)


def test_list_delete_and_not_found(sandbox, client):
    ids = [client.messages.batches.create(requests=[request(f"r{n}")]).id for n in range(3)]
    assert [b.id for b in client.messages.batches.list(limit=10).data] == ids[::-1]  # newest first
    page = client.messages.batches.list(limit=2)
    assert page.has_more and [b.id for b in page.data] == ids[:0:-1]
    assert [b.id for b in client.messages.batches.list(limit=2)] == ids[::-1]  # auto-pagination
    sandbox.messages_api.batches.delay = 30
    busy = client.messages.batches.create(requests=[request("busy")])
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.batches.delete(busy.id)
    assert "cannot be deleted while it is in_progress" in caught.value.body["error"]["message"]
    ended(client, ids[0])
    deleted = client.messages.batches.delete(ids[0])
    assert (deleted.id, deleted.type) == (ids[0], "message_batch_deleted")
    with pytest.raises(anthropic.NotFoundError):
        client.messages.batches.retrieve(ids[0])


@pytest.mark.parametrize("requests, message", [
    ([], "requests: List should have at least 1 item after validation, not 0"),
    ([request("bad id!")], "requests.0.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"),
    ([request("same"), request("same")], "requests.1.custom_id: Duplicate custom_id 'same'"),
    ([{"custom_id": "a"}], "requests.0.params: Field required"),
])
def test_invalid_batches_are_400(client, requests, message):
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.batches.create(requests=requests)
    assert caught.value.body["error"]["message"].startswith(message)


def test_beta_batches(client):
    batch = client.beta.messages.batches.create(requests=[request("beta")], betas=["message-batches-2024-09-24"])
    while client.beta.messages.batches.retrieve(batch.id).processing_status != "ended":
        time.sleep(0.05)
    assert [r.result.type for r in client.beta.messages.batches.results(batch.id)] == ["succeeded"]
    assert batch.id in [b.id for b in client.beta.messages.batches.list()]


def test_the_worker_stops_with_the_sandbox():
    from course_sandbox import Sandbox

    with Sandbox() as sb:
        sb.client().messages.batches.create(requests=[request("a")])
        worker = sb.messages_api.batches._worker
        assert worker is not None and worker.is_alive()
    worker.join(5)
    assert not worker.is_alive()
