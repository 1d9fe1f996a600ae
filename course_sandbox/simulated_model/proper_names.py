"""Proper names in a request: the capitalised spans a real model would copy into a name field.

"Book a table at Chez Panisse" names a restaurant, "Add Maria Lopez" a person; a model that
fills `restaurant_name` with "example restaurant" has not read the request. A span is a run of
capitalised words (with the small joining words of names: "de", "van", "of"); the first word of
a sentence is left out when it stands alone ("Log a request") or is a common word ("Add Maria
Lopez", "Where"), since any word is capitalised there. A name after "at" (or «у») is also a venue (the restaurant, the hotel).
"""

import re
from dataclasses import dataclass

from .words import STOPWORDS

_WORD = r"[A-ZА-ЯЁ][\w'’&-]*(?:\.(?=\w))?[\w'’&-]*"
_JOIN = r"(?:de|del|da|di|du|la|le|van|von|der|den|of|&)"
SPAN = re.compile(rf"(?<![\w@/#.-]){_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD})*")
_QUOTED = re.compile(r"\"[^\"]*\"|«[^»]*»|“[^”]*”|(?<!\w)'[^'\n]*'(?!\w)")
_TITLE = re.compile(r"(?<![\w.])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|Fr|Rev|Hon|Capt|Sgt|Lt|Col|Gen)\.?\s+(?=[A-Z])")
"""A title before a name ("Dr.", "Mrs"): not a name of its own, and its dot does not end the name."""
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
""".split())
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
        imperative = len(words) >= 3 and re.fullmatch(r"[А-ЯЁ][а-яё]{3,}и", words[0]) is not None  # «Запиши Ольгу Кузнецову»
        if _SENTENCE_START.search(masked[:start]) and (len(words) == 1 or _common(words[0]) or imperative):
            words = words[1:]
            while words and words[0].lower() in ("of", "&"):
                words = words[1:]
            start = -1
        while words and _abbreviation(words[-1]):
            words = words[:-1]
        if start == -1 and len(words) == 2 and all(re.fullmatch(r"[А-ЯЁ][а-яё]+[ую]", w) for w in words):
            words = [w[:-1] + ("а" if w.endswith("у") else "я") for w in words]  # «Ольгу Кузнецову»: Ольга Кузнецова
        name = re.sub(r"['’]s$", "", " ".join(words)).rstrip(".,;:!?'’-")  # "Ana's e-mail" names Ana
        if not name or not _is_name(name):
            continue
        found.append(name)
        if start >= 0 and _VENUE_BEFORE.search(masked[:start]):
            venues.append(name)
    return Names(list(dict.fromkeys(found)), list(dict.fromkeys(venues)))


_QUOTED_VENUE = re.compile(
    r"(?:\b(?:at|in|venue|location|place|restaurant|hotel|cafe|café|bar|club|hall)|(?<!\w)(?:в|во|на|у|ресторан\w*|"
    r"кафе|бар\w*|клуб\w*|отел\w*|гостиниц\w*|зал\w*))(?:\s+the)?\s+(?:\"([^\"]{1,80})\"|«([^»]{1,80})»|“([^”]{1,80})”)",
    re.I)


def quoted_venues(text: str) -> list[str]:
    """Venues written in quotes: 'at "the old mill"', «в кафе «Ромашка»»: quoted, a name of any case is
    still a name, where the words before it say it is a place."""
    return list(dict.fromkeys(next(g for g in m.groups() if g).strip() for m in _QUOTED_VENUE.finditer(text)))


_ADDRESSEE = re.compile(
    rf"(?:\b(?:to|from)\s+(?:the\s+)?({_WORD}(?:\s+(?:{_JOIN}\s+)?{_WORD})*)"
    r"|(?:\b(?:company|client|firm)|(?<!\w)(?:компани\w*|клиент\w*|фирм\w*|ООО|АО|ИП))\s+(?:\"([^\"]{1,80})\"|«([^»]{1,80})»))")


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
_LAST = re.compile(r"^(?:last|family|sur)_?name$|^surname$|^last$|^фамилия$", re.I)


def part_of_a_name(name: str, description: str) -> str | None:
    """Whether a property takes only a person's first name (`first_name`, `given_name`) or only the rest
    (`last_name`, `surname`): "first", "last", else None (the whole name)."""
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower().replace("-", "_").replace(" ", "_")
    if _FIRST.match(spoken) or re.search(r"\bfirst name\b|\bgiven name\b", description, re.I):
        return "first"
    if _LAST.match(spoken) or re.search(r"\blast name\b|\bsurname\b|\bfamily name\b", description, re.I):
        return "last"
    return None


def names_a_venue(name: str, description: str) -> bool:
    """Whether a property names a place of business (`restaurant_name`), not a person (`name`)."""
    return bool(_VENUE_WORDS.search(f"{name} {description}"))


def _common(word: str) -> bool:
    lowered = word.lower()
    if re.search(r"[а-яё]", lowered):
        return lowered in STOPWORDS or lowered.endswith(("й", "йте", "ите", "ь", "ьте")) or len(lowered) <= 3
    return lowered in _COMMON or lowered in STOPWORDS


def _abbreviation(word: str) -> bool:
    """PR, MR, API: an abbreviation that ends a span is not part of the name before it ("Review PR")."""
    bare = word.rstrip(".,;:!?")
    return bare.isupper() and len(bare) <= 4


def _is_name(name: str) -> bool:
    words = name.split()
    if any(ch.isdigit() for ch in name) or words[0].lower().rstrip(".") in _NOT_NAMES:
        return False
    return not (len(words) == 1 and (name.isupper() or len(name) < 2))
