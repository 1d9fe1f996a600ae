"""Reading what a learner hands in: SDK objects, dicts and bare strings alike, as plain dicts and text,
so that a requirement judges the content and never the way it happens to be typed."""

from collections.abc import Mapping
from typing import Any


def get(obj: Any, name: str, default: Any = None) -> Any:
    """A field of a dict or an attribute of an object (SDK types, dataclasses)."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def unwrap(value: Any) -> Any:
    """The Message inside what a learner may hand in instead of it: a raw response (with_raw_response,
    read with its public parse()) or a stream read to its end (get_final_message()); else the value itself."""
    if isinstance(value, Mapping) or get(value, "content") is not None:
        return value
    for method in ("parse", "get_final_message"):
        read = getattr(value, method, None)
        if callable(read):
            try:
                return read()
            except Exception:  # a stream closed before it was read: judged as what it is
                return value
    return value


def block(value: Any) -> dict:
    """A content block as a plain dict, whether it is an SDK object, a dict or a bare string."""
    if isinstance(value, str):
        return {"type": "text", "text": value}
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "model_dump"):
        try:
            return value.model_dump()
        except Exception:  # pragma: no cover - an odd object; fall back to its attributes
            pass
    return {key: getattr(value, key) for key in ("type", "text", "id", "name", "input", "tool_use_id",
                                                 "content", "is_error") if hasattr(value, key)}


def blocks(content: Any) -> list[dict]:
    """A message's content as block dicts (a string or a single block is a list of one)."""
    if content is None:
        return []
    if isinstance(content, (str, Mapping)) or not isinstance(content, (list, tuple)):
        return [block(content)]
    return [block(item) for item in content]


def text(content: Any) -> str:
    """The text of a message's content, or of a tool_result's content (a string or text blocks)."""
    if isinstance(content, bytes):
        return content.decode("utf-8", errors="replace")
    if isinstance(content, str):
        return content
    parts = []
    for item in blocks(content):
        if item.get("type") == "text" and isinstance(item.get("text"), str):
            parts.append(item["text"])
    return "\n".join(parts)


def message(value: Any) -> tuple[str, list[dict]]:
    """(role, blocks) of a message: a dict, an SDK MessageParam, or an SDK Message."""
    return str(get(value, "role", "") or ""), blocks(get(value, "content"))


def of_type(items: list[dict], kind: str) -> list[dict]:
    """The blocks of one type ("tool_use", "tool_result", ...)."""
    return [b for b in items if b.get("type") == kind]


def short(value: Any, limit: int = 120) -> str:
    """A value's repr cut to fit on a report's line."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def kind(value: Any) -> str:
    """The type's name, for "expected ..., got list"."""
    return type(value).__name__
