"""Keeping secrets out of everything the agent writes: tool results, errors, transcripts,
audit logs and printed output all pass through `redact()`.

A known secret (the values of settings.SECRET_ENV_VARS and anything given to `register_secret`) is
hidden whole, as any prefix of 8 characters or more (a token cut by a width limit), and in its
URL-encoded and JSON-escaped forms (a key in a query string or a log line). Anything shaped
like an Anthropic key or a GitLab token is hidden even when nobody said it was secret.
"""

import json
import re
import threading
from urllib.parse import quote, quote_plus

from .settings import HIDDEN as PLACEHOLDER
from .settings import Settings

MIN_SECRET = 6
"""Shorter values are not treated as secrets (they would hide ordinary words)."""
MIN_PREFIX = 8
"""A prefix of a secret this long or longer is hidden too."""
_PATTERNS = re.compile(r"sk-ant-[A-Za-z0-9_-]{8,}|glpat-[A-Za-z0-9_-]{8,}")
"""Key shapes worth hiding even when we were never told about them."""
_extra: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Treat a value as secret from now on (e.g. a token read from a file or passed as an argument)."""
    if value and len(value) >= MIN_SECRET:
        with _lock:
            _extra.add(value)


def _known() -> set[str]:
    from_env = Settings.from_env().secrets
    with _lock:
        values = from_env | _extra
    return {v for v in values if len(v) >= MIN_SECRET}


def _forms(secret: str) -> set[str]:
    """The secret as it may appear in text: as is, URL-encoded (either case of hex), JSON-escaped."""
    forms = {secret, quote(secret, safe=""), quote_plus(secret), json.dumps(secret)[1:-1]}
    forms |= {re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), f) for f in list(forms)}
    return {f for f in forms if f}


def _spans(text: str, form: str) -> list[tuple[int, int]]:
    """Where `form`, or a prefix of it of MIN_PREFIX characters or more, occurs in `text`."""
    head = form[:MIN_PREFIX] if len(form) > MIN_PREFIX else form
    spans = []
    start = text.find(head)
    while start >= 0:
        end = start + len(head)
        while end - start < len(form) and end < len(text) and text[end] == form[end - start]:
            end += 1
        spans.append((start, end))
        start = text.find(head, end)
    return spans


def redact(text: str) -> str:
    """The text with every known secret (whole, a prefix of 8+ characters, URL-encoded or
    JSON-escaped) and anything shaped like an API key or token replaced."""
    spans: list[tuple[int, int]] = []
    for secret in _known():
        for form in _forms(secret):
            spans += _spans(text, form)
    if spans:
        spans.sort()
        merged = [spans[0]]
        for start, end in spans[1:]:
            if start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        pieces, last = [], 0
        for start, end in merged:
            pieces += [text[last:start], PLACEHOLDER]
            last = end
        text = "".join(pieces) + text[last:]
    return _PATTERNS.sub(PLACEHOLDER, text)
