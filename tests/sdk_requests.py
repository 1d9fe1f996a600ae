"""Hypothesis strategies for request bodies, read from the installed SDK's public request types
(`anthropic.types...Params` TypedDicts), and mutations of them (a key dropped, a value replaced
by junk, a learner's pathological tool schema): what a fuzz test sends to the sandbox."""

import collections.abc
import types
import typing

from hypothesis import strategies as st
from course_sandbox.sdk_params import HEADER_PARAMS, is_typed_dict, unwrapped
from typing_extensions import Literal, NotRequired, Required, get_args, get_origin, get_type_hints

MODELS = ["claude-opus-5", "claude-haiku-4-5", "claude-sonnet-4-6", "claude-nope-1"]
MAX_DEPTH = 5

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 70_000) | st.floats(allow_nan=False, width=32)
                    | st.text(max_size=12), lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
"""Any JSON value, small."""

_WORDS = st.sampled_from(["hi", "What is 2+2?", "Record it.", "Weather in Paris?", "x" * 200,
                          "Review merge request !1", "user@example.com", "\u0000", "\ud7ff"]) | st.text(max_size=20)
_KEYS = {"model": st.sampled_from(MODELS), "max_tokens": st.integers(0, 2048), "custom_id": st.from_regex(
    r"\A[a-z0-9_-]{1,8}\Z")}
"""Fields whose free-form type would almost always be refused for one reason: mostly plausible values."""


def strategy(annotation: object, depth: int = 0, name: str = "") -> st.SearchStrategy:
    """Values of an SDK annotation: TypedDicts, unions, literals, lists and scalars."""
    annotation = unwrapped(annotation)
    origin = get_origin(annotation)
    if name in _KEYS:
        return _KEYS[name]
    if origin is Literal:
        return st.sampled_from(get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return st.one_of([strategy(arg, depth, name) for arg in get_args(annotation)])
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence, typing.List, typing.Iterable):
        args = get_args(annotation)
        item = strategy(args[0], depth + 1, name) if args else JSON
        return st.lists(item, max_size=0 if depth >= MAX_DEPTH else 3)
    if origin in (dict, collections.abc.Mapping, typing.Dict):
        return st.dictionaries(st.text(max_size=8), JSON, max_size=2)
    if is_typed_dict(annotation):
        return st.deferred(lambda: _typed_dict(annotation, depth))
    return {str: _WORDS, int: st.integers(-2, 5000), float: st.floats(-1, 2, allow_nan=False),
            bool: st.booleans(), type(None): st.none()}.get(annotation, JSON)


def _typed_dict(typed_dict: type, depth: int) -> st.SearchStrategy:
    hints = {k: v for k, v in get_type_hints(typed_dict, include_extras=True).items() if k not in HEADER_PARAMS}
    required = {k for k, v in hints.items()
                if get_origin(v) is Required or (typed_dict.__total__ and get_origin(v) is not NotRequired)}
    fields = {k: strategy(v, depth + 1, k) for k, v in hints.items()}
    if "messages" in fields and depth == 0:  # mostly a conversation that opens as the API wants
        fields["messages"] = st.builds(lambda rest, first: [first, *rest], fields["messages"],
                                       st.fixed_dictionaries({"role": st.just("user"), "content": _WORDS}))
    optional = {} if depth >= MAX_DEPTH else {k: s for k, s in fields.items() if k not in required}
    return st.fixed_dictionaries({k: fields[k] for k in required}, optional=optional)


PATHOLOGICAL_SCHEMAS = st.sampled_from([
    {"type": "string", "pattern": "(a+)+$", "minLength": 40},
    {"type": "string", "pattern": "a{1000000}", "maxLength": 3},
    {"type": "array", "minItems": 1000000},
    {"type": "string", "pattern": "(x|x|xy)*z", "minLength": 30},
    {"type": "string", "pattern": r"(\w+\s?)*!", "minLength": 25},
    {"type": "string", "pattern": r"\d*\d*\d*\d*\d*\d*x", "minLength": 60},
    {"type": "string", "pattern": r"(?x) a b", "minLength": 5},
    {"type": "string", "pattern": r"(a)\1", "minLength": 30},
    {"type": "string", "minLength": 50_000_000},
    {"type": "array", "minItems": 500, "items": {"type": "array", "minItems": 500}},
    {"type": "object", "minProperties": 100000},
    {"type": "object", "patternProperties": {"(k+)+$": {"type": "integer"}}, "minProperties": 2},
    {"type": "string", "format": "regex", "pattern": "^[a-z]{3}$"},
    {"type": "number", "multipleOf": 1e-300, "minimum": 1e300},
    {"anyOf": [{"type": "string", "pattern": "(b+)+c"}, {"type": "integer", "minimum": 3}]},
    {"$ref": "#/properties/value"},
])
"""Schemas a learner may write that once stalled, or might stall, the sandbox."""


def with_tool(schema: dict, forced: bool) -> dict:
    tool = {"name": "record", "description": "Record the value",
            "input_schema": {"type": "object", "properties": {"value": schema}, "required": ["value"]}}
    return {"tools": [tool], **({"tool_choice": {"type": "any"}} if forced else {})}


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy) -> object:
    """A body from the SDK's types, then perhaps changed: a key dropped, a value turned to junk,
    a pathological tool added, a cache_control set to something odd."""
    body = draw(base)
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["none", "drop", "junk", "tool", "cache_control", "whole"]))
        if kind == "whole":
            return draw(JSON)
        if not isinstance(body, dict) or not body:
            continue
        if kind == "drop":
            body.pop(draw(st.sampled_from(sorted(body))), None)
        elif kind == "junk":
            target, key = _somewhere(draw, body)
            target[key] = draw(JSON)
        elif kind == "tool" and "messages" in body:
            body.update(with_tool(draw(PATHOLOGICAL_SCHEMAS), draw(st.booleans())))
        elif kind == "cache_control":
            target, _ = _somewhere(draw, body)
            target["cache_control"] = draw(st.sampled_from(
                ["x", None, {"type": "persistent"}, {"type": "ephemeral"}, {"type": "ephemeral", "ttl": "1h"},
                 {"type": "ephemeral", "ttl": 5}, {}, []]))
    return body


def _somewhere(draw: st.DrawFn, body: dict) -> tuple[dict, str]:
    """An object in the body (the body itself or one nested in it) and one of its keys."""
    objects = [body]
    stack: list = [body]
    while stack:
        node = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
        for child in children:
            if isinstance(child, dict):
                objects.append(child)
            if isinstance(child, (dict, list)):
                stack.append(child)
    target = draw(st.sampled_from(objects))
    key = draw(st.sampled_from(sorted(target) or ["type"]))
    return target, key


_ATOMS = st.sampled_from(["a", "b", "x", "[a-z]", "[^ab]", r"\d", r"\w", r"\s", ".", "-", r"\.", "^", "$", r"\b"])
_QUANTIFIERS = st.sampled_from(["", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "*?", "{1000}", "{0,100000}"])
PATTERNS = st.recursive(
    st.builds(str.__add__, _ATOMS, _QUANTIFIERS),
    lambda inner: st.builds(lambda parts, q: "(" + "".join(parts) + ")" + q, st.lists(inner, min_size=1, max_size=3),
                            _QUANTIFIERS)
    | st.builds(lambda a, b: f"(?:{a}|{b})", inner, inner)
    | st.builds(lambda parts: "".join(parts), st.lists(inner, min_size=2, max_size=4)),
    max_leaves=6)
"""Regular expressions built from pieces: nested, ambiguous, huge, or plain."""

SCHEMAS = st.recursive(
    st.fixed_dictionaries({"type": st.just("string")}, optional={
        "pattern": PATTERNS, "minLength": st.sampled_from([0, 1, 5, 40, 300, 10**7]),
        "maxLength": st.sampled_from([0, 3, 10, 100]), "format": st.sampled_from(["email", "date", "regex", "uuid"])})
    | st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])}, optional={
        "minimum": st.integers(-10, 10**6), "maximum": st.integers(-10, 10), "multipleOf": st.sampled_from([0.5, 3, 1e-9])})
    | st.fixed_dictionaries({"enum": st.lists(JSON, max_size=3)}),
    lambda inner: st.fixed_dictionaries({"type": st.just("array"), "items": inner}, optional={
        "minItems": st.sampled_from([0, 2, 50, 2000, 10**6]), "maxItems": st.sampled_from([1, 3]),
        "uniqueItems": st.booleans()})
    | st.fixed_dictionaries({"type": st.just("object"), "properties": st.dictionaries(
        st.sampled_from(["a", "city", "email", "n"]), inner, max_size=3)}, optional={
        "required": st.lists(st.sampled_from(["a", "city", "email", "n"]), max_size=2, unique=True),
        "patternProperties": st.dictionaries(PATTERNS, inner, max_size=1),
        "minProperties": st.sampled_from([0, 2, 5000]), "additionalProperties": st.booleans()})
    | st.builds(lambda options: {"anyOf": options}, st.lists(inner, min_size=1, max_size=3)),
    max_leaves=5)
"""JSON Schemas a learner may give a tool: small, but with every bound that once stalled the sandbox."""
