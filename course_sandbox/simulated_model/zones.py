"""A date-time's offset from what the request or the schema states, never an invented one.

A request that names its time zone ("at 3:30 PM, Europe/Berlin time", "9:00 New York time", «по московскому
времени», "CET") gets that zone's offset for that day (summer time included): "2026-03-09T15:30:00+01:00". A
schema that states one ("in UTC", "Europe/Paris time") gives it the same way. With no zone stated, the time stays
local, without an offset, wherever the field's schema accepts that (an ISO 8601 date-time described in words); a
`format: date-time` field, which by RFC 3339 must carry an offset, keeps "Z".
"""

import datetime as dt
import re
import zoneinfo

from .schema_instance import is_valid

_IANA = re.compile(r"\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific|Indian)/[A-Z][A-Za-z_]+\b")
_UTC = re.compile(r"\b(?:UTC|GMT|Zulu)\b(?!\s*[+-]\d)|(?<!\w)по\s+(?:UTC|Гринвичу)|\bin\s+utc\b", re.I)
_OFFSET = re.compile(r"\b(?:UTC|GMT)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\b|"
                     r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?([+-]\d{2}:\d{2}|Z)(?![\w:])")
_ABBREVIATIONS = {"cet": "Europe/Berlin", "cest": "Europe/Berlin", "msk": "Europe/Moscow", "bst": "Europe/London",
                  "est": "America/New_York", "edt": "America/New_York", "cst": "America/Chicago",
                  "cdt": "America/Chicago", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles",
                  "jst": "Asia/Tokyo", "мск": "Europe/Moscow"}
_CITIES = {"berlin": "Europe/Berlin", "paris": "Europe/Paris", "london": "Europe/London", "moscow": "Europe/Moscow",
           "tokyo": "Asia/Tokyo", "new york": "America/New_York", "los angeles": "America/Los_Angeles",
           "chicago": "America/Chicago", "sydney": "Australia/Sydney", "madrid": "Europe/Madrid",
           "rome": "Europe/Rome", "pacific": "America/Los_Angeles", "eastern": "America/New_York",
           "central": "America/Chicago", "mountain": "America/Denver"}
_CITY_TIME = re.compile(r"\b(" + "|".join(_CITIES) + r")\s+(?:standard\s+)?time\b", re.I)
_RU_TIME = {"московск": "Europe/Moscow", "берлинск": "Europe/Berlin", "лондонск": "Europe/London",
            "парижск": "Europe/Paris", "токийск": "Asia/Tokyo"}
_RU_CITY_TIME = re.compile(r"(?<!\w)по\s+(" + "|".join(_RU_TIME) + r")\w*\s+времени", re.I)
_BARE = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})?$")


def stated_zone(text: str) -> str | None:
    """The zone a text states: an IANA name, "<city> time", an abbreviation, «по московскому времени», "UTC" (as
    "UTC"), an offset ("+03:00"); None when it states none."""
    m = _IANA.search(text) or _CITY_TIME.search(text)
    if m:
        return m.group(0) if "/" in m.group(0) else _CITIES[m.group(1).lower()]
    m = _RU_CITY_TIME.search(text)
    if m:
        return next(zone for start, zone in _RU_TIME.items() if m.group(1).lower().startswith(start))
    for word in re.findall(r"[A-Za-zА-Яа-я]{3,4}", text):
        if word.isupper() and word.lower() in _ABBREVIATIONS:
            return _ABBREVIATIONS[word.lower()]
    m = _OFFSET.search(text)
    if m:
        if m.group(4):
            return "UTC" if m.group(4) == "Z" else m.group(4)
        return f"{m.group(1)}{int(m.group(2)):02d}:{m.group(3) or '00'}"
    return "UTC" if _UTC.search(text) else None


def zoned(value: object, schema: dict, text: str) -> object:
    """The date-time with the offset the request (else the schema) states, else with none where the schema allows
    it; any other value as it is."""
    if not isinstance(value, str):
        return value
    m = _BARE.match(value)
    if not m:
        return value
    wall, offset = m.group(1), m.group(2)
    if offset not in (None, "Z") or (offset == "Z" and re.search(r"\d{2}:\d{2}(?::\d{2})?Z\b", text)):
        return value  # an offset the request wrote itself
    described = f"{schema.get('description') or ''} {schema.get('title') or ''}"
    zone = stated_zone(text) or stated_zone(described)
    if zone is not None:
        written = f"{wall}{_offset(zone, wall)}"
        return written if is_valid(schema, written) else value
    return wall if is_valid(schema, wall) else value


def _offset(zone: str, wall: str) -> str:
    if zone == "UTC":
        return "Z"
    if re.fullmatch(r"[+-]\d{2}:\d{2}", zone):
        return zone
    try:
        moment = dt.datetime.fromisoformat(wall).replace(tzinfo=zoneinfo.ZoneInfo(zone))
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return "Z"
    shift = moment.utcoffset() or dt.timedelta(0)
    minutes = int(shift.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
