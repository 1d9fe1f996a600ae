"""How often something repeats, as a request says it in either language ("every other week", «ежемесячно», «раз в
год»), and the enum option that means it (`weekly`, `EVERY_TWO_WEEKS`, `1m`…).

An option is matched by what it means, not by its spelling: "fortnightly" is `biweekly`, «каждую неделю» is `weekly`.
The phrases are also where a free-text field stops: "water the plants every week" is a message and a recurrence."""

import re
from typing import Any

_SAID = [
    ("hourly", r"\bevery\s+hour\b|\bhourly\b|\beach\s+hour\b|(?<!\w)каждый\s+час(?!\w)|(?<!\w)ежечасн\w*|"
               r"(?<!\w)раз\s+в\s+час(?!\w)"),
    ("biweekly", r"\bevery\s+(?:other|second|two|2)\s+weeks?\b|\bfortnightly\b|\bbi-?weekly\b|\bevery\s+fortnight\b|"
                 r"(?<!\w)раз\s+в\s+(?:две|2)\s+недел\w*|(?<!\w)каждые\s+(?:две|2)\s+недел\w*|"
                 r"(?<!\w)через\s+неделю(?!\w)|(?<!\w)раз\s+в\s+полмесяца(?!\w)"),
    ("daily", r"\bevery\s*day\b|\beach\s+day\b|\bdaily\b|(?<!\w)каждый\s+день(?!\w)|(?<!\w)ежедневн\w*|"
              r"(?<!\w)раз\s+в\s+день(?!\w)|(?<!\w)каждое\s+утро(?!\w)|(?<!\w)каждый\s+вечер(?!\w)"),
    ("weekly", r"\bevery\s+week\b|\beach\s+week\b|\bweekly\b|\bonce\s+a\s+week\b|(?<!\w)каждую\s+неделю(?!\w)|"
               r"(?<!\w)еженедельн\w*|(?<!\w)раз\s+в\s+неделю(?!\w)"),
    ("monthly", r"\bevery\s+month\b|\beach\s+month\b|\bmonthly\b|\bonce\s+a\s+month\b|(?<!\w)каждый\s+месяц(?!\w)|"
                r"(?<!\w)ежемесячн\w*|(?<!\w)раз\s+в\s+месяц(?!\w)"),
    ("quarterly", r"\bevery\s+quarter\b|\bquarterly\b|(?<!\w)ежеквартальн\w*|(?<!\w)каждый\s+квартал(?!\w)|"
                  r"(?<!\w)раз\s+в\s+квартал(?!\w)"),
    ("yearly", r"\bevery\s+year\b|\beach\s+year\b|\byearly\b|\bannually\b|\bonce\s+a\s+year\b|"
               r"(?<!\w)каждый\s+год(?!\w)|(?<!\w)ежегодн\w*|(?<!\w)раз\s+в\s+год(?!\w)"),
]
_PHRASES = [(meaning, re.compile(pattern, re.I)) for meaning, pattern in _SAID]

_OPTION_WORDS = {
    "hourly": {"hourly", "hour", "every hour", "1h", "h"},
    "biweekly": {"biweekly", "bi weekly", "fortnightly", "fortnight", "every two weeks", "every 2 weeks",
                 "every other week", "2w", "two weeks"},
    "daily": {"daily", "day", "days", "every day", "everyday", "1d", "d"},
    "weekly": {"weekly", "week", "weeks", "every week", "1w", "w"},
    "monthly": {"monthly", "month", "months", "every month", "1m", "m"},
    "quarterly": {"quarterly", "quarter", "every quarter", "3m", "q"},
    "yearly": {"yearly", "annually", "annual", "year", "years", "every year", "1y", "y"},
}
"""The spellings an option of each meaning takes in other people's schemas, once lowered and with `_`/`-` as
spaces."""


def said(text: str) -> list[tuple[int, int, str]]:
    """Each recurrence the text states: where it stands and what it means, in the order written."""
    found = [(m.start(), m.end(), meaning) for meaning, pattern in _PHRASES for m in pattern.finditer(text)]
    found.sort()
    kept: list[tuple[int, int, str]] = []
    for start, end, meaning in found:  # "every other week" is not also "every … week"
        if not any(start < e and s < end for s, e, _ in kept):
            kept.append((start, end, meaning))
    return kept


def meaning_of(option: Any) -> str | None:
    """What an enum option means as a recurrence ("BIWEEKLY", "every_two_weeks": biweekly), or None."""
    if not isinstance(option, str):
        return None
    spoken = " ".join(re.split(r"[\s_-]+", option.strip().lower()))
    return next((meaning for meaning, spellings in _OPTION_WORDS.items() if spoken in spellings), None)


def option(options: list, text: str) -> Any:
    """The option that means the first recurrence the text states, when the options are recurrences; else None."""
    meanings = {meaning_of(o): o for o in options if meaning_of(o) is not None}
    if len(meanings) < 2:  # a recurrence enum offers at least two of them
        return None
    return next((meanings[m] for _, _, m in said(text) if m in meanings), None)
