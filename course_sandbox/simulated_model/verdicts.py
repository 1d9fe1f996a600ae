"""The answer to the question itself, before what the tools returned: a yes/no question gets "Yes" or "No" and the
value that decides it ("Yes: the rain chance for Paris is 80%."), a question for the most or the least of a listing
gets the item ("The most expensive is Video: monthly price 15.49.").

Only values the results hold are said, and only when one of them decides the question: a boolean field the question
names ("Is the pool open?" and `open: true`), a chance of rain or a sky's condition for a question about rain, snow
or an umbrella, a status the question asks about ("Has my parcel shipped?" and `status: "in transit"`), a number
field a superlative names ("the cheapest", «самый дорогой»). Anything else gets no lead, and the answer is the
sentences answers.py writes, as before.
"""

import re
from typing import Any

from ..words import words
from .slots import named_values
from .words import overlap, stems

_YES_NO = re.compile(r"^\s*(?:(?:so|and|but|ok|okay|hey|hi),?\s+)?(?:do|does|did|is|are|was|were|will|would|should|"
                     r"shall|can|could|has|have|had|am|must)\b", re.I)
_RU_YES_NO = re.compile(r"(?<!\w)ли(?!\w)")
_WEATHER_WORDS = re.compile(r"\b(?:umbrella|umbrellas|raincoat|rain\w*|drizzle|shower\w*|wet|snow\w*)\b|"
                            r"(?<!\w)(?:зонт\w*|дожд\w*|ливн\w*|снег\w*|снеж\w*|осадк\w*)", re.I)
_WET = re.compile(r"rain|drizzle|shower|storm|thunder|snow|sleet|hail|дожд|ливен|ливн|гроз|снег|мокр", re.I)
_DRY = re.compile(r"sun|clear|dry|fair|cloud|overcast|fog|mist|ясн|солн|сух|облач|пасмурн|туман", re.I)
_CHANCE_KEY = re.compile(r"rain|precip|chance|probab|^pop$|осадк|вероятн", re.I)
_CONDITION_KEY = re.compile(r"condition|summary|description|weather|sky|forecast|conditions|состояни|погод", re.I)
_STATUS_KEY = re.compile(r"status|state|stage|статус|состояни", re.I)
_STATE_ASKED = re.compile(r"\b(?:has|have|is|are|was|were)\s+(?:it|they|my|the|our|this|that)\b[^?]{0,60}?\b"
                          r"([a-z]+(?:ed|en)|open|ready|late|available|on time|in stock)\b", re.I)
_MOST = {"most expensive": ("price cost amount fee", max), "priciest": ("price cost amount fee", max),
         "cheapest": ("price cost amount fee", min), "least expensive": ("price cost amount fee", min),
         "highest": ("", max), "lowest": ("", min), "largest": ("size", max), "biggest": ("size", max),
         "smallest": ("size", min), "heaviest": ("weight", max), "lightest": ("weight", min),
         "longest": ("duration length", max), "shortest": ("duration length", min),
         "самый дорогой": ("price cost amount fee", max), "самая дорогая": ("price cost amount fee", max),
         "самое дорогое": ("price cost amount fee", max), "дороже всего": ("price cost amount fee", max),
         "самый дешёвый": ("price cost amount fee", min), "самый дешевый": ("price cost amount fee", min),
         "самая дешёвая": ("price cost amount fee", min), "самая дешевая": ("price cost amount fee", min),
         "дешевле всего": ("price cost amount fee", min)}
"""Superlatives and the words of the number field each reads (empty: the one number field the items have)."""


def lead(results: list[tuple[dict, str, list[dict]]], question: str, lang: str) -> str | None:
    """The sentence that answers the question from the results, or None when none of them decides it. `results`:
    per successful call, its input, its result's text and its listed items ([] for a single record)."""
    for tool_input, result, items in results:
        said = _superlative(items, question, lang) if items else _yes_or_no(tool_input, result, question, lang)
        if said:
            return said
    return None


def _asks_yes_or_no(question: str) -> bool:
    sentence = _question(question)
    return bool(_YES_NO.match(sentence) or _RU_YES_NO.search(sentence))


def _question(text: str) -> str:
    """The last sentence that ends with a question mark, else the whole text."""
    asked = re.findall(r"[^.!?]*\?", text)
    return asked[-1].strip() if asked else text.strip()


def _yes_or_no(tool_input: dict, result: str, question: str, lang: str) -> str | None:
    if not _asks_yes_or_no(question):
        return None
    fields = {k: v for k, v in named_values(result or "").items() if not isinstance(v, (dict, list))}
    if not fields:
        return None
    subject = _about(tool_input)
    asked = _question(question)
    if _WEATHER_WORDS.search(asked):
        said = _wet_or_dry(fields, subject, lang)
        if said:
            return said
    wanted = stems(asked, synonyms=True)
    given = {str(v).casefold() for v in tool_input.values()}
    for key, value in fields.items():
        if isinstance(value, bool) and overlap(wanted, stems(key.replace("_", " "))):
            if value:
                return words(lang, "Yes: {key} is true{about}.", key=key, about=_for(subject, lang))
            return words(lang, "No: {key} is false{about}.", key=key, about=_for(subject, lang))
    state = _STATE_ASKED.search(asked)
    if state:
        statuses = [(k, v) for k, v in fields.items() if isinstance(v, str) and _STATUS_KEY.search(k)
                    and v.casefold() not in given]
        if len(statuses) == 1:
            key, value = statuses[0]
            return _state_verdict(state.group(1).lower(), key, value, subject, lang)
    return None


_PAST = {"shipped": "shipped dispatched sent transit out delivered arrived collected",
         "sent": "sent shipped dispatched transit delivered", "dispatched": "dispatched shipped sent transit delivered",
         "delivered": "delivered arrived collected", "arrived": "arrived delivered collected", "paid": "paid settled",
         "approved": "approved accepted", "finished": "finished done completed", "completed": "completed done finished"}
"""A state asked about and the statuses that mean it has happened (a delivered parcel has shipped)."""
_NOT_YET = re.compile(r"process|pend|prepar|await|wait|creat|\bnew\b|order|placed|receiv|hold|draft|queue|unpaid|"
                      r"not[ _]|scheduled|open|transit|out for", re.I)
"""Statuses of something that has not happened yet: "has it shipped?" with `processing` is a no."""


def _state_verdict(asked: str, key: str, value: str, subject: str, lang: str) -> str | None:
    """Yes when the status is the state asked about (or one that means it), No when the status is one of something
    not yet done, and nothing when the status says neither ("Has it shipped?" and `lost`)."""
    meaning = stems(_PAST.get(asked, asked))
    if overlap(meaning, stems(value.replace("_", " "))):
        return _verdict(True, key, value, subject, lang)
    if asked in _PAST and _NOT_YET.search(value):
        return _verdict(False, key, value, subject, lang)
    return None


def _wet_or_dry(fields: dict[str, Any], subject: str, lang: str) -> str | None:
    """Rain (or snow) from a chance of it, else from the sky's condition."""
    for key, value in fields.items():
        if _CHANCE_KEY.search(key) and isinstance(value, (int, float)) and not isinstance(value, bool):
            chance = value * 100 if 0 < value <= 1 and not float(value).is_integer() else value
            shown = f"{value:g}%" if chance == value else f"{value:g}"
            if chance >= 50:
                return _verdict(True, key, shown, subject, lang)
            if chance < 30:
                return _verdict(False, key, shown, subject, lang)
            return words(lang, "Possibly: the {key}{about} is {value}.", key=key.replace("_", " "),
                         about=_for(subject, lang), value=shown)
    for key, value in fields.items():
        if _CONDITION_KEY.search(key) and isinstance(value, str) and value.strip():
            if _WET.search(value):
                return _verdict(True, key, value, subject, lang)
            if _DRY.search(value):
                return _verdict(False, key, value, subject, lang)
    return None


def _verdict(yes: bool, key: str, value: Any, subject: str, lang: str) -> str:
    shown = value if isinstance(value, str) else str(value).lower()
    shown = shown.rstrip(".")
    if yes:
        return words(lang, "Yes: the {key}{about} is {value}.", key=key.replace("_", " "), about=_for(subject, lang),
                     value=shown)
    return words(lang, "No: the {key}{about} is {value}.", key=key.replace("_", " "), about=_for(subject, lang),
                 value=shown)


def _for(subject: str, lang: str) -> str:
    return words(lang, " for {subject}", subject=subject) if subject else ""


def _about(tool_input: dict) -> str:
    """What a call was about, in the user's words: its one short string input ("Paris"), else nothing."""
    strings = [v for v in tool_input.values() if isinstance(v, str) and 0 < len(v) <= 60]
    return strings[0] if len(strings) == 1 else ""


def _superlative(items: list[dict], question: str, lang: str) -> str | None:
    """The item a question for the most or the least of something asks for, by the number field it names."""
    lowered = question.casefold()
    found = [(lowered.find(phrase), phrase) for phrase in _MOST if phrase in lowered]
    if not found or not re.search(r"\b(?:which|what|who)\b|(?<!\w)(?:как\w*|како\w*|что|кто)(?!\w)", lowered):
        return None
    phrase = min(found)[1]
    field_words, pick = _MOST[phrase]
    numeric = [k for k, v in items[0].items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if field_words:
        numeric = [k for k in numeric if overlap(stems(field_words), stems(k.replace("_", " ")))]
    if len(numeric) != 1 or not all(isinstance(item.get(numeric[0]), (int, float)) for item in items):
        return None
    key = numeric[0]
    chosen = pick(items, key=lambda item: item[key])
    if sum(1 for item in items if item[key] == chosen[key]) > 1:
        return None  # a tie: no one item is the answer
    name = next((v for k, v in chosen.items() if isinstance(v, str) and not re.search(r"(?:^|_)id$", k)),
                next((v for v in chosen.values() if isinstance(v, str)), ""))
    if not name:
        return None
    return words(lang, "{which}: {name}, {key} {value}.", which=phrase[:1].upper() + phrase[1:], name=name,
                 key=key.replace("_", " "), value=f"{chosen[key]:g}" if isinstance(chosen[key], float) else chosen[key])
