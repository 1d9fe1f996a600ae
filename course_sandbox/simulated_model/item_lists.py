"""Arrays the request fills item by item: an array of enum values ("on Monday, Wednesday and Friday" for
days [mon..sun], «по понедельникам и средам», "push and release events"), and an array of objects, one per
thing the request lists ("2 units of SKU KB-102 that arrived damaged and 1 unit of SKU MS-550 that was the
wrong item"; "Ana Silva (ana@fin.co) and Raj Patel (raj@fin.co)").

An array of objects is cut into one stretch of the request per item, at each repeat of the value that marks an
item (an e-mail, or an id after the noun the item's property names: "SKU KB-102"); each item is then filled from
its own stretch alone, so the first item's quantity never goes to the second.
"""

import re
from collections.abc import Callable

from . import russian_forms

_DAYS = {"mon": r"monday|понедельник", "tue": r"tuesday|вторник", "wed": r"wednesday|сред[аыуе]|средам",
         "thu": r"thursday|четверг", "fri": r"friday|пятниц", "sat": r"saturday|суббот", "sun": r"sunday|воскресень"}
_WEEKDAYS = re.compile(r"\bweekdays\b|\bevery weekday\b|по будням|в будни", re.I)
_WEEKEND = re.compile(r"\bweekends?\b|по выходным|в выходные", re.I)
MAX_ITEMS = 20


def enum_items(options: list, text: str) -> list:
    """The enum options the request names, in the order written: a day by its name ("Monday" for `mon` or
    `monday`, «понедельникам»), any other option as its own word ("push", "wrong item" for `wrong_item`)."""
    found: list[tuple[int, object]] = []
    for option in options:
        if not isinstance(option, str) or not option:
            continue
        day = _day(option)
        if day:
            pattern = rf"(?<!\w)(?:{_DAYS[day]}){'' if len(option) > 3 else ''}\w*"
            if len(option) == 3:
                pattern += rf"|\b{option}\b(?!\w)"
        else:
            pattern = r"\b" + r"[\s_-]+".join(_inflected(w) for w in re.split(r"[\s_-]+", option)) + r"(?:e?s)?\b"
            tail = re.split(r"[.:/]", option)[-1]
            if tail != option and len(tail) >= 3:  # "order.paid" is named by "paid orders", "issues:opened" by "opened"
                pattern += r"|\b" + re.escape(tail) + r"(?:e?s|e?d)?\b"
        m = re.search(pattern, text, re.I)
        if m:
            found.append((m.start(), option))
    days = [o for o in options if isinstance(o, str) and _day(o)]
    if not found and len(days) == 7:
        if _WEEKDAYS.search(text):
            return days[:5]
        if _WEEKEND.search(text):
            return days[5:]
    return [option for _, option in sorted(found, key=lambda f: f[0])][:MAX_ITEMS]


def _inflected(word: str) -> str:
    """A pattern for an option's word as a request writes it: a Russian word in any case («замену масла» for
    «замена масла»), any other word as it is."""
    if re.fullmatch(r"[а-яёА-ЯЁ]{5,}", word):
        adjective = word.lower().endswith(("ая", "яя", "ое", "ее", "ый", "ий", "ой"))  # «в малой» for «малая»
        return re.escape(word[:-2 if len(word) > 6 or adjective else -1]) + r"[а-яё]{0,3}"
    if re.fullmatch(r"[а-яёА-ЯЁ]{3,4}", word):  # «на йогу» for «йога», «на бокс», «боксом» for «бокс»
        return re.escape(word[:-1] if word[-1].lower() in "аяоеьй" else word) + r"[а-яё]{0,3}"
    return re.escape(word)


def _day(option: str) -> str | None:
    lowered = option.lower()
    return next((day for day in _DAYS if lowered == day or lowered == _DAYS[day].split("|")[0]), None)


_CUT = re.compile(r",\s*(?:and\s+|и\s+)?|\s+(?:and|и|plus|as well as)\s+|;\s*")
_LEAD = re.compile(r":\s*|\bwith\s+|\binvit\w*\s+|\bfor\s+|(?<!\w)с\s+|(?<!\w)для\s+")


def stretches(text: str, marks: list[tuple[int, int]]) -> list[str]:
    """The stretch of the request each marked item takes: from the cue before the first mark (":", "with")
    or the separator ("and", ",") before each later one, to the separator before the next."""
    if len(marks) < 2:
        return []
    starts = []
    for k, (start, _) in enumerate(marks):
        before = text[marks[k - 1][1] if k else 0:start]
        pattern = _CUT if k else _LEAD
        cuts = list(pattern.finditer(before))
        offset = marks[k - 1][1] if k else 0
        starts.append(offset + cuts[-1].end() if cuts else offset + (0 if k == 0 else len(before)))
    ends = [starts[k + 1] for k in range(len(marks) - 1)]
    tail = text[marks[-1][1]:]
    stop = re.search(r"[.!?;](?:\s|$)|\s+(?:on|at|from|в|на)\s+\d", tail)
    ends.append(marks[-1][1] + (stop.start() if stop else len(tail)))
    pieces = []
    for start, end in zip(starts, ends, strict=True):
        piece = text[start:end]
        cut = list(_CUT.finditer(piece))
        pieces.append((piece[:cut[-1].start()] if cut and cut[-1].start() > 0 and end != ends[-1] else piece).strip())
    return pieces[:MAX_ITEMS]


def object_items(properties: dict, text: str, marks_of: Callable[[str, dict], list[tuple[int, int]]]) -> list[str]:
    """The stretches an array of objects with these properties takes: cut at the marks of the first property
    that the request repeats (an e-mail for `email`, "SKU KB-102" for `sku`, an amount for `amount`, a person's
    name for `full_name`); [] when none repeats. An item written bare before "and" shares what the next one says
    after its mark ("Lars Eriksen and Mei Tanaka as guests": both are guests)."""
    for name, schema in properties.items():
        if not isinstance(schema, dict):
            continue
        marks = marks_of(name, schema)
        if len(marks) >= 2:
            pieces = stretches(text, marks)
            values = [text[start:end] for start, end in marks]
            for k in range(len(pieces) - 2, -1, -1):
                bare = pieces[k].strip(" ,").endswith(values[k]) and values[k] in pieces[k]
                joined = re.search(rf"{re.escape(values[k])}\s+(?:and|и)\s+{re.escape(values[k + 1])}", text)
                shared = pieces[k + 1].split(values[k + 1], 1)[-1] if values[k + 1] in pieces[k + 1] else ""
                if bare and joined and shared.strip():
                    pieces[k] = pieces[k] + shared
            return pieces
    return []


_LEADING = re.compile(r"^(?:(?:and|plus|also|then|и|а также)\s+)+", re.I)
_ON_WHAT = re.compile(r"\b(?:on|for|за|на)\s+(?:an?\s+|the\s+|some\s+|my\s+|our\s+)?([^,;.!?]+)", re.I)
_COUNTED_OF = re.compile(r"^(?:\d+(?:[.,]\d+)?\s+)(?:(?:hours?|hrs?|days?|units?|pieces?|pcs|boxes|packs?|bags?|"
                         r"bottles?|kg|kilos?|metres?|meters?|m2|sq\s?m|часов|часа|час|штук\w*|"
                         r"(?P<ru>порци\w*|бутыл\w*|банок|банк\w*|пачек|пачк\w*|коробок|коробк\w*|чаш(?:ек|к\w*)|"
                         r"стакан\w*|кусоч?к\w*|кусков))\s+(?:of\s+)?)?", re.I)
_PRICED = re.compile(r"\s*(?:\b(?:at|for|@|по|за)\s*)?(?:[$€£¥₽]\s?)?\d+(?:[.,]\d+)?(?:\s*(?:[A-Z]{3}\b|[$€£¥₽]|"
                     r"dollars?|euros?|pounds?|рубл\w*))?(?:\s+(?:each|apiece|per\s+\w+|an?\s+hour|за\s+штуку))?",
                     re.I)


def label(piece: str) -> str:
    """What an item of a list is, without its numbers: "12.50 EUR on a taxi" -> "taxi", "3 hours of plumbing at 95
    each" -> "plumbing", "plus 2 replacement valves at 14.50 each" -> "replacement valves"; "" when nothing is left."""
    piece = _LEADING.sub("", piece.strip(" ,.;:"))
    amount = re.search(r"[$€£¥₽]?\d", piece)
    after = _ON_WHAT.search(piece, amount.start()) if amount else None
    if after and amount and re.search(r"[$€£¥₽]|\b[A-Z]{3}\b|dollar|euro|pound|рубл",
                                      piece[amount.start():after.start()]):
        return after.group(1).strip()
    if amount and amount.start() > 0 and re.fullmatch(r"[A-Za-zА-Яа-яЁё]+\s+", piece[:amount.start()]):
        piece = piece[amount.start():]  # "Order 2 pad thai": the verb before the count says nothing of the item
    counted = _COUNTED_OF.match(piece)
    rest = piece[counted.end():] if counted and counted.end() else piece
    if counted and counted.group("ru"):  # «12 порций плова»: плов, in the nominative
        rest = russian_forms.nominative(rest.strip(), _GENITIVE)
    rest = _PRICED.sub(lambda m: "" if re.search(r"\d", m.group(0)) else m.group(0), rest)
    said = re.sub(r"\s+", " ", rest).strip(" ,.;:")
    # "1 setup fee at 450 EUR, payable within 30 days": what follows the item's comma is another clause
    return re.split(r"\s*[,;]\s+", said, maxsplit=1)[0] if re.search(r"\d[^,;]*[,;]\s", piece) else said


_GENITIVE = frozenset({"gent", "gen2"})
"""The case of what a measure word counts («12 порций плова»)."""


_IN_BRACKETS = re.compile(r"([A-Za-zА-Яа-яЁё][A-Za-zА-Яа-яЁё' -]{0,60}?)\s*\(\s*(\d+(?:[.,]\d+)?)\s*"
                          r"([A-Za-zА-Яа-яЁё]+\.?)?\s*\)")
_NOT_THE_ITEM = re.compile(r"^(?:(?:please|add|buy|get|order|put|need|want|and|also|plus|some|the|a|an|of|to|my|list|"
                           r"shopping|i|we|добавь|купи|закажи|и|ещё|еще|а также)\s+)+", re.I)


def bracketed(text: str) -> list[tuple[str, float | int, str | None]]:
    """Items written with their amount in brackets: "add milk (2 litres) and eggs (12)" -> [("milk", 2, "litres"),
    ("eggs", 12, None)]; [] unless every item of the stretch has a name."""
    found = []
    for m in _IN_BRACKETS.finditer(text[:4000]):
        name = _NOT_THE_ITEM.sub("", m.group(1).strip(" ,;")).strip()
        name = re.split(r"\s*(?:,|;|\band\b|\bи\b)\s*", name)[-1].strip()
        if not name:
            return []
        amount = float(m.group(2).replace(",", "."))
        found.append((name, int(amount) if amount.is_integer() else amount, (m.group(3) or "").rstrip(".") or None))
    return found[:MAX_ITEMS]


_MEASURE = (r"kg|kgs|kilos?|kilograms?|g|gr|grams?|mg|lb|lbs|oz|l|ltr|lit(?:er|re)s?|ml|cl|pcs|pc|pieces?|packs?|"
            r"packets?|bottles?|cans?|boxes|box|bags?|jars?|loaf|loaves|dozen|"
            r"кг|килограмм\w*|г|гр|грамм\w*|мг|л|литр\w*|мл|шт|штук\w*|пач\w*|бутыл\w*|банк\w*|упаков\w*|пакет\w*|"
            r"бат\w*|бух\w*|десят\w*|порци\w*|чаш(?:ек|к\w*)|стакан\w*|кусоч?к\w*|кусков")
_MEASURED = re.compile(rf"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(?:({_MEASURE})\.?\s+)?(?:(?:of|x)\s+)?"
                       r"([A-Za-zА-Яа-яЁё][A-Za-zА-Яа-яЁё'-]*(?:\s+(?!(?:and|и|or|или|for|для|to|на|в|with|с)\b)"
                       r"[A-Za-zА-Яа-яЁё][A-Za-zА-Яа-яЁё'-]*){0,2})(?=\s*(?:[,;.!?]|\band\b|\bи\b|$))", re.I)
_UNIT_CODES = [("kg", r"kgs?|kilos?|kilograms?|кг|килограмм\w*"), ("g", r"g|gr|grams?|г|гр|грамм\w*"), ("mg", r"mg|мг"),
               ("l", r"l|ltr|lit(?:er|re)s?|л|литр\w*"), ("ml", r"ml|мл"), ("lb", r"lbs?"), ("oz", r"oz"),
               ("pcs", r"pcs|pc|pieces?|шт|штук\w*")]
_UNIT_NAMES = {"kg": ("kg", "kilogram", "kilograms", "kilo", "кг"), "g": ("g", "gram", "grams", "г"),
               "l": ("l", "liter", "litre", "liters", "litres", "л"), "ml": ("ml", "milliliter", "millilitre", "мл"),
               "pcs": ("pcs", "pc", "piece", "pieces", "each", "unit", "units", "item", "шт"), "lb": ("lb", "lbs"),
               "oz": ("oz",), "mg": ("mg",)}


def measured(text: str) -> list[tuple[str, float | int, str | None]]:
    """Items written as an amount, a unit and what is measured: «2 кг картофеля, 1,5 л молока и 6 шт. яиц», "2 kg of
    potatoes and 6 eggs" -> [("картофеля", 2, "кг"), ("молока", 1.5, "л"), ("яиц", 6, "шт")]; [] for fewer than two
    items, or when a stretch between them is not one of them."""
    found = []
    for m in _MEASURED.finditer(text[:4000]):
        amount = float(m.group(1).replace(",", "."))
        said = m.group(3).strip()
        if m.group(2) and re.match(r"порци|чаш|стакан|кус", m.group(2), re.I):  # «12 порций плова»: плов
            said = russian_forms.nominative(said, _GENITIVE)
        found.append((said, int(amount) if amount.is_integer() else amount, m.group(2)))
    return found[:MAX_ITEMS] if len(found) >= 2 else []


def unit_option(written: str | None, schema: dict) -> str | None:
    """The value a unit field takes for a unit as written: "кг" is "kg", «шт» "pcs" (or the enum's word for a piece);
    None when the field cannot take it."""
    if not written:
        return None
    code = next((code for code, pattern in _UNIT_CODES if re.fullmatch(pattern, written.rstrip("."), re.I)), None)
    options = schema.get("enum")
    if not isinstance(options, list):
        return code or written
    if code is None:
        return next((o for o in options if isinstance(o, str) and o.lower() == written.lower()), None)
    return next((o for o in options if isinstance(o, str) and o.lower() in _UNIT_NAMES.get(code, (code,))), None)


def written(value: object, text: str) -> bool:
    """Whether the text writes this unit code in some form: "kg" as «кг», "pcs" as «шт.», "l" as "litres"."""
    pattern = next((pattern for code, pattern in _UNIT_CODES if code == value), None)
    return pattern is not None and bool(re.search(rf"(?<![\w.,])\d*(?:[.,]\d+)?\s*(?:{pattern})\.?(?!\w)", text, re.I))
