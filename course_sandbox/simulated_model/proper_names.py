"""Proper names in a request: the capitalised spans a real model would copy into a name field.

"Book a table at Chez Panisse" names a restaurant, "Add Maria Lopez" a person; a model that
fills `restaurant_name` with "example restaurant" has not read the request. A span is a run of
capitalised words (with the small joining words of names: "de", "van", "of"); the first word of
a sentence is left out when it stands alone ("Log a request") or is a common word ("Add Maria
Lopez", "Where"), since any word is capitalised there. A name after "at" (or «у») is also a venue (the restaurant,
the hotel).
"""

import re
from dataclasses import dataclass

from . import russian_forms
from .words import STOPWORDS, english

_WORD = r"[A-ZА-ЯЁ][\w'’&-]*(?:\.(?=\w))?[\w'’&-]*"
_JOIN = r"(?:de|del|da|di|du|la|le|van|von|der|den|of|&)"
SPAN = re.compile(rf"(?<![\w@/#.-]){_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD})*")
_QUOTED = re.compile(r"\"[^\"]*\"|«[^»]*»|“[^”]*”|(?<!\w)'[^'\n]*'(?!\w)")
_TITLE = re.compile(r"(?<![\w.])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|Fr|Rev|Hon|Capt|Sgt|Lt|Col|Gen)\.?\s+(?=[A-Z])|"
                    r"(?<![\w.-])(?:[дД]-р[ауом]?|[дД]р\.|[пП]роф\.|[дД]октор[ауом]?|[пП]рофессор[ауом]?)\s+(?=[А-ЯЁ])")
"""A title before a name ("Dr.", "Mrs", «д-р», «д-ру», «проф.», «доктору»): not a name of its own, and its dot does not
end the name."""
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*|[\"«“]\s*)$")
_VENUE_BEFORE = re.compile(r"(?:\bat(?:\s+the)?|(?<!\w)у)\s+$", re.I)
_COMMON = frozenset("""
add book get find create send text call email mail order schedule remind tag label use fetch transfer show tell
list delete remove check reserve make set buy pay cancel update open close search look track let help give put
move rename post reply write save store record start run stop please hi hello hey thanks thank ok okay yes no
what where when why who whom whose which how is are was were can could would will should shall do does did may
might must i i'm im it's its there their the a an this that these those my our your bill charge invoice note
tomorrow today tonight yesterday next last every each new review merge approve explain count convert translate
summarize summarise extract calculate compute compare draft plan generate ask answer read fix text dear
register enroll enrol invite hire onboard assign notify ping message contact welcome greet refund ship deliver
sign subscribe unsubscribe upgrade downgrade rate thank introduce admit discharge verify approve reject block
enter log file mark seat page pencil squeeze fit pop drop nominate award credit bump swap cover escort pick choose
select hold keep reward list note
""".split())
_ROLES = frozenset("""
patient customer client employee guest student pupil candidate applicant member user driver passenger tenant
landlord speaker author artist agent contractor supplier vendor colleague manager director officer nurse doctor
teacher coach player volunteer visitor attendee participant recipient sender buyer seller owner subscriber
пациент пациентка клиент клиентка сотрудник сотрудница студент студентка гость гостья получатель отправитель
кандидат участник участница водитель пассажир арендатор покупатель продавец
""".split())
"""Role nouns written before a name ("Patient Tomasz Nowak reports…", "Customer Ana Lima"): not part of it."""
_NOT_NAMES = frozenset("""
i monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december celsius fahrenheit json python api sdk url pr mr id
""".split())
_VENUE_WORDS = re.compile(r"restaurant|hotel|venue|business|company|shop|store|cafe|café|bar\b|organi[sz]ation|"
                          r"\borg\b|brand|airline|school|clinic|salon|gym|theat|cinema|museum|bank|merchant|vendor|"
                          r"supplier|employer|ресторан|отел|гостиниц|компани|магазин|кафе|бар\b|организац", re.I)


@dataclass(frozen=True)
class Names:
    """The request's proper names in the order written, and those of them that name a venue."""

    all: list[str]
    venues: list[str]


def read(text: str) -> Names:
    """The proper names of a request (quoted text aside: it is a title or a message, not a name)."""
    masked = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    masked = _TITLE.sub(lambda m: " " * len(m.group(0)), masked)  # "Dr. Samuel Okafor" names Samuel Okafor
    found: list[str] = []
    venues: list[str] = []
    for m in SPAN.finditer(masked):
        span, start = m.group(0), m.start()
        words = span.split()
        owned = possessive(words[-1], masked[m.end():])  # "Anna's appointment", «Машин заказ»
        imperative = (len(words) >= 3 or (len(words) == 2 and owned)) and re.fullmatch(
            r"[А-ЯЁ][а-яё]{3,}(?:и|й|ь)", words[0]) is not None  # «Запиши Ольгу Кузнецову», «Отмени Машин заказ»
        verb = len(words) == 2 and bool(owned) and words[0].lower() in _ACTIONS  # "Reschedule Tom's appointment"
        # «Напиши Бобу», «Позвони Ивану»: a verb that takes a person, first in the sentence, is no part of the name
        verb = verb or (len(words) == 2 and bool(_DATIVE_VERB.fullmatch(words[0]) or _ACCUSATIVE_VERB.fullmatch(
            words[0])) and words[0][-1].lower() in "иьй")
        if leads_a_sentence(masked, start) and (len(words) == 1 or _common(words[0]) or imperative or verb):
            if len(words) == 2 and not owned and re.fullmatch(r"[А-ЯЁ][а-яё]+", words[1]) and (
                    _DATIVE_VERB.fullmatch(words[0]) or _ACCUSATIVE_VERB.fullmatch(words[0])):
                # «Напиши Бобу», «Позвони Игорю», «Пригласи Олега»: the one name in the nominative
                words[1] = russian_forms.nominative(words[1], _cases_before(words[0]))
            words = words[1:]
            while words and words[0].lower() in ("of", "&"):
                words = words[1:]
            start = -1
        if len(words) >= 3 and words[0].lower() in _ROLES:
            words = words[1:]
        while words and _abbreviation(words[-1]):
            words = words[:-1]
        nominative = person_nominative(" ".join(words), text) if start == -1 else " ".join(words)
        if nominative != " ".join(words):
            words = nominative.split()  # «Вручи Сергею Лебедеву»: Сергей Лебедев
        if owned and words and words[-1] == m.group(0).split()[-1] and not owned.endswith("'s"):
            words = [*words[:-1], owned]  # «Машин заказ» is Маша's
        name = re.sub(r"['’]s$", "", " ".join(words)).rstrip(".,;:!?'’-")  # "Ana's e-mail" names Ana
        if not name or not _is_name(name):
            continue
        found.append(name)
        if start >= 0 and _VENUE_BEFORE.search(" " + masked[max(0, start - 40):start]):
            venues.append(name)
    return Names(list(dict.fromkeys(found)), list(dict.fromkeys(venues)))


_QUOTED_VENUE = re.compile(
    r"(?:\b(?:at|in|venue|location|place|restaurant|hotel|cafe|café|bar|club|hall)|(?<!\w)(?:в|во|на|у|ресторан\w*|"
    r"кафе|бар\w*|клуб\w*|отел\w*|гостиниц\w*|зал\w*|переговорн\w*|переговорк\w*|комнат\w*|аудитори\w*|кабинет\w*|"
    r"ООО|ОАО|ЗАО|ПАО|АО|ИП|НКО|компани\w*|фирм\w*|организаци\w*|магазин\w*)|\b(?:room|office|LLC|Ltd|Inc|GmbH|company|"
    r"firm|shop|store))(?:\s+the)?\s+(?:\"([^\"]{1,80})\"|«([^»]{1,80})»|“([^”]{1,80})”)",
    re.I)
"""A quote after the words that say what it names: a place ("at", «в», «в переговорке»), a room, or an organisation
(«ООО «Северный ветер»», 'LLC "Blue Fox"')."""


def quoted_venues(text: str) -> list[str]:
    """Venues written in quotes: 'at "the old mill"', «в кафе «Ромашка»»: quoted, a name of any case is
    still a name, where the words before it say it is a place."""
    return list(dict.fromkeys(next(g for g in m.groups() if g).strip() for m in _QUOTED_VENUE.finditer(text)))


_ADDRESSEE = re.compile(
    rf"(?:\b(?:to|from)\s+(?:the\s+)?({_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD})*)"
    r"|(?:\b(?:company|client|firm)|(?<!\w)(?:компани\w*|клиент\w*|фирм\w*|ООО|АО|ИП))\s+(?:\"([^\"]{1,80})\"|«([^»]{1,"
    r"80})»))")


def addressees(text: str) -> list[str]:
    """Whom a thing is sent to or comes from ("ship it to Hannah Schmidt", "Priya Raman from Initech",
    «счёт компании «Ромашка»»), in the order written: a recipient's or a company's name, though
    "to" and "from" also lead to places."""
    found = []
    for m in _ADDRESSEE.finditer(text):
        name = next(g for g in m.groups() if g)
        if m.group(1):
            words = name.split()
            while words and _abbreviation(words[-1]) and words[-1] not in ("Ltd", "LLC", "Inc", "GmbH", "AG", "SA"):
                words = words[:-1]
            name = " ".join(words).rstrip(".,;:!?'’-")
            if not name or not _is_name(name):
                continue
        found.append(name.strip())
    return list(dict.fromkeys(found))


_ORGANISATION = re.compile(r"company|client|employer|organi[sz]ation|\bfirm\b|vendor|supplier|компани|клиент|организац|"
                           r"фирм", re.I)


def names_an_organisation(name: str, description: str) -> bool:
    """Whether a name property may name a company ("company", `client_name`): "from Initech" fills it."""
    return bool(_ORGANISATION.search(f"{name} {description}"))


_FIRST = re.compile(r"^(?:first|given|fore)_?name$|^first$|^имя$", re.I)
_MIDDLE = re.compile(r"^(?:patronymic|middle_?name|middle|отчество)$", re.I)
_LAST = re.compile(r"^(?:last|family|sur)_?name$|^surname$|^last$|^фамилия$", re.I)


def part_of_a_name(name: str, description: str) -> str | None:
    """Whether a property takes only a person's first name (`first_name`, `given_name`), only the rest
    (`last_name`, `surname`) or only the patronymic (`patronymic`, «Отчество»): "first", "last", "patronymic", else
    None (the whole name)."""
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower().replace("-", "_").replace(" ", "_")
    if _MIDDLE.match(spoken) or re.search(r"\bpatronymic\b|\bmiddle name\b|отчеств", description, re.I):
        return "patronymic"
    if _FIRST.match(spoken) or re.search(r"\bfirst name\b|\bgiven name\b", description, re.I):
        return "first"
    if _LAST.match(spoken) or re.search(r"\blast name\b|\bsurname\b|\bfamily name\b", description, re.I):
        return "last"
    return None


def names_a_venue(name: str, description: str) -> bool:
    """Whether a property names a place of business (`restaurant_name`), not a person (`name`)."""
    return bool(_VENUE_WORDS.search(f"{name} {description}"))


_ACCUSATIVE_VERB = re.compile(r"(?<!\w)(?:пригласи|позови|добавь|запиши|отметь|назначь|включи|зарегистрируй|"
                              r"поблагодари|поздравь|уведоми|предупреди|найди|разыщи|вызови|встреть|забери|"
                              r"привези|отвези|приведи|подожди|осмотри|покорми|выгуляй|спроси|попроси|набери)\w*", re.I)


def nominative_list(names: list[str], text: str) -> list[str]:
    """One-word Russian names listed after a verb that takes the accusative («пригласи Олега, Марину и Светлану»), in
    the nominative a name field wants (Олег, Марина, Светлана); any other list as it is."""
    single = [n for n in names if re.fullmatch(r"[А-ЯЁ][а-яё]+", n)]
    if len(single) < 2 or len(single) != len(names) or not _ACCUSATIVE_VERB.search(text):
        return names
    return [russian_forms.nominative(n, _ACCUSATIVE) for n in names]


_DATIVE_VERB = re.compile(r"(?<!\w)(?:доставь|отправь|передай|напиши|позвони|выдай|переведи|верни|вручи|выпиши|"
                          r"начисли|оплати|продай|подари|пришли|отдай)\w*", re.I)
_ACCUSATIVE = frozenset({"accs", "gent"})
"""A being's accusative is its genitive («Найди Барсика»), and the analyser guesses an unknown name inanimate."""


_TITLE_BEFORE = re.compile(r"(?<!\w)(?:д-р\w*|др\.|проф\.|доктор\w*|профессор\w*|врач\w*|стоматолог\w*|терапевт\w*|"
                           r"мастер\w*|специалист\w*)\s*$", re.I)


def _cases_before(before: str) -> frozenset[str]:
    """The cases the words before a name put it in: its preposition's («у Игоря», «к Анне»), else a verb's that takes
    a person in the dative («Доставьте заказ Ивану Петрову») or the accusative («Запишите Смирнову Анну»)."""
    before = _TITLE_BEFORE.sub("", before)  # «к д-ру Анне Вайс»: the preposition before the title
    last = before.split()[-1] if before.split() else ""
    if russian_forms.cases_after(last):
        return russian_forms.cases_after(last)
    if _DATIVE_VERB.search(before):
        return frozenset({"datv"})
    if _ACCUSATIVE_VERB.search(before) or re.search(r"(?<!\w)(?:запиши|запишите|зарегистрируй)", before, re.I):
        return _ACCUSATIVE
    return frozenset()


def nominative(name: str, text: str) -> str:
    """A Russian name in the nominative, for a field that asks for it («ФИО получателя (в именительном падеже)»):
    «Доставьте заказ Ивану Петрову» Иван Петров, «Запишите Смирнову Анну» Смирнова Анна. Any other name as it is."""
    words = name.split()
    if not words or not all(re.fullmatch(r"[А-ЯЁ][а-яё-]+", w) for w in words):
        return name
    return russian_forms.nominative(name, _cases_before(text[:max(text.find(name), 0)][-60:]))


def from_dative(name: str) -> str:
    """A Russian name in the dative to the nominative («Анне Ивановой»: Анна Иванова)."""
    return russian_forms.nominative(name, frozenset({"datv"}))


_OWNED_BY = re.compile(r"([А-ЯЁ][а-яё]{1,})(?:ин|ын)(?:а|у|ой|ым|ы|ых|ом|е)?")
_SOFT_STEMS = frozenset("Кат Ан Тан Ол Пет Кол Вас Гал Юл Вал Наст Сон Дан Ван Жен Мит Фед Кост Тол Бор Иль Сен Лид "
                        "Зо Мар".split())
"""Stems of names ending in -я whose possessive is -ин (Катя: Катин, Илья: Ильин); any other stem takes -а."""
_ACTIONS = frozenset("""
reschedule rebook postpone renew extend confirm archive restore resend forward share print upload download edit change
modify pause resume refill return exchange submit accept decline mark unblock freeze unfreeze charge ship pick drop
reopen reassign delay swap replace notify remind email text cancel book update delete remove show list find track
order send create add close open check move call view
""".split())
"""English verbs that begin an ask: at a sentence's start, before a possessive name, no part of it."""


_NOT_NOUNS = frozenset("завтра сегодня вчера сейчас срочно пожалуйста потом позже утром вечером днём днем ночью "
                       "обязательно тоже также лично опять снова насчёт насчет чтобы когда потому".split())


def possessive(word: str, after: str) -> str:
    """The person a possessive names: "Anna's" (kept, the caller strips the 's), a Russian possessive adjective
    before a lower-case noun («Машин заказ»: Маша, «Ильин билет»: Илья, «Катину бронь»: Катя); "" for any other
    word (a surname «Ильин» before a capitalised word or nothing is no possessive)."""
    if re.search(r"['’]s$", word):
        return "'s"
    m = _OWNED_BY.fullmatch(word)
    noun = re.match(r"\s+([а-яё]+)", after)
    if not m or not noun or len(noun.group(1)) < 4 or noun.group(1) in _NOT_NOUNS \
            or noun.group(1).endswith(("ть", "ться", "ти")):
        return ""  # «Позвони Ильину завтра»: the surname Ильин, not Илья's
    stem = m.group(1)
    if stem.endswith(("ш", "ж", "ч", "щ", "ц")) or stem not in _SOFT_STEMS:
        return stem + "а"
    return stem + "я"


def leads_a_sentence(text: str, start: int) -> bool:
    """Whether the word at start begins the text or a sentence of it."""
    before = text[:start].rstrip()  # the pattern is anchored at the end: only the last characters decide
    return bool(_SENTENCE_START.search(text[max(0, start - len(text[:start]) + len(before) - 2):start])) \
        if before else True


def common_word(word: str) -> bool:
    """Whether a capitalised word is an ordinary word (a verb that begins an ask, a stop word), not a name's."""
    return _common(word)


def _common(word: str) -> bool:
    lowered = word.lower()
    if lowered in _SOFT_SIGN_NAMES:
        return False  # Игорь, Любовь: a name, though an imperative (Добавь, Поставь) ends in -ь too
    if re.search(r"[а-яё]", lowered):
        return lowered in STOPWORDS or lowered.endswith(("й", "йте", "ите", "ь", "ьте")) or len(lowered) <= 3 \
            or lowered.endswith("и") and english(lowered) is not None  # «Найди Шарика»: an imperative's gloss
    return lowered in _COMMON or lowered in STOPWORDS


_SOFT_SIGN_NAMES = frozenset("игорь любовь нинель эмиль камиль шамиль рауль адель ассоль лазарь мигель рафаэль "
                             "даниэль габриэль мишель изабель рашель нелль".split())
"""Russian first names that end in a soft sign, the way an imperative does."""


def _abbreviation(word: str) -> bool:
    """PR, MR, API: an abbreviation that ends a span is not part of the name before it ("Review PR")."""
    bare = word.rstrip(".,;:!?")
    return bare.isupper() and len(bare) <= 4


def _is_name(name: str) -> bool:
    words = name.split()
    if any(ch.isdigit() for ch in name) or words[0].lower().rstrip(".") in _NOT_NAMES:
        return False
    return not (len(words) == 1 and (name.isupper() or len(name) < 2))


_PATRONYMIC = re.compile(r"(?:ович|евич|ьич|инич|овн|евн|ичн)\w{0,3}$", re.I)
_SURNAME = re.compile(r"(?:ов|ев|ёв|ин|ын|ск|цк)(?:а|у|ой|ым|ом|е|ая|ую|ий|ого|ому|ей)?$", re.I)
def person_nominative(name: str, text: str) -> str:
    """A Russian person's full name in the nominative, whatever case the request wrote it in: «Запиши Петрову Елену
    Викторовну» Петрова Елена Викторовна, «Поставь Анне Кузнецовой» Анна Кузнецова, «на имя Павла Орлова» Павел
    Орлов, «Передай ключи Грете» Грета; the words read together by russian_forms, the cases the words before allow
    preferred. A name not all Cyrillic stays as written, and so does one word that no verb before it puts in a
    case (after a preposition it may be a place: «В Казани нет света»)."""
    words = name.split()
    if not 0 < len(words) <= 3 or not all(re.fullmatch(r"[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?", w) for w in words):
        return name
    before = text[:max(text.find(name), 0)][-60:]
    cases = _cases_before(before)
    if len(words) == 1 and (not cases or russian_forms.cases_after(before.split()[-1] if before.split() else "")):
        return name  # «Маша» alone, «В Казани»: only a verb says one word is a person in another case
    return russian_forms.nominative(name, cases)


def name_parts(name: str) -> tuple[str, str, str | None] | None:
    """First name, surname and patronymic of a full name, by their form: Russian «Петрова Елена Викторовна» (with a
    patronymic the surname comes first), «Анна Кузнецова»/«Кузнецова Анна» (the surname by its -ов/-ев/-ин/-ский
    ending), else first then last ("Tom Becker"); None for one word."""
    words = name.split()
    if len(words) < 2:
        return None
    if len(words) == 3 and _PATRONYMIC.search(words[2]) and re.search(r"[а-яё]", words[2]):
        return words[1], words[0], words[2]
    if len(words) == 3 and _PATRONYMIC.search(words[1]) and re.search(r"[а-яё]", words[1]):
        return words[0], words[2], words[1]  # «Иван Иванович Иванов»
    if len(words) == 2 and re.search(r"[а-яё]", name) and _SURNAME.search(words[0]) \
            and not _SURNAME.search(words[1]):
        return words[1], words[0], None
    return words[0], " ".join(words[1:]), None
