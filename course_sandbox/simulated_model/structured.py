"""Structured outputs: with `output_config: {"format": {"type": "json_schema", "schema": ...}}`
the final text is JSON valid against that schema, as the real API guarantees.

The JSON comes from the same generator as forced tool inputs, filled from the request's words,
from values the tools returned, and from the answer the model would have written in prose.
"""

import json
from fractions import Fraction

from ..conversation import Turn
from ..request import Request
from . import slots
from .history import calls, task_turn
from .reply import Reply
from .schema_instance import instance


def output_schema(request: Request) -> dict | bool | None:
    """The JSON schema the answer must follow (output_config.format, or the older output_format)."""
    fmt = request.output_config.get("format") or request.output_format
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema" and isinstance(fmt.get("schema"), (dict, bool)):
        return fmt["schema"]
    return None


def apply(request: Request, turns: list[Turn], reply: Reply, lang: str) -> Reply:
    """The reply with its final text turned into schema-valid JSON (tool calls are left alone)."""
    schema = output_schema(request)
    texts = [b for b in reply.blocks if b["type"] == "text"]
    if schema is None or reply.stop_reason != "end_turn" or not texts:
        return reply
    prose = "\n".join(b["text"] for b in texts)
    results = [c.result or "" for c in calls(turns) if c.result is not None and not c.is_error]
    evidence = slots.read(task_turn(turns).text(), lang, results)
    if evidence.expression and evidence.expression.value is not None:
        exact: Fraction = evidence.expression.value
        number = int(exact) if exact.denominator == 1 else float(exact)
        for key in ("result", "answer", "value", "total"):
            evidence.named.setdefault(key, number)
    evidence.named.setdefault("answer", prose)
    value = instance(schema, slots.RequestHints(evidence), optional=True)
    blocks, placed = [], False
    for block in reply.blocks:
        if block["type"] != "text":
            blocks.append(block)
        elif not placed:
            blocks.append({"type": "text", "text": json.dumps(value, ensure_ascii=False)})
            placed = True
    return Reply(blocks, reply.stop_reason, reply.stop_details, reply.reasoning)
