"""Rules the Messages API enforces across fields of a request that is otherwise well formed:
thinking and sampling, tool names and schemas, numbers that are not numbers, empty text,
and a prefill that ends in whitespace. Each raises the API's 400 with its wording.

Wording: where the real API's message is known (seen in its answers), it is used verbatim;
where it is not, the sentence is written in the API's style and marked so below.
"""

import hashlib
import json
import math
import threading
from collections import OrderedDict

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from .errors import invalid

_THINKING_DOCS = ("Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/"
                  "extended-thinking#important-considerations-when-using-extended-thinking")
TEMPERATURE_WITH_THINKING = ("`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. "
                             + _THINKING_DOCS)
TOP_K_WITH_THINKING = f"`top_k` must be unset when thinking is enabled. {_THINKING_DOCS}"
FORCED_TOOL_WITH_THINKING = "Thinking may not be enabled when tool_choice forces tool use."
DUPLICATE_TOOL_NAMES = "tools: Tool names must be unique."
EMPTY_TEXT = "messages: text content blocks must be non-empty"
# API style: the real wording for an empty system block is not documented.
EMPTY_SYSTEM_TEXT = "system: text content blocks must be non-empty"
TRAILING_WHITESPACE = "messages: final assistant content cannot end with trailing whitespace"
INVALID_INPUT_SCHEMA = ("tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema "
                        "draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at "
                        "https://docs.claude.com/en/docs/tool-use.")
NOT_FINITE = "{field}: Input should be a finite number"  # pydantic's wording, which the API's field errors use


def thinking_on(body: dict) -> bool:
    return isinstance(body.get("thinking"), dict) and body["thinking"].get("type") in ("enabled", "adaptive")


def check(body: dict) -> None:
    """Raise the API's 400 for the first rule the (schema-valid) body breaks."""
    for field in ("temperature", "top_p"):
        value = body.get(field)
        if isinstance(value, float) and not math.isfinite(value):
            raise invalid(NOT_FINITE.format(field=field))
    if thinking_on(body):
        if body.get("temperature") is not None and body["temperature"] != 1:
            raise invalid(TEMPERATURE_WITH_THINKING)
        if body.get("top_k") is not None:
            raise invalid(TOP_K_WITH_THINKING)
        if (body.get("tool_choice") or {}).get("type") in ("any", "tool"):
            raise invalid(FORCED_TOOL_WITH_THINKING)
    tools = body.get("tools") or []
    names = [tool["name"] for tool in tools if isinstance(tool.get("name"), str)]
    if len(names) != len(set(names)):
        raise invalid(DUPLICATE_TOOL_NAMES)
    for i, tool in enumerate(tools):
        if tool.get("type", "custom") == "custom" and not SCHEMAS.is_valid(tool["input_schema"]):
            raise invalid(INVALID_INPUT_SCHEMA.format(i=i))
    system = body.get("system")
    if isinstance(system, list) and any(block.get("text") == "" for block in system):
        raise invalid(EMPTY_SYSTEM_TEXT)
    messages = body["messages"]
    for message in messages:
        if any(block.get("type") == "text" and block.get("text") == "" for block in _blocks(message["content"])):
            raise invalid(EMPTY_TEXT)
    if messages and messages[-1]["role"] == "assistant":
        last = _blocks(messages[-1]["content"])
        if last and last[-1].get("type") == "text" and last[-1]["text"] != last[-1]["text"].rstrip():
            raise invalid(TRAILING_WHITESPACE)


def _blocks(content: str | list) -> list[dict]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


class _SchemaVerdicts:
    """Whether a tool's input_schema is a valid JSON Schema, remembered by digest (bounded)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._seen: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()

    def is_valid(self, schema: object) -> bool:
        key = hashlib.sha256(json.dumps(schema, sort_keys=True).encode("utf-8", "surrogatepass")).hexdigest()
        with self._lock:
            if key in self._seen:
                return self._seen[key]
        try:
            Draft202012Validator.check_schema(schema)
            verdict = True
        except (SchemaError, RecursionError):
            verdict = False
        with self._lock:
            self._seen[key] = verdict
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        return verdict


SCHEMAS = _SchemaVerdicts()
