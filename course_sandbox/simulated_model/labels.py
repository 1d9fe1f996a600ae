"""Values the request labels itself: "Reason: recurring chest pain", «Получатель: ООО «Ромашка»», "Guest: Hiroshi
Tanaka; Check-in: …", "Her manager is Tom Becker", "with reference 'Rent January'", «комментарий: «Отличная
контрольная»».

A label is one to three words right before a colon, a dash, "is" (a proper name after it), or a quoted value. Each
label is matched to the field of the tool, at any depth (`manager.name`), whose name, its objects' names and its
description share the most words with it (Russian words through the glossary, and a few near-synonyms: a guest is a
traveller, a payee a recipient). A value goes only to the field its label fits best, and only when the value is of
the field's kind (a phone number for a phone, a number for a number); a field whose found value is another field's
labelled value gives it up (slots.RequestHints.value). Dates and enums are left to their own readers.

What it does not do: a label that shares no word with the field it means ("Ref: …" for `memo`) binds nothing; a value
with a comma in it ends at the comma unless it is quoted or the comma comes before a house number («ул. Ленина, 15»).
"""

import functools
import json
import re
from dataclasses import dataclass

from . import proper_names
from .words import stems

_QUOTE = r"«(?:[^«»]|«[^«»]*»){1,300}»|\"[^\"]{1,300}\"|“[^”]{1,300}”|'[^']{1,300}'"
_LABEL_WORD = r"[A-Za-zА-Яа-яЁё][A-Za-zА-Яа-яЁё'’-]*"
_COLON = re.compile(rf"(?:^|(?<=[.;,!?\n(]))\s*(?:(?:and|with|и|а)\s+)?(?P<label>{_LABEL_WORD}(?:\s+[\w#№'’-]+){{0,2}}?"
                    r"(?:\s*[#№])?)\s*(?::|\s[—–]|\s-\s)\s*", re.I)
"""A label at the start of a clause, then ":" or a dash: "Reason: …", «получатель — …», "Loyalty #: …"."""
_IS = re.compile(rf"\b(?i:my|his|her|their|our|the|its)\s+(?P<label>{_LABEL_WORD}(?:\s+{_LABEL_WORD})?)"
                 r"\s+(?:is|will be)"
                 r"\s+(?P<value>(?:[A-Z][\w'’.-]*)(?:\s+[A-Z][\w'’-]*){0,3})", re.U)
"""'Her manager is Tom Becker': a proper name after "is", labelled by the noun before it."""
_BEFORE_QUOTE = re.compile(rf"(?P<label>{_LABEL_WORD}(?:\s+{_LABEL_WORD})?)\s*[:—–-]?\s*(?P<value>{_QUOTE})")
"""'with reference "Rent January"', «комментарий «Отличная контрольная»»: the words right before a quote."""
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:ул|д|г|пр|пер|кв|стр|корп|им|No|no|St|Mr|Mrs|Ms|Dr|Prof|Jr|Sr|e\.g|i\.e|"
                           r"т\.е|т\.д|т\.п)$")
_NOT_LABELS = {"please", "note", "also", "and", "then", "so", "but", "ok", "okay", "hi", "hello", "thanks",
               "пожалуйста", "привет", "спасибо", "итак", "так", "вот", "например", "e", "g", "eg", "time", "at", "by",
               "from", "to", "на", "в", "во", "как", "for", "as", "on", "in", "into", "with", "про", "о", "об", "it",
               "them", "that", "this", "is", "его", "её", "их"}
_SYNONYMS = [{"guest", "traveller", "traveler", "passenger", "visitor", "lead", "гост", "пассажир", "путешественник"},
             {"payee", "recipient", "beneficiary", "получател", "recip"},
             {"comment", "note", "remark", "комментари", "примечани", "заметк"},
             {"purpose", "назначени"},
             {"reason", "cause", "why", "причин"},
             {"reference", "memo", "ref"},
             {"subject", "тема", "теме", "тему"},
             {"phone", "telephone", "tel", "mobile", "телефон"}]


_ORGANISATION = re.compile(r"(?<!\w)(?:ООО|ОАО|ЗАО|ПАО|АО|НКО|ИП|LLC|Ltd|Inc|GmbH|AG)\.?\s*(?:"
                           r"«(?:[^«»]|«[^«»]*»){1,120}»|\"[^\"]{1,120}\"|“[^”]{1,120}”)")
_PARTY = "payee recipient company organisation organization client customer vendor supplier employer получатель " \
         "организация компания клиент поставщик контрагент"
"""The words a field for an organisation's name is named with: «ООО «Ромашка»» fits `payee_name`, `company`."""


_TITLED = re.compile(r"(?<![\w.])(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?")
_PERSON = "teacher tutor instructor coach trainer doctor physician host contact person assignee owner manager"
"""The words a field for a person named with a title is named with: "Mrs. Dalton" fits `teacher`, `doctor`."""


_IN_THE_NAME = re.compile(r"(?:(?<!\w)на\s+имя|\b(?:in|under)\s+the\s+name\s+(?:of\s+)?)\s+"
                          r"(?P<name>[A-ZА-ЯЁ][\w'’-]+(?:\s+[A-ZА-ЯЁ][\w'’-]+){0,2})")
_NAMED = "passenger пассажир guest гость traveller holder person customer client фио"
"""The fields a booking's name («на имя …», "in the name of …") is for."""


_CALENDAR = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|today|"
                       r"tomorrow|tonight|next|noon|midnight)", re.I)


_WORK_BY = re.compile(r"«[^«»]{1,120}»\s+(?P<who>[А-ЯЁ][а-яё]+(?:а|я|ой|ого|его))(?![\w-])")
"""A Russian work's title and its maker's surname in the genitive after it («Мастер и Маргарита» Булгакова)."""
_CREATOR = "author writer artist composer director poet автор писатель исполнитель композитор режиссёр поэт"


def _creator(genitive: str) -> str:
    """A surname in the genitive in the nominative: Булгакова Булгаков, Ахматовой Ахматова, Толстого Толстой,
    Достоевского Достоевский, Пушкина Пушкин; not covered: first names, foreign and indeclinable surnames."""
    for ending, nominative in (("ского", "ский"), ("цкого", "цкий"), ("ого", "ой"), ("его", "ий"), ("овой", "ова"),
                               ("евой", "ева"), ("иной", "ина"), ("ской", "ская"), ("ова", "ов"), ("ева", "ев"),
                               ("ёва", "ёв"), ("ина", "ин"), ("ына", "ын")):
        if genitive.endswith(ending) and len(genitive) - len(ending) >= 2:
            return genitive[: len(genitive) - len(ending)] + nominative
    return genitive


@dataclass(frozen=True)
class Labelled:
    label: str
    value: str
    start: int


def _value_end(text: str, start: int) -> int:
    """Where an unquoted labelled value ends: at ";", a new line, a sentence's full stop (not an abbreviation's), or a
    comma (not one before a house number)."""
    i = start
    while i < len(text):
        ch = text[i]
        if ch in ";\n":
            return i
        if ch in ".!?" and (i + 1 == len(text) or text[i + 1].isspace()) \
                and not _ABBREVIATION.search(text[max(start, i - 8):i]):
            return i
        if ch == "," and not re.match(r",\s*(?:д\.\s*|дом\s+)?\d+[а-яёa-z]?(?:[,;.]|\s|$)", text[i:], re.I):
            return i
        i += 1
    return i


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] + value[-1] in ('«»', '""', '“”', "''"):
        inner = value[1:-1].strip()
        return inner
    return value.strip(" .,:;")


def read(text: str) -> list[Labelled]:
    """The labelled values of a request, in the order written."""
    found: list[Labelled] = []
    for m in _COLON.finditer(text):
        label = m.group("label").strip()
        if label.split()[0].lower() in _NOT_LABELS or re.fullmatch(r"\d+", label):
            continue
        rest = text[m.end():]
        quoted = re.match(_QUOTE, rest)
        if quoted:
            value = quoted.group(0)
            after = rest[quoted.end():]
            if re.match(r"\s*[\w«\"“]", after) and not re.match(r"\s*(?:and|и)\s", after):
                value = rest[:_value_end(rest, 0)]  # 'ООО «Ромашка» …': the quote is part of a longer value
        else:
            value = rest[:_value_end(rest, 0)]
        value = _unquote(value)
        if value and len(value) <= 300:
            found.append(Labelled(label, value, m.start("label")))
    for m in _ORGANISATION.finditer(text):  # «ООО «Ромашка»»: a party's name, for a payee, company or client field
        found.append(Labelled(_PARTY, m.group(0).strip(), m.start()))
    for m in _TITLED.finditer(text):  # "with Mrs. Dalton": a person, for a teacher, doctor or contact field
        named = re.sub(r"^\S+\s+", "", m.group(0)) if len(m.group(0).split()) == 3 else m.group(0)
        found.append(Labelled(_PERSON, named, m.start()))  # "Prof. Ian Moss": Ian Moss; "Mrs. Dalton" as written
    for m in _WORK_BY.finditer(text):  # «Мастер и Маргарита» Булгакова: the work's author, Булгаков
        found.append(Labelled(_CREATOR, _creator(m.group("who")), m.start("who")))
    for m in _IN_THE_NAME.finditer(text):  # «на имя Павла Орлова»: Павел Орлов, for the passenger or guest
        found.append(Labelled(_NAMED, proper_names.person_nominative(m.group("name"), text), m.start()))
    for m in _IS.finditer(text):
        if _CALENDAR.match(m.group("value")) or re.match(r"\s*,?\s*\d", text[m.end():]):
            continue  # "the arrival is January 1, 2024": a date, for the date readers
        found.append(Labelled(m.group("label"), m.group("value").rstrip("."), m.start("label")))
    for m in _BEFORE_QUOTE.finditer(text):
        label = m.group("label")
        if text[max(0, m.start("label") - 1):m.start("label")] == "#":
            continue  # 'in the #ops channel: "…"': the channel is a value, not the quote's label
        if label.split()[-1].lower() in _NOT_LABELS or any(_unquote(m.group("value")) in f.value for f in found):
            continue
        found.append(Labelled(label, _unquote(m.group("value")), m.start("label")))
    return sorted(found, key=lambda f: f.start)


def _field_words(path: tuple[str, ...], schema: dict) -> tuple[set[str], set[str]]:
    """The stems of a field's own name (the last part of its path and its objects' names) and of its description."""
    spoken = " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p).replace("_", " ") for p in path)
    own = stems(spoken) - {"name", "id", "number", "no", "value"}
    said = stems(f"{schema.get('description') or ''} {schema.get('title') or ''}") - {"name", "e", "g"}
    return _widened(own), _widened(said)


def _widened(words: set[str]) -> set[str]:
    wide = set(words)
    for group in _SYNONYMS:
        if any(w.startswith(g) or g.startswith(w) for w in words for g in group if len(w) >= 3):
            wide |= group
    return wide


def _fit(label: str, own: set[str], said: set[str]) -> int:
    """How well a label names a field: 2 for each word of its name, 1 for each word of its description."""
    words = _widened(stems(label))
    words -= {"name", "id", "number", "no", "value"}
    score = 0
    if label in (_PARTY, _PERSON, _NAMED, _CREATOR):  # a value's own form, no label: its field's name fits, weakly
        return 2 if any(_same(w, o) for w in words for o in own) else 1 if label in (_NAMED, _CREATOR) and any(
            _same(w, o) for w in words for o in said) else 0
    for w in words:
        if any(_same(w, o) for o in own):
            score += 2
        elif any(_same(w, o) for o in said):
            score += 1
    return score


def _same(a: str, b: str) -> bool:
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


def fields_of(properties: dict, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], dict]]:
    """Every scalar field of a schema's properties, with its path (`manager.name` is ("manager", "name"))."""
    found = []
    for name, schema in properties.items():
        if not isinstance(schema, dict):
            continue
        if isinstance(schema.get("properties"), dict) and len(path) < 3:
            found += fields_of(schema["properties"], (*path, name))
        elif schema.get("type") != "array" and "enum" not in schema and "const" not in schema \
                and schema.get("type") not in ("object", "boolean"):
            found.append(((*path, name), schema))
    return found


def assigned(text: str, properties: dict) -> dict[tuple[str, ...], str]:
    """Each labelled value's field: the one its label fits best (ties: no field), where the value is of its kind."""
    try:
        key = json.dumps(properties, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return {}
    return dict(_assigned(text[:4000], key))


@functools.lru_cache(maxsize=128)
def _assigned(text: str, key: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    fields = fields_of(json.loads(key))
    words = {path: _field_words(path, schema) for path, schema in fields}
    chosen: dict[tuple[str, ...], str] = {}
    for labelled in read(text):
        scored = []
        for path, schema in fields:
            fit = _fit(labelled.label, *words[path])
            if fit and _kind_fits(path[-1], schema, labelled.value):
                scored.append((fit, path))
        if not scored:
            continue
        scored.sort(key=lambda s: -s[0])
        if len(scored) > 1 and scored[1][0] == scored[0][0]:
            continue
        path = scored[0][1]
        if path not in chosen:
            chosen[path] = labelled.value
    return tuple(chosen.items())


def _kind_fits(name: str, schema: dict, value: str) -> bool:
    from . import binding, slots

    kind = slots.kind_of(name, schema)
    if binding.want(name, schema).kind in ("date", "datetime", "time"):
        return False  # "Check-in: January 1, 2024": the date readers read it whole
    types = slots._types(schema) or {"string"}
    if not slots.is_valid(schema, shaped(schema, value)):
        return False
    if kind in ("date", "datetime", "time", "url", "currency", "language", "timezone"):
        return False  # their own readers read them well
    if "string" not in types:
        return False  # a number is read with its unit by the number readers
    if kind == "email":
        return "@" in value
    if kind == "phone" or re.search(r"phone|mobile|телефон", f"{name} {schema.get('description') or ''}", re.I):
        return sum(ch.isdigit() for ch in value) >= 7 and not re.search(r"[A-Za-zА-Яа-яЁё]{3}", value)
    if sum(ch.isdigit() for ch in value) >= 7 and not re.search(r"[A-Za-zА-Яа-яЁё]", value):
        return kind in ("id", None, "text") and not re.search(r"name|имя|фио", name, re.I)
    return True


_IBAN = re.compile(r"^[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{1,4}){3,8}$")


def shaped(schema: dict, value: str) -> str:
    """A labelled value in the form its field keeps it: an IBAN without its spaces."""
    if _IBAN.match(value) and re.search(r"iban", f"{schema.get('description') or ''}", re.I):
        return value.replace(" ", "")
    return value


_SUBJECTS = {"mathematics": "mathematics", "maths": "maths", "math": "math", "algebra": "algebra",
             "geometry": "geometry", "physics": "physics", "chemistry": "chemistry", "biology": "biology",
             "history": "history", "geography": "geography", "literature": "literature", "english": "English",
             "french": "French", "german": "German", "spanish": "Spanish", "music": "music", "art": "art",
             "informatics": "informatics", "computer science": "computer science", "economics": "economics",
             "математик": "математика", "алгебр": "алгебра", "геометри": "геометрия", "физик": "физика",
             "хими": "химия", "биологи": "биология", "истори": "история", "географи": "география",
             "литератур": "литература", "информатик": "информатика", "музык": "музыка", "физкультур": "физкультура",
             "русск": "русский язык", "английск": "английский язык", "немецк": "немецкий язык",
             "обществознани": "обществознание", "экономик": "экономика"}
"""School subjects, by the beginning of their word in any case («по алгебре», «урок химии»): a small table."""
_SUBJECT_FIELD = re.compile(r"^(?:subject|course|discipline|предмет|дисциплин\w*)$|(?:^|_)(?:subject|course)(?:_|$)",
                            re.I)


_EXAMPLE = re.compile(r"\b(?:e\.\s?g\.?|for example|such as|like|например)\s*[:,]?\s*[\"'«]?"
                      r"([A-Za-zА-Яа-яЁё0-9-]{1,12})", re.I)


def example_shaped(name: str, schema: dict, text: str) -> str | None:
    """A value of the shape the field's description shows by example ("Class, e.g. 7B": 9A, «класс, например 5Б»:
    9А): digits stay digits, capitals capitals, small letters small; the value right after the field's own word first
    ("class 9A"), else the only one of that shape; None when the description shows no example or the request holds
    no value, or several, of its shape."""
    if "pattern" in schema or "enum" in schema:
        return None
    m = _EXAMPLE.search(str(schema.get("description") or ""))
    if not m or not re.search(r"\d", m.group(1)) or not re.search(r"[^\W\d_]", m.group(1)):
        return None
    shape = "".join(r"\d+" if ch.isdigit() else "[A-ZА-ЯЁ]" if ch.isupper() else "[a-zа-яё]" if ch.isalpha()
                    else re.escape(ch) for ch in m.group(1))
    shape = re.sub(r"(?:\\d\+)+", r"\\d+", shape)
    found = [f.group(0) for f in re.finditer(rf"(?<![\w-]){shape}(?![\w-])", text)]
    if not found:
        return None
    own = [w for w in re.split(r"[_\W]+", name.lower()) if len(w) >= 3]
    for value in found:
        before = text[:text.find(value)].lower().split()[-1:]
        if before and any(before[0].startswith(w[:5]) for w in own):
            return value
    return found[0] if len(set(found)) == 1 else None


_SCHOOL_BEFORE = re.compile(r"(?<!\w)(?:по|урок\w*|предмет\w*|subject)\s*[:—-]?\s*$", re.I)
_SCHOOL_AFTER = re.compile(r"\s+(?:[a-z]+\s+)?(?:lessons?|class(?:es)?|exams?|tests?|quiz|homework|grades?|marks?|"
                           r"teacher)\b|\s+(?:урок|контрольн|экзамен|оценк|домашн)", re.I)


def school_subject(name: str, schema: dict, text: str) -> str | None:
    """The school subject a request names, for a subject field that is no e-mail's subject line: «пятёрку по
    алгебре» gives алгебра, "a chemistry lesson" chemistry; None when the request names none from the table."""
    said = f"{name} {schema.get('description') or ''}"
    if not (_SUBJECT_FIELD.search(name) or re.search(r"предмет|school subject", said, re.I)) \
            or re.search(r"e-?mail|letter|message|line|письм|сообщени|тем[аы] ", said, re.I):
        return None
    for m in re.finditer(r"(?<![\w-])([A-Za-zА-Яа-яЁё]+(?:\s+science)?)", text):
        word = m.group(1).lower()
        if not (_SCHOOL_BEFORE.search(text[:m.start()]) or _SCHOOL_AFTER.match(text[m.end():])):
            continue
        for start, subject in _SUBJECTS.items():
            if re.search(r"[а-яё]", start) and word.startswith(start) and len(word) - len(start) <= 3:
                if start in ("русск", "английск", "немецк") and not re.match(r"\s*язык", text[m.end():]):
                    continue
                return subject
            if word == start:
                return subject
    return None
