"""Bounds on making a value for a learner's schema, so that no schema can stall the sandbox.

A schema is the learner's to write, and some ask for the impossible or the enormous: a pattern
that backtracks for hours (`(a+)+$`), a million items, a megabyte-long shortest match. The
generator works within a budget of steps (deterministic: the same request gets the same answer
on any machine) and a wall-clock deadline (a safety net), never matches a pattern on a string
it could backtrack on for long (regex_syntax.safe_length), and refuses sizes above the caps
below. When it cannot show a value valid within these bounds it raises Unprovable, and the
simulated model says so in words instead of calling the tool with a value it cannot vouch for.
"""

import contextvars
import functools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema import validators
from jsonschema.exceptions import ValidationError

from .regex_syntax import Unreadable, min_length, parse, safe_length

MAX_STEPS = 2_000
"""Sub-values generated and candidates checked, per attempt at a value (instance() makes up to three)."""
DEADLINE_SECONDS = 2.0
MAX_ITEMS = 1_000
MAX_PROPERTIES = 1_000
MAX_STRING_LENGTH = 20_000
MAX_PATTERN_LENGTH = 2_000
"""Longer patterns are never run (and not remembered: 4096 of them could hold the memory of 4096 bodies)."""


class Unsatisfiable(Exception):
    """The generator found no value for this part of the schema (e.g. `false`)."""


class Unprovable(Unsatisfiable):
    """No value could be shown valid within the bounds; the arguments say why, in English and Russian."""

    def __init__(self, en: str, ru: str) -> None:
        super().__init__(en, ru)
        self.en, self.ru = en, ru


@dataclass
class Budget:
    """What one value may still cost, and the patterns it could not check a candidate against."""

    steps: int = MAX_STEPS
    deadline: float = field(default_factory=lambda: time.monotonic() + DEADLINE_SECONDS)
    unchecked: list[str] = field(default_factory=list)

    def spend(self) -> None:
        """One more step; Unprovable once the budget or the deadline is gone."""
        self.steps -= 1
        if self.steps < 0 or time.monotonic() > self.deadline:
            raise Unprovable("working it out would take longer than I should spend on one answer",
                             "на подбор значения ушло бы больше времени, чем можно потратить на один ответ")

    def left(self) -> bool:
        return self.steps >= 0 and time.monotonic() <= self.deadline


CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("schema_budget", default=None)
"""The budget of the value being made in this thread (None outside instance())."""


def check_size(schema: dict) -> None:
    """Unprovable when the schema asks for more than the caps: such a value is not written out."""
    for key, cap, en, ru in (("minItems", MAX_ITEMS, "items", "элементов"),
                             ("minProperties", MAX_PROPERTIES, "properties", "свойств"),
                             ("minLength", MAX_STRING_LENGTH, "characters", "символов")):
        wanted = schema.get(key)
        if isinstance(wanted, (int, float)) and not isinstance(wanted, bool) and wanted > cap:
            raise Unprovable(f"the schema asks for at least {wanted} {en} (`{key}`), more than I will write "
                             f"in one answer (at most {cap})",
                             f"схема требует не меньше {wanted} {ru} (`{key}`), больше, чем я напишу в одном "
                             f"ответе (не больше {cap})")
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            shortest = min_length(parse(pattern))
        except Unreadable:
            return
        if shortest > MAX_STRING_LENGTH:
            raise Unprovable(f"the shortest match of the pattern `{pattern[:60]}` has {shortest} characters, "
                             f"more than I will write in one answer",
                             f"самое короткое совпадение с шаблоном `{pattern[:60]}` — {shortest} символов, "
                             f"больше, чем я напишу в одном ответе")


def checkable_length(pattern: str) -> int:
    """regex_syntax.safe_length, remembered (the same schema is checked many times); 0 for a
    pattern longer than MAX_PATTERN_LENGTH, which is neither read nor kept."""
    return _remembered_length(pattern) if len(pattern) <= MAX_PATTERN_LENGTH else 0


@functools.lru_cache(maxsize=4096)
def _remembered_length(pattern: str) -> int:
    return safe_length(pattern)


def _unchecked(pattern: str) -> ValidationError:
    budget = CURRENT.get()
    if budget is not None and pattern not in budget.unchecked:
        budget.unchecked.append(pattern)
    return ValidationError(f"not checked against {pattern!r}: too long to match safely")


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """jsonschema's `pattern`, run only on strings the pattern cannot backtrack on for long."""
    if not validator.is_type(instance, "string"):
        return
    if len(instance) > checkable_length(pattern):
        yield _unchecked(pattern)
    elif not re.search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def guarded(cls: type) -> type:
    """The validator class with the `pattern` keyword bounded (the same for every draft)."""
    return validators.extend(cls, {"pattern": _pattern})


def key_patterns(schema: Any) -> list[str]:
    """Every patternProperties pattern in the schema: they are run on the keys of a value."""
    found: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            patterns = node.get("patternProperties")
            if isinstance(patterns, dict):
                found += [p for p in patterns if isinstance(p, str)]
            stack += node.values()
        elif isinstance(node, list):
            stack += node
    return found


def keys_checkable(instance: Any, patterns: list[str]) -> bool:
    """Whether every object key in the value is short enough for every key pattern
    (each one, and the alternation of them all that additionalProperties runs)."""
    if not patterns:
        return True
    limit = min(checkable_length(p) for p in [*patterns, "|".join(patterns)])
    for key in _keys(instance):
        if len(key) > limit:
            for pattern in patterns:
                _unchecked(pattern)
            return False
    return True


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        yield from value
        for child in value.values():
            yield from _keys(child)
    elif isinstance(value, list):
        for child in value:
            yield from _keys(child)


def bounded_search(pattern: str, text: str) -> re.Match | None:
    """re.search(pattern, text), or None when the text is too long for this pattern to be run on it
    safely (a learner's `(a+)+$` backtracks for ever on a long run of a's) or the pattern is not valid."""
    try:
        return re.search(pattern, text) if len(text) <= checkable_length(pattern) else None
    except re.error:
        return None


def key_matches(pattern: str, key: str) -> bool:
    """re.search(pattern, key), or False when the key is too long for the pattern to be run on it."""
    return bounded_search(pattern, key) is not None
