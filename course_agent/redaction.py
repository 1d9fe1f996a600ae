"""Keeping secrets out of everything the agent writes: tool results, errors, transcripts,
audit logs and printed output all pass through `redact()`."""

import os
import re
import threading

SECRET_ENV_VARS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GITLAB_TOKEN")
PLACEHOLDER = "[REDACTED]"
_PATTERNS = re.compile(r"sk-ant-[A-Za-z0-9_-]{8,}|glpat-[A-Za-z0-9_-]{8,}")
"""Key shapes worth hiding even when we were never told about them."""
_extra: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Treat a value as secret from now on (e.g. a token read from a file)."""
    if value and len(value) >= 6:
        with _lock:
            _extra.add(value)


def _known() -> list[str]:
    values = {os.environ.get(name, "") for name in SECRET_ENV_VARS} | _extra
    return sorted((v for v in values if len(v) >= 6), key=len, reverse=True)


def redact(text: str) -> str:
    """The text with every known secret, and anything shaped like an API key, replaced."""
    for secret in _known():
        text = text.replace(secret, PLACEHOLDER)
    return _PATTERNS.sub(PLACEHOLDER, text)
