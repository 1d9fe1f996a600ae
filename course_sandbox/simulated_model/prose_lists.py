"""Lists written in prose: "tag it with urgent, billing and refund", «с тегами срочно, оплата и
возврат». A tool's array field (`tags`, `labels`, `ingredients`) takes the items, not placeholders.

A list follows a cue word ("with", "as", "tags", "including", a colon…) and runs to the end of its
clause: items split at commas and the last "and"/"or", each one to three words. Without a cue, only
one-word items joined by commas count ("milk, eggs and bread"), so ordinary sentences with "and"
stay sentences; the last of them may be longer where a word such as "to" ends the clause ("add flour, sugar
and printer paper to the list"). Quoted text is never read as a list.
"""

import re
from dataclasses import dataclass

from .words import stems, tokens

_CUE = re.compile(r"(?:\b(?:assign(?:ed)?\s+(?:it\s+|this\s+|them\s+)?to|with|as|tags?|tagged|labels?|labell?ed|"
                  r"including|include|includes|keywords?|topics?|"
                  r"categories|category|skills?|ingredients?|items?|such as|namely)|(?<!\w)(?:тег\w*|метк\w*|"
                  r"с|со|как|включая|категори\w*|ключев\w* слов\w*))(?!\w)\s*:?\s*|(?<!\d):(?!\d)\s*", re.I)
_CLAUSE_END = re.compile(r"[.;!?\n\"«“(]|\s(?:to|for|in|on|at|from|by|so|then|because|please|в|для|на|по|чтобы)\s",
                         re.I)
_JOINT = re.compile(r"\s*,?\s+(?:and|or|&|и|или)\s+", re.I)
_BARE = re.compile(r"(?<![\w-])([\w-]+)((?:\s*,\s*[\w-]+)+),?\s+(?:and|or|и|или)\s+([\w-]+)", re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|«[^»]*»|“[^”]*”")
_ARTICLES = re.compile(r"^(?:the|a|an)\s+", re.I)
_AFTER_A_LIST = {"please", "now", "today", "tomorrow", "tonight", "too", "also", "again", "first", "later", "asap",
                 "пожалуйста", "сейчас", "сегодня", "завтра", "тоже", "также"}
"""Words that follow a list without belonging to its last item: "milk, eggs and bread tomorrow"."""
_ONTO_A_LIST = re.compile(
    r"(?:\b(?:put|add|append|place|write)|(?<!\w)(?:добавь|занеси|запиши|внеси))\s+(?!it\b|them\b)([^.;!?\n]{3,300}?)"
    r"\s+"
    r"(?:(?:on|to|onto|in|into)\s+(?:my|the|our|your)\s+(?:[\w-]+\s+){0,2}list\b|(?:в|на)\s+(?:мой\s+|наш\s+)?список)",
    re.I)
"""A list put on a list: "Put oat milk, dish soap and spare light bulbs on my to-do list" (items of several words)."""
_LIST_THEN_ITEMS = re.compile(
    r"(?:\b(?:put|add|append|write)\s+(?:to|on|onto|in|into)\s+(?:my|the|our|your)\s+(?:[\w-]+\s+){0,2}list\b|"
    r"(?<!\w)(?:добавь|занеси|запиши|внеси)\s+(?:в|на)\s+(?:мой\s+|наш\s+)?список"
    r"(?:\s+(?:покупок|дел|задач|желаний|продуктов))?)\s*:?\s+([^.;!?\n]{3,300})", re.I)
"""A list named before its items: "Add to my shopping list eggs, milk and bread", «Добавь в список покупок молоко,
чёрный хлеб, яйца и зубную пасту»."""
_BUYING = re.compile(r"(?:\b(?:buy|purchase|pick\s+up|get\s+me)|(?<!\w)(?:купи|купить|возьми|взять))\s+"
                     r"(?!it\b|them\b|some\s+time\b)([^.;!?\n]{3,300}?)\s*(?=[.;!?\n]|$)", re.I)
"""A shopping list said with its verb: "I need to buy olive oil, tea and honey", «купи хлеб и молоко»."""
_PRONOUN = re.compile(r"(?:it|them|this|that|these|those|его|её|их|это)\s+(?=\w)", re.I)
"""What a cue verb is said of, not an item: "label it hardware, office supplies and facilities"."""
MAX_ITEMS = 50
_KIN = {"tag": "label", "label": "tag", "tagged": "label", "labeled": "tag", "labelled": "tag"}
"""Cue words that mean one another's property: "tag it with" fills `labels` too."""


@dataclass(frozen=True)
class ProseList:
    """Items written as a list, and the words just before it ("tag it with")."""

    cue: str
    items: list[str]


def read(text: str) -> list[ProseList]:
    """The lists of a request, in the order written (each stretch of text read once)."""
    masked = _QUOTED.sub(lambda m: "\n" * len(m.group(0)), text)
    found: list[tuple[int, ProseList]] = []
    used_until = -1
    for cue in _CUE.finditer(masked):
        if cue.start() < used_until:
            continue
        listed = _after(masked, cue.end())
        if listed is not None:
            before = " ".join(masked[max(0, cue.start() - 40):cue.end()].split())
            found.append((cue.start(), ProseList(before, listed[0])))
            used_until = listed[1]
    for onto in [*_ONTO_A_LIST.finditer(masked), *_BUYING.finditer(masked)]:
        items = _split(onto.group(1), pair=True)
        if items and not any(onto.start() <= start < onto.end() for start, _ in found):
            cue = f"{masked[onto.start():onto.start(1)]} {masked[onto.end(1):onto.end()]}"
            found.append((onto.start(), ProseList(" ".join(cue.split()), items)))
    for onto in _LIST_THEN_ITEMS.finditer(masked):
        items = _split(onto.group(1))
        if items and not any(onto.start() <= start < onto.end() for start, _ in found):
            cue = masked[onto.start():onto.start(1)]
            found.append((onto.start(), ProseList(" ".join(cue.split()), items)))
    for bare in _BARE.finditer(masked):
        if not any(start <= bare.start() < start + 200 for start, _ in found):
            listed = _after(masked, bare.start())
            items = listed[0] if listed else [bare.group(1), *re.findall(r"[\w-]+", bare.group(2)), bare.group(3)]
            before = " ".join(masked[max(0, bare.start() - 40):bare.start()].split())
            found.append((bare.start(), ProseList(before, items)))
    return [listed for _, listed in sorted(found, key=lambda pair: pair[0])]


def _split(stretch: str, pair: bool = False) -> list[str] | None:
    """The items of a stretch that is all list ("a, b and c"), each one to three words; None otherwise. `pair`: the
    words around it say it is a list (put on a list, bought), so two items need no comma ("apples and rice")."""
    joints = list(_JOINT.finditer(stretch))
    joint = joints[-1] if joints else None
    if joint is None or ("," not in stretch[:joint.start()] and not pair):
        return None
    items = [_ARTICLES.sub("", item.strip()) for item in [*stretch[:joint.start()].split(","), stretch[joint.end():]]]
    if any(not item or len(item.split()) > 3 or _CUE.search(f" {item} ".replace(":", "")) for item in items):
        return None
    return items[:MAX_ITEMS]


def fits(listed: ProseList, name: str, description: str, closest: bool = False) -> bool:
    """Whether the list's cue speaks of what the property holds ("tag it with" for `tags`); closest: its last word
    does («теги: клиент, VIP и Москва», not «контакт: Анна Петрова, …» for tags described «Теги контакта»)."""
    cue = stems(" ".join(listed.cue.replace(":", " ").split()[-1:]) if closest else listed.cue)
    if closest:  # by the property's own name: the description may name what the list is of («Теги контакта»)
        description = ""
    cue |= {word[:-1] for word in cue if len(word) >= 4 and word[-1] == word[-2]}  # "labelled", "tagged": label, tag
    cue |= {_KIN[word] for word in cue if word in _KIN}
    wanted = {word for word in tokens(f"{name} {description}") if len(word) >= 3}
    return any(a.startswith(b) or b.startswith(a) for a in cue for b in wanted if len(a) >= 3)


def _after(text: str, start: int) -> tuple[list[str], int] | None:
    """The items of a list that starts at `start`, and where it ends; None when no list starts there.
    The item after the last "and"/"or" ends the list ("a, b and c, order 5": a, b, c)."""
    pronoun = _PRONOUN.match(text, start)
    start = pronoun.end() if pronoun else start
    end = _CLAUSE_END.search(text, start)
    stop = end.start() if end else len(text)
    clause = text[start:stop]
    joint = _JOINT.search(clause)
    head, tail = (clause[:joint.start()], clause[joint.end():]) if joint else (clause, "")
    items = [_ARTICLES.sub("", item.strip()) for item in head.split(",")]
    if joint:
        last = tail.split(",")[0].strip()
        words = last.split()
        while len(words) > 1 and words[-1].lower() in _AFTER_A_LIST:
            words.pop()
        last = " ".join(words)
        # "urgent, billing and refund order 5": ends at "refund"; "flour, sugar and printer paper to the list"
        # keeps "printer paper", since a word such as "to" ends the clause right after it
        if all(len(item.split()) == 1 for item in items) and (end is None or re.search(r"\d", last)):
            last = words[0] if words else last
        items.append(_ARTICLES.sub("", last))
        stop = start + joint.end() + tail.find(last) + len(last)
    items = [item for item in items if item]
    if len(items) < 2 or any(len(item.split()) > 3 or _CUE.search(f" {item} ".replace(":", "")) for item in items):
        return None
    return items[:MAX_ITEMS], stop
