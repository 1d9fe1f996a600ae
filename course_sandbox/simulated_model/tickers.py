"""Well-known companies by the name people call them, and their ticker: "How is Apple trading today?" asks about AAPL,
«Как там Сбер?» about SBER. A short, fixed table, so a learner can tell in advance what the model will send; a company
not in it is asked about, as before."""

import re

_TICKERS = {"apple": "AAPL", "microsoft": "MSFT", "google": "GOOGL", "alphabet": "GOOGL", "amazon": "AMZN",
            "tesla": "TSLA", "nvidia": "NVDA", "meta": "META", "facebook": "META", "netflix": "NFLX", "intel": "INTC",
            "ibm": "IBM", "amd": "AMD", "oracle": "ORCL", "adobe": "ADBE", "salesforce": "CRM", "coca-cola": "KO",
            "disney": "DIS", "boeing": "BA", "nike": "NKE", "visa": "V", "mastercard": "MA", "walmart": "WMT",
            "сбер": "SBER", "сбербанк": "SBER", "газпром": "GAZP", "яндекс": "YDEX", "лукойл": "LKOH",
            "роснефть": "ROSN", "норникель": "GMKN", "втб": "VTBR", "аэрофлот": "AFLT", "магнит": "MGNT"}
_RUSSIAN_CASES = r"(?:а|у|ом|е|ы|ой)?"


def ticker(text: str) -> str | None:
    """The ticker of the one well-known company the text names (by name, capitalised in English), else None."""
    found = set()
    for name, symbol in _TICKERS.items():
        if re.search(r"[а-яё]", name):
            if re.search(rf"(?<!\w){name}{_RUSSIAN_CASES}(?!\w)", text, re.I):
                found.add(symbol)
        elif re.search(rf"\b{re.escape(name.capitalize() if name not in ('ibm', 'amd') else name.upper())}\b"
                       r"(?!\s+(?:Music|Pay|Maps|Store|Watch|TV|Prime|Web Services))", text):
            found.add(symbol)
    return found.pop() if len(found) == 1 else None
