"""More values a user states in words, for slots.py: phone numbers, times of day, street addresses, lower-case
ids (`art-991`), directories (`/tmp/demo`), money (`$5.50`, `5.50 dollars each`), counts
(`2 packs`), the size of a party (`4 guests`, `party of 6`), product names (`2 packs of Green Tea`), values a
schema's `pattern` recognises, and booleans from phrasing ("nonstop", "dry run", "include the history").

A real model fills `phone_number` with the number the user wrote, not an e-mail address and not
"example phone number"; these readers let the simulated one do the same.
"""

import re
from typing import Any

from . import consent
from .generation_bounds import bounded_search, checkable_length
from .scalar_values import MISSING

PHONE = re.compile(r"(?<![\w@+])(?:\+\d[\d\s().-]{6,}\d|\d[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{2}[\s.-]\d{2}|"
                   r"\(?\d{2,4}\)?[\s.-]\d{2,4}[\s.-]\d{2,5}(?:[\s.-]\d{2,5})?|\(?0\d{2,4}\)?[\s.-]\d{6,8})(?![\w@])")
"""A phone number as written: international (+…), a Russian trunk-prefixed one (8 800 555 35 35, 8-916-123-45-67,
8 (916) 123-45-67), groups of digits with separators, or a trunk-0 area code and the rest in one group (07700 900461,
020 79460958)."""
_STREET = (r"Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane|Ln\.?|Boulevard|Blvd\.?|Drive|Dr\.?|Way|Court|Ct\.?|"
           r"Place|Pl\.?|Square|Sq\.?|Terrace|Parkway|Highway|Hwy\.?|Close|Crescent|Gardens")
ADDRESS = re.compile(rf"\b\d{{1,5}}[A-Za-z]?,?\s+(?:[A-Z][\w'.-]*\s+){{0,4}}(?:{_STREET})(?![\w])"
                     r"(?:,\s*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})*(?:,?\s+[A-Z]{2})?(?:,?\s+\d{5}(?:-\d{4})?)?")
LOWER_ID = re.compile(r"(?<![\w@./-])[a-z]{1,8}[-_]\d+[\w-]*\b")
DIRECTORY = re.compile(r"(?<![\w.:/@])(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*/?")
_AMOUNT = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
_COUNTED = (r"hours?|minutes?|seconds?|days?|nights?|weeks?|months?|years?|people|persons?|guests?|adults?|"
            r"children|kids|seats?|rooms?|tickets?|items?|units?|pieces?|packs?|boxes|bottles?|times|"
            r"час\w*|минут\w*|дн\w*|ноч\w*|недел\w*|человек\w*|гост\w*|мест\w*|штук\w*")
"""Words after a number that count something: "for 3 hours" is no price."""
_SPACED = r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?(?![\d,])|" + _AMOUNT[1:]
"""An amount with a currency beside it may group its thousands with spaces: «15 000 рублей», "€ 1 250"."""
_MONEY = [re.compile(rf"[$€£¥₽]\s?{_SPACED}"),
          re.compile(rf"(?<![\d.,]){_SPACED}\s?(?:dollars?|bucks|usd|euros?|eur|pounds?|gbp|yen|рубл\w*|руб\b\.?|"
                     r"долл\w*|евро|фунт\w*|€|\$|₽)", re.I),
          re.compile(rf"(?<![\d.,]){_SPACED}\s+(?:[A-Z][a-z]+\s+){{0,2}}(?:francs?|yuan|rupees?|pesos?|kron(?:or|a|er)|"
                     r"crowns?|zloty|lira|shekels?|reais|rand|dirhams?|won|rubles?|roubles?|dollars?|euros?|pounds?)\b"),
          re.compile(rf"(?:\bat|\bfor|\bcosts?|\bpriced at|\bprice of|\bpay|\bпо|\bза)\s+{_AMOUNT}(?=\s+each|\s*$|[\s,"
                     r".;!?])"
                     rf"(?!\s*(?:{_COUNTED})\b)")]
_UNIT = r"(?:packs?|packets?|boxes|box|bottles?|units?|items?|pieces?|pcs|cups?|bags?|tickets?|cans?|jars?|pairs?|x)"
_COUNT = [re.compile(rf"(?<![\d.,$€£])\b(\d+)\s+{_UNIT}\b", re.I),
          re.compile(r"\b(?:order|buy|want|need|get|quantity|qty)\s*:?\s+(\d+)\b(?![.,]\d)", re.I),
          re.compile(r"(?<![\d.,$€£])\b(\d+)\s+(?=[A-Z][a-z])")]
_PARTY = [re.compile(r"(?<![\d.,$€£])\b(\d+)\s+(?:guests?|people|persons|diners|adults|passengers|"
                     r"гост\w*|человек\w*|персон\w*)\b", re.I),
          re.compile(r"\b(?:party|group) of (\d+)\b", re.I)]
PRODUCT = re.compile(rf"\b\d+\s+(?:{_UNIT}\s+of\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){{0,3}})")
_NEGATION = re.compile(r"\b(?:no|not|don'?t|do not|without|never|skip|exclude|excluding|cannot|can'?t|won'?t|"
                       r"isn'?t|aren'?t|wasn'?t|weren'?t|doesn'?t|didn'?t|shouldn'?t|wouldn'?t|нет|не|без)"
                       r"\s+(?:\w+\s+){0,2}$")
_FLAG_VERBS = {"include", "send", "show", "add", "enable", "allow", "get", "return", "fetch", "apply", "run", "has",
               "want", "need", "keep"}
"""A flag's verb is often left out ("with the history" for include_history), so its nouns decide."""
_FLAG_SYNONYMS = {"nonstop": ("direct",), "direct": ("nonstop",), "dry": ("simulate", "preview"),
                  "verbose": ("detailed", "details"), "recursive": ("subfolders", "subdirectories"),
                  "refundable": ("refund",), "urgent": ("asap", "urgently"), "public": ("publicly",),
                  "force": ("forcibly", "anyway"), "notify": ("notification", "notifications", "let know")}
"""Other words a user sets a flag with: "direct flights" for nonstop, "a detailed report" for verbose."""
_FLAG_FILLERS = {"is", "should", "flag", "enabled", "enable", "only", "do", "use", "with", "the", "a", "an", "to",
                 "be", "if", "whether", "allow", "option", "opt", "opted", "optin"}


def phones(text: str) -> list[str]:
    """Phone numbers as written: '+44 20 7946 0958', '123-456-7890' (seven digits or more)."""
    return _unique(m.strip() for m in PHONE.findall(text) if sum(ch.isdigit() for ch in m) >= 7)


_RU_ADDRESS = re.compile(
    r"(?<!\w)(?:(?:г\.|город)\s*[А-ЯЁ][а-яё-]+,\s*)?(?:ул\.|улица|пр-т|пр\.|проспект|пер\.|переулок|наб\.|набережная|"
    r"бул\.|бульвар|ш\.|шоссе|пл\.|площадь|мкр\.?|микрорайон)\s*[А-ЯЁ0-9][\w.-]*(?:\s+[А-ЯЁ][\w-]*)*"
    r"(?:,?\s*(?:д\.|дом|корп\.|корпус|к\.|стр\.|строение|кв\.|квартира|офис|оф\.|подъезд|под\.|эт\.|этаж)"
    r"\s*\d+[\w/-]*)*"
    r"(?:,\s*(?:г\.\s*)?[А-ЯЁ][а-яё-]+(?![\w-])(?!\s+\d))?")
"""A Russian address: «ул. Пушкина, д. 10, кв. 5, Москва», «г. Казань, пр. Победы, д. 3»."""


def addresses(text: str) -> list[str]:
    """Street addresses: '10 Downing Street, London', '1600 Pennsylvania Ave, Washington, DC 20500',
    «ул. Пушкина, д. 10, кв. 5, Москва»."""
    return _unique([*(m.group(0).rstrip(",. ") for m in ADDRESS.finditer(text)),
                    *(m.group(0).rstrip(",. ") for m in _RU_ADDRESS.finditer(text))])


TIME = re.compile(r"(?<![\d:.])(?:(?:(?<=(?<!\w)[вк]\s)|(?<=(?<!\w)до\s)|(?<=(?<!\w)с\s))(1[0-2]|0?[1-9])"
                  r"(?::([0-5]\d))?\s*(?:час(?:а|ов)?\s+)?(утра|дня|вечера|ночи)(?!\w)"
                  r"|([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?!\d)\s*(am|pm|a\.m\.|p\.m\.)?"
                  r"|(1[0-2]|0?[1-9])\s*(am|pm|a\.m\.|p\.m\.)(?!\w))", re.I)
"""A time of day: «в 8 утра», «в 9:30 вечера», «в 3 часа дня» (after в, к, до, с: «2 ночи» alone is two nights);
19:30, 7:30 pm, 3pm."""
_AFTERNOON = {"утра": False, "дня": True, "вечера": True, "ночи": False}


def times(text: str) -> list[str]:
    """Times of day as HH:MM: '19:30' -> 19:30, '7:30 pm' -> 19:30, '3pm' -> 15:00, «в 8 утра» 08:00."""
    found = []
    for m in TIME.finditer(text):
        if m[3]:  # «в 8 утра» 08:00, «в 9 вечера» 21:00, «в 12 ночи» 00:00
            hour = int(m[1]) % 12 + (12 if _AFTERNOON[m[3].lower()] else 0)
            found.append(f"{hour:02d}:{int(m[2] or 0):02d}")
            continue
        hour, minute, half = (int(m[4]), int(m[5]), m[6]) if m[4] else (int(m[7]), 0, m[8])
        half = (half or "").lower().replace(".", "")
        if half and hour > 12:
            continue
        hour = hour % 12 + (12 if half == "pm" else 0) if half else hour
        found.append(f"{hour:02d}:{minute:02d}")
    return _unique(found)


_SLUG = re.compile(r"(?<![\w@./:-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w@/-]|\.\w)")
_VERB_FIRST = re.compile(r"(?:^|[.!?;:]\s+|\b(?:please|then|and)\s+)[A-Za-z]{3,}(?:\s+(?:the|a|an|up|down|on|off))"
                         r"?\s+$", re.I)
_NOT_SLUGS = {"e-mail", "check-up", "follow-up", "wi-fi", "log-in", "sign-in", "sign-up", "set-up", "pick-up",
              "drop-off", "read-only", "up-to-date", "on-call", "real-time", "full-time", "part-time", "one-off",
              "t-shirt", "x-ray", "co-worker", "re-run", "dry-run", "in-person", "long-term", "short-term"}


_THING_BEFORE = re.compile(r"\b(?:in|from|for|of|on|to)\s+(?:the\s+)?(?:(?:repo|repository|project|service|app|branch|"
                           r"package|module|host|server|cluster|bucket|channel)\s+)?$|\b(?:repo|repository|project|"
                           r"service|app|branch|package|module|host|server|cluster|bucket)\s+$", re.I)
"""Where a hyphenated name is a thing's: "the open pull requests in web-frontend", "repo billing-service"."""


def slugs(text: str) -> list[str]:
    """Lower-case hyphenated identifiers: "payments-api" right after the action verb ("Deploy payments-api"),
    or any with a digit ("lamp-kitchen-02"); hyphenated words ("check-up", "e-mail") are not."""
    found = []
    for m in _SLUG.finditer(text):
        slug = m.group(1)
        if slug in _NOT_SLUGS:
            continue
        if any(ch.isdigit() for ch in slug) or _VERB_FIRST.search(text[:m.start()]) \
                or _THING_BEFORE.search(text[:m.start()]):
            found.append(slug)
    return _unique(found)


def lower_ids(text: str) -> list[str]:
    """Ids in lower case with a digit part: 'art-991', 'u-17', 'cust_123'."""
    return _unique(LOWER_ID.findall(text))


def directories(text: str) -> list[str]:
    """Absolute or home-relative paths without an extension: '/tmp/demo', '~/notes/'."""
    return _unique(m for m in DIRECTORY.findall(text) if len(m) > 1)


def money(text: str) -> list[int | float]:
    """Amounts of money in the order written: '$25.50', '5.50 dollars each', 'at 5.50'."""
    found = sorted((m.start(), m.group(1)) for pattern in _MONEY for m in pattern.finditer(text))
    return _unique(_amount(value) for _, value in found)


_COUNTED_AFTER = re.compile(r"\s+(?!(?:each|apiece|per|an?|for|and|or|to|in|on|at|by|the|plus|и|за|в|на|по)\b)"
                            r"[a-zа-яё]{3,}", re.I)
"""A word of what is counted after a bare number ("for 5 licences"): a count, not a price "for 5"."""
_CURRENCY_MARK = re.compile(r"[$€£¥₽]|(?-i:\b[A-Z]{3}\b)|dollar|euro|pound|рубл|руб\.?", re.I)


def money_spans(text: str) -> list[tuple[int, int]]:
    """Where the amounts of money stand, in the order written, one span per amount (overlaps merged)."""
    spans = sorted(span for span in {m.span() for pattern in _MONEY for m in pattern.finditer(text)}
                   if not _COUNTED_AFTER.match(text, span[1]) or _CURRENCY_MARK.search(text[span[0]:span[1]]))
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def counts(text: str) -> list[int]:
    """How many of something: '2 packs', 'order 3', '2 Green Tea'."""
    houses = [m.span() for m in ADDRESS.finditer(text)]  # "a pizza to 42 Elm Street": 42 is the house, no count
    found = sorted((m.start(1), m.group(1)) for pattern in _COUNT for m in pattern.finditer(text))
    return _unique(int(value) for start, value in found if len(value) <= 9
                   and not any(a <= start < b for a, b in houses))


_PERCENT = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s?(?:%|percent\b|per cent\b|процент\w*)", re.I)


_UNIT_WORDS = {"kg": r"kg|kilo\w*|кг|килограмм\w*", "km": r"km|kilomet\w*|км|километр\w*",
               "mi": r"mi|miles?", "lb": r"lbs?|pounds?", "lbs": r"lbs?|pounds?", "g": r"g|grams?|г|грамм\w*",
               "m": r"m|met(?:er|re)s?|м|метр\w*", "cm": r"cm|см", "mm": r"mm|мм", "min": r"min\w*|мин\w*",
               "minutes": r"min\w*|мин\w*", "mins": r"min\w*|мин\w*", "hours": r"h|hrs?|hours?|час\w*",
               "hrs": r"h|hrs?|hours?|час\w*", "days": r"days?|дн\w*|день", "nights": r"nights?|ноч\w*",
               "weeks": r"weeks?|недел\w*", "seconds": r"s|sec\w*|секунд\w*", "secs": r"s|sec\w*|секунд\w*",
               "stars": r"stars?|звезд\w*|звёзд\w*", "degrees": r"degrees?|°|градус\w*",
               "celsius": r"°?c\b|degrees?|celsius|градус\w*", "fahrenheit": r"°?f\b|degrees?|fahrenheit",
               "liters": r"l|lit(?:er|re)s?|л|литр\w*", "litres": r"l|lit(?:er|re)s?|л|литр\w*"}
"""What a unit in a property's name is written as in a request: `weight_kg` takes "3.2 kg", «1,5 кг»."""
_NUMBER_BEFORE = r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?"


_HOURS = r"(?:hours?|hrs?|h|час\w*)"
_MINUTES = r"(?:minutes?|mins?|m|минут\w*|мин)"
_FRACTION = {"a half": 0.5, "half": 0.5, "a quarter": 0.25, "quarter": 0.25, "three quarters": 0.75, "3 quarters": 0.75}
_DURATION = re.compile(
    r"(?<![\w.,])(?:(?P<q>[123])\s+quarters?\s+of\s+an\s+hour\b|(?P<h>\d+(?:[.,]\d+)?|an?|one)(?:\s+and\s+(?P<hf>a "
    rf"half|a quarter|(?:three|3) quarters))?\s*-?\s*{_HOURS}"
    rf"(?:\s*(?:,|and)?\s*(?P<m>\d+)\s*{_MINUTES}(?![\w])|\s+and\s+(?P<f>a half|a quarter|(?:three|3) quarters))"
    r"?(?![\w])"
    rf"|(?P<part>half|a quarter|quarter|three quarters)\s+(?:of\s+)?an\s+hour\b"
    rf"|(?P<ru>полтора|полтора)\s+час\w*|(?P<half>полчаса|пол\s+часа))", re.I)
"""Durations said with hours: "an hour and a half", "1.5 hours", "2 h 15 min", "half an hour", «полтора часа»."""


def durations(text: str) -> list[float]:
    """Durations written with hours (see _DURATION), in minutes, in the order written."""
    found = []
    for m in _DURATION.finditer(text):
        if m["q"]:
            minutes = 15 * int(m["q"])
        elif m["part"]:
            minutes = 60 * _FRACTION[m["part"].lower()]
        elif m["ru"]:
            minutes = 90
        elif m["half"]:
            minutes = 30
        else:
            hours = 1.0 if m["h"].lower() in ("a", "an", "one") else float(m["h"].replace(",", "."))
            hours += _FRACTION.get((m["hf"] or m["f"] or "").lower(), 0)
            minutes = 60 * hours + (int(m["m"]) if m["m"] else 0)
        found.append(minutes)
    return found


_DURATION_UNITS = {"minutes": 1, "mins": 1, "min": 1, "minute": 1, "seconds": 1 / 60, "secs": 1 / 60, "sec": 1 / 60,
                   "hours": 60, "hrs": 60, "hour": 60}


def unit_numbers(name: str, text: str) -> list[int | float]:
    """Numbers written right before the unit a property's name ends with or holds (`weight_kg`: "3.2 kg";
    `duration_minutes`: "68 minutes"; `stars`: "4 stars"; `nights`: "3 nights"), in the order written: a
    quantity takes the number next to its unit, not the house number of an address before it."""
    words = _words(name)
    found: list[tuple[int, str]] = []
    for word in words:
        written = _UNIT_WORDS.get(word) or (rf"{re.escape(word.rstrip('s'))}s?" if len(word) >= 4 and word.endswith("s")
                                             and word not in ("items", "units", "is") else None)
        if written is None:
            continue
        for m in re.finditer(rf"{_NUMBER_BEFORE}(?:{written})(?![\w])", text, re.I):
            found.append((m.start(), m.group(1)))
    per = next((_DURATION_UNITS[w] for w in words if w in _DURATION_UNITS), None)
    if per is not None:  # `duration_minutes` takes "an hour and a half" as 90, `timeout_seconds` "2 minutes" as 120
        spoken = [(m.start(), minutes) for m, minutes in zip(_DURATION.finditer(text), durations(text), strict=False)]
        if per != 60:
            spoken = [(at, minutes / per) for at, minutes in spoken]
        elif not spoken:
            return _unique(_amount(value) for _, value in sorted(found))
        shown = [(at, int(v) if float(v).is_integer() else round(v, 4)) for at, v in spoken]
        plain = [(at, _amount(value)) for at, value in found if not any(a <= at < a + 40 for a, _ in spoken)]
        return _unique(v for _, v in sorted([*shown, *plain]))
    return _unique(_amount(value) for _, value in sorted(found))


def percents(text: str) -> list[int | float]:
    """Percentages in the order written ("an 18% tip", «15 процентов»): a `tip_percent` takes 18, not the
    party size written before it."""
    return _unique(_amount(m.group(1)) for m in _PERCENT.finditer(text))


_TERM = re.compile(r"\bwhat\s+(?:does|do|is)\s+(?:the\s+word\s+)?[\"'“«]?([A-Za-z][\w'-]*)[\"'”»]?\s+mean\b"
                   r"|\b(?:define|definition of|meaning of|the word)\s+[\"'“«]?([A-Za-z][\w'-]*)"
                   r"|(?:значит|означает|значение)\s+(?:слов\w*\s+(?=[\"«]?\w))?[\"«]?(?!слов)([A-Za-zА-Яа-яЁё][\w-]*)",
                   re.I)


def terms(text: str) -> list[str]:
    """Words the user asks the meaning of: "What does serendipity mean?", "define ephemeral", «что значит слово
    «спасибо»» -- what a dictionary tool's `word` takes."""
    return _unique(next(g for g in m.groups() if g).strip("'’") for m in _TERM.finditer(text))


_COLLECTIVE = {"двоих": 2, "троих": 3, "четверых": 4, "пятерых": 5, "шестерых": 6, "семерых": 7, "восьмерых": 8,
               "девятерых": 9, "десятерых": 10}
_COLLECTIVE_PARTY = re.compile(r"(?<!\w)(?:на|для|нас)\s+(" + "|".join(_COLLECTIVE) + r")(?!\w)", re.I)
"""Russian collective numerals for people: «столик на пятерых» is a party of 5."""


def party_sizes(text: str) -> list[int]:
    """How many people: "4 guests", "a party of 6", «на 4 гостей», «на пятерых»."""
    found = sorted((m.start(), m.group(1)) for pattern in _PARTY for m in pattern.finditer(text))
    found = sorted(found + [(m.start(), str(_COLLECTIVE[m.group(1).lower()]))
                            for m in _COLLECTIVE_PARTY.finditer(text)])
    return _unique(int(value) for _, value in found if len(value) <= 6)


_UNITS = ("celsius|fahrenheit|kelvin|miles?|kilomet(?:er|re)s?|km|met(?:er|re)s?|centimet(?:er|re)s?|cm|millimet(?:er|"
          "re)s?|"
          "mm|feet|foot|ft|inch(?:es)?|yards?|pounds?|lbs?|kilograms?|kg|grams?|ounces?|oz|lit(?:er|re)s?|gallons?|"
          "cups?|seconds?|minutes?|hours?|days?|weeks?|months?|years?|bytes?|kilobytes?|megabytes?|gigabytes?|"
          "kb|mb|gb|tb")
UNIT = re.compile(rf"\b(?:{_UNITS})\b", re.I)


def units(text: str) -> list[str]:
    """Units of measure in the order written: 'Convert 3 miles to kilometers' -> miles, kilometers; the unit written
    beside a number first ("How many kilometers is 26 miles?": miles, then kilometers), as it is what one has."""
    beside = [m.group(1).lower() for m in re.finditer(rf"\d\s?({UNIT.pattern})", text, re.I)]
    written = [m.lower() for m in UNIT.findall(text)]
    return _unique([*(unit for unit in beside if unit in written), *written])


_OF_PRODUCT = re.compile(rf"\b\d+\s+{_UNIT}\s+of\s+((?:[\w'-]+\s+){{0,2}}?[\w'-]+)"
                         r"(?=\s*(?:[.,;!?]|$|\s(?:for|to|from|at|by|on|in|and|please|today|tomorrow)\b))", re.I)


_RU_PRODUCT = re.compile(r"(?<![\d.,])\d+\s+(?:коробок|коробк[иу]|пачек|пачк[иу]|бутылок|бутылк[иу]|банок|банк[иу]|"
                         r"упаковок|упаковк[иу]|мешков|мешк[аи]|рулонов|рулона?|штук[и]?|ящиков|ящика?|пакетов|пакета?)"
                         r"\s+([а-яё]{3,}(?:\s+(?!(?:для|в|во|на|с|со|по|к|из|от|до|и|или)(?!\w))[\wа-яёА-ЯЁ-]+)?)"
                         r"(?=[\s.,;!?]|$)", re.I)
"""«12 коробок бумаги А4»: what is counted after a Russian packaging word."""


_MEASURED = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)?\s*(?:g|grams?|kg|kilos?|kilograms?|ml|l|litres?|liters?|oz|ounces?|"
                       r"lbs?|pounds?|cups?|tbsp|tsp|slices?|portions?|servings?)\s+of\s+(?:cooked\s+|raw\s+|fresh\s+|"
                       r"dried\s+|boiled\s+)?((?:[a-z][\w'-]*\s+){0,2}?[a-z][\w'-]*)(?=\s*(?:[.,;!?]|$|\s(?:for|in|"
                       r"with|and|please|today)\b))|"
                       r"(?<![\d.,])\d+(?:[.,]\d+)?\s*(?:г|грамм\w*|кг|килограмм\w*|мл|литр\w*|л)\s+([а-яё]{3,})",
                       re.I)
"""What is measured: "150 grams of cooked quinoa" (quinoa), «200 граммах творога» (творога)."""


def products(text: str) -> list[str]:
    """What is counted: '2 packs of Green Tea' -> 'Green Tea', '12 boxes of A4 paper' -> 'A4 paper' (after
    "of", lower-case words belong to the name too), «12 коробок бумаги А4» -> 'бумаги А4'."""
    found = sorted([(m.start(), 0, m.group(1)) for m in _OF_PRODUCT.finditer(text)]
                   + [(m.start(), 0, m.group(1)) for m in _RU_PRODUCT.finditer(text)]
                   + [(m.start(), 1, m.group(1)) for m in PRODUCT.finditer(text)]
                   + [(m.start(), 2, m.group(1) or m.group(2)) for m in _MEASURED.finditer(text)])
    return _unique(value for _, _, value in found)


def flag(name: str, text: str) -> Any:
    """A boolean the user's phrasing sets: True when every word of the property's name appears,
    its verb aside ("with the history" for include_history), False when negated ("without the
    history"), else MISSING."""
    words = [w for w in _words(name) if w not in _FLAG_FILLERS and len(w) >= 3]
    words = [w for w in words if w not in _FLAG_VERBS] or words
    if not words:
        return MISSING
    said = _bridged(_said(text))
    places = []
    for word in words:
        found = [m.start() for w in (word, *_FLAG_SYNONYMS.get(word, ()))
                 for m in re.finditer(rf"\b{re.escape(w[:max(4, len(w) - 2)])}\w*", said)]
        if not found:
            return MISSING
        places.append(sorted(found))
    # the words where they stand together: "with email j@x.org …, and don't send a welcome email" sets
    # send_welcome_email by its last words, and the negation before them counts
    start = places[0][0] if len(places) == 1 else _closest(places)
    end = max(min(spots, key=lambda p: abs(p - start)) for spots in places)
    end = end + len(re.match(r"\S*", said[end:]).group(0))
    negated = bool(_NEGATION.search(said[:start]))
    if _OFF_BEFORE.search(said[:start]) or _OFF_AFTER.match(said[end:]):
        return negated  # "turn off auto-renew", «уведомления отключи»; "don't turn off…" keeps it on
    if _ON_BEFORE.search(said[:start]) or _ON_AFTER.match(said[end:]):
        return not negated
    return not negated


_OFF_BEFORE = re.compile(r"(?:\b(?:turn(?:ed|ing)?|switch(?:ed|ing)?|shut|toggle|set)\s+off|\b(?:disable|deactivate|"
                         r"stop|pause|opt\s+out\s+of|cancel|remove|drop|mute|silence)|(?<!\w)(?:выключ\w*|отключ\w*|"
                         r"отмени\w*|убери\w*|останови\w*))\s+(?:(?:the|my|our|any|all|его|её|мне)\s+)?$")
_OFF_AFTER = re.compile(r"^(?:\s+\w+)?\s+(?:off|disabled|выключ\w*|отключ\w*|не\s+\w+|нет|отсутству\w*)(?!\w)")
_ON_BEFORE = re.compile(r"(?:\b(?:turn(?:ed|ing)?|switch(?:ed|ing)?|set)\s+on|\b(?:enable|activate|"
                        r"включи\w*|подключи\w*))\s+(?:(?:the|my|our|его|её|мне)\s+)?$")
_ON_AFTER = re.compile(r"^(?:\s+\w+)?\s+(?:on|enabled|включ\w*|подключ\w*|нужн\w*)(?!\w)")


_STATE_WORDS = {"on", "is", "enabled", "enable", "active", "power", "powered", "state", "switch", "switched", "turned",
                "lit", "status", "new", "target", "desired"}
"""The words of a boolean that holds a switch's state: `on`, `is_on`, `enabled`, `power`, `desired_state`."""
_SWITCHED_OFF = re.compile(r"\b(?:turn|switch|shut|power|flip)(?:ed|ing|s)?\b(?:\s+[\w'-]+){0,4}?\s+off\b|"
                           r"\b(?:disable|deactivate)\w*|(?<!\w)(?:выключ|отключ|погас)\w*")
_SWITCHED_ON = re.compile(r"\b(?:turn|switch|power|flip)(?:ed|ing|s)?\b(?:\s+[\w'-]+){0,4}?\s+on\b|"
                          r"\b(?:enable|activate)\w*|(?<!\w)(?:включ|зажг|зажеч)\w*")


def switched(name: str, text: str) -> Any:
    """A boolean that holds a switch's state (`on`, `enabled`, `power`), set by the verb the request asks with: "turn
    the bedroom light on", «включи свет» (True), "switch off the kitchen light", «выключи» (False); MISSING when the
    name is no state, or the request says both or neither (the model then takes no side)."""
    words = set(_words(name))
    if not words or not words <= _STATE_WORDS or not words & {"on", "enabled", "enable", "active", "power", "lit",
                                                               "state", "status"}:
        return MISSING
    said = _said(text)
    off, on = bool(_SWITCHED_OFF.search(said)), bool(_SWITCHED_ON.search(said))
    return on if on != off else MISSING


def _bridged(said: str) -> str:
    """Russian words followed by the English word a tool's field would use («автопродление» → "auto renew"), so a
    flag named in English (auto_renew, notify) is found in a Russian request."""
    if not re.search(r"[а-яё]", said):
        return said
    from .words import english

    def gloss(m: re.Match) -> str:
        word = m.group(0)
        meaning = english(word) or _ABBREVIATED.get(word)
        if meaning is None and word.startswith("авто") and len(word) > 7:
            rest = english(word[4:])
            meaning = f"auto {rest}" if rest else None
        return f"{word} {meaning}" if meaning else word

    return re.sub(r"[а-яё]{3,}", gloss, said)


_ABBREVIATED = {"ндс": "vat tax", "ндфл": "income tax", "смс": "sms", "пдф": "pdf"}
"""Russian abbreviations a flag's English name spells out («с НДС» for `with_vat`, `include_tax`)."""

_PHRASE_WORD = re.compile(r"[a-zа-яё0-9']+")


def described_flag(name: str, description: str, text: str) -> Any:
    """flag(), else a boolean whose description the request paraphrases: "Whether voters may pick more than one
    option" is True for "people can pick more than one" (three or more of its words in a row), False when negated
    ("nobody can pick more than one")."""
    by_name = flag(name, text)
    if by_name is not MISSING:
        return by_name
    answered = consent.answer(name, description, text)  # "RSVP yes", «подтверди участие» for `attending`
    if answered is not MISSING:
        return answered
    switch = switched(name, text)
    if switch is not MISSING:
        return switch
    if not description:
        return _presence(name, description, _said(text))
    wanted = _PHRASE_WORD.findall(description.lower())
    said = _said(text)
    for size in range(min(len(wanted), 6), 2, -1):
        for k in range(len(wanted) - size + 1):
            window = wanted[k:k + size]
            if not any(len(w) >= 4 for w in window):
                continue
            m = re.search(r"\b" + r"\s+".join(map(re.escape, window)) + r"\b", said)
            if m:
                return not re.search(r"\b(?:no one|nobody|not|cannot|can'?t|never|only one|нельзя|не)\s+(?:\w+\s+){0,"
                                     r"2}$",
                                     said[:m.start()])
    marked = _with_or_without(f"{' '.join(_words(name))} {description}", said)
    return marked if marked is not MISSING else _presence(name, description, said)


_WITH = re.compile(r"(?:\bwith|\bincl\.?|\bincluding|\bplus|(?<!\w)с|(?<!\w)со|(?<!\w)включая|(?<!\w)вместе с)\s+$",
                   re.I)
_WITHOUT = re.compile(r"(?:\bwithout|\bexcl\.?|\bexcluding|\bminus|\bno|\bnot including|(?<!\w)без|(?<!\w)не включая|"
                      r"(?<!\w)кроме)\s+$", re.I)
_NOT_A_MARK = {"the", "and", "for", "with", "whether", "true", "false", "flag", "is", "has", "include", "included",
               "includes", "сумма", "включает", "есть", "ли", "или"}


def _with_or_without(said_of_it: str, said: str) -> Any:
    """A boolean whose mark the request writes right after "with" / «с» (True) or "without" / «без» (False): «с НДС»
    for one described «Сумма включает НДС», "without VAT" for `vat_included`; MISSING when neither is written."""
    for word in dict.fromkeys(_PHRASE_WORD.findall(said_of_it.lower())):
        if len(word) < 3 or word in _NOT_A_MARK:
            continue
        written = re.escape(word) if len(word) <= 4 else rf"{re.escape(word[:max(4, len(word) - 2)])}\w*"
        for m in re.finditer(rf"(?<!\w){written}(?!\w)", said):
            before = said[max(0, m.start() - 20):m.start()]
            if _WITHOUT.search(before):
                return False
            if _WITH.search(before):
                return True
    return MISSING


_PRESENT = re.compile(r"(?<![\w-])([а-яё]{3,})\s+(?:(?:тоже|уже|все|всё|точно)\s+)?(?:есть|на\s+месте|в\s+наличии|"
                      r"имеется|имеются|присутству\w*|с\s+собой)(?!\w)|(?<![\w-])(?:есть|имеется|имеются)\s+"
                      r"(?!ли\b)([а-яё]{3,})")
_ABSENT = re.compile(r"(?<![\w-])([а-яё]{3,})\s+(?:(?:тоже|уже|пока|ещё|еще|точно)\s+)?(?:нет|отсутству\w*|"
                     r"не\s+на\s+месте|не\s+в\s+наличии)(?!\w)|(?<![\w-])нет\s+([а-яё]{3,})")
_PRESENCE_WORDS = {"present", "has", "have", "available", "exists", "exist", "in", "stock", "on", "hand", "site",
                   "here", "got", "there", "ok"}
"""A name that asks whether something is there: `keys_present`, `has_passport`, `in_stock`."""


def _presence(name: str, description: str, said: str) -> Any:
    """A yes/no the Russian request says in words: «Ключи на месте», «Паспорт есть» (True), «Паспорта нет», «ключи не
    на месте» (False), for the boolean whose description or English name the thing said matches (by stem, or by its
    English word); else, when the request says exactly one such thing and the property's name asks whether something
    is there, that one; else MISSING."""
    found = [(m.group(1) or m.group(2), True) for m in _PRESENT.finditer(said)] \
        + [(m.group(1) or m.group(2), False) for m in _ABSENT.finditer(said)]
    found = [(thing, value) for thing, value in found if thing not in {"что", "это", "там", "тут", "уже", "ещё", "еще"}]
    if not found:
        return MISSING
    from .words import english

    named = set(_words(name))
    described = {w[:4] for w in _PHRASE_WORD.findall(description.lower()) if re.match(r"[а-яё]{3,}", w)}
    for thing, value in found:
        if thing[:4] in described or english(thing) in named:
            return value
    if len(found) == 1 and named & _PRESENCE_WORDS and not described:
        return found[0][1]
    return MISSING


def _closest(places: list[list[int]]) -> int:
    """Where the words of a flag stand closest together: the start of the tightest cluster."""
    best: tuple[int, int] | None = None
    for anchor in places[0]:
        chosen = [anchor, *(min(spots, key=lambda p: abs(p - anchor)) for spots in places[1:])]
        span = (max(chosen) - min(chosen), min(chosen))
        best = span if best is None or span < best else best
    assert best is not None
    return best[1]


def described_choice(description: str, text: str) -> Any:
    """An option the property's description lists ("celsius or fahrenheit", "'c' or 'f'") that
    the user's words name, as a real model reads an enum written in prose; else MISSING."""
    options = re.findall(r"['\"`]([\w-]{1,30})['\"`]", description)
    options += [w for pair in re.findall(r"([\w-]{2,30}),?\s+or\s+([\w-]{2,30})", description) for w in pair]
    lowered = text.lower()
    for option in _unique(options):
        if len(option) >= 3 and re.search(rf"\b{re.escape(option.lower())}\b", lowered):
            return option
    return MISSING


def matching(pattern: str, text: str) -> list[str]:
    """Words of the text that a schema's `pattern` accepts whole ('art-991' for '^art-\\d+$'), else the
    first stretches of the text it accepts ('1234 5678' for '^\\d{4} \\d{4}$', 'AB1234' in 'ref:AB1234')."""
    candidates = [w.strip(".,;:!?()[]{}\"'") for w in re.findall(r"[^\s]+", text[:4000])]
    hits = ((w, bounded_search(pattern, w)) for w in candidates if w and len(w) <= 200)
    whole = _unique(w for w, hit in hits if hit and hit.group(0) == w)
    return whole or _stretches(pattern, text[:4000])


_ANCHORS = re.compile(r"^(?:\^|\\A)|(?<!\\)(?:\$|\\Z|\\z)$")
MAX_STRETCHES = 5


def _stretches(pattern: str, text: str) -> list[str]:
    """Stretches of the text, between word boundaries, that the whole pattern accepts, in the order written:
    the pattern without its anchors finds them, the pattern itself checks each."""
    inner = rf"(?<![\w-])(?:{_ANCHORS.sub('', pattern)})(?![\w-])"
    found: list[str] = []
    if len(text) > checkable_length(inner):
        return _windowed(pattern, text)
    start = 0
    while len(found) < MAX_STRETCHES and start < len(text):
        hit = bounded_search(inner, text[start:])
        if hit is None:
            break
        stretch = hit.group(0).strip()
        checked = bounded_search(pattern, stretch) if stretch else None
        if checked is not None and checked.group(0) == stretch:
            found.append(stretch)
        start += hit.end() if hit.end() > 0 else 1
    return _unique(found)


def _windowed(pattern: str, text: str) -> list[str]:
    """_stretches for a text longer than the unanchored pattern may safely be searched in: the pattern, anchored,
    tried at each word's start on a window as long as it may safely run on ("ICE 578" for '^[A-Z]{2,3} ?\\d{1,5}$'
    in a long request), each stretch ending at a word's end."""
    anchored = rf"^(?:{_ANCHORS.sub('', pattern)})(?![\w-])"
    size = min(checkable_length(anchored), 80)
    found: list[str] = []
    if size < 2:
        return found
    for m in re.finditer(r"(?<![\w-])[\w+(#@.-]", text):
        window = text[m.start():m.start() + size]
        hit = bounded_search(anchored, window)
        if hit is None or not hit.group(0).strip():
            continue
        end = m.start() + hit.end()
        stretch = hit.group(0).strip()
        if (end < len(text) and re.match(r"[\w-]", text[end])) or stretch in found:
            continue
        checked = bounded_search(pattern, stretch)
        if checked is not None and checked.group(0) == stretch:
            found.append(stretch)
            if len(found) >= MAX_STRETCHES:
                break
    return found


def _said(text: str) -> str:
    lowered = text.lower().replace("e-mail", "email").replace("non-stop", "nonstop")
    return re.sub(r"[-_]", " ", lowered)


def _words(name: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").lower()
    return _said(spaced).split()


def _amount(value: str) -> int | float:
    value = re.sub(r"[ \u00a0\u202f]", "", value)
    clean = value.replace(",", "") if re.search(r",\d{3}(?!\d)", value) else value.replace(",", ".")
    number = float(clean)
    return int(number) if number.is_integer() and "." not in clean else number


def _unique(items) -> list:
    return list(dict.fromkeys(items))
