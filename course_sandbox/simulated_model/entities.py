"""Named entities for an extraction tool's array of objects ({name, type, context}): each proper name the text
writes, whole ("New York", not "York"), once, with its kind from a small list (person, organization, location,
date, or "unknown") and the words around it as its context.

"Sundar Pichai of Google" is two entities: a person and the organization the "of" ties them to."""

import re
from typing import Any

from . import proper_names

_NAME_PROP = re.compile(r"^(?:name|entity|text|value|mention|span|entity_?name|entity_?text)$", re.I)
_KIND_PROP = re.compile(r"^(?:type|kind|category|label|entity_?type|class)$", re.I)
_CONTEXT_PROP = re.compile(r"^(?:context|sentence|snippet|source|evidence)$", re.I)
_ORG_SUFFIX = re.compile(r"\b(?:Inc|Corp|Corporation|Co|Ltd|LLC|GmbH|AG|SA|PLC|Group|Bank|University|Institute|"
                         r"Foundation|Agency|Ministry|ООО|АО|ПАО|ЗАО)\b\.?")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|to|from|near|across|around|в|во|из|на)\s+$", re.I)
_MONTHS = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DATES = re.compile(rf"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
                    rf"{_MONTHS}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?|\d{{1,2}}\s+{_MONTHS}(?:\s+\d{{4}})?)\b")
_KIND_OPTIONS = {"person": ("person", "per", "people", "human", "персона", "человек"),
                 "organization": ("organization", "organisation", "org", "company", "организация"),
                 "location": ("location", "loc", "place", "gpe", "city", "место"),
                 "date": ("date", "time", "datetime", "дата"), "unknown": ("unknown", "other", "misc")}


def shaped(items: dict) -> bool:
    """Whether an array's objects are entities: a name and a kind, and nothing that is not an entity's."""
    props = items.get("properties") if isinstance(items.get("properties"), dict) else {}
    return any(_NAME_PROP.match(p) for p in props) and any(_KIND_PROP.match(p) for p in props) \
        and all(_NAME_PROP.match(p) or _KIND_PROP.match(p) or _CONTEXT_PROP.match(p) for p in props)


def found(text: str) -> list[tuple[str, str, int]]:
    """(entity, kind, where) for each entity the text writes, in order, each once."""
    spans: list[tuple[int, str]] = []
    at = 0
    for name in proper_names.read(text).all:
        where = text.find(name, at)
        where = where if where >= 0 else text.find(name)
        at = max(at, where + len(name)) if where >= 0 else at
        for k, part in enumerate(re.split(r"\s+(?:of|from|at)\s+(?=[A-ZА-ЯЁ])", name)):
            spans.append((text.find(part, max(where, 0)) if k else where, part))
    spans += [(m.start(), m.group(0)) for m in _DATES.finditer(text)]
    out, seen = [], set()
    for where, name in sorted(spans):
        if name in seen or any(name in other and name != other for _, other in spans):
            continue
        seen.add(name)
        out.append((name, _kind(name, text, where), where))
    return out


def _kind(name: str, text: str, where: int) -> str:
    from . import slots

    if _DATES.fullmatch(name):
        return "date"
    if _ORG_SUFFIX.search(name) or re.search(r"\bof\s+$", text[:max(where, 0)]):
        return "organization"
    if slots._known_city(name) or _PLACE_BEFORE.search(text[:max(where, 0)]):
        return "location"
    if 2 <= len(name.split()) <= 3 and all(w[:1].isupper() for w in name.split()):
        return "person"
    return "unknown"


def option(kind: str, schema: dict) -> Any:
    """The kind as the schema spells it (an enum's "ORG", "PER", "GPE"…), or as the small list does."""
    options = schema.get("enum")
    if not isinstance(options, list):
        return kind
    for word in (*_KIND_OPTIONS[kind], *_KIND_OPTIONS["unknown"]):
        chosen = next((o for o in options if isinstance(o, str) and o.lower() == word), None)
        if chosen is not None:
            return chosen
    return options[0] if options else kind


def objects(items: dict, text: str) -> list[dict]:
    """One object per entity, its name, kind and context filled; the caller validates them."""
    props = items["properties"]
    made = []
    for name, kind, where in found(text):
        start = max(0, text.rfind(" ", 0, max(where - 20, 0)) + 1)
        end = text.find(" ", min(len(text), where + len(name) + 20))
        context = text[start:end if end > 0 else len(text)].strip(" .,;")
        item = {}
        for prop, schema in props.items():
            schema = schema if isinstance(schema, dict) else {}
            item[prop] = name if _NAME_PROP.match(prop) else option(kind, schema) if _KIND_PROP.match(prop) \
                else context
        made.append(item)
    return made
