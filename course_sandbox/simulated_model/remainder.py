"""What a request says besides its values: the words a free-text field (a reminder's text, a payment's note) takes
when no label or quote gives one, instead of the whole request copied in.

"Напомни мне оплатить интернет 25.03.2026 в 9:15." leaves «оплатить интернет» once the ask (the first word and the
pronoun after it), the date and the time with the prepositions that tie them in are taken away; "Send $45.20 to
lena.k@example.org for the concert tickets." leaves "concert tickets". None when too little is left to be a text of
its own (a request that is all values).
"""

import re

from . import binding

_TIES = r"(?:to|at|on|in|by|from|with|for|of|until|before|after|via|в|во|на|к|ко|от|до|для|с|со|по|из|у|за|через)"
_PRONOUNS = r"(?:me|us|him|her|them|it|мне|нам|ему|ей|им|меня|нас)"
_LEADS = re.compile(r"^(?:(?:for|about|regarding|that|to)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?|"
                    r"(?:что|о|об|про|за)\s+)", re.I)
_VALUE_KINDS = {"email", "url", "date", "datetime", "time", "money", "phone", "postcode", "quantity", "number", "path",
                "filename", "code", "quoted"}


def remainder(text: str, lang: str = "en", keep: frozenset[str] = frozenset()) -> str | None:
    """The request's own words for a free-text field (see the module's docstring), or None. Values of the kinds in
    `keep` stay in the text: no other field of the tool takes them ("Text Ana that the plumber arrives at 4pm": the
    time is part of the message when the tool has no time field)."""
    first = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0][:500]
    said = re.split(r"(?<!\d):\s+|(?<=\d):\s+(?=[^\W\d_])", first, maxsplit=1)
    if len(said) == 2 and len(said[0].split()) <= 8 and len(re.findall(r"[^\W\d_]{2,}", said[1])) >= 2:
        return said[1].strip(" .!?")  # "Add a note to Maria Lopez: prefers calls after 5pm." — what the colon opens
    chars = list(first)
    for mention in binding.mentions(first):
        if (mention.kind in _VALUE_KINDS and mention.kind not in keep) or (
                mention.kind == "proper" and _after_a_tie(first, mention.start)):
            chars[mention.start:mention.end] = " " * (mention.end - mention.start)
    left = "".join(chars)
    # the ask itself: the first word (an imperative) and a pronoun after it
    left = re.sub(rf"^\s*[^\W\d_]+\s+(?:{_PRONOUNS}\s+)?", "", left, flags=re.I)
    # a tie left before a value taken away ("to ", "в ") goes with it
    left = re.sub(rf"(?<!\w){_TIES}(?:\s+the)?\s{{2,}}", " ", left + " ", flags=re.I)
    left = re.sub(rf"(?<!\w){_TIES}\s*$", " ", left.strip(" ,;:.!?"), flags=re.I)
    left = re.sub(r"\s+", " ", re.sub(r"\s+([,;:.!?])", r"\1", left)).strip(" ,;:.!?—-")
    left = _LEADS.sub("", left).strip(" ,;:.!?—-")
    words = re.findall(r"[^\W\d_]{2,}", left)
    if len(words) < 1 or len(left) < 3:
        return None
    return left


def _after_a_tie(text: str, start: int) -> bool:
    """Whether a proper name stands after a preposition ("to Anna", «для Анны»): a recipient, a place, not the text."""
    return bool(re.search(rf"(?<!\w){_TIES}\s+$", text[:start], re.I))
