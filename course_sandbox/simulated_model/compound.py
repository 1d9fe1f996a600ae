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
_POINTER = re.compile(r"\b(?:those|the ones|ones|all)\s*,?\s*$|(?<!\w)(?:те|тех|теми|все|всё|всех)\s*,?\s*$", re.I)
_RELATIVE = re.compile(r"^(?:that|which|who|whose|where|что|которы\w*|где|у которых|чей|чьи)\b", re.I)
"""«удали те, что изменены раньше …», "delete those, which …": the relative clause says which of them, and is no ask
of its own, whatever tool its words fit."""
_ANOTHER_ONE = re.compile(r"^(?:the\s+)?([^\W\d_]{3,})\s+(\S*\d\S*)$", re.I)
"""A clause that is only a noun and an id ("booking Z-9" after "cancel booking A-1 and"): when the clause before
names the same noun with its own id, it is one more of the same, for the verb before it."""
MAX_PARTS = 5
MAX_TEXT = 1000
"""Longer requests are read whole: a question is a sentence or two, and each clause is read apart."""


def parts(text: str, fits: Callable[[str], bool]) -> list[str]:
    """The request cut into asks: clauses split at commas, "and", "?"…, each clause that no tool
    fits joined to the one before it (or after it, at the start). One part when nothing splits."""
    if len(text) > MAX_TEXT:
        return [text]
    clauses = [c for c in _split(text) if text[c[0]:c[1]].strip(" \t\n,.;?!")][:4 * MAX_PARTS]
    grouped: list[list[int]] = []
    pending: list[int] | None = None
    for start, end in clauses:
        clause = text[start:end].strip()
        before = text[grouped[-1][0]:start] if grouped else ""
        if grouped and (_A_VALUE.match(clause) or not fits(clause) or _another_one(clause, before) or (
                _RELATIVE.match(clause) and _POINTER.search(before))):
            grouped[-1][1] = end  # joined as written: "before December 10, 2026" stays one date
        elif not grouped and (not fits(clause) or len(clause.split()) == 1):
            # a lone first word ("Отмените, пожалуйста, подписку…", "Please, cancel…") is the verb of the ask after it
            pending = [pending[0] if pending else start, end]
        else:
            grouped.append([pending[0] if pending else start, end])
            pending = None
    if pending:
        grouped = [[pending[0], grouped[0][1]]] + grouped[1:] if grouped else [pending]
    asks = [text[start:end].strip() for start, end in grouped]
    return asks[:MAX_PARTS] if len(asks) > 1 else [text]


def _another_one(clause: str, before: str) -> bool:
    """Whether the clause repeats the noun of the clause before with another id: "cancel booking A-1 and booking
    Z-9" cancels both, «покажи бронь A-1 и бронь Z-9» shows both."""
    m = _ANOTHER_ONE.match(clause.rstrip(" ,.;?!"))
    return bool(m) and named_with_an_id(m.group(1), before)


def named_with_an_id(noun: str, text: str) -> bool:
    """Whether the text names the noun with an id after it ("booking A-1"): a later "booking Z-9" is one more of the
    same, not a new ask nor a verb (side_effects reads "message" so)."""
    return re.search(rf"(?<![\w-]){re.escape(noun)}\s+#?[\w-]*\d", text, re.I) is not None


def _split(text: str) -> list[tuple[int, int]]:
    """Cut at separators outside quoted text ('salt and pepper' stays whole): each piece's start and end."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    pieces, start = [], 0
    for m in _SEPARATOR.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        pieces.append((start, m.start()))
        start = m.end()
    pieces.append((start, len(text)))
    return pieces
