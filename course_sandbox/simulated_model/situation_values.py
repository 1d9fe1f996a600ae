"""Values a request states in another form than the property wants, read from the sentence's structure and the
schema's own names: the place of a `zone`/`room`/`area` ("in the office": office; «в спальне»: спальня; "the cosy
living room": living room, never the adjective), how far for a percent ("halfway", «наполовину»: 50), what a
class or an activity is called ("tomorrow's spin class": spin; «на йогу»: йога), and what went wrong for an
`issue`/`problem` ("The shower is leaking in room 12": the shower is leaking).

Each reader gives a value or None; the caller uses it only where the schema's placeholder would stand or the
model would otherwise ask for a value the request holds.
"""

import re

from .schema_instance import MISSING
from .spoken_values import switched
from .words import overlap, stems, tokens

_PLACE_PROPS = {"zone", "room", "area", "space", "location", "place", "spot"}
"""Property words that take the place in a building the request names."""
_ROOMS_EN = ("living room|dining room|meeting room|conference room|waiting room|server room|guest room|class room|"
             "classroom|bedroom|bathroom|kitchen|office|hallway|hall|lounge|garage|basement|attic|nursery|study|"
             "lobby|reception|corridor|cellar|pantry|porch|patio|balcony|garden|workshop|studio|toilet|shower room|"
             "laundry|utility room|playroom|gym|library|lab|den")
_ROOMS_RU = [  # a room's word as the locative and prepositional cases write it, and its nominative
    ("спальн", "спальня"), ("кухн", "кухня"), ("гостин", "гостиная"), ("комнат", "комната"), ("офис", "офис"),
    ("кабинет", "кабинет"), ("коридор", "коридор"), ("ванн", "ванная"), ("прихож", "прихожая"),
    ("детск", "детская"), ("зал", "зал"), ("кладовк", "кладовка"), ("кладов", "кладовая"), ("балкон", "балкон"),
    ("гараж", "гараж"), ("подвал", "подвал"), ("переговорн", "переговорная"), ("столов", "столовая"),
    ("мастерск", "мастерская"), ("туалет", "туалет"), ("чердак", "чердак"), ("холл", "холл"),
    ("лаборатори", "лаборатория"), ("студи", "студия"), ("веранд", "веранда"), ("террас", "терраса"),
]


def place(text: str) -> str | None:
    """The room or area the request names: "in the office", "the bedroom blinds", «в спальне», «на кухне»."""
    m = re.search(rf"\b(?:in|at|for|of|inside|to)\s+(?:the|my|our|your|this|that)?\s*(?:[a-z'-]+\s+){{0,2}}?"
                  rf"({_ROOMS_EN})\b", text, re.I)
    if m is None:
        m = re.search(rf"\b(?:the|my|our)\s+(?:[a-z'-]+\s+){{0,2}}?({_ROOMS_EN})\b", text, re.I)
    if m is not None:
        return m.group(1).lower()
    for pair in re.findall(r"(?<![\w-])(?:в|во|на)\s+([а-яё]+)(?:\s+([а-яё]+))?", text, re.I):
        for word in pair:  # «в спальне», «в большой спальне»
            lowered = word.lower()
            for start, nominative in _ROOMS_RU:
                if lowered.startswith(start) and len(lowered) - len(start) <= 3:
                    return nominative
    return None


def wants_place(prop: str, schema: dict) -> bool:
    """A plain string property for a place in a building: zone, room, area (not a city, not a room number's id)."""
    words = set(tokens(prop))
    described = str(schema.get("description") or "").lower()
    if schema.get("type") != "string" or schema.get("enum") or schema.get("format") or schema.get("pattern"):
        return False
    if words & {"city", "town", "country", "address", "number", "id"}:
        return False
    if words & {"location", "place"}:
        return bool(re.search(r"\b(?:room|zone|area|house|home|building|office)\b|комнат|помещени|зон", described))
    return bool(words & _PLACE_PROPS)


_HALF = [(re.compile(r"\b(?:halfway|half way|half open|half closed|to half|by half|half)\b|(?<!\w)(?:наполовину|"
                     r"до половины|на половину|вполовину)(?!\w)", re.I), 50),
         (re.compile(r"\b(?:a quarter|quarter of the way|one quarter)\b|(?<!\w)(?:на четверть|четверть)(?!\w)",
                     re.I), 25),
         (re.compile(r"\b(?:three quarters|three-quarters)\b|(?<!\w)(?:на три четверти)(?!\w)", re.I), 75),
         (re.compile(r"\b(?:fully|all the way|completely|full)\b|(?<!\w)(?:полностью|до конца|целиком)(?!\w)",
                     re.I), 100)]


def wants_percent(prop: str, schema: dict) -> bool:
    words = set(tokens(prop))
    described = str(schema.get("description") or "").lower()
    return schema.get("type") in ("integer", "number") and bool(
        words & {"percent", "percentage", "pct"} or re.search(r"percent|процент|%", described)
        or (schema.get("maximum") == 100 and schema.get("minimum", 0) == 0 and words & {"level", "position", "open",
                                                                                      "brightness", "volume"}))


def percent(text: str) -> int | None:
    """How far, said in words: "halfway", «наполовину» 50, "a quarter" 25, "fully" 100."""
    if re.search(r"\d\s*%|\d+\s*(?:percent|процент)", text, re.I):
        return None  # said in digits: the number readers take it
    for pattern, value in _HALF:
        if pattern.search(text):
            return value
    return None


_KIND_WORDS = {"class", "course", "lesson", "session", "workshop", "activity", "event", "training", "tour"}
_RU_KIND_WORDS = ("занят", "урок", "класс", "курс", "тренировк", "мастер-класс", "воркшоп", "сеанс")


def wants_kind_name(prop: str, schema: dict) -> str | None:
    """The thing whose name a plain string property wants (`class_name`, `activity`, `course`): its word, or None."""
    if schema.get("type") != "string" or schema.get("enum") or schema.get("format") or schema.get("pattern"):
        return None
    words = tokens(prop)
    kinds = [w for w in words if w in _KIND_WORDS]
    if not kinds or (len(words) > 1 and words[-1] not in {"name", "type", "title", *_KIND_WORDS}):
        return None
    return kinds[0]


_NOT_A_NAME = {"the", "a", "an", "my", "our", "your", "this", "that", "next", "first", "last", "any", "free", "same",
               "tomorrow's", "today's", "friday's", "monday's", "tuesday's", "wednesday's", "thursday's",
               "saturday's", "sunday's", "morning", "evening", "afternoon", "weekly", "daily", "new", "full", "open",
               "one", "which", "what", "whole", "other", "s", "tonight's", "week's", "upcoming", "regular", "usual",
               "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow",
               "tonight", "weekend", "evening's", "morning's", "early", "late", "beginner", "beginners", "advanced",
               "group", "private", "online", "trial", "intro"}


def kind_name(kind: str, text: str) -> str | None:
    """What the class (course, workshop…) is called: the word before its kind word ("tomorrow's spin class",
    "the pottery class"), a quoted name, or a Russian activity after «на» in the accusative («на йогу»: йога)."""
    for m in re.finditer(rf"([A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)\s+{kind}(?:es|s)?\b", text, re.I):
        words = [w for w in m.group(1).split() if w.lower() not in _NOT_A_NAME and not w.lower().endswith("'s")]
        words = [w for w in words if not re.fullmatch(r"(?:on|in|at|for|to|of|is|are|left|there|spots?|seats?|"
                                                      r"places?|book|join|with|from|and)", w, re.I)]
        if words:
            return words[-1].lower() if words[-1][0].islower() or len(words) == 1 else " ".join(words)
    m = re.search(r"(?<![\w-])(?:на|в)\s+([а-яё]+)(?=[\s,.!?]|$)", text, re.I)
    if m and not text.isascii():
        word = m.group(1).lower()
        if word.startswith(_RU_KIND_WORDS) or len(word) < 4:
            return None
        if word.endswith("у") and not word.endswith(("ту", "ду")):
            return word[:-1] + "а"  # «на йогу»: йога, «на растяжку»: растяжка
        if word.endswith("ю"):
            return word[:-1] + "я"  # «на аэробику»… «на зумбу»; «на хореографию»: хореография
    return None


_ISSUE_PROPS = {"issue", "problem", "complaint", "fault", "symptoms", "symptom", "defect"}


def wants_issue(prop: str, schema: dict) -> bool:
    """A free-text property for what went wrong (`issue`, `problem`, `symptoms`), not an issue's id or key."""
    words = tokens(prop)
    return schema.get("type") == "string" and not schema.get("enum") and not schema.get("format") \
        and not schema.get("pattern") and bool(words) and words[-1] in _ISSUE_PROPS and words[0] in _ISSUE_PROPS


def issue(text: str, where: str | None = None) -> str | None:
    """What went wrong, as the request says it: its first sentence that describes a situation, without the place
    ("The shower is leaking in room 12." : "The shower is leaking")."""
    sentence = re.split(r"(?<=[.!?])\s+", text.strip())[0].strip().rstrip(".!?")
    sentence = re.split(r",\s+(?:please|can you|could you|cool|warm|heat|make|set|book|send|сделай|поставь|"
                        r"пожалуйста|можете|можно)\b", sentence, maxsplit=1, flags=re.I)[0]
    sentence = re.sub(r"\s+(?:in|at)\s+(?:the\s+)?(?:room|flat|apartment|unit|suite)\s+[\w-]+$", "", sentence,
                      flags=re.I)
    sentence = re.sub(r"\s+(?:в|на)\s+(?:номере|комнате|квартире|кабинете)\s+[\w-]+$", "", sentence, flags=re.I)
    return sentence or None


def value_for(prop: str, schema: dict, text: str) -> object | None:
    """The value these readers give the property, or None."""
    if not isinstance(schema, dict):
        return None
    if wants_place(prop, schema):
        return place(text)
    if wants_percent(prop, schema):
        return percent(text)
    kind = wants_kind_name(prop, schema)
    if kind is not None:
        return kind_name(kind, text)
    if wants_issue(prop, schema):
        return issue(text)
    thing = flag_thing(prop, schema)
    if thing is not None:
        return with_or_without(thing, text)
    if wants_item(prop, schema):
        return lost_thing(text)
    return switch_option(prop, schema, text) or status_option(prop, schema, text)


def misplaced(prop: str, schema: dict, value: object, text: str) -> bool:
    """Whether a place property holds something other than the room the request names (the ask's object, «шторы»,
    or an adjective): a value with a digit ("room 12": 12) or that holds the room's word stays."""
    if not isinstance(schema, dict) or not wants_place(prop, schema) or not isinstance(value, str):
        return False
    room = place(text)
    return room is not None and not any(ch.isdigit() for ch in value) and room.casefold() not in value.casefold() \
        and value.casefold() not in room.casefold()


def misnamed(prop: str, schema: dict, value: object, text: str) -> bool:
    """Whether a class's (course's…) name property holds something other than the name the request gives it before
    its kind word ("Is tomorrow's spin course full?": spin, not "full")."""
    kind = wants_kind_name(prop, schema) if isinstance(schema, dict) else None
    if kind is None or not isinstance(value, str):
        return False
    found = kind_name(kind, text)
    return found is not None and found.casefold() not in value.casefold()


_AFTER_PLACE_PREPOSITION = r"(?<![\w-])(?:из|изо|в|во|до|от|ото|к|ко|через)\s+"


def city_nominative(value: object, text: str, nominative) -> object:
    """A city written after из, в, до, от («из Перми», «из Нижнего Новгорода») in the nominative (Пермь, Нижний
    Новгород), as the `nominative` reader gives it; a name already in the nominative («в Тверь», «в Бутово») stays."""
    if not isinstance(value, str) or not re.fullmatch(r"[А-ЯЁ][а-яё]{2,}(?:-[а-яё]+-[А-ЯЁ][а-яё]+|-[А-ЯЁ][а-яё]+)?"
                                                      r"(?: [А-ЯЁ][а-яё]+)?", value):
        return value
    if not re.search(_AFTER_PLACE_PREPOSITION + re.escape(value) + r"(?![\w-])", text):
        return value
    return nominative(value)


_FLAG_LEADS = {"with", "has", "have", "having", "include", "includes", "including", "bring", "brings", "bringing",
               "need", "needs", "want", "wants", "plus", "add", "extra"}
_FLAG_TAILS = {"included", "added", "required", "needed", "allowed"}
_WITH = re.compile(r"^(?:with|along with|together with|plus|including|and|&|с|со|вместе с|и|включая|а также)$", re.I)
_WITHOUT = re.compile(r"^(?:without|no|minus|excluding|без|безо)$", re.I)


def flag_thing(prop: str, schema: dict) -> str | None:
    """What a boolean property says is with or without ("with_car": car, "has_pet": pet, "luggage_included"), or
    None for another boolean."""
    if not isinstance(schema, dict) or schema.get("type") != "boolean":
        return None
    words = tokens(prop)
    if len(words) >= 2 and words[0] in _FLAG_LEADS:
        thing = [w for w in words[1:] if w not in ("a", "an", "the", "own", "any")]
    elif len(words) >= 2 and words[-1] in _FLAG_TAILS:
        thing = words[:-1]
    else:
        return None
    return " ".join(thing) or None


def with_or_without(thing: str, text: str) -> bool | None:
    """Whether the request takes the thing along ("with my car and the dog", «с машиной и с собакой»: True) or
    leaves it ("no luggage", «без багажа»: False), the thing matched in either language and by what it is (a dog is
    a pet); None when it does not say."""
    wanted = stems(thing, synonyms=True)
    side: bool | None = None
    since = 0
    for word in re.findall(r"[\w'-]+|[.,;:!?()]", text):
        lowered = word.lower()
        if lowered in ".;:!?()":
            side = None
            continue
        if lowered == ",":
            continue
        if _WITHOUT.match(lowered):
            side, since = False, 0
            continue
        if _WITH.match(lowered):
            side = True if side is None or lowered not in ("and", "&", "и") else side
            since = 0
            continue
        since += 1
        if side is not None and since > 3:
            side = None  # "with" said of something else a few words back
        if side is not None and len(lowered) >= 3 and overlap(stems(word, synonyms=True), wanted):
            return side
    return None


def reflagged(prop: str, schema: dict, value: object, text: str) -> bool:
    """Whether a with/has flag holds the other side from the one the request says («с собакой» for `has_pet`)."""
    thing = flag_thing(prop, schema) if isinstance(schema, dict) else None
    if thing is None:
        return False
    said = with_or_without(thing, text)
    return said is not None and said != value


_ON_OPTIONS = ("on", "enabled", "enable", "active", "true", "yes", "вкл", "включено", "включен", "включить")
_OFF_OPTIONS = ("off", "disabled", "disable", "inactive", "false", "no", "выкл", "выключено", "выключен", "выключить")


def switch_option(prop: str, schema: dict, text: str) -> str | None:
    """The option of a state enum (`state: ["on", "off"]`, `power: ["enabled", "disabled"]`) that the request's verb
    asks for: "Enable plug P-7", «Включи…» the on option, "Disable…", «Выключи…» the off one."""
    options = schema.get("enum")
    if schema.get("type") not in (None, "string") or not isinstance(options, list) \
            or not all(isinstance(o, str) for o in options):
        return None
    if not set(tokens(prop)) & {"state", "status", "power", "mode", "switch", "on", "enabled", "desired", "target",
                                "action", "command"}:
        return None
    side = switched("state", text)
    if side is MISSING:
        return None
    wanted = _ON_OPTIONS if side else _OFF_OPTIONS
    return next((o for o in options if o.casefold() in wanted), None)


_ITEM_PROPS = {"item", "object", "thing", "belonging", "belongings", "article", "lost"}
_LOST_EN = re.compile(r"\b(?:lost|left|forgot|forgotten|dropped|misplaced|mislaid|can'?t find)\s+(?:my|our|his|her|"
                      r"their|a|an|the)\s+((?:[a-z-]+\s+){0,2}?[a-z-]+?)(?=\s+(?:on|in|at|by|near|inside|under|"
                      r"yesterday|today|this|last|somewhere|when|while|during|after|before)\b|[.,;!?]|$)", re.I)
_LOST_RU = re.compile(r"(?<!\w)(?:потерял\w*|оставил\w*|забыл\w*|выронил\w*|обронил\w*|посеял\w*|не могу найти)"
                      r"\s+(?:сво\w+\s+|мо\w+\s+)?((?:[а-яё-]+\s+){0,2}?[а-яё-]+?)(?=\s+(?:в|во|на|у|под|около|"
                      r"возле|вчера|сегодня|утром|вечером|когда|пока)\b|[.,;!?]|$)", re.I)


def wants_item(prop: str, schema: dict) -> bool:
    """A plain string property for the thing a request is about (`item`, `lost_item`, `object`)."""
    words = tokens(prop)
    return schema.get("type") == "string" and not schema.get("enum") and not schema.get("format") \
        and not schema.get("pattern") and bool(words) and words[-1] in _ITEM_PROPS - {"lost"} \
        and not set(words) & {"id", "key", "number", "code", "type", "count"}


def lost_thing(text: str) -> str | None:
    """What the request lost or left somewhere: "I lost my umbrella on Friday": umbrella; «Я потерял чёрную сумку в
    автобусе»: чёрная сумка (the accusative put in the nominative)."""
    m = _LOST_EN.search(text)
    if m:
        return m.group(1).lower()
    m = _LOST_RU.search(text)
    if not m:
        return None
    out = []
    for word in m.group(1).lower().split():
        if word.endswith(("ую", "юю")):
            word = word[:-2] + ("ая" if word.endswith("ую") else "яя")
        elif word.endswith("у") and len(word) > 3:
            word = word[:-1] + "а"
        elif word.endswith("ю") and len(word) > 3:
            word = word[:-1] + "я"
        out.append(word)
    return " ".join(out)


_STATUS_WORDS = [
    (("overdue", "past_due", "late", "delinquent", "просрочен", "просрочено"),
     re.compile(r"\b(?:past[ -]due|overdue|late|delinquent)\b|(?<!\w)просроч\w*", re.I)),
    (("unpaid", "open", "outstanding", "due", "неоплачен", "не оплачен"),
     re.compile(r"\b(?:unpaid|not (?:yet )?paid|outstanding)\b|(?<!\w)(?:неоплач\w*|не оплач\w*)", re.I)),
    (("paid", "settled", "оплачен", "оплачено"), re.compile(r"\b(?:already )?paid\b|(?<!\w)оплачен\w*", re.I)),
    (("cancelled", "canceled", "void", "voided", "отменён", "отменен"),
     re.compile(r"\b(?:cancell?ed|voided)\b|(?<!\w)(?:отмен[её]нн?\w*)", re.I)),
    (("draft", "черновик"), re.compile(r"\bdrafts?\b|(?<!\w)черновик\w*", re.I)),
]
"""A status said in everyday words ("past due", «просрочены», "unpaid") and the options a status enum writes it
with; the first reading that an option of the enum takes wins ("past due" before "due")."""


def status_option(prop: str, schema: dict, text: str) -> str | None:
    """The option of a status-like enum (`status`, `state`, `filter`) that the request's words for a state pick:
    "Which of my bills are past due?" → overdue, «Какие счета просрочены?» → overdue; None when no option fits."""
    enum = schema.get("enum")
    options = [o for o in enum if isinstance(o, str)] if isinstance(enum, list) else []
    if not options or not re.search(r"status|state|filter|статус", prop, re.I):
        return None
    for names, said in _STATUS_WORDS:
        if said.search(text):
            fit = [o for o in options if o.casefold().replace("-", "_").replace(" ", "_") in names]
            if fit:
                return fit[0]
    return None
