"""One request, several asks: "the weather in Paris in celsius, and the local time in Tokyo" is
two questions, each with its own tool and its own values. Read as one bag of words, Paris would
go to the time zone and Tokyo to the weather; read part by part, each call gets what belongs to it.

A clause starts a new part only when some tool fits it on its own; "in Tokyo" after "the
weather in Paris and" fits nothing alone, so it stays with the weather (two cities, one tool).
"""

import re
from collections.abc import Callable

_SEPARATOR = re.compile(r"[;?!]|,|\.(?=\s)|\b(?:and|also|then|plus|as well as)\b|(?<!\w)(?:и|а также|ещё|затем|а потом|"
                        r"потом)(?!\w)",
                        re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|«[^»]*»|“[^”]*”|(?<!\w)'[^'\n]*'(?!\w)")
_A_VALUE = re.compile(r"^(?:with\s+|с\s+)?(?:the\s+|a\s+)?[\w-]+(?:\s+[\w-]+)?\s*:?\s*"
                      r"(?:\"[^\"]*\"|«[^»]*»|“[^”]*”)[\s.!]*$", re.I)
"""A clause that only names a field and its quoted value ('and the text "Left them at reception"'):
it gives the ask before it a value and asks for nothing of its own, whichever tool its noun names."""
MAX_PARTS = 5
MAX_TEXT = 1000
"""Longer requests are read whole: a question is a sentence or two, and each clause is read apart."""


def parts(text: str, fits: Callable[[str], bool]) -> list[str]:
    """The request cut into asks: clauses split at commas, "and", "?"…, each clause that no tool
    fits joined to the one before it (or after it, at the start). One part when nothing splits."""
    if len(text) > MAX_TEXT:
        return [text]
    clauses = [c.strip() for c in _split(text) if c.strip(" \t\n,.;?!")][:4 * MAX_PARTS]
    grouped: list[str] = []
    pending = ""
    for clause in clauses:
        if grouped and (_A_VALUE.match(clause) or not fits(clause)):
            grouped[-1] = f"{grouped[-1]} and {clause}"
        elif not grouped and not fits(clause):
            pending = f"{pending} {clause}".strip()
        else:
            grouped.append(f"{pending} {clause}".strip() if pending else clause)
            pending = ""
    if pending:
        grouped = [f"{pending} {grouped[0]}"] + grouped[1:] if grouped else [pending]
    return grouped[:MAX_PARTS] if len(grouped) > 1 else [text]


def _split(text: str) -> list[str]:
    """Cut at separators outside quoted text ('salt and pepper' stays whole)."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    pieces, start = [], 0
    for m in _SEPARATOR.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        pieces.append(text[start:m.start()])
        start = m.end()
    pieces.append(text[start:])
    return pieces
