"""What the installed `anthropic` SDK can send, read from its own type definitions.

The sandbox accepts every body field, tool and content block the SDK's request types
describe (beta ones included) and refuses anything else, so a newer SDK never meets a
sandbox that rejects a parameter the real API takes. Read once, at import.
"""

import typing
from functools import lru_cache
from typing import Literal, NotRequired, Required, get_args, get_origin

from typing_extensions import get_type_hints

HEADER_PARAMS = frozenset({"betas", "user_profile_id", "workspace_id"})
"""Arguments of `messages.create` that the SDK sends as headers, not in the body."""
LEGACY_BODY_PARAMS = frozenset({"temperature", "top_p", "top_k", "output_format"})
"""Fields older SDKs send (and `extra_body` can): still accepted by the API for the models that take them."""


def _hints(typed_dict: type) -> dict[str, object]:
    return get_type_hints(typed_dict, include_extras=True)


def unwrapped(annotation: object) -> object:
    while get_origin(annotation) in (Required, NotRequired, typing.Annotated):
        annotation = get_args(annotation)[0]
    return annotation


def is_typed_dict(annotation: object) -> bool:
    return isinstance(annotation, type) and hasattr(annotation, "__total__") and hasattr(annotation, "__annotations__")


def _members(annotation: object) -> list[object]:
    """The TypedDicts a field can hold: unions are opened, list/Iterable items looked into."""
    annotation = unwrapped(annotation)
    origin = get_origin(annotation)
    if origin is typing.Union:
        return [m for arg in get_args(annotation) for m in _members(arg)]
    if origin is not None and origin is not Literal:
        args = get_args(annotation)
        return _members(args[0]) if args else []
    return [annotation] if is_typed_dict(annotation) else []


class Variant(typing.NamedTuple):
    """One member of a tagged union (a tool or a content block): its required and allowed fields."""

    name: str
    required: frozenset[str]
    allowed: frozenset[str]


def _variants(annotation: object, untagged: str | None = None) -> dict[str, Variant]:
    """Members of a union keyed by their `type` tag (a member whose `type` may be omitted gets `untagged`)."""
    found: dict[str, Variant] = {}
    for member in _members(annotation):
        hints = _hints(member)
        required = frozenset(k for k, v in hints.items() if get_origin(v) is Required
                             or (member.__total__ and get_origin(v) is not NotRequired))
        variant = Variant(member.__name__, required, frozenset(hints))
        tag = unwrapped(hints.get("type"))
        tags = [t for t in get_args(tag) if isinstance(t, str)] if get_origin(tag) is Literal else []
        if "type" not in required and untagged:
            tags.append(untagged)
        for name in tags:
            previous = found.get(name)
            if previous is not None:  # the beta and the plain type of one tool: the union of both
                variant = Variant(name, previous.required & variant.required, previous.allowed | variant.allowed)
            found[name] = variant
    return found


@lru_cache(maxsize=1)
def _create_params() -> tuple[dict[str, object], dict[str, object]]:
    from anthropic.types import message_create_params
    from anthropic.types.beta import message_create_params as beta_create_params

    return _hints(message_create_params.MessageCreateParamsBase), _hints(beta_create_params.MessageCreateParamsBase)


def body_fields(kind: str = "request") -> frozenset[str]:
    """Top-level fields of a Messages API body, for `request` (create) or `count_tokens`."""
    if kind == "count_tokens":
        from anthropic.types import message_count_tokens_params
        from anthropic.types.beta import message_count_tokens_params as beta

        fields = set(_hints(message_count_tokens_params.MessageCountTokensParams))
        fields |= set(_hints(beta.MessageCountTokensParams))
    else:
        plain, beta = _create_params()
        fields = set(plain) | set(beta) | {"stream"} | LEGACY_BODY_PARAMS
    return frozenset(fields - HEADER_PARAMS)


def tool_variants() -> dict[str, Variant]:
    """Every tool the SDK can declare, by `type` (`custom` for a tool without one)."""
    plain, beta = _create_params()
    return {**_variants(plain["tools"], untagged="custom"), **_variants(beta["tools"], untagged="custom")}


def content_block_variants() -> dict[str, Variant]:
    """Every content block a message can carry, by `type`."""
    from anthropic.types import user_message_param
    from anthropic.types.beta import beta_user_message_param

    return _merged(_hints(user_message_param.UserMessageParam)["content"],
                   _hints(beta_user_message_param.BetaUserMessageParam)["content"])


def tool_result_content_variants() -> dict[str, Variant]:
    """Every block a tool_result's `content` list can carry, by `type`."""
    from anthropic.types import tool_result_block_param
    from anthropic.types.beta import beta_tool_result_block_param

    return _merged(_hints(tool_result_block_param.ToolResultBlockParam)["content"],
                   _hints(beta_tool_result_block_param.BetaToolResultBlockParam)["content"])


def _merged(plain: object, beta: object) -> dict[str, Variant]:
    """The variants of a plain union and its beta twin: a block in both takes what either allows."""
    merged = _variants(plain)
    for name, variant in _variants(beta).items():
        previous = merged.get(name)
        merged[name] = variant if previous is None else Variant(
            name, previous.required & variant.required, previous.allowed | variant.allowed)
    return merged


def sdk_model_ids() -> tuple[str, ...]:
    """The model ids the SDK's `Model` type names, in its order."""
    from anthropic.types import Model

    return tuple(a for arg in get_args(Model) if get_origin(arg) is Literal for a in get_args(arg))


def json_schema(annotation: object, depth: int = 0) -> dict:
    """A JSON Schema for a value of the SDK's request type `annotation`: TypedDicts become objects
    that refuse unknown keys, Literals enums, unions anyOf. Whatever it cannot express is `{}`."""
    if depth > 12:
        return {}
    annotation = unwrapped(annotation)
    origin, args = get_origin(annotation), get_args(annotation)
    if annotation is type(None):
        return {"type": "null"}
    if annotation in (str, int, float, bool):
        return {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[annotation]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin is typing.Union:
        options = [json_schema(arg, depth + 1) for arg in args]
        return {} if any(o == {} for o in options) else {"anyOf": options}
    if is_typed_dict(annotation):
        hints = _hints(annotation)
        required = sorted(k for k, v in hints.items() if get_origin(v) is Required
                          or (annotation.__total__ and get_origin(v) is not NotRequired))
        return {"type": "object", "required": required, "additionalProperties": False,
                "properties": {k: json_schema(v, depth + 1) for k, v in hints.items()}}
    if origin in (dict, dict) or annotation in (dict, object):
        return {"type": "object"} if annotation is not object else {}
    name = getattr(origin, "__name__", "") or getattr(origin, "_name", "") or ""
    if name in ("list", "List", "Iterable", "Sequence", "SequenceNotStr") and args:
        return {"type": "array", "items": json_schema(args[0], depth + 1)}
    return {}


def field_schemas(names: typing.Iterable[str]) -> dict[str, dict]:
    """JSON Schemas for top-level body fields, from the beta create params (a superset of the plain ones)."""
    _, beta = _create_params()
    return {name: json_schema(beta[name]) for name in names if name in beta}
