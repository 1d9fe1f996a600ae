"""Postal addresses written in a request, taken apart: "14 Rosenstrasse, 10178 Berlin, Germany",
"221 King Street, Toronto, M5H 1K5, Canada", «улица Ленина, 5, Казань, 420111, Россия» give a street, a city,
a postcode and a country, for an address object's fields (`address.street`, `address.city`…).

An address starts with a house number and a capitalised street name, with a street word («улица», "rue"), or with
a street's name before its kind word and number («Невский проспект, 28», "Baker Street 221b"),
and goes on while the parts after its commas are a city, a postcode or a country; a part in lower case
(". It weighs 3.2 kg") ends it.
"""

import re
from dataclasses import dataclass

_POSTCODE = re.compile(r"^(?:\d{4,6}|\d{5}-\d{4}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|"
                       r"[A-Z]{2} \d{5}(?:-\d{4})?)$")
_CAP = r"[A-ZА-ЯЁ][\w'’.-]*"
_PLACE_PART = re.compile(rf"^{_CAP}(?:[ -](?:(?:de|del|la|le|am|an|upon|on|sur)\s+)?{_CAP})*$")
_STREET_WORDS = r"(?:улица|ул\.|проспект|пр-т|переулок|пер\.|бульвар|б-р|шоссе|площадь|пл\.|набережная|наб\.|" \
                r"rue|calle|via|avenida|avenue)"
_NUMBER_FIRST = re.compile(rf"(?<![\w.,:/-])(\d{{1,5}}[A-Za-z]?),?\s+({_CAP}(?:\s+{_CAP}){{0,3}})")
_WORD_FIRST = re.compile(rf"(?<!\w)({_STREET_WORDS}\s+{_CAP}(?:\s+{_CAP}){{0,2}})(?:,?\s*(?:д\.\s*|дом\s+)?(\d{{1,"
                         rf"5}}[\w/]*))?",
                         re.I)
NAME_FIRST = re.compile(rf"(?<![\w.-])((?:{_CAP}\s+){{1,2}}(?:проспект|улица|переулок|бульвар|шоссе|площадь|"
                         r"набережная|Street|Road|Avenue|Lane|Boulevard|Drive|Way|Court|Place|Square|Terrace|Close|"
                         r"Crescent|Gardens|Row|Strasse|Straße))(?:,?\s*(?:д\.\s*|дом\s+)?(\d{1,5}[A-Za-zА-Яа-яЁё]?"
                         r"(?:/\d+)?))(?![\w/-])")
"""A street whose name comes before its kind word, and its number after: «Невский проспект, 28», "Baker Street 221b"."""
_STREETY = re.compile(r"(?:street|st\.?|road|rd\.?|avenue|ave\.?|lane|ln|boulevard|blvd|drive|dr\.?|way|court|"
                      r"place|square|terrace|parkway|highway|close|crescent|gardens|strasse|straße|str\.|weg|gasse|"
                      r"platz|allee|ring|laan|straat|gade|gatan|vej|rue|calle|via|avenida|улица|ул\.|проспект|"
                      r"переулок|бульвар|шоссе|площадь|набережная)(?!\w)", re.I)
_COUNTRIES = {"germany", "france", "canada", "usa", "united states", "united kingdom", "uk", "spain", "italy",
              "portugal", "netherlands", "belgium", "austria", "switzerland", "poland", "ireland", "japan", "china",
              "australia", "mexico", "brazil", "india", "sweden", "norway", "denmark", "finland", "россия",
              "германия", "франция", "казахстан", "беларусь", "украина", "russia"}


@dataclass(frozen=True)
class Address:
    text: str
    street: str
    city: str | None
    postcode: str | None
    country: str | None
    region: str | None


def read(text: str) -> list[Address]:
    """The addresses of a text in the order written, each taken apart."""
    found: list[tuple[int, Address]] = []
    for m in _NUMBER_FIRST.finditer(text):
        street = f"{m.group(1)} {m.group(2)}"
        address = _with_parts(text, m.start(), m.end(), street)
        if address:
            found.append((m.start(), address))
    for m in NAME_FIRST.finditer(text):
        street = f"{m.group(1)}{',' if ',' in text[m.end(1):m.start(2)] else ''} {m.group(2)}"
        address = _with_parts(text, m.start(), m.end(), street)
        if address:
            found.append((m.start(), address))
    for m in _WORD_FIRST.finditer(text):
        street = m.group(1) + (f", {m.group(2)}" if m.group(2) else "")
        address = _with_parts(text, m.start(), m.end(), street, numbered=bool(m.group(2)))
        if address:
            found.append((m.start(), address))
    found.sort(key=lambda pair: pair[0])
    kept: list[Address] = []
    end = -1
    for start, address in found:
        if start >= end:
            kept.append(address)
            end = start + len(address.text)
    return kept


def _with_parts(text: str, start: int, end: int, street: str, numbered: bool = True) -> Address | None:
    """The address whose street ends at `end`, with the parts its commas add; None when nothing follows that
    makes it an address (a street alone, "12 Apples" is a count)."""
    city = postcode = country = region = None
    position = end
    parts = 0
    before = _CITY_BEFORE.search(text[max(0, start - 60):start])
    if before:  # «город Казань, улица Баумана, дом 12»: the city written first, with its word
        city, start = before.group(1), start - (len(text[max(0, start - 60):start]) - before.start())
    while True:
        m = re.match(r",\s*([^,;!?\n]+?)(?=\s*(?:[,;!?\n]|\.(?:\s|$)|$))", text[position:])
        if not m:
            break
        part = m.group(1).strip()
        labelled = _LABELLED_PART.match(part)
        if labelled and labelled.lastgroup == "house" and not numbered:
            street, numbered = f"{street}, {part}", True
        elif labelled and labelled.lastgroup == "city" and city is None:
            city = labelled.group("city")
        elif labelled and labelled.lastgroup == "postcode" and postcode is None:
            postcode = labelled.group("postcode")
        elif labelled and labelled.lastgroup == "flat":
            street = f"{street}, {part}"
        elif "." in part and not labelled:
            break  # ". It weighs 3.2 kg": the sentence ended
        elif part.rstrip(".").lower() in _COUNTRIES and country is None:
            country = part.rstrip(".")
        elif _POSTCODE.match(part) and postcode is None:
            state_zip = re.fullmatch(r"([A-Z]{2}) (\d{5}(?:-\d{4})?)", part)
            region, postcode = (state_zip.group(1), state_zip.group(2)) if state_zip else (region, part)
        elif (pc := re.match(r"^(\d{4,6})\s+(.+)$", part)) and postcode is None and _PLACE_PART.match(pc.group(2)):
            postcode, city = pc.group(1), city or pc.group(2)
        elif (cp := re.match(r"^(.+?)\s+([A-Z]{2})?\s*(\d{5}(?:-\d{4})?)$", part)) and postcode is None \
                and _PLACE_PART.match(cp.group(1)):
            city, region, postcode = city or cp.group(1), cp.group(2), cp.group(3)
        elif (cu := re.match(r"^(.+?)\s+([A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d)$", part)) \
                and postcode is None and _PLACE_PART.match(cu.group(1)):
            city, postcode = city or cu.group(1), cu.group(2)  # "Manchester M3 3JE", "Toronto M5H 1K5"
        elif re.fullmatch(r"[A-Z]{2}", part) and city and region is None:
            region = part
        elif _PLACE_PART.match(part) and city is None:
            city = part
        elif _PLACE_PART.match(part) and country is None and city is not None:
            country = part
        else:
            break
        parts += 1
        position += m.end()
    if parts == 0 or (city is None and postcode is None) or not numbered and city is None:
        return None
    if postcode is None and country is None and not _STREETY.search(street):
        return None  # "12 Apples, Pears": a count and a list, no address
    return Address(text[start:position].strip(), street, city, postcode, country, region)


_CITY_BEFORE = re.compile(rf"(?<!\w)(?:город|г\.)\s*({_CAP}(?:[ -]{_CAP})*),\s*$")
_LABELLED_PART = re.compile(rf"^(?:(?:город|г\.)\s*(?P<city>{_CAP}(?:[ -]{_CAP})*)|"
                            r"(?:дом|д\.)\s*(?P<house>\d{1,5}[\w/]*)|"
                            r"(?:кв\.|квартира|офис)\s*(?P<flat>\d{1,5}\w*)|"
                            r"(?:почтовый\s+)?(?:индекс|index|zip|postcode)\s*(?P<postcode>\d{4,6}))$", re.I)
"""A part of a Russian address written with its word: «город Казань», «дом 12», «кв. 5», «индекс 420111»."""
_PART_OF = [("street", re.compile(r"^(?:street(?:_?(?:line|name))?\d?|address_?line_?1|line_?1|address1|"
                                  r"street1|улица)$")),
            ("city", re.compile(r"^(?:city|town|locality|город)$")),
            ("postcode", re.compile(r"^(?:post(?:al)?_?code|zip(?:_?code)?|postcode|индекс)$")),
            ("country", re.compile(r"^(?:country(?:_?name)?|страна)$")),
            ("region", re.compile(r"^(?:state|region|province|область|регион)$"))]


def part_of(name: str) -> str | None:
    """Which part of an address a property names: `street`, `city`, `postcode` (`zip`, `postal_code`), `country`,
    `region` (`state`); else None."""
    spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).lower().replace("-", "_").replace(" ", "_")
    return next((part for part, pattern in _PART_OF if pattern.match(spoken)), None)
