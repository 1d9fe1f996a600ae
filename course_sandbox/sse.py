"""A message as the Messages API streams it: server-sent events, each with an `event:` line."""

import contextlib
import json
from collections.abc import Iterator

TEXT_CHUNK = 24
JSON_CHUNK = 16


def _event(name: str, data: dict) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


def _chunks(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or []


def events(message: dict, partial_json: dict[int, str]) -> Iterator[bytes]:
    """message_start, then each block (start, deltas, stop), then message_delta and message_stop."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None, "stop_details": None,
             "usage": {**usage, "output_tokens": 1}}
    yield _event("message_start", {"type": "message_start", "message": start})
    yield _event("ping", {"type": "ping"})
    for index, block in enumerate(message["content"]):
        kind = block["type"]
        deltas: list[dict] = []
        if kind == "text":
            opening = {**block, "text": ""}
            deltas = [{"type": "text_delta", "text": c} for c in _chunks(block["text"], TEXT_CHUNK)]
        elif kind == "thinking":
            opening = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": c} for c in _chunks(block["thinking"], TEXT_CHUNK)]
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
        elif kind in ("tool_use", "server_tool_use"):
            opening = {**block, "input": {}}
            raw = partial_json.get(index, json.dumps(block["input"], ensure_ascii=False))
            deltas = [{"type": "input_json_delta", "partial_json": c} for c in _chunks(raw, JSON_CHUNK)]
        elif kind == "compaction":
            opening = {**block, "content": None}
            deltas = [{"type": "compaction_delta", "content": block["content"]}]
        else:
            opening = block
        yield _event("content_block_start", {"type": "content_block_start", "index": index, "content_block": opening})
        for delta in deltas:
            yield _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        yield _event("content_block_stop", {"type": "content_block_stop", "index": index})
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"],
             "stop_details": message["stop_details"]}
    yield _event("message_delta", {"type": "message_delta", "delta": delta, "usage": usage})
    yield _event("message_stop", {"type": "message_stop"})


def message_of(stream: bytes) -> dict:
    """The message a stream written by `events` carries (for the record of exchanges); a tool input
    cut in the middle (max_tokens) reads as {}, as in the message."""
    message: dict = {}
    partial: dict[int, str] = {}
    for chunk in stream.decode("utf-8").split("\n\n"):
        event = json.loads(chunk.split("data: ", 1)[1]) if "data: " in chunk else {}
        if event.get("type") == "message_start":
            message = event["message"]
        elif event.get("type") == "content_block_start":
            message["content"].append(event["content_block"])
        elif event.get("type") == "content_block_delta":
            [(name, piece)] = [(k, v) for k, v in event["delta"].items() if k != "type"]
            if name == "partial_json":
                partial[event["index"]] = partial.get(event["index"], "") + piece
            else:
                block = message["content"][event["index"]]
                block[name] = (block.get(name) or "") + piece
        elif event.get("type") == "message_delta":
            message.update(event["delta"], usage=event["usage"])
    for index, text in partial.items():
        with contextlib.suppress(ValueError):
            message["content"][index]["input"] = json.loads(text)
    return message
