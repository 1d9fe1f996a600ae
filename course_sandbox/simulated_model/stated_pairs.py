"""Key: value pairs a request states, for a tool whose input schema names no properties and allows any ("print all
characteristics"): "The car is red, has 4 doors and costs $20,000" gives {"color": "red", "doors": 4, "price":
20000, "currency": "USD"}. Each value read once (binding.mentions), under a plain key for what it is; nothing is
made up, so a text that states nothing gives {}."""

import re
from typing import Any

from . import binding

_COLOURS = ("red", "blue", "green", "black", "white", "grey", "gray", "silver", "yellow", "orange", "purple",
            "brown", "pink", "gold", "beige", "красный", "синий", "зелёный", "зеленый", "чёрный", "черный", "белый",
            "серый", "серебристый", "жёлтый", "желтый")
_PLAIN = {"date": "date", "datetime": "datetime", "time": "time", "email": "email", "phone": "phone", "url": "url",
          "postcode": "postcode", "address": "address"}


def pairs(text: str) -> dict[str, Any]:
    """The pairs the text states (see the module's docstring), in the order written."""
    out: dict[str, Any] = {}
    for m in binding.mentions(text):
        if m.kind == "money":
            out.setdefault("price", m.value)
            if m.unit:
                out.setdefault("currency", m.unit)
        elif m.kind == "quantity" and m.unit and re.fullmatch(r"[a-zа-яё]+", str(m.unit), re.I):
            out.setdefault(str(m.unit).lower(), m.value)  # "4 doors": doors 4; "5 km": km 5
        elif m.kind in _PLAIN:
            out.setdefault(_PLAIN[m.kind], m.value)
        elif m.kind == "proper":
            out.setdefault("name", m.value)
    colour = next((c for c in _COLOURS if re.search(rf"(?<!\w){c}(?!\w)", text, re.I)), None)
    if colour:
        out.setdefault("color", colour)
    return out
