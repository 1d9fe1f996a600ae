"""Cutting a response where the real API would: at a stop sequence, at max_tokens, or at
the end of the context window. A cut tool_use keeps only the input generated so far."""

import json
from dataclasses import dataclass, field

import jiter

from . import thinking, tokens


@dataclass
class Shaped:
    blocks: list[dict]
    stop_reason: str
    stop_sequence: str | None
    output_tokens: int
    partial_json: dict[int, str] = field(default_factory=dict)
    """For a cut tool_use block (by index): the JSON text generated before the cut."""


def shape(blocks: list[dict], stop_reason: str, max_tokens: int, window_left: int,
          stop_sequences: list[str]) -> Shaped:
    blocks, stop_reason, stop_sequence = _apply_stop_sequences(blocks, stop_reason, stop_sequences)
    limit = min(max_tokens, window_left)
    kept: list[dict] = []
    partial: dict[int, str] = {}
    used = 0
    for block in blocks:
        cost = tokens.count_block(block)
        if used + cost <= limit:
            kept.append(block)
            used += cost
            continue
        room = max(0, limit - used - tokens.BLOCK_OVERHEAD)
        cut = _cut_block(block, room)
        if cut is not None:
            block, json_text = cut
            if json_text is not None:
                partial[len(kept)] = json_text
            kept.append(block)
        reason = "max_tokens" if limit == max_tokens else "model_context_window_exceeded"
        return Shaped(kept, reason, None, limit, partial)
    return Shaped(kept, stop_reason, stop_sequence, max(used, 1))


def _apply_stop_sequences(blocks: list[dict], stop_reason: str, sequences: list[str]):
    for n, block in enumerate(blocks):
        if block["type"] != "text":
            continue
        hits = [(block["text"].find(s), s) for s in sequences if s and s in block["text"]]
        if hits:
            position, sequence = min(hits)
            return blocks[:n] + [{**block, "text": block["text"][:position]}], "stop_sequence", sequence
    return blocks, stop_reason, None


def _cut_block(block: dict, room: int) -> tuple[dict, str | None] | None:
    """The part of a block generated within `room` tokens (about four characters each)."""
    chars = room * 4
    if block["type"] == "text":
        return ({**block, "text": block["text"][:chars]}, None) if chars else None
    if block["type"] == "thinking":
        text = block["thinking"][:chars]
        return {**block, "thinking": text, "signature": thinking.sign(text)}, None
    if block["type"] == "tool_use":
        full = json.dumps(block["input"], ensure_ascii=False)
        share = room / max(1, tokens.count_block(block) - tokens.BLOCK_OVERHEAD)
        json_text = full[: int(len(full) * min(1.0, share))]
        try:
            partial_input = jiter.from_json(json_text.encode(), partial_mode="trailing-strings") if json_text else {}
        except ValueError:
            partial_input = {}
        return {**block, "input": partial_input if isinstance(partial_input, dict) else {}}, json_text
    return None


def cut_short(tool_input: object) -> dict:
    """A tool call's input as the SDK reads it (partial JSON, trailing strings kept) when the response was cut just
    before the input's JSON ended: its last value unfinished (`{"pr": 482}` -> `{"pr": 48}`), so that it still binds
    and runs, wrongly, as notebook 6 shows a cut call would; `{}` when nothing whole was written before the cut."""
    full = json.dumps(tool_input, ensure_ascii=False)
    for end in range(len(full) - 2, 0, -1):
        try:
            partial = jiter.from_json(full[:end].encode(), partial_mode="trailing-strings")
        except ValueError:
            continue
        if isinstance(partial, dict) and partial != tool_input:
            return partial
    return {}
