"""The final answer after tool calls: first the answer to a yes/no or a which-is-the-most question when a result
decides it (verdicts.py: "Yes: the rain chance for Paris is 80%."), then a sentence that gives what the question
asked for ("The status of order O2 is Processing."), then what each tool returned, and any error said
plainly as an error.

The fields asked for are the result's keys whose words appear in the question (with a few
everyday synonyms: "how much" asks for a price, "where" for a location or a status).
"""

import json
import re
from typing import Any

from ..words import words
from . import verdicts
from .history import Call
from .slots import named_values
from .words import overlap, stems

_EXCERPT = 600
_ASKS_FOR = {"cost": "price amount total", "much": "price amount total cost", "many": "quantity count",
             "pay": "price amount total",
             "where": "location address status city", "when": "date time created updated eta delivery",
             "who": "name author owner", "weather": "temperature condition forecast", "reach": "email phone",
             "contact": "email phone", "mail": "email", "e-mail": "email", "number": "phone",
             "stock": "stock quantity available", "deliver": "status delivery eta", "ship": "status shipped"}
_MAX_FIELDS = 4
_MAX_LISTED = 8


def answer(answered: list[Call], question: str, lang: str) -> str:
    """The final text: the asked-for values in sentences, what the tools returned, what failed."""
    failed = [c for c in answered if c.is_error]
    succeeded = [c for c in answered if not c.is_error]
    lines = [_line(call, lang) for call in answered]
    if failed and not succeeded:
        head = words(lang, "I could not get an answer: the tool call failed.") if len(failed) == 1 else \
            words(lang, "I could not get an answer: every tool call failed.")
        parts = [head, *lines]
    else:
        sentences = " ".join(sentence(call, question, lang) for call in succeeded)
        decided = verdicts.lead([(c.input, c.result or "", _items(c.result or "")) for c in succeeded], question,
                                lang)
        if decided:  # the question's own answer first ("Yes: the rain chance for Paris is 80%."), then the rest
            sentences = f"{decided} {sentences}"
        parts = [sentences, "", words(lang, "What the tools returned:"), *lines]
    tail = []
    if failed and succeeded:
        tail.append(words(lang, "The failed calls are not part of this answer: I don't know those values."))
    if failed:
        tail.append(words(lang, "You can fix the input or try again later."))
    return "\n".join([*parts, *([""] + tail if tail else [])])


def sentence(call: Call, question: str, lang: str) -> str:
    """One sentence for one result: the fields the question asks about, else all of them, else the text."""
    subject = _subject(call.input)
    listed_items = _items(call.result or "")
    if listed_items:
        return _listing(call, listed_items, subject, lang)
    fields = named_values(call.result or "")
    scalar = {k: v for k, v in fields.items() if not isinstance(v, (dict, list)) and not _nested_copy(k, v, fields)}
    asked = asked_fields(scalar, question, call.input)
    if asked:
        said = [(k.replace("_", " "), _shown(v)) for k, v in list(asked.items())[:_MAX_FIELDS]]
        if len(said) == 1:
            (key, value), = said
            value = value[:-1] if value.endswith(".") and not value.endswith("..") else value  # one full stop
            if subject and key.casefold() == str(subject).casefold():
                return f"{subject}: {value}."  # "Oslo: light snow…" answers for Oslo, not "the oslo of Oslo"
            if subject:
                return words(lang, "The {key} of {subject} is {value}.", key=key, subject=subject, value=value)
            return words(lang, "The {key} is {value}.", key=key, value=value)
        listed = words(lang, " and ").join(words(lang, "the {key} is {value}", key=k, value=v) for k, v in said)
        return words(lang, "For {value}, {listed}.", value=subject or call.name, listed=listed)
    if scalar:
        listed = ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in list(scalar.items())[:_MAX_LISTED])
        if subject:
            return words(lang, "For {subject}, {tool} returned {listed}.",
                               subject=subject, tool=call.name, listed=listed)
        return words(lang, "For your request, {tool} returned {listed}.", tool=call.name, listed=listed)
    text = _excerpt(call.result)
    if re.fullmatch(r"\s*(?:\[\s*\]|\{\s*\}|null|none|)\s*", text or "", re.I):
        # an empty listing: nothing found, said plainly, and nothing acted on for it
        return words(lang, "{tool} found nothing for this: no matching results.", tool=call.name)
    end = "" if text.endswith((".", "!", "?", "…")) else "."
    if subject:
        return words(lang, "For {subject}, {tool} returned: {text}{end}", subject=subject, tool=call.name, text=text,
                     end=end)
    return words(lang, "For your request, {tool} returned: {text}{end}", tool=call.name, text=text, end=end)


def asked_fields(fields: dict[str, Any], question: str, tool_input: dict) -> dict[str, Any]:
    """The result's fields whose words the question uses ("email" for "the email address")."""
    lowered = question.lower()
    wanted = stems(question, synonyms=True)
    for word, meaning in _ASKS_FOR.items():
        if re.search(rf"\b{re.escape(word)}", lowered):
            wanted |= stems(meaning)
    given = {str(v).lower() for v in tool_input.values()}
    asked = {}
    for key, value in fields.items():
        if str(value).lower() in given or key in tool_input:
            continue
        if overlap(wanted, stems(key.replace("_", " "))):
            asked[key] = value
    return asked


def _nested_copy(key: str, value: Any, fields: dict[str, Any]) -> bool:
    """Whether `customer_email` only repeats `email` (named_values keeps nested keys both ways)."""
    parts = key.split("_")
    return any(fields.get("_".join(parts[i:])) == value for i in range(1, len(parts)))


def _items(result: str) -> list[dict]:
    """The items of a result that is a list of records (or a record holding one list of them), else []."""
    from .slots import _structured

    data = _structured(result[:20_000])
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    if isinstance(data, list) and len(data) >= 2 and all(isinstance(item, dict) and item for item in data):
        return data
    return []


def _listing(call: Call, items: list[dict], subject: str, lang: str) -> str:
    """A list result said as a list: how many items, and each by its first values ("p-1 sunset.jpg"), never the
    first item's fields as if they were the answer."""
    shown = []
    for item in items[:_MAX_LISTED]:
        values = [_shown(v) for v in item.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
        shown.append(" ".join(values[:3]) or json.dumps(item, ensure_ascii=False)[:80])
    left = len(items) - _MAX_LISTED
    more = ("" if left <= 0 else f" и ещё {left}" if lang == "ru" else f" and {left} more")
    if lang == "ru":
        head = f"Результат {call.name}" + (f" ({subject})" if subject else "") + f", записей: {len(items)} —"
    else:
        head = f"{call.name}" + (f" for {subject}" if subject else "") + f" returned {len(items)} items:"
    return f"{head} " + "; ".join(shown) + more + "."


def _subject(tool_input: dict) -> str:
    """What the call was about: 'order O2' for {"order_id": "O2"}, 'Paris' for {"location": "Paris"}; an id first
    ('company mv-2' for {"date": …, "company_id": "mv-2"})."""
    ided = sorted(tool_input.items(), key=lambda kv: not re.search(r"(?:^|_)id$|Id$", kv[0]))
    for key, value in ided:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip():
            label = re.sub(r"(?:_?id|_?number|_?no)$", "", key, flags=re.I).replace("_", " ").strip()
            return f"{label} {value}" if label and label != key.replace("_", " ") else str(value)
    return ""


def _line(call: Call, lang: str) -> str:
    shown = f"{call.name}({arguments(call.input)})"
    result = _excerpt(call.result)
    if call.is_error:
        return words(lang, "- {shown} failed: {result}", shown=shown, result=result)
    return f"- {shown} → {result}"


def arguments(tool_input: dict) -> str:
    """A call's input as it reads in code: order_id="O2", unit="celsius"."""
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in tool_input.items())


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _excerpt(text: str | None) -> str:
    flat = " ".join((text or "").split()) or "(empty)"
    return flat if len(flat) <= _EXCERPT else flat[:_EXCERPT] + "…"
