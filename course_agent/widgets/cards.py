"""Messages as HTML cards and as plain text: one card per message, one box per block.

A tool_use and its tool_result share a colour and show the same id, so the pairing is seen at
a glance; error results stand out; thinking and long contents are folded. Text is rendered as
Markdown and code is highlighted (see render.py: sanitised, so model or merge-request text never
becomes live HTML). Colours come from JupyterLab's theme variables, so the dark theme reads
well. Everything shown goes through redact(), so a secret never reaches the screen or a saved
notebook. Words a learner reads are in their language (course_agent.i18n); API terms (roles,
block types, stop_reason) stay as the API spells them.
"""

import hashlib
import json
from typing import Any

from ..i18n import language as resolve_language
from ..i18n import ntr, tr
from ..redaction import redact
from ..transcript import as_json
from .render import code_html, esc, markdown_html

FOLD_CHARS = 1200
PALETTE = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#ff7f0e"]
ROLE_COLOURS = {"user": "#4c78a8", "assistant": "#72b7b2"}
MUTED = "var(--jp-content-font-color2,#666)"
ERROR_COLOUR = "var(--jp-error-color1,#d32f2f)"
ERROR_BACKGROUND = "rgba(214,39,40,0.13)"  # a tint that reads on a light and on a dark page


def pair_colour(tool_use_id: str) -> str:
    """The colour shared by a tool_use and its tool_result (stable across runs)."""
    return PALETTE[int(hashlib.sha256(tool_use_id.encode()).hexdigest(), 16) % len(PALETTE)]


def _esc(text: Any) -> str:
    return esc(redact(text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, indent=1)))


def _folded(text: str, label: str, lang: str, filename: str | None = None, plain: bool = False) -> str:
    text = redact(text)
    body = f"<pre style='white-space:pre-wrap;margin:2px 0'>{esc(text)}</pre>" if plain else code_html(text, filename)
    if len(text) <= FOLD_CHARS:
        return body
    summary = ntr("{label} ({n} character, click to expand)", "{label} ({n} characters, click to expand)",
                  len(text), lang, label=label)
    return (f"<details><summary style='cursor:pointer'>{esc(summary)}</summary>{body}</details>"
            f"<pre style='white-space:pre-wrap;margin:2px 0;color:{MUTED}'>{esc(text[:300])}…</pre>")


def _result_text(block: dict) -> str:
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", json.dumps(part)) for part in content if isinstance(part, dict))


def _filename_of(tool_use: dict | None) -> str | None:
    """The file a tool call read (its input's `path`), to colour the result by the file's language."""
    arguments = (tool_use or {}).get("input")
    path = arguments.get("path") if isinstance(arguments, dict) else None
    return path if isinstance(path, str) else None


def block_html(block: dict, lang: str | None = None, tool_uses: dict[str, dict] | None = None) -> str:
    """One content block as HTML. `tool_uses` (id -> tool_use block) lets a result be coloured by its file."""
    kind = block.get("type")
    if kind == "text":
        return f"<div class='course-agent-markdown'>{markdown_html(redact(str(block.get('text', ''))))}</div>"
    if kind == "thinking":
        thinking = block.get("thinking", "")
        summary = ntr("thinking ({n} character)", "thinking ({n} characters)", len(thinking), lang)
        return (f"<details><summary style='color:{MUTED};cursor:pointer'>{esc(summary)}</summary>"
                f"<pre style='white-space:pre-wrap;color:{MUTED}'>{_esc(thinking)}</pre></details>")
    if kind == "redacted_thinking":
        return f"<div style='color:{MUTED}'>{esc(tr('redacted thinking', lang))}</div>"
    if kind in ("tool_use", "server_tool_use"):
        colour = pair_colour(block.get("id", ""))
        arguments = redact(json.dumps(block.get("input", {}), ensure_ascii=False, indent=1))
        return (f"<div style='border:2px solid {colour};border-radius:4px;padding:4px;margin:3px 0'>"
                f"<b>{kind}</b> <code>{_esc(block.get('name', ''))}</code> "
                f"<span style='color:{colour}'>id <code>{_esc(block.get('id', ''))}</code></span>"
                f"{code_html(arguments, lexer_name='json')}</div>")
    if kind == "tool_result":
        tool_use_id = block.get("tool_use_id", "")
        colour = pair_colour(tool_use_id)
        error = bool(block.get("is_error"))
        background = ERROR_BACKGROUND if error else "transparent"
        badge = f"<b style='color:{ERROR_COLOUR}'>{esc(tr('ERROR', lang))}</b> " if error else ""
        target = f"<span style='color:{colour}'>id <code>{_esc(tool_use_id)}</code></span>"
        title = tr("{kind} for {target}", lang, kind="<b>tool_result</b>", target=target)
        filename = _filename_of((tool_uses or {}).get(tool_use_id))
        return (f"<div style='border:2px solid {colour};border-radius:4px;padding:4px;margin:3px 0;"
                f"background:{background}'>{badge}{title}"
                f"{_folded(_result_text(block), tr('result', lang), lang, filename, plain=error)}</div>")
    if kind == "web_search_tool_result":
        colour = pair_colour(block.get("tool_use_id", ""))
        results = block.get("content") if isinstance(block.get("content"), list) else []
        items = "".join(f"<li>{_esc(r.get('title', ''))} <code>{_esc(r.get('url', ''))}</code></li>" for r in results)
        title = tr("{kind} for {target}", lang, kind="<b>web_search_tool_result</b>",
                   target=f"<code>{_esc(block.get('tool_use_id', ''))}</code>")
        return (f"<div style='border:2px dashed {colour};border-radius:4px;padding:4px;margin:3px 0'>"
                f"{title}<ul>{items}</ul></div>")
    return (f"<div><b>{_esc(str(kind))}</b>"
            f"{_folded(json.dumps(block, ensure_ascii=False), tr('block', lang), lang, plain=True)}</div>")


def blocks_of(message: dict) -> list[dict]:
    content = message.get("content", "")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)]


def message_html(number: int, message: Any, meta: dict | None = None, lang: str | None = None,
                 tool_uses: dict[str, dict] | None = None) -> str:
    """One message as a card. `meta` may carry iteration, stop_reason and usage of the response."""
    lang = resolve_language(lang)
    message = as_json(message)
    role = message.get("role", "?")
    header = f"#{number} <b>{esc(str(role))}</b>"
    if meta:
        header += " · " + " · ".join(_esc(part) for part in describe_meta(meta, lang))
    body = "".join(block_html(b, lang, tool_uses) for b in blocks_of(message))
    # line-height: the HTML widget sets its own (28px, for one-line labels), which double-spaces text.
    return (f"<div style='border-left:5px solid {ROLE_COLOURS.get(role, '#999')};padding:4px 8px;margin:4px 0;"
            f"font-family:var(--jp-content-font-family,sans-serif);font-size:13px;line-height:1.45'>"
            f"<div style='color:{MUTED};margin-bottom:2px'>{header}</div>{body}</div>")


def describe_meta(meta: dict, lang: str | None = None) -> list[str]:
    parts = []
    if "iteration" in meta:
        parts.append(tr("iteration {n}", lang, n=meta["iteration"]))
    if meta.get("stop_reason"):
        parts.append(f"stop_reason {meta['stop_reason']}")
    usage = meta.get("usage")
    if usage:
        parts.append(tr("in {input} tok (cache read {read}, write {write}) · out {output} tok", lang,
                        input=usage.get("input_tokens", 0), read=usage.get("cache_read_input_tokens") or 0,
                        write=usage.get("cache_creation_input_tokens") or 0, output=usage.get("output_tokens", 0)))
    return parts


def message_line(number: int, message: Any, meta: dict | None = None, lang: str | None = None) -> str:
    """One message as a line of plain text (deterministic, for text reprs and nbval; API terms and the error mark)."""
    message = as_json(message)
    parts = []
    for block in blocks_of(message):
        kind = block.get("type")
        if kind == "tool_use":
            parts.append(f"tool_use {block.get('name')} [{block.get('id')}]")
        elif kind == "tool_result":
            error = " " + tr("ERROR", lang) if block.get("is_error") else ""
            parts.append(f"tool_result{error} [{block.get('tool_use_id')}]")
        elif kind == "text":
            text = " ".join(str(block.get("text", "")).split())
            parts.append(f"text {text[:60]!r}" + ("…" if len(text) > 60 else ""))
        else:
            parts.append(str(kind))
    extra = f" ({meta['stop_reason']})" if meta and meta.get("stop_reason") else ""
    return redact(f"{number:>3} {message.get('role')}{extra}: " + ", ".join(parts))
