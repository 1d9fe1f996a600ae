"""JSON Schema of the Messages API request body (the subset the sandbox simulates), and
the conversion of jsonschema's findings into the API's own error wording
(`messages.0.role: Input should be 'user' or 'assistant'`)."""

import json
from functools import lru_cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

_CACHE_CONTROL = {
    "type": ["object", "null"],
    "required": ["type"],
    "properties": {"type": {"enum": ["ephemeral"]}, "ttl": {"enum": ["5m", "1h"]}},
    "additionalProperties": False,
}


def _block(kind: str, required: list[str], properties: dict) -> dict:
    """An if/then clause that checks a content block once its `type` says what it is."""
    return {
        "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
        "then": {
            "required": required,
            "properties": {"type": {"const": kind}, "cache_control": _CACHE_CONTROL, **properties},
            "additionalProperties": False,
        },
    }


_TEXT = _block("text", ["text"], {"text": {"type": "string"}, "citations": {}})
_BLOCK_TYPES = [
    "text", "image", "document", "search_result", "tool_use", "tool_result", "thinking",
    "redacted_thinking", "server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
    "code_execution_tool_result", "container_upload",
]
_CONTENT_BLOCK = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"enum": _BLOCK_TYPES}},
    "allOf": [
        _TEXT,
        _block("tool_use", ["id", "name", "input"], {
            "id": {"type": "string"}, "name": {"type": "string"}, "input": {"type": "object"},
            "caller": {},
        }),
        _block("tool_result", ["tool_use_id"], {
            "tool_use_id": {"type": "string"},
            "content": {"type": ["string", "array"], "items": {"type": "object", "required": ["type"]}},
            "is_error": {"type": "boolean"},
        }),
        _block("thinking", ["thinking", "signature"], {
            "thinking": {"type": "string"}, "signature": {"type": "string"},
        }),
        _block("redacted_thinking", ["data"], {"data": {"type": "string"}}),
        _block("server_tool_use", ["id", "name", "input"], {
            "id": {"type": "string"}, "name": {"type": "string"}, "input": {"type": "object"},
            "caller": {},
        }),
        _block("web_search_tool_result", ["tool_use_id", "content"], {
            "tool_use_id": {"type": "string"}, "content": {}, "caller": {},
        }),
    ],
}

_TOOL = {
    "type": "object",
    "if": {"not": {"required": ["type"]}},
    "then": {
        "required": ["name", "input_schema"],
        "properties": {
            "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,128}$"},
            "description": {"type": "string"},
            "input_schema": {"type": "object", "required": ["type"]},
            "cache_control": _CACHE_CONTROL,
            "strict": {"type": "boolean"},
            "input_examples": {"type": "array"},
            "defer_loading": {"type": "boolean"},
            "eager_input_streaming": {"type": ["boolean", "null"]},
            "allowed_callers": {"type": "array"},
        },
        "additionalProperties": False,
    },
    "else": {"required": ["type", "name"], "properties": {"type": {"type": "string"}, "name": {"type": "string"}}},
}

MESSAGE_SCHEMA = {
    "type": "object",
    "required": ["role", "content"],
    "properties": {
        "role": {"enum": ["user", "assistant"]},
        "content": {"type": ["string", "array"], "items": _CONTENT_BLOCK},
    },
    "additionalProperties": False,
}

REQUEST_SCHEMA = {
    "type": "object",
    "required": ["model", "messages", "max_tokens"],
    "properties": {
        "model": {"type": "string"},
        "max_tokens": {"type": "integer", "minimum": 1},
        "messages": {"type": "array", "items": {"type": "object"}},  # each checked by MESSAGE_SCHEMA
        "system": {"type": ["string", "array"], "items": {"type": "object", **_TEXT}},
        "tools": {"type": "array", "items": _TOOL},
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
        "top_p": {"type": "number"},
        "top_k": {"type": "integer"},
        "metadata": {"type": "object"},
        "service_tier": {"enum": ["auto", "standard_only"]},
        "cache_control": _CACHE_CONTROL,
        "thinking": {
            "type": "object",
            "required": ["type"],
            "properties": {
                "type": {"enum": ["enabled", "disabled", "adaptive"]},
                "budget_tokens": {"type": "integer", "minimum": 1024},
                "display": {"type": ["string", "null"]},
            },
        },
        "output_config": {"type": "object"},
        "output_format": {"type": ["object", "null"]},
        "context_management": {"type": ["object", "null"]},
        "container": {},
        "mcp_servers": {"type": "array"},
        "inference_geo": {"type": ["string", "null"]},
        "speed": {"type": ["string", "null"]},
        "diagnostics": {},
        "thread": {},
    },
    "additionalProperties": False,
}

COUNT_TOKENS_SCHEMA = {
    **REQUEST_SCHEMA,
    "required": ["model", "messages"],
    "properties": {
        k: v for k, v in REQUEST_SCHEMA["properties"].items()
        if k not in ("max_tokens", "stream", "stop_sequences", "temperature", "top_p", "top_k", "metadata")
    },
}

_VALIDATORS = {
    "request": Draft202012Validator(REQUEST_SCHEMA),
    "count_tokens": Draft202012Validator(COUNT_TOKENS_SCHEMA),
}
_MESSAGE = Draft202012Validator(MESSAGE_SCHEMA)
_TYPE_NAMES = {
    "string": "a valid string", "integer": "a valid integer", "number": "a valid number",
    "array": "a valid list", "object": "a valid dictionary", "boolean": "a valid boolean",
    "null": "None",
}


def first_problem(body: object, kind: str = "request") -> str | None:
    """The API-worded message of the most relevant schema violation, or None if the body is valid.

    An agent sends the same tools and history again on every call, so verdicts are remembered
    per message and for the rest of the body: a long conversation costs only what is new.
    """
    validator = _VALIDATORS[kind]
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return _wording(best_match(validator.iter_errors(body)), ())
    if not _is_valid(kind, json.dumps({**body, "messages": []}, sort_keys=True)):
        return _wording(best_match(validator.iter_errors(body)), ())
    for i, message in enumerate(body["messages"]):
        if not _is_valid("message", json.dumps(message, sort_keys=True)):
            return _wording(best_match(_MESSAGE.iter_errors(message)), ("messages", i))
    return None


@lru_cache(maxsize=8192)
def _is_valid(kind: str, canonical: str) -> bool:
    return (_MESSAGE if kind == "message" else _VALIDATORS[kind]).is_valid(json.loads(canonical))


def _wording(error: ValidationError, prefix: tuple) -> str:
    return _raw_wording(error, prefix).removeprefix(": ")


def _raw_wording(error: ValidationError, prefix: tuple) -> str:
    full_path = [*prefix, *error.absolute_path]
    path = ".".join(str(part) for part in full_path)

    def at(suffix: str = "") -> str:
        return ".".join(p for p in (path, suffix) if p)

    kind = error.validator
    if kind == "required":
        missing = error.message.split("'")[1]
        return f"{at(missing)}: Field required"
    if kind == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = sorted(k for k in error.instance if k not in allowed)
        return f"{at(extra[0] if extra else '')}: Extra inputs are not permitted"
    if kind == "type":
        expected = error.validator_value
        names = [expected] if isinstance(expected, str) else list(expected)
        return f"{at()}: Input should be " + " or ".join(_TYPE_NAMES[name] for name in names)
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        if path.endswith("type") and len(full_path) > 2:
            tags = ", ".join(f"'{o}'" for o in options)
            return (f"{at()[: -len('.type')]}: Input tag '{error.instance}' found using 'type' "
                    f"does not match any of the expected tags: {tags}")
        return f"{at()}: Input should be " + " or ".join(repr(o) for o in options)
    if kind == "minimum":
        return f"{at()}: Input should be greater than or equal to {error.validator_value}"
    if kind == "maximum":
        return f"{at()}: Input should be less than or equal to {error.validator_value}"
    if kind == "pattern":
        return f"{at()}: String should match pattern '{error.validator_value}'"
    return f"{at()}: {error.message}"
