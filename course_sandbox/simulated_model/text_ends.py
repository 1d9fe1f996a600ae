"""Where a free-text value (a message, a note, a reminder's text) ends: before the words another field of the same
tool takes. "Remind the team to file timesheets every week, starting Monday" is a message ("remind the team to file
timesheets"), a recurrence (`weekly`) and a start date; the message does not carry the other two along.

Only what another field really takes is cut: a recurrence when the tool has a recurrence enum, a date phrase when it
has a date field. A text that would be left empty stays as it was."""

import re

from . import recurrence

_TIES = r"(?:and|starting|beginning|from|until|till|on|by|every|начиная\s+с|начиная|и|с|со|до|в|во|к|ко)"
_WEEKDAY_PHRASE = re.compile(
    r"(?<!\w)(?:starting|beginning|from|until|till|on|by|начиная\s+с|с|со|до|в|во)\s+(?:next\s+|следующ\w+\s+)?"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|понедельник\w*|вторник\w*|сред\w+|"
    r"четверг\w*|пятниц\w+|суббот\w+|воскресень\w+|завтра|сегодня)(?!\w)", re.I)


def cut(found: str, takes_recurrence: bool, takes_date: bool, date_spans: list[tuple[int, int]] = ()) -> str:
    """The text without the recurrence and date phrases the tool's other fields take (see the module's docstring);
    `date_spans`: where the dates already read stand in `found`."""
    spans = [(s, e) for s, e, _ in recurrence.said(found)] if takes_recurrence else []
    if takes_date:
        spans += [m.span() for m in _WEEKDAY_PHRASE.finditer(found)] + list(date_spans)
    if not spans:
        return found
    chars = list(found)
    for start, end in spans:
        lead = re.search(rf"(?:[\s,;]*(?<!\w){_TIES})*[\s,;]*$", found[:start], re.I)
        for i in range(lead.start() if lead else start, end):
            chars[i] = "\0"
    left = re.sub(r"\0+", " ", "".join(chars))
    left = re.sub(r"\s+([,;.!?])", r"\1", re.sub(r"\s{2,}", " ", left)).strip(" ,;:—-")
    left = re.sub(rf"(?:[\s,;]*(?<!\w){_TIES})+$", "", left, flags=re.I).strip(" ,;:—-")  # "…, начиная" whose date went
    return left if re.search(r"[^\W\d_]{2,}", left) else found


def without_trailing_value(found: str) -> str:
    """A value that runs on into the next field's ("плавание, 45 минут" for a workout's kind beside its minutes):
    the words before the last comma, when all after it is one number with its unit, an amount or a date."""
    from . import binding

    head, comma, tail = found.rpartition(",")
    tail = tail.strip(" .;")
    if not comma or not head.strip() or not tail:
        return found
    said = binding.mentions(tail)
    whole = len(said) == 1 and said[0].start == 0 and said[0].end >= len(tail) - 1
    return head.strip() if whole and said[0].kind in ("quantity", "number", "money", "date", "datetime", "time") \
        else found
