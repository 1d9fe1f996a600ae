"""Reading what went over the wire: message histories as lists of blocks, blocks as keys
that survive the ways a learner may re-serialise them (SDK objects, dicts, strings)."""

import json
from typing import Any

HISTORY_ERRORS = ("tool_use_id", "`tool_use` ids", "tool_use ids", "`thinking`", "redacted_thinking")
"""Words of the API's 400s about a broken history (rule 1)."""


def blocks(content: Any) -> list[dict]:
    """A message's content as a list of block dicts (a string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


def key(block: dict) -> tuple:
    """What identifies a block: its text, its signature, its id and input."""
    kind = block.get("type")
    if kind == "text":
        return kind, block.get("text")
    if kind == "thinking":
        return kind, block.get("thinking"), block.get("signature")
    if kind == "redacted_thinking":
        return kind, block.get("data")
    if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
        return kind, block.get("id"), block.get("name"), json.dumps(block.get("input"), sort_keys=True, default=str)
    if "tool_use_id" in block:
        return kind, block.get("tool_use_id")
    return kind, block.get("id")


def turns(messages: list) -> list[tuple[str, list[dict]]]:
    """Consecutive messages of one role merged, as the API merges them."""
    merged: list[tuple[str, list[dict]]] = []
    for message in messages or []:
        if not isinstance(message, dict):
            continue
        role, content = message.get("role"), blocks(message.get("content"))
        if merged and merged[-1][0] == role:
            merged[-1][1].extend(content)
        else:
            merged.append((role, list(content)))
    return merged


def results_for(body: dict | None, ids: Any) -> list[dict]:
    """The tool_result blocks a request carries for the given tool_use ids (a set, a list), in order."""
    return [b for m in (body or {}).get("messages") or [] if isinstance(m, dict) for b in blocks(m.get("content"))
            if b.get("type") == "tool_result" and b.get("tool_use_id") in ids]


def contains_in_order(whole: list[tuple], part: list[tuple]) -> bool:
    found = iter(whole)
    return all(any(k == w for w in found) for k in part)


def tool_uses(message: dict) -> list[dict]:
    return [b for b in message.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_use"]


def text_of(message: dict) -> str:
    return "\n".join(b.get("text", "") for b in message.get("content") or []
                     if isinstance(b, dict) and b.get("type") == "text")


def result_text(result: dict) -> str:
    """The text a tool_result block carries: its content string, or its text blocks joined."""
    content = result.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(b["text"] for b in blocks(content) if b.get("type") == "text" and isinstance(b.get("text"), str))


def error_message(reply: Any) -> str:
    if isinstance(reply, dict) and isinstance(reply.get("error"), dict):
        return str(reply["error"].get("message", ""))
    return ""


def describe(block: dict) -> str:
    kind = block.get("type", "?")
    return f"{kind} {block['id']}" if block.get("id") else kind


def with_threads_filled_in(bodies: list[Any], replies: list[Any]) -> list[Any]:
    """Each request body as the conversation the API answered: a `thread` continue (the SDK's tool runner
    sends only the new messages, and the server holds the rest) gets the held system, tools and messages
    in front of its own, from the earlier request whose reply it continues; any other body is as sent."""
    held: dict[str, dict] = {}
    out = []
    for body, reply in zip(bodies, replies, strict=False):
        thread = body.get("thread") if isinstance(body, dict) else None
        if isinstance(thread, dict) and thread.get("type") == "continue" and thread.get("previous_message_id") in held:
            before = held[thread["previous_message_id"]]
            body = {**before, **body, "messages": [*before["messages"], *(body.get("messages") or [])]}
        out.append(body)
        if isinstance(thread, dict) and isinstance(reply, dict) and reply.get("type") == "message":
            held[reply.get("id")] = {**{k: body[k] for k in ("system", "tools") if k in body},
                                     "messages": [*(body.get("messages") or []),
                                                  {"role": "assistant", "content": reply.get("content")}]}
    return out
