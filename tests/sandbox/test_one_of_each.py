"""The sandbox's shared parts: the record of exchanges read from the HTTP traffic (streamed or not,
any client), one reading of credentials, a public force(), and werkzeug's router for GitLab's
URL-encoded paths."""

import asyncio
import json
import urllib.request

import httpx2
import anthropic
import pytest
from review_material import TOOLS
from sandbox_http import MODEL
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from course_sandbox import Sandbox
from course_sandbox.web import credential

REVIEW = [{"role": "user", "content": "Review PR #482"}]


@pytest.fixture
def recorded():
    with Sandbox(record=True) as sb:
        yield sb


def test_a_streamed_reply_is_recorded_as_the_message_create_answers(recorded):
    client = recorded.client(max_retries=0)
    created = client.messages.create(model=MODEL, max_tokens=2000, tools=TOOLS, messages=REVIEW)
    with client.messages.stream(model=MODEL, max_tokens=2000, tools=TOOLS, messages=REVIEW) as stream:
        streamed = stream.get_final_message()
    plain, sent = recorded.exchanges
    assert plain.reply == sent.reply == created.to_dict() == streamed.to_dict()
    assert sent.body["stream"] is True and sent.body["messages"] == REVIEW


def test_a_forced_cut_and_an_async_stream_are_recorded_too(recorded):
    recorded.force("max_tokens")

    async def stream() -> dict:
        async with recorded.async_client(max_retries=0).messages.stream(
                model=MODEL, max_tokens=2000, tools=TOOLS, messages=REVIEW) as events:
            return (await events.get_final_message()).to_dict()

    final = asyncio.run(stream())
    [exchange] = recorded.exchanges
    assert exchange.reply == final and final["stop_reason"] == "max_tokens"
    # cut just before the input ended: what the model wrote binds, with its last value unfinished (!48, not !482)
    assert final["content"][-1]["type"] == "tool_use" and final["content"][-1]["input"] == {"pr": 48}


def test_any_client_is_recorded_and_errors_carry_their_body(recorded):
    body = json.dumps({"model": MODEL, "max_tokens": 50, "messages": [{"role": "user", "content": "Hi"}]})
    with httpx2.Client(base_url=recorded.url) as http:
        ok = http.post("/v1/messages", content=body, headers={"x-api-key": recorded.api_key,
                                                             "anthropic-version": "2023-06-01"})
        bad = http.post("/v1/messages", content=b"{nope", headers={"x-api-key": recorded.api_key,
                                                                  "anthropic-version": "2023-06-01"})
        listed = http.get("/api/v4/projects/course%2Fshop/merge_requests",
                          headers={"PRIVATE-TOKEN": recorded.gitlab_token})
    first, second, third = recorded.exchanges
    assert (first.status, first.body, first.reply) == (200, json.loads(body), ok.json())
    assert (second.status, second.body, second.reply) == (400, None, bad.json())
    assert (third.method, third.path, third.status, third.body) == ("GET", "/api/v4/projects/course/shop/merge_requests",
                                                                    200, None)
    assert third.reply == listed.json()


def test_the_record_leaves_the_body_for_the_application_even_chunked(recorded):
    """urllib sends a generator's body chunked: the recorder reads it and puts it back."""
    data = json.dumps({"model": MODEL, "max_tokens": 50, "messages": [{"role": "user", "content": "Hi"}]}).encode()
    request = urllib.request.Request(f"{recorded.url}/v1/messages", data=iter([data[:10], data[10:]]), method="POST",
                                     headers={"x-api-key": recorded.api_key, "anthropic-version": "2023-06-01",
                                              "content-type": "application/json", "transfer-encoding": "chunked"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.load(answer)["type"] == "message"
    assert recorded.exchanges[0].body == json.loads(data)


def test_without_record_nothing_is_kept(sandbox):
    sandbox.client(max_retries=0).messages.create(model=MODEL, max_tokens=50, messages=REVIEW)
    assert sandbox.exchanges is None


def test_force_belongs_to_the_messages_api(sandbox):
    with pytest.raises(ValueError, match="unknown misbehaviour"):
        sandbox.messages_api.force("refusal", "sulk")
    assert sandbox.messages_api.forced == []  # nothing queued when one is unknown
    sandbox.messages_api.force("refusal")
    reply = sandbox.client(max_retries=0).messages.create(model=MODEL, max_tokens=50, messages=REVIEW)
    assert reply.stop_reason == "refusal"


WEATHER = [{"name": "get_weather", "description": "The weather in a city",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]


def _answered(client, history: list) -> list:
    """The tool calls of one reply, answered in the history; the reply itself."""
    reply = client.messages.create(model=MODEL, max_tokens=2000, tools=WEATHER, messages=history)
    calls = [b for b in reply.content if b.type == "tool_use"]
    history += [{"role": "assistant", "content": reply.content}, {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": b.id, "content": f"Sunny in {b.input['city']}, 21 C, a light wind."}
        for b in calls]}] if calls else []
    return reply


def test_waiting_orders_wait_for_a_reply_they_fit(sandbox):
    """max_tokens_answer and one_more_call wait for the answer (a reply without a tool call), reversed_calls for a
    turn of several calls; the replies before pass as they are, and each order is used once."""
    client = sandbox.client(max_retries=0)
    sandbox.force("reversed_calls", "one_more_call", "max_tokens_answer")
    history = [{"role": "user", "content": "Use get_weather for Paris and for Rome, then compare them."}]
    first = _answered(client, history)
    assert first.stop_reason == "tool_use" and [b.input["city"] for b in first.content if b.type == "tool_use"] == [
        "Rome", "Paris"]  # asked Paris first, then Rome: the other way round
    again = _answered(client, history)  # the answer put off: the last call asked again
    assert again.stop_reason == "tool_use" and [b.input for b in again.content if b.type == "tool_use"] == [
        {"city": "Paris"}]
    cut = _answered(client, history)
    whole = client.messages.create(model=MODEL, max_tokens=2000, tools=WEATHER, messages=history)
    assert cut.stop_reason == "max_tokens" and whole.stop_reason == "end_turn"
    assert whole.content[-1].text.startswith(cut.content[-1].text) and len(cut.content[-1].text) < len(
        whole.content[-1].text)
    assert sandbox.messages_api.forced == []


def test_a_wandering_model_never_asks_the_same_call_twice(sandbox):
    """stuck repeats the last call; wandering moves its first number (or marks its first string) on each time."""
    client = sandbox.client(max_retries=0)
    sandbox.force(*["wandering"] * 4)
    history = [{"role": "user", "content": "Use get_weather for Oslo"}]
    asked = [b.input["city"] for _ in range(5) for b in _answered(client, history).content if b.type == "tool_use"]
    assert asked == ["Oslo", "Oslo-1", "Oslo-2", "Oslo-3"], asked  # the fifth reply, ordered nothing, answers


@pytest.mark.parametrize(("headers", "query", "expected"), [
    ({"x-api-key": "k"}, "", "k"),
    ({"Authorization": "Bearer  b "}, "", "b"),
    ({"x-api-key": "k", "Authorization": "Bearer b"}, "", "k"),
    ({"Authorization": "Basic b"}, "", None),
    ({}, "private_token=q", "q"),
    ({}, "private_token=&access_token=a", "a"),
    ({"x-api-key": "k"}, "private_token=q", "k"),
    ({}, "", None),
])
def test_one_reading_of_credentials(headers, query, expected):
    request = Request(EnvironBuilder(headers=headers, query_string=query).get_environ())
    assert credential(request, "x-api-key", ("private_token", "access_token")) == expected


@pytest.mark.parametrize("path", ["projects/course%2Fshop/repository/files/shop%2Fpricing.py/raw?ref=main",
                                  "projects/course%2fshop/repository/files/shop%2fpricing.py/raw?ref=main",
                                  "projects/7/repository/files/shop%2Fpricing.py/raw?ref=main",
                                  "projects/7/repository/%66iles/shop%2Fpricing.py/raw?ref=main"])
def test_gitlab_paths_route_however_they_are_encoded(sandbox, path):
    with httpx2.Client(base_url=f"{sandbox.gitlab_url}/api/v4/") as http:
        answer = http.get(path, headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    assert answer.status_code == 200 and "def " in answer.text


@pytest.mark.parametrize(("method", "path", "status", "body"), [
    ("GET", "projects/7/nowhere", 404, {"error": "404 Not Found"}),
    ("GET", "projects/2/merge_requests", 404, {"message": "404 Project Not Found"}),
    ("DELETE", "projects/7/merge_requests/482/changes", 405, {"message": "405 Method Not Allowed"}),
    ("POST", "user", 405, {"message": "405 Method Not Allowed"}),
])
def test_gitlab_404_and_405_keep_gitlab_s_words(sandbox, method, path, status, body):
    with httpx2.Client(base_url=f"{sandbox.gitlab_url}/api/v4/") as http:
        answer = http.request(method, path, headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    assert (answer.status_code, answer.json()) == (status, body)


@pytest.mark.parametrize(("method", "path", "status", "message"), [
    ("GET", "/v1/nowhere", 404, "Not Found"),
    ("GET", "/v1/messages", 405, "Method Not Allowed: GET /v1/messages"),
])
def test_messages_api_404_and_405_keep_the_api_s_words(sandbox, method, path, status, message):
    with httpx2.Client(base_url=sandbox.url) as http:
        answer = http.request(method, path, headers={"x-api-key": sandbox.api_key, "anthropic-version": "2023-06-01"})
    assert (answer.status_code, answer.json()["error"]["message"]) == (status, message)


@pytest.mark.parametrize("call", [
    lambda c: c.beta.agents.list(), lambda c: c.beta.sessions.list(), lambda c: c.beta.files.list(),
    lambda c: c.beta.environments.create(name="probe"),
])
def test_an_api_area_the_sandbox_does_not_serve_says_so(sandbox, call):
    """Managed Agents, Files…: the SDK's NotFoundError, whose message says the sandbox does not simulate it and where
    it runs, rather than a bare "Not Found" that reads like a mistake in the learner's code."""
    with pytest.raises(anthropic.NotFoundError) as caught:
        call(sandbox.client(max_retries=0))
    message = caught.value.body["error"]["message"]
    assert message.startswith("Not Found: the course sandbox does not simulate /v1/") and "ANTHROPIC_API_KEY" in message


def _second_weather_turn(sandbox):
    """The model's reply to a second question, after one get_weather call (Paris): its call is Rome's."""
    history = [{"role": "user", "content": "Use get_weather for Paris."},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01A", "name": "get_weather",
                                                  "input": {"city": "Paris"}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "Sunny"},
                                            {"type": "text", "text": "Now use get_weather for Rome too."}]}]
    return sandbox.client(max_retries=0).messages.create(model=MODEL, max_tokens=2000, tools=WEATHER, messages=history)


def test_a_mixed_turn_asks_the_first_call_again_after_its_own(sandbox):
    """mixed_turn, on a reply with a tool call: its calls, then the conversation's first call asked again with a
    fresh id (a turn that mixes tools, as a merge with a read does)."""
    sandbox.force("mixed_turn")
    reply = _second_weather_turn(sandbox)
    calls = [b for b in reply.content if b.type == "tool_use"]
    assert reply.stop_reason == "tool_use" and [b.input["city"] for b in calls] == ["Rome", "Paris"]
    assert calls[-1].id != "toolu_01A" and calls[0].id != calls[1].id and sandbox.messages_api.forced == []


def test_an_unknown_tool_call_is_asked_after_the_replys_own_and_names_no_offered_tool(sandbox):
    """unknown_tool, on a reply with a tool call: its calls, then a call of UNKNOWN_TOOL, which the request does not
    offer (exercise 5: a loop that looks the tool up before its try dies of it)."""
    from course_sandbox.messages_api import UNKNOWN_TOOL

    sandbox.force("unknown_tool")
    reply = _second_weather_turn(sandbox)
    calls = [b for b in reply.content if b.type == "tool_use"]
    assert reply.stop_reason == "tool_use" and [b.name for b in calls] == ["get_weather", UNKNOWN_TOOL]
    assert UNKNOWN_TOOL not in {t["name"] for t in WEATHER} and calls[0].id != calls[1].id
    assert sandbox.messages_api.forced == []


def test_a_mixed_turn_around_asks_the_first_call_again_on_both_sides_of_its_own(sandbox):
    """mixed_turn_around: the conversation's first call again before and after the reply's own calls, each with a
    fresh id (exercise 7: a read, the merge, a read, so that denied results put first or last are both out of
    place)."""
    sandbox.force("mixed_turn_around")
    reply = _second_weather_turn(sandbox)
    calls = [b for b in reply.content if b.type == "tool_use"]
    assert [b.input["city"] for b in calls] == ["Paris", "Rome", "Paris"]
    assert len({b.id for b in calls} | {"toolu_01A"}) == 4 and sandbox.messages_api.forced == []
