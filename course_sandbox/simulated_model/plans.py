"""A compound ask as a plan: "List the files in /tmp/demo, then delete the ones that end in .log".

The second step cannot be called from the words alone: which files? It acts on what the first
step returns. So the model calls the first step, and once its result is back, calls the second
tool once for each item the result lists that the step's words select (those ending in .log),
and nothing else. A step that names no items of its own and points back ("the ones…", "them",
«те, что…») is such a step; one that points at nothing is asked about as before.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from .history import Call
from .result_conditions import Condition, conditions, numeric_words
from .words import stems

_BACK = re.compile(r"\b(?:the ones|them|those|these|each|every one|everyone|everybody|all of them|the rest|their|"
                   r"its)\b|"
                   r"(?<!\w)(?:те|тех|их|них|эти|этих|каждый|каждую|каждому|каждой|каждого|все|всем|им)(?!\w)", re.I)
_FILTERS: list[tuple[re.Pattern, Callable[[str, str], bool]]] = [
    (re.compile(r"\b(?:end|ends|ending)\s+(?:in|with)\s+[\"'`]?(\S+?)[\"'`]?(?=[\s,;!?]|\.?$|\.\s)", re.I),
     lambda item, part: item.endswith(part)),
    (re.compile(r"\b(?:with|having)\s+(?:the\s+)?(?:extension|suffix)\s+[\"'`]?\.?(\w+)", re.I),
     lambda item, part: item.endswith("." + part)),
    (re.compile(r"(?<![\w/])(\.\w+)\s+files\b|\*(\.\w+)\b", re.I), lambda item, part: item.endswith(part)),
    (re.compile(r"\b(?:start|starts|starting|begin|begins|beginning)\s+with\s+[\"'`]?([^\s\"'`,;]+)", re.I),
     lambda item, part: _base(item).startswith(part)),
    (re.compile(r"\b(?:contain|contains|containing)\s+[\"'`]?([^\s\"'`,;]+)", re.I),
     lambda item, part: part.casefold() in _base(item).casefold()),
    (re.compile(r"\bwhose\s+[\w-]+\s+(?:is|equals|=)\s+[\"'`]?([^\s\"'`,;]+)", re.I),
     lambda item, part: item.casefold() == part.casefold()),
    (re.compile(r"\b(?:from|sent by|by|organi[sz]ed by|owned by|assigned to)\s+[\"'`]?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)",
                re.I),
     lambda item, part: item.casefold() == part.casefold()),
    (re.compile(r"\b(?:with|having|that have|which have)\s+[\"'`«]?([^\s\"'`»,;]+)[\"'`»]?\s+in\s+(?:the|their|its)\s+"
                r"(?:title|name|subject|description)\b", re.I),
     lambda item, part: part.casefold() in item.casefold()),
    (re.compile(r"\b(?:whose|where\s+the|where\s+their)\s+(?:title|name|subject)\s+(?:has|includes|mentions)\s+"
                r"[\"'`«]?([^\s\"'`»,;.!?]+)", re.I),
     lambda item, part: part.casefold() in item.casefold()),
    (re.compile(r"(?<!\w)в\s+(?:названии|заголовке|имени|теме)\s+(?:(?:которых|у\s+которых)\s+)?"
                r"(?:(?:есть|стоит|встречается|содержится|"
                r"имеется)\s+)?(?:слово\s+)?[\"«']?([^\s\"»',;.!?]+)|"
                r"(?<!\w)(?:со?|имеющие)\s+(?:словом\s+)?[\"«']?([^\s\"»',;]+?)[\"»']?\s+в\s+(?:названии|заголовке|"
                r"имени|теме)(?!\w)", re.I),
     lambda item, part: part.casefold() in item.casefold()),
    (re.compile(r"(?:заканчива|оканчива)\w*\s+на\s+[\"«]?(\S+?)[\"»]?(?=[\s,;!?]|\.?$|\.\s)", re.I),
     lambda item, part: item.endswith(part)),
    (re.compile(r"с\s+расширением\s+[\"«]?\.?(\w+)", re.I), lambda item, part: item.endswith("." + part)),
    (re.compile(r"начина\w*\s+(?:с|на)\s+[\"«]?([^\s\"»,;]+)", re.I), lambda item, part: _base(item).startswith(part)),
    (re.compile(r"содерж\w*\s+[\"«]?([^\s\"»,;]+)", re.I),
     lambda item, part: part.casefold() in _base(item).casefold()),
    (re.compile(r"\b(?:from|sent from|sent by|by|at)\s+(?:the\s+)?@?([\w-]+(?:\.[\w-]+)*\.[a-z]{2,})\s+(?:domain|"
                r"addresses|address)\b|\b(?:from|sent from)\s+(?:the\s+)?domain\s+@?([\w-]+(?:\.[\w-]+)*\.[a-z]{2,})\b|"
                r"(?<!\w)(?:с|от|из)\s+(?:домена\s+)?@?([\w-]+(?:\.[\w-]+)*\.[a-z]{2,})(?:\s+домена)?(?![\w.@-])",
                re.I),
     lambda item, part: _on_domain(item, part)),
]
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_EQUALS = 5
"""The filter "whose <field> is <value>", which a comparison ("whose battery is below 20%") is not."""
MAX_ITEMS = 100
"""Lines of a result read as items: a listing longer than this is not acted on item by item."""


@dataclass(frozen=True)
class LaterStep:
    """A step that acts on each item an earlier step's result lists: `tool(prop=item)`, for the items
    its words select (`keeps`), with the step's other inputs as its words give them (`fixed`)."""

    tool: str
    prop: str
    after: str
    keeps: tuple[tuple[int, str], ...]
    fixed: tuple[tuple[str, object], ...] = ()
    field: str | None = None
    """The field of each listed item the filters read ("whose email ends with…": `email`); None: the item itself."""
    conditions: tuple[Condition, ...] = ()
    """Tests on the items' fields ("tagged duplicate", "not yet shipped", "battery below 20%"): result_conditions."""
    unreadable: bool = False
    """The words qualify the items in a way nothing reads: act on none of them (and say so), never on all."""
    inherited: tuple[str, ...] = ()
    """Inputs the step's words do not give that the earlier call was given ("close the ones labelled stale" after
    listing web-frontend's pull requests: the same `repo`)."""
    typed: str = "string"
    """The JSON type the later call's property wants: a listed number 41 is sent as 41 to an integer `number`."""
    wants_email: bool = False
    """The property takes an e-mail address ("email their organiser"): the listed item's address, not its id."""
    first: bool = False
    """Only the first selected item ("cancel the first free one", «первый свободный»)."""

    def unmet(self, answered: list[Call]) -> bool:
        """Whether the step's selection could not be read, in its words or in the listed items' fields."""
        if self.unreadable:
            return True
        if not self.conditions:
            return False
        items = [raw for call in answered if call.name == self.after and call.result is not None and not call.is_error
                 for _, _, raw in _items(call.result, call.input, self.prop)]
        return bool(items) and all(any(c.holds(raw) is None for c in self.conditions) for raw in items)

    def matched_none(self, answered: list[Call]) -> bool:
        """Whether the step's selection was read and the earlier step listed items, none of which it selects ("the
        ones Carol Jones teaches", and nobody listed is Carol Jones): nothing was acted on, which the reply says."""
        if self.unreadable or not (self.keeps or self.conditions):
            return False
        listed = [call for call in answered if call.name == self.after and call.result is not None
                  and not call.is_error and _items(call.result, call.input, self.prop)]
        return bool(listed) and not self.calls(answered) and not any(call.name == self.tool for call in answered)

    def calls(self, answered: list[Call]) -> list[tuple[str, dict]]:
        """One call per selected item of the earlier step's results, in the order listed."""
        uses: list[tuple[str, dict]] = []
        if self.unreadable:
            return uses
        for call in answered:
            if call.name != self.after or call.result is None or call.is_error:
                continue
            for item, fields, raw in _items(call.result, call.input, self.prop, any_key=self.wants_email):
                if not all(c.holds(raw) for c in self.conditions):
                    continue
                read = _field(fields, self.field) if self.field else None
                targets = [read] if read is not None else [item, *(v for v in fields.values() if v != item)]
                if all(any(_FILTERS[i][1](target, part) for target in targets) for i, part in self.keeps):
                    value: object = item
                    if self.wants_email:
                        value = next((v for v in fields.values() if _EMAIL.fullmatch(v)), None)
                        if value is None:
                            continue
                    elif self.typed in ("integer", "number") and re.fullmatch(r"-?\d+", item):
                        value = int(item)
                    same = {k: call.input[k] for k in self.inherited if k in call.input}
                    uses.append((self.tool, {**dict(self.fixed), **same, self.prop: value}))
        unique: dict[str, tuple[str, dict]] = {}
        for use in uses:  # "email their organiser": one e-mail to an organiser of two of the events
            unique.setdefault(json.dumps(use, sort_keys=True, default=str), use)
        return list(unique.values())[:1] if self.first else list(unique.values())


def selection(words: str) -> tuple[tuple[int, str], ...] | None:
    """What the step's words select of the earlier results: () for all of them ("delete them"),
    filters such as "that end in .log"; None when the words do not point back at earlier results."""
    keeps = []
    for i, (pattern, _) in enumerate(_FILTERS):
        if i == _EQUALS and numeric_words(words):
            continue
        for m in pattern.finditer(words):
            part = next(g for g in m.groups() if g)
            keeps.append((i, part.rstrip(".,;:!?") if len(part) > 1 else part))
    if keeps:
        return tuple(keeps)
    return () if _BACK.search(words) or conditions(words)[0] else None


_WHOSE = re.compile(r"\b(?:whose|where the|where their|where its|with (?:a|an|the)|in (?:the|their|its))"
                    r"\s+([a-z][\w-]*)|"
                    r"(?<!\w)(?:у которых|у которого|чей|чьё|чья|чьи)\s+(?!в\s)([а-яё\w-]+)|"
                    r"(?<!\w)в\s+(названи|заголовк|имени|теме)\w*", re.I)
_FIELD_WORDS = {"name": ("name", "title"), "title": ("title", "name", "subject"), "e-mail": ("email", "mail"),
                "mail": ("email", "mail"), "address": ("email", "address"), "почта": ("email",),
                "название": ("title", "name"), "имя": ("name",), "заголовок": ("title", "subject")}


def field_of(words: str) -> str | None:
    """The field of the listed items that a step's filter reads: "the ones whose email ends with…" -> `email`."""
    m = _WHOSE.search(words)
    if m and m.group(3):  # «где в названии есть …»: the title
        return {"названи": "название", "заголовк": "заголовок", "имени": "имя", "теме": "title"}[m.group(3).lower()]
    return (m.group(1) or m.group(2)).lower() if m else None


def _field(fields: dict[str, str], word: str) -> str | None:
    """The value of an item's field named by a word ("email", "title", «почта»): the key itself, one that holds it
    (`email_address`), or one the word means."""
    for key in (word, *_FIELD_WORDS.get(word, ())):
        for name, value in fields.items():
            if name.lower() == key or key in name.lower().split("_"):
                return value
    return None


def _items(result: str, earlier_input: dict, prop: str = "",
           any_key: bool = False) -> list[tuple[str, dict[str, str], dict]]:
    """The items a result lists, each as the value a later call takes and the item's fields: a JSON list (of
    strings, or of objects: the key named as the later call's property (`user_id`, `event_id`), else a path, a
    name or an id; a single object is one item), else one per line. A bare name is put under the directory the
    earlier call was given. Each item comes with its fields as text and as the result gave them."""
    items: list[tuple[str, dict[str, str], dict]] = []
    try:
        data = json.loads(result)
    except (ValueError, TypeError):
        data = None
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list) and any(isinstance(x, (dict, str)) for x in v)),
                    [data])
    if isinstance(data, list):
        for entry in data:
            fields: dict[str, str] = {}
            raw = entry if isinstance(entry, dict) else {}
            if isinstance(entry, dict):
                fields = {str(k): str(v) for k, v in entry.items() if isinstance(v, (str, int)) and not isinstance(v,
                                                                                                                   bool)}
                # `contact_id` takes the item's `id` before its name; `issue_key` its `key`
                ends = [k for k in fields if prop and k != prop and len(k) >= 2 and prop.endswith(f"_{k}")]
                entry = next((fields[k] for k in (prop, *ends, "path", "file", "name", "id") if k in fields), None) \
                    or next((v for k, v in fields.items() if prop and k.endswith(prop.rsplit("_", 1)[-1])), None) \
                    or (next(iter(fields.values()), None) if any_key else None)
            if isinstance(entry, str):
                items.append((entry, fields, raw))
    else:
        items = [(line.strip().lstrip("-*• ").strip(), {}, {}) for line in result.splitlines()]
    directory = next((v for v in earlier_input.values() if isinstance(v, str) and re.match(r"[~./]", v)), None)
    placed = [(f"{directory.rstrip('/')}/{item}" if directory and "/" not in item and not fields else item, fields, raw)
              for item, fields, raw in items if item]
    unique = list({entry[0]: entry for entry in reversed(placed)}.values())[::-1]
    return unique[:MAX_ITEMS]


def _on_domain(item: str, domain: str) -> bool:
    """Whether an address is on the domain ("offers@promo-deals.biz", "a@mail.promo-deals.biz" for promo-deals.biz;
    "promo-deals@gmail.com" is not)."""
    lowered, domain = item.casefold().strip(), domain.casefold().lstrip("@")
    return bool(_EMAIL.fullmatch(lowered)) and (lowered.endswith("@" + domain) or lowered.endswith("." + domain))


def _base(item: str) -> str:
    return item.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class ResultStep:
    """A step that sends on what an earlier step returns ("check the weather in Oslo and then email the forecast to
    kari@…"): called once that result is back, never in the same turn, with the result as its text (`texts`) and
    its other inputs as its own words give them (`fixed`)."""

    tool: str
    after: str
    fixed: tuple[tuple[str, object], ...]
    texts: tuple[str, ...]
    words: str = ""
    """The ask's own words ("e-mail the booking reference"): the result's fields they name are what is sent."""

    def unmet(self, answered: list[Call]) -> bool:
        return False

    def calls(self, answered: list[Call]) -> list[tuple[str, dict]]:
        said = [_named_fields(call.result.strip(), self.words) for call in answered
                if call.name == self.after and call.result and not call.is_error]
        if not said:
            return []
        text = "\n".join(dict.fromkeys(said))[:2000]
        return [(self.tool, {**dict(self.fixed), **dict.fromkeys(self.texts, text)})]


def _named_fields(result: str, words: str) -> str:
    """The fields of a result the ask's words name ("the booking reference": `booking_reference: BK-554`), else the
    whole result."""
    try:
        data = json.loads(result)
    except (ValueError, TypeError):
        return result
    if not isinstance(data, dict) or not words:
        return result
    said = stems(words, synonyms=True)
    named = {k: v for k, v in data.items() if not isinstance(v, (dict, list))
             and said & stems(str(k).replace("_", " "), synonyms=True)}
    return "\n".join(f"{k}: {v}" for k, v in named.items()) if named else result
