"""Russian words back in their dictionary form, by a morphological analyser rather than by ending tables.

A request writes its values in whatever case the sentence needs («погода в Самаре», «посылку Ивану Петрову»,
«купи молока»), and a field wants the nominative (Самара, Иван Петров, молоко). Ending tables get the common words
right and the rest wrong («в Самаре»: Самар, «в Туле»: Туле); pymorphy3 with the OpenCorpora dictionary knows the
words and their paradigms, and guesses an unknown word by its likeness to known ones. The words of a phrase are read
together, so that they agree («Нижнем Новгороде»: Нижний Новгород, «Павла Орлова»: Павел Орлов, not Орлова), and the
words the sentence puts before the phrase say which cases it can stand in («из», «у», «для»: the genitive).

The analyser is loaded on the first Cyrillic value, once a process: an English-only run never imports it.
"""

import functools
import itertools
import re
from collections.abc import Iterable
from typing import Any

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_PROPER = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})
_PHRASE_WORDS = frozenset({"NOUN", "ADJF", "PRTF", "NUMR"})
_PREPOSITION_CASES = {
    **dict.fromkeys(("в", "во", "на"), frozenset({"loct", "accs", "loc2"})),
    **dict.fromkeys(("из", "изо", "от", "ото", "до", "для", "у", "без", "около", "возле", "после", "вместо", "кроме",
                     "мимо", "напротив", "среди"), frozenset({"gent", "gen2"})),
    **dict.fromkeys(("с", "со"), frozenset({"ablt"})),
    **dict.fromkeys(("к", "ко", "по"), frozenset({"datv"})),
    **dict.fromkeys(("о", "об", "обо", "при"), frozenset({"loct"})),
    **dict.fromkeys(("за", "под", "подо", "над", "надо", "перед", "передо", "между"), frozenset({"ablt", "accs"})),
    **dict.fromkeys(("через", "про", "сквозь"), frozenset({"accs"})),
}
PLACE_CASES = frozenset({"loct", "loc2", "accs", "gent", "gen2"})
"""The cases of a place after в, из, до, от, when the preposition itself is not at hand."""
_RARE = frozenset({"кола"})
"""Lemmas the dictionary weighs as much as a common one that reads the same word: «Коле» is Коля's far more often
than Кола's (a test of round 12 shows it)."""
MAX_PARSES = 8
"""Readings of a word weighed at the most: a phrase of four words is then 4,096 combinations at the most."""


@functools.cache
def _analyser() -> Any:
    import pymorphy3  # noqa: PLC0415 — loaded on the first Russian value only: an English run does not pay for it

    return pymorphy3.MorphAnalyzer()


def cases_after(word: str) -> frozenset[str]:
    """The cases a preposition puts the next word in («из»: the genitive); none for any other word."""
    return _PREPOSITION_CASES.get(word.lower(), frozenset())


def nominative(phrase: str, cases: Iterable[str] = ()) -> str:
    """The phrase in the nominative, capitalisation and hyphens kept: «Нижнем Новгороде» Нижний Новгород, «Ивану
    Петрову» Иван Петров, «Ростове-на-Дону» Ростов-на-Дону. The words are read up to the first word that is not
    Cyrillic or not capitalised like the first (a tail: «пиццы с грибами» пицца с грибами). `cases` are those the
    sentence allows (cases_after's); a word the analyser cannot put in the nominative stays as written."""
    if not _CYRILLIC.search(phrase):
        return phrase
    words = phrase.split(" ")
    head = _head(words)
    if not head:
        return phrase
    chosen = _reading(words[:head], frozenset(cases))
    agreed = [_inflected(word, parse) for word, parse in zip(words[:head], chosen, strict=True)]
    return " ".join([*agreed, *words[head:]])


def _head(words: list[str]) -> int:
    """How many words from the start are the phrase's own, to be agreed and put in the nominative."""
    count = 0
    for word in words:
        if not _WORD.fullmatch(word) or count and (word[:1].isupper() != words[0][:1].isupper()
                                                   or word.lower() in _PREPOSITION_CASES or word in ("и", "или")):
            break
        count += 1
    return min(count, 4)


def _inflectable(word: str) -> str:
    """The part of a hyphenated word that takes the case: «Ростове-на-Дону» its first part (the tail after a small
    lower-case word is fixed), «Санкт-Петербурге» the whole."""
    parts = word.split("-")
    if any(p.islower() for p in parts[1:]) and parts[0][:1].isupper():
        return parts[0]
    return word


def _readings(word: str) -> list[Any]:
    """The analyser's readings of a word, and the case forms of a first name it only knows as a foreign fixed word
    («Анне»: Анна in the dative, besides the indeclinable Анне)."""
    found = list(_analyser().parse(_inflectable(word)))[:MAX_PARSES]
    if word[:1].isupper() and found and all("Fixd" in p.tag for p in found) and word[-1:] in "еиыуюой":
        for lemma in {word[:-1] + "а", word[:-1] + "я", word[:-2] + "а", word[:-2] + "я"}:
            for p in _analyser().parse(lemma):
                if "Name" in p.tag and p.tag.case == "nomn":
                    found += [form for form in p.lexeme if form.word == word.lower() and "Fixd" not in form.tag]
    return found


def _weight(parse: Any, word: str, cases: frozenset[str], others: list[Any]) -> float:
    tag = parse.tag
    weight = parse.score or 0.01
    if tag.POS not in _PHRASE_WORDS:
        weight *= 0.1  # «Маши», «Бутово»: a verb's or short adjective's reading of a name
    if word[:1].isupper() and _PROPER & set(tag.grammemes):
        weight *= 2
    if parse.normal_form in _RARE:
        weight *= 0.5
    if "Fixd" in tag and any("Fixd" not in p.tag for p in others):
        weight *= 0.01  # «Анне»: Анна in the dative, rather than an indeclinable Anne
    if cases and tag.case in cases:
        weight *= 4
    return weight


def _agreement(chosen: tuple[Any, ...]) -> float:
    """How well the readings of a phrase's words agree: one case, one number, one gender in the singular."""
    weight = 1.0
    for a, b in itertools.combinations(chosen, 2):
        if a.tag.case != b.tag.case:
            weight *= 0.05
        if a.tag.number != b.tag.number:
            weight *= 0.2
        elif a.tag.number == "sing" and a.tag.gender and b.tag.gender and a.tag.gender != b.tag.gender:
            weight *= 0.05
    return weight


def _reading(words: list[str], cases: frozenset[str]) -> tuple[Any, ...]:
    """The likeliest readings of the words together (a None where a word has none)."""
    options = []
    for word in words:
        readings = _readings(word)
        options.append([(p, _weight(p, word, cases, readings)) for p in readings] or [(None, 1.0)])
    best, best_weight = None, -1.0
    for combination in itertools.product(*options):
        chosen = tuple(p for p, _ in combination)
        weight = 1.0
        for _, w in combination:
            weight *= w
        if all(chosen):
            weight *= _agreement(chosen)
        if weight > best_weight:
            best, best_weight = chosen, weight
    return best or tuple(None for _ in words)


def _inflected(word: str, parse: Any) -> str:
    if parse is None:
        return word
    form = parse.inflect({"nomn"})
    if form is None:
        return word
    part = _inflectable(word)
    return _written_like(part, form.word) + word[len(part):]


def _written_like(original: str, word: str) -> str:
    """The analyser's lower-case word written as the original was: capitals per hyphenated part, no «ё» where the
    original had none."""
    if "ё" not in original.lower():
        word = word.replace("ё", "е")
    if original.isupper() and len(original) > 1:
        return word.upper()
    old, new = original.split("-"), word.split("-")
    if len(old) != len(new):
        return word.capitalize() if original[:1].isupper() else word
    return "-".join(n.capitalize() if o[:1].isupper() else n for o, n in zip(old, new, strict=True))
