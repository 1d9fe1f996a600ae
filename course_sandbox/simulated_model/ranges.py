"""The two ends of a range: "from 14:00 to 16:30", "convert 100 USD to EUR", "from account A to account B".

A request names a range's start before its end; a tool names its two fields in either order
(`to_currency` may come first in its schema). So a field named for the end takes the second value of
its kind, and one named for the start the first, whatever order the schema lists them in. Bare
`from` / `to` fields say nothing of their kind: the request's values decide (times, dates, currencies…).
"""

import re
from typing import Any

BARE = frozenset({"from", "to", "start", "end", "since", "until", "begin", "finish"})
"""Field names that are only a range's end."""
_END_WORDS = frozenset({"to", "end", "ends", "until", "till", "finish", "target"})
_KINDS = ("datetime", "date", "time", "currency", "place", "number")
"""Kinds a bare `from` / `to` may be, in this order of preference."""


def is_end(name: str) -> bool:
    """Whether the field names a range's end: `to`, `end_time`, `to_currency`, `endDate`, `target`."""
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").lower().split()
    return bool(_END_WORDS.intersection(words))


def end_first(count: int) -> list[int]:
    """The order in which an end field looks at a kind's values: the second first (the range's end)."""
    return [1, 0, *range(2, count)] if count >= 2 else list(range(count))


def bare_kind(described: str | None, values: dict[str, list[Any]]) -> str | None:
    """The kind of a bare `from` / `to`: its description's, else the first kind the request holds."""
    if described not in (None, "email", "text"):
        return described
    return next((kind for kind in _KINDS if values.get(kind)), None)
