"""What a forced call assumed: the values of its input that the request does not hold.

Forced to call a tool, a careful colleague fills what the request gives and, where it gives
nothing, a value that is valid for the schema; then it says so, instead of passing
"example restaurant" off as something the user asked for.
"""

import datetime as dt
import re
from typing import Any

from ..words import N_, words
from . import item_lists, situation_values, slots, spoken_values
from .answers import arguments
from .scalar_values import MISSING
from .schema_instance import instance
from .tool_roles import ToolSpec
from .words import stem


def assumed(tool: ToolSpec, tool_input: dict, request: str) -> dict[str, Any]:
    """The input's strings and numbers that are the schema's own placeholders (what the schema alone
    gives for them) and that the request never wrote, nested ones by their dotted path; a `const`, a
    `default` or a one-value `enum` is what the schema asks for, not a guess. "$45" writes USD. An empty array
    the request lists nothing for is one too, and so is a yes/no it never gives."""
    plain = instance(tool.schema)
    if not isinstance(plain, dict):
        return {}
    said = request.lower()
    currencies = set(slots.read(request, "en").of("currency"))
    return _guessed(tool.schema, tool_input, plain, said, currencies, "")


def _guessed(schema: dict, given: dict, plain: dict, said: str, currencies: set[str], prefix: str) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    guessed: dict[str, Any] = {}
    for key, value in given.items():
        sub = props.get(key) if isinstance(props.get(key), dict) else {}
        if isinstance(value, dict) and isinstance(plain.get(key), dict):
            guessed.update(_guessed(sub, value, plain[key], said, currencies, f"{prefix}{key}."))
            continue
        items = sub.get("items") if isinstance(sub.get("items"), dict) else {}
        if isinstance(value, list) and isinstance(items.get("properties"), dict):
            # each object of an array of objects: "example name" for a grocery item
            item_plain = instance({**items, "required": list(items["properties"])})
            for k, item in enumerate(value[:20]):
                if isinstance(item, dict) and isinstance(item_plain, dict):
                    guessed.update(_guessed(items, item, item_plain, said, currencies, f"{prefix}{key}[{k}]."))
            continue
        fixed = "const" in sub or "default" in sub or len(sub.get("enum") or [None, None]) == 1
        if value == [] and plain.get(key) == [] and not fixed:  # an array the request lists nothing for
            guessed[f"{prefix}{key}"] = value
            continue
        if isinstance(value, bool) and value == plain.get(key) and not fixed and spoken_values.described_flag(
                key, str(sub.get("description") or ""), said) is MISSING:
            guessed[f"{prefix}{key}"] = value  # a yes/no the request never gives is a guess too, said as one
            continue
        if value == plain.get(key) and not isinstance(value, (bool, dict, list)) and not fixed \
                and value not in currencies and not item_lists.written(value, said) and not _inflected(value, said) \
                and not _named_option(key, sub, value, said) and situation_values.value_for(key, sub, said) != value \
                and not re.search(rf"(?<![\w-]){re.escape(str(value).lower())}(?:e?s)?(?![\w-])", said):
            # (the 1 of "clip c-1" is no count the request wrote)
            guessed[f"{prefix}{key}"] = value
    return guessed


def _named_option(key: str, schema: dict, value: Any, said: str) -> bool:
    """Whether the value is an enum member the request names in another form: inflected («на йогу» for «йога», «в
    малой переговорной» for «малая переговорная») or in Cyrillic letters («на йогу» for 'yoga')."""
    if not isinstance(value, str) or value not in (schema.get("enum") or []):
        return False
    return bool(item_lists.enum_items([value], said)) or slots.transliterated_option([value], said) == value \
        or slots.named_option(key, schema, said) == value


def _inflected(value: Any, said: str) -> bool:
    """Whether the request writes a one-word value in another form of the word («в гостиной» for `гостиная`, "the
    bedrooms" for `bedroom`): its stem begins a word of the request."""
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-zА-Яа-яЁё]{4,}", value):
        return False
    root = stem(value.lower())
    return len(root) >= 4 and bool(re.search(rf"(?<!\w){re.escape(root)}\w{{0,4}}(?!\w)", said))


def note(tool: ToolSpec, guessed: dict[str, Any], lang: str) -> str:
    """The sentence that says which values were assumed."""
    return words(lang, "Your message does not give {fields} for {tool}, so I used placeholder values: {values}. "
                       "Tell me the real ones and I will call it again.",
                 fields=", ".join(guessed), tool=tool.name, values=arguments(guessed))


def dated(tool_input: dict, request: str, lang: str) -> list[str]:
    """The sentences that say which date a day written relative to today stands for ("next Tuesday", «в пятницу»),
    for each such day the input carries (a date, or a date and time): never a resolved date in silence."""
    carried = {str(v)[:10] for v in _strings(tool_input)}
    notes = []
    for said, day in slots.relative_days(request):
        if day in carried:
            weekday = words(lang, _WEEKDAY_NAMES[dt.date.fromisoformat(day).weekday()])
            notes.append(words(lang, "I took “{said}” as {day} ({weekday}); tell me if you meant another date.",
                               said=said.strip(), weekday=weekday, day=day))
    return list(dict.fromkeys(notes))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


_WEEKDAY_NAMES = (N_("Monday"), N_("Tuesday"), N_("Wednesday"), N_("Thursday"), N_("Friday"), N_("Saturday"),
                  N_("Sunday"))
