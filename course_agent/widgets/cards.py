"""Messages as HTML cards and as plain text: one card per message, one box per block.

A tool_use and its tool_result share a colour and show the same id, so the pairing is seen at
a glance; error results stand out; thinking and long contents are folded. Everything shown
goes through redact(), so a secret never reaches the screen or a saved notebook.
"""

import hashlib
import html
import json
from typing import Any

from ..redaction import redact
from ..transcript import as_json

FOLD_CHARS = 1200
PALETTE = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#ff7f0e"]
ROLE_COLOURS = {"user": "#4c78a8", "assistant": "#72b7b2"}


def pair_colour(tool_use_id: str) -> str:
    """The colour shared by a tool_use and its tool_result (stable across runs)."""
    return PALETTE[int(hashlib.sha256(tool_use_id.encode()).hexdigest(), 16) % len(PALETTE)]


def _esc(text: Any) -> str:
    return html.escape(redact(text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, indent=1)))


def _folded(text: str, label: str) -> str:
    body = f"<pre style='white-space:pre-wrap;margin:2px 0'>{_esc(text)}</pre>"
    if len(text) <= FOLD_CHARS:
        return body
    return (f"<details><summary>{label} ({len(text)} characters, click to expand)</summary>{body}</details>"
            f"<pre style='white-space:pre-wrap;margin:2px 0;color:#666'>{_esc(text[:300])}…</pre>")


def _result_text(block: dict) -> str:
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", json.dumps(part)) for part in content if isinstance(part, dict))


def block_html(block: dict) -> str:
    kind = block.get("type")
    if kind == "text":
        return f"<div style='white-space:pre-wrap'>{_esc(block.get('text', ''))}</div>"
    if kind == "thinking":
        return (f"<details><summary style='color:#888'>thinking ({len(block.get('thinking', ''))} characters)"
                f"</summary><pre style='white-space:pre-wrap;color:#888'>{_esc(block.get('thinking', ''))}</pre>"
                "</details>")
    if kind == "redacted_thinking":
        return "<div style='color:#888'>redacted thinking</div>"
    if kind in ("tool_use", "server_tool_use"):
        colour = pair_colour(block.get("id", ""))
        return (f"<div style='border:2px solid {colour};border-radius:4px;padding:4px;margin:3px 0'>"
                f"<b>{kind}</b> <code>{_esc(block.get('name', ''))}</code> "
                f"<span style='color:{colour}'>id <code>{_esc(block.get('id', ''))}</code></span>"
                f"<pre style='margin:2px 0'>{_esc(block.get('input', {}))}</pre></div>")
    if kind == "tool_result":
        colour = pair_colour(block.get("tool_use_id", ""))
        error = bool(block.get("is_error"))
        background = "#fde8e8" if error else "transparent"
        badge = "<b style='color:#c00'>ERROR</b> " if error else ""
        return (f"<div style='border:2px solid {colour};border-radius:4px;padding:4px;margin:3px 0;"
                f"background:{background}'>{badge}<b>tool_result</b> for <span style='color:{colour}'>id "
                f"<code>{_esc(block.get('tool_use_id', ''))}</code></span>"
                f"{_folded(_result_text(block), 'result')}</div>")
    if kind == "web_search_tool_result":
        colour = pair_colour(block.get("tool_use_id", ""))
        results = block.get("content") if isinstance(block.get("content"), list) else []
        items = "".join(f"<li>{_esc(r.get('title', ''))} <code>{_esc(r.get('url', ''))}</code></li>" for r in results)
        return (f"<div style='border:2px dashed {colour};border-radius:4px;padding:4px;margin:3px 0'>"
                f"<b>web_search_tool_result</b> for <code>{_esc(block.get('tool_use_id', ''))}</code><ul>{items}</ul></div>")
    return f"<div><b>{_esc(str(kind))}</b>{_folded(json.dumps(block, ensure_ascii=False), 'block')}</div>"


def blocks_of(message: dict) -> list[dict]:
    content = message.get("content", "")
    return [{"type": "text", "text": content}] if isinstance(content, str) else [b for b in content if isinstance(b, dict)]


def message_html(number: int, message: Any, meta: dict | None = None) -> str:
    """One message as a card. `meta` may carry iteration, stop_reason and usage of the response."""
    message = as_json(message)
    role = message.get("role", "?")
    header = f"#{number} <b>{role}</b>"
    if meta:
        header += " · " + " · ".join(_esc(part) for part in describe_meta(meta))
    body = "".join(block_html(b) for b in blocks_of(message))
    return (f"<div style='border-left:5px solid {ROLE_COLOURS.get(role, '#999')};padding:4px 8px;margin:4px 0;"
            f"font-family:var(--jp-content-font-family, sans-serif);font-size:13px'>"
            f"<div style='color:#555;margin-bottom:2px'>{header}</div>{body}</div>")


def describe_meta(meta: dict) -> list[str]:
    parts = []
    if "iteration" in meta:
        parts.append(f"iteration {meta['iteration']}")
    if meta.get("stop_reason"):
        parts.append(f"stop_reason {meta['stop_reason']}")
    usage = meta.get("usage")
    if usage:
        parts.append(f"in {usage.get('input_tokens', 0)} tok (cache read {usage.get('cache_read_input_tokens') or 0}, "
                     f"write {usage.get('cache_creation_input_tokens') or 0}) · out {usage.get('output_tokens', 0)} tok")
    return parts


def message_line(number: int, message: Any, meta: dict | None = None) -> str:
    """One message as a line of plain text (deterministic, for text reprs and nbval)."""
    message = as_json(message)
    parts = []
    for block in blocks_of(message):
        kind = block.get("type")
        if kind == "tool_use":
            parts.append(f"tool_use {block.get('name')} [{block.get('id')}]")
        elif kind == "tool_result":
            parts.append(f"tool_result{' ERROR' if block.get('is_error') else ''} [{block.get('tool_use_id')}]")
        elif kind == "text":
            text = " ".join(str(block.get("text", "")).split())
            parts.append(f"text {text[:60]!r}" + ("…" if len(text) > 60 else ""))
        else:
            parts.append(str(kind))
    extra = f" ({meta['stop_reason']})" if meta and meta.get("stop_reason") else ""
    return redact(f"{number:>3} {message.get('role')}{extra}: " + ", ".join(parts))
