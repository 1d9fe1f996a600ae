"""Rules the Messages API enforces across fields of a request that is otherwise well formed, for
the model it names (`model_profiles`): thinking types, effort, forced tool use, sampling, prefill;
tool names and schemas, numbers that are not numbers, empty text, and a prefill that ends in
whitespace. Each raises the API's 400 with its wording.

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
from .model_profiles import (
    BETWEEN_TOOLS_REJECTED,
    EFFORT_NOT_SUPPORTED,
    EFFORT_WITHOUT_THINKING,
    FORCED_TOOL_REJECTED,
    PREFILL_REJECTED,
    SAMPLING_DEPRECATED,
    SYSTEM_MESSAGE_REJECTED,
    effort_rank,
)
from .request import Request

_THINKING_DOCS = ("Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/"
                  "extended-thinking#important-considerations-when-using-extended-thinking")
TEMPERATURE_WITH_THINKING = ("`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. "
                             + _THINKING_DOCS)
TOP_K_WITH_THINKING = f"`top_k` must be unset when thinking is enabled. {_THINKING_DOCS}"
# API style: the docs give the range (0.95-1) but no wording.
TOP_P_WITH_THINKING = f"`top_p` must be between 0.95 and 1 when thinking is enabled. {_THINKING_DOCS}"
TEMPERATURE_AND_TOP_P = "`temperature` and `top_p` cannot both be specified for this model. Please use only one."
FORCED_TOOL_WITH_THINKING = "Thinking may not be enabled when tool_choice forces tool use."
DUPLICATE_TOOL_NAMES = "tools: Tool names must be unique."
EMPTY_TEXT = "messages: text content blocks must be non-empty"
# API style: the real wording for an empty system block is not documented.
EMPTY_SYSTEM_TEXT = "system: text content blocks must be non-empty"
TRAILING_WHITESPACE = "messages: final assistant content cannot end with trailing whitespace"
INVALID_INPUT_SCHEMA = ("tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema "
                        "draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at "
                        "https://docs.claude.com/en/docs/tool-use.")
# API style: the docs state the placement (mid-conversation system messages, "Limitations") but quote no wording.
SYSTEM_MESSAGE_PLACEMENT = ("messages.{i}: a system message must follow a user message (or an assistant message that "
                            "ends in a server tool result) and be followed by an assistant message or end the list")
NOT_FINITE = "{field}: Input should be a finite number"  # pydantic's wording, which the API's field errors use


def check(request: Request) -> None:
    """Raise the API's 404 for an unknown model, else the 400 for the first rule the (schema-valid) request
    breaks on its model."""
    model = request.profile
    for field in ("temperature", "top_p"):
        value = request.sampling.get(field)
        if isinstance(value, float) and not math.isfinite(value):
            raise invalid(NOT_FINITE.format(field=field))
    _check_thinking(request)
    forced = request.forces_tool
    if forced and not model.forced_tools:
        raise invalid(FORCED_TOOL_REJECTED)
    _check_sampling(request)
    if request.thinking_mode == "enabled" and forced:
        raise invalid(FORCED_TOOL_WITH_THINKING)
    tools = request.tools
    names = [tool["name"] for tool in tools if isinstance(tool.get("name"), str)]
    if len(names) != len(set(names)):
        raise invalid(DUPLICATE_TOOL_NAMES)
    for i, tool in enumerate(tools):
        if tool.get("type", "custom") == "custom" and not SCHEMAS.is_valid(tool["input_schema"]):
            raise invalid(INVALID_INPUT_SCHEMA.format(i=i))
    system = request.system
    if isinstance(system, list) and any(block.get("text") == "" for block in system):
        raise invalid(EMPTY_SYSTEM_TEXT)
    messages = request.messages
    _check_system_messages(request)
    for message in messages:
        if any(block.get("type") == "text" and block.get("text") == "" for block in _blocks(message["content"])):
            raise invalid(EMPTY_TEXT)
    if messages and messages[-1]["role"] == "assistant":
        last = _blocks(messages[-1]["content"])
        if last and last[-1].get("type") == "text" and last[-1]["text"] != last[-1]["text"].rstrip():
            raise invalid(TRAILING_WHITESPACE)
        # A prefill is a final assistant turn the model should go on writing; a paused server-tool turn
        # sent back to be resumed (pause_turn) is not one.
        prefill = bool(last) and last[-1].get("type") in ("text", "thinking", "redacted_thinking")
        if prefill and (model.prefill == "rejected" or
                        (model.prefill == "without-thinking" and request.thinking_mode != "disabled")):
            raise invalid(PREFILL_REJECTED)


def _check_system_messages(request: Request) -> None:
    """Mid-conversation system messages: only on the models that take them, and only where the docs place them,
    right after a user turn (or an assistant turn that ends in a server tool's result) and right before an
    assistant turn or at the end. A first entry is refused earlier, with the API's wording for a first message."""
    messages = request.messages
    for i, message in enumerate(messages):
        if message["role"] != "system" or i == 0:
            continue
        if not request.profile.system_messages:
            raise invalid(SYSTEM_MESSAGE_REJECTED)
        before = messages[i - 1]
        after = messages[i + 1] if i + 1 < len(messages) else None
        placed_after = before["role"] == "user" or (before["role"] == "assistant" and _ends_in_server_result(before))
        if not placed_after or (after is not None and after["role"] != "assistant"):
            raise invalid(SYSTEM_MESSAGE_PLACEMENT.format(i=i))


def _ends_in_server_result(message: dict) -> bool:
    """An assistant turn whose last block is a result the server's tools gave (web search, web fetch, code execution,
    an MCP server's tool…): `tool_result` is the learner's own, in a user turn."""
    blocks = _blocks(message["content"])
    kind = blocks[-1].get("type", "") if blocks else ""
    return kind.endswith("_tool_result")


def _check_thinking(request: Request) -> None:
    """The thinking types a model refuses, `between_tools`' own limits, and effort with thinking off."""
    model, mode, sent = request.profile, request.thinking_mode, request.thinking
    asked = request.output_config.get("effort")
    if isinstance(asked, str) and asked not in model.efforts:
        raise invalid(EFFORT_NOT_SUPPORTED.format(effort=asked))
    refused = model.rejects(mode)
    if refused:
        raise invalid(refused)
    if mode == "between_tools":
        if not model.between_tools:
            raise invalid(BETWEEN_TOOLS_REJECTED)
        extras = sorted(set(sent) - {"type"})
        if extras:
            raise invalid(f"thinking.between_tools.{extras[0]}: Extra inputs are not permitted")
    if mode == "disabled" and "display" in sent:  # API style: the docs give no wording
        raise invalid("thinking.disabled.display: Extra inputs are not permitted")
    thinking_off = mode == "between_tools" or (mode == "disabled" and model.disabled_up_to)
    level = request.effort
    if thinking_off and effort_rank(level) > effort_rank(model.disabled_up_to or "high"):
        raise invalid(EFFORT_WITHOUT_THINKING.format(effort=level))


def _check_sampling(request: Request) -> None:
    """temperature/top_p/top_k as the model takes them (deprecated on today's models)."""
    model, sent = request.profile, request.sampling
    if not sent or model.sampling == "accepted":
        return
    if model.sampling == "deprecated":
        defaults = {"temperature": 1, "top_p": 1}
        for name, value in sent.items():
            if name not in defaults or value != defaults[name]:
                raise invalid(SAMPLING_DEPRECATED.format(param=name))
    elif model.sampling == "haiku-5-5":  # only temperature 1 or top_p 0.99, each alone
        if len(sent) > 1 or sent not in ({"temperature": 1}, {"top_p": 0.99}):
            raise invalid(SAMPLING_DEPRECATED.format(param=next(iter(sent))))
    elif model.sampling == "without-thinking":
        if request.thinking_mode in ("enabled", "adaptive"):
            if sent.get("temperature", 1) != 1:
                raise invalid(TEMPERATURE_WITH_THINKING)
            if "top_k" in sent:
                raise invalid(TOP_K_WITH_THINKING)
            if not 0.95 <= sent.get("top_p", 1) <= 1:
                raise invalid(TOP_P_WITH_THINKING)
        if model.effort is None and "temperature" in sent and "top_p" in sent:  # Haiku 4.5
            raise invalid(TEMPERATURE_AND_TOP_P)


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
