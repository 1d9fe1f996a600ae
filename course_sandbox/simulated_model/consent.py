"""A yes or a no the request gives to an invitation or a confirmation, for a boolean that holds the answer
(`attending`, `rsvp`, `going`, `accept`, `confirmed`, `participate`): "RSVP yes", "count me in", «подтверди
участие», «приду» say yes; "RSVP no", "decline", "can't make it", «не приду», «откажись» say no."""

import re
from typing import Any

from .scalar_values import MISSING

_ANSWER_FIELD = re.compile(r"attend|going|rsvp|accept|confirm|particip|join|coming|response|reply|answer|"
                           r"участ|подтвер|придёт|придет|ответ", re.I)
_NO = re.compile(r"\brsvp\s*(?::\s*)?no\b|\bdeclin\w*|\bcan'?t\s+(?:make|come|attend|go)\b|\bcannot\s+(?:make|come|"
                 r"attend|go)\b|\bwon'?t\s+(?:be\s+(?:there|coming|attending)|make|come|attend|go)\b|\bnot\s+"
                 r"(?:attending|going|coming)\b|\bcount\s+me\s+out\b|\breject\w*|(?<!\w)не\s+(?:приду|смогу|буду|"
                 r"пойду|участву\w*)|(?<!\w)(?:откаж\w*|отказ\w*|отклон\w*)", re.I)
_YES = re.compile(r"\brsvp\s*(?::\s*)?yes\b|\bcount\s+me\s+in\b|\bi'?(?:ll| will)\s+(?:be\s+there|come|attend|join)\b|"
                  r"\bwill\s+attend\b|\battending\b|\baccept\w*|\bconfirm\w*|\bsign\s+me\s+up\b|\bi'?m\s+(?:in|going|"
                  r"coming)\b|(?<!\w)(?:подтверд\w*|приду|буду\s+участвовать|участвую|прими\w*|принять|согла[сш]\w*|"
                  r"запиши\s+меня)", re.I)


def answer(name: str, description: str, text: str) -> Any:
    """True for a yes, False for a no, when the field holds such an answer; MISSING otherwise (or both are said)."""
    if not _ANSWER_FIELD.search(f"{name} {description}"):
        return MISSING
    no, yes = bool(_NO.search(text)), bool(_YES.search(text))
    return yes if yes != no else MISSING
