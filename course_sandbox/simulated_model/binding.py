"""One general value binding: every value a request states, found once and typed, matched to the tool field that
fits it.

The readers in slots.py answer "which values of kind K does the request hold?", one kind at a time; a field takes
the first of its kind that is still free. That misses a value whose field's kind no reader knows (`check_in`,
`zip`, `merchant`, `to_warehouse`), and gives one value to two fields. Here the request is read once into
*mentions*: each value with where it stands and what it is (a date, a time, an amount of money and its currency, a
quantity and its unit, a phone number, a postcode, an e-mail, a code, a proper name, a quoted string, a bare
number). Each field of the tool's schema says what it wants: its type, format, the kind its name and description
give (slots.kind_of), the unit its name or description asks for (`amount_cents`, "in minutes", `min_size_kb`), and
its own words ("check in", "warehouse", "merchant"). A mention fits a field by type and kind; the field's own words
next to the mention ("the Dover warehouse", "zip 62704", "checking in 2026-04-10") and the role a preposition gives
("at Blue Fern Bakery" for a merchant, "from the Leeds warehouse" for `from_…`) say which field it is. The pairs are
assigned best first, each mention once (an array field may take several), so the same request always binds the same
way.

A binding is *strong* when the field's own words stand next to the value, when a unit had to be converted for it, or
when the value is of a kind only that field takes (a date for the one date field); a strong binding wins over what
the older readers chose, a weak one only fills a field they left to a placeholder (slots.RequestHints).
"""

import functools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from . import number_words, postal, proper_names, spoken_values
from .scalar_values import MISSING
from .words import STOPWORDS, english, overlap, stems

_GENERIC_WORDS = {"name", "id", "ids", "value", "the", "of", "a", "an", "in", "for", "to", "from", "type", "str",
                  "string", "field", "new", "num", "number", "data", "info", "text", "is", "and", "or", "by", "at",
                  "on", "with", "yyyy", "mm", "dd", "hh", "iso", "format", "e", "g"}
"""Words of a field's name that say nothing about which of the request's values it takes."""


@dataclass(frozen=True)
class Mention:
    """A value the request states: where it stands, what it is, and its value in a canonical form."""

    start: int
    end: int
    kind: str
    value: Any
    unit: str | None = None
    """money: the currency code (None when the amount has no currency beside it); quantity: the unit as written."""
    place: int | None = None
    """The mention's place in a written set of dimensions ("40x30x10 cm": 0 length, 1 width, 2 height)."""


@dataclass(frozen=True)
class Bound:
    value: Any
    strong: bool
    """Wins over what the kind readers chose."""
    sure: bool = True
    """Fits well enough to fill a field they left to a placeholder (not a bare guess: any name for any string)."""


# ---------------------------------------------------------------- units

_TIME_UNITS = [(r"milliseconds?|millis|ms", "ms"), (r"seconds?|secs?|s|секунд\w*|сек", "s"),
               (r"minutes?|mins?|минут\w*|мин", "min"), (r"hours?|hrs?|h|час\w*", "h"),
               (r"days?|дн\w*|день", "d"), (r"weeks?|недел\w*", "wk")]
_SIZE_UNITS = [(r"bytes?|b|байт\w*", "b"), (r"kilobytes?|kb|kib|кб|килобайт\w*", "kb"),
               (r"megabytes?|mb|mib|мб|мегабайт\w*", "mb"), (r"gigabytes?|gb|gib|гб|гигабайт\w*", "gb"),
               (r"terabytes?|tb|tib|тб", "tb")]
_MASS_UNITS = [(r"grams?|g|г|грамм\w*", "g"), (r"kilograms?|kilos?|kg|кг|килограмм\w*", "kg"),
               (r"lbs?", "lb")]
_LENGTH_UNITS = [(r"millimet(?:er|re)s?|mm|мм", "mm"), (r"centimet(?:er|re)s?|cm|см", "cm"),
                 (r"met(?:er|re)s?|m|метр\w*|м", "m"), (r"kilomet(?:er|re)s?|km|км|километр\w*", "km"),
                 (r"miles?|mi", "mi")]
_FACTORS = {"ms": ("time", 0.001), "s": ("time", 1), "min": ("time", 60), "h": ("time", 3600), "d": ("time", 86400),
            "wk": ("time", 604800), "b": ("size", 1), "kb": ("size", 1024), "mb": ("size", 1024 ** 2),
            "gb": ("size", 1024 ** 3), "tb": ("size", 1024 ** 4), "g": ("mass", 1), "kg": ("mass", 1000),
            "lb": ("mass", 453.59237), "mm": ("length", 0.001), "cm": ("length", 0.01), "m": ("length", 1),
            "km": ("length", 1000), "mi": ("length", 1609.344)}
_ALL_UNITS = _TIME_UNITS + _SIZE_UNITS + _MASS_UNITS + _LENGTH_UNITS
_UNIT_OF = [(re.compile(rf"^(?:{written})$", re.I), unit) for written, unit in _ALL_UNITS]
_QUANTITY = re.compile(
    r"(?<![\w.,$€£¥₽])(\d+(?:[.,]\d+)?)\s?-?(" + "|".join(w for w, _ in _ALL_UNITS) + r")(?![\w])", re.I)
_COUNTED = re.compile(r"(?<![\w.,$€£¥₽:/-])(\d+(?:[.,]\d+)?)\s+(?:(?:x|of)\s+)?([a-zа-яё][a-zа-яё'-]{1,20})", re.I)
_NOT_COUNTED = {"am", "pm", "st", "nd", "rd", "th", "and", "or", "to", "at", "on", "in", "by", "for", "per", "each",
                "from", "with", "the", "a", "an", "percent", "of", "is", "и", "на", "в", "по"}

_MINOR_UNITS = re.compile(r"(?:^|_|\b)(?:cents?|kopecks?|kopeks?|pence|копе[ей]к\w*|минимальн\w* единиц|minor units?|"
                          r"smallest unit)(?:$|_|\b)",
                          re.I)
_FIELD_UNITS = [(re.compile(r"(?:^|_|\b)(?:ms|millis|milliseconds?)(?:$|_|\b)", re.I), "ms"),
                (re.compile(r"(?:^|_|\b)(?:s|secs?|seconds?|секунд\w*)(?:$|_|\b)", re.I), "s"),
                (re.compile(r"(?:^|_|\b)(?:mins?|minutes?|минут\w*)(?:$|_|\b)", re.I), "min"),
                (re.compile(r"(?:^|_|\b)(?:hrs?|hours?|час\w*)(?:$|_|\b)", re.I), "h"),
                (re.compile(r"(?:^|_|\b)(?:days?|дн\w*)(?:$|_|\b)", re.I), "d"),
                (re.compile(r"(?:^|_|\b)(?:weeks?)(?:$|_|\b)", re.I), "wk"),
                (re.compile(r"(?:^|_|\b)(?:bytes?)(?:$|_|\b)", re.I), "b"),
                (re.compile(r"(?:^|_|\b)(?:kb|kib|kilobytes?|кб)(?:$|_|\b)", re.I), "kb"),
                (re.compile(r"(?:^|_|\b)(?:mb|mib|megabytes?|мб)(?:$|_|\b)", re.I), "mb"),
                (re.compile(r"(?:^|_|\b)(?:gb|gib|gigabytes?|гб)(?:$|_|\b)", re.I), "gb"),
                (re.compile(r"(?:^|_|\b)(?:g|grams?|граммах)(?:$|_|\b)", re.I), "g"),
                (re.compile(r"(?:^|_|\b)(?:kg|kilograms?|кг|килограммах)(?:$|_|\b)", re.I), "kg"),
                (re.compile(r"(?:^|_|\b)(?:lbs?|pounds)(?:$|_|\b)", re.I), "lb"),
                (re.compile(r"(?:^|_|\b)(?:m|meters?|metres?|метрах)(?:$|_|\b)", re.I), "m"),
                (re.compile(r"(?:^|_|\b)(?:km|kilomet(?:er|re)s?|км|километрах)(?:$|_|\b)", re.I), "km"),
                (re.compile(r"(?:^|_|\b)(?:mi|miles)(?:$|_|\b)", re.I), "mi"),
                (re.compile(r"(?:^|_|\b)(?:cm)(?:$|_|\b)", re.I), "cm"),
                (re.compile(r"(?:^|_|\b)(?:mm)(?:$|_|\b)", re.I), "mm")]


def _unit(written: str) -> str | None:
    return next((unit for pattern, unit in _UNIT_OF if pattern.match(written)), None)


def written_unit(written: str) -> str | None:
    """The unit a word writes ("KB", "minutes", «мб»), or None."""
    return _unit(written)


def field_unit(name: str) -> str | None:
    """The unit a field's name ends with (`size_kb`, `timeout_minutes`), or None."""
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower()
    placed = [(m.end(), u) for pattern, u in _FIELD_UNITS for m in pattern.finditer(spoken)]
    if not placed:
        return None
    end, unit = max(placed)
    last = re.split(r"[_\W]+", spoken[end:].strip("_ "))[-1] if spoken[end:].strip("_ ") else ""
    if re.fullmatch(r"[a-z]{2,4}\d?|[a-z]\d", last) and last not in _TRAILERS:
        return None  # `electricity_day_kwh`, `volume_day_m3`: the unit is the last word's (kWh), not "day"
    return unit


_TRAILERS = {"max", "min", "total", "limit", "left", "used", "avg", "mean", "each", "per", "cap", "sum", "rate",
             "ago", "from", "to", "old", "new", "out", "in"}
"""Words after a field's unit that keep it the field's unit (`timeout_ms_max`, `size_kb_total`)."""


def convert(value: float, unit: str, target: str) -> float | None:
    """A quantity in another unit of the same dimension ("2 MB" in kb is 2048), or None across dimensions.

    Sizes are binary, as file systems and most tools count them: 1 KB is 1024 bytes, so "2 MB" for a
    `min_size_bytes` field is 2097152 (never 2, never 2000000)."""
    have, want = _FACTORS.get(unit), _FACTORS.get(target)
    if not have or not want or have[0] != want[0]:
        return None
    return value * have[1] / want[1]


# ---------------------------------------------------------------- the request's values

_POSTCODE_CUE = re.compile(r"(?:\bzip(?:\s*code)?|\bpost(?:al)?\s*code|\bpostcode|\bpin\s*code|(?<!\w)(?:почтов\w+\s+)?"
                           r"индекс\w*)\s*(?:is\s+|:\s*|№\s*)?([A-Z0-9]{2,4}\s?[A-Z0-9]{3}|\d{4,6}(?:-\d{4})?)"
                           r"(?![\w-])",
                           re.I)
_IBAN = re.compile(r"(?<![\w-])[A-Z]{2}\d{2}(?:[ \u00a0]?[A-Z0-9]{4}){2,7}(?:[ \u00a0]?[A-Z0-9]{1,3})?(?![\w-])")
"""An IBAN, written in groups of four or whole ("DE89 3704 0044 0532 0130 00")."""
_LABELLED_CODE = re.compile(r"(?<![\w-])(?i:sku|article|item\s+code|part\s+(?:no\.?|number)|артикул\w*)\s*"
                            r"(?:no\.?\s*|#\s*|:\s*|№\s*)?([A-Z0-9][A-Z0-9]*(?:-[A-Z0-9]+)+|[A-Z0-9]{3,})(?![\w-])")
"""A code its label names ("SKU CAP-BLK", «артикул TSH-RED»), read as one code though it holds no digit."""
_UK_POSTCODE = re.compile(r"(?<![\w-])[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}(?![\w-])")
_BARE_NUMBER = re.compile(r"(?<![\w.\-/@])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|"
                          r"(?<![\w.\-/@])-?\d+(?:[.,]\d+)?(?![\w@])")
_CODE_PATTERNS = [re.compile(r"(?:#|№)\s?([\w-]*\d[\w-]*)"),
                  re.compile(r"\b(?:[A-Z]{1,6}[-_](?:[A-Z]{1,6}[-_]?)?\d+|[A-Z]{1,6}\d{2,})[A-Z0-9-]*\b"),
                  re.compile(r"(?<![\w@./-])(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{8,40}(?![\w@-])"),
                  spoken_values.LOWER_ID]


def mentions(text: str) -> list[Mention]:
    """The values a request states, each once, in the order written (see the module's docstring)."""
    from . import slots  # slots reads its own kinds with these regular expressions; binding reads them once

    original = text[: slots.READ_LIMIT]
    text = number_words.digits(original)
    found: list[Mention] = []
    free = [True] * len(text)

    def claim(start: int, end: int, kind: str, value: Any, unit: str | None = None, place: int | None = None) -> bool:
        if start >= end or not all(free[start:end]):
            return False
        for i in range(start, end):
            free[i] = False
        found.append(Mention(start, end, kind, value, unit, place))
        return True

    def masked() -> str:
        return "".join(ch if ok else " " for ch, ok in zip(text, free, strict=True))

    for m in slots._EMAIL.finditer(text):
        claim(*m.span(), "email", m.group(0))
    for m in slots._URL.finditer(text):
        claim(*m.span(), "url", slots._clean(m.group(0)))
    for m in slots.DOMAIN.finditer(masked()):  # "bluefinch-studio.com": a domain, before its dot ends a sentence
        claim(*m.span(), "domain", m.group(0).lower())
    for m in slots._UUID.finditer(text):
        claim(*m.span(), "code", m.group(0))
    for m in _IBAN.finditer(text):  # "IBAN DE89 3704 0044 0532 0130 00": one code, its spaces dropped
        claim(*m.span(), "code", re.sub(r"\s", "", m.group(0)))
    written = [next(g for g in m.groups() if g) for m in slots._QUOTED.finditer(original)]
    quoted = list(slots._QUOTED.finditer(masked()))
    for k, m in enumerate(quoted):  # a quoted string is one value: 'titled "Sprint 12"'
        said = written[k] if len(written) == len(quoted) else next(g for g in m.groups() if g)
        claim(*m.span(), "quoted", said)  # as written: "Draft two" stays words
    for m in _TRANSLATE.finditer(masked()):  # "translate good morning to French": what to translate is one value
        group = 1 if m.group(1) else 2
        if m.group(group).strip(" ,:"):
            claim(*m.span(group), "phrase", m.group(group).strip(" ,:"))
    lowered = masked().lower()
    for word, name in slots._LANGUAGES.items():
        for m in re.finditer(rf"(?<!\w){word}\w*", lowered):
            claim(*m.span(), "language", name)
    for m in _DAY_RANGE.finditer(masked()):  # «с 10 по 14 февраля 2027», "from 3 to 7 June 2026"
        days = _day_range(m)
        if days:
            claim(*m.span(1), "date", days[0])
            claim(m.start(2), m.end(0), "date", days[1])
    for m in slots._RANGE.finditer(masked()):
        days = slots._dates(m.group(0), relative=False)[1]
        if len(days) == 2:
            claim(m.start(1), m.end(2), "date", days[0])
            claim(m.start(3) if m[3] else m.start(4), m.end(0), "date", days[1])
    for pattern in (slots._ISO, slots._DOTTED, slots._WORDY_DATE):
        for m in pattern.finditer(masked()):
            datetimes, days = slots._dates(m.group(0), relative=False)
            if datetimes:
                claim(*m.span(), "datetime", datetimes[0])
            elif days:
                claim(*m.span(), "date", days[0])
    for pattern in (slots._RELATIVE, slots._PAST, slots._YEARLESS):
        for m in pattern.finditer(masked()):
            days = slots._relative_dates(m.group(0), slots.said_past(masked(), m.start()))
            if days:
                claim(*m.span(), "date", days[0])
    for m in spoken_values.TIME.finditer(masked()):
        said = spoken_values.times(m.group(0))
        if said:
            claim(*m.span(), "time", said[0])
    _join_dates_and_times(text, found)
    for address in postal.read(masked()):  # "Baker Street 221b, London": 221b is the house, not 221 bytes
        if postal.NAME_FIRST.match(address.text):
            start = masked().find(address.text)
            claim(start, start + len(address.text), "address", address.text)
    for m in _POSTCODE_CUE.finditer(masked()):
        claim(*m.span(1), "postcode", m.group(1))
    for m in _UK_POSTCODE.finditer(masked()):
        claim(*m.span(), "postcode", m.group(0))
    for m in spoken_values.PHONE.finditer(masked()):
        if sum(ch.isdigit() for ch in m.group(0)) >= 7:
            claim(*m.span(), "phone", m.group(0).strip())
    for m in re.finditer(r"(?<![\w&#/])#([A-Za-z][\w-]*)", masked()):  # "#general": a channel, a tag, by its name
        claim(*m.span(), "tag", m.group(1))
    for m in _NUMBERED_PLACE.finditer(masked()):  # "in Room 4B", «в переговорке 3.14»: a place named by its number
        claim(*m.span(), "proper", m.group(0))
    for m in _FILE_NAME.finditer(masked()):  # "to report_2026_Q1.docx": a file's name, whole
        claim(*m.span(), "filename", m.group(0))
    for m in _LABELLED_CODE.finditer(masked()):  # "SKU CAP-BLK": a code by its label, though it has no digit
        claim(*m.span(1), "code", m.group(1))
    for pattern in _CODE_PATTERNS:  # before amounts: the number inside an id (cus_8812, INV-5) is no quantity
        for m in pattern.finditer(masked()):
            span = m.span(1) if m.groups() else m.span()
            claim(*span, "code", text[span[0]:span[1]].rstrip(".-"))
    if _MASS_CONTEXT.search(text):  # "how many kilograms in 150 pounds": pounds of weight, not of money
        for m in _POUNDS.finditer(masked()):
            claim(*m.span(), "quantity", _number(m.group(1)), "lb")
    spoken = masked()
    money = sorted({(m.start(), m.end(), m.group(1)) for pattern in spoken_values._MONEY[:3]
                    for m in pattern.finditer(spoken)})  # a currency written beside the amount
    for start, end, amount in money:
        currencies = slots._currencies_written(spoken[start:end])
        claim(start, end, "money", _number(amount), currencies[0] if currencies else None)
    for m in _DIMENSIONS.finditer(masked()):  # "40x30x10 cm": three lengths, in order
        unit = _unit(m.group("unit"))
        sizes = [g for g in m.group(1, 2, 3) if g]
        if unit and all(free[m.start():m.end()]):
            for place, group in enumerate(g for g in (1, 2, 3) if m.group(g)):
                found.append(Mention(m.start(group), m.end(group), "quantity", _number(m.group(group)), unit, place))
            for i in range(m.start(), m.end()):
                free[i] = False
        del sizes
    for m in _EXTENSION.finditer(masked()):
        claim(*m.span(1), "extension", m.group(1).lower())
    for m, minutes in zip(spoken_values._DURATION.finditer(masked()), spoken_values.durations(masked()), strict=False):
        claim(*m.span(), "quantity", minutes, "min")
    for m in _QUANTITY.finditer(masked()):
        unit = _unit(m.group(2))
        if unit:
            claim(*m.span(), "quantity", _number(m.group(1)), unit)
    for m in spoken_values.ADDRESS.finditer(masked()):
        claim(*m.span(), "address", slots._clean(m.group(0)))
    spoken = masked()
    money = sorted({(m.start(), m.end(), m.group(1)) for pattern in spoken_values._MONEY
                    for m in pattern.finditer(spoken)})
    for start, end, amount in money:
        currencies = slots._currencies_written(spoken[start:end])
        claim(start, end, "money", _number(amount), currencies[0] if currencies else None)
    for m in re.finditer(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?(?:%|percent\b|per cent\b|процент\w*)", masked(), re.I):
        claim(*m.span(), "quantity", _number(m.group(1)), "%")
    for path in (*slots._PATH.finditer(masked()), *spoken_values.DIRECTORY.finditer(masked())):
        if len(path.group(0)) > 1:
            claim(*path.span(), "path", slots._clean(path.group(0)))
    for m in _COUNTED.finditer(masked()):
        noun = m.group(2).lower()
        if noun not in _NOT_COUNTED:
            claim(m.start(1), m.end(2), "quantity", _number(m.group(1)), noun)
    for m in _BARE_NUMBER.finditer(masked()):
        value = _number(m.group(0))
        if value is not None:
            claim(*m.span(), "number", value)
    at = 0
    spoken = masked()
    for name in proper_names.read(spoken).all:
        where = spoken.find(name, at)
        if where < 0:
            where = spoken.find(name)
        if where >= 0 and claim(where, where + len(name), "proper", name):
            at = where + len(name)
    found.sort(key=lambda mention: mention.start)
    return found


_POUNDS = re.compile(r"(?<![\w.,$€£¥₽])(\d+(?:[.,]\d+)?)\s?(?:pounds?|фунт\w*)(?!\w)", re.I)
_MASS_CONTEXT = re.compile(r"\b(?:kilo\w*|kg|grams?|ounces?|oz|stones?|weigh\w*)\b|(?<!\w)(?:кг|килограмм\w*|грамм\w*|"
                           r"унци\w*|вес\w*|вест?ит)(?!\w)", re.I)
"""Words of weight beside "pounds" or «фунтов»: then a pound is a unit of mass, not money."""
_DAY_RANGE = re.compile(r"(?<![\w.,/-])(?:(?:с|from|between)\s+)?(\d{1,2})(?:st|nd|rd|th)?\s*(?:по|до|to|until|till|"
                        r"through|thru|-|–|—|and|и)\s*(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-zА-Яа-яЁё]{3,9})\.?"
                        r"(?:,?\s+(\d{4}))?(?![\w-])", re.I)
"""A range of days with the month after both: «с 10 по 14 февраля 2027», "from 3 to 7 June 2026", "3-7 June"."""
_DIMENSIONS = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*[x×х*]\s*(\d+(?:[.,]\d+)?)(?:\s*[x×х*]\s*(\d+(?:[.,]\d+)?))?"
                         r"\s?(?P<unit>mm|cm|m|in|мм|см|м|millimet(?:er|re)s?|centimet(?:er|re)s?|met(?:er|re)s?)"
                         r"(?!\w)", re.I)
_NUMBERED_PLACE = re.compile(r"(?<![\w-])(?:room|hall|office|suite|gate|building|floor|desk|platform|terminal|ward|bay|"
                             r"dock|lab|studio|booth|cabin|unit|переговорн\w*|переговорк\w*|комнат\w*|кабинет\w*|"
                             r"аудитори\w*|зал\w*|корпус\w*)\s+(?:№\s*|no\.?\s*|#)?(?:[A-ZА-ЯЁ]?\d+[A-Za-zА-Яа-яЁё]?"
                             r"(?:[-.]\d+[A-Za-z]?)?|[A-ZА-ЯЁ]\d*)(?![\w-])", re.I)
"""A room, gate or office named by its number or letter: "Room 4B", "Gate B12", «кабинет 305»."""
_FILE_NAME = re.compile(r"(?<![\w/@.\\-])[\w-]*[A-Za-zА-Яа-яЁё0-9][\w-]*(?:\.[\w-]+)*\."
                        r"(?:docx?|xlsx?|pptx?|odt|ods|rtf|pdf|txt|md|csv|tsv|json|xml|ya?ml|toml|ini|cfg|log|sql|py|ipynb|sh|zip|tar|gz|tgz|7z|rar|png|"
                        r"jpe?g|gif|svg|webp|mp3|mp4|wav|mov|avi|html?|css|bak|tmp|key|pem)(?![\w-])", re.I)
"""A file's name with its extension, not inside a path: "rename it to report_2026_Q1.docx"."""
_EXTENSION = re.compile(r"(?<![\w./~-])(\.[A-Za-z][A-Za-z0-9]{0,5})(?![\w/.-])")
"""A file extension written on its own: "all .csv files", «файлы .log»."""
_DIMENSION_WORDS = ({"length", "long", "len", "l", "длина"}, {"width", "wide", "w", "breadth", "ширина"},
                    {"height", "high", "h", "depth", "deep", "d", "высота", "глубина"})


def _day_range(m: re.Match) -> list[str]:
    """The two days of a _DAY_RANGE match; with no year written, the year the first day is next reached from today()."""
    from . import slots

    month = slots._month(m.group(3))
    first, last = int(m.group(1)), int(m.group(2))
    if not month or last <= first:
        return []
    if m.group(4):
        year = int(m.group(4))
    else:
        base = slots.today()
        year = base.year if (month, first) >= (base.month, base.day) else base.year + 1
    if not (slots._real_date(year, month, first) and slots._real_date(year, month, last)):
        return []
    return [f"{year}-{month:02d}-{first:02d}", f"{year}-{month:02d}-{last:02d}"]


_DATE_TIME_GLUE = re.compile(r"^\s*(?:,|at|@|on|в|во|T)?\s*$", re.I)


def _join_dates_and_times(text: str, found: list[Mention]) -> None:
    """A date and a clock time written together ("on 2026-06-01 at 18:45", «5 мая 2026 в 9:00», "at 9:00 on 3 May")
    become one datetime, in local time (no offset; a field that wants one adds it)."""
    found.sort(key=lambda mention: mention.start)
    i = 0
    while i + 1 < len(found):
        a, b = found[i], found[i + 1]
        pair = {a.kind, b.kind}
        if pair in ({"date", "time"}, {"datetime", "time"}) and _DATE_TIME_GLUE.match(text[a.end:b.start]):
            day, clock = (a, b) if a.kind != "time" else (b, a)
            value = f"{str(day.value)[:10]}T{clock.value}:00"
            found[i:i + 2] = [Mention(a.start, b.end, "datetime", value)]
        i += 1


_LANGUAGE_WORDS = r"(?:english|french|german|spanish|italian|russian|chinese|japanese|portuguese|korean|arabic|" \
                  r"английск|французск|немецк|испанск|итальянск|русск|китайск|японск)\w*"
_TRANSLATE = re.compile(r"\btranslate\s+(?!(?:this|it|that|these|them|the following)\b)(?:the\s+(?:word|phrase|"
                        r"sentence)\s+)?"
                        rf"([^\"«“.!?\n]{{2,200}}?)\s+(?:in)?to\s+{_LANGUAGE_WORDS}|"
                        rf"(?<!\w)переведи\w*\s+(?!(?:это|его|их)\b)([^\"«“.!?\n]{{2,200}}?)\s+на\s+{_LANGUAGE_WORDS}",
                        re.I)


def _number(written: str) -> int | float | None:
    clean = written.replace(" ", "").replace("\u00a0", "").replace("\u202f", "")
    clean = clean.replace(",", "") if re.search(r",\d{3}(?!\d)", clean) else clean.replace(",", ".")
    try:
        value = float(clean)
    except ValueError:
        return None
    if not math.isfinite(value) or abs(value) > 1e15:
        return None
    return int(value) if value.is_integer() and "." not in clean else value


# ---------------------------------------------------------------- what a field wants

@dataclass(frozen=True)
class Want:
    name: str
    types: frozenset[str]
    kind: str | None
    words: tuple[str, ...]
    unit: str | None
    array: bool
    code: bool = False
    """The field wants a code for what the request names ("ISO 639-1 code": "fr" for French)."""
    local: bool = False
    """A date-time field that asks for local time, without an offset (its value gets no "Z")."""
    bare_extension: bool = False
    """An extension field that asks for no leading dot ("without the dot", "e.g. csv")."""
    described: tuple[str, ...] = ()
    """Stems of the field's name and description words (Russian ones also as their English word), for a label beside
    a value that names the field in other words («в чат …» for `chat` described «Название чата»)."""


_DATE_WORDS = re.compile(r"(?:^|_|\b)(?:check_?in|check_?out|checkin|checkout|arrival|arrive|departure|depart|due|"
                         r"deadline|birthday|birth|dob|expiry|expires|expiration|start|end|since|until|from|to|"
                         r"on|day|date|when)(?:$|_|\b)", re.I)
_POSTCODE_FIELD = re.compile(r"zip|post_?code|postal|pin_?code|индекс", re.I)
_PHONE_FIELD = re.compile(r"^(?:number|to|from|recipient|phone|mobile|cell|tel)$|phone|mobile|телефон", re.I)
_FROM_ROLE = re.compile(r"^(?:from|source|origin|pickup|pick_?up|sender|departure|start)(?:_|$)|(?:_|^)from$", re.I)
_TO_ROLE = re.compile(r"^(?:to|dest|destination|target|dropoff|drop_?off|recipient|arrival|end|new)(?:_|$)|(?:_|^)to$",
                      re.I)
_AT_ROLE = re.compile(r"merchant|store|shop|venue|restaurant|hotel|vendor|payee|business|cafe|bar\b", re.I)
_IN_ROLE = re.compile(r"location|city|town|place|where|region|area", re.I)
_LABEL_ROLE = re.compile(r"title|name|label|subject|caption|heading", re.I)
_AS_ROLE = re.compile(r"title|name|label|tag|status|state|category|role|type|kind|group|folder|stage|тег|метк|статус",
                      re.I)
_TOPIC_ROLE = re.compile(r"topic|subject|theme|about|agenda|тем", re.I)
_FOR_ROLE = re.compile(r"assignee|owner|employee|customer|client|person|patient|guest|recipient|member|for_?whom|who|"
                       r"contact",
                       re.I)


_DATETIME_DESCRIBED = re.compile(r"date-?time|date and time|timestamp|\boffset\b|iso\s*8601[^.]{0,40}\btime\b|"
                                 r"\btime\b[^.]{0,40}iso\s*8601|дата и время", re.I)
_LOCAL_TIME = re.compile(r"without\s+(?:an?\s+|the\s+|any\s+)?(?:utc\s+)?(?:time\s*zone\s+)?offset|no\s+(?:utc\s+)"
                         r"?offset|"
                         r"local\s+time|naive|без\s+(?:смещения|часового пояса)|местн\w+\s+врем", re.I)
_EXTENSION_FIELD = re.compile(r"(?:^|_)(?:ext|extension|extensions|suffix|file_?type)(?:$|_)", re.I)


def want(name: str, schema: dict) -> Want:
    from . import slots

    types = slots._types(schema)
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    array = "array" in types
    if array:
        types = slots._types(items)
    described = f"{schema.get('description') or ''} {schema.get('title') or ''}"
    kind = slots.kind_of(name, schema if not array else {**items, "description": described})
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower()
    if _MINOR_UNITS.search(spoken) or (_MINOR_UNITS.search(described) and types & {"integer", "number"}):
        unit = "minor"
    elif re.search(r"(?:^|_)(?:per|a|each|every)_[a-z]+$|(?:^|_)(?:rate|wage|tariff|price|cost|fee)(?:_|$)", spoken) \
            and types & {"integer", "number"}:
        unit = None  # `rate_per_hour`, `price_per_kg`: money for each unit, not an amount of hours or kilograms
    else:
        unit = field_unit(spoken)  # a unit ends the name: `min_size_kb` is in kilobytes
        if unit is None and types & {"integer", "number"}:
            unit = next((u for pattern, u in _FIELD_UNITS
                         if re.search(rf"\bin\s+{pattern.pattern.strip('^$')}", described, re.I)), None)
    if types & {"integer", "number"} and kind in (None, "number") and re.search(r"rate|wage|tariff|tip|charge", spoken):
        kind = "money"  # `hourly_rate`: "at 85 per hour"
    if _POSTCODE_FIELD.search(spoken) and (not types or "string" in types or types & {"integer"}):
        kind = "postcode"
    elif (kind in (None, "text", "name", "place", "id") and "string" in (types or {"string"})
          and _DATE_WORDS.search(spoken) and re.search(r"date|yyyy|day|дат", f"{spoken} {described}", re.I)) or (
            kind in (None, "text") and "string" in (types or {"string"}) and re.search(
                r"(?:^|_)(?:check_?in|check_?out|checkin|checkout|due|deadline|dob|birthday)(?:$|_)", spoken)):
        kind = "date"
    if kind in (None, "text", "id", "name") and _PHONE_FIELD.search(spoken) and kind != "postcode" \
            and "string" in (types or {"string"}) and not re.search(r"e-?mail", described, re.I):
        kind = "phone" if re.search(r"phone|mobile|cell|tel|телефон|^number$", spoken) or "phone" in described.lower() \
            else kind
    if "string" in (types or {"string"}) and (kind in (None, "text", "date", "time", "datetime") or (
            kind == "id" and not re.search(r"(?:^|_)(?:id|ids|key|uid)$", spoken))) and (
            schema.get("format") == "date-time" or _DATETIME_DESCRIBED.search(described)):
        kind = "datetime"
    if "string" in (types or {"string"}) and _EXTENSION_FIELD.search(spoken):
        kind = "extension"
    local = kind == "datetime" and bool(_LOCAL_TIME.search(described))
    words = tuple(w for w in re.findall(r"[a-zа-яё]+", spoken.replace("_", " ")) if w not in _GENERIC_WORDS)
    pattern = schema.get("pattern") if isinstance(schema.get("pattern"), str) else None
    code = bool(re.search(r"\bcode\b|\biso\b|639|bcp\s*47|\bкод\b", described, re.I)) or (
        pattern is not None and spoken_values.matching(pattern, "fr") == ["fr"]
        and not spoken_values.matching(pattern, "French"))
    bare = kind == "extension" and bool(re.search(r"without\s+(?:the\s+|a\s+)?(?:leading\s+)?dot|no\s+(?:leading\s+)"
                                                  r"?dot|"
                                                  r"e\.g\.?\s*['\"]?[a-z]{2,4}\b|без\s+точки", described, re.I))
    pattern_ = schema.get("pattern")
    if kind == "extension" and isinstance(pattern_, str):
        dotted = spoken_values.bounded_search(pattern_, ".log")
        bare = bare or not (dotted and dotted.group(0) == ".log")
    said = " ".join(w for w in re.findall(r"[a-zа-яё]+", f"{spoken.replace('_', ' ')} {described.lower()}")
                    if w not in _GENERIC_WORDS and w not in _VAGUE_WORDS)
    return Want(name, frozenset(types), kind, words, unit, array, code, local, bare, tuple(sorted(stems(said))))


_VAGUE_WORDS = {"code", "format", "value", "values", "e.g", "example", "optional", "required", "string", "list",
                "iso", "key", "item", "items", "field", "one", "name", "names", "название", "имя", "код", "формат"}
"""Description words that label nothing in particular (a label "code" or «название» fits many fields)."""


# ---------------------------------------------------------------- fit and assignment

def _stem(word: str) -> str:
    return word[:5] if len(word) > 5 else word


def _cues(want_: Want, mention: Mention, text: str) -> int:
    """How many of the field's own words stand next to the mention (three words before it, two after), other values
    aside ("221B Baker Street, London": "street" is the address's word, not London's)."""
    if not want_.words:
        return 0
    # the window stops at a full stop and at another value: "a task Quarterly Audit for Priya Nair" -- "task" is
    # Quarterly Audit's word, not Priya Nair's
    before = re.split(r"[.!?;:]\s|_{2,}", text[max(0, mention.start - 40):mention.start])[-1]
    after = re.split(r"[.!?;:](?:\s|$)|_{2,}", text[mention.end:mention.end + 30])[0]
    # before: "zip code 62704", "checking in 2026-04-10"; after: the word right after ("the Dover warehouse")
    if _LABELS_NEXT.match(text[mention.end:mention.end + 30]):
        after = ""  # "subject "Contract v3", body "…"": "body" labels the value after it, not this one
    before, after = re.findall(r"[^\W_]+", before.lower())[-3:], re.findall(r"[^\W_]+", after.lower())[:1]
    near = {_stem(w) for w in before + after}
    near |= {english for w in before + after for stem, english in _RUSSIAN_CUES.items() if w.startswith(stem)}
    near |= {_stem(meaning) for w in before + after if re.search(r"[а-яё]", w)
             for meaning in [english(w)] if meaning}  # «16 ГБ памяти» for `memory_gb`, «диск 100 ГБ» for `disk_gb`
    named = sum(1 for w in want_.words if _stem(w) in near and w not in ("to", "from"))
    if not named and want_.described and mention.kind == "quantity" and mention.unit \
            and re.search(r"[а-яё]", str(mention.unit), re.I) \
            and overlap(stems(str(mention.unit)), set(want_.described)):
        return 1  # «3 пиццы и 2 напитка» for `pizzas` described «Количество пицц»: the counted noun names the field
    if named or not want_.described or mention.kind not in ("quoted", "proper", "tag", "filename"):
        return named
    # the field's description names the value's label, the word right before it: «в чат «Семья»» for `chat`
    # described «Название чата» (a name or a quote; "merge request !484" is no `ref`'s, though its description
    # speaks of merge requests)
    return 1 if overlap(stems(" ".join(before[-1:] + after), synonyms=True), set(want_.described)) else 0


_LABELS_NEXT = re.compile(r"^\s*,?\s*[^\W\d_]+(?:\s*[:—–=]|\s+-\s|\s*-?\s*(?:_|[\"«“']))")
"""Right after a value, a word that labels the next value (", body "…"", ", тема «…»")."""


_RUSSIAN_CUES = {"клиент": "custo", "заказчик": "custo", "покупател": "custo", "сотрудник": "emplo",
                 "работник": "emplo",
                 "город": "city", "отел": "hotel", "гостиниц": "hotel", "компани": "compa", "организаци": "compa",
                 "получател": "recip", "отправител": "sende", "пациент": "patie", "врач": "docto", "склад": "wareh",
                 "товар": "produ", "заказ": "order", "счёт": "invoi", "счет": "invoi", "задач": "task",
                 "проект": "proje", "день": "day", "дневн": "day", "днём": "day", "ночь": "night", "ночн": "night",
                 "холодн": "cold", "горяч": "hot", "пробег": "milea", "вес": "weigh", "рост": "heigh", "длин": "lengt",
                 "ширин": "width", "высот": "heigh", "площад": "area", "взросл": "adult", "дет": "child",
                 "ребён": "child", "ребен": "child", "гост": "guest", "ноч": "night", "сут": "night"}
"""Russian words beside a value that name an English field (stemmed as _stem does): «для клиента Ромашка»."""


def _role(want_: Want, mention: Mention, text: str) -> int:
    """A preposition before the mention that gives it the field's role: "from X" for `from_…`, "at X" for a merchant."""
    before = re.findall(r"[\wа-яё]+", text[max(0, mention.start - 20):mention.start].lower())[-2:]
    name = want_.name
    if mention.kind in ("date", "datetime", "time") and not re.search(r"(?:^|_)(?:from|to|start|end|since|until)(?:$|"
                                                                      r"_)",
                                                                      name, re.I):
        return 0  # "from 3 to 7 June" orders days, not places: an `arrival` date is a stay's first day
    if want_.kind == "name" and mention.kind == "proper" and before and before[-1] in ("в", "во", "из", "до") \
            and not _AT_ROLE.search(name) and not _IN_ROLE.search(name):
        return -2  # «букет роз в Самару»: after в, из, до a name is a place, never the person (who is in the dative)
    if _FROM_ROLE.search(name):
        return 1 if "from" in before or "из" in before or "от" in before else -1 if "to" in before else 0
    if _TO_ROLE.search(name):
        return 1 if {"to", "into", "в", "на"} & set(before) else -1 if "from" in before else 0
    if before and before[-1] in ("called", "named", "titled", "названием") and _LABEL_ROLE.search(name):
        return 1
    if before and before[-1] in ("as", "как") and mention.kind in ("quoted", "proper") and _AS_ROLE.search(name):
        return 1  # 'tag them as "priority"', "save it as Draft"
    if before and before[-1] in ("about", "regarding", "re", "on", "о", "об", "про") and _TOPIC_ROLE.search(name):
        return 1  # "a meeting about Budget Review" for `topic`
    if before and before[-1] in ("in", "near", "в", "во") and _IN_ROLE.search(name) and not _AT_ROLE.search(name):
        return 1
    if before and before[-2:] in (["at", "the"], ["in", "the"], ["near", "the"]) and _IN_ROLE.search(name) \
            and mention.kind in ("proper", "quoted") and not _AT_ROLE.search(name):
        return 1  # "a desk at the Kreuzberg Hub" for `location`
    if before and ("at" in before or "у" in before) and _AT_ROLE.search(name):
        return 1
    if before and before[-1] in ("for", "to", "для") and _FOR_ROLE.search(name) and not _AT_ROLE.search(name) \
            and mention.kind in ("proper", "quoted", "code", "email", "phone"):
        return 1
    return 0


def _value(want_: Want, mention: Mention) -> tuple[Any, int] | None:
    """The value the mention gives the field and how well its kind fits (3 only it, 2 well, 1 possibly), or None."""
    types = set(want_.types) or {"string"}
    numeric = bool(types & {"integer", "number"})
    kind = want_.kind
    m = mention
    if kind is None and m.kind in ("date", "datetime") and not numeric:
        return (m.value, 1) if "string" in types else None  # a string field that may hold a date: its own words decide
    if kind in ("date", "datetime", "time"):
        if "string" not in types:
            return None
        if kind == "time":
            return (m.value, 3) if m.kind == "time" else (m.value[11:16], 2) if m.kind == "datetime" else None
        if kind == "datetime":
            if m.kind == "datetime":
                bare = re.sub(r"(?:Z|[+-]\d{2}:?\d{2})$", "", m.value)
                return (bare if want_.local else m.value if bare != m.value else f"{m.value}Z"), 3
            return (f"{m.value}T09:00:00{'' if want_.local else 'Z'}", 1) if m.kind == "date" else None
        if m.kind == "date":
            return m.value, 3
        return (m.value[:10], 2) if m.kind == "datetime" else None
    if m.kind in ("date", "datetime", "time"):
        return None
    if kind == "extension" or m.kind == "extension":
        if kind != "extension" or m.kind != "extension" or "string" not in types:
            return None
        return (m.value.lstrip(".") if want_.bare_extension else m.value), 3
    if m.kind == "language" or kind == "language":
        bare_end = want_.name.lower() in ("to", "from", "source", "target")  # `to` of a translator: "into French"
        if m.kind != "language" or (kind not in ("language", None, "text") and not bare_end) or "string" not in types:
            return None
        from . import slots
        return (slots._LANGUAGE_CODES.get(m.value, m.value) if want_.code else m.value), 3 if kind == "language" else 1
    if m.kind == "phrase":
        if "string" not in types or kind not in ("text", None):
            return None
        textual = re.search(r"text|source|input|phrase|sentence|content|query|string|message|word", want_.name, re.I)
        return m.value, 3 if textual else 1
    if kind == "postcode":
        if m.kind == "postcode":
            return (m.value if "string" in types else _int(m.value)), 3
        if m.kind == "number" and isinstance(m.value, int) and 4 <= len(str(m.value)) <= 6:
            return (str(m.value) if "string" in types else m.value), 1
        return None
    if m.kind == "postcode":
        return None
    if kind == "phone" or m.kind == "phone":
        if kind == "phone" and m.kind == "phone" and "string" in types:
            return m.value, 3
        return None
    if kind == "domain" or m.kind == "domain":
        if "string" not in types:
            return None
        return (m.value, 3) if kind == m.kind else (m.value, 1) if m.kind == "domain" and kind in (None, "id") else None
    if kind in ("email", "url"):
        return (m.value, 3) if m.kind == kind and "string" in types else None
    if m.kind in ("email", "url"):
        return None
    if numeric:
        if want_.unit == "minor":
            if m.kind == "money":
                return round(m.value * 100), 3
            if m.kind == "number":
                return m.value, 1
            return None
        if want_.unit:
            if m.kind == "quantity" and m.unit in _FACTORS:
                converted = convert(m.value, m.unit, want_.unit)
                if converted is None:
                    return None
                return _tidy(converted), 3
            if m.kind == "number":
                return m.value, 1
            return None
        if m.kind == "money":
            return m.value, 3 if kind == "money" and m.unit else 2 if kind == "money" else 1
        if m.kind == "quantity":
            if m.unit == "%":
                return m.value, 2 if kind == "percent" else 0
            if m.unit and any(_stem(w) == _stem(m.unit) for w in want_.words):
                return m.value, 3  # "4 nights" for `nights`, "3 guests" for `guests`
            if m.unit and re.search(r"[а-яё]", str(m.unit), re.I) and (
                    overlap(stems(str(m.unit)), set(want_.described))
                    or any(_stem(w) == cue for stem_, cue in _RUSSIAN_CUES.items()
                           if str(m.unit).lower().startswith(stem_) for w in want_.words)):
                return m.value, 3  # «2 номера» for `rooms` described «Число номеров», «5 ночей» for `nights`
            return m.value, 1
        if m.kind == "number":
            return m.value, 2 if kind in ("money", "number", "count", "party") else 1
        if m.kind == "code" and kind == "id" and str(m.value).isdigit():
            return int(m.value), 1
        return None
    if "string" not in types:
        return None
    if m.kind in ("money", "quantity", "number"):
        if kind in ("id", None, "text") and m.kind == "number" and isinstance(m.value, int):
            return str(m.value), 1  # "room 214": only the field's own word beside it makes it the room's
        return None
    if m.kind == "code":
        if kind in ("name", "place"):
            return None
        return m.value, 3 if kind == "id" else 2 if kind == "product" else 1
    if m.kind == "path":
        return (m.value, 3) if kind == "path" else None
    if m.kind == "tag":
        tagged = re.search(r"channel|tag|topic|hashtag|room|chat|group|канал|тег|чат", want_.name, re.I)
        return (m.value, 3 if tagged else 1) if kind in (None, "text", "name", "id") else None
    if m.kind == "filename":
        if kind == "path":
            return m.value, 2
        filed = re.search(r"file|name|файл|им[яе]", f"{want_.name} {' '.join(want_.described)}", re.I)
        return (m.value, 2 if filed else 1) if kind in (None, "text", "name", "id", "product") else None
    if m.kind == "address":
        return (m.value, 2) if kind == "address" else None  # whole: its parts are postal.py's
    if kind == "address":
        return None  # an address is read whole (postal.py), never one of its words
    if m.kind in ("proper", "quoted"):
        if kind in ("id", "path", "currency", "language", "timezone", "symbol", "unit", "expression"):
            return None
        from . import slots
        if kind == "name" and not _AT_ROLE.search(want_.name) and slots._known_city(str(m.value)):
            return None  # "Ship a parcel to London": a city is no one's name
        return m.value, 2 if kind == "name" or (kind is None and _FOR_ROLE.search(want_.name)) else 1
    return None


def _int(value: str) -> Any:
    return int(value) if value.isdigit() else MISSING


def _tidy(value: float) -> int | float:
    return int(round(value)) if abs(value - round(value)) < 1e-9 else round(value, 6)


MAX_MENTIONS = 60
"""Values of a request weighed for a tool's fields: a request states a handful; a pasted log is not bound value by
value (and the binding stays quick)."""


def bind(text: str, fields: dict) -> dict[str, Bound]:
    """Each top-level field's value from the request's own words, where one fits (see the module's docstring)."""
    from . import slots

    try:
        key = json.dumps(fields, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return _bind(text, fields)
    return dict(_cached(text[: slots.READ_LIMIT], key, slots.today().isoformat()))


@functools.lru_cache(maxsize=128)
def _cached(text: str, fields: str, today: str) -> tuple[tuple[str, Bound], ...]:
    """bind(), once per request, tool and day: a request is planned, ranked and filled many times over."""
    return tuple(_bind(text, json.loads(fields)).items())


def _bind(text: str, fields: dict) -> dict[str, Bound]:
    found = mentions(text)[:MAX_MENTIONS]
    spoken = number_words.digits(text[:4000])
    wants = [want(name, schema) for name, schema in fields.items() if isinstance(schema, dict)
             and not isinstance(schema.get("enum"), list) and "const" not in schema
             and not (slots_types(schema) & {"object", "boolean"})]
    pairs = []
    asides = [_aside(spoken, [o for o in found if o is not mention]) for mention in found]
    best: dict[str, int] = {}
    for f, want_ in enumerate(wants):
        for mention, spoken_aside in zip(found, asides, strict=True):
            fit = _value(want_, mention)
            if fit is None or fit[0] is MISSING or fit[1] <= 0:
                continue
            cues, role = _cues(want_, mention, spoken_aside), _role(want_, mention, spoken)
            if (role < 0 and not cues) or role < -1:
                continue
            score = fit[1] + 3 * cues + 2 * role
            if mention.place is not None and set(want_.words) & _DIMENSION_WORDS[min(mention.place, 2)]:
                score += 4  # "40x30x10 cm": the first is the length, then the width, then the height
            if fit[1] == 3:
                best[want_.name] = best.get(want_.name, 0) + 1
            pairs.append((-score, f, mention.start, want_, mention, fit[0], fit[1], cues + max(role, 0)))
    pairs.sort(key=lambda p: p[:3])
    bound: dict[str, Bound] = {}
    used: set[int] = set()
    kinds: dict[str, int] = {}
    for want_ in wants:
        kinds[want_.kind or ""] = kinds.get(want_.kind or "", 0) + 1
    numeric_wants = sum(1 for w in wants if set(w.types) & {"integer", "number"} and not w.array)
    numeric_mentions = sum(1 for m in found if m.kind in ("quantity", "number", "money"))
    for _, _, start, want_, _mention, value, fit, cues in pairs:
        if want_.name in bound or start in used or want_.array:
            continue
        used.add(start)
        only = fit == 3 and kinds.get(want_.kind or "", 0) == 1 and best.get(want_.name) == 1
        strong = bool(cues) or only or (fit == 3 and want_.unit is not None)
        alone = numeric_wants == 1 and numeric_mentions == 1 and _mention.kind in ("quantity", "number")
        bound[want_.name] = Bound(value, strong, fit >= 2 or bool(cues) or alone)  # alone: the one number, one field
    free = [w for w in wants if (w.name not in bound or not bound[w.name].sure) and not w.array
            and w.kind in (None, "text", "name") and "string" in (set(w.types) or {"string"})]
    taken = {b.value for b in bound.values() if b.sure}
    left = [m for m in found if m.kind == "quoted" and m.value not in taken]
    if len(free) == 1 and len(left) == 1:  # the one quote nothing else took, for the one field nothing else filled
        bound[free[0].name] = Bound(left[0].value, False, True)
    renamed = any(_NEW.search(w.name) for w in wants)
    for want_ in wants:
        labelled = None if (want_.name in bound and bound[want_.name].strong) or want_.array \
            else _labelled(want_, spoken, renamed)
        if labelled is not None and labelled not in {b.value for name, b in bound.items() if name != want_.name
                                                     and b.strong}:
            bound[want_.name] = Bound(labelled, True)
    return bound


_NEW = re.compile(r"(?:^|_)(?:new|target|renamed?)(?:_|$)|^new[A-Z]", re.I)
_SET_TO = re.compile(r"(?<!\w)(?:set|change|update|switch|turn|make|mark|move|rename|переименуй|измени|поменяй|"
                     r"поставь|переведи)\b[^.!?;]{0,80}?\s(?:to|into|as|на|в)\s+[\"«“']?([\w.@#-]*\w)[\"»”']?"
                     r"(?=\s*(?:[,;!?]|\.(?:\s|$)|$))", re.I)
"""A value set by a command: "set the status of PROJ-12 to blocked", "rename #general to team-chat"."""

_LABEL_LINK = r"\s*(?:(?:it|them|him|her|this|that|these|those|(?:each|all|both)(?:\s+of\s+them)?|them\s+all)\s+)?" \
              r"(?:to|as|is|=|:|—|–|-)\s*"
_NOT_A_HANDLE = {"each", "every", "all", "them", "it", "the", "these", "those", "both", "any", "one", "some", "this",
                 "that", "him", "her", "me", "us", "to", "as", "is", "a", "an", "and", "or", "for", "with", "from"}
_LABELLED_END = r"(?=\s*(?:[,;!?]|\.(?:\s|$)|\band\b|\bи\b|$))"


def _labelled(want_: Want, text: str, renamed: bool = False) -> str | None:
    """A bare word the field's own word labels, the last of its clause: "assign to jdoe." for `assignee`,
    "owner: mkhan," or "owner bsmith" for `owner`; the value a command sets ("rename … to team-chat" for `new_name`,
    "set the status of … to blocked" for `status`, unless the tool has a field for the new value); None when no such
    label is written, or what follows it is an ordinary word ("assign it to the team")."""
    if want_.kind not in (None, "text", "name", "id") or "string" not in (set(want_.types) or {"string"}):
        return None
    command = _SET_TO.search(text)
    if command and command.group(1).lower() not in STOPWORDS and (_NEW.search(want_.name) or (
            not renamed and overlap(stems(command.group(0)), set(want_.described)))):
        return command.group(1).lstrip("#")
    for word in dict.fromkeys([*want_.words, *(w for w in want_.described if re.search(r"[а-яё]", w))]):
        if len(word) < 4 or word in ("from", "with", "into"):
            continue
        stem = re.escape(word[:max(4, len(word) - 3)])
        m = re.search(rf"(?<![\w-]){stem}\w*\b{_LABEL_LINK}([\w.@-]*\w){_LABELLED_END}", text, re.I)  # whole word
        if m and m.group(1).lower() not in STOPWORDS and not re.fullmatch(r"\d+", m.group(1)):
            return m.group(1)
        # no link word: only a handle, a login in lower case with a digit, a dot or "_" ("owner bsmith", "user jdoe42")
        m = re.search(rf"(?<![\w-]){stem}\w*\s+([a-z][a-z0-9]*[._]?[a-z0-9]+)(?=\s|[,;.!?]|$)", text)
        if m and m.group(1) not in STOPWORDS | _NOT_A_HANDLE and (re.search(r"[\d._]", m.group(1))
                                                                  or _HANDLE_FIELD.search(want_.name)):
            return m.group(1)
    return None


_HANDLE_FIELD = re.compile(r"owner|assignee|user|login|handle|author|reviewer|username|account", re.I)


def _aside(text: str, others: list[Mention]) -> str:
    """The text with the other mentions blanked out (their own words are no cue for this one)."""
    chars = list(text)
    for other in others:
        if other.kind in ("proper", "quoted", "address", "code") or (other.kind == "quantity" and other.unit):
            chars[other.start:other.end] = "_" * (other.end - other.start)  # still a word, with no meaning
    return "".join(chars)


def slots_types(schema: dict) -> set[str]:
    from . import slots
    return slots._types(schema)


# ---------------------------------------------------------------- the form a field's description asks for

_E164 = re.compile(r"e\.?\s?164|international format|\+\[1-9\]", re.I)
_DIGITS_ONLY = re.compile(r"digits only|only digits|numbers only|only numbers|no (?:spaces|punctuation|dashes)|"
                          r"without (?:spaces|punctuation|dashes|separators)|только цифр|без (?:пробелов|дефисов)",
                          re.I)
_PHONE_LIKE = re.compile(r"^\+?[\d\s().\-/]{7,}$")


def formatted(schema: dict, value: Any) -> Any:
    """A phone number in the form the field asks for: E.164 ("+14155550123": a ten-digit number is taken as North
    American, one starting 00 as international) or "digits only" (punctuation and spaces dropped). Other values,
    and values the schema would then reject, stay as written."""
    if not isinstance(value, str) or not _PHONE_LIKE.match(value.strip()):
        return value
    said = f"{schema.get('description') or ''} {schema.get('format') or ''} {schema.get('pattern') or ''} " \
           f"{schema.get('title') or ''}"
    digits = re.sub(r"\D", "", value)
    if _E164.search(said):
        written = value.strip()
        if written.startswith("+"):
            return f"+{digits}"
        if digits.startswith("00"):
            return f"+{digits[2:]}"
        if len(digits) == 10 and digits[0] in "23456789":
            return f"+1{digits}"
        if len(digits) == 11 and digits[0] == "1":
            return f"+{digits}"
        return value
    if _DIGITS_ONLY.search(said):
        return digits
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not spoken_values.bounded_search(pattern, value):
        # the written form the pattern rejects ("+44 7700 900123" for `^\+[0-9]{7,15}$`): the same number without
        # its spaces and dashes, when the pattern takes that
        for compact in (f"+{digits}" if value.strip().startswith("+") else digits, digits):
            if spoken_values.bounded_search(pattern, compact):
                return compact
    return value


# ---------------------------------------------------------------- a translation's two languages

_INTO = re.compile(rf"(?:\b(?:in)?to|(?<!\w)на)\s+({_LANGUAGE_WORDS})", re.I)


def target_language(text: str) -> str | None:
    """The language a request translates into ("to French", «на немецкий»), or None."""
    from . import slots

    m = _INTO.search(text[:4000])
    if not m:
        return None
    said = m.group(1).lower()
    return next((name for word, name in slots._LANGUAGES.items() if said.startswith(word)), None)


def phrase_language(text: str) -> str | None:
    """The language of what is to be translated (the quoted or named phrase), by its script: Cyrillic is Russian,
    Latin letters English; None when there is no phrase or the script says nothing."""
    from . import slots

    quoted = slots._QUOTED.search(text[:4000])
    said = next((g for g in quoted.groups() if g), "") if quoted else ""
    if not said:
        m = _TRANSLATE.search(text[:4000])
        said = (m.group(1) or m.group(2) or "") if m else ""
    if re.search(r"[а-яё]", said, re.I):
        return "Russian"
    if re.search(r"[a-z]", said, re.I) and not re.search(r"[^\x00-\x7f]", said):
        return "English"
    return None
