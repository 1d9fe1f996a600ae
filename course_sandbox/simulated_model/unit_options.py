"""The units of a conversion, for a tool's from/to enum fields: "How many kilometres is 26.2 miles?" converts from
`mi` to `km`; «Сколько фунтов в 12 килограммах?» from kilograms to pounds; "451°F in celsius" from F to C.

The unit written right after the number is what the number is in (the source); the other unit the request names is
the target. Without a number beside a unit, a unit after "to", "into", "in" or «в» is the target. An option is
matched by what it means ("mi", "miles", "MILE"), so any schema's spelling works."""

import re
from typing import Any

_UNITS = {
    "km": (r"kilomet(?:er|re)s?|km|км|километр\w*",
           {"km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"}),
    "mi": (r"miles?|mi|мил[ьяие]\w*", {"mi", "mile", "miles"}),
    "m": (r"met(?:er|re)s?|m|метр(?:а|ов|ах|ы)?|м", {"m", "meter", "meters", "metre", "metres"}),
    "cm": (r"centimet(?:er|re)s?|cm|см|сантиметр\w*", {"cm", "centimeter", "centimeters", "centimetre", "centimetres"}),
    "ft": (r"feet|foot|ft|фут(?:ов|а|ах)?", {"ft", "foot", "feet"}),
    "in": (r"inch(?:es)?|дюйм\w*", {"in", "inch", "inches"}),
    "kg": (r"kilograms?|kilos?|kg|кг|килограмм\w*", {"kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"}),
    "g": (r"grams?|g|г|грамм\w*", {"g", "gram", "grams"}),
    "lb": (r"pounds?|lbs?|фунт\w*", {"lb", "lbs", "pound", "pounds"}),
    "oz": (r"ounces?|oz|унци\w*", {"oz", "ounce", "ounces"}),
    "l": (r"lit(?:er|re)s?|l|л|литр\w*", {"l", "liter", "liters", "litre", "litres"}),
    "gal": (r"gallons?|gal|галлон\w*", {"gal", "gallon", "gallons"}),
    "c": (r"°\s?c|℃|celsius|centigrade|цельси\w*", {"c", "celsius", "°c", "degc", "centigrade"}),
    "f": (r"°\s?f|℉|fahrenheit|фаренгейт\w*", {"f", "fahrenheit", "°f", "degf"}),
    "k": (r"kelvins?|кельвин\w*", {"k", "kelvin", "kelvins"}),
}
_WRITTEN = [(unit, re.compile(rf"(?<![\w°])(?:{pattern})(?![\w])", re.I)) for unit, (pattern, _) in _UNITS.items()]
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?")
_TARGET_CUE = re.compile(r"(?:\b(?:to|into|in|as)|(?<!\w)(?:в|во))\s+(?:\w+\s+)?$", re.I)
_FROM = re.compile(r"(?:^|_|\b)(?:from|source|src|input|original|base|orig)(?:$|_|\b)|^from[A-Z]|(?<=[a-z])From$"
                   r"|^(?:source|input|base)[A-Z]", re.I)
_TO = re.compile(r"(?:^|_|\b)(?:to|target|dest|destination|output|into|result)(?:$|_|\b)|^to[A-Z]|(?<=[a-z])To$"
                 r"|^(?:target|output|dest)[A-Z]", re.I)


def meaning_of(option: Any) -> str | None:
    """The unit an enum option stands for ("Miles", "°F", "kilograms"), or None."""
    if not isinstance(option, str):
        return None
    spoken = option.strip().lower().replace("degrees ", "").replace(" ", "")
    return next((unit for unit, (_, spellings) in _UNITS.items() if spoken in spellings), None)


def said(text: str) -> tuple[str | None, str | None]:
    """The source and target units a request names (see the module's docstring); None where it names none."""
    found = []
    for unit, pattern in _WRITTEN:
        for m in pattern.finditer(text):
            if len(m.group(0)) <= 2 and not re.search(r"\d\s?°?\s*$", text[:m.start()]):
                continue  # "m", "in", "g", «м» alone are units only right after a number
            found.append((m.start(), m.end(), unit))
    found.sort()
    found = [f for k, f in enumerate(found) if not any(o[0] <= f[0] < o[1] for o in found[:k])]
    if not found:
        return None, None
    numbered = next((f for f in found if re.search(r"\d\s*(?:°|градус\w*|degrees?)?\s*$", text[:f[0]])), None)
    others = [f for f in found if f is not numbered and f[2] != (numbered[2] if numbered else None)]
    if numbered:
        return numbered[2], others[0][2] if others else None
    target = next((f for f in found if _TARGET_CUE.search(text[:f[0]])), None)
    source = next((f for f in found if f is not target), None)
    return (source[2] if source else None), (target[2] if target else None)


_IMPERIAL = {"mi", "ft", "in", "lb", "oz", "gal", "f"}
_METRIC = {"km", "m", "cm", "kg", "g", "l", "c"}


def option(name: str, options: list, text: str) -> Any:
    """The option of a from/to unit field the request names, or a system of units ("in Fahrenheit" for `units`
    [metric, imperial]); None when the field is neither, or no unit is said."""
    systems = {str(o).lower(): o for o in options if isinstance(o, str) and o.lower() in ("metric", "imperial")}
    if len(systems) == 2:
        written = {unit for unit, pattern in _WRITTEN for m in pattern.finditer(text) if len(m.group(0)) > 2}
        said_in = "imperial" if written & _IMPERIAL and not written & _METRIC else \
            "metric" if written & _METRIC and not written & _IMPERIAL else None
        return systems.get(said_in) if said_in else None
    meanings = {meaning_of(o): o for o in options if meaning_of(o) is not None}
    if len(meanings) < 2:
        return None
    source, target = said(text)
    if _FROM.search(name):
        return meanings.get(source)
    if _TO.search(name):
        return meanings.get(target)
    return None
