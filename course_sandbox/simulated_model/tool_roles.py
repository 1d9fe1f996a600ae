"""Finding the learner's tools by what they do, whatever they are called, and filling their
inputs from their input_schema, whatever the property names."""

import functools
import re
from dataclasses import dataclass

from ..request import Request

# A tool plays the first role whose pattern it matches: "inline" (a comment on one line of the diff)
# comes first, so that comment_on_line is never taken for the summary's comment tool.
ROLE_PATTERNS = {
    "inline": r"comment_on_line|on_line\b|\binline\b|line_comment|построчн|к строке",
    "merge": r"merge|влить|влей|слить|слей|смерж",
    "diff": r"diff|changes|изменени|дифф",
    "comment": r"comment|note|коммент|замечани",
    "read": r"read|file|content|файл|прочит|содерж",
}
_REQUEST_WORDS = re.compile(r"(merge|pull)[ _-]?requests?")
"""'merge request' names the thing reviewed, not the act of merging."""
SLOT_PATTERNS = {
    "number": r"^(pr|mr|iid|number|num|id|pull|merge_request|pull_request|request)(_?(id|iid|number|num))?$",
    "path": r"path|file",
    "ref": r"^(ref|branch|sha|commit|revision|rev)$",
    "body": r"body|text|comment|message|note|content",
    "line": r"^(line|line_?no|line_?number|new_line|lineno)$",
    "start": r"^(start|offset|from_char|skip)$",
    "approved": r"confirm|approv|force|skip|overrid|bypass|authori[sz]|consent|human|sign_?off",
}


@dataclass
class ToolSpec:
    name: str
    description: str
    schema: dict

    def properties(self) -> dict:
        properties = self.schema.get("properties")
        return properties if isinstance(properties, dict) else {}


def custom_tools(request: Request, hidden: bool = False) -> list[ToolSpec]:
    """The client tools of a request (server tools have a `type` such as web_search_20250305).

    A tool with `defer_loading: true` is not visible until a tool search found it (a
    `tool_reference` to it in the conversation); hidden=True lists those not found yet instead.
    """
    found = referenced(request)
    return [
        ToolSpec(str(t["name"]), str(t.get("description", "")),
                 t["input_schema"] if isinstance(t.get("input_schema"), dict) else {})
        for t in request.tools
        if t.get("type") in (None, "custom")
        and (bool(t.get("defer_loading")) and str(t["name"]) not in found) == hidden
    ]


def referenced(request: Request) -> set[str]:
    """Names of the tools a tool search returned so far: `tool_reference` blocks in tool results
    (a search tool of the learner's own) and in `tool_search_tool_result` blocks (the server's)."""
    names: set[str] = set()
    for message in request.messages:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            inner = block.get("content") if isinstance(block, dict) else None
            if isinstance(inner, dict):
                inner = inner.get("tool_references")
            for item in inner if isinstance(inner, list) else []:
                if isinstance(item, dict) and item.get("type") == "tool_reference":
                    names.add(str(item.get("tool_name")))
    return names


def find(tools: list[ToolSpec], role: str) -> ToolSpec | None:
    """The tool that plays a role: first by its name, then by its description."""
    for field in ("name", "description"):
        for tool in tools:
            if _role_of(getattr(tool, field)) == role:
                return tool
    return None


@functools.lru_cache(maxsize=1024)
def _role_of(text: str) -> str | None:
    """The first role a tool's name or description fits. Remembered: every request asks it of the
    same few tools, once per role."""
    text = _REQUEST_WORDS.sub(" ", text.lower())
    return next((r for r, pattern in ROLE_PATTERNS.items() if re.search(pattern, text)), None)


def fill(tool: ToolSpec, **slots: object) -> dict:
    """Input for a tool: each known slot goes to the property whose name fits it."""
    values: dict[str, object] = {}
    properties = tool.properties()
    for prop, schema in properties.items():
        slot = _slot_for(prop, schema if isinstance(schema, dict) else {}, slots)
        if slot is not None and slots.get(slot) is not None:
            values[prop] = _typed(slots[slot], schema if isinstance(schema, dict) else {})
    required = tool.schema.get("required")
    for prop in required if isinstance(required, list) else []:
        if isinstance(prop, str) and prop not in values and isinstance(properties.get(prop), dict):
            schema = properties[prop]
            if "default" in schema:
                values[prop] = schema["default"]
            elif isinstance(schema.get("enum"), list) and schema["enum"]:
                values[prop] = schema["enum"][0]
    return values


def takes(tool: ToolSpec, slot: str) -> bool:
    """Whether the tool has a property that fits the slot (a read tool that takes a start, say)."""
    return any(re.search(SLOT_PATTERNS[slot], prop.lower()) for prop in tool.properties())


def slot_value(tool_input: dict, slot: str) -> object | None:
    """The value a call gave for the slot (fill() the other way round): the first property whose name fits it."""
    return next((value for key, value in tool_input.items() if re.search(SLOT_PATTERNS[slot], key.lower())), None)


def _slot_for(prop: str, schema: dict, slots: dict) -> str | None:
    name = prop.lower()
    for slot in ("line", "start", "number", "ref", "path",
                 "body"):  # "line" and "start" first: integers, as the number is
        if slot in slots and re.search(SLOT_PATTERNS[slot], name):
            return slot
    if "approved" in slots and schema.get("type") == "boolean" and re.search(SLOT_PATTERNS["approved"], name):
        return "approved"  # a flag that says the call was approved: set by whoever believes it was
    if "number" in slots and schema.get("type") in ("integer", "number"):
        return "number"
    return None


def _typed(value: object, schema: dict) -> object:
    kind = schema.get("type")
    if kind in ("integer", "number") and isinstance(value, str) and value.isdigit():
        return int(value)
    if kind == "string" and not isinstance(value, str):
        return str(value)
    return value
