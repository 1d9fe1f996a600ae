"""Issue #30: no request can stall the sandbox, every input answers like the API, and a refused
request changes nothing. The cases the issue found, each as a regression test."""

import json
import re
import threading
import time
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_sandbox.simulated_model.generation_bounds import Unprovable, checkable_length
from course_sandbox.simulated_model.regex_example import regex_example
from course_sandbox.simulated_model.regex_syntax import safe_length
from course_sandbox.simulated_model.schema_instance import instance, is_valid
from cpu_time import cpu_seconds
from sandbox_http import MODEL, raw_post
from sdk_requests import PATTERNS

QUICK = 5.0
"""CPU seconds any of these requests may take (each took from 11 s to forever before the fix)."""


def forced(schema: dict, model: str = MODEL) -> dict:
    tool = {"name": "record", "description": "Record a value",
            "input_schema": {"type": "object", "properties": {"value": schema}, "required": ["value"]}}
    return {"model": model, "max_tokens": 500, "tool_choice": {"type": "any"}, "tools": [tool],
            "messages": [{"role": "user", "content": "Record it."}]}


def post(sandbox, body: dict) -> tuple[int, dict, float]:
    """Status, answer and the CPU seconds the request took (the sandbox runs in this process)."""
    (status, answer), seconds = cpu_seconds(lambda: raw_post(sandbox, "/v1/messages", json.dumps(body).encode()))
    return status, answer, seconds


@pytest.mark.parametrize("schema", [
    {"type": "string", "pattern": "(a+)+$", "minLength": 40},
    {"type": "string", "pattern": "a{1000000}", "maxLength": 3},
    {"type": "array", "minItems": 1000000},
    {"type": "string", "pattern": "(a|a)*b"},
    {"type": "object", "patternProperties": {"(x+x+)+y": {"type": "string"}}, "minProperties": 3},
], ids=["nested-repeat", "huge-repeat", "million-items", "ambiguous-alternation", "pattern-properties"])
def test_a_schema_it_cannot_fill_quickly_gets_a_sentence_not_a_hang(sandbox, schema):
    status, answer, seconds = post(sandbox, forced(schema))
    assert status == 200 and seconds < QUICK
    said = [b for b in answer["content"] if b["type"] != "thinking"]  # today's model may think first
    assert [b["type"] for b in said] == ["text"]
    assert said[0]["text"].startswith("I can't produce a value I can show fits the schema")


def test_the_server_keeps_answering_while_a_request_works(sandbox):
    """A request that takes seconds (hundreds of new blocks to validate) holds no lock the others
    need: GET /v1/models, asked again and again meanwhile, answers every time in well under a second."""
    marker = uuid.uuid4().hex  # new blocks: no verdict remembered from another test
    blocks = [{"type": "text", "text": f"{marker} block {i}"} for i in range(800)]
    worker = threading.Thread(target=post, args=(sandbox, {"model": MODEL, "max_tokens": 10,
                                                           "messages": [{"role": "user", "content": blocks}]}))
    worker.start()
    latencies = []
    while worker.is_alive():
        started = time.monotonic()
        status, _ = raw_post(sandbox, "/v1/models", None, method="GET")
        latencies.append(time.monotonic() - started)
        assert status == 200
    worker.join()
    assert len(latencies) >= 3 and max(latencies) < 1.0, latencies


@pytest.mark.parametrize("pattern", [r"^[a-z0-9]+(?:-[a-z0-9]+)*$", r"^\d{3}-\d{4}$", r"^[A-Z]{2}\d{4}$",
                                     r"^(\+\d{1,3})?\d{10}$", r"^v\d+\.\d+\.\d+$"])
def test_ordinary_patterns_still_get_a_valid_tool_call(sandbox, pattern):
    schema = {"type": "string", "pattern": pattern}
    status, answer, seconds = post(sandbox, forced(schema))
    uses = [b for b in answer["content"] if b["type"] == "tool_use"]
    assert status == 200 and seconds < QUICK and uses
    assert is_valid(schema, uses[0]["input"]["value"])


def test_nested_or_ambiguous_repetition_is_never_run_on_anything():
    assert safe_length("(a+)+$") == safe_length("(a|a)*b") == safe_length("(.*a){12}") == 0
    assert safe_length(r"^[a-z0-9]+(?:-[a-z0-9]+)*$") > 50  # a slug: delimited rounds
    assert safe_length(r"\1") == 0  # a back-reference: not read, so not run
    assert checkable_length("a" * 3000) == 0  # too long to read (or to remember)


def test_regex_examples_are_bounded():
    assert regex_example("a{1000000}") is None
    assert regex_example("(a+)+$") is None
    assert regex_example(r"^#[0-9a-fA-F]{6}$") == "#000000"


def test_instance_says_why_it_cannot_fill_a_schema():
    with pytest.raises(Unprovable, match="at least 1000000 items"):
        instance({"type": "object", "properties": {"v": {"type": "array", "minItems": 1000000}}, "required": ["v"]})
    nested = {"type": "array", "minItems": 900, "items": {"type": "array", "minItems": 900}}
    started = time.process_time()
    with pytest.raises(Unprovable, match="longer than I should spend"):
        instance({"type": "object", "properties": {"v": nested}, "required": ["v"]})
    assert time.process_time() - started < QUICK


@pytest.mark.parametrize("control, message", [
    ("x", "messages.0.content.0.text.cache_control: Input should be a valid dictionary or None"),
    ({"type": "persistent"}, "messages.0.content.0.text.cache_control: Input tag 'persistent' found using 'type' "
                             "does not match any of the expected tags: 'ephemeral'"),
])
def test_cache_control_on_a_message_block_is_checked_like_elsewhere(sandbox, control, message):
    block = {"type": "text", "text": "hi", "cache_control": control}
    status, answer, _ = post(sandbox, {"model": MODEL, "max_tokens": 10,
                                       "messages": [{"role": "user", "content": [block]}]})
    assert status == 400
    assert answer["error"] == {"type": "invalid_request_error", "message": message}


def test_an_empty_batch_id_is_a_404_in_the_api_shape(sandbox):
    status, answer = raw_post(sandbox, "/v1/messages/batches//results", None, method="GET")
    assert status == 404
    assert answer["type"] == "error" and answer["error"] == {"type": "not_found_error", "message": "Not Found"}


def test_a_refused_request_writes_nothing_to_the_prompt_cache(sandbox):
    big = {"type": "text", "text": "word " * 240_000, "cache_control": {"type": "ephemeral"}}
    body = {"model": "claude-haiku-4-5", "max_tokens": 10, "messages": [{"role": "user", "content": [big]}]}
    status, answer, _ = post(sandbox, body)
    assert status == 400 and answer["error"]["message"].startswith("prompt is too long")
    assert len(sandbox.messages_api.cache) == 0


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(pattern=PATTERNS, filler=st.sampled_from("ab0x- ."))
def test_a_pattern_is_only_run_on_strings_it_matches_quickly(pattern, filler):
    """The claim behind safe_length: on its longest allowed string, even one built to make it
    backtrack (one character repeated, then one that fails), a search stays fast."""
    length = safe_length(pattern)
    if length == 0:
        return
    hostile = (filler * length)[: max(0, length - 1)] + "!"
    _, seconds = cpu_seconds(lambda: re.search(pattern, hostile))
    assert seconds < 0.5, (pattern, length)


@pytest.mark.parametrize("item, message", [
    ({"type": "image", "source": "x"}, "messages.2.content.0.tool_result.content.0.image.source: "
                                       "Input should be a valid dictionary"),
    ({"type": "text", "text": 5}, "messages.2.content.0.tool_result.content.0.text.text: Input should be a valid string"),
])
def test_blocks_inside_a_tool_result_are_checked_like_message_blocks(sandbox, item, message):
    body = {"model": MODEL, "max_tokens": 50, "tools": [{"name": "calc", "input_schema": {"type": "object"}}],
            "messages": [{"role": "user", "content": "hi"},
                         {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "calc", "input": {}}]},
                         {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [item]}]}]}
    status, answer, _ = post(sandbox, body)
    assert status == 400 and answer["error"]["message"] == message


def test_a_learners_pattern_is_never_run_on_the_prompts_words_where_it_could_backtrack(client):
    """Reading values from the prompt tries the schema's pattern on its words: a pattern like `(a+)+$`
    must not be run on a long run of a's (it would backtrack for ever), however the words came."""
    tool = {"name": "record", "description": "Record the value", "input_schema": {
        "type": "object", "properties": {"value": {"type": "string", "pattern": "(a+)+$", "minLength": 40}},
        "required": ["value"]}}
    _, seconds = cpu_seconds(lambda: client.messages.create(
        model="claude-opus-5", max_tokens=1024, tools=[tool],
        messages=[{"role": "user", "content": "Record " + "a" * 48 + "b for user@example.com"}]))
    assert seconds < 4
