"""A value the user stated wins: "with role admin", "the cause was unknown", «имя example», «Владелец TBD».

The readers that fill a tool's input by meaning may leave a field to the schema's placeholder ("example role") when
the value stated for it reads as a placeholder word itself ("unknown", "TBD", "example"), take the label for the value
(«Владелец TBD»: owner «Владелец»), or swallow a labelled value into another ('a ticket, priority TBD, title
example' for `title`). A field named by its label right before its value is what the user said it is: the value
replaces the placeholder, the label or the swallowed text, when it is valid for the field. A person's name in another
case («у Анны Петровой», «у Боба Смита») goes to a plain string field in the nominative.
"""

import re

from . import proper_names
from .schema_instance import instance, is_valid
from .tool_roles import ToolSpec
from .words import tokens

_RU_LABELS = {"имя": ("name",), "имени": ("name",), "роль": ("role",), "роли": ("role",), "причин": ("cause", "reason"),
              "владел": ("owner",), "статус": ("status", "state"), "мест": ("location", "place"),
              "автор": ("author",), "названи": ("title", "name"), "заголов": ("title",), "тем": ("subject", "topic"),
              "приоритет": ("priority",), "категори": ("category",), "трек": ("track",), "город": ("city",),
              "стран": ("country",), "комментари": ("comment", "note"), "заметк": ("note",),
              "описани": ("description",), "преподавател": ("teacher",), "учител": ("teacher",),
              "ответственн": ("owner", "assignee"), "исполнител": ("assignee",), "логин": ("username", "login"),
              "пользовател": ("user", "username")}
"""Russian words a field is labelled with, and the English words of the properties they name."""
_LINK = r"(?:\s*[:=—–-]\s*|\s+(?:is|was|were|to|set\s+to|of|equals|будет|равн\w*|—)\s+|\s+)"
_VALUE = r"(?:\"([^\"\n]{1,80})\"|«([^»\n]{1,80})»|'([^'\n]{1,80})'|([^\s,.;:!?\"«»()]{1,60}))"
_NOT_VALUES = {"the", "a", "an", "and", "or", "for", "of", "is", "was", "to", "with", "in", "on", "at", "as", "it",
               "this", "that", "be", "field", "value", "и", "или", "в", "на", "для", "с", "к", "по", "это", "поле",
               "значение", "есть", "будет"}
_NAME = re.compile(r"[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?(?:\s+[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?){1,2}")


def _labels(prop: str) -> list[str]:
    """The words the property is labelled with in a request: its own name's words ("role", "cause") and the Russian
    words for them (роль, причина)."""
    own = [w for w in tokens(prop) if len(w) >= 3 and w not in ("the", "and")]
    own += [w[:-4] for w in own if w.endswith("name") and len(w) >= 7]  # `username`: "for user example"
    russian = [ru for ru, en in _RU_LABELS.items() if any(w in en for w in own)]
    return [*own, *russian]


def stated_value(prop: str, text: str) -> tuple[str, str] | None:
    """The value a request states for the property right after its label ("role admin", "the cause was unknown",
    «причина: неизвестно»), and the label as written; None when it states none."""
    for label in _labels(prop):
        ending = r"[а-яё]*" if re.search(r"[а-яё]", label) else r"s?"
        for m in re.finditer(rf"(?<![\w-]){re.escape(label)}{ending}{_LINK}{_VALUE}", text, re.I):
            if m.group(0)[0].isupper() and re.search(r"[A-ZА-ЯЁ][\w'’-]*\s+$", text[:m.start()]):
                continue  # "Baker Street 221b": the label's word is part of a name ("Baker Street"), no label
            value = next(g for g in m.groups() if g)
            if value.lower() in _NOT_VALUES or any(value.lower().startswith(lb) for lb in _labels(prop)):
                continue
            return value, re.match(r"[\w-]+", m.group(0)).group(0)
    return None


def corrected(tool: ToolSpec, given: dict, text: str) -> dict:
    """The input with each plain string field's stated value where the readers left a placeholder, the label, or a
    text that swallowed the labelled value; and a Russian person's name in the nominative."""
    plain = instance(tool.schema)
    plain = plain if isinstance(plain, dict) else {}
    out = dict(given)
    for prop, schema in tool.properties().items():
        value = out.get(prop)
        if not isinstance(schema, dict) or schema.get("type") != "string" or not isinstance(value, str):
            continue
        stated = stated_value(prop, text)
        if stated is not None:
            said, label = stated
            placeholder = value == plain.get(prop)
            the_label = any(value.casefold().startswith(lb) for lb in _labels(prop) if re.search(r"[а-яё]", lb)) \
                or value.casefold() in _labels(prop)
            swallowed = value != said and f"{label} {said}".casefold() in value.casefold()
            if (placeholder or the_label or swallowed) and _valid(tool, out, prop, said):
                out[prop] = said
                continue
        if _NAME.fullmatch(value) and value in text:
            nominative = proper_names.person_nominative(value, text)
            if nominative != value and _valid(tool, out, prop, nominative):
                out[prop] = nominative
    return out


def _valid(tool: ToolSpec, given: dict, prop: str, value: str) -> bool:
    return is_valid(tool.schema, {**given, prop: value}, tool.schema)
