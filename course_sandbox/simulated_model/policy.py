"""The simulated model's refusals: requests in a refused category end with stop_reason
`refusal` and `stop_details`, and there is nothing to retry."""

import re

from .reply import Reply, say

CATEGORIES = {
    "cyber": re.compile(r"ransomware|keylogger|malware|write an exploit|вымогател|вредонос|кейлоггер|эксплойт", re.I),
    "bio": re.compile(r"bioweapon|weaponi[sz]e a pathogen|биооруж|патоген", re.I),
}


def refusal(task: str, lang: str) -> Reply | None:
    """A refusal when the task falls in a refused category (the trigger words above), else None."""
    for category, pattern in CATEGORIES.items():
        if pattern.search(task):
            details = {
                "type": "refusal",
                "category": category,
                "explanation": say(lang, f"The request falls under the '{category}' policy category.",
                                   f"Запрос относится к категории политики '{category}'."),
            }
            return Reply([], "refusal", stop_details=details)
    return None
