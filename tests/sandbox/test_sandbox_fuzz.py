"""Fuzz of the Messages API side of the sandbox (issue #30), from the SDK's own request types and
mutations of them: no 5xx, no request over a few seconds, errors in the API's shape with no
traceback, and a refused request changes nothing (prompt cache, batches). Seeded and bounded."""

import http.client
import json
import time

import pytest
from anthropic.types.message_count_tokens_params import MessageCountTokensParams
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from anthropic.types.messages.batch_create_params import BatchCreateParams
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.errors import ERROR_TYPES
from sandbox_http import ANTHROPIC_VERSION
from sdk_requests import PATHOLOGICAL_SCHEMAS, SCHEMAS, mutated, strategy, with_tool

SLOW = 4.0
"""Seconds a request may take, whatever it asks."""
FUZZ = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

ENDPOINTS = {
    "/v1/messages": strategy(MessageCreateParamsNonStreaming),
    "/v1/messages/count_tokens": strategy(MessageCountTokensParams),
    "/v1/messages/batches": strategy(BatchCreateParams),
}


@pytest.fixture(scope="module")
def fuzzed():
    with Sandbox() as sb:
        yield sb


def send(sandbox, method: str, path: str, body: object = None) -> tuple[int, dict, bytes, float]:
    """A plain HTTP request: status, headers, raw body and seconds taken."""
    connection = http.client.HTTPConnection("127.0.0.1", sandbox.port, timeout=SLOW * 3)
    data = None if body is None else json.dumps(body).encode()
    started = time.monotonic()
    try:
        connection.request(method, path, data, {"x-api-key": sandbox.api_key, "anthropic-version": ANTHROPIC_VERSION,
                                                "content-type": "application/json"})
        response = connection.getresponse()
        raw = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, raw, time.monotonic() - started
    finally:
        connection.close()


def state(sandbox) -> tuple:
    """What a request could change: the prompt cache and the batches (once none is still running)."""
    for _ in range(100):
        status, _, raw, _ = send(sandbox, "GET", "/v1/messages/batches?limit=1000")
        batches = json.loads(raw)["data"]
        if all(b["processing_status"] == "ended" for b in batches):
            break
        time.sleep(0.05)
    return len(sandbox.messages_api.cache), [b["id"] for b in batches]


def check_answer(sandbox, method: str, path: str, body: object) -> None:
    before = state(sandbox) if method == "POST" else None
    status, headers, raw, seconds = send(sandbox, method, path, body)
    assert status < 500, raw[:500]
    assert seconds < SLOW, f"{seconds:.1f} s for {json.dumps(body)[:300]}"
    text = raw.decode("utf-8", "replace")
    assert "Traceback" not in text and 'File "' not in text
    if status >= 400:
        error = json.loads(raw)
        assert set(error) == {"type", "error", "request_id"} and error["type"] == "error"
        assert set(error["error"]) <= {"type", "message", "details"}
        assert error["error"]["type"] == ERROR_TYPES[status] and isinstance(error["error"]["message"], str)
        assert error["request_id"] == headers["request-id"]
        if before is not None:
            assert state(sandbox) == before, "a refused request changed the sandbox"


@FUZZ
@given(data=st.data())
def test_requests_from_the_sdk_types_and_their_mutations(fuzzed, data):
    path = data.draw(st.sampled_from(sorted(ENDPOINTS)))
    body = data.draw(mutated(ENDPOINTS[path]))
    if path == "/v1/messages" and isinstance(body, dict) and data.draw(st.booleans()):
        body["stream"] = True
    check_answer(fuzzed, "POST", path, body)


QUERIES = st.lists(st.tuples(st.sampled_from(["limit", "after_id", "before_id", "lifecycle[]", "beta"]),
                             st.sampled_from(["", "0", "-1", "1", "1.5", "abc", "9" * 30, "%00", "claude-opus-5"])),
                   max_size=3).map(lambda pairs: "&".join(f"{k}={v}" for k, v in pairs))


@settings(FUZZ, max_examples=60)
@given(tail=st.lists(st.sampled_from(["", "x", "msgbatch_01", "results", "cancel", "..", "%2F", "models",
                                      "claude-opus-5", "batches", "messages"]), max_size=4),
       method=st.sampled_from(["GET", "POST", "DELETE", "PUT"]), query=QUERIES)
def test_any_path_under_v1_answers_in_the_api_shape(fuzzed, tail, method, query):
    path = "/v1/" + "/".join(tail) + (f"?{query}" if query else "")
    check_answer(fuzzed, method, path, {} if method in ("POST", "PUT") else None)


@FUZZ
@given(schema=SCHEMAS | PATHOLOGICAL_SCHEMAS, how=st.sampled_from(["any", "auto", "named", "structured"]),
       words=st.sampled_from(["Record it.", "Record aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab for user@example.com",
                              "Record 42 items in Paris on 2025-01-15"]))
def test_a_learners_schema_never_stalls_the_sandbox(fuzzed, schema, how, words):
    """Whatever schema a tool (or a structured output) has, the answer comes quickly: a tool call
    whose input is valid, or a sentence saying why there is none."""
    body: dict = {"model": "claude-opus-5", "max_tokens": 1024, "messages": [{"role": "user", "content": words}]}
    if how == "structured":
        body["output_config"] = {"format": {"type": "json_schema", "schema": {
            "type": "object", "properties": {"value": schema}, "required": ["value"], "additionalProperties": False}}}
    else:
        body.update(with_tool(schema, forced=how == "any"))
        if how == "named":
            body["tool_choice"] = {"type": "tool", "name": "record"}
    check_answer(fuzzed, "POST", "/v1/messages", body)
