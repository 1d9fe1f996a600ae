"""The request schema's `allOf` skips the tagged clauses of other block types (#26): the verdicts and
every error (message, path, schema path, order) must stay exactly those of jsonschema's own `allOf`."""

import copy
import json
import random

import pytest
from jsonschema import Draft202012Validator

from course_sandbox import request_schema
from review_material import DIFF_482, TOOLS

MESSAGES = [
    {"role": "user", "content": "Review merge request !482."},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "I need the diff.", "signature": "Sbx1.2"},
        {"type": "text", "text": "Fetching it.", "citations": None},
        {"type": "tool_use", "id": "toolu_01a", "name": "get_diff", "input": {"pr": 482}},
    ]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01a", "content": [{"type": "text", "text": DIFF_482}],
         "is_error": False, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "notes"}},
    ]},
]
BODY = {"model": "claude-opus-5", "max_tokens": 4000, "tools": TOOLS, "messages": MESSAGES,
        "thinking": {"type": "enabled", "budget_tokens": 2000}, "tool_choice": {"type": "auto"}}
ODD_VALUES = [None, 1, 1.5, True, "x", "", [], {}, [{}], {"type": 1}, {"type": "text"}, {"type": "nope"},
              {"type": "tool_use"}, {"type": ["text"]}, {"type": "ephemeral", "ttl": "2h"}]


def _paths(value, path=()):
    """Every place inside a JSON value, containers included."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from _paths(inner, (*path, key))


def _mutants(value, seed: int, count: int):
    """Copies of a valid value with one place replaced, dropped, or given an extra key."""
    rng = random.Random(seed)
    places = [p for p in _paths(value) if p]
    for _ in range(count):
        mutant = copy.deepcopy(value)
        *parents, last = rng.choice(places)
        node = mutant
        for key in parents:
            node = node[key]
        action = rng.random()
        if action < 0.6:
            node[last] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif action < 0.8:
            del node[last]
        elif isinstance(node[last], dict):
            node[last]["extra"] = 1
        else:
            node[last] = {"type": rng.choice(["text", "image", "tool_result", "thinking", "search_result"])}
        yield mutant


def _errors(validator, instance) -> list:
    return [(e.message, list(e.absolute_path), list(e.absolute_schema_path), e.validator)
            for e in validator.iter_errors(instance)]


@pytest.mark.parametrize("kind, schema, valid", [
    ("message", request_schema.MESSAGE_SCHEMA, MESSAGES[2]),
    ("message", request_schema.MESSAGE_SCHEMA, MESSAGES[1]),
    ("request", request_schema.REQUEST_SCHEMA, BODY),
])
def test_the_fast_all_of_finds_exactly_what_jsonschema_finds(kind, schema, valid):
    fast, plain = request_schema._VALIDATORS[kind], Draft202012Validator(schema)
    assert fast.is_valid(valid) and plain.is_valid(valid)
    invalid = 0
    for n, mutant in enumerate(_mutants(valid, seed=len(json.dumps(valid)), count=300)):
        expected = _errors(plain, mutant)
        assert _errors(fast, mutant) == expected, mutant
        assert fast.is_valid(mutant) == (not expected)
        invalid += bool(expected)
    assert invalid > 50  # the mutants do reach the checks


def test_first_problem_words_a_wrong_block_as_before():
    broken = copy.deepcopy(BODY)
    broken["messages"][2]["content"][0]["is_error"] = "yes"
    assert request_schema.first_problem(broken) == "messages.2.content.0.tool_result.is_error: Input should be a valid boolean"
