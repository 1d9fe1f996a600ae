"""The simulated model's refusals: requests in a refused category end with stop_reason
`refusal` and `stop_details`, and retrying the same request on the same model is pointless.

Harmful requests are refused by every model. Dual-use ones (security testing of one's own code) are
refused by today's models (their profile says `cautious`) and answered by the 4.x models: so a fallback
model can serve what the requested one refused, the docs' reason for server-side fallback ("the same
request on another Claude model usually succeeds")."""

import re

from ..words import words
from .reply import Reply

CATEGORIES = {
    "cyber": re.compile(r"ransomware|keylogger|malware|write an exploit|вымогател|вредонос|кейлоггер|эксплойт", re.I),
    "bio": re.compile(r"bioweapon|weaponi[sz]e a pathogen|биооруж|патоген", re.I),
}


DUAL_USE = {
    "cyber": re.compile(r"penetration test|pentest|attack surface|тест\w* на проникновение|пентест|поверхност\w* атаки",
                        re.I),
}


def _explanation(category: str, lang: str) -> str:
    """stop_details.explanation: one sentence per category, so a language can name the category in its own words
    beside its code (Russian: «cyber (кибербезопасность)»)."""
    if category == "cyber":
        return words(lang, "The request falls under the '{category}' policy category.", context="cyber",
                     category=category)
    return words(lang, "The request falls under the '{category}' policy category.", context="bio", category=category)


def refusal(task: str, lang: str, cautious: bool = True) -> Reply | None:
    """A refusal when the task falls in a refused category (the trigger words above), else None.
    `cautious`: a model that refuses dual-use requests too."""
    patterns = [*CATEGORIES.items(), *(DUAL_USE.items() if cautious else ())]
    for category, pattern in patterns:
        if pattern.search(task):
            details = {
                "type": "refusal",
                "category": category,
                "explanation": _explanation(category, lang),
            }
            return Reply([], "refusal", stop_details=details)
    return None
