"""Conditions on the fields of listed results: "close the ones tagged duplicate" (a list field holding the
word), "cancel those that are not yet shipped" / «те, что ещё не отправлены» (a boolean field), "reboot the ones
whose battery is below 20%" / «у которых заряд меньше 20» (a number compared).

A condition names a field only by a word (battery, shipped); the field is found in each listed item by that
word (`battery_percent`, `is_shipped`). A step whose words qualify the items ("the ones that…", «те, что…») but
that no condition or filter reads is marked unreadable: the model then acts on nothing and says so, never on all.
"""

import os
import re
from dataclasses import dataclass, field

_NUMBER_OPS = {"below": "<", "under": "<", "less than": "<", "lower than": "<", "fewer than": "<",
               "over": ">", "above": ">", "more than": ">", "greater than": ">", "higher than": ">",
               "at least": ">=", "no less than": ">=", "at most": "<=", "no more than": "<=",
               "меньше": "<", "ниже": "<", "менее": "<", "больше": ">", "выше": ">", "более": ">",
               "не меньше": ">=", "не менее": ">=", "не больше": "<=", "не более": "<=", "не ниже": ">=",
               "не выше": "<="}
_OPS = "|".join(sorted((re.escape(op) for op in _NUMBER_OPS), key=len, reverse=True))
_NUMERIC = re.compile(
    r"(?:\bwhose|\bwith(?:\s+an?)?|\bwhere(?:\s+the|\s+their|\s+its)?|\bthat\s+have|(?<!\w)у\s+которых|"
    r"(?<!\w)у\s+которого|(?<!\w)где|(?<!\w)с)\s+([^\W\d_][\w-]*(?:\s+(?!(?:is|are|was|were|of)\b)[^\W\d_][\w-]*)?)\s+"
    r"(?:(?:is|are|was|were|of)\s+)?(" + _OPS + r")\s+(-?\d+(?:[.,]\d+)?)\s*(?:%|percent|процент\w*)?", re.I)
_TAGGED = re.compile(r"\b(?:tagged|labell?ed|marked)\s+(?:as\s+|with\s+)?[\"'`«]?([\w-]+)|"
                     r"\bwith\s+the\s+(?:tag|label)\s+[\"'`«]?([\w-]+)|"
                     r"(?<!\w)(?:с\s+тегом|с\s+меткой|помечен\w*(?:\s+как)?)\s+[\"'`«]?([\w-]+)", re.I)
_STATES_EN = [
    (re.compile(r"\b(?:that|which|who)\s+(?:are|is|were|was)\s+((?:out|in|on|off)\s+(?:of\s+)?[a-z]{3,})", re.I), True),
    (re.compile(r"\b(?:not|never)\s+(?:yet\s+)?(?:been\s+)?([a-z]{3,})|\b\w+n't\s+(?:yet\s+)?(?:been\s+)?([a-z]{3,})",
                re.I), False),
    (re.compile(r"\b(?:that|which|who)\s+(?:are|is|were|was|have\s+been|has\s+been)\s+(?:already\s+)?([a-z][a-z_-]{2,"
                r"})",
                re.I), True),
    (re.compile(r"\b(?:the|all)\s+([a-z][a-z_-]{2,})\s+(?:ones|items|entries)\b", re.I), True),
    (re.compile(r"\bun([a-z]{3,}(?:ed|en))\b", re.I), False),
    (re.compile(r"\b([a-z]{3,}(?:ed|en))\b", re.I), True),
]
"""A state in English: "not (yet) shipped", "that are active", "unpaid"... "the ones shipped"; first that reads wins."""
_STATE_RU = re.compile(r"(?<!\w)((?:ещё|еще|пока|уже)?\s*не\s+|уже\s+|не(?=[а-яё]))?"
                       r"(отправлен|оплачен|доставлен|закрыт|прочитан|активн|выполнен|подтвержд[её]н|отгружен|"
                       r"просрочен|заблокирован|включ[её]н|выключен|отменён|отменен|(?:есть\s+)?в\s+наличии)\w*", re.I)
_RU_STATE_WORDS = {"отправлен": ("shipped", "sent", "dispatched"), "отгружен": ("shipped", "dispatched"),
                   "оплачен": ("paid",), "доставлен": ("delivered",), "закрыт": ("closed",), "прочитан": ("read",),
                   "активн": ("active", "enabled"), "выполнен": ("done", "completed"),
                   "подтвержд": ("confirmed",), "просрочен": ("overdue", "expired"),
                   "заблокирован": ("blocked", "locked"), "включ": ("on", "enabled"), "выключен": ("off", "disabled"),
                   "отмен": ("cancelled", "canceled"), "есть в наличии": ("available", "in_stock", "in stock"),
                   "в наличии": ("available", "in_stock", "in stock")}
_RU_FIELD_WORDS = {"заряд": "battery", "батаре": "battery", "цен": "price", "стоимост": "price", "сумм": "amount",
                   "температур": "temperature", "возраст": "age", "размер": "size", "количеств": "quantity",
                   "остат": "stock", "рейтинг": "rating", "оценк": "rating", "балл": "score", "лет": "years",
                   "год": "years", "опыт": "experience"}
_QUALIFIED = re.compile(r"\b(?:the|all)\s+(?!(?:other|same|first|last|new|old|listed|remaining)\b)[a-z][a-z_-]{2,"
                        r"}\s+(?:ones|items|entries)\b|"
                        r"\b(?:every|each|any)\s+(?:one|item|entry)\s+(?:that|which|whose|where|with)\b|"
                        r"\b(?:the ones|those|them|these)\b[^\"«“]*?\b(?:that|which|who|whose|where|tagged|labell?ed|"
                        r"marked|not)\b|\b(?:the ones|those)\s+(?:with|without|from|by|in|on|at|of|older|newer|larger|"
                        r"smaller|bigger|over|under|before|after|since|having|containing|named|called)\b|"
                        r"\b(?:the ones|those)\s+(?:\w+\s+)?(?:[a-z]+(?:ed|en|wn|ld|lt|ing)|held|run|set|taught|led|"
                        r"kept|made|done)\s+(?:on|in|at|by|for|from|with|under|during|before|after|this|last|next|"
                        r"every)\b|(?<!\w)(?:те|"
                        r"тех|их|них|эти|этих|все)\W+(?:and\s+)?(?:что|которые|которых|у которых|"
                        r"где|чьи|с\s+тегом|помечен\w*)(?!\w)", re.I)
_NOT_STATES = {"need", "seed", "feed", "speed", "tagged", "labelled", "labeled", "marked", "named", "called", "listed",
               "returned", "found", "given", "seen", "been", "then", "when", "often", "even", "open", "screen", "token",
               "hidden", "asked", "used", "based", "yet", "the", "all", "any", "more", "less", "only"}


@dataclass(frozen=True)
class Condition:
    """One test on a listed item's fields: `kind` tag / state / number, the word naming the field or value."""

    kind: str
    word: str
    op: str = "=="
    value: object = None
    unit: str | None = None
    """The unit the number was written in ("100 KB"): converted to the unit the item's field is named for
    (`size_kb`)."""
    stem: str | None = field(default=None, compare=False)
    """A Russian state word's stem («просрочен»), matched against a status a row writes in Russian («просрочена»)."""

    def holds(self, fields: dict) -> bool | None:
        """Whether the item meets it; None when the item has no field the condition can read."""
        if self.kind == "tag":
            lists = [v for k, v in fields.items() if isinstance(v, list)]
            named = [v for k, v in fields.items() if isinstance(v, str) and re.search(r"tag|label|categor", k, re.I)]
            want = self.word.casefold()
            if not lists and not named:
                # "the ones still marked stale" with no tag field: the field that holds the value (a `status` of
                # "stale"), and a status that says something else does not
                if any(isinstance(v, str) and _same_value(v, want) for v in fields.values()):
                    return True
                flags = [v for k, v in fields.items() if isinstance(v, bool) and _same_value(k, want)]
                if flags:  # "marked done" and a `done` flag
                    return flags[0]
                if any(isinstance(v, str) and _STATE_KEY.search(k) for k, v in fields.items()):
                    return False
                return None
            return any(want in {str(x).casefold() for x in v}
                       for v in lists) or any(want == v.casefold() for v in named)
        if self.kind == "about":
            texts = [v for k, v in fields.items() if isinstance(v, str) and not _PERSON_KEY.search(k)
                     and not _ISO_DAY.match(v)]
            if not texts:
                return None
            said = _about_root(self.word)
            return any(_about_root(w) == said for v in texts for w in re.findall(r"[\w-]{3,}", v))
        if self.kind == "weekday":
            days = self.value if isinstance(self.value, tuple) else (self.value,)
            held = [_on_weekday(fields, int(day)) for day in days]
            return None if None in held else any(held)
        if self.kind == "field":
            keys = [k for k in fields if isinstance(fields[k], (str, int)) and not isinstance(fields[k], bool)
                    and any(_same_word(w, part) for w in self.word.split() for part in _parts(k))]
            if not keys:
                return None
            return any(_same_value(str(fields[k]), str(self.value)) for k in keys)
        if self.kind == "clock":
            timed = {k: at for k, v in fields.items() if (at := _time_of(k, v)) is not None}
            key = next((k for k in timed if _START_KEY.search(k)), None) or (next(iter(timed)) if timed else None)
            if key is None:
                return None
            at, limit = timed[key], str(self.value)
            return {"<": at < limit, ">": at > limit, ">=": at >= limit, "<=": at <= limit}[self.op]
        if self.kind == "person":
            said = self.word.casefold()
            held = [v.casefold() for k, v in fields.items() if isinstance(v, str) and _PERSON_KEY.search(k)]
            if not held:  # a `teacher`, `driver` or `lead`: a field that holds a person's name, and none holds it
                held = [v.casefold() for v in fields.values() if isinstance(v, str) and _A_NAME.fullmatch(v)]
            if not held:
                return None
            return any(v == said or v.startswith(said + " ") or v.split("@")[0] == said or _same_name(said, v)
                       for v in held)
        if self.kind == "date":
            dated = {k: v[:10] for k, v in fields.items() if isinstance(v, str) and _ISO_DAY.match(v)}
            if not dated:
                return None
            key = next((k for k in dated if self.word and self.word in _parts(k)), None) or (
                next((k for k in dated if _DATE_KEY.search(k)), None) if len(dated) > 1 else next(iter(dated)))
            if key is None:
                return None
            day, limit = dated[key], str(self.value)
            return {"<": day < limit, ">": day > limit, ">=": day >= limit, "<=": day <= limit,
                    "==": day == limit}[self.op]
        if self.kind == "state":
            words = self.word if isinstance(self.word, tuple) else (self.word,)
            for key, value in fields.items():
                if isinstance(value, bool) and (any(_same_word(w, part) for w in words for part in _parts(key))
                                                or any("_".join(w.split()) == key.lower() for w in words)):
                    return value is self.value
            if set(words) & _ROOM_LEFT:  # "with free places" and a count of them (`free_places`, `spots_left`): any
                for key, value in fields.items():
                    parts = set(_parts(key))
                    if isinstance(value, (int, float)) and not isinstance(value, bool) and parts & (
                            _ROOM_LEFT | _LEFT) and not parts & {"capacity", "total", "max", "maximum", "booked"}:
                        return (value > 0) is self.value
            said = {_spoken(w) for w in words}
            said |= {w[:-1] for w in said if w.endswith("s") and len(w) > 4}  # "the ones that are drafts"
            stems_said = [self.stem] if self.stem else []  # «просроченные» for «просрочена»
            if any(isinstance(v, str) and (_spoken(v) in said or any(_spoken(v).startswith(w) for w in stems_said))
                   for v in fields.values()):
                return self.value is True  # "the ones that are delayed": a `status` of "delayed"
            if any(isinstance(v, str) and _STATE_KEY.search(k) for k, v in fields.items()):
                return self.value is False  # a status field that says something else
            return None
        key = next((k for k in fields if isinstance(fields[k], (int, float)) and not isinstance(fields[k], bool)
                    and any(_same_word(w, part) for w in self.word.split() for part in _parts(k))), None)
        if key is None:
            return None
        number, limit = fields[key], float(self.value)
        if self.unit:
            converted = _in_unit_of(key, limit, self.unit)
            if converted is None:
                return None
            limit = converted
        return {"<": number < limit, ">": number > limit, "<=": number <= limit, ">=": number >= limit}[self.op]


def conditions(words: str, filtered: bool = False) -> tuple[tuple[Condition, ...], bool]:
    """The conditions a later step's words put on the listed items, and whether the words qualify the items in a
    way nothing here reads (then nothing is acted on); `filtered`: a filter on the items' text (plans.py, "that
    end in .log") already reads the qualifying words."""
    found: list[Condition] = []
    for m in _NUMERIC.finditer(words):
        field = m.group(1).lower()
        field = next((en for ru, en in _RU_FIELD_WORDS.items() if field.startswith(ru)), field)
        found.append(Condition("number", field, _NUMBER_OPS[m.group(2).lower()], float(m.group(3).replace(",", "."))))
    for m in _COMPARED.finditer(words):
        field, op = _COMPARATIVES[next(k for k in _COMPARATIVES if m.group(1).lower().startswith(k))]
        unit = m.group(3).lower() if m.group(3) else None
        found.append(Condition("number", field, op, float(m.group(2).replace(",", ".")), unit))
    for m in _VERBED.finditer(words):  # "every one that costs more than 10 euros", «которые стоят дороже 500»
        verb = m.group(1).lower()
        field = next(f for start, f in _VERB_FIELDS.items() if verb.startswith(start))
        op = _NUMBER_OPS.get(m.group(2).lower()) or _COMPARATIVES[m.group(2).lower()][1]
        found.append(Condition("number", field, op, float(m.group(3).replace(",", "."))))
    for m in _DATED.finditer(words):  # "older than 2026-01-01", «старше 2026-01-01»: a date field compared
        op = _DATE_OPS[(m.group(1) or m.group(3)).lower().split()[0]]
        found.append(Condition("date", "", op, m.group(2) or m.group(4)))
    if not any(c.kind == "date" for c in found):
        found += _written_dates(words)
    for m in _TAGGED.finditer(words):
        found.append(Condition("tag", next(g for g in m.groups() if g)))
    found += _clock_and_person(words)
    for m in _ABOUT.finditer(words):  # «те, что про лифт», "the ones about the lift": a word the item's text holds
        found.append(Condition("about", next(g for g in m.groups() if g).lower()))
        break
    found += _weekday_and_field(words)
    for m in _FIRST.finditer(words):  # "the first free one", «первый свободный»: a state, of which one item is taken
        said = next(g for g in m.groups() if g).lower()
        meant = next((en for ru, en in _RU_FIRST_STATES.items() if said.startswith(ru)), said)
        if meant not in _NOT_STATES:
            found.append(Condition("state", meant, value=True))
        break
    for m in _COUNTED_AFTER.finditer(words):  # "with at least 5 years of experience"
        field = " ".join(w for w in (m.group(3), m.group(4), m.group(7)) if w).lower()
        field = next((en for ru, en in _RU_FIELD_WORDS.items() if field.startswith(ru)), field)
        found.append(Condition("number", field, _NUMBER_OPS[(m.group(1) or m.group(5)).lower()],
                               float((m.group(2) or m.group(6)).replace(",", "."))))
    for m in _KNOWS.finditer(words):  # "who knows Rust", «кто знает Rust»: a list of skills holding it
        found.append(Condition("tag", (m.group(1) or m.group(2)).rstrip(".,;:!?")))
    if not filtered:
        # a state beside a comparison ("the ones that are cancelled with a total over 100"): both must hold
        compared = [c for c in found if c.kind == "number"]
        found = [c for c in found if c.kind != "number"]
        words_left = _NUMERIC.sub(" ", _COMPARED.sub(" ", words))
    else:
        compared, words_left = [], words
    if not found and not filtered:
        words, whole = words_left, words
        for m in _STATE_RU.finditer(words):
            stem = next(k for k in _RU_STATE_WORDS if m.group(2).lower().startswith(k))
            found.append(Condition("state", _RU_STATE_WORDS[stem], value=not (m.group(1) or "").strip().endswith("не"),
                                   stem=stem))
        if not found and _QUALIFIED.search(words):
            found += _english_state(words)
        bare = _BARE_STATE.search(words)
        if not found and bare:  # "reorder the items that are out of stock"
            found += _english_state(words[bare.start():])
        latin = _RU_LATIN_STATE.search(words)
        if not found and latin:  # «перезагрузи те, что offline»: a status written as the system writes it
            found.append(Condition("state", latin.group(2).lower(), value=not latin.group(1)))
        words = whole
    found = [*compared, *found]
    named = bool(_NAMED_AFTER.search(words))
    return tuple(found), bool(_QUALIFIED.search(words) or named) and not found and not filtered


_CLOCK = re.compile(
    r"\b(before|after|until|till|by|from)\s+(noon|midday|lunch(?:time)?|(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?)"
    r"(?![\w:])|\b(?:in|during)\s+the\s+(morning|afternoon|evening)\b|"
    r"(?<!\w)(до|после|с)\s+(обеда|полудня|(\d{1,2})(?::(\d{2}))?(?:\s*час\w*)?)(?![\w:])|(?<!\w)(утром|днём|днем|"
    r"вечером)(?!\w)", re.I)
"""A time of day the listed items are compared with: "the ones before noon", "after 3pm", "in the morning",
«после обеда», «до 10:00», «вечером». Noon, lunch and «обед» are 12:00; morning is before it, evening from 18:00."""
_PARTS_OF_DAY = {"morning": ("<", "12:00"), "утром": ("<", "12:00"), "afternoon": (">=", "12:00"),
                 "днём": (">=", "12:00"), "днем": (">=", "12:00"), "evening": (">=", "18:00"),
                 "вечером": (">=", "18:00")}
_PART_ADJECTIVE = re.compile(r"\b(morning|afternoon|evening)\s+(?:ones?|classes|sessions|slots|items|lessons|"
                             r"meetings|events|bookings|appointments|shifts|runs|trains|flights|shows|tours)\b|"
                             r"(?<!\w)(утренн|дневн|вечерн)[а-яё]*(?!\w)", re.I)
"""A part of the day said as an adjective: "the evening ones", "morning classes", «утренние», «вечерних»."""
_ADJECTIVE_PARTS = {"утренн": "morning", "дневн": "afternoon", "вечерн": "evening"}
_PART_WORDS = (("morning", "09:00"), ("утр", "09:00"), ("afternoon", "14:00"), ("день", "14:00"), ("днев", "14:00"),
               ("днём", "14:00"), ("днем", "14:00"), ("evening", "19:00"), ("вечер", "19:00"), ("night", "23:00"),
               ("ноч", "23:00"))
"""A part of the day a listed item holds as a word (`"time": "утро"`, `"slot": "evening"`): a time within it, so
"the evening ones", «утренние» and «после обеда» compare it as they compare a clock time."""
_BARE_CLOCK = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?\s*", re.I)


def _time_of(key: str, value: object) -> str | None:
    """The time of day ("HH:MM") a listed item's field holds: an ISO date-time's, a clock time's ("18:30", "6:30 pm",
    "7 pm"), or a part of the day's written as a word ("evening", «утро»), in a field named for a time."""
    if not isinstance(value, str):
        return None
    if _ISO_TIME.match(value):
        return value[11:16]
    m = _BARE_CLOCK.fullmatch(value)
    if m and (m.group(2) or m.group(3)):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if m.group(3):
            hour = hour % 12 + (12 if m.group(3).lower().startswith("p") else 0)
        return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None
    if _START_KEY.search(key) or re.search(r"part|period|session|shift|время|смен", key, re.I):
        said = value.strip().lower()
        return next((at for word, at in _PART_WORDS if said.startswith(word)), None)
    return None


_CLOCK_OPS = {"before": "<", "until": "<", "till": "<", "by": "<", "after": ">=", "from": ">=", "до": "<",
              "после": ">=", "с": ">="}
_NOT_A_PERSON = (r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|"
                 r"May|June|July|August|September|October|November|December|The|This|That|These|Those|It|We|You|They|He|She|"
                 r"Today|Tomorrow)\b)")
_FULL = r"[A-ZА-ЯЁ][a-zа-яё'-]+(?:\s+[A-ZА-ЯЁ][a-zа-яё'-]+){0,2}"
"""A person's name, the first name alone or with the last ("Anna", "Anna Petrova", «Анна Петрова»)."""
_BY_PERSON = re.compile(
    rf"\b(?:the ones|those|ones|that|which|(?:the|all(?:\s+the)?|every|each|any)\s+[a-z]{{3,}})\s+{_NOT_A_PERSON}"
    r"([A-Z][a-z]+(?:\s+[A-Z][a-z'-]+){0,2})\s+"
    r"(?:(?:is|was|has|had|will|does|did)\s+)?(?!(?:is|are|was|were|has|have)\b)[a-z]{3,}\b|"
    rf"\b(?:(?!(?:sorted|grouped|ordered|filtered|listed)\b)[a-z]{{3,}}|assigned to|belonging to|run|led)\s+by\s+"
    rf"{_NOT_A_PERSON}([A-Z][a-z]+(?:\s+[A-Z][a-z'-]+){{0,2}})\b|"
    r"(?<!\w)(?:которые|которых|что|те|где|у\s+которых|у\s+которого)\s+(?:(?:сейчас|обычно|всегда)\s+)?"
    rf"[а-яё]{{3,}}\s+({_FULL})|"
    # «отмени занятия Анны Петровой», «уроки Боба»: a name in the genitive after the items' noun
    r"(?<![\w-])(?!(?:у|к|с|о|об|от|до|для|без|при|про|через|на|в|во|за|по|из|перед)\s)[а-яё]{3,}\s+"
    r"((?:[А-ЯЁ][а-яё'-]+(?:ы|и|а|я|ой|ей|ого|его))(?:\s+[А-ЯЁ][а-яё'-]+(?:ы|и|а|я|ой|ей|ого|его)){0,2})"
    r"(?=\s*(?:[.,;!?]|$))|"
    # «уроки у Анны Петровой»; "the ones with Anna Petrova" (not "with Yoga in the title")
    r"(?<!\w)(?:у|для)\s+([А-ЯЁ][а-яё'-]+(?:\s+[А-ЯЁ][а-яё'-]+){0,2})(?=\s*(?:[.,;!?]|$))|"
    rf"\b(?:the ones|those|ones)\s+with\s+{_NOT_A_PERSON}([A-Z][a-z]+(?:\s+[A-Z][a-z'-]+){{0,2}})\b"
    r"(?!\s+in\s+(?:the|their|its)\b)(?=\s*(?:[.,;!?]|$))|"
    # "then cancel Anna Petrova's lessons": a possessive right after the step's verb
    rf"^\W*(?:(?:and|then|also|please)\s+)*[a-z]{{3,}}\s+(?:all\s+)?(?:of\s+)?{_NOT_A_PERSON}"
    r"([A-Z][a-z]+(?:\s+[A-Z][a-z'-]+){0,2})['’]s\b")
"""A person the listed items belong to, said with any verb: "the ones Bob booked", "the ones Anna Petrova teaches",
"created by Alice", "led by Priya Shah", «которые забронировал Боб», «те, что ведёт Анна», «те, у которых ведёт Анна
Петрова», «занятия Анны Петровой» (the genitive; matched against the items' names in any case, see _same_name)."""
_NAMED_AFTER = re.compile(r"\b(?:the ones|those|ones)\s+(?:[A-Z][\w'-]+\s+){1,3}[a-z]|"
                          r"(?<!\w)(?:те|тех|которые|которых|что)\W+(?:[а-яё]+\s+){0,3}[А-ЯЁ][а-яё]+")
"""A qualification by a named person the pattern above may not read ("the ones Anna Maria Lopez Garcia takes"):
then the step's selection is unreadable, and nothing is acted on."""
_A_NAME = re.compile(r"[A-ZА-ЯЁ][a-zа-яё'-]+(?: [A-ZА-ЯЁ][a-zа-яё'-]+){0,2}")
"""A value that reads as a person's name ("Priya", "Anna Smith", «Анна»)."""
_NAME_CASE_ENDINGS = ("овой", "евой", "иной", "ского", "ской", "ова", "ева", "ина", "ому", "ой", "ей", "ого", "его",
                      "ом", "ем", "ым", "им", "ы", "и", "а", "я", "у", "ю", "е")
_NOMINATIVE_ENDS = {"овой": ("ова",), "евой": ("ева",), "иной": ("ина",), "ского": ("ский",), "ской": ("ская",),
                    "ова": ("ов", "ова"), "ева": ("ев", "ева"), "ина": ("ин", "ина"), "ой": ("а", "ая"),
                    "ей": ("я", "ь"), "ы": ("а",), "и": ("я", "а", "ь"), "а": ("", "а"), "я": ("ь", "я", "й"),
                    "у": ("а", ""), "ю": ("я", "ь"), "е": ("а", "я", ""), "ого": ("ой", "ий"), "его": ("ий",),
                    "ому": ("ой", "ий", ""), "ом": ("",), "ем": ("ь",), "ым": ("",), "им": ("",)}


def _name_forms(word: str) -> set[str]:
    """A name word and, written in Russian, the nominatives its case ending may stand for (Анны: Анна; Петровой:
    Петрова; Смита: Смит), each also in Latin letters, spelled the way _sound compares."""
    forms = {word}
    if re.search(r"[а-яё]", word):
        for ending in _NAME_CASE_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= 2:
                forms |= {word[: len(word) - len(ending)] + n for n in _NOMINATIVE_ENDS[ending]}
    return {_sound(f) for f in forms}


def _sound(word: str) -> str:
    """A name as it sounds, in Latin letters, for names written in either alphabet (Smith, Смит: smit)."""
    from .words import latin

    w = latin(word.casefold())
    for a, b in (("th", "t"), ("ph", "f"), ("ck", "k"), ("sch", "sh"), ("x", "ks"), ("c", "k"), ("q", "k"),
                 ("w", "v"), ("ya", "ia"), ("y", "i"), ("j", "i")):
        w = w.replace(a, b)
    return re.sub(r"(.)\1+", r"\1", w)


def _same_name(said: str, held: str) -> bool:
    """Whether a name said (any case, either alphabet: «Анны Петровой», "Anna") is the name a field holds ("Anna
    Petrova"): each word said is the held name's word in the same place, the first name alone or the full name."""
    said_words, held_words = said.split(), held.split()
    if not said_words or len(said_words) > len(held_words):
        return False
    if said.isascii() and held.isascii():
        return said_words == held_words[: len(said_words)] or (len(said_words) == 1 and said_words[0] in held_words)
    if len(said_words) == 1 and len(held_words) > 1:  # «доклады Петрова», «для Сидорова»: a surname alone
        return any(_sound(h) in _name_forms(said_words[0]) for h in held_words)
    if len(said_words) == len(held_words) == 2 and all(  # «Ивана Петрова» for a field written «Петров Иван»
            _sound(h) in _name_forms(s) for s, h in zip(said_words, reversed(held_words), strict=True)):
        return True
    return all(_sound(h) in _name_forms(s) for s, h in zip(said_words, held_words, strict=False))


_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_START_KEY = re.compile(r"start|begin|from|time|when|at$|slot|начал", re.I)
_PERSON_KEY = re.compile(r"by$|_by|owner|author|organi[sz]er|creator|user|booker|host|assignee|who|person|member|"
                         r"customer|guest|name|teacher|tutor|instructor|coach|trainer|lead|leader|presenter|speaker|"
                         r"driver|doctor|staff|employee|преподават|учител|тренер|ведущ", re.I)
_END_TODAY = re.compile(r"\b(?:end|ends|ending|finish|finishes|expire|expires|due)\s+(today|tomorrow)\b|"
                        r"(?<!\w)(?:заканчива\w*|истека\w*|кончают\w*)\s+(сегодня|завтра)(?!\w)", re.I)


_FIRST = re.compile(r"\bthe\s+(?:first|earliest|next)\s+(?:one|[a-z]{3,})\s+(?:with|that\s+(?:still\s+)?(?:has|have)|"
                    r"where\s+there\s+(?:are|is))\s+(?:any\s+|some\s+|still\s+)?(free|available|open|spare|vacant)\b|"
                    r"\bthe\s+(?:first|earliest|next)\s+(?:one|[a-z]{3,})\s+(?:with|that\s+(?:still\s+)?(?:has|have))\s+"
                    r"(?:places|spots|seats|room|space|slots)\s+(left|available|free)\b|"
                    r"\bthe\s+(?:first|earliest|next)\s+(?!(?:one|with|that)\b)([a-z]{3,})\s+(?:one|[a-z]{3,})\b|"
                    r"(?<!\w)(?:перв|ближайш)\w*\s+(свободн\w*|доступн\w*|открыт\w*)|"
                    r"(?<!\w)(?:перв|ближайш)\w*\W+(?:где|в\s+котор\w+|у\s+котор\w+|с)\s+(?:ещё\s+|еще\s+|пока\s+)?"
                    r"(?:есть\s+|остал\w+\s+)?(свободн\w*|мест\w*)", re.I)
"""One item of those in a state, the first listed: "the first free one", "the next available slot", «первый
свободный»."""
_RU_FIRST_STATES = {"свободн": ("free", "available"), "доступн": ("available",), "открыт": ("open",),
                    "мест": ("free", "available"), "left": ("free", "available"), "spare": ("free", "available"),
                    "vacant": ("free", "available")}


_ROOM_LEFT = {"free", "available", "open", "vacant", "spare"}
_LEFT = {"left", "remaining", "vacancies", "spots", "places", "seats", "slots"}
"""A count of the room an item has left: free_places, spots_left, seats_available."""


_ABOUT = re.compile(r"\b(?:the ones|those|ones|(?:that|which)\s+(?:are|is))\s+(?:about|on|regarding|concerning)\s+"
                    r"(?:the\s+|a\s+|an\s+)?([a-z][\w-]{2,})\b(?!\s+(?:mondays?|tuesdays?|wednesdays?|thursdays?|"
                    r"fridays?|saturdays?|sundays?)\b)|"
                    r"(?<!\w)(?:те|тех|эти|все)?,?\s*(?:что|которые|где)\s+(?:были\s+|будут\s+)?(?:про|о|об|обо|"
                    r"насч[её]т)\s+([а-яёa-z][\w-]{2,})", re.I)
"""A subject the listed items are about, said after a pointer to them: "the ones about the lift", «те, что про
лифт», «которые о бюджете»."""


def _about_root(word: str) -> str:
    """A word's root for comparing a subject in any case or number (лифт, лифте, лифты; lift, lifts)."""
    from .words import stem

    low = word.casefold()
    if re.search(r"[а-яё]", low):
        low = re.sub(r"(?:ами|ями|ах|ях|ов|ев|ей|ом|ем|ой|ы|и|а|я|е|у|ю|о|ь)$", "", low) if len(low) > 4 else low
        return low
    return stem(low)


def first_only(words: str) -> bool:
    """Whether the words take one item only, the first listed that meets them ("the first free one")."""
    return bool(_FIRST.search(words))


def _clock_and_person(words: str) -> list[Condition]:
    """Conditions on a time of day, on the person an item belongs to, and on the day an item ends."""
    from .slots import today

    found = []
    for m in _CLOCK.finditer(words):
        if m.group(6) or m.group(11):
            op, at = _PARTS_OF_DAY[(m.group(6) or m.group(11)).lower()]
        else:
            said = (m.group(2) or m.group(8)).lower()
            hour, minute = m.group(3) or m.group(9), m.group(4) or m.group(10) or "00"
            if hour is not None and not (m.group(4) or m.group(10) or m.group(5) or "час" in m.group(0).lower()):
                continue  # "by 5" may be a day ("by 5 March"): a clock time has its minutes, am/pm or «часов»
            if hour is None:
                at = "12:00" if said.startswith(("noon", "midday", "lunch", "обед", "полудн")) else None
            else:
                h = int(hour) % 12 + (12 if (m.group(5) or "").lower().startswith("p") else 0) \
                    if m.group(5) else int(hour)
                at = f"{h:02d}:{minute}" if h < 24 and int(minute) < 60 else None
            if at is None:
                continue
            op = _CLOCK_OPS[(m.group(1) or m.group(7)).lower()]
        found.append(Condition("clock", "", op, at))
        break
    if not any(c.kind == "clock" for c in found):
        for m in _PART_ADJECTIVE.finditer(words):  # "the evening ones", «утренние»
            part = (m.group(1) or _ADJECTIVE_PARTS[m.group(2).lower()]).lower()
            op, at = _PARTS_OF_DAY[part]
            found.append(Condition("clock", "", op, at))
            break
    for m in _BY_PERSON.finditer(words):
        found.append(Condition("person", next(g for g in m.groups() if g)))
        break
    for m in _END_TODAY.finditer(words):
        later = (m.group(1) or m.group(2)).lower() in ("tomorrow", "завтра")
        day = today().toordinal() + (1 if later else 0)
        from datetime import date
        found.append(Condition("date", "end", "==", date.fromordinal(day).isoformat()))
        break
    return found


_WEEKDAY_WORDS = re.compile(
    r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b|"
    r"(?<![а-яё])(понедельн|вторн|сред(?=(?:а|у|е|ы|ам|ами|ах|овые|овых)(?![а-яё]))|четверг|пятни[цч]|суббот|"
    r"воскрес(?:ень|н))[а-яё]*", re.I)
"""A day of the week, in any form: "Tuesday", "the Tuesday ones", "on Tuesdays", «вторник», «вторничные», «по
средам», «во вторник»."""
_WEEKDAY_INDEX = {"mon": 0, "tues": 1, "wednes": 2, "thurs": 3, "fri": 4, "satur": 5, "sun": 6, "понедельн": 0,
                  "вторн": 1, "сред": 2, "четверг": 3, "пятниц": 4, "пятнич": 4, "суббот": 5, "воскресень": 6,
                  "воскресн": 6}
_WEEKDAY_VALUES = (("mon", "пн", "понедельн"), ("tue", "вт", "вторн"), ("wed", "ср", "сред"), ("thu", "чт", "четверг"),
                   ("fri", "пт", "пятниц"), ("sat", "сб", "суббот"), ("sun", "вс", "воскрес"))
_TARGET_DAY = re.compile(r"(?:\b(?:to|until|till|by|before|after|into)|(?<!\w)(?:до|к|после))\s+(?:next\s+|the\s+|"
                         r"следующ\w+\s+|ближайш\w+\s+)?$", re.I)
_MOVES = re.compile(r"\b(?:move|reschedule|postpone|push|shift)\w*|(?<!\w)(?:перен[ео]с|перенес|сдвин|отлож)\w*", re.I)
_FIELD_NAMES = (r"track|category|group|stream|section|level|tier|type|status|stage|series|programme|program|"
                r"department|team")
_RU_FIELD_NAMES = {"трек": "track", "категори": "category", "групп": "group", "направлени": "track category",
                   "раздел": "section", "статус": "status", "поток": "stream", "уровн": "level", "уровень": "level",
                   "тип": "type", "отдел": "department", "команд": "team", "стади": "stage"}
_FIELD_VALUE = re.compile(
    rf"\b(?:in|from|on|under|of)\s+(?:the\s+)?[\"'«]?([\w-]+)[\"'»]?\s+({_FIELD_NAMES})\b|"
    rf"\b(?:with|having|in)\s+(?:the\s+|a\s+|an\s+)?({_FIELD_NAMES})\s+(?:of\s+|set\s+to\s+)?[\"'«]?([\w-]+)|"
    r"(?<!\w)(?:в|из|на)\s+(трек\w*|категори\w*|групп\w*|направлени\w*|раздел\w*|статус\w*|поток\w*|уровн\w*|"
    r"отдел\w*|команд\w*|стади\w*)\s+[\"«]?([\w-]+)|"
    r"(?<!\w)(?:у\s+которых|у\s+которого|где|с)\s+(статус|трек|категори[яей]|тип|уровень|направление|группа|"
    r"отдел|стади[яей])(?:ом)?\s+(?:—\s+|-\s+|равн\w+\s+|=\s+)?[\"«]?([\w-]+)", re.I)
"""A value of a named field the items must hold: "the ones in the wellness track", "with status draft", «те, что в
треке wellness», «у которых статус draft»."""


def _weekday_and_field(words: str) -> list[Condition]:
    """The day of the week the items fall on ("the Tuesday ones", «по средам»; not a day they are moved to: "move
    them to Friday"), and a named field's value ("in the wellness track", «со статусом draft»)."""
    found = []
    moves = bool(_MOVES.search(words))
    days: list[int] = []
    end = -1
    for m in _WEEKDAY_WORDS.finditer(words):
        before = words[: m.start()]
        if days and not re.fullmatch(r"\W*(?:and|or|и|или|а также)?\W*(?:(?:on|по|во?)\s+)?", words[end: m.start()],
                                     re.I):
            break  # "the ones on Tuesday and Friday", «по вторникам и пятницам»: one list of days
        if _TARGET_DAY.search(before) or (moves and re.search(r"(?<!\w)на\s+$", before)):
            continue
        said = (m.group(1) or m.group(2)).lower()
        days.append(_WEEKDAY_INDEX[said])
        end = m.end()
    if days:
        found.append(Condition("weekday", "", value=tuple(dict.fromkeys(days))))
    for m in _FIELD_VALUE.finditer(words):
        if m.group(1):
            field, value = m.group(2), m.group(1)
        elif m.group(3):
            field, value = m.group(3), m.group(4)
        else:
            said, value = (m.group(5), m.group(6)) if m.group(5) else (m.group(7), m.group(8))
            field = next((en for ru, en in _RU_FIELD_NAMES.items() if said.lower().startswith(ru)), said)
        if value.lower() in _NOT_STATES or value.lower() in ("of", "is", "to", "—"):
            continue
        found.append(Condition("field", field.lower(), value=value))
        break
    return found


def _on_weekday(fields: dict, index: int) -> bool | None:
    """Whether an item falls on the day of the week: a field that names a weekday ("Tuesday", "Tue", «вторник»), else
    a date (the start's, when several); None when no field says."""
    from datetime import date

    named = [v for k, v in fields.items() if isinstance(v, str) and (re.search(r"day|день", k, re.I) or
                                                                      _WEEKDAY_WORDS.fullmatch(v.strip().lower()))
             and not _ISO_DAY.match(v)]
    for value in named:
        low = value.strip().lower()
        day = next((i for i, forms in enumerate(_WEEKDAY_VALUES) if any(low.startswith(f) for f in forms)), None)
        if day is not None:
            return day == index
    dated = {k: v[:10] for k, v in fields.items() if isinstance(v, str) and _ISO_DAY.match(v)}
    if not dated:
        return None
    key = next((k for k in dated if _START_KEY.search(k) or _DATE_KEY.search(k)), next(iter(dated)))
    try:
        return date.fromisoformat(dated[key]).weekday() == index
    except ValueError:
        return None


def _english_state(words: str) -> list[Condition]:
    for pattern, value in _STATES_EN:
        for m in pattern.finditer(words):
            word = next(g for g in m.groups() if g).lower()
            if word not in _NOT_STATES:
                return [Condition("state", word, value=value)]
    return []


_RU_LATIN_STATE = re.compile(r"(?<!\w)(?:что|которые|которых)\s+(?:сейчас\s+|в\s+статусе\s+)?(не\s+)?([a-z][a-z_-]{2,})"
                             r"\s*[.!?,]?\s*$", re.I)
_STATE_KEY = re.compile(r"status|state|stage|availability|stock|condition|phase|статус|состояни", re.I)
_BARE_STATE = re.compile(r"\b(?:the\s+)?(?:ones|items|those)\s+(?:that|which)\s+(?:are|is)\s+[a-z]+(?:\s+of\s+[a-z]+)?|"
                         r"\b(?:that|which)\s+(?:are|is|were|was)\s+(?:out|in)\s+of\s+[a-z]+", re.I)
"""A state named after "the items that are…" (no "ones"), read like the others."""
_COMPARATIVES = {"larger": ("size", ">"), "bigger": ("size", ">"), "smaller": ("size", "<"), "heavier": ("weight", ">"),
                 "lighter": ("weight", "<"), "longer": ("duration length", ">"), "shorter": ("duration length", "<"),
                 "more expensive": ("price cost", ">"), "cheaper": ("price cost", "<"), "pricier": ("price cost", ">"),
                 "тяжелее": ("weight", ">"), "легче": ("weight", "<"),
                 "дороже": ("price cost", ">"), "дешевле": ("price cost", "<")}
_VERB_FIELDS = {"cost": "price cost", "стои": "price cost", "weigh": "weight", "вес": "weight",
                "last": "duration length", "длит": "duration length", "earn": "salary pay", "pay": "salary pay",
                "зарабатыва": "salary pay"}
"""Verbs that name the field a number is compared with: "costs more than 10" reads each item's price."""
_VERBED = re.compile(r"(?<!\w)(costs?|costing|cost|weighs?|weighing|lasts?|lasting|earns?|earning|pays?|paying|"
                     r"сто[ияю]\w*|вес[ия]т|весят|длятся|длится|зарабатыва\w*)\s+(?:[\w]+\s+)?("
                     + "|".join(sorted((re.escape(op) for op in [*_NUMBER_OPS, "дороже", "дешевле", "тяжелее",
                                                                  "легче"]), key=len, reverse=True))
                     + r")\s+(?:чем\s+|than\s+)?[$€£₽]?\s?(-?\d+(?:[.,]\d+)?)", re.I)
_UNIT_WORDS = r"(kb|kib|mb|mib|gb|gib|tb|bytes?|b|kilobytes?|megabytes?|gigabytes?|кб|мб|гб|байт\w*|kg|g|grams?|lbs?|" \
              r"seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|km|m|mi|miles?)"
_COMPARED = re.compile(r"\b(larger|bigger|smaller|heavier|lighter|longer|shorter|more expensive|cheaper|pricier|"
                       r"тяжелее|легче|дороже|дешевле)\s+(?:than|чем)?\s*[$€£]?(-?\d+(?:[.,]\d+)?)\s*"
                       + _UNIT_WORDS + r"?(?![\w])", re.I)
"""A comparison that names its field by its adjective: "larger than 100 KB" reads each item's size."""


_DATED = re.compile(r"\b(older\s+than|before|earlier\s+than|prior\s+to|newer\s+than|after|later\s+than|since)\s+"
                    r"(\d{4}-\d{2}-\d{2})\b|(?<!\w)(старше|раньше|ранее|до|новее|позже|после|с)\s+(\d{4}-\d{2}-\d{2})\b",
                    re.I)
_DATE_OPS = {"older": "<", "before": "<", "earlier": "<", "prior": "<", "старше": "<", "раньше": "<", "ранее": "<",
             "до": "<", "newer": ">", "after": ">", "later": ">", "новее": ">", "позже": ">", "после": ">",
             "since": ">=", "с": ">="}
_COUNTED_AFTER = re.compile(r"\b(?:with|having|has|have|of)\s+(" + _OPS + r")\s+(-?\d+(?:[.,]\d+)?)\s+"
                            r"([a-z]{3,})(?:\s+of\s+([a-z]{3,}))?|(?<!\w)(?:с|имеющ\w*)\s+(" + _OPS + r")\s+"
                            r"(-?\d+(?:[.,]\d+)?)\s+([а-яё]{3,})", re.I)
"""A number compared with its field named after it: "everyone with at least 5 years of experience"."""
_KNOWS = re.compile(r"\b(?:who|that|which)\s+(?:knows?|speaks?|uses?|has|have|supports?|includes?)\s+"
                    r"([A-Z][\w+#.-]*)|(?<!\w)(?:кто|которые|который)\s+(?:знает|знают|владеет|владеют)\s+"
                    r"([A-ZА-ЯЁ][\w+#.-]*)")
"""A skill or feature an item's list must hold: "who knows Rust", «кто знает Python»."""
_DATED_WORDS = re.compile(r"\b(before|earlier\s+than|prior\s+to|after|later\s+than|since|by|no\s+later\s+than)\s+"
                          r"(?:the\s+)?(?=[\w])(.{3,40})|(?<!\w)(раньше|ранее|до|позже|после|не\s+позднее)\s+(.{3,40})",
                          re.I)
_DATED_WORDS_OPS = {"before": "<", "earlier": "<", "prior": "<", "after": ">", "later": ">", "since": ">=",
                    "by": "<=", "no": "<=", "раньше": "<", "ранее": "<", "до": "<", "позже": ">", "после": ">",
                    "не": "<="}


def _written_dates(words: str) -> list[Condition]:
    """A date comparison with the date written in words ("due before December 10, 2026", «раньше 10 декабря»)."""
    from .slots import _dates

    found = []
    for m in _DATED_WORDS.finditer(words):
        said = m.group(2) or m.group(4)
        datetimes, days = _dates(said, relative=False)
        day = (days or [d[:10] for d in datetimes] or [None])[0]
        if day is None or not said.lstrip().startswith(tuple("0123456789") + tuple(_MONTH_STARTS)):
            continue
        found.append(Condition("date", "", _DATED_WORDS_OPS[(m.group(1) or m.group(3)).lower().split()[0]], day))
        break
    if not found:
        for m in _ON_DAY.finditer(words):  # "cancel the ones on 11 December 2026", «все, что приходятся на 11 декабря»
            datetimes, days = _dates(m.group(1), relative=False)
            day = (days or [d[:10] for d in datetimes] or [None])[0]
            if day is not None:
                found.append(Condition("date", "", "==", day))
                break
    return found


_WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|понедельник\w*|вторник\w*|сред[уае]|четверг\w*|" \
           r"пятниц\w*|суббот\w*|воскресень\w*),?\s*"
_ON_DAY = re.compile(r"(?:\b(?:that\s+(?:are|fall)\s+on|(?:falling|scheduled|set)\s+(?:on|for)|on)|(?<!\w)(?:приход\w*|"
                     r"назначен\w*|выпада\w*|стоят)\s+на|(?<!\w)на)\s+(?:the\s+)?((?:" + _WEEKDAY +
                     r")?(?:\d{1,2}(?:st|nd|rd|th)?\s+[a-zа-яё]+|[a-z]+\s+\d{1,2}|\d{4}-\d{2}-\d{2})(?:,?\s+\d{4})?)",
                     re.I)
"""An item's date named as a day ("on 11 December 2026", «на пятницу, 11 декабря 2026»)."""


_MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "Jan", "Feb",
                 "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "the ")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_KEY = re.compile(r"due|deadline|expir|until|creat|date|time|made|taken|modif|updat|when|day|at$|on$|срок", re.I)


def _same_value(value: str, word: str) -> bool:
    """Whether a field's value is the word a request writes for it, in any form («устаревшие» for «устаревший»,
    "in progress" for `in_progress`)."""
    said, held = _spoken(word), _spoken(value)
    if said == held:
        return True
    if not re.search(r"[а-яё]", said) or " " in said or " " in held:
        return False
    shared = len(os.path.commonprefix([said, held]))
    return shared >= max(3, min(len(said), len(held)) - 2) and abs(len(said) - len(held)) <= 2


def _spoken(value: str) -> str:
    return " ".join(re.split(r"[\s_-]+", value.strip().lower()))


def _in_unit_of(key: str, limit: float, unit: str) -> float | None:
    """The limit in the unit the item's field is named for (`size_kb`: kilobytes; a bare `size`: bytes)."""
    from .binding import convert, field_unit, written_unit

    have = written_unit(unit)
    if have is None:
        return None
    target = field_unit(key) or ("b" if re.search(r"size|bytes", key, re.I) else have)
    return convert(limit, have, target)


def numeric_words(words: str) -> bool:
    """Whether the words compare a number ("whose battery is below 20%"), so an equality filter must not read them."""
    return bool(_NUMERIC.search(words))


def _parts(key: str) -> list[str]:
    return [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", key.lower()) if p]


def _same_word(word: str, part: str) -> bool:
    """battery ~ battery, shipped ~ shipped / ship, paid ~ paid."""
    word, part = word.lower(), part.lower()
    if word == part:
        return True
    stem = re.sub(r"(?:ped|ted|ed|en|s)$", "", word)
    return len(stem) >= 3 and (part.startswith(stem) or stem.startswith(part) and len(part) >= 4)


_ASKED_STATE_EN = re.compile(r"\b(paid|done|open|active|sent|ready|available|overdue|online|offline|due|free|empty|"
                             r"full|valid|late|vacant|live|[a-z]{3,}(?:ed|en))\b", re.I)
_NOT_ASKED = {"needed", "required", "wanted", "necessary", "possible", "interested", "concerned", "supposed", "used"}
"""Words a condition says that are no state of the thing read ("if needed, …")."""
_RU_ADJECTIVE_STATES = {"свободн": ("free", "available"), "доступн": ("available",), "готов": ("ready", "done"),
                        "пуст": ("empty",), "занят": ("busy", "occupied", "taken")}
_RU_ADJECTIVE = re.compile(r"(?<!\w)(не\s+)?(" + "|".join(_RU_ADJECTIVE_STATES) + r")[а-яё]*", re.I)


def question_state(question: str) -> Condition | None:
    """The state a yes/no question asks about ("Is ticket T-1 closed?", «Заказ A-1 уже отправлен?»), as a test on
    the read's result: what an elliptic "If not, close it" / «Если да, пришли квитанцию» depends on."""
    russian = _STATE_RU.search(question)
    adjective = _RU_ADJECTIVE.search(question)
    if adjective and not russian:  # «если свободна», «готов ли заказ»
        stem = adjective.group(2).lower()
        return Condition("state", _RU_ADJECTIVE_STATES[stem], value=not adjective.group(1), stem=stem)
    if russian:
        stem = next(k for k in _RU_STATE_WORDS if russian.group(2).lower().startswith(k))
        negated = (russian.group(1) or "").strip().endswith("не")
        return Condition("state", _RU_STATE_WORDS[stem], value=not negated, stem=stem)
    said = [m.group(1).lower() for m in _ASKED_STATE_EN.finditer(question)
            if m.group(1).lower() not in _NOT_STATES | _NOT_ASKED]
    if not said:
        return None
    negated = bool(re.search(r"\b(?:not|never|\w+n't)\b", question, re.I))
    return Condition("state", said[-1], value=not negated)
