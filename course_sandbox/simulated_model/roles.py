"""The roles a sentence gives its values, for a tool's top-level fields, in both languages.

Several values of one kind in one request go to several fields by the sentence's structure, not by their order: a
possessive or "owned by" gives the owner to the owner-like field and the named thing to the thing's field ("Rex, owned
by Maria Lopez", «Рекс, принадлежит Анне»); "X saw a red fox" gives the observer and the observed thing their own
fields («Маша видела лису у пруда»); a year goes to the field whose name or description says year, vintage or
edition, the other number to the count-like one; a list after a people word ("speakers Anna Lee and Bob Chen",
«докладчики Анна Петрова и Иван Смирнов», "with …") goes to the list-valued field that names people, and the list
after "on"/"about"/«про» to the topics. A field's role is read from its own name and description, never from one
domain's words; a reading that does not fit the tool's fields reads nothing (read() returns only what it is sure of).
"""

import re
from typing import Any

from . import proper_names, russian_forms
from .words import STOPWORDS, overlap, stems

_EN_NAME = r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}"
_RU_NAME = r"[А-ЯЁ][а-яё-]+(?:\s+[А-ЯЁ][а-яё-]+){0,2}"
_NAME = rf"(?:{_EN_NAME}|{_RU_NAME})"

_OWNER_FIELD = re.compile(r"owner|owned|belong|keeper|guardian|хозя|владел", re.I)
_OBSERVER_FIELD = re.compile(r"observer|reporter|spotter|witness|(?:seen|spotted|logged|reported|recorded)_?by|"
                             r"наблюдател|очевид", re.I)
_OBSERVED_FIELD = re.compile(r"species|animal|bird|creature|object|target|observed|sighting|^what$|(?:^|_)thing|"
                             r"(?<!\w)вид(?!\w)|животн|птиц|объект", re.I)
_YEAR_FIELD = re.compile(r"year|vintage|edition|released|built|год(?!ен)|выпуск|издани|урожа", re.I)
_COUNT_FIELD = re.compile(r"count|quantit|qty|copies|number_of|number of|how many|bottles|pieces|units|amount_of|"
                          r"количеств|экземпляр|штук|сколько|(?<!\w)число", re.I)
_PEOPLE_FIELD = re.compile(r"speaker|attendee|guest|participant|member|invitee|presenter|panell?ist|hosts?(?:$|_)|"
                           r"author|people|persons|(?:^|_)names?$|докладчик|участник|гост|спикер|ведущ|приглаш|имена",
                           re.I)
_TOPIC_FIELD = re.compile(r"topic|theme|subject|(?<!\w)тем", re.I)
_TITLE_FIELD = re.compile(r"^(?:title|book|book_?title|work|film|movie|album|name)$|название|заглави", re.I)

_OWNED_BY = re.compile(
    rf"(?P<thing>{_NAME})\s*,?\s*\(?\s*(?:(?:who|which|that)\s+(?:is|are)\s+)?(?:owned\s+by|belonging\s+to|"
    rf"(?:(?:who|which|that)\s+)?belongs\s+to)\s+(?P<owner>{_NAME})|"
    rf"(?P<thing_ru>{_NAME})\s*,?\s*\(?\s*(?:(?:который|которая|которое)\s+)?(?:принадлежит|хозя(?:ин|йка)\s*[:—-]?|"
    rf"владел(?:ец|ица)\s*[:—-]?)\s+(?P<owner_ru>{_NAME})")
_KEPT_AT = re.compile(rf"(?<![\w-])[А-ЯЁа-яё][а-яё]+\s+(?P<thing>{_NAME})\s+у\s+(?P<owner>{_NAME})")
"""«собака Рекс у Анны Ивановой»: a thing named after its noun, kept by the person after «у»."""
_SAW = re.compile(
    rf"(?P<who>{_EN_NAME})\s+(?:saw|spotted|observed|noticed|heard|photographed|sighted|found|counted|filmed)\s+"
    r"(?:(?:an?|the|some|two|three|four|five|six|\d+)\s+)?(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)"
    r"(?=\s+(?:at|in|on|near|by|from|over|under|behind|around|along|this|today|yesterday|last|during|while|with|"
    r"outside|inside|across)\b|\s*[,.;!?]|\s*$)|"
    rf"(?P<who_ru>{_RU_NAME})\s+(?:видел|увидел|заметил|наблюдал|сфотографировал|встретил|нашёл|нашел|нашла|слышал|"
    r"услышал|сфотографировала|заметила|видела|увидела|наблюдала|встретила|слышала|услышала)(?:а|и)?\s+"
    r"(?P<what_ru>[а-яё][а-яё-]*(?:\s+[а-яё][а-яё-]*){0,2}?)"
    r"(?=\s+(?:у|в|во|на|возле|около|над|под|за|рядом|сегодня|вчера|утром|вечером|ночью|днём|днем)(?!\w)|"
    r"\s*[,.;!?]|\s*$)")
_YEAR = re.compile(r"(?<![\w.,:/\-$€£¥₽#№])(1[89]\d\d|20\d\d)(?![\w,:/\-%]|[.,]\d)"
                   r"(?!\s*(?:г\.|год[а-я]*)?\s*(?:[-—]|по|до))")
_MONTH_BEFORE = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|янв|фев|мар|апр|ма[йя]|июн|июл|авг|"
                           r"сен|окт|ноя|дек)\w*\.?,?\s*$", re.I)
_BARE_COUNT = re.compile(r"(?<![\w.,:/\-$€£¥₽#№+])(\d{1,4})(?![\w,:/\-%€£$₽]|[.,]\d)(?!\s*(?:am|pm|h\b|ч\b|час|мин|min|"
                         r"usd|eur|rub|руб|евро|доллар|dollars?|euros?|%))", re.I)
_COPIES_OF = re.compile(r"\b\d+\s+(?:copies|copy|prints|volumes?)\s+of\s+(?P<title>[A-Z][\w'’:-]*"
                        r"(?:\s+(?:(?:of|the|a|an|and|in|on|at|to|for|de|la|le)\s+)*[A-Z][\w'’:-]*)*)")
_PEOPLE_CUE = re.compile(r"\b(?:speakers?|attendees?|guests?|participants?|members?|invitees?|presenters?|panell?ists?|"
                         r"hosts?|featuring|with)\b\s*[:—-]?\s*|(?<!\w)(?:докладчик\w*|участник\w*|гост\w*|спикер\w*|"
                         r"ведущ\w*|приглашённ\w*|с|со)\s*[:—-]?\s*", re.I)
_NAMES_LIST = re.compile(rf"({_NAME})((?:\s*,\s*{_NAME})*)(?:\s*,?\s+(?:and|&|и)\s+({_NAME}))?")
_TOPIC_CUE = re.compile(r"\b(?:on|about|covering)\s+|(?<!\w)(?:про|об?|на\s+тему|по\s+теме)\s+", re.I)
_TOPIC_END = re.compile(r"\s*(?:[.;!?(]|,\s*(?:with|featuring|speakers?|докладчик\w*|спикер\w*|ведущ\w*)\b|"
                        r"\s(?:with|featuring|for|on\s+\w+day|at|в|с|со|для)\s)", re.I)


def _words(name: str, schema: dict) -> str:
    return f"{name} {schema.get('description') or ''}".strip()


def _types(schema: dict) -> set[str]:
    kinds = schema.get("type")
    return set(kinds) if isinstance(kinds, list) else {kinds} if isinstance(kinds, str) else set()


def _plain_string(schema: dict) -> bool:
    return isinstance(schema, dict) and "string" in _types(schema) and not {"enum", "format", "pattern",
                                                                            "const"} & set(schema)


def _string_list(schema: dict) -> bool:
    items = schema.get("items") if isinstance(schema, dict) else None
    return isinstance(schema, dict) and "array" in _types(schema) and isinstance(items, dict) \
        and _plain_string(items)


def _span(m: re.Match, group: str) -> str:
    """A name group of a match without the ordinary word that begins its sentence ("Register Rex": Rex)."""
    said, start = m.group(group), m.start(group)
    first, _, rest = said.partition(" ")
    while rest and proper_names.leads_a_sentence(m.string, start) and (proper_names.common_word(first) or re.fullmatch(
            r"[А-ЯЁ][а-яё]+(?:и|ите|й|йте|ь|ьте)", first)):  # «Запиши Рекс…»: an imperative
        start += len(first) + 1
        said = rest
        first, _, rest = said.partition(" ")
    return said


def _person(name: str, text: str) -> str:
    """A Russian person's name in the nominative, any other as written."""
    if not re.search(r"[А-ЯЁ]", name):
        return name
    full = proper_names.person_nominative(name, text)
    return full if full != name else proper_names.nominative(name, text)


def read(text: str, fields: dict) -> dict[str, Any]:
    """The values the sentence's structure gives the tool's top-level fields: {field: value}, only those it is sure
    of."""
    if not isinstance(fields, dict) or not fields:
        return {}
    out: dict[str, Any] = {}
    _ownership(text, fields, out)
    _observation(text, fields, out)
    _year_and_count(text, fields, out)
    _people_and_topics(text, fields, out)
    for field, value in [*objects(text, fields).items(), *labelled_list(text, fields).items(),
                         *events(text, fields).items()]:
        out.setdefault(field, value)
    return out


def _ownership(text: str, fields: dict, out: dict) -> None:
    m = _OWNED_BY.search(text) or _KEPT_AT.search(text)
    if not m:
        return
    thing, owner = (_span(m, "thing"), _span(m, "owner")) if m.group("thing") else (_span(m, "thing_ru"),
                                                                                       _span(m, "owner_ru"))
    owners = [n for n, s in fields.items() if _plain_string(s) and _OWNER_FIELD.search(_words(n, s))]
    if len(owners) != 1:
        return
    things = [n for n, s in fields.items() if n not in owners and _plain_string(s)
              and not _OBSERVER_FIELD.search(_words(n, s))]
    if not things:
        return
    said = stems(text[max(0, m.start() - 40): m.start()] + " " + thing)
    things.sort(key=lambda n: (-len(overlap(stems(_words(n, fields[n])), said)), "name" not in n.lower()))
    dative = re.search(r"принадлежит\s+$", text[max(0, m.start("owner_ru") - 14): m.start("owner_ru")]) \
        if "owner_ru" in m.re.groupindex and m.group("owner_ru") else None
    out[owners[0]] = proper_names.from_dative(owner) if dative else _person(owner, text)
    out[things[0]] = thing


def _observation(text: str, fields: dict, out: dict) -> None:
    m = _SAW.search(text)
    if not m:
        return
    who = _span(m, "who") if m.group("who") else _span(m, "who_ru")
    what = m.group("what") or russian_forms.nominative(m.group("what_ru"), frozenset({"accs"}))
    observed = [n for n, s in fields.items() if _plain_string(s) and _OBSERVED_FIELD.search(_words(n, s))]
    observers = [n for n, s in fields.items() if _plain_string(s) and n not in observed
                 and _OBSERVER_FIELD.search(_words(n, s))]
    if len(observed) == 1:
        out[observed[0]] = what
    if len(observers) == 1 and observed:
        out[observers[0]] = who


def _year_and_count(text: str, fields: dict, out: dict) -> None:
    years = list(dict.fromkeys(m.group(1) for m in _YEAR.finditer(text)
                               if not _MONTH_BEFORE.search(text[max(0, m.start() - 12): m.start()])))
    year_fields = [n for n, s in fields.items() if isinstance(s, dict) and _YEAR_FIELD.search(_words(n, s))
                   and _types(s) & {"integer", "number", "string"} and not {"enum", "format", "pattern"} & set(s)]
    if len(years) != 1 or len(year_fields) != 1:
        return
    schema = fields[year_fields[0]]
    out[year_fields[0]] = int(years[0]) if _types(schema) & {"integer", "number"} else years[0]
    counts = [n for n, s in fields.items() if n not in year_fields and isinstance(s, dict)
              and _types(s) & {"integer", "number"} and _COUNT_FIELD.search(_words(n, s))]
    numbers = [int(m.group(1)) for m in _BARE_COUNT.finditer(text) if m.group(1) != years[0]]
    if len(counts) == 1 and len(numbers) == 1:
        out[counts[0]] = numbers[0]
    titled = _COPIES_OF.search(text)
    titles = [n for n, s in fields.items() if _plain_string(s) and _TITLE_FIELD.search(n)]
    if titled and len(titles) == 1:
        out[titles[0]] = titled.group("title").rstrip(",.")


def _people_and_topics(text: str, fields: dict, out: dict) -> None:
    people = [n for n, s in fields.items() if _string_list(s) and _PEOPLE_FIELD.search(_words(n, s))]
    if len(people) != 1:
        return
    own = stems(_words(people[0], fields[people[0]]))
    cues = sorted(_PEOPLE_CUE.finditer(text), key=lambda c: (not overlap(stems(c.group(0)), own), c.start()))
    for cue in cues:
        listed = _NAMES_LIST.match(text, cue.end())
        if not listed:
            continue
        names = [listed.group(1), *re.findall(_NAME, listed.group(2) or ""), *([listed.group(3)] if listed.group(3)
                                                                                else [])]
        if cue.group(0).strip().lower() in ("с", "со"):
            names = [russian_forms.nominative(n, frozenset({"ablt"})) for n in names]
        else:
            names = [_person(n, text) for n in names]
        out[people[0]] = names
        break
    else:
        return
    topics = [n for n, s in fields.items() if n not in people and _string_list(s) and _TOPIC_FIELD.search(_words(n, s))]
    said = _TOPIC_CUE.search(text)
    if len(topics) != 1 or not said:
        return
    end = _TOPIC_END.search(text, said.end())
    stretch = text[said.end(): end.start() if end else len(text)]
    items = [i.strip(" ,.") for i in re.split(r"\s*,\s*|\s+(?:and|&|и)\s+", stretch) if i.strip(" ,.")]
    if items and not set(items) & set(out[people[0]]):
        out[topics[0]] = items


_THING_FIELD = re.compile(r"(?:^|_|\s)(?:item|items|product|service|garment|clothing|thing|object|document|doc|"
                          r"treatment|dish|article)(?:$|_|\s)|товар|услуг|документ|(?<!\w)вещ|предмет|издели|блюд",
                          re.I)
_ARTICLE = r"(?:(?:a|an|the|my|our|your|his|her|their|this|that|these|those|some)\s+)?"
_EN_OBJECT = re.compile(
    r"(?:^|[.!?]\s+)(?:please\s+)?(?P<verb>[A-Za-z]+)\s+(?:(?:me|us|him|her|them)\s+)?" + _ARTICLE +
    r"(?P<np>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}?)"
    r"(?=\s+(?:for|to|at|in|on|with|from|by|before|after|until|by|tomorrow|today|tonight|next|this|please|and|or)\b|"
    r"\s*[,.;!?]|\s*$)")
_EN_NOT_OBJECTS = {"it", "them", "me", "us", "up", "out", "in", "off", "down", "back", "over", "one", "something",
                   "anything", "everything", "all", "what", "that", "this", "here", "there", "sure", "now"}
_RU_OBJECT = re.compile(
    r"(?:^|[.!?]\s+)(?:пожалуйста,?\s+)?(?P<verb>[А-ЯЁ][а-яё]+(?:и|ите|й|йте|ь|ьте))\s+(?:(?:мне|нам|ему|ей|им)\s+)?"
    r"(?P<np>[а-яё][а-яё-]*(?:\s+(?!(?:для|в|во|к|ко|у|с|со|до|от|из|по|за|и|или|завтра|сегодня|послезавтра)(?!\w))"
    r"(?:на\s+(?!(?:завтра|сегодня|послезавтра|понедельник|вторник|среду|четверг|пятницу|субботу|воскресенье|утро|"
    r"вечер|день|ночь|\d))[а-яё-]+|[а-яё][а-яё-]*)){0,4})(?=\s*[,.;!?]|\s*$|\s+(?:для|в|во|к|ко|у|с|со|до|от|из|по|за|"
    r"завтра|сегодня)(?!\w))")


_ID_NAME = re.compile(r"(?:^|_)(?:id|ids|number|no|num|code|key|ref|sku)$|[a-z](?:Id|ID)$")
_COUNT_WORD = re.compile(r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+dozen|dozen|several|"
                         r"a\s+few|a\s+couple|couple|один|одна|одно|два|две|три|четыре|пять|шесть|семь|восемь|девять|"
                         r"десять|пар[уы]|несколько|полдюжины|дюжину)(?!\w)", re.I)


def object_phrase(text: str) -> str | None:
    """The noun phrase an ask's verb acts on, with its modifiers and without its article: "Take the navy suit to the
    cleaners" navy suit, "Book a fitting for Anna Lee" fitting, «Оформи доверенность на получение посылки»
    доверенность на получение посылки; None when the ask has no such object."""
    m = _EN_OBJECT.search(text)
    if m and m.group("verb").lower() not in STOPWORDS and (proper_names.common_word(m.group("verb"))
                                                           or m.group("verb").lower() in _EN_VERBS):
        np = m.group("np")
        if np.split()[0] not in _EN_NOT_OBJECTS and np.split()[-1] not in _EN_NOT_OBJECTS \
                and not _COUNT_WORD.match(np):
            return np
    m = _RU_OBJECT.search(text)
    if m and not _COUNT_WORD.match(m.group("np")):  # «пять пачек чая»: a count's reader takes what it counts
        return m.group("np")
    return None


_EN_VERBS = {"take", "bring", "wash", "clean", "repair", "fix", "ship", "send", "drop", "pick", "return", "deliver",
             "iron", "press", "alter", "hem", "store", "insure", "sell", "list", "price", "order", "book", "schedule",
             "request", "file", "draft", "prepare", "print", "sign", "renew", "replace", "collect"}
"""Ask verbs the common-word list may not hold, whose object is the thing the tool handles."""


def objects(text: str, fields: dict) -> dict[str, str]:
    """The ask's object for the one field that names a thing (`item`, `service`, `garment`, `document`, «услуга»)."""
    things = [n for n, s in fields.items() if _plain_string(s) and _THING_FIELD.search(_words(n, s))
              and not _ID_NAME.search(n)]
    np = object_phrase(text) if len(things) == 1 else None
    return {things[0]: np} if np else {}


_EVENT_FIELD = re.compile(r"event|occasion|мероприят|событи", re.I)
_LINKS = r"(?:on|at|in|for|with|to|from|by|of|the|a|an|this|next|tomorrow|today|tonight|and|or|please|is|are|was|be)"


def whole_name(found: Any, name: str, schema: dict, text: str) -> Any:
    """A proper name read as the start of an event's name, whole: "the Riverside park clean-up" for `event_name`, not
    Riverside; any other value as it is."""
    if not isinstance(found, str) or not found or not _EVENT_FIELD.search(_words(name, schema)):
        return found
    m = re.search(rf"(?<![\w-]){re.escape(found)}((?:\s+(?!{_LINKS}\b)[a-z][\w-]*){{1,3}}?)(?=\s*[.,;!?]|\s*$|"
                  rf"\s+{_LINKS}\b)", text)
    return found + m.group(1) if m else found


def events(text: str, fields: dict) -> dict[str, str]:
    """An event's name written as a proper name and the lower-case words that end it ("for the Maple Street bake
    sale"), for the one field that names an event."""
    named = [n for n, s in fields.items() if _plain_string(s) and _EVENT_FIELD.search(_words(n, s))]
    m = re.search(rf"\b(?:for|to|at|join|attend)\s+(?:the\s+)?(?P<ev>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*"
                  rf"(?:\s+(?!{_LINKS}\b)[a-z][\w-]*){{1,3}}?)(?=\s*[.,;!?]|\s*$|\s+{_LINKS}\b)", text)
    return {named[0]: m.group("ev")} if m and len(named) == 1 else {}


def labelled_list(text: str, fields: dict) -> dict[str, list[str]]:
    """A list of phrases after a label that names a list field ("Log the changes: fixed the login bug, added dark mode
    and removed the old API", «изменения: …»): each phrase one item, for an array of strings."""
    out: dict[str, list[str]] = {}
    for name, schema in fields.items():
        if not _string_list(schema):
            continue
        own = stems(name.replace("_", " "))  # the field's own name: «контакт: …» is no list of `tags` «Теги контакта»
        for m in re.finditer(r"([^\W\d_]+)\s*(?::|—|–| - )\s*([^.;!?\n]+)", text):
            if not overlap(stems(m.group(1)), own):
                continue
            items = [i.strip(" ,") for i in re.split(r"\s*[,;]\s*(?:and\s+|и\s+)?|\s+(?:and|и)\s+", m.group(2))
                     if i.strip(" ,")]
            if len(items) >= 2:
                out[name] = items
                break
    return out


_PLACE_KINDS = {
    "улиц": "улица", "проспект": "проспект", "переул": "переулок", "площад": "площадь", "бульвар": "бульвар",
    "шоссе": "шоссе", "набережн": "набережная", "деревн": "деревня", "сел": "село", "посёл": "посёлок",
    "посел": "посёлок", "станци": "станция", "туманност": "туманность", "созвезди": "созвездие",
    "галактик": "галактика", "озер": "озеро", "рек": "река", "гор": "гора", "остров": "остров", "район": "район",
    "област": "область", "залив": "залив", "хутор": "хутор", "урочищ": "урочище", "аллея": "аллея", "алле": "аллея",
    "тупик": "тупик", "микрорайон": "микрорайон"}
"""Russian words that name a place's or a sky object's kind, and their nominative: written before a proper name they
are its head («улица Поликарпова», «туманность Ориона», «деревня Ивановка»), and the name stays as written."""
_KIND_PHRASE = re.compile(r"(?<![\w-])(?P<kind>[а-яё]{3,})\s+(?P<name>[А-ЯЁ][а-яё-]+(?:\s+[А-ЯЁ][а-яё-]+)?)")
_KIND_FIELD = re.compile(r"street|address|place|location|destination|target|object|village|town|settlement|where|"
                         r"улиц|адрес|мест|куда|объект|цел|населённ|населенн|деревн", re.I)


def _kind_phrase(m: re.Match) -> str | None:
    said = m.group("kind").lower()
    head = max((k for k in _PLACE_KINDS if said.startswith(k) and len(said) - len(k) <= 3), key=len, default=None)
    if head is None or (head == "гор" and said.startswith("город")):
        return None
    name = m.group("name")
    if said.endswith(("у", "ю")) and name.endswith("у") and _PLACE_KINDS[head].endswith(("а", "я")):
        name = name[:-1] + "а"  # «в деревню Ивановку»: the name agrees with its head
    return f"{_PLACE_KINDS[head]} {name}"


def with_kind_word(found: Any, name: str, schema: dict, text: str) -> Any:
    """A Russian proper name that follows its kind word, read whole with the kind in the nominative: «на улицу
    Поликарпова» улица Поликарпова, «туманность Ориона», «в деревню Ивановка» деревня Ивановка (not «Ориона» alone nor a
    truncated «Ивановк»), for a place, address or target field; any other value as it is."""
    if not re.search(r"[А-ЯЁ]", text) or not _KIND_FIELD.search(_words(name, schema)):
        return found
    street = re.search(r"street|address|улиц|адрес", _words(name, schema), re.I)
    phrases = []
    for m in _KIND_PHRASE.finditer(text):
        phrase = _kind_phrase(m)
        house = re.match(r",?\s+(?:д\.\s*|дом\s+)?(\d+[а-яё]?(?:/\d+)?)(?![\w:/-]|\.\d)", text[m.end():]) \
            if street and phrase else None
        if phrase:
            phrases.append((m, f"{phrase}, {house.group(1)}" if house else phrase))
    for m, phrase in phrases:
        written = m.group("name")
        if isinstance(found, str) and found and (found == written or (written.startswith(found) and len(written) -
                                                                      len(found) <= 2) or found in phrase):
            return phrase if found not in phrase or len(found) < len(phrase) else found
    if not isinstance(found, str) and len(phrases) == 1:
        return phrases[0][1]
    return found


_NAMED_BEING = re.compile(r"pet|animal|(?:^|_)(?:dog|cat|horse|bird)(?:$|_)|кличк|питом|животн|"
                          r"(?:^|_|\s)name(?:$|_|\s)|(?<!\w)им[яе](?!\w)|person|guest|patient|child|contact", re.I)
_GENITIVE_BEFORE = re.compile(r"(?<!\w)(?:для|у|от|без|до|около|возле|вместо|после|насчёт|насчет)\s+$|"
                              r"(?<![\w-])[а-яё]{3,}(?:у|ю|и|ы|ов|ей)\s+$|"
                              r"(?<![\w-])(?:[а-яё]+(?:и|ите|й|йте|ь|ьте)(?!\w).*)?(?<![\w-])[а-яё]{3,}[ая]\s+$",
                              re.I)
"""What puts the name after it in the genitive (or the animate accusative, the same form): a preposition, or an animate
noun in that case before it («кота Барсика», «щенка Рекса», «собаки Мурки»)."""


def genitive_name_to_nominative(found: Any, name: str, schema: dict, text: str) -> Any:
    """A Russian one-word name of an animal or a person written in the genitive or the animate accusative, in the
    nominative: «кота Барсика» Барсик, «для Мурки» Мурка, «у Кузи» Кузя, «для Маши» Маша; a genitive that is part of a
    name («улица Поликарпова») is a place's, not a being's, and stays. Any other value as it is."""
    if not isinstance(found, str) or not re.fullmatch(r"[А-ЯЁ][а-яё]{2,}", found) \
            or not _NAMED_BEING.search(_words(name, schema)) or re.search(r"(?:ов|ев|ёв|ин|ын|ск|цк)ая?$", found) \
            or proper_names.part_of_a_name(name, str(schema.get("description") or "")):
        return found  # «Петрова» may be a woman's surname in the nominative
    at = re.search(rf"(?<![\w-]){re.escape(found)}(?![\w-])", text)
    if at is None:
        return found
    said = _GENITIVE_BEFORE.search(text[max(0, at.start() - 60): at.start()])
    if said is not None and re.search(r"(?:^|[.!?]\s+)[А-ЯЁ][а-яё]+\s+$", text[:at.start()]):
        return found  # «Запиши Мурка, …»: the word before is the ask's verb, not a noun the name depends on
    if said is None or (said.group(0).rstrip().endswith(("а", "я")) and not re.match(
            r"[а-яё]+(?:и|ите|й|йте|ь|ьте)(?!\w)", said.group(0), re.I) and not re.search(
            r"(?<!\w)(?:для|у|от|без|до|около|возле|вместо|после|насчёт|насчет)\s+$", said.group(0))):
        return found  # «кошка Мурка»: a name beside its noun in the same, nominative case
    before = text[max(0, at.start() - 20): at.start()].split()
    if before and any(before[-1].lower().startswith(k) for k in _PLACE_KINDS):
        return found  # «улица Поликарпова»
    return russian_forms.nominative(found, frozenset({"gent", "accs"}))
