"""JSON Schema of the Messages API request body, and the conversion of jsonschema's findings
into the API's own error wording (`messages.0.role: Input should be 'user', 'assistant' or 'system'`).

The fields the simulated model reads are described here in detail; every other field, tool and
content block the installed SDK can send is accepted with the keys its types declare
(`sdk_params`), and anything else is refused, as the API does.
"""

import hashlib
import json
import threading
from collections import OrderedDict

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, relevance
from jsonschema.exceptions import best_match as _jsonschema_best_match

from . import sdk_params

_CACHE_CONTROL = {
    "type": ["object", "null"],
    "required": ["type"],
    "properties": {"type": {"enum": ["ephemeral"]}, "ttl": {"enum": ["5m", "1h"]}},
    "additionalProperties": False,
}
IMAGE_MEDIA_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"]


def _tagged(kind: str, required, properties: dict, allowed=()) -> dict:
    """An if/then clause that checks an object once its `type` says which variant it is."""
    return {
        "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
        "then": {
            "required": sorted(required),
            # cache_control last: the SDK's allowed keys (`{}`, anything) must not replace its rule
            "properties": {**{k: {} for k in allowed}, **properties, "type": {"const": kind},
                           "cache_control": _CACHE_CONTROL},
            "additionalProperties": False,
        },
    }


_TEXT_PROPERTIES = {"text": {"type": "string"}, "citations": {}}
_TEXT = _tagged("text", ["text"], _TEXT_PROPERTIES)
_IMAGE_SOURCE = {
    "type": "object",
    "required": ["type"],
    "allOf": [
        _tagged("base64", ["media_type", "data"],
                {"media_type": {"enum": IMAGE_MEDIA_TYPES}, "data": {"type": "string"}}),
        _tagged("url", ["url"], {"url": {"type": "string"}}),
    ],
}
_DETAILED_INNER_BLOCKS = {
    "text": (["text"], _TEXT_PROPERTIES),
    "image": (["source"], {"source": _IMAGE_SOURCE}),
}
"""Blocks the simulated model reads, described here; the others by the SDK's types (their keys)."""


def _block_union(variants: dict[str, sdk_params.Variant], detailed: dict) -> dict:
    """A tagged union of blocks: each `type` checked with its own required and allowed keys."""
    kinds = sorted(set(variants) | set(detailed))
    clauses = []
    for kind in kinds:
        sdk = variants.get(kind)
        allowed = (sdk.allowed - {"type"}) if sdk else set()
        required, properties = detailed.get(kind, (sorted((sdk.required - {"type"}) if sdk else ()), {}))
        clauses.append(_tagged(kind, required, properties, allowed))
    return {"type": "object", "required": ["type"], "properties": {"type": {"enum": kinds}}, "allOf": clauses}


_DETAILED_BLOCKS = {
    **_DETAILED_INNER_BLOCKS,
    "tool_use": (["id", "name", "input"], {"id": {"type": "string"}, "name": {"type": "string"},
                                           "input": {"type": "object"}}),
    "tool_result": (["tool_use_id"], {
        "tool_use_id": {"type": "string"},
        "content": {"type": ["string", "array"],
                    "items": _block_union(sdk_params.tool_result_content_variants(), _DETAILED_INNER_BLOCKS)},
        "is_error": {"type": "boolean"},
    }),
    "thinking": (["thinking", "signature"], {"thinking": {"type": "string"}, "signature": {"type": "string"}}),
    "redacted_thinking": (["data"], {"data": {"type": "string"}}),
    "server_tool_use": (["id", "name", "input"], {"id": {"type": "string"}, "name": {"type": "string"},
                                                  "input": {"type": "object"}}),
    "web_search_tool_result": (["tool_use_id", "content"], {"tool_use_id": {"type": "string"}}),
}


def _content_block() -> dict:
    return _block_union(sdk_params.content_block_variants(), _DETAILED_BLOCKS)


def _tool() -> dict:
    custom = {
        "required": ["name", "input_schema"],
        "properties": {
            "type": {"const": "custom"},
            "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,128}$"},
            "description": {"type": "string"},
            "input_schema": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
            "cache_control": _CACHE_CONTROL,
            "strict": {"type": "boolean"},
            "input_examples": {"type": "array"},
            "defer_loading": {"type": "boolean"},
            "eager_input_streaming": {"type": ["boolean", "null"]},
            "allowed_callers": {"type": "array"},
        },
        "additionalProperties": False,
    }
    typed = {tag: v for tag, v in sdk_params.tool_variants().items() if tag != "custom"}
    return {
        "type": "object",
        "if": {"anyOf": [{"not": {"required": ["type"]}}, {"properties": {"type": {"const": "custom"}}}]},
        "then": custom,
        "else": {
            "required": ["type"],
            "properties": {"type": {"enum": ["custom", *sorted(typed)]}},
            "allOf": [_tagged(tag, v.required - {"type"}, {"name": {"type": "string"}}, v.allowed - {"type"})
                      for tag, v in sorted(typed.items())],
        },
    }


MESSAGE_SCHEMA = {
    "type": "object",
    "required": ["role", "content"],
    "properties": {
        "role": {"enum": ["user", "assistant", "system"]},
        "content": {"type": ["string", "array"], "items": _content_block()},
    },
    "if": {"properties": {"role": {"const": "system"}}},
    "then": {"properties": {"content": {"items": {"type": "object", **_TEXT}}}},
    "additionalProperties": False,
}

_DETAILED_FIELDS = {
    "model": {"type": "string"},
    "max_tokens": {"type": "integer", "minimum": 0},  # 0 pre-warms the prompt cache
    "messages": {"type": "array", "items": {"type": "object"}},  # each checked by MESSAGE_SCHEMA
    "system": {"type": ["string", "array"], "items": {"type": "object", **_TEXT}},
    "tools": {"type": "array", "items": _tool()},
    "tool_choice": {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": ["auto", "any", "tool", "none"]}, "name": {"type": "string"},
                       "disable_parallel_tool_use": {"type": "boolean"}},
        "if": {"properties": {"type": {"const": "tool"}}},
        "then": {"required": ["type", "name"]},
    },
    "stop_sequences": {"type": "array", "items": {"type": "string"}},
    "stream": {"type": "boolean"},
    "temperature": {"type": "number", "minimum": 0, "maximum": 1},
    "top_p": {"type": "number", "minimum": 0, "maximum": 1},
    "top_k": {"type": "integer", "minimum": 0},
    "metadata": {"type": "object", "properties": {"user_id": {"type": ["string", "null"]}},
                 "additionalProperties": False},
    "service_tier": {"enum": ["auto", "standard_only"]},
    "cache_control": _CACHE_CONTROL,
    "thinking": {
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": {"enum": ["enabled", "disabled", "adaptive", "between_tools"]},
            "budget_tokens": {"type": "integer", "minimum": 1024},
            "display": {"enum": ["summarized", "omitted", None]},
        },
        "if": {"properties": {"type": {"const": "enabled"}}},
        "then": {"required": ["type", "budget_tokens"]},
    },
}
"""The fields the simulated model reads, described here; the others are described by the SDK's types."""


def _request_schema(kind: str) -> dict:
    fields = sdk_params.body_fields(kind)
    from_sdk = sdk_params.field_schemas(name for name in fields if name not in _DETAILED_FIELDS)
    return {
        "type": "object",
        "required": ["model", "messages", "max_tokens"] if kind == "request" else ["model", "messages"],
        "properties": {name: _DETAILED_FIELDS.get(name) or from_sdk.get(name, {}) for name in sorted(fields)},
        "additionalProperties": False,
    }


REQUEST_SCHEMA = _request_schema("request")
COUNT_TOKENS_SCHEMA = _request_schema("count_tokens")


def _tag_tested(clause: object) -> str | None:
    """The `type` a `_tagged` clause (only `if` and `then`) applies to; None for any other clause."""
    if not isinstance(clause, dict) or not clause.keys() <= {"if", "then"}:
        return None
    test = clause.get("if")
    if not isinstance(test, dict) or test.keys() != {"properties", "required"} or test["required"] != ["type"]:
        return None
    properties = test["properties"]
    if not isinstance(properties, dict) or properties.keys() != {"type"} or not isinstance(properties["type"], dict) \
            or properties["type"].keys() != {"const"}:
        return None
    const = properties["type"]["const"]
    return const if isinstance(const, str) else None


def _all_of(validator, all_of, instance, schema):
    """jsonschema's `allOf`, skipping the tagged clauses of other types. A block's union has one
    clause per type (dozens): each `if` costs as much as checking the block, and for an object whose
    `type` is another string it fails, so the clause holds and yields nothing. The errors, their
    paths and order, stay exactly jsonschema's."""
    tag = instance.get("type") if isinstance(instance, dict) else None
    for index, clause in enumerate(all_of):
        if isinstance(tag, str) and _tag_tested(clause) not in (None, tag):
            continue
        yield from validator.descend(instance, clause, schema_path=index)


_Validator = validators.extend(Draft202012Validator, {"allOf": _all_of})
_VALIDATORS = {
    "request": _Validator(REQUEST_SCHEMA),
    "count_tokens": _Validator(COUNT_TOKENS_SCHEMA),
    "message": _Validator(MESSAGE_SCHEMA),
}
_TYPE_NAMES = {
    "string": "a valid string", "integer": "a valid integer", "number": "a valid number",
    "array": "a valid list", "object": "a valid dictionary", "boolean": "a valid boolean",
    "null": "None",
}
_TAGGED_LISTS = {"content", "tools", "edits"}
"""Lists whose items are a tagged union: the API names the item's `type` in an error's path."""
_TAGGED_FIELDS = {"source", "thinking", "tool_choice"}
"""Fields that hold a tagged union themselves (`thinking.enabled.budget_tokens`)."""


class _Verdicts:
    """Verdicts remembered by a digest of the checked JSON, never by the JSON itself, and a bounded
    number of them: a 5 MB block sent once costs 64 bytes of memory afterwards, not 5 MB."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[str, str], bool] = OrderedDict()
        self._lock = threading.Lock()

    def is_valid(self, kind: str, instance: object) -> bool:
        text = json.dumps(instance, sort_keys=True, ensure_ascii=False)
        key = (kind, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
        with self._lock:
            if key in self._seen:
                self._seen.move_to_end(key)
                return self._seen[key]
        verdict = _VALIDATORS[kind].is_valid(instance)
        with self._lock:
            self._seen[key] = verdict
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        return verdict

    def __len__(self) -> int:
        return len(self._seen)


VERDICTS = _Verdicts()


def first_problem(body: object, kind: str = "request") -> str | None:
    """The API-worded message of the most relevant schema violation, or None if the body is valid.

    An agent sends the same tools and history again on every call, so verdicts are remembered
    per message and for the rest of the body: a long conversation costs only what is new.
    """
    validator = _VALIDATORS[kind]
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return _wording(best_match(validator.iter_errors(body)), body, ())
    if not VERDICTS.is_valid(kind, {**body, "messages": []}):
        return _wording(best_match(validator.iter_errors(body)), body, ())
    for i, message in enumerate(body["messages"]):
        if not VERDICTS.is_valid("message", message):
            return _wording(best_match(_VALIDATORS["message"].iter_errors(message)), message, ("messages", i))
    return None


def _member_tags(member: object) -> set | None:
    """The `type` values a member of a union accepts, or None for a member without a tag."""
    tag = member.get("properties", {}).get("type") if isinstance(member, dict) else None
    if not isinstance(tag, dict):
        return None
    return {tag["const"]} if "const" in tag else set(tag.get("enum") or []) or None


def _relevance(error: ValidationError) -> tuple:
    """jsonschema's relevance, except that inside a union (anyOf) an error of the member that the
    object's own `type` names comes first: the API says what is wrong in that member (`trigger.
    input_tokens.value: Field required`), not that the tag fits none of the other members."""
    parent, elsewhere = error.parent, False
    if parent is not None and parent.validator in ("anyOf", "oneOf") and isinstance(parent.instance, dict):
        tags = _member_tags(parent.validator_value[error.relative_schema_path[0]])
        elsewhere = tags is not None and parent.instance.get("type") not in tags
    return (elsewhere, *relevance(error))


def best_match(errors) -> ValidationError | None:
    """jsonschema's best_match, descending into a union by the member its tag names (_relevance)."""
    return _jsonschema_best_match(errors, key=_relevance)


def _wording(error: ValidationError, root: object, prefix: tuple) -> str:
    return _raw_wording(error, root, prefix).removeprefix(": ")


def _located(root: object, prefix: tuple, path: list) -> list[str]:
    """The error's path as the API writes it: a tagged item's `type` follows its index
    (`tools.0.custom.name`, `content.0.image.source.base64.media_type`)."""
    parts = [str(p) for p in prefix]
    node, parent_key = root, prefix[-2] if len(prefix) >= 2 else None
    for step, key in enumerate(path):
        parts.append(str(key))
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        rest = path[step + 1:]
        tagged_item = isinstance(key, int) and parent_key in _TAGGED_LISTS
        if isinstance(node, dict) and rest and rest[0] != "type" and (tagged_item or key in _TAGGED_FIELDS):
            tag = node.get("type", "custom" if parent_key == "tools" else None)
            if isinstance(tag, str):
                parts.append(tag)
        parent_key = key
    return parts


def _options(values: list) -> str:
    shown = [repr(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _raw_wording(error: ValidationError, root: object, prefix: tuple) -> str:
    relative = list(error.absolute_path)
    kind = error.validator
    child = None
    if kind == "required":
        child = error.message.split("'")[1]
    elif kind == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = sorted(k for k in error.instance if k not in allowed)
        child = extra[0] if extra else None
    path = ".".join(_located(root, prefix, relative + ([child] if child is not None else [])))
    if kind == "required":
        return f"{path}: Field required"
    if kind == "additionalProperties":
        return f"{path}: Extra inputs are not permitted"
    if kind == "type":
        expected = error.validator_value
        names = [expected] if isinstance(expected, str) else list(expected)
        return f"{path}: Input should be " + " or ".join(_TYPE_NAMES[name] for name in names)
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        options = [o for o in options if o is not None]
        full_path = [*prefix, *relative]
        if full_path and full_path[-1] == "type" and len(full_path) > 2 and "input_schema" not in full_path:
            tags = ", ".join(f"'{o}'" for o in options)
            return (f"{path[: -len('.type')]}: Input tag '{error.instance}' found using 'type' "
                    f"does not match any of the expected tags: {tags}")
        return f"{path}: Input should be {_options(options)}"
    if kind == "anyOf":  # an SDK union: name the literals, or the tags, it allows
        options = [o for o in error.validator_value if o != {"type": "null"}]
        if options and all("enum" in o for o in options):
            return f"{path}: Input should be {_options([v for o in options for v in o['enum']])}"
        tags = [v for o in options for v in o.get("properties", {}).get("type", {}).get("enum", [])]
        tag = error.instance.get("type") if isinstance(error.instance, dict) else None
        chosen = [i for i, o in enumerate(error.validator_value)
                  if tag in o.get("properties", {}).get("type", {}).get("enum", [])]
        inside = [e for e in error.context if chosen and e.schema_path and e.schema_path[0] == chosen[0]]
        if inside:  # the tag names a member: what is wrong inside it
            return _raw_wording(best_match(inside), root, prefix)
        if tags and isinstance(error.instance, dict) and "type" in error.instance:
            listed = ", ".join(f"'{t}'" for t in tags)
            return (f"{path}: Input tag '{error.instance['type']}' found using 'type' does not match any of "
                    f"the expected tags: {listed}")
    if kind == "minimum":
        return f"{path}: Input should be greater than or equal to {error.validator_value}"
    if kind == "maximum":
        return f"{path}: Input should be less than or equal to {error.validator_value}"
    if kind == "pattern":
        return f"{path}: String should match pattern '{error.validator_value}'"
    return f"{path}: {error.message}"
