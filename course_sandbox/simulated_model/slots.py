"""What the user's words offer a tool's input: places, ids, e-mails, numbers, an expression,
dates, names, quoted text, and values returned by earlier tools.

A property is matched to a kind of value by its name, then its description, then its type
("location" or "The city and state" -> a place; "order_id" -> an id); RequestHints hands
the values out in the order the user wrote them, so calculate(a, b) gets the two numbers
of "1,984,135 * 9,343,116" in order.
"""

import ast
import contextvars
import datetime as dt
import difflib
import functools
import json
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from . import (
    arithmetic,
    binding,
    entities,
    everyday,
    item_lists,
    labels,
    number_words,
    postal,
    proper_names,
    prose_lists,
    ranges,
    recurrence,
    remainder,
    roles,
    russian_forms,
    spoken_values,
    stated_pairs,
    text_ends,
    unit_options,
    zones,
)
from .schema_instance import MISSING, instance, is_valid
from .words import GLOSSARY, STOPWORDS, overlap, stems, unquoted
from .words import latin as latin_letters

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"https?://[^\s<>\"')\]]+")
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?\b")
_DOTTED = re.compile(r"\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b")
_MONTHS = {m: i for i, names in enumerate([
    ("january", "jan", "январ"), ("february", "feb", "феврал"), ("march", "mar", "март"), ("april", "apr", "апрел"),
    ("may", "ма", "мая", "май"), ("june", "jun", "июн"), ("july", "jul", "июл"), ("august", "aug", "август"),
    ("september", "sep", "sept", "сентябр"), ("october", "oct", "октябр"), ("november", "nov", "ноябр"),
    ("december", "dec", "декабр")], start=1) for m in names}
_WORDY_DATE = re.compile(r"\b(?:(\d{1,2})\s+([A-Za-zА-Яа-яё]{3,9})\.?,?\s+(\d{4})"  # 5 March 2025, 5 марта 2025
                         r"|([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))\b")  # March 5, 2025
_NUMBER = re.compile(r"(?<![\w.\-/@])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.\-/@])-?\d+(?:[.,]\d+)?(?![\w@])")
_ID_TOKEN = re.compile(r"\b(?:[A-ZА-ЯЁ]{1,6}[-_](?:[A-ZА-ЯЁ]{1,6}[-_]?)?\d+|[A-ZА-ЯЁ]{1,6}\d{2,})[A-ZА-ЯЁ0-9-]*\b")
"""An id or a model code: "INV-5", "KX-4471", "RT-AX58" (whole, not "AX58")."""
_ID_AFTER_WORD = re.compile(
    r"\b(?:(?:order|id|number|ticket|invoice|customer|account|booking|reservation|tracking|item|product|user|pr|mr|"
    r"issue|"
    r"parcel|package|shipment)s?|заказ\w*|номер\w*|счёт\w*|счет\w*|тикет\w*|клиент\w*|товар\w*|посылк\w*)"
    r"\s*(?:(?:#|№|no\.?|number|id)(?:\s+is\b)?)?\s*:?\s*"
    r"([A-Za-z0-9][\w-]*\d[\w-]*)", re.I)
_CODE = re.compile(r"(?<![\w@./-])(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{8,40}(?![\w@-])")
"""A long code of capitals and digits, wherever its digits start: a tracking number "1Z999AA10123456784", a serial."""
_SPACED_ID = re.compile(r"\b(?:numbers?|no\.?|code|id|reference|ref|registration|licen[cs]e|plate|serial|номер\w*)"
                        r"\s*:?\s+([A-Z]{1,5}\s\d{2,}(?:[-/]\d+)?)(?![\w-])", re.I)
"""An id with a letter prefix and a space after its noun: "register number HRB 123456", "plate AB 1234"."""
_HASH_ID = re.compile(r"(?:#|№)\s?([\w-]*\d[\w-]*)")
_NAME = re.compile(
    r"(?:\bmy name is|\bthe name|\bi am|\bi'm|\bthis is|\bnamed|\bcalled|\bcustomer|\bclient|\bfor|\bby|меня зовут|"
    r"зовут|клиент\w*)"
    r"\s+([A-ZА-ЯЁ][\w'-]+(?:\s+[A-ZА-ЯЁ][\w'-]+){0,2})")
_QUOTED = re.compile(r"\"([^\"]{1,500})\"|«([^»]{1,500})»|“([^”]{1,500})”|(?<!\w)'([^'\n]{1,200})'(?!\w)")
_IANA = re.compile(r"\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific|Indian)/[A-Z][A-Za-z_]+\b|\bUTC\b")
_ZONES = {"paris": "Europe/Paris", "париж": "Europe/Paris", "london": "Europe/London", "лондон": "Europe/London",
          "berlin": "Europe/Berlin", "берлин": "Europe/Berlin", "moscow": "Europe/Moscow", "москв": "Europe/Moscow",
          "tokyo": "Asia/Tokyo", "токио": "Asia/Tokyo", "new york": "America/New_York", "нью-йорк": "America/New_York",
          "san francisco": "America/Los_Angeles", "los angeles": "America/Los_Angeles", "sydney": "Australia/Sydney",
          "rome": "Europe/Rome", "madrid": "Europe/Madrid", "beijing": "Asia/Shanghai", "chicago": "America/Chicago"}
_LANGUAGES = {"english": "English", "french": "French", "german": "German", "spanish": "Spanish",
              "italian": "Italian", "russian": "Russian", "chinese": "Chinese", "japanese": "Japanese",
              "portuguese": "Portuguese", "korean": "Korean", "arabic": "Arabic", "английск": "English",
              "французск": "French", "немецк": "German", "испанск": "Spanish", "итальянск": "Italian",
              "русск": "Russian", "китайск": "Chinese", "японск": "Japanese"}
_PLACE_WORD = r"[A-ZА-ЯЁ][\w'.-]*"
_PLACE = rf"{_PLACE_WORD}(?:\s+(?:(?:de|del|da|la|le|am|upon|on)\s+)?{_PLACE_WORD})*(?:,\s*[A-Z]{{2}}\b)?"
"""A run of capitalised words ("Salt Lake City", "Rio de Janeiro", "Blue Bottle Cafe"), cut by _trimmed."""
_RU_PLACE_NOUN = r"(?:город|аэропорт|вокзал|станци|посёл|посел|деревн|сел[оаеу]|район|област|курорт|терминал)[а-яё]*"
"""Russian nouns for a kind of place before its name («до аэропорта Внуково», «в городе Самара»): the name is the
place."""
_PLACE_START = re.compile(rf"\b(?:(?:around|near)\s+(?:the\s+)?|(?:in|at|for|from|to|of|в|во|для|из|на|по|до)\s+"
                          rf"(?:{_RU_PLACE_NOUN}\s+)?)({_PLACE})")
_PLACE_RANKS = {"for": 1, "для": 1, "of": 1, "at": 2}
_PLACE_NEXT = re.compile(rf"^\s*(?:,|and|or|&|и|или)\s*(?:(?:in|at|for|в|во|для)\s+)?({_PLACE})")
_NOT_PLACES = {"i", "celsius", "fahrenheit", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
               "sunday", "today", "tomorrow", "mr", "pr", "json", "python", "english", "russian"} | set(_MONTHS)
_RU_CITIES = ("москв", "казан", "вен", "праг", "варшав", "рим", "мадрид", "сочи", "токио")
"""The starts of a few cities' Russian names, in any case: a place, never a recipient's name."""
_SYMBOL = re.compile(r"\b[A-Z]{2,5}\b(?![-_]?\d)")
_NOT_SYMBOLS = {"I", "A", "MR", "PR", "OK", "AI", "API", "JSON", "ID", "URL", "CA", "NY", "UK", "US", "USA", "EU",
                "PDF", "FAQ", "LLM", "SDK", "HTTP"}
_CURRENCIES = {"dollar": "USD", "usd": "USD", "euro": "EUR", "eur": "EUR", "pound": "GBP", "gbp": "GBP",
               "yen": "JPY", "jpy": "JPY", "ruble": "RUB", "rouble": "RUB", "рубл": "RUB", "руб": "RUB",
               "доллар": "USD",
               "евро": "EUR", "фунт": "GBP", "иен": "JPY", "юан": "CNY", "yuan": "CNY", "franc": "CHF"}
_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₽": "RUB"}
DOMAIN = re.compile(r"(?<![\w@./-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?!(?:py|txt|md|json|csv|js|ts|"
                    r"yml|yaml|toml|html?|css|pdf|cfg|ini|log|sql|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|zip|gz|tar|sh|"
                    r"exe|mp[34]|wav|ipynb|lock|bak|tmp|conf|xml)(?![a-z]))[a-z]{2,24}(?![\w@/-])")
"""A domain name written bare ("bluefinch-studio.com", «sosnovy-bor.ru»), not a file's name (report.pdf)."""
_PATH = re.compile(r"(?<![\w@])[\w./-]*\w\.(?:py|txt|md|json|csv|js|ts|yml|yaml|toml|html|css|pdf|cfg|ini|log|sql)\b")
KINDS: list[tuple[str, str]] = [
    ("email", r"e-?mail|почт|^to$|recipient(?! name)|attendee(?! name)|^b?cc$|carbon copy"),
    ("phone", r"phone|mobile|\btel\b|\bcell\b|телефон|^(?:to|from|recipient|sender|caller|destination) number$"),
    ("domain", r"\bdomain\b|hostname|\bhost\b|\bfqdn\b|домен"),
    ("url", r"\burl\b|\buri\b|\blink\b|website|\bhref\b|\bsite\b|ссылк"),
    ("uuid", r"uuid|guid"),
    ("datetime", r"datetime|timestamp|\bat time\b"),
    ("date", r"\bdate\b|\bday\b|birthday|deadline|\bwhen\b|дат[аы]|\bдень\b"),
    ("expression", r"expression|formula|equation|calculation|arithmetic|\bmath\b|выражени|формул"),
    ("currency", r"currenc|\bccy\b|валют|iso[\s_-]*4217"),
    ("timezone", r"time ?zone|\btz\b|часов\w* пояс"),
    ("time", r"^time$|\btime of day\b|\b(?:start|end|begin|arrival|departure|pickup|due|meeting|reminder) time\b|"
             r"\bhh:mm\b|^(?:at|hour)$|\bвремя\b"),
    ("language", r"language|\blang\b|язык"),
    ("term", r"^word$|^term$|\bword to define\b|^слово$|^термин$"),
    ("symbol", r"ticker|\bsymbol\b|\bstock\b|тикер"),
    ("path", r"\bpath\b|\bfile\b|filename|\bfile name\b|director|folder|\bdir\b|файл|путь|папк|каталог"),
    ("address", r"address|street|адрес"),
    ("unit", r"\bunits?\b|measure|единиц"),
    ("place", r"locat|\bcit(y|ies)\b|\bplace|\btown|address|region|countr|destination|origin|\bwhere\b|город|мест|"
              r"адрес|стран|локаци|\bstations?\b|\bairports?\b|^near$|^area$|станци|аэропорт"),
    ("party", r"\bguests?\b|\bpeople\b|\bpersons\b|\bparty\b|headcount|passengers|diners|travell?ers|гост|"
              r"человек|персон"),
    ("count", r"^(?:the )?number of\b|^how many\b|^количество\b"),
    ("percent", r"percent|\bpct\b|процент"),
    ("plate", r"\bplates?\b|\bregistration (?:number|plate|mark)\b|\bvehicle registration\b|^reg(?: number| no)?$|"
              r"\bvrm\b|госномер|"
              r"номерн\w* знак|(?:vehicle|car|licen[cs]e) (?:number|no)\b|номер (?:машин|авто|тс)"),
    ("id", r"\bids?\b|\bpr\b|\bmr\b|\biid\b|identifier|\bcode\b|\bsku\b|\bref(erence)?\b|\bnumber\b|\bno\b|tracking|"
           r"\bticket\b|"
           r"\binvoice\b|\baccount\b|\bflight\b|номер|идентификатор|артикул|рейс"),
    ("product", r"product|\bitem\b|goods|товар|продукт|\bfood\b|\bingredient\b|\bfoodstuff\b|\bеда\b"),
    ("name", r"\bclient\b|\bpayer\b|\bpayee\b|\bsupplier\b|\bvendor\b|\bcounterparty\b|плательщик|получател|поставщик|"
             r"контрагент|\bcompany\b|\bemployer\b|organi[sz]ation|компани|\bvenue\b|restaurant|hotel|ресторан|отел|"
             r"\bname\b|\bfirst\b|\blast\b|surname|patronymic|отчеств|author|person|\bwho\b|assignee|\bowner\b|"
             r"reviewer|\bmanager\b|\bpatient\b|"
             r"\bstudent\b|\bemployee\b|\bимя\b|фамили|исполнител|ответственн|\bфио\b|\bpupil\b|\bfriend\b|"
             r"\bcolleague\b|ученик|студент|пациент|\brequested (?:for|by)\b|\brequest[eo]r\b|\bfor whom\b|"
             r"\bon behalf\b|для кого|заказчик|\bparticipant\b|\bvolunteer\b|участник"),
    ("money", r"price|cost|amount|\bfee\b|salary|budget|payment|цен|стоимост|сумм"),
    ("count", r"quantit|\bqty\b|\bcount\b|how many|\bunits\b|\bpieces\b|количеств"),
    ("number", r"quantit|amount|count|\bqty\b|\bnum\b|total|price|value|limit|\bage\b|year|operand|^[abxyn]$|"
               r"^(num|number|operand|value)_?\d$|\bfirst\b|\bsecond\b|\bleft\b|\bright\b|\bnumbers?\b|количеств|"
               r"сумм|число|цен"),
    ("text", r"query|question|text|message|prompt|content|search|topic|keyword|subject|summary|body|title|note|"
             r"comment|description|input|request|instruction|sentence|statement|reason|memo|caption|remark|headline|"
             r"запрос|текст|вопрос|тем|коммент|примечан|назначени"),
]
_STRINGY = {"domain", "term", "time", "unit", "phone", "plate", "address", "product", "email", "url", "uuid",
            "datetime", "date",
            "expression", "currency", "symbol", "path", "place", "name",
            "text", "timezone", "language"}


_FALLBACK = {"percent": "number", "money": "number", "count": "number", "party": "number", "address": "place",
             "product": "name", "phone": ""}
"""Where a kind looks when the words hold none of it: a price the user wrote as a bare number."""
_OTHER_NUMBERS = {"count": "money", "money": "count"}
"""A bare number for a count is not the price ("3 hours at 120 each": quantity 3, unit_price 120)."""


@dataclass
class Evidence:
    """Everything the simulated model can take from the conversation for a tool's input."""

    text: str
    lang: str
    values: dict[str, list[Any]] = field(default_factory=dict)
    expression: arithmetic.Result | None = None
    request_stems: set[str] = field(default_factory=set)
    named: dict[str, Any] = field(default_factory=dict)
    lists: list[prose_lists.ProseList] = field(default_factory=list)
    addresses: list[postal.Address] = field(default_factory=list)
    """Addresses taken apart (postal.py), for an address object's street, city, postcode and country."""

    def of(self, kind: str) -> list[Any]:
        return self.values.get(kind, [])


READ_LIMIT = 4000
"""Characters of a request (and of each tool result) searched for values: a request is a sentence or
a paragraph, and the searches are regular expressions whose cost grows faster than the text."""


_PLATE_LETTERS = "АВЕКМНОРСТУХ"
_PLATE = re.compile(
    r"(?<![\w-])(?:[A-Z]{2}\d{2}\s?[A-Z]{3}"  # a UK plate: AB12 CDE
    rf"|[{_PLATE_LETTERS}]\s?\d{{3}}\s?[{_PLATE_LETTERS}]{{2}}\s?\d{{2,3}})(?![\w-])")  # a Russian one: А123ВС77
_PLATE_CUE = re.compile(
    r"(?:\b(?:plates?|registration|reg|vehicle|car|van|truck|lorry|motorbike|licen[cs]e)(?:\s+(?:number|no\.?|plate|"
    r"mark))?|(?<!\w)(?:госномер\w*|номер\w*|машин\w*|автомобил\w*|авто))\s*(?:is\s+|:\s*)?"
    r"((?=[A-ZА-ЯЁ0-9 -]*\d)(?=[A-Z0-9 -]*[A-Z]|[А-ЯЁ0-9 -]*[А-ЯЁ])[A-ZА-ЯЁ0-9]{1,8}(?:[ -][A-ZА-ЯЁ0-9]{1,4}){0,2})"
    r"(?![\w-])")
"""A vehicle's plate as written, spaces and dashes kept: a UK or Russian one by its shape, any other (7ABC123,
B-MW 1234) in capitals and digits after the word that names it (plate, registration, vehicle, car, «машины»)."""


def plates(text: str) -> list[str]:
    """The vehicle plates a request writes, in order."""
    found = [(m.start(), m.group(0)) for m in _PLATE.finditer(text)]
    found += [(m.start(1), m.group(1).strip()) for m in _PLATE_CUE.finditer(text)
              if not any(a <= m.start(1) < a + len(p) for a, p in found)]
    return _unique(p for _, p in sorted(found))


def _a_message_beside(fields: dict) -> bool:
    """Whether a bare `to` sits beside the text of a message and no `from` ("send Bob the message …" to a
    `send_message(to, text)`): a message goes to a person, so the person the request names is its `to`."""
    names = {str(f).lower() for f in fields}
    return bool(names & {"text", "message", "content", "msg"}) and "from" not in names


def read(text: str, lang: str, results: list[str] | None = None) -> Evidence:
    """The evidence in a request's words (and, when given, in earlier tools' results)."""
    text = whole_thousands(text[:READ_LIMIT])
    results = [r[:READ_LIMIT] for r in results or []]
    evidence = Evidence(text, lang, request_stems=stems(unquoted(text),
                                                         synonyms=not everyday.composing(text)))
    values = evidence.values
    values["email"] = _unique(_EMAIL.findall(text))
    values["url"] = _unique(_clean(u) for u in _URL.findall(text))
    values["domain"] = _unique(DOMAIN.findall(_URL.sub(" ", _EMAIL.sub(" ", text))))
    values["uuid"] = _unique(_UUID.findall(text))
    rest = number_words.digits(_URL.sub(" ", _EMAIL.sub(" ", _UUID.sub(" ", text))))  # "six people": 6 people
    values["datetime"], values["date"] = _dates(rest)
    rest = _WORDY_DATE.sub(" ", _DOTTED.sub(" ", _ISO.sub(" ", rest)))
    values["time"] = spoken_values.times(rest)
    rest = spoken_values.TIME.sub(" ", rest)
    values["phone"] = spoken_values.phones(rest)
    values["plate"] = plates(rest)
    evidence.addresses = postal.read(text)
    values["address"] = _unique([*spoken_values.addresses(rest), *(a.text for a in evidence.addresses)])
    values["money"] = spoken_values.money(rest)
    values["count"] = spoken_values.counts(rest)
    values["party"] = spoken_values.party_sizes(rest)
    values["percent"] = spoken_values.percents(rest)
    values["term"] = spoken_values.terms(text)
    values["product"] = spoken_values.products(rest)
    values["unit"] = spoken_values.units(rest)
    values["path"] = _unique(_clean(p) for p in _PATH.findall(rest) + spoken_values.directories(rest))
    rest = spoken_values.ADDRESS.sub(" ", spoken_values.PHONE.sub(" ", rest))
    evidence.expression = arithmetic.find(rest)
    values["expression"] = [evidence.expression.computable()] if evidence.expression else []
    values["slug"] = spoken_values.slugs(rest)
    values["id"] = _unique(_ids(rest) + spoken_values.lower_ids(rest) + values["uuid"] + values["slug"])
    values["number"] = [n for n in map(_number, _NUMBER.findall(rest)) if n is not None]
    quoted_venues = proper_names.quoted_venues(text)
    values["place"] = _unique([*quoted_venues, *_places(rest)])
    values["name"] = _unique(_clean(n) for n in _NAME.findall(text) if n.split()[0].lower() not in _NOT_PLACES)
    names = proper_names.read(text)
    values["proper"], values["venue"] = _not_months(names.all, text), _unique([*quoted_venues, *names.venues])
    values["name"] = _not_months(values["name"], text)
    values["addressee"] = [a for a in proper_names.addressees(text) if not _known_city(a)]
    evidence.lists = prose_lists.read(text)
    values["symbol"] = _unique(s for s in _SYMBOL.findall(text) if s not in _NOT_SYMBOLS)
    values["currency"] = _currencies(text, number_words.digits(text))
    values["timezone"] = _timezones(text, values["place"])
    lowered = text.lower()
    values["language"] = _unique(name for _, name in sorted(
        (m.start(), name) for word, name in _LANGUAGES.items() for m in re.finditer(rf"\b{word}", lowered)))
    quoted = [next(g for g in groups if g) for groups in _QUOTED.findall(text)]
    values["text"] = _unique([q for q in quoted if q not in quoted_venues] or quoted) or [_one_line(text)]
    for result in results or []:
        evidence.named.update(named_values(result, text))
        for kind, found in _returned(result).items():  # after the request's own: what the user wrote comes first
            values[kind] = _unique([*values[kind], *found])
    return evidence


_GROUPED = re.compile(r"(?<![\d.,:/+-])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d:/-]|[.,]\d)")
"""Thousands in groups of three, a sentence's full stop after them included ("Set my goal to 12 500.")."""


def whole_thousands(text: str) -> str:
    """Numbers written with spaces between their thousands ("12 480 кВт·ч", «пробег 48 200 км», "1 250 000") as one
    number each, so that each is one value and no field takes a piece of it; a phone number ("+1 415 555 0142",
    "(921) 300 44 55") keeps its spaces."""
    phones = [m.span() for m in spoken_values.PHONE.finditer(text)]
    return _GROUPED.sub(lambda m: m.group(0) if any(a <= m.start() < b for a, b in phones)
                        else re.sub(r"\D", "", m.group(0)), text)


_MONTH_NAME = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?", re.I)


def _not_months(found: list, text: str) -> list:
    """Proper names without a month written before a day ("for Jan 12–14, 2027": Jan is no guest's name)."""
    return [n for n in found if not (isinstance(n, str) and _MONTH_NAME.fullmatch(n)
                                     and re.search(rf"\b{re.escape(n)}\.?\s*\d", text))]


def _returned(result: str) -> dict[str, list[str]]:
    """Addresses an earlier tool returned ("look up Ana's e-mail, then send her the agenda": the send takes
    the address the lookup found), by kind."""
    return {"email": _EMAIL.findall(result), "url": [_clean(u) for u in _URL.findall(result)],
            "phone": spoken_values.phones(_EMAIL.sub(" ", result))}


def kind_of(name: str, schema: dict) -> str | None:
    """The kind of value a property wants, from its format, name, description, then type."""
    fmt = schema.get("format")
    by_format = {"email": "email", "idn-email": "email", "uri": "url", "url": "url", "iri": "url", "uuid": "uuid",
                 "date": "date", "date-time": "datetime", "time": "time", "hostname": "domain",
                 "idn-hostname": "domain"}
    if isinstance(fmt, str) and fmt in by_format:
        return by_format[fmt]
    types = _types(schema)
    if _clock_time(schema) and _type_allows("time", types):
        return "time"
    spoken = " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").lower().split())
    described = str(schema.get("description") or schema.get("title") or "").lower()
    if re.search(r"\w\s(?:id|ids|uid|key)$", spoken) and _type_allows("id", types):
        return "id"  # `email_id`, `message_id`: the id of an e-mail, not an e-mail address
    if re.search(r"\w\scode$", spoken) and not re.search(r"countr|currenc|lang|phone|dial|area|post|zip", spoken) \
            and _type_allows("id", types):
        return "id"  # `cell_code`, `locker_code`: a code, whatever thing it is the code of
    for text in (spoken, described):
        for kind, pattern in KINDS:
            if re.search(pattern, text) and _type_allows(kind, types):
                return kind
    if types & {"integer", "number"}:
        return "number"
    return None


def _clock_time(schema: dict) -> bool:
    """A field that wants a time of day alone: described as HH:MM, or a pattern that takes "09:30" (and
    not a whole date-time), whatever its name says (`when`, `at`)."""
    described = str(schema.get("description") or schema.get("title") or "")
    if re.search(r"\bhh:mm\b|\bчч:мм\b", described, re.I):
        return True
    pattern = schema.get("pattern")
    return isinstance(pattern, str) and spoken_values.matching(pattern, "09:30") == ["09:30"] \
        and not spoken_values.matching(pattern, "2025-01-15T09:30:00Z")


def pattern_finds(schema: dict, text: str) -> bool:
    """Whether the request holds a value that the property's `pattern` picks out and an ordinary word does
    not pass ("LH4711" for `[A-Z]{2}\\d{3,4}`): a value only that tool can take."""
    pattern = schema.get("pattern")
    return isinstance(pattern, str) and bool(spoken_values.matching(pattern, text)) \
        and not spoken_values.matching(pattern, "example words")


def names(properties: dict) -> frozenset[str]:
    """What a tool's name properties name: "venue" (`restaurant_name`), "person" (`customer_name`)."""
    return frozenset("venue" if proper_names.names_a_venue(p, str(s.get("description") or "")) else "person"
                     for p, s in properties.items() if isinstance(s, dict) and kind_of(p, s) == "name")


class RequestHints:
    """Hands evidence out to schema_instance: each kind's values in order, the start-th first.

    start shifts one kind (e.g. {"place": 1}) so that parallel calls each get their own item.
    """

    def __init__(self, evidence: Evidence, start: dict[str, int] | None = None,
                 named: frozenset[str] = frozenset(), fields: dict | None = None) -> None:
        self.evidence = evidence
        self.fields = fields
        """The tool's top-level properties, for the general binding (binding.py) of the request's values to them."""
        self._binding: dict | None = None
        self._roles: dict | None = None
        self.start = dict(start or {})
        self.named = named
        """What the tool's name properties name ("venue", "person"): "at Chez Panisse" is then the venue
        and "for Maria Lopez" the person, not places."""
        self.taken: dict[str, set] = {}
        self.listed: dict[str, list[str]] = {}
        """Items of a list in prose an array property took (count() chooses, value() hands them out)."""
        self.parents: list[str] = []
        """The names of the objects the property being filled sits in (`place` for `place.name`)."""
        self.scope: str | None = None
        """The stretch of the request these hints read, when an object took one end of "from A to B" (scoped())."""

    def scoped(self, name: str) -> "RequestHints":
        """The hints for an object that is one end of a movement ("from Northwind Supplies in Leeds to Fatima
        Al-Sayed, 7 Quay Street, …"): `sender`, `origin`, `from` read the words after "from", `recipient`,
        `destination`, `to` those after "to"; any other object reads the whole request."""
        stretch = _end_of_a_movement(name, self.evidence.text)
        if stretch is None or self.scope == stretch:
            return self
        sub = RequestHints(read(stretch, self.evidence.lang), named=self.named)
        sub.parents = self.parents
        sub.scope = stretch
        return sub

    def _kind(self, name: str, schema: dict) -> str | None:
        """The property's kind, read with the request: a `recipient` or `to` the user gave a phone
        number for (and no e-mail) is a phone number, unless the schema says e-mail."""
        kind = kind_of(name, schema)
        if kind == "email" and not self.evidence.of("email") and self.evidence.of("proper") and "format" not in schema \
                and re.search(r"\bnames?\b|имен|имя", str(schema.get("description") or ""), re.I):
            return "name"  # `attendees` described as «Участники (имена)»
        if kind == "email" and not self.evidence.of("email") and (self.evidence.of("phone")
                                                                  or self.evidence.of("addressee")):
            said = f"{name} {schema.get('description') or ''} {schema.get('format') or ''}".lower()
            if re.search(r"e-?mail|почт", said):
                return kind
            return "phone" if self.evidence.of("phone") else "name"  # "Ship it to Tom Baker": the recipient's name
        if kind == "email" and not self.evidence.of("email") and self.evidence.of("proper") and "format" not in schema \
                and (name.lower() != "to" or _a_message_beside(self.fields or {})) \
                and not any(re.search(r"subject|body|^cc$|^bcc$|html|тема", other, re.I)
                            for other in self.fields or {}) \
                and not re.search(r"e-?mail|почт|@", f"{name} {schema.get('description') or ''}", re.I):
            return "name"  # "send Maria Keller 200 USD": a `recipient` the user names
        if name.lower() in ranges.BARE and kind in (None, "email") and not self.evidence.of("email") \
                and "format" not in schema:
            return ranges.bare_kind(kind_of("", schema), self.evidence.values) or kind
        return kind

    def binding(self) -> dict:
        """The request's values bound to the tool's top-level fields (binding.py), once per hints."""
        if self._binding is None:
            try:
                self._binding = binding.bind(self.evidence.text, self.fields) if self.fields else {}
            except (ValueError, TypeError, OverflowError, RecursionError):  # a reading that fails binds nothing
                self._binding = {}
        return self._binding

    def _bound(self, name: str, schema: dict, index: int | None, found: Any) -> Any:
        """The binding's value for a top-level field where it is better than what the kind readers found: a strong
        binding always (the field's own words beside the value, a converted unit, the one value of its kind); a weak
        one for a field they left to a placeholder, or gave a value the binding gave to another field."""
        if index is not None or any(self.parents) or self.scope or not self.fields or name not in self.fields \
                or name.lower() in self.evidence.named:
            return found
        bound = self.binding().get(name)
        if bound is not None and not is_valid(schema, bound.value):
            shaped = binding.formatted(schema, bound.value)  # "+44 7700 900123" for a digits-only pattern
            bound = replace(bound, value=shaped) if shaped is not bound.value else bound
        if bound is None or not is_valid(schema, bound.value):
            return found
        elsewhere = any(other != name and b.value == found and b.strong for other, b in self.binding().items())
        if not bound.sure and not (elsewhere and not self.start):
            return found
        if self.start:
            return bound.value if found is MISSING else found
        if isinstance(found, str) and isinstance(bound.value, str) and found.startswith(bound.value) \
                and not found[len(bound.value):].strip(" .,;:!?"):
            return bound.value  # "Hall C." read up to the full stop: "Hall C"
        if bound.strong and isinstance(found, str) and isinstance(bound.value, str) and found \
                and bound.value.replace(" ", "").startswith(found.replace(" ", "")) \
                and re.search(r"\d{4}", bound.value.replace(" ", "")[len(found.replace(" ", "")):]):
            return bound.value  # "DE89" cut at the first space of "DE89 3704 0044 …": the whole of it
        if isinstance(found, str) and isinstance(bound.value, str) and (found.startswith(bound.value) or (
                found[:4].lower() == bound.value[:4].lower() and not found[:1].isdigit()
                and len(found.split()) == len(bound.value.split()))):
            return found  # the same value, in its nominative («в Москве»: Москва) or whole ("San Francisco, CA")
        if bound.strong or found is MISSING or elsewhere:
            return bound.value
        return found

    def _an_id_of_another_field(self, name: str, number: float) -> bool:
        """Whether the number is written right after the noun another id field of the tool is named by
        (ids_after_nouns): "card 4410" for `card_number`, so no amount or count takes it."""
        for other, schema in (self.fields or {}).items():
            if other == name or not isinstance(schema, dict) or kind_of(other, schema) != "id":
                continue
            if any(str(v) == str(number).removesuffix(".0")
                   for v in ids_after_nouns(self.evidence.text, other, str(schema.get("description") or ""))):
                return True
        return False

    def value(self, name: str, schema: dict, index: int | None) -> Any:
        if name and index is None and not any(self.parents) and name.lower() in self.evidence.named \
                and is_valid(schema, self.evidence.named[name.lower()]):
            return self.evidence.named[name.lower()]  # what a tool returned under the field's own name (survey_id)
        converted = self._named_in_unit(name, schema, index)
        if converted is not MISSING:
            return converted
        found = self._bound(name, schema, index, self._value(name, schema, index))
        if isinstance(found, (str, int)) and not isinstance(found, bool) and index is None and self.fields \
                and not any(self.parents) and not self.scope \
                and (kind_of(name, schema) == "id" or {"integer", "number"} >= _types(schema) != set()) \
                and not (self.binding().get(name) and self.binding()[name].strong) and any(
                    other != name and b.strong and str(b.value) == str(found) for other, b in self.binding().items()):
            found = MISSING  # "the applicants for job J-204": J-204 is the job's id, not an applicant's; "top up card
            # 4410": 4410 is the card's number, not the amount
        elif isinstance(found, (int, float)) and not isinstance(found, bool) and index is None and self.fields \
                and not any(self.parents) and not self.scope \
                and not (self.binding().get(name) and self.binding()[name].strong) \
                and self._an_id_of_another_field(name, found):
            found = MISSING  # «пополни проездной 3307»: the card's number, written after «проездной», is no amount
        found = self._role(name, schema, index, found)
        found = self._labelled(name, schema, index, found)
        found = self._own_text(name, schema, index, found)
        if found is MISSING and index is None and not any(self.parents) and "string" in _types(schema) \
                and not {"enum", "format", "pattern"} & set(schema) \
                and kind_of(name, schema) in (None, "text", "address", "place"):
            stretch = _end_of_a_movement(name, self.evidence.text)  # "pickup_address": «от улицы Ленина, 5 до …»
            if stretch and len(stretch) <= 120 and is_valid(schema, stretch.strip(" ,.")):
                found = stretch.strip(" ,.")
        if found is MISSING and index is None and not any(self.parents) and not self.scope \
                and "string" in _types(schema) and not {"enum", "format", "pattern", "const"} & set(schema) \
                and _KIND_FIELD.search(f"{name} {schema.get('description') or ''}"):
            found = _noun_after_a_measure(self.evidence.text)  # "a 5 km swim": `activity` swim
        if found is MISSING and index is None and not any(self.parents) and not self.scope:
            found = self._named_thing(name, schema)
        if found is MISSING and index is None and not any(self.parents) and not self.scope \
                and "string" in _types(schema) and not {"enum", "format", "pattern", "const"} & set(schema) \
                and kind_of(name, schema) in (None, "product"):
            said = roles.object_phrase(self.evidence.text)  # "Take the navy suit to the cleaners": `item`
            if said is not None and overlap(stems(name), stems(self.evidence.text)) \
                    and not overlap(stems(name), stems(said)):
                said = None  # "with role example": the field's own word holds its value (stated.py reads it)
            found = said if said is not None and is_valid(schema, said) else MISSING  # "the reef tank" for `tank`
        if isinstance(found, str) and index is None and not any(self.parents) and re.fullmatch(r"[a-zа-яё]+", found):
            # "Clean the reef tank": `tank` is the reef tank, not reef ("the nightly-export job" names its job)
            said = roles.object_phrase(self.evidence.text)
            head = re.split(r"[_\s]+", name.lower())[-1]
            if said and re.search(rf"(?<!\w){re.escape(found)}\s+{re.escape(head)}$", said) and is_valid(schema, said):
                found = said
        if index is None and not any(self.parents):
            found = roles.whole_name(found, name, schema, self.evidence.text)  # "the Riverside park clean-up"
        if index is None and "string" in _types(schema) and not {"enum", "format", "pattern", "const"} & set(schema):
            whole = roles.with_kind_word(found, name, schema, self.evidence.text)  # «туманность Ориона»
            found = whole if whole is not found and is_valid(schema, whole) else found
            whole = roles.genitive_name_to_nominative(found, name, schema, self.evidence.text)  # «кота Барсика»
            found = whole if whole is not found and is_valid(schema, whole) else found
        found = self._house_number(name, schema, found)
        found = self._grouped_digits(name, schema, found)
        if isinstance(found, str) and index is None and not any(self.parents) and self.fields and any(
                _types(s) & {"integer", "number"} for other, s in self.fields.items()
                if other != name and isinstance(s, dict)):
            cut = text_ends.without_trailing_value(found)  # the minutes are the `duration_minutes` field's
            found = cut if cut != found and is_valid(schema, cut) else found
        coded = _CITY_COMMA_CODE.search(found) if isinstance(found, str) and index is None and self.fields else None
        if coded and coded.end() == len(found) and coded.group(1) in _COUNTRIES and any(
                other != name and re.search(r"country|стран", other, re.I) for other in self.fields) \
                and is_valid(schema, found[:coded.start()]):
            found = found[:coded.start()]  # "Porto, PT": the city, its country code the `countryCode` field's
        if isinstance(found, str) and index is None and re.fullmatch(r"[a-zа-яё]+", found) \
                and re.search(r"(?:^|_)(?:id|number|no|num|code|ref|key)$|номер", name, re.I) \
                and overlap(stems(found), stems(re.sub(r"(?:^|_)(?:id|number|no|num|code|ref|key)$", "", name))):
            found = MISSING  # "the policy number on my car insurance" gives no `policy_number`: a lookup will
        if isinstance(found, (int, float)) and not isinstance(found, bool) and _outside_described_range(schema, found):
            found = MISSING  # a score "from 0.0 to 1.0" takes no count of cats; the placeholder is then said as one
        found = self._source_language(name, schema, found)
        found = zones.zoned(found, schema, self.evidence.text)
        shaped = binding.formatted(schema, found)
        if shaped is not found and is_valid(schema, shaped):
            found = shaped  # the form the description asks for: E.164, digits only
        if isinstance(found, (int, float)) and not isinstance(found, bool) and found > 0 \
                and _takes_away(str(schema.get("description") or ""), self.evidence.text) and is_valid(schema, -found) \
                and not (index is None and re.search(rf"(?<![\w.]){-found}(?![\w.])", self.evidence.text)):
            return -found  # "negative to remove" + "we sold 14, take them off the stock": -14
        return found

    def _named_in_unit(self, name: str, schema: dict, index: int | None) -> Any:
        """A result's value under the field's name without its unit, in the unit the field wants: `duration`
        "00:12:30" for `duration_seconds` is 750, `length` 90 (seconds, its description says so or not) for
        `length_minutes` stays MISSING unless its unit is known."""
        if index is not None or any(self.parents) or not self.evidence.named or not _types(schema) & {"integer",
                                                                                                         "number"}:
            return MISSING
        m = re.fullmatch(r"(.+?)_(?:in_)?(ms|milliseconds|s|secs?|seconds|min|mins|minutes|h|hrs?|hours)", name.lower())
        if not m or m.group(1) not in self.evidence.named:
            return MISSING
        given = self.evidence.named[m.group(1)]
        clock = re.fullmatch(r"(?:(\d{1,3}):)?(\d{1,2}):(\d{2})(?:\.\d+)?", str(given).strip())
        if not clock:
            return MISSING
        seconds = int(clock.group(1) or 0) * 3600 + int(clock.group(2)) * 60 + int(clock.group(3))
        per = {"ms": 0.001, "milliseconds": 0.001, "min": 60, "mins": 60, "minutes": 60, "h": 3600, "hr": 3600,
               "hrs": 3600, "hours": 3600}.get(m.group(2), 1)
        value = seconds / per
        value = int(value) if value == int(value) else value
        return value if is_valid(schema, value) else MISSING

    def _named_thing(self, name: str, schema: dict) -> Any:
        """A plain string field the readers left to a placeholder (`branch`, `route`, `centre`, `position`, `museum`,
        `car_model`) takes a proper name the request writes and no other field took: the one that holds the field's
        own word ("Riverside Leisure Centre" for `centre`), stands beside a word of the field or its description
        ("the Millbrook library" for a library `branch`, "the Senior Data Engineer role" for `position`), ends the
        movement the field names ("to Bainbridge" for `to`), or the only one left. MISSING when none fits."""
        text = self.evidence.text
        kind = self._kind(name, schema)
        movement = _end_of_a_movement(name, text)
        if "string" not in _types(schema) or {"enum", "format", "pattern", "const"} & set(schema) \
                or (kind not in (None, "text", "name", "place", "address", "email", "term") and movement is None):
            return MISSING
        if kind == "email" and (self.evidence.of("email") or _end_of_a_movement(name, text) is None or re.search(
                r"e-?mail|почт|@", f"{name} {schema.get('description') or ''}", re.I)):
            return MISSING  # a recipient nobody named waits for the address a lookup returns
        taken = {str(v) for values in self.taken.values() for v in values}
        bound = {str(b.value) for other, b in self.binding().items() if other != name and b.strong} \
            if self.fields else set()
        candidates = [c for c in _unique([*self.evidence.of("venue"), *self.evidence.of("proper")])
                      if isinstance(c, str) and c not in taken and c not in bound
                      and not any(c in t or t in c for t in taken | bound if len(t) > 2)]
        if not candidates and kind is None and movement is None:
            codes = [c for c in self.evidence.of("id") if isinstance(c, str) and c not in taken and c not in bound]
            if len(codes) == 1 and is_valid(schema, codes[0]):  # «Открой ячейку У-07» for a `badge`: the one code
                self.taken.setdefault("id", set()).add(codes[0])
                return codes[0]
        if not candidates:
            return MISSING
        own = stems(f"{name} {schema.get('description') or ''}", synonyms=True) | stems(" ".join(_FIELD_KIN.get(
            name.lower().rsplit("_", 1)[-1], ())))

        def affinity(candidate: str) -> int:
            score = 2 * len(overlap(stems(candidate), own))
            at = text.find(candidate)
            after = text[at + len(candidate): at + len(candidate) + 30] if at >= 0 else ""
            before = text[max(0, at - 30): at] if at >= 0 else ""
            near = stems(" ".join(re.findall(r"[^\W\d_]+", after)[:2] + re.findall(r"[^\W\d_]+", before)[-2:]))
            score += 2 * len(overlap(near, own))
            end = _end_of_a_movement(name, text)
            if end and candidate in end:
                score += 3
            if candidate in self.evidence.of("venue") and "venue" in self.named | {"venue"} \
                    and proper_names.names_a_venue(name, str(schema.get("description") or "")):
                score += 1
            return score

        scored = sorted(((affinity(c), i, c) for i, c in enumerate(candidates)), key=lambda x: (-x[0], x[1]))
        best_score, _, best = scored[0]
        if movement is not None and kind not in (None, "text", "name", "place", "address", "email", "term") \
                and best not in movement:
            return MISSING  # a bare `to` beside dates is a range's end unless a name ends the movement
        if best_score <= 0 and (len(candidates) > 1 or kind not in (None, "text")):
            return MISSING  # "Translate 'salt' into French": French is no city for get_weather
        if self.evidence.lang == "ru":
            best = proper_names.nominative(best, text)
        self.taken.setdefault("name", set()).add(best)
        return best if is_valid(schema, best) else MISSING

    def roles(self) -> dict:
        """The values the sentence's structure gives the tool's top-level fields (roles.py), once per hints."""
        if self._roles is None:
            try:
                self._roles = roles.read(self.evidence.text, self.fields) if self.fields and not self.scope else {}
            except (ValueError, TypeError, RecursionError):
                self._roles = {}
        return self._roles

    def _role(self, name: str, schema: dict, index: int | None, found: Any) -> Any:
        """The value a sentence role gives this top-level field ("Rex, owned by Maria Lopez": the owner to `owner`,
        Rex to `pet_name`; a year to `vintage`), over what the readers found."""
        if index is not None or any(self.parents) or not self.fields or name not in self.fields:
            return found
        given = self.roles().get(name)
        return given if given is not None and is_valid(schema, given) else found

    def _grouped_digits(self, name: str, schema: dict, found: Any) -> Any:
        """A card or account number written in groups ("transit card 4410 2231", «карта 2200 1234 5678 9012») read up
        to its first space: the whole of it, as written, for a number-like string field."""
        numbered = re.search(r"number|card|account|iban|policy|номер|карт|сч[её]т|полис",
                             f"{name} {schema.get('description') or ''}", re.I)
        if found is MISSING and numbered and "pattern" not in schema:  # «карту 7751 2300 8812 4401»: read whole
            card = _CARD_GROUPS.search(self.evidence.text)
            said = card.group(0) if card else None
            if said and "string" not in _types(schema):
                said = int(re.sub(r"\D", "", said))
            return said if said is not None and is_valid(schema, said) else found
        if not isinstance(found, str) or not re.fullmatch(r"\d{3,6}", found) or "pattern" in schema or not numbered:
            return found
        m = re.search(rf"(?<![\d\w]){re.escape(found)}(?:[ \u00a0-]\d{{3,6}})+(?![\d\w:.,/])", self.evidence.text)
        return m.group(0) if m and is_valid(schema, m.group(0)) else found

    def _house_number(self, name: str, schema: dict, found: Any) -> Any:
        """A street read without the house number after its comma («ул. Ленина, 15»): the two together, for an
        address field."""
        if not isinstance(found, str) or "pattern" in schema or "enum" in schema \
                or not re.search(r"address|street|адрес|улиц", f"{name} {schema.get('description') or ''}", re.I):
            return found
        m = re.search(re.escape(found) + r",?\s+(?:д\.\s*|дом\s+)?(\d+[а-яёa-z]?(?:/\d+)?)(?![\w.:/-])",
                      self.evidence.text, re.I)
        if not m or re.search(r"\d", found):
            return found
        whole = m.group(0).rstrip(" ,")
        return whole if is_valid(schema, whole) else found

    def _labelled(self, name: str, schema: dict, index: int | None, found: Any) -> Any:
        """The value the request labels for this field ("Reason: …", «Получатель: ООО «Ромашка»», "her manager is
        Tom Becker"), over what the readers found; a value labelled for another field is not this one's (labels.py)."""
        if index is not None or not self.fields or self.scope or "enum" in schema:
            return found
        path = tuple(p for p in (*self.parents, name) if p)
        try:
            chosen = labels.assigned(self.evidence.text, self.fields)
        except (ValueError, TypeError, RecursionError):
            return found
        mine = chosen.get(path)
        if isinstance(mine, str) and not any(self.parents):
            for other, bound in self.binding().items():  # "contact — Ben Ode at Fabrikam": Fabrikam is the company's
                tail = re.search(rf"\s+(?:at|from|of|with|из|от|в)\s+{re.escape(str(bound.value))}\W*$", mine, re.I) \
                    if other != name and bound.sure and isinstance(bound.value, str) and bound.value else None
                if tail and tail.start() > 0:
                    mine = mine[:tail.start()]
        if mine is not None:
            shaped = labels.shaped(schema, mine)
            if is_valid(schema, shaped):
                return shaped
        if mine is None and found is MISSING and "string" in _types(schema):
            shaped = labels.example_shaped(name, schema, self.evidence.text)  # "Class, e.g. 7B": "class 9A"
            if shaped is not None and is_valid(schema, shaped):
                return shaped
        subject = labels.school_subject(name, schema, self.evidence.text) if mine is None else None
        if subject is not None and is_valid(schema, subject):
            return subject  # «пятёрку по алгебре», "a chemistry lesson"
        if isinstance(found, str) and mine is None and any(
                other != path and (found == value or (len(value) > 3 and value in found)) for other, value in
                chosen.items()):
            other = labels.school_subject(name, schema, self.evidence.text)
            return other if other is not None and is_valid(schema, other) else MISSING
        return found

    def _searched_for(self, found: str, schema: dict) -> str:
        """A search query that would get the whole request, when the tool takes a price limit of its own: what is
        searched for, without the ask and the limit («Подбери беспроводные наушники дешевле 5000 рублей» with a
        `max_price` field: «беспроводные наушники»)."""
        if found != _one_line(self.evidence.text) or not self.fields or not any(
                re.search(r"price|cost|budget|цен|стоимост", f"{other} {s.get('description') or ''}", re.I)
                for other, s in self.fields.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")):
            return found
        m = _SEARCH_ASK.match(found)
        if not m:
            return found
        rest = _PRICE_LIMIT.sub("", found[m.end():]).strip(" .,!?;:")
        return rest if len(re.findall(r"[^\W\d_]{2,}", rest)) >= 1 and is_valid(schema, rest) else found

    def _own_text(self, name: str, schema: dict, index: int | None, found: Any) -> Any:
        """A free-text field (a note, a reminder's text) that would get the whole request, or a value another field
        took by its label («в чат «Семья»» is the chat's), gets the request's own remaining words (remainder.py),
        without a recurrence or a start date another field takes (text_ends.py)."""
        found = self._own_words(name, schema, index, found)
        if not isinstance(found, str) or index is not None or any(self.parents) or not self.fields \
                or kind_of(name, schema) != "text" or {"enum", "pattern", "format"} & set(schema):
            return found
        others = [s for other, s in self.fields.items() if other != name and isinstance(s, dict)]
        repeats = any(isinstance(s.get("enum"), list) and recurrence.option(s["enum"], self.evidence.text)
                      is not None for s in others)
        dated = any(binding.want(other, s).kind in ("date", "datetime") for other, s in self.fields.items()
                    if other != name and isinstance(s, dict))
        spans = [(m.start, m.end) for m in binding.mentions(found) if m.kind in ("date", "datetime")] if dated else []
        cut = text_ends.cut(found, repeats, dated, spans)
        return cut if cut != found and is_valid(schema, cut) else found

    def _own_words(self, name: str, schema: dict, index: int | None, found: Any) -> Any:
        if index is not None or any(self.parents) or not isinstance(found, str) or "enum" in schema \
                or "pattern" in schema or kind_of(name, schema) != "text" or name.lower() in self.evidence.named:
            return found
        if _ASKED_AS_IS.search(f"{name} {schema.get('description') or ''}"):
            return self._searched_for(found, schema)
        text = self.evidence.text
        whole = found == _one_line(text)
        elsewhere = self.fields is not None and not self.scope and any(
            other != name and b.value == found and b.strong for other, b in self.binding().items())
        if not whole and not elsewhere:
            return found
        wanted = {binding.want(other, s).kind for other, s in (self.fields or {}).items()
                  if other != name and isinstance(s, dict)}
        keep = frozenset() if wanted & {"date", "datetime", "time"} else frozenset({"date", "datetime", "time"})
        said = remainder.remainder(text, self.evidence.lang, keep)
        return said if said is not None and is_valid(schema, said) else found

    def _source_language(self, name: str, schema: dict, found: Any) -> Any:
        """A translation's source language is never its target: «Переведи «привет» на немецкий» has German as the
        target, and the phrase's own script (Cyrillic) gives Russian as the source."""
        if not isinstance(found,
                          str) or not re.search(r"(?:^|_)(?:source|src|from|original|input)(?:_|$)", name, re.I) \
                or kind_of(name, schema) != "language":
            return found
        target = binding.target_language(self.evidence.text)
        if not target or found.lower() not in (target.lower(), _LANGUAGE_CODES.get(target, "").lower()):
            return found
        source = binding.phrase_language(self.evidence.text)
        if not source or source == target:
            return found
        coded = found.lower() == _LANGUAGE_CODES.get(target, "").lower()
        value = _LANGUAGE_CODES.get(source, source) if coded else source
        return value if is_valid(schema, value) else found

    def _value(self, name: str, schema: dict, index: int | None) -> Any:
        if name and index is None and name.lower() in self.evidence.named:
            return self.evidence.named[name.lower()]
        if index is not None and name in self.listed:
            return self.listed[name][index] if index < len(self.listed[name]) else MISSING
        code = _country_code(name, schema, self.evidence.text)
        if code is not None:
            return code  # before the address's own part: "United Kingdom" for an alpha-2 `country` is GB
        part = self._postal_part(name)
        if part is not None:
            return part
        if isinstance(schema.get("enum"), list):
            return self._enum(name, schema["enum"], schema=schema)
        if "string" in _types(schema) and not any(self.parents) and not _QUOTED.search(self.evidence.text):
            made = _work_or_creator(name, self.evidence.text)
            if made is not None and is_valid(schema, made):
                return made
        if "string" in _types(schema) and index is None and _LABEL_FIELD.match(name) \
                and not _QUOTED.search(self.evidence.text):
            bare = _BARE_CALLED.search(self.evidence.text)
            if bare and is_valid(schema, bare.group(1)):
                return bare.group(1)  # "Set a 20 minute timer called Tea."
        if "string" in _types(schema) and index is None and "pattern" not in schema:
            clause = _free_text(name, str(schema.get("description") or ""), self.evidence.text)
            if clause is not None and is_valid(schema, clause):
                return clause
        clock = _clock_part(name, schema, self.evidence.of("time") or [d[11:16] for d in self.evidence.of("datetime")])
        if clock is not None:
            return clock
        kind = self._kind(name, schema)
        if kind is None or (kind == "text" and isinstance(schema.get("pattern"), str)):
            return self._unkinded(name, schema, index)
        found = self._typed(kind, schema, name)
        if kind == "name" and re.search(r"именительн|nominative", str(schema.get("description") or ""), re.I):
            found = [proper_names.nominative(n, self.evidence.text) if isinstance(n, str) else n for n in found]
        if index is not None:
            return found[index] if index < len(found) else MISSING
        taken = self.taken.setdefault(kind, set())
        positions = range(self.start.get(kind, 0), len(found))
        if kind not in self.start and ranges.is_end(name) and kind not in ("email", "phone", "url", "id", "name"):
            positions = ranges.end_first(len(found))
        elsewhere = {str(v) for other, values in self.taken.items() if other != kind for v in values} \
            if kind in ("number", "count") else set()  # "account 5003218876" is no reading in kWh as well
        for position in positions:
            if found[position] not in taken and str(found[position]) not in elsewhere \
                    and is_valid(schema, found[position]):
                taken.add(found[position])
                return found[position]
        if kind == "text" and found:
            return found[0]
        return self._unkinded(name, schema, index) if index is None else MISSING

    def _postal_part(self, name: str) -> Any:
        """A part of the request's address for a property that names one (`street`, `city`, `zip`…) inside
        an object (an address, a place), or for a flat one when the request writes an address: the part, or
        MISSING when the address lacks it; None when no address applies."""
        part = postal.part_of(name)
        if part is None and any(self.parents) and re.fullmatch(r"street_?address|улица_?и_?дом", name, re.I):
            part = "street"  # inside an address object beside its city and postcode: the street alone
        if part is None or not self.evidence.addresses:
            return None
        value = getattr(self.evidence.addresses[0], part)
        return value if value is not None else MISSING

    def _unkinded(self, name: str, schema: dict, index: int | None) -> Any:
        """A boolean from phrasing, or a word that the schema's pattern accepts whole."""
        if "boolean" in _types(schema) and index is None:
            return spoken_values.described_flag(name, str(schema.get("description") or ""), self.evidence.text)
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and "string" in (_types(schema) or {"string"}):
            found = _pattern_values(name, spoken_values.matching(pattern, self.evidence.text), self.evidence.text)
            if index is not None:
                return found[index] if index < len(found) else MISSING
            # handed out like a kind's values: `from_airport` JFK and `to_airport` LHR, a range's end the second
            taken = self.taken.setdefault(f"pattern {pattern}", set())
            order = ranges.end_first(len(found)) if ranges.is_end(name) else range(len(found))
            fresh = [found[i] for i in order if found[i] not in taken]
            if fresh:
                taken.add(fresh[0])
            return fresh[0] if fresh else found[0] if found else MISSING
        if "string" in _types(schema) and index is None and _SLUG_THINGS.search(name.replace("_", " ")) \
                and self.evidence.of("slug"):
            taken = self.taken.setdefault("id", set())
            fresh = [slug for slug in self.evidence.of("slug") if slug not in taken]
            if fresh:  # "Deploy payments-api" for `service`
                taken.add(fresh[0])
                return fresh[0]
        if "string" in _types(schema) and index is None:
            chosen = spoken_values.described_choice(str(schema.get("description") or ""), self.evidence.text)
            return chosen if chosen is not MISSING else _after_its_word(name, schema, self.evidence.text)
        return MISSING

    def wanted(self, name: str, schema: dict) -> bool:
        if name.lower() in self.evidence.named:
            return True
        if self.fields and not any(self.parents) and not self.scope and name in self.fields \
                and name in {k for k, b in self.binding().items() if b.strong}:
            return True
        if postal.part_of(name) and self.evidence.addresses:
            return isinstance(self._postal_part(name), str)
        if isinstance(schema.get("enum"), list):
            return self._enum(name, schema["enum"], strict=True, schema=schema) is not MISSING
        if "boolean" in _types(schema):
            return spoken_values.described_flag(name, str(schema.get("description") or ""), self.evidence.text) \
                is not MISSING
        if "array" in _types(schema) and self._prose_list(name, schema, fitting_only=True):
            return True
        items = schema.get("items")
        if "array" in _types(schema) and self._the_list_with(name, schema):
            return True  # "a pizza with ham, pineapple and jalapenos" for the one list of strings, `extras`
        if "array" in _types(schema) and isinstance(items, dict) and self._listed_addresses(name, schema):
            return True  # "a meeting with ann@… and bob@…" for an optional `invitees` of e-mails
        if "array" in _types(schema) and isinstance(items, dict) and isinstance(items.get("enum"), list) \
                and item_lists.enum_items(items["enum"], self.evidence.text):
            return True  # "with a child seat and snow chains" for `extras` [child_seat, gps, snow_chains]
        if re.fullmatch(r"(?:\w+_)?b?cc(?:_\w+)?", name.lower()) and _COPY_CUE.search(self.evidence.text) \
                and copied(name, self.evidence.of("email"), self.evidence.text):
            return True  # an optional `cc` the request fills: "cc legal@corp.io"
        if "string" in _types(schema) and "pattern" not in schema \
                and _free_text(name, str(schema.get("description") or ""), self.evidence.text) is not None:
            return True  # an optional note the request writes («Курьеру: позвонить за час до приезда»)
        kind = self._kind(name, schema)
        if kind is None and "string" in _types(schema):
            described = spoken_values.described_choice(str(schema.get("description") or ""), self.evidence.text)
            return described is not MISSING and is_valid(schema, described)
        if kind is None or kind == "text" or _types(schema) & {"object", "array"}:
            return False
        found = self._typed(kind, schema, name)
        taken = self.taken.get(kind, set())
        return any(found[p] not in taken and is_valid(schema, found[p])
                   for p in range(self.start.get(kind, 0), len(found)))

    def _the_list_with(self, name: str, schema: dict) -> bool:
        """Whether the request's only list, written after "with", "including" or «с», belongs to this array: the
        tool's only array of plain strings (toppings, extras, options)."""
        lists = self.evidence.lists
        if len(lists) != 1 or not re.search(r"(?:\bwith|\bincluding|\bplus|(?<!\w)с|(?<!\w)со)\s*:?$",
                                            lists[0].cue, re.I):
            return False
        strings = [other for other, s in (self.fields or {}).items() if isinstance(s, dict) and "array" in _types(s)
                   and isinstance(s.get("items"), dict) and _types(s["items"]) <= {"string"}
                   and "enum" not in s["items"] and "format" not in s["items"]]
        return strings == [name] and bool(self._prose_list(name, schema))

    def stated_pairs(self) -> dict[str, Any]:
        """Key: value pairs the request states, for an object that names no properties (stated_pairs.py)."""
        return {} if any(self.parents) or self.scope else stated_pairs.pairs(self.evidence.text)

    def _listed_addresses(self, name: str, schema: dict) -> list[str]:
        """The e-mail addresses, phone numbers or URLs an optional array of them takes: those of its kind that no other
        field is bound to by its own words, when the request writes two or more, or one after a word of the field's
        ("invite ann@…", «пригласи …»). A `cc` keeps its own rule (it needs its cue)."""
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        if _types(items) - {"string"} or "enum" in items or re.fullmatch(r"(?:\w+_)?b?cc(?:_\w+)?", name.lower()):
            return []
        kind = self._kind(name, items) or self._kind(name, {**items, "description": schema.get("description", "")})
        if kind not in ("email", "phone", "url"):
            return []
        bound = {str(b.value) for other, b in self.binding().items() if other != name and b.strong} \
            if self.fields and not self.scope else set()
        found = [v for v in self._typed(kind, items, name) if str(v) not in bound and is_valid(items, v)]
        invited = _INVITED.search(self.evidence.text)
        return found if len(found) >= 2 or (found and invited) else []

    def count(self, name: str, schema: dict) -> int:
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        kind = self._kind(name, items) or self._kind(name, {**items, "description": schema.get("description", "")})
        if kind == "email" and not self.evidence.of("email") and schema.get("description"):  # «Участники (имена)»
            kind = self._kind(name, {**items, "description": schema.get("description", "")})
        if isinstance(items.get("enum"), list):
            self.listed[name] = item_lists.enum_items(items["enum"], self.evidence.text)
            return len(self.listed[name])
        if "object" in _types(items) and isinstance(items.get("properties"), dict) and not any(self.parents):
            self.listed[name] = self._objects(items)
            return len(self.listed[name])
        if _types(items) & {"object", "array"} or "enum" in items:
            return 0
        addresses = self._listed_addresses(name, schema) if not any(self.parents) else []
        if addresses:  # «пригласи anna@…, oleg@…» for `invitees` described «E-mail участников»
            self.listed[name] = addresses
            return len(addresses)
        given = self.roles().get(name) if not any(self.parents) and self.fields and name in self.fields else None
        if isinstance(given, list) and given and all(is_valid(items, g) for g in given):
            self.listed[name] = given  # "speakers Anna Lee and Bob Chen", «докладчики …» (roles.py)
            return len(given)
        tags = self._hashtags(name, schema)
        if tags:
            self.listed[name] = tags
            return len(tags)
        fitting = self._prose_list(name, schema, fitting_only=True) if kind in ("name", "person") else []
        if kind is None or kind == "text" or fitting:  # "assign it to jlee and mkhan" for `assignees`
            self.listed[name] = proper_names.nominative_list(fitting or self._prose_list(name, schema),
                                                             self.evidence.text)
            return len(self.listed[name])
        found = self._typed(kind, items, name)
        if not found and kind not in ("email", "phone", "url", "id"):
            named = [item.strip(" :;,") for item in self._prose_list(name, schema, fitting_only=True)]
            # "in the folders Inbox, Archive and Drafts"
            if named and all(is_valid(items, item) for item in named):
                self.listed[name] = named
                return len(named)
        if kind == "name":
            found = proper_names.nominative_list(found, self.evidence.text)
            self.listed[name] = found
        elif kind in ("email", "phone", "url", "id") and len(found) > 1 and not any(self.parents):
            # "an interview with Priya (priya@…), interviewers li@… and jo@…": the candidate's address is the
            # candidate field's, not one of the interviewers'
            bound = {str(b.value) for other, b in self.binding().items() if other != name and b.strong} \
                if self.fields and not self.scope else set()
            others = {str(v) for v in self.taken.get(kind, ())} | bound
            rest = [v for v in found if str(v) not in others]
            if rest and len(rest) < len(found):
                self.listed[name] = found = rest
        return len(found)

    def _hashtags(self, name: str, schema: dict) -> list[str]:
        """The "#tags" a request writes ("the hashtags #spring, #catalogue and #handmade", «#кофе»), for an array of
        strings named or described as tags: each once, with its "#" only when the items' pattern or description
        asks for it."""
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        said = f"{name} {schema.get('description') or ''}"
        if not re.search(r"tag|topic|label|keyword|тег|хэштег|хештег|метк", said, re.I) \
                or not _types(items) <= {"string"}:
            return []
        tags = _unique(m.group(1) for m in _HASHTAG.finditer(self.evidence.text))
        if not tags:
            return []
        marked = [f"#{t}" for t in tags]
        pattern = items.get("pattern")
        hashed = (isinstance(pattern, str) and bool(spoken_values.bounded_search(pattern, marked[0]))
                  and not spoken_values.bounded_search(pattern, tags[0])) or bool(
            re.search(r"with\s+(?:the\s+|a\s+)?(?:leading\s+)?[\"'«]?#|including\s+(?:the\s+)?[\"'«]?#|с\s+#|"
                      r"с\s+решёткой", said, re.I))
        chosen = marked if hashed else tags
        return chosen if all(is_valid(items, t) for t in chosen) else []

    def _objects(self, items: dict) -> list[dict]:
        """One object per item the request lists, each filled from its own stretch of the request (item_lists)."""
        # amounts of money mark items before counts do: "3 hours … at 95 each, plus 2 valves at 14.50 each"
        marking = dict(sorted(items["properties"].items(),
                              key=lambda kv: 0 if re.search(r"price|amount|cost|fee|total|sum", kv[0], re.I) else 1))
        if entities.shaped(items):  # {name, type, context}: each entity whole, once, with its kind
            made = [o for o in entities.objects(items, self.evidence.text) if is_valid(items, o)]
            if made:
                return made
        listed = self._bracketed(items)
        if listed:
            return listed
        pieces = item_lists.object_items(marking, self.evidence.text, self._marks)
        priced = any(re.search(r"price|qty|quantit|cost|amount|rate", p, re.I) for p in items["properties"])
        labels = [p for p, s in items["properties"].items() if isinstance(s, dict) and "string" in _types(s)
                  and "enum" not in s and _ITEM_LABEL.search(p) and (kind_of(p, s) in (None, "text", "product")
                                                                     or priced)]  # a priced line's `name` too
        objects = []
        for piece in pieces:
            try:
                hints = RequestHints(read(piece, self.evidence.lang),
                                     fields=items["properties"])  # bound in its stretch
                label = item_lists.label(piece)
                for prop in labels:  # "3 hours of plumbing at 95 each": the line's description is "plumbing"
                    if label:
                        hints.evidence.named.setdefault(prop.lower(), label)
                value = instance(items, hints)
            except Exception:  # noqa: BLE001 - an item that cannot be filled is left out, never guessed
                continue
            if isinstance(value, dict) and is_valid(items, value):
                objects.append(value)
        return objects if len(objects) == len(pieces) else []

    def _bracketed(self, items: dict) -> list[dict]:
        """Objects for items written with their amounts in brackets ("milk (2 litres) and eggs (12)"): the item's
        label property takes its name, a quantity property its amount, a unit property its unit; [] when the
        properties have no place for a name and an amount, or an object would not validate."""
        properties = {p: s for p, s in items["properties"].items() if isinstance(s, dict)}
        label = next((p for p, s in properties.items() if "string" in _types(s) and "enum" not in s
                      and _ITEM_LABEL.search(p)), None)
        amount = next((p for p, s in properties.items() if _types(s) & {"integer", "number"}
                       and re.search(r"quantit|qty|count|amount|number|units|how_?many|колич", p, re.I)), None)
        unit = next((p for p, s in properties.items()
                     if "string" in _types(s) and re.search(r"^units?$|measure|uom|единиц", p, re.I)), None)
        if not label or not amount:
            return []
        objects = []
        for name, quantity, written in item_lists.bracketed(self.evidence.text) or item_lists.measured(
                self.evidence.text):
            value = {label: name, amount: quantity}
            said = item_lists.unit_option(written, properties[unit]) if unit else None
            if unit and said is not None:
                value[unit] = said
            if not is_valid(items, value):
                return []
            objects.append(value)
        return objects

    def _marks(self, name: str, schema: dict) -> list[tuple[int, int]]:
        """Where the request writes the values that mark the items of an array of objects: e-mails for `email`,
        ids after the noun for `sku` ("SKU KB-102")."""
        kind = kind_of(name, schema)
        text = self.evidence.text
        if kind in ("money", "number") and re.search(r"price|amount|cost|fee|total|sum|сумм|цен|стоимост", name, re.I):
            return spoken_values.money_spans(text)  # "12.50 EUR on a taxi and 48 EUR on dinner": two expenses
        if kind in ("count", "number") and re.search(r"quantit|\bqty\b|count|amount_of|units|pieces", name, re.I):
            money = spoken_values.money_spans(text)  # "at 95 each" is a price, not a count
            return [m.span(1) for m in _COUNTED_ITEM.finditer(text)
                    if not any(start <= m.start(1) < end for start, end in money)]  # "2 pad thai and 3 spring rolls"
        if kind == "name" and not proper_names.names_an_organisation(name, str(schema.get("description") or "")):
            # "Priya Shah as a speaker, and Lars Eriksen and Mei Tanaka as guests"; not "the Falcon team" the tool's
            # own `team` field takes
            elsewhere = {b.value for b in self.binding().values() if b.strong} if self.fields else set()
            values = [p for p in self.evidence.of("proper") if p not in elsewhere]
        elif kind in ("email", "phone", "url"):
            values = self.evidence.of(kind)
        elif kind == "id":
            values = ids_after_nouns(text, name, str(schema.get("description") or "")) or _unique(
                m.group(1).rstrip(".-") for m in re.finditer(
                    rf"(?<!\w){re.escape(name)}\s+(?:#|№)?([A-Za-z]*\d[\w-]*|[A-Za-z][\w-]*\d[\w-]*)", text, re.I))
        else:
            return []
        marks, at = [], 0
        for value in values:
            found = text.find(str(value), at)
            if found < 0:
                return []
            marks.append((found, found + len(str(value))))
            at = found + len(str(value))
        return marks

    def _prose_list(self, name: str, schema: dict, fitting_only: bool = False) -> list[str]:
        """The items of the list in prose an array property of plain strings takes: the one whose cue
        names it ("tag it with a, b and c" for `tags`), else the request's only list."""
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        if not (_types(items) <= {"string"}) or "enum" in items:
            return []
        lists = self.evidence.lists
        described = str(schema.get("description") or "")
        fitting = [listed for listed in lists if prose_lists.fits(listed, name, described)]
        fitting.sort(key=lambda listed: not prose_lists.fits(listed, name, described, closest=True))
        chosen = fitting or ([] if fitting_only or len(lists) != 1 else lists)
        if not chosen:
            return []
        items = list(chosen[0].items)
        # "with options Lisbon, Porto and Madeira" for `options`: the list's own noun is no part of its first item
        noun = re.escape(name.lower().rstrip("s"))
        lead = re.match(rf"(?:the\s+)?{noun}s?\s*:?\s+(?=\S)", items[0], re.I) if items and len(noun) >= 3 else None
        if lead:
            items[0] = items[0][lead.end():]
        return items

    def _typed(self, kind: str, schema: dict, name: str = "") -> list[Any]:
        found = self.evidence.of(kind) or self.evidence.of(_FALLBACK.get(kind, ""))
        if kind == "product" and not found:  # "Review of the AeroPress Go: …": a capitalised name that is no place
            places = {*self.evidence.of("place"), *self.evidence.of("address")}
            found = [p for p in self.evidence.of("proper") if p not in places]
        if kind == "name":
            found = self._names(name, schema)
        elif kind in ("place", "address") and self.named:  # "to Hannah Schmidt" is the recipient's name
            claimed = {*(self.evidence.of("venue") if "venue" in self.named else ()),
                       *(self.evidence.of("name") if "person" in self.named else ()),
                       *self.taken.get("name", ())}
            found = [place for place in found if place not in claimed]
        elif kind in _OTHER_NUMBERS and not self.evidence.of(kind):
            found = [n for n in found if n not in self.evidence.of(_OTHER_NUMBERS[kind])]
        if kind == "email":
            found = copied(name, found, self.evidence.text)
        if kind in ("number", "money", "count", "party", "percent"):
            near_unit = spoken_values.unit_numbers(name, number_words.digits(self.evidence.text))
            found = _unique([*near_unit, *found])
        if kind == "id":
            found = _unique([*ids_after_nouns(self.evidence.text, name, str(schema.get("description") or "")), *found])
        types = _types(schema)
        if kind == "id" and types and "string" not in types:
            found = [int(v) for v in found if str(v).isdigit()]
        elif kind == "id":
            found = [str(v) for v in found]
        elif kind in ("number", "money", "count", "party", "percent") and types == {"integer"}:
            found = [v for v in found if float(v).is_integer()]
        elif kind == "datetime" and not found:  # "on 2026-04-02 from 10:00 to 11:30": a start and an end
            hours = self.evidence.of("time") or ["09:00"]
            days = self.evidence.of("date")
            if len(days) == len(hours) > 1:  # "from March 3, 2027 10:00 to March 7, 2027 18:00": each day its time
                found = [f"{d}T{hour}:00Z" for d, hour in zip(days, hours, strict=True)]
            else:
                found = [f"{d}T{hour}:00Z" for d in days for hour in hours]
        elif kind == "time":
            found = found or [d[11:16] for d in self.evidence.of("datetime")]  # "2025-03-05T07:15" -> "07:15"
            found = [f"{t}:00Z" for t in found] if schema.get("format") == "time" else found
        elif kind == "date" and not found:
            found = [d[:10] for d in self.evidence.of("datetime")]
        return found

    def _names(self, name: str, schema: dict) -> list[str]:
        """Proper names for a name property: a venue's (`restaurant_name`: "at Chez Panisse") or a
        person's ("for Maria Lopez", "Add Maria Lopez"), in the order written; a quote after "called" or
        "named" first ('a playlist called "Road trip"')."""
        called = [next(g for g in m.groups() if g) for m in _CALLED.finditer(self.evidence.text)]
        return _unique([*called, *self._proper_names(name, schema)])

    def _proper_names(self, name: str, schema: dict) -> list[str]:
        said, venues, places = self.evidence.of("name"), self.evidence.of("venue"), self.evidence.of("place")
        addresses, addressees = self.evidence.of("address"), self.evidence.of("addressee")
        unplaced = [p for p in self.evidence.of("proper")  # "in Oslo" is no one's name, nor "Baker Street"
                    if not _a_place(p, places) and not any(p in address for address in addresses)]
        described = str(schema.get("description") or "")
        if self.parents and re.search(r"place|venue|location|business|clinic|office|shop|store|restaurant|hotel",
                                      self.parents[-1], re.I):
            described = f"{described} venue"  # `place.name`: the place's own name
        if proper_names.names_an_organisation(name, described):
            return _unique([*venues, *addressees, *unplaced])
        if proper_names.names_a_venue(name, described):
            return _unique([*venues, *unplaced])
        # a company beside the person ("Olivia Chen from Northwind Traders") is the company field's, when there is one
        companies = addressees if "venue" in self.named else []
        people = _unique([*said, *(p for p in unplaced if p not in venues and p not in companies),
                          *(a for a in addressees if a not in companies)])
        people = _unique(proper_names.person_nominative(p, self.evidence.text) for p in people)
        part = proper_names.part_of_a_name(name, described)
        if part is None:
            return people
        parts = [proper_names.name_parts(p) for p in people]
        if part == "first":
            return _unique(named[0] if named else p for p, named in zip(people, parts, strict=True))
        if part == "patronymic":
            return _unique(named[2] for named in parts if named and named[2])
        return _unique(named[1] for named in parts if named)

    def _enum(self, name: str, options: list, strict: bool = False, schema: dict | None = None) -> Any:
        text = self.evidence.text.lower()
        kind = kind_of(name, {k: v for k, v in (schema or {}).items() if k != "enum"})
        if kind in ("currency", "language"):
            # "€1,250" names EUR though the word "EUR" is absent; "from English to German" names en and de:
            # the currencies or languages read, in the order written, a range's end (`target_lang`) the second
            said = _unique(code for code in map(lambda value: _option(value, options), self.evidence.of(kind)) if code)
            if ranges.is_end(name) and len(said) > 1 and kind not in self.start:
                said = [said[1], said[0], *said[2:]]
            fresh = [code for code in said if code not in self.taken.get(kind, set())]
            if fresh and not strict:  # strict: wanted() only asks, and takes nothing
                self.taken.setdefault(kind, set()).add(fresh[0])
            if fresh:
                return fresh[0]
        unit = unit_options.option(name, options, self.evidence.text)
        if unit is not None:  # "how many km is 26.2 miles": `from_unit` mi, `to_unit` km
            return unit
        repeated = recurrence.option(options, self.evidence.text)
        if repeated is not None:  # «ежемесячно» for `monthly`, "every other week" for `BIWEEKLY`
            return repeated
        chosen = _enum_by_meaning(options, str((schema or {}).get("description") or ""), self.evidence.text)
        if chosen is not None:
            return chosen
        symbolled = _symbolled_option(options, self.evidence.text)
        if symbolled is not None:  # "B-", "A+", "C#": the option written with its sign, not "B" or the first one
            return symbolled
        meant = [*_sentiment(options, self.evidence.text), *_russian_meanings(text), *_english_meanings(text)]
        for english in meant:  # «к стоматологу» names `dentist`
            chosen = next((o for o in options if isinstance(o, str) and o.lower().replace("_", " ") == english), None)
            if chosen is not None:
                return chosen
        written = next((o for o in options if isinstance(o, str) and o  # "12 boxes" names "box"
                        and re.search(rf"\b{re.escape(o.lower())}(?:e?s)?\b", text)), None)
        if written is not None:  # an option the request writes before one it only relates to ("in savings": savings)
            return written
        inflected = item_lists.enum_items(options, self.evidence.text)
        if inflected:  # «на сдачу плазмы» for «плазма», before «центр крови» relates to «цельная кровь»
            return inflected[0]
        for option in options:
            if isinstance(option, str) and option and overlap(stems(option), self.evidence.request_stems):
                return option
            numeric = isinstance(option, (int, float)) and not isinstance(option, bool)
            if numeric and option in self.evidence.of("number"):
                return option
        return transliterated_option(options, self.evidence.text)


def named_option(name: str, schema: dict, request: str, lang: str = "en") -> Any:
    """The enum option the request names for the field, in any form the model reads (its word, a Russian noun or
    adjective for it, a recurrence…), or MISSING: what assumptions.py asks before it calls a value a placeholder."""
    options = schema.get("enum")
    if not isinstance(options, list):
        return MISSING
    return RequestHints(read(request, lang))._enum(name, options, strict=True, schema=schema)


_DESCRIBED_RANGE = re.compile(r"(?:from|between|range|in|от)?\s*(-?\d+(?:\.\d+)?)\s*(?:to|and|–|—|-|\.\.|до)\s*"
                             r"(-?\d+(?:\.\d+)?)", re.I)


def _outside_described_range(schema: dict, value: float) -> bool:
    """Whether a number falls outside the range the field's description states ("a score from 0.0 to 1.0")."""
    m = _DESCRIBED_RANGE.search(str(schema.get("description") or ""))
    if not m:
        return False
    low, high = sorted((float(m.group(1)), float(m.group(2))))
    return low < high and not low <= value <= high


_CARD_GROUPS = re.compile(r"(?<![\d\w+])\d{4}(?:[ \u00a0-]\d{4}){2,3}(?![\d\w])")
"""A card's number in groups of four ("7751 2300 8812 4401")."""
_KIND_FIELD = re.compile(r"activity|sport|exercise|workout|(?:^|_|\b)(?:type|kind)(?:$|_|\b)|what kind|вид\w*|тип\w*",
                         re.I)
"""A field that asks what kind of thing was done: `activity`, `sport`, `type` described "What kind of exercise"."""


def _noun_after_a_measure(text: str) -> Any:
    """The noun right after a quantity with its unit ("a 5 km swim", "a 30 minute row"), or MISSING."""
    spoken = number_words.digits(text[:READ_LIMIT])  # where the mentions stand
    for m in binding.mentions(text):
        if m.kind == "quantity" and m.unit:
            after = re.match(r"\s*-?\s*([a-z]{3,}|[а-яё]{3,})\b", spoken[m.end:])
            if after and after.group(1).lower() not in STOPWORDS | {"for", "from", "with", "each", "per", "and"}:
                return after.group(1)
    return MISSING


_INVITED = re.compile(r"\b(?:invit\w*|with|attendees?|guests?|participants?|cc)\b|(?<!\w)(?:пригла\w*|с|со|"
                      r"участник\w*|гост\w*)(?!\w)", re.I)
"""Words before the people a meeting or a message takes along."""

_SIGNED_OPTION = re.compile(r"[\w ]*\w[+#-]+|[+#-]+\w+")


def _symbolled_option(options: list, text: str) -> Any:
    """The enum option with a sign at its edge ("A+", "B-", "C#", "C++") the request writes as a whole token (no
    letter, digit or sign right beside it), the longest first; None when none is written."""
    signed = sorted((o for o in options if isinstance(o, str) and _SIGNED_OPTION.fullmatch(o)), key=len, reverse=True)
    for flags in (0, re.I):
        for option in signed:
            if re.search(rf"(?<![\w+#-]){re.escape(option)}(?![\w+#-])", text, flags):
                return option
    return None


def transliterated_option(options: list, text: str) -> Any:
    """An English option a Russian request writes in Cyrillic letters («номер делюкс» for `deluxe`, «люкс» for `lux`,
    «стандарт» for `standard`): the option whose Latin spelling the word's transliteration comes closest to, if close
    enough; MISSING otherwise."""
    latin_options = [(o, o.lower().replace("_", " ")) for o in options if isinstance(o, str) and o.isascii()
                     and len(o) >= 4]
    if not latin_options:
        return MISSING
    best, best_ratio = MISSING, 0.0
    for word in re.findall(r"[а-яё]{4,}", text.lower())[:200]:
        spelled = _spelled_in_latin(word)
        for option, lowered in latin_options:
            for candidate in (spelled, _spelled_in_latin(word[:-1]) if len(word) >= 4 else spelled):
                ratio = difflib.SequenceMatcher(None, candidate, lowered).ratio()
                if ratio > best_ratio:
                    best, best_ratio = option, ratio
    return best if best_ratio >= 0.8 else MISSING


def _spelled_in_latin(word: str) -> str:
    """A Russian word in the Latin letters an English word borrowed from would have («делюкс» delux, «шейк» sheik)."""
    for cyrillic, latin in (("кс", "x"), ("дж", "j"), ("тч", "tch"), ("ай", "i"), ("й", "y")):
        word = word.replace(cyrillic, latin)
    return latin_letters(word)


_NEGATIVE_MEANS = re.compile(r"negative|отрицательн|below zero|minus|\(\s*[-−]\s*\)|(?<![\w-])[-−]\s*(?:to|for)\s+"
                             r"(?:remove|subtract|take|decrease)|(?:remove|subtract|decrease)\w*\s*\(\s*[-−]", re.I)
"""A signed field's description that says a negative value takes away: "negative to remove", "add (+) or remove
(-)"."""
_TAKING_AWAY = re.compile(
    r"\b(?:sold|sell|sells|remove[sd]?|removing|take\s+(?:\w+\s+)?off|took\s+(?:\w+\s+)?off|subtract\w*|deduct\w*|"
    r"withdr[ae]w\w*|lost|lose|damaged|broken|used up|consumed|gave away|decrease\w*|reduce\w*|lower\w*|"
    r"write\s+off|written\s+off|wrote\s+off|minus|debit\w*|spent|shipped out|returned to supplier)\b|"
    r"(?<!\w)(?:продал\w*|продан\w*|спис\w*|спиш\w*|убер\w*|убра\w*|вычт\w*|вычест\w*|уменьш\w*|сниз\w*|сним\w*|забра\w*)",
    re.I)
_ADDING = re.compile(r"\b(?:add|adds|added|received|receive|restock\w*|bought|increase\w*|raise\w*|put\s+back)\b|"
                     r"(?<!\w)(?:добав\w*|получил\w*|приш[её]л\w*|увелич\w*)", re.I)


def _takes_away(description: str, text: str) -> bool:
    """A signed number whose description says negative values remove ("negative to remove, positive to add"), for a
    request that takes away ("we sold 14 units", "take them off") and adds nothing."""
    return bool(_NEGATIVE_MEANS.search(description) and _TAKING_AWAY.search(text) and not _ADDING.search(text))


_TITLE_WORD = r"[A-Z][\w'’:!?-]*"
_SMALL_WORD = r"(?:of|the|a|an|and|in|on|at|to|for|with|from|into|or|de|la|le|du|von)"
_BY_CREATOR = re.compile(
    rf"(?<![\w'’])(?P<title>{_TITLE_WORD}(?:\s+(?:{_SMALL_WORD}\s+){{0,3}}(?:{_TITLE_WORD}|\d+)){{0,12}}),?\s+by\s+"
    r"(?P<creator>[A-Z][\w'’-]*(?:\s+(?:[A-Z]\.|[A-Z][\w'’-]*|(?:de|van|von|le|la|du|da|der|di)(?=\s+[A-Z]))){0,5})")
"""A work and who made it: "The Left Hand of Darkness by Ursula K. Le Guin", "Kind of Blue by Miles Davis"."""
_WORK_FIELD = re.compile(r"^(?:title|name|book|book_?title|song|song_?title|track|album|film|movie|work|piece|painting|"
                         r"novel|show|series|game)$", re.I)
_CREATOR_FIELD = re.compile(r"author|artist|writer|composer|director|creator|band|musician|novelist|painter|"
                            r"автор|исполнител|режисс", re.I)


@functools.lru_cache(maxsize=256)
def _work_or_creator(name: str, text: str) -> str | None:
    """The title of a work (`title`) or its maker (`author`, `artist`) from "<Title> by <Name>", the title's
    leading verb aside ("Add The Left Hand of Darkness by …"); None when the request writes no such phrase."""
    m = _BY_CREATOR.search(text)
    if not m:
        return None
    if _CREATOR_FIELD.search(name):
        return m["creator"].rstrip(".")
    if _WORK_FIELD.match(name):
        title = m["title"]
        words = title.split()
        if words and proper_names.leads_a_sentence(text,
                                                   m.start("title")) and words[0].lower() in _VERBS_BEFORE_A_TITLE:
            title = " ".join(words[1:])
        return title or None
    return None


_VERBS_BEFORE_A_TITLE = {"add", "save", "put", "log", "play", "queue", "read", "watch", "buy", "order", "find",
                         "search", "borrow", "reserve", "recommend", "review", "rate", "track", "bookmark", "list"}


_COUNTRIES = {
    "AT": "austria|австри", "AU": "australia|австрали", "BE": "belgium|бельги", "BR": "brazil|бразили",
    "CA": "canada|канад", "CH": "switzerland|швейцари", "CN": "china|кита", "CZ": "czech republic|czechia|чехи",
    "DE": "germany|германи", "DK": "denmark|дани", "EE": "estonia|эстони", "ES": "spain|испани",
    "FI": "finland|финлянди", "FR": "france|франци", "GB": "united kingdom|great britain|britain|england|scotland|"
    "wales|the uk|великобритани|англи", "GR": "greece|греци", "HU": "hungary|венгри", "IE": "ireland|ирланди",
    "IL": "israel|израил", "IN": "india|инди", "IS": "iceland|исланди", "IT": "italy|итали", "JP": "japan|япони",
    "KR": "south korea|korea|коре", "KZ": "kazakhstan|казахстан", "LT": "lithuania|литв", "LV": "latvia|латви",
    "MX": "mexico|мексик", "NL": "netherlands|holland|нидерланд|голланди", "NO": "norway|норвеги",
    "NZ": "new zealand|новая зеланди|новой зеланди", "PL": "poland|польш", "PT": "portugal|португали",
    "RO": "romania|румыни", "RS": "serbia|серби", "RU": "russia|росси", "SE": "sweden|швеци",
    "SG": "singapore|сингапур", "TR": "turkey|türkiye|турци", "UA": "ukraine|украин",
    "US": "united states|the usa|the us|america|сша|америк", "ZA": "south africa|юар", "AR": "argentina|аргентин",
    "AE": "united arab emirates|the uae|оаэ", "EG": "egypt|египт", "TH": "thailand|таиланд", "VN": "vietnam|вьетнам",
    "GE": "georgia|грузи", "AM": "armenia|армени", "BY": "belarus|беларус|белорусси", "HR": "croatia|хорвати",
    "BG": "bulgaria|болгари", "SK": "slovakia|словаки", "SI": "slovenia|словени", "LU": "luxembourg|люксембург",
    "CY": "cyprus|кипр", "MT": "malta|мальт", "CL": "chile|чили", "CO": "colombia|колумби", "PE": "peru|перу",
    "ID": "indonesia|индонези", "MY": "malaysia|малайзи", "PH": "philippines|филиппин", "MA": "morocco|марокк",
    "NG": "nigeria|нигери", "KE": "kenya|кени", "SA": "saudi arabia|саудовск"}
"""ISO 3166-1 alpha-2 codes of the countries a request most often names (English names, Russian stems)."""
_COUNTRY_NAMES = re.compile("|".join(rf"(?P<{code}>(?<![\w-])(?:{names})\w*)" for code, names in _COUNTRIES.items()),
                            re.I)


_COUNTRY_WRITTEN = re.compile(r"(?<![\w-])(?i:country|страна|стране|страну)\s*(?i:code\s*)?[:=—-]?\s*"
                              r"([A-Z]{2})(?![\w-])")


def _country_code(name: str, schema: dict, text: str) -> str | None:
    """A country's ISO code for a field that wants a code (`country` with pattern ^[A-Z]{2}$, or described as
    "ISO 3166-1 alpha-2" or "country code"), from the country the request names ("based in Germany": DE); None for
    any other field, when the request writes the code itself, or names no country the table knows."""
    said = f"{name} {schema.get('description') or ''}".lower()
    if not re.search(r"country|countries|стран", said):
        return None
    pattern = schema.get("pattern")
    wants_code = re.search(r"iso|alpha-?2|code|код", said) or (
        isinstance(pattern, str) and spoken_values.matching(pattern, "DE") == ["DE"]
        and not spoken_values.matching(pattern, "Germany"))
    if not wants_code:
        return None
    for m in _COUNTRY_NAMES.finditer(text):
        code = m.lastgroup or ""
        if is_valid(schema, code):
            return code
    for m in _COUNTRY_WRITTEN.finditer(text):  # "country GB": the code, written by the user
        if m.group(1).upper() in _COUNTRIES and is_valid(schema, m.group(1).upper()):
            return m.group(1).upper()
    for m in _CITY_COMMA_CODE.finditer(text):  # "Porto, PT": the code after the city's comma
        if m.group(1) in _COUNTRIES and is_valid(schema, m.group(1)):
            return m.group(1)
    return None


_CITY_COMMA_CODE = re.compile(r"(?<=[a-zа-яё]),\s*([A-Z]{2})(?![\w])")


_COUNTED_ITEM = re.compile(r"(?<![\w.,$€£¥₽-])(?<!\bat )(?<!\bfor )(?<!@ )(\d+)\s*(?:x\s+)?(?=[a-zа-яё])"
                           r"(?!(?:%|percent|am\b|pm\b|st\b|nd\b|rd\b|th\b|each\b|apiece\b|per\b))", re.I)
"""A count written before what it counts ("2 pad thai", "3 x spring rolls"), marking one item of a list."""
_ITEM_LABEL = re.compile(r"^(?:description|desc|item|item_?name|label|what|product|service|title|name|details|dish|"
                         r"meal|food|drink|article|goods|thing|"
                         r"описание|название|наименование)$", re.I)
"""The property that says what an item of an array of objects is (an expense's `description`, a line's `item`)."""


_END = r"(?=[.!?](?:\s|$)|$)"
_FREE_TEXT = [
    (re.compile(r"^(?:body|message|text|content|msg|(?:e?mail|message)_?(?:body|text)|сообщение|текст)$", re.I),
     [re.compile(rf"\b(?:telling|tell|saying|say|informing|inform|letting\s+[\w@.+-]+\s+know|let\s+[\w@.+-]+\s+know)\s+"
                 rf"(?:(?:him|her|them|me|us|everyone|all|the\s+team)\s+)?(?:that\s+)?(?P<x>[^\"«“]{{3,500}}?){_END}",
                 re.I),
      re.compile(rf"\b(?:e-?mail|message|text|write\s+to|ping|notify)\s+(?:[\w@.'-]+\s+){{1,3}}?that\s+"
                 rf"(?P<x>[^\"«“]{{3,500}}?){_END}", re.I),
      re.compile(rf"(?<!\w)(?:напиши|сообщи|скажи|передай)\w*\s+(?:(?:ему|ей|им|всем)\s*|[^.!?]{{1,80}}?)?,?\s*что\s+"
                 rf"(?P<x>[^\"«“]{{3,500}}?){_END}",
                 re.I)]),
    (re.compile(r"reason|why|cause|причин|основани", re.I),
     [re.compile(rf"\b(?:because|since|due to|as long as|given that)\s+(?P<x>[^.!?]{{3,300}}?){_END}", re.I),
      re.compile(rf"(?<!\w)(?:потому что|так как|из-за|по причине)\s+(?P<x>[^.!?]{{3,300}}?){_END}", re.I),
      re.compile(rf",\s*(?P<x>(?:I|I'm|I've|we|we're|my|our|the|it|it's|she|he|they|there's|there\s+is)\b[^.!?]{{3,"
                 rf"300}}?){_END}")]),
    (re.compile(r"comment|note|instruction|remark|комментари|примечани|указани", re.I),
     [re.compile(rf"(?:^|[.!?]\s+)(?:(?:for\s+the\s+|to\s+the\s+)?[\w-]{{2,20}}|[А-ЯЁA-Z][а-яё]+)"
                 rf"\s*:\s*(?P<x>[^.!?]{{3,300}}?){_END}")]),
    (re.compile(r"purpose|назначени|memo", re.I),
     [re.compile(r"(?<!\w)за\s+(?P<x>[^,.!?«\"]{3,200})", re.I),
      re.compile(r"(?:\d|[$€£₽]|\b(?:USD|EUR|GBP|dollars?|euros?|pounds?))\s+(?:\w+\s+)?for\s+(?P<x>[^,.!?\"]{3,200})",
                 re.I)]),
]
"""Free-text fields and the words that introduce what goes in them: a message's body ("telling them the files are in
the shared drive"), a reason ("because…", ", I have a dentist appointment"), a note after a label («Курьеру: позвонить
за час до приезда»), a payment's purpose («за аренду склада»)."""


@functools.lru_cache(maxsize=256)
def _free_text(name: str, description: str, text: str) -> str | None:
    """The part of the request a free-text field takes (see _FREE_TEXT), not the whole request; None when no cue
    introduces one (the caller then decides as before)."""
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name)
    for field_name, cues in _FREE_TEXT:
        anchored = field_name.pattern.startswith("^")  # a message's body is named so; a reason may be described so
        if not (field_name.search(spoken) or (not anchored and field_name.search(description))):
            continue
        for cue in cues:
            m = cue.search(text)
            if m and m["x"].strip():
                quote = next((q for q in _QUOTED.finditer(text) if q.start() <= m.start("x") < q.end()), None)
                if quote is not None:  # «комментарий «за билеты»»: the quote whole, not what its «за» begins
                    return next(g for g in quote.groups() if g)
                said = m["x"].strip(" ,;:")
                return said[:1].upper() + said[1:] if anchored else said
        return None
    return None


_FROM_END = re.compile(r"^(?:sender|from|origin|source|shipper|pickup|pick_?up_?from|seller|consignor|departure|"
                       r"отправитель|откуда)", re.I)
_TO_END = re.compile(r"^(?:recipient|receiver|to|destination|target|consignee|dropoff|drop_?off|delivery|deliver_?to|"
                     r"ship_?to|addressee|buyer|arrival|получатель|куда)", re.I)
_MOVEMENT = re.compile(r"\bfrom\s+(?P<a>[^.!?;]{2,200}?)\s+to\s+(?P<b>[^!?;]{2,300}?)(?=\.\s|[.!?;]?$)|"
                       r"(?<!\w)от\s+(?P<ra>[^.!?;]{2,200}?)\s+(?:для|к|ко|до)\s+(?P<rb>[^!?;]{2,300}?)(?=\.\s|[.!?;]?$)",
                       re.I)


_FIELD_KIN = {"position": {"role", "job", "title", "post", "vacancy", "должност", "вакансi"},
              "role": {"position", "job", "title"}, "title": {"role", "position", "job"},
              "branch": {"library", "office", "store", "shop", "bank", "филиал", "отделени"},
              "route": {"to", "boat", "ferry", "line", "маршрут"}, "model": {"car", "make", "машин", "автомобил"},
              "centre": {"center", "club", "gym"}, "center": {"centre", "club", "gym"},
              "museum": {"gallery", "музе", "галере"}, "clinic": {"vet", "surgery", "hospital", "клиник"},
              "venue": {"at", "club", "hall", "centre", "center"}, "hotel": {"inn", "hotel", "отел", "гостиниц"}}
"""Words beside a proper name that mark it as a field's value though they are not the field's own word: "the
Senior Data Engineer role" for `position`, "the Hilton Garden Inn" for `hotel`, "the boat to Bainbridge" for `route`."""


def _end_of_a_movement(name: str, text: str) -> str | None:
    """The words of one end of "from A to B" for an object named for that end; None for another object, or when
    the request writes no such phrase."""
    side = "a" if _FROM_END.match(name) else "b" if _TO_END.match(name) else None
    if side is None:
        return None
    m = _MOVEMENT.search(text)
    if not m:
        return None
    return m[side] if m[side] else m["r" + side]


_HOUR_FIELD = re.compile(r"(?:^|_)(?:hour|hh|час)$", re.I)
_MINUTE_FIELD = re.compile(r"(?:^|_)(?:minute|min|mm|минута)$", re.I)


def _clock_part(name: str, schema: dict, times: list[str]) -> int | None:
    """The hour or the minute of the time the request says, for a clock split in two integer fields (`hour` 6 and
    `minute` 15 for "quarter past six"); None for any other field, or when no time is said."""
    if not times or not (_types(schema) & {"integer", "number"}):
        return None
    top = schema.get("maximum")
    if _HOUR_FIELD.search(name) or (top in (23, 24) and re.search(r"hour|час", name, re.I)):
        return int(times[0][:2])
    if _MINUTE_FIELD.search(name) or (top == 59 and re.search(r"min|мин", name, re.I)):
        return int(times[0][3:5])
    return None


_RU_ENUM_WORDS = {
    "стоматолог": "dentist", "дантист": "dentist", "зубн": "dentist", "терапевт": "therapist", "кардиолог": "cardiologi"
                                                                                                            "st",
    "педиатр": "pediatrician", "окулист": "ophthalmologist", "офтальмолог": "ophthalmologist",
    "дерматолог": "dermatologist", "хирург": "surgeon", "невролог": "neurologist", "гинеколог": "gynecologist",
    "психолог": "psychologist", "ортопед": "orthopedist", "коробк": "box", "коробок": "box", "ящик": "box",
    "пачк": "pack", "пачек": "pack", "бутыл": "bottle", "штук": "piece", "красн": "red", "син": "blue",
    "зелен": "green", "зелён": "green", "черн": "black", "чёрн": "black", "бел": "white", "жёлт": "yellow",
    "желт": "yellow", "высок": "high", "средн": "medium", "низк": "low", "срочн": "urgent", "обогрев": "heat",
    "охлажд": "cool", "нагрев": "heat", "сберегательн": "savings", "накопительн": "savings", "текущ": "checking",
    "кредитн": "credit", "дебетов": "debit", "карт": "card", "карточк": "card", "эконом": "economy",
    "бизнес": "business", "премиум": "premium", "вентилятор": "fan", "осуш": "dry", "наличн": "cash",
    "обычн": "normal", "нормальн": "normal", "прода": "sell", "купи": "buy", "покупк": "buy", "детск": "nursery",
    "спальн": "bedroom", "кухн": "kitchen", "гостиная": "living room", "гостиной": "living room",
    "гостиную": "living room", "ванн": "bathroom", "прихож": "hallway", "балкон": "balcony"}
"""Russian word beginnings for English enum values ("dentist", "box", "high"): a small, fixed dictionary."""


def _russian_meanings(text: str) -> list[str]:
    """The English enum values the request's Russian words mean, in the order written."""
    found = []
    for m in re.finditer(r"[а-яё]+", text):
        word = m.group(0)
        # a long stem takes a noun's ending too: «охлажд|ение», «эконом|класса»
        stem = max((k for k in _RU_ENUM_WORDS if word.startswith(k) and len(word) - len(k) <= (5 if len(k) >= 5
                                                                                              else 3)),
                   key=len, default=None)
        if stem:
            found.append(_RU_ENUM_WORDS[stem])
    return list(dict.fromkeys(found))


_EN_ENUM_PHRASES = {
    r"meat-?free|meatless|without meat|no meat|veggie": "vegetarian", r"plant-?based|no animal products": "vegan",
    r"gluten-?free|no gluten": "gluten free", r"dairy-?free|lactose-?free|no dairy": "dairy free",
    r"asap|right away|immediately|urgently": "urgent"}
"""English phrases for enum values they mean without naming them: "a meat-free lasagne" is vegetarian."""


def _enum_by_meaning(options: list, description: str, text: str) -> Any:
    """The option the request means by more than one word: the option written out ("out of stock" for
    `out_of_stock`, not `in_stock` for the word "stock"), a phrase that means it («мало на складе»: `low_stock`), or
    the option the schema's description pairs with a word the request holds ("AMS Amsterdam, RTM Rotterdam":
    Rotterdam is RTM). None when nothing beyond a single word decides (the caller's own matching then applies)."""
    spoken = re.sub(r"[_-]", " ", text.lower())
    meant = [meaning for pattern, meaning in _STATE_PHRASES.items() if re.search(pattern, spoken, re.I)]
    best, score = None, 0
    for option in options:
        if not isinstance(option, str) or not option.strip():
            continue
        phrase = re.sub(r"[_-]+", " ", option.lower()).strip()
        if " " in phrase and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", spoken):
            points = 10 * len(phrase.split())
        elif phrase in meant:
            points = 9
        else:
            points = 0
            for m in re.finditer(rf"(?<![\w-]){re.escape(option)}(?![\w-])\s*(?:[:=(–—-]|is|means|for)?\s*"
                                 rf"([A-Za-zА-Яа-яЁё][A-Za-zА-Яа-яЁё' ]{{1,30}}?)\s*(?=[,;.)/|]|$|\s[A-Z]{{2,}}\b)",
                                 description):
                words = [w for w in re.findall(r"[a-zа-яё]{3,}", m.group(1).lower())]
                if words and all(re.search(rf"(?<!\w){re.escape(w[:max(4, len(w) - 2)])}", spoken) for w in words):
                    points = 8
            for m in re.finditer(rf"([A-Z][A-Za-zА-Яа-яЁё' ]{{1,30}}?)\s*\(\s*{re.escape(option)}\s*\)", description):
                words = re.findall(r"[a-zа-яё]{3,}", m.group(1).lower())
                if words and all(re.search(rf"(?<!\w){re.escape(w[:max(4, len(w) - 2)])}", spoken) for w in words):
                    points = 8
        if points > score:
            best, score = option, points
    return best


_STATE_PHRASES = {
    r"\bout of stock\b|\bsold out\b|\bnone left\b|\bno stock\b|нет (?:на складе|в наличии)|законч\w+|распродан\w*":
        "out of stock",
    r"\blow (?:on )?stock\b|\brunning low\b|\bfew left\b|мало (?:на складе|осталось)|заканчива\w+|на исходе":
        "low stock",
    r"\bin stock\b|\bavailable\b|в наличии|есть на складе": "in stock",
}
"""Phrases for stock states, both languages: «мало на складе» is low stock."""


def _english_meanings(text: str) -> list[str]:
    found = [(m.start(), meaning) for phrase, meaning in _EN_ENUM_PHRASES.items()
             for m in re.finditer(rf"(?<![\w-])(?:{phrase})(?![\w-])", text, re.I)]
    return list(dict.fromkeys(meaning for _, meaning in sorted(found)))


def _tone(english: str, russian: str) -> re.Pattern:
    """Whole English words, and Russian word beginnings, of one tone."""
    return re.compile(rf"\b(?:{english})\b|(?<!\w)(?:{russian})", re.I)


_PRAISE = _tone("love[sd]?|lovely|great|excellent|amazing|awesome|fantastic|perfect|good|nice|happy|like[sd]?|"
                "enjoy\\w*|"
                "recommend\\w*|brilliant|delicious|wonderful|best",
                "отличн|прекрасн|хорош|нрав|люблю|понравил|рекоменду|вкусн|удобн")
_COMPLAINT = _tone("hate[sd]?|bad|terrible|awful|poor|broke|broken|crack\\w*|leak\\w*|disappoint\\w*|worst|useless|"
                   "faulty|defective|slow|noisy|rude|late|cold|stopped working|fell apart|refund",
                   "плох|ужасн|сломал|трещин|разочаров|не работает|медленн|шумн|холодн")


def _sentiment(options: list, text: str) -> list[str]:
    """For a sentiment enum (positive, negative, and mixed or neutral): praise and a complaint in the same text are
    mixed ("I love the coffee it makes, but the lid cracked"), one of them alone is positive or negative."""
    said = {str(o).lower() for o in options}
    if not {"positive", "negative"} <= said:
        return []
    good, bad = bool(_PRAISE.search(text)), bool(_COMPLAINT.search(text))
    if good and bad:
        return ["mixed"] if "mixed" in said else []
    return ["positive"] if good else ["negative"] if bad else ["neutral"] if "neutral" in said else []


_LANGUAGE_CODES = {"English": "en", "French": "fr", "German": "de", "Spanish": "es", "Italian": "it", "Russian": "ru",
                   "Chinese": "zh", "Japanese": "ja", "Portuguese": "pt", "Korean": "ko", "Arabic": "ar"}


def _option(value: str, options: list) -> Any:
    """The enum option that names a currency or a language read from the request: "EUR" itself, "German" as
    "de", "de-DE", "DE" or "German", else None."""
    wanted = {str(value).lower(), _LANGUAGE_CODES.get(str(value), "\0")}
    for option in options:
        if isinstance(option,
                      str) and (option.lower() in wanted or option.lower().split("-")[0].split("_")[0] in wanted):
            return option
    return None


_COPY_CUE = re.compile(r"(?<![\w@.])(b?cc|copy(?:ing)?|в копии|копию)\b[:\s]", re.I)
_NEXT_CUE = re.compile(r"\b(?:subject|body|saying|with|about|тема|текст)\b|[\"«“]", re.I)


def copied(name: str, found: list[str], text: str) -> list[str]:
    """The e-mail addresses a `cc` / `bcc` field takes (those written after "cc", "bcc"), and those a main
    recipient field takes (the others): "Email priya@…, cc tom@… and ops@…" sends to priya and copies the rest."""
    cues = [(m.start(), m.group(1).lower()) for m in _COPY_CUE.finditer(text)]
    if not cues:
        return found
    spans: dict[str, list[str]] = {}
    for start, cue in cues:
        rest = text[start:]
        stop = _NEXT_CUE.search(rest, len(cue) + 1)
        kind = "bcc" if cue == "bcc" else "cc"
        spans.setdefault(kind, []).extend(e for e in _EMAIL.findall(rest[: stop.start() if stop else len(rest)])
                                          if e in found)
    spoken = name.lower().replace("-", "_")
    if spoken in ("cc", "bcc") or spoken.endswith(("_cc", "_bcc")) or spoken.startswith(("cc_", "bcc_")):
        return spans.get("bcc" if "bcc" in spoken else "cc", [])
    copied = {e for emails in spans.values() for e in emails}
    return [e for e in found if e not in copied] or found


_CALLED = re.compile(r"(?:\bcalled|\bnamed|\btitled|(?<!\w)под названием|(?<!\w)с названием)\s+"
                     r"(?:\"([^\"]{1,120})\"|«([^»]{1,120})»|“([^”]{1,120})”)", re.I)
_LABEL_FIELD = re.compile(r"^(?:label|title|name|caption|nickname|alias|display_?name|tag)$", re.I)
_BARE_CALLED = re.compile(r"\b(?:called|named|labell?ed|titled|nicknamed)\s+([A-ZА-ЯЁ0-9][\w'’&-]*(?:\s+[A-ZА-ЯЁ0-9][\w"
                          r"'’&-]*){0,4})")
"""A name given without quotes: "a timer called Tea", "a playlist named Road Trip"."""
_FROM_TO = re.compile(r"\bfrom\s+(?:the\s+|my\s+|our\s+|your\s+)?([\w-]+)\s+(?:to|into)\s+(?:the\s+|my\s+|our\s+|"
                      r"your\s+)?"
                      r"([\w-]+)", re.I)
_HASHTAG = re.compile(r"(?<![\w&#/])#([^\W\d_][\w-]{0,60})")
"""A hashtag as written: "#spring", «#кофе» (not "#5", a number; not "&#39;")."""
_TAGGED = re.compile(r"(?<![\w&])#([A-Za-z][\w-]*)")


def _after_its_word(name: str, schema: dict, text: str) -> Any:
    """A plain string property's value that the request names by the property's own word: a channel written
    "#releases", a room called "the bedroom" (a word that ends in the property's word), "room B12" or
    "project Apollo" (a capitalised or numbered value right after it), "the contractors group" (the word before
    it); else MISSING."""
    words = re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").lower())
    if not words:
        return MISSING
    word = words[-1] if words[-1] != "name" or len(words) == 1 else words[-2]
    quoted = re.search(rf"(?<![\w-]){re.escape(word[:max(4, len(word) - 2)])}\w*\s*:?\s*(?:\"([^\"]+)\"|«([^»]+)»|"
                       r"“([^”]+)”)",
                       text, re.I)
    if quoted:  # 'labelled "Tea"', 'note "Thanks!"': a quote right after the property's word
        return next(g for g in quoted.groups() if g)
    pair = _FROM_TO.search(text)
    lead = (re.findall(r"[a-z]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).lower()) or [""])[0]
    if pair and lead in ("from", "source", "to", "target", "destination") and not any(
            ch.isdigit() for ch in pair.group(1) + pair.group(2)):  # "from checking to savings"
        return pair.group(2) if ranges.is_end(name) or lead == "destination" else pair.group(1)
    if word in ("channel", "hashtag", "tag", "topic"):
        tagged = _TAGGED.findall(text)
        if tagged:
            return tagged[0]
    after = re.search(rf"(?<![\w-]){re.escape(word)}s?\s+(?:#|№|no\.?\s*)?([A-Z0-9][\w-]*)", text, re.I)
    if after and (after.group(1)[0].isupper() or any(ch.isdigit() for ch in after.group(1))) \
            and after.group(1).lower() not in _LINKS:
        return after.group(1)
    if len(word) >= 4:
        compound = re.search(rf"\b([a-z]{{3,}}{re.escape(word)})\b", text, re.I)
        if compound:  # "the bedroom"; a proper name keeps its capital ("the Rijksmuseum")
            written = compound.group(1)
            return written if written[0].isupper() and compound.start() > 0 else written.lower()
    for stem in (ru for ru, gloss in GLOSSARY.items() if gloss == word):  # «группы contractors», «канал «Релизы»»
        named = re.search(rf"(?<!\w){stem}\w*\s+(?:«([^»]+)»|\"([^\"]+)\"|([A-Za-z0-9][\w.-]*\w))", text, re.I)
        if named:
            return next(g for g in named.groups() if g)
    before = re.search(rf"\b(?:the|my|our|your|their)\s+([\w-]{{3,}})\s+{re.escape(word)}\b", text, re.I)
    # "the contractors group" names one; "the dairy items" are a kind of several (a filter), no one's name
    if before and before.group(1).lower() not in _NOT_NAMING:
        # "the contractors group"; a room is named with its word: "the living room"
        return f"{before.group(1)} {word}" if word in _NAMED_WITH_ITS_WORD else before.group(1)
    return MISSING


_NAMED_WITH_ITS_WORD = {"room", "hall", "office"}
_SLUG_THINGS = re.compile(r"\b(?:service|app|application|device|repo|repository|project|host|server|package|branch|"
                          r"bucket|cluster|queue|component|module|job|pipeline|workflow|instance|container|image|"
                          r"deployment|slug|handle|channel|site|environment|env|namespace|target)\b", re.I)
"""Plain string properties that take a lower-case hyphenated identifier the request writes ("payments-api")."""
_NOT_NAMING = {"new", "old", "same", "other", "whole", "entire", "first", "last", "main", "default", "current", "next",
               "previous", "only", "own", "big", "small", "right", "wrong", "usual", "best", "this", "that"}


_MAX_PATTERN_VALUES = 50
"""Values a pattern accepts that are weighed for one property: a request names a handful."""
_LINKS = {"is", "of", "as", "named", "called", "to", "the", "a", "an", "for", "with"}


def _pattern_values(name: str, found: list[str], text: str) -> list[str]:
    """What a property with only a `pattern` takes of the stretches its pattern accepts: first those written right
    after the property's word ("with the slug docs-start" for `slug`, "user jdoe42" for `username`), then those
    no ordinary word looks like (a digit, "-", "_", a capital). A plain lower-case word ("with") never: the field
    then gets the schema's placeholder, and the model says so."""
    found = found[:_MAX_PATTERN_VALUES]
    words = re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").lower())
    stems_ = {w[:4] for w in words}
    named = [value for value in found for stem in stems_ if value.lower() not in _LINKS
             and re.search(rf"(?<!\w){re.escape(stem)}\w*\s+(?:(?:is|of|as|named|called|to)\s+)?[\"'“«]?"
                          rf"{re.escape(value)}(?![\w-])", text, re.I)]
    distinctive = [value for value in found if not (value.isalpha() and value.islower())]
    return _unique([*named, *distinctive])


def _types(schema: dict) -> set[str]:
    declared = schema.get("type")
    listed = declared if isinstance(declared, list) else [declared]
    return {t for t in listed if isinstance(t, str)}


def _type_allows(kind: str, types: set[str]) -> bool:
    if not types:
        return True
    if kind in _STRINGY:
        return "string" in types
    if kind == "id":
        return bool(types & {"string", "integer"})
    return bool(types & {"integer", "number"})


def _unique(items) -> list:
    return list(dict.fromkeys(items))


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line[:500]


def _number(text: str) -> int | float | None:
    """The number as written: '1,984,135' -> 1984135, '2,5' -> 2.5; None when a float cannot hold it."""
    clean = text.replace(",", "") if re.search(r",\d{3}(?!\d)", text) else text.replace(",", ".")
    if "." not in clean:
        return int(clean) if len(clean) <= 30 else None
    value = float(clean)
    return value if math.isfinite(value) else None


TODAY = dt.date(2025, 1, 15)
"""The sandbox's fixed "today" (a Wednesday, the date its placeholders use): "tomorrow", "next Tuesday" are read
against it, so a reply never depends on the day it is run (docs/sandbox.md)."""
_TODAY = contextvars.ContextVar("today", default=TODAY)
_STATED_TODAY = re.compile(r"\b(?:today\s+is|today's\s+date\s+is|today's\s+date:|the\s+date\s+today\s+is|"
                           r"current\s+date(?:\s+is|:)|the\s+current\s+date\s+is|date\s+today:)\s*(?:\w+day,?\s+)?"
                           r"|(?<!\w)(?:сегодня|текущая\s+дата:?)\s+(?:[а-яё]+,\s*)?", re.I)


def stated_today(texts: list[str]) -> dt.date | None:
    """The day the conversation says it is ("Today is Monday, 2 March 2026." in the system prompt, "Current date:
    2026-03-02"), for relative dates; None when it says none (the sandbox's fixed TODAY then applies)."""
    for text in texts:
        for m in _STATED_TODAY.finditer(text[:READ_LIMIT]):
            said = text[m.end():m.end() + 40]
            dates = _dates(said, relative=False)[1]
            if dates:
                return dt.date.fromisoformat(dates[0])
    return None


def today() -> dt.date:
    """The day relative dates are read against: the one the conversation states, else the fixed TODAY."""
    return _TODAY.get()


def set_today(day: dt.date | None) -> contextvars.Token:
    return _TODAY.set(day or TODAY)


def reset_today(token: contextvars.Token) -> None:
    _TODAY.reset(token)


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RU_WEEKDAYS = ("понедельник", "вторник", "сред", "четверг", "пятниц", "суббот", "воскресень")
_RELATIVE = re.compile(r"\b(?:(day after tomorrow)|(tomorrow)|(today|tonight|this (?:morning|afternoon|evening))|"
                       r"(?:(?:next|this|coming|on|for|by|starting|beginning|from|until|till)\s+|"
                       r"(?=(?:" + "|".join(_WEEKDAYS) + r")['’]s\b))("
                       + "|".join(_WEEKDAYS) + r")|in\s+(\d{1,3})\s+days?|"
                       r"in\s+(\d{1,2}|a|one)\s+(weeks?|months?)|(a|one|\d{1,2})\s+(weeks?|months?|days?)"
                       r"\s+from\s+(?:today|now))\b|"
                       r"(?<!\w)(?:(послезавтра)|(завтра)|(сегодня)|(?:в|во|на|к|ко|с|со|до)\s+(?:следующ\w+\s+|эт\w+\s+)?("
                       + "|".join(_RU_WEEKDAYS) + r")\w*|через\s+(\d{1,3})\s+(?:дн|день)|через\s+(?:(\d{1,2})\s+)"
                                                  r"?(недел\w*|месяц\w*))", re.I)
_RANGE = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*(?:to|until|till|through|thru|-|–|—)\s*"
                    r"(?:([A-Za-z]{3,9})\.?\s+)?(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
"""A range of days with one year at its end: "from March 3 to March 6, 2026", "May 3-6, 2026"."""


def _relative_dates(text: str, past: bool | None = None) -> list[str]:
    """Dates said relative to today (today(): the day the conversation states, else the sandbox's fixed TODAY), in
    the order written: "the day after tomorrow", "next Friday", "in 3 days", "in two weeks", «через месяц»."""
    return [day for _, day in relative_days(text, past)]


def relative_days(text: str, past: bool | None = None) -> list[tuple[str, str]]:
    """The words that say a day relative to today ("next Tuesday", «в пятницу», "tomorrow") and the day each was
    resolved to, in the order written: a call that carries such a day says which date it assumed. A sentence about
    the past ("What happened on March 3?", «Что было во вторник?»; `past` says so for a part read alone) takes the
    most recent such day instead of the next."""
    base = today()

    def _said_past(text: str, at: int) -> bool:
        return past if past is not None else said_past(text, at)

    found: list[tuple[int, str, str]] = []
    for m in _RELATIVE.finditer(text):
        groups = m.groups()
        if groups[0] or groups[9]:
            day = base + dt.timedelta(days=2)
        elif groups[1] or groups[10]:
            day = base + dt.timedelta(days=1)
        elif groups[2] or groups[11]:
            day = base
        elif groups[4] or groups[13]:
            day = base + dt.timedelta(days=int(groups[4] or groups[13]))
        elif groups[6] or groups[8] or groups[15]:
            count_word = groups[5] or groups[7] or groups[14] or "1"
            count = int(count_word) if count_word.isdigit() else 1
            day = _later(base, count, (groups[6] or groups[8] or groups[15]).lower())
        else:
            index = _WEEKDAYS.index(groups[3].lower()) if groups[3] else next(
                i for i, w in enumerate(_RU_WEEKDAYS) if groups[12].lower().startswith(w))
            day = base + dt.timedelta(days=(index - base.weekday() - 1) % 7 + 1)
            if _said_past(text, m.start()) and not re.match(r"(?:next|this|coming)\b|(?:в|во|на|к|ко)\s+(?:следующ|эт)",
                                                            m.group(0), re.I):
                day = base - dt.timedelta(days=(base.weekday() - index - 1) % 7 + 1)  # "What happened on Tuesday?"
        found.append((m.start(), m.group(0), day.isoformat()))
    found += [(m.start(), m.group(0), (base - dt.timedelta(days=2 if m[1] else 1)).isoformat())
              for m in _PAST.finditer(text)]
    for m in _LAST_WEEKDAY.finditer(text):  # "last Tuesday", «в прошлую пятницу»: the one before today
        index = _WEEKDAYS.index(m[1].lower()) if m[1] else next(
            i for i, w in enumerate(_RU_WEEKDAYS) if m[2].lower().startswith(w))
        found = [f for f in found if not m.start() <= f[0] < m.end()]
        day = base - dt.timedelta(days=(base.weekday() - index - 1) % 7 + 1)
        found.append((m.start(), m.group(0), day.isoformat()))
    for m in _YEARLESS.finditer(text):
        day = _yearless_day(m, _said_past(text, m.start()))
        if day is not None:
            found.append((m.start(), m.group(0), day.isoformat()))
    return [(said, day) for _, said, day in sorted(found)]


_PAST = re.compile(r"\b(?:(the day before yesterday)|yesterday)\b|(?<!\w)(?:(позавчера)|вчера)(?!\w)", re.I)
_MONTH_WORD = (r"(?:january|february|march|april|june|july|august|september|october|november|december|"
               r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|(?-i:May)|января|февраля|марта|апреля|мая|июня|"
               r"июля|августа|сентября|октября|ноября|декабря)")
_YEARLESS = re.compile(
    r"(?<![\w.,/-])(\d{1,2})(?:st|nd|rd|th|-?(?:го|е|ое))?\s+(?:of\s+)?(" + _MONTH_WORD + r")"
    r"(?![\w-])(?!,?\s+\d{4}\b)(?!\s*[-–—]\s*\d)|"
    r"(?<![\w-])(" + _MONTH_WORD + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?![\w.,:-]\d|[\w-])(?!,?\s+\d{4}\b)|"
    r"(?<!\w)(?:(?:до|к|по|на|с|от)\s+)(\d{1,2})-?(?:го|е|му|ое)(?:\s+числа)?(?![\w-])(?!\s+" + _MONTH_WORD + r")|"
    r"\b(?:(?:by|on|until|till|before|after|from)\s+)the\s+(\d{1,2})(?:st|nd|rd|th)(?!\s+of\b)(?![\w-])",
    re.I)
"""A day written without its year: «12 марта», "March 12", "the 5th of June"; or without its month: «до 5-го»,
«к 20-му числу», "by the 5th". Read as the next such day from today() (today itself included), and said so."""


_PAST_WORDS = re.compile(
    r"\b(?:was|were|did|didn't|happened|had|went|ago|last|previous(?:ly)?|earlier|past|yesterday|used\s+to|lost|"
    r"left\s+(?:my|the|a|an|it|him|her|them|our|his|their)|forgot|dropped|misplaced|stolen|broke|saw|found|noticed|met|spent|paid|bought)\b|"
    r"(?<!\w)(?:был|была|было|были|произош\w*|случил\w*|прошл\w*|назад|вчера|позавчера|состоял\w*|проходил\w*|"
    r"делал\w*|сделал\w*|продал\w*|отправил\w*|приходил\w*|пришл[оаи]|потерял\w*|оставил\w*|забыл\w*|"
    r"украл\w*|выронил\w*|обронил\w*|видел\w*|нашл\w*|наш[её]л|заметил\w*|заплатил\w*|купил\w*)(?!\w)", re.I)
"""Words that put what a sentence asks about in the past ("What happened on March 3?", «Что было 3 марта?»)."""
_FUTURE_WORDS = re.compile(
    r"\b(?:will|shall|going\s+to|next|upcoming|coming|book|schedule|remind|reserve|plan|arrange|set\s+up)\b|"
    r"(?<!\w)(?:буд\w+|следующ\w*|ближайш\w*|предстоящ\w*|забронируй|запиши|напомни|заплан\w*|назначь)(?!\w)", re.I)


def said_past(text: str, at: int) -> bool:
    """Whether the sentence around `at` speaks of the past and not of anything to come: a day without its year is
    then the most recent one, not the next."""
    start = max(text.rfind(mark, 0, at) for mark in ".!?;")
    ends = [i for i in (text.find(mark, at) for mark in ".!?;") if i >= 0]
    sentence = text[start + 1: min(ends, default=len(text))]
    return bool(_PAST_WORDS.search(sentence)) and not _FUTURE_WORDS.search(sentence)


_LAST_WEEKDAY = re.compile(r"\b(?:last|previous|past)\s+(" + "|".join(_WEEKDAYS) + r")\b|"
                           r"(?<!\w)(?:в|во)\s+прошл\w+\s+(" + "|".join(_RU_WEEKDAYS) + r")\w*", re.I)


def _yearless_day(m: re.Match, past: bool = False) -> dt.date | None:
    """The day a _YEARLESS match stands for: the first such day on or after today(); with `past`, the last such
    day on or before it."""
    base = today()
    if m[1] or m[3]:
        day, month = int(m[1] or m[4]), _month((m[2] or m[3]).rstrip("."))
        if not month:
            return None
        years = (base.year, base.year - 1, base.year - 4) if past else (base.year, base.year + 1, base.year + 4)
        for year in years:  # 29 February: the next (or last) leap year
            if _real_date(year, month, day) and (dt.date(year, month, day) <= base if past
                                                 else dt.date(year, month, day) >= base):
                return dt.date(year, month, day)
        return None
    day = int(m[5] or m[6])
    for ahead in range(0, 14):
        month = base.month - 1 + ahead
        year, month = base.year + month // 12, month % 12 + 1
        if _real_date(year, month, day) and dt.date(year, month, day) >= base:
            return dt.date(year, month, day)
    return None


def _later(base: dt.date, count: int, unit: str) -> dt.date:
    """count days, weeks or months after base (a month later keeps the day, or the month's last one)."""
    if unit.startswith(("week", "недел")):
        return base + dt.timedelta(weeks=count)
    if unit.startswith(("day", "дн", "ден")):
        return base + dt.timedelta(days=count)
    month = base.month - 1 + count
    year, month = base.year + month // 12, month % 12 + 1
    for day in range(base.day, 0, -1):
        if _real_date(year, month, day):
            return dt.date(year, month, day)
    return base


def _dates(text: str, relative: bool = True) -> tuple[list[str], list[str]]:
    datetimes: list[str] = []
    dates: list[str] = []
    for m in binding._DAY_RANGE.finditer(text):  # «с 10 по 14 февраля 2027»: both days, the first first
        dates += binding._day_range(m)
    for m in _RANGE.finditer(text):
        first = _month(m[1])
        last = _month(m[3]) if m[3] else first
        if first and last and _real_date(int(m[5]), first, int(m[2])) and _real_date(int(m[5]), last, int(m[4])):
            dates += [f"{m[5]}-{first:02d}-{int(m[2]):02d}", f"{m[5]}-{last:02d}-{int(m[4]):02d}"]
    for m in _ISO.finditer(text):
        if not _real_date(int(m[1]), int(m[2]), int(m[3])):
            continue
        if m[4]:
            zone = m[7] or "Z"
            zone = zone if zone == "Z" or ":" in zone else f"{zone[:3]}:{zone[3:]}"
            datetimes.append(f"{m[1]}-{m[2]}-{m[3]}T{m[4]}:{m[5]}:{m[6] or '00'}{zone}")
        dates.append(f"{m[1]}-{m[2]}-{m[3]}")
    for m in _DOTTED.finditer(text):
        if _real_date(int(m[3]), int(m[2]), int(m[1])):
            dates.append(f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}")
    for m in _WORDY_DATE.finditer(text):
        day, month, year = (m[1], m[2], m[3]) if m[1] else (m[5], m[4], m[6])
        number = next((n for key, n in _MONTHS.items() if month.lower().startswith(key) and len(key) >= 3), None)
        number = number or _MONTHS.get(month.lower())
        if number and _real_date(int(year), number, int(day)):
            dates.append(f"{year}-{number:02d}-{int(day):02d}")
    if relative:
        dates += _relative_dates(text)
    return _unique(datetimes), _unique(dates)


def _month(word: str) -> int | None:
    word = word.lower()
    return _MONTHS.get(word) or next((n for key, n in _MONTHS.items() if word.startswith(key) and len(key) >= 3), None)


def _real_date(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


_FLIGHT_NUMBER = re.compile(r"(?<![\w-])([A-Z]{2}|[A-Z]\d|\d[A-Z])\s(\d{1,4})(?![\w-])")
_FLIGHT_WORDS = re.compile(r"\b(?:flight|fly|flying|plane|airport|leave|leaves|depart\w*|land\w*|delay\w*|boarding|"
                           r"on time)\b|(?<!\w)(?:рейс|вылет|самол[её]т|аэропорт|прил[её]т|задерж)", re.I)
"""A flight number written with a space ("on LH 438 tonight"): read as "LH438" when the words are about flying."""


def _ids(text: str) -> list[str]:
    found = [(m.start(), m.group(1)) for m in _HASH_ID.finditer(text)]
    if _FLIGHT_WORDS.search(text):
        found += [(m.start(), m.group(1) + m.group(2)) for m in _FLIGHT_NUMBER.finditer(text)]
    found += [(m.start(), m.group(0)) for m in _ID_TOKEN.finditer(text)]
    found += [(m.start(), m.group(0)) for m in _CODE.finditer(text)]
    found += [(m.start(1), m.group(1)) for m in _SPACED_ID.finditer(text) if m.group(1)[:1].isupper()]
    found += [(m.start(1), m.group(1)) for m in _ID_AFTER_WORD.finditer(text)]
    return _unique(value.rstrip(".-") for _, value in sorted(found, key=lambda f: (f[0], -len(f[1]))))


_ID_WORDS = {"ids", "iid", "number", "code", "ref", "reference", "key", "the", "identifier", "unique", "номер"}


def ids_after_nouns(text: str, name: str, description: str) -> list[str]:
    """Ids written right after the noun an id property is named or described by: "resolve incident x7f3k"
    for `incident_id`, "close issue BUG-2231" for `id` described as "The issue key"."""
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", f"{name} {description}").replace("_", " ").lower()
    nouns = [w for w in dict.fromkeys(re.findall(r"[a-zа-яё]{4,}", spoken)) if w not in _ID_WORDS]
    found: list[tuple[int, str]] = []
    for noun in nouns[:8]:
        stem = re.escape(noun[:max(4, len(noun) - 2)])
        for m in re.finditer(rf"(?<!\w){stem}\w*\s+(?:#|№|no\.?\s*)?([A-Za-z]*\d[\w-]*|[A-Za-z][\w-]*\d[\w-]*)",
                             text, re.I):
            found.append((m.start(1), m.group(1).rstrip(".-")))
    if not found and nouns:  # «проездной 5521» for `card_number`: a Russian noun whose everyday meaning is the noun
        for m in re.finditer(r"(?<!\w)([а-яё]{4,})\s+(?:№\s*)?(\d[\w-]*)", text[:READ_LIMIT], re.I):
            word = m.group(1).lower()
            meant = {GLOSSARY.get(start) for start in GLOSSARY if word.startswith(start)} | set(everyday.concepts(word))
            if meant & set(nouns):
                found.append((m.start(2), m.group(2).rstrip(".-")))
    return _unique(value for _, value in sorted(found))


def _places(text: str) -> list[str]:
    """Places in the order written, those after "in", "from", "to"… first, then those after "for"
    (often a person: "a table for Maria Lopez in Oslo"), then those after "at" (often a venue:
    "at Chez Panisse")."""
    places: list[tuple[int, str]] = []
    for m in _PLACE_START.finditer(text):
        place, end = m.group(1), m.end(1)
        rank = _PLACE_RANKS.get(m.group(0).split()[0].lower(), 0)
        while True:
            place = _trimmed(place)
            if _is_place(place):
                places.append((rank, _nominative(_clean(place), russian_forms.cases_after(m.group(0).split()[0]))))
            following = _PLACE_NEXT.match(text[end:])
            if not following:
                break
            place, end = following.group(1), end + following.end(1)
    return _unique(place for _, place in sorted(places, key=lambda pair: pair[0]))


def _clean(value: str) -> str:
    """A value without the sentence's punctuation after it: "Use get_weather for Oslo." gives "Oslo"
    (an initial keeps its dot: "Washington, D.C.")."""
    cleaned = value.rstrip(",;:!?")
    if cleaned.endswith(".") and (not re.search(r"(?:^|[\s.])\w\.$", cleaned) or _LETTERED.search(cleaned)):
        cleaned = cleaned.rstrip(".")  # "in Conference Room B." ends its sentence: a room's letter is no initial
    return cleaned or value


_SEARCH_ASK = re.compile(r"^\s*(?:please\s+)?(?:find|search\s+for|search|look\s+for|look\s+up|show|get|pick|recommend|"
                         r"подбери|найди|поищи|покажи|посоветуй|ищу)\s+(?:me\s+|мне\s+|some\s+|a\s+|an\s+)?", re.I)
_PRICE_LIMIT = re.compile(r"\s*,?\s*(?:under|below|less\s+than|cheaper\s+than|up\s+to|for\s+less\s+than|at\s+most|"
                          r"no\s+more\s+than|within|дешевле|до|не\s+дороже|не\s+более|менее|в\s+пределах)\s+"
                          r"[$€£₽]?\s?\d[\d\s.,]*\s*(?:руб\w*|р\.|₽|dollars?|euros?|pounds?|usd|eur|gbp|rub|\$|€|£)?",
                          re.I)
_ASKED_AS_IS = re.compile(r"(?:^|_|\b)(?:q|query|queries|question|prompt|search|keywords?|terms?|input|request|"
                          r"instruction|expression|ask|запрос\w*|вопрос\w*)(?:$|_|\b)", re.I)
"""A field that takes the request as it is asked (a search query, a question, a prompt), not the words left over."""
_LETTERED = re.compile(r"\b(?:room|hall|gate|building|block|wing|floor|suite|terminal|platform|office|bay|dock|"
                       r"section|zone|row|level)\s+\w\.$", re.I)


def _trimmed(place: str) -> str:
    """The place without the capitalised words after it that are not part of it: "Paris on Monday",
    "London I think", "Oslo JSON"."""
    words = place.split()
    for i, word in enumerate(words[1:], start=1):
        if _ends_a_sentence(words[i - 1]):  # "to Hannah Schmidt. It weighs…": a value never crosses a full stop
            return " ".join(words[:i]).rstrip(".")
        bare = word.rstrip(",.").lower()
        if bare in _NOT_PLACES or word == "I" or (word.isupper() and len(word) > 2 and "," not in words[i - 1]):
            kept = words[:i]
            while kept and kept[-1] in ("de", "del", "da", "la", "le", "am", "upon", "on"):
                kept.pop()
            return " ".join(kept)
    return place


def _ends_a_sentence(word: str) -> bool:
    """A word with the sentence's full stop after it ("Schmidt."), not an initial or an abbreviation
    ("D.C.", "St.", "Mt.")."""
    return word.endswith(".") and not re.fullmatch(r"(?:\w\.)+|(?:St|Mt|Ft|Dr|Ave|Blvd|Rd|Jr|Sr)\.", word)


def _is_place(place: str) -> bool:
    first = place.split()[0].lower().rstrip(",.")
    return first not in _NOT_PLACES and not _ID_TOKEN.fullmatch(place) and not any(ch.isdigit() for ch in place)


def _a_place(name: str, places: list[str]) -> bool:
    """Whether the proper name is one of the places read, in any case: «Самару», «Уфу» are the places Самара, Уфа."""
    return name in places or russian_forms.nominative(name, russian_forms.PLACE_CASES) in places


def _nominative(place: str, cases: frozenset[str] = russian_forms.PLACE_CASES) -> str:
    """A Russian place after в, из, до… in the nominative: «в Париже» Париж, «в Нижнем Новгороде» Нижний Новгород;
    `cases` those its preposition takes."""
    return russian_forms.nominative(place, cases or russian_forms.PLACE_CASES)


def _known_city(name: str) -> bool:
    """A city the model knows ("to London"): never a recipient's name."""
    lowered = name.lower()
    return any(lowered.startswith(city) for city in (*_ZONES, *_RU_CITIES))


def _timezones(text: str, places: list[str]) -> list[str]:
    """IANA names written out, else those of the places named (a few big cities), else the places."""
    zones = _IANA.findall(text)
    for place in places:
        lowered = place.lower()
        zones.append(next((zone for city, zone in _ZONES.items() if lowered.startswith(city)), place))
    return _unique(zones)


def _currencies(text: str, numeric: str | None = None) -> list[str]:
    """Currency codes in the order written: "USD", "dollars", «рублей», and the signs ("$45" is USD); the
    currency of an amount first ("How many US dollars will I get for 120 euros?": the euros are what one
    has, so a conversion is from EUR)."""
    written = _currencies_written(text)
    if numeric is None:
        return written
    beside = _currencies_written(" ".join(m.group(0) for m in _BESIDE_AMOUNT.finditer(numeric)))
    return _unique([*(code for code in beside if code in written), *written])


_BESIDE_AMOUNT = re.compile(r"[$€£¥₽]\s?\d|(?<![\w.,])(?:\d{1,3}(?:[ ,.\u00a0]\d{3})+|\d+)(?:[.,]\d+)?\s?"
                            r"(?:[$€£¥₽]|[A-Za-zА-Яа-яЁё]+)")
"""An amount and the word or sign after it ("120 euros", «2 500 евро»); thousands in groups of three, so that a
long run of digits and spaces is read in one pass."""


def _currencies_written(text: str) -> list[str]:
    found = [(m.start(), m.group(0)) for m in re.finditer(r"\b[A-Z]{3}\b", text)
             if m.group(0) in set(_CURRENCIES.values()) | {"CAD", "AUD", "INR", "SEK", "NOK"}]
    found += [(m.start(), _SIGNS[m.group(0).strip()]) for m in re.finditer(r"[$€£¥₽](?=\s?\d)|(?<=\d)\s?[$€£¥₽]", text)]
    lowered = text.lower()
    for word, code in _CURRENCIES.items():
        ending = "" if re.search(r"[а-я]", word) else r"(?:s|es)?\b"
        for m in re.finditer(rf"\b{word}{ending}", lowered):
            found.append((m.start(), code))
    return _unique(code for _, code in sorted(found))


def named_values(result: str, request: str = "") -> dict[str, Any]:
    """Key/value pairs in a tool's result (JSON, a Python dict's repr as `str(dict)` gives, or
    'key: value' lines), keys lower-cased. Of a listing, the items the request names come first ("the policy
    number on my car insurance": the item whose `type` is car gives `policy_number`)."""
    named: dict[str, Any] = {}
    data = _structured(result[:READ_LIMIT])
    if isinstance(data, list) and request and len(data) > 1 and all(isinstance(item, dict) for item in data[:20]):
        lowered = request.casefold()

        def named_in_request(item: dict) -> int:
            return sum(1 for v in item.values() if isinstance(v, str) and len(v) >= 2
                       and re.search(rf"(?<!\w){re.escape(v.casefold())}(?!\w)", lowered))

        data = sorted(data[:20], key=named_in_request, reverse=True)
    if data is not None:
        _flatten(data, "", named)
        return named
    for line in result[:READ_LIMIT].splitlines():
        m = re.match(r"\s*([A-Za-z_][\w ]{0,40}?)\s*[:=]\s*(.+?)\s*$", line)
        if m:
            named[m.group(1).strip().lower().replace(" ", "_")] = m.group(2)
    return named


def _structured(result: str) -> Any:
    """The result as data: JSON, else a Python literal (the cookbook returns `str(dict)`), else None."""
    try:
        return json.loads(result)
    except (ValueError, TypeError):
        pass
    if result.strip()[:1] in ("{", "["):
        try:
            return ast.literal_eval(result.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return None
    return None


def _flatten(data: Any, prefix: str, named: dict[str, Any]) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            key = str(key).lower()
            if not isinstance(value, (dict, list)):
                named.setdefault(key, value)
                if prefix:
                    named.setdefault(f"{prefix}_{key}", value)
            _flatten(value, key, named)
    elif isinstance(data, list):
        for item in data[:20]:
            _flatten(item, prefix, named)
