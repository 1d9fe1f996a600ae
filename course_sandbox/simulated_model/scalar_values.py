"""Scalar values for schema_instance: strings (formats, patterns, lengths) and numbers (bounds,
exclusive bounds, multipleOf), computed with fractions so that bounds and grids are exact.

Each candidate goes through `valid` (jsonschema) before it is returned: the first that passes wins.
"""

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from .regex_example import regex_example

MISSING: Any = object()
"""No hint: the words offer nothing for this value."""
Valid = Callable[[dict, Any], bool]
"""Whether a value passes a (scalar) schema; schema_instance passes its cached jsonschema check."""

FORMAT_EXAMPLES = {
    "email": "user@example.com", "idn-email": "user@example.com",
    "date": "2025-01-15", "date-time": "2025-01-15T09:00:00Z", "time": "09:00:00Z", "duration": "P1D",
    "uri": "https://example.com/", "iri": "https://example.com/", "uri-reference": "https://example.com/",
    "iri-reference": "https://example.com/", "url": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000", "hostname": "example.com", "idn-hostname": "example.com",
    "ipv4": "192.0.2.1", "ipv6": "2001:db8::1", "json-pointer": "/a", "relative-json-pointer": "0",
    "regex": ".*", "uri-template": "https://example.com/{id}",
}


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)


def string_value(schema: dict, hinted: Any, name: str, variant: int, valid: Valid) -> str:
    """A string for the schema: the hint, the default, an example, the format's example, a match of
    the pattern, a placeholder named after the property; the first that fits the constraints."""
    fmt = schema.get("format")
    pattern = schema.get("pattern") if isinstance(schema.get("pattern"), str) else None
    low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    candidates: list[str] = []
    if hinted is not MISSING and not isinstance(hinted, (dict, list)):
        candidates.append(hinted if isinstance(hinted, str) else _scalar_text(hinted))
    default = schema.get("default")
    if isinstance(default, str) and variant == 0:
        candidates.append(default)
    examples = schema.get("examples")
    if isinstance(examples, list):
        candidates += [e for e in examples if isinstance(e, str)]
    if isinstance(fmt, str) and fmt in FORMAT_EXAMPLES:
        candidates.append(_format_example(fmt, variant))
    if pattern:
        for grow in range(variant, variant + max(low, 1) + 3):
            example = regex_example(pattern, grow)
            if example is not None:
                candidates.append(example)
    placeholder = _placeholder(name) + (f"-{variant + 1}" if variant else "")
    candidates.append(placeholder)
    string_schema = {k: schema[k] for k in ("type", "format", "pattern", "minLength", "maxLength") if k in schema}
    for candidate in candidates:
        for fitted in (candidate, _fit_length(candidate, low, high)):
            if valid(string_schema, fitted):
                return fitted
    return _fit_length(candidates[0], low, high)


def _scalar_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _fit_length(text: str, low: int, high: int | None) -> str:
    if high is not None and len(text) > high:
        text = text[:high].rstrip() if high else ""
        text = text if len(text) >= low else text.ljust(low, "x")
    if len(text) < low:
        text = text + "x" * (low - len(text))
    return text


def _placeholder(name: str) -> str:
    words = re.sub(r"[^A-Za-z0-9]+", " ", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)).strip().lower()
    return f"example {words}" if words else "example"


def _format_example(fmt: str, variant: int) -> str:
    example = FORMAT_EXAMPLES[fmt]
    if not variant:
        return example
    if fmt in ("email", "idn-email"):
        return f"user{variant + 1}@example.com"
    if fmt == "date":
        return f"2025-01-{(15 + variant) % 28 + 1:02d}"
    if fmt == "date-time":
        return f"2025-01-{(15 + variant) % 28 + 1:02d}T09:00:00Z"
    if fmt == "uuid":
        return f"00000000-0000-4000-8000-{variant:012d}"
    if fmt in ("uri", "iri", "url", "uri-reference", "iri-reference"):
        return f"https://example.com/{variant}"
    if fmt in ("hostname", "idn-hostname"):
        return f"host{variant}.example.com"
    if fmt == "ipv4":
        return f"192.0.2.{variant % 250 + 1}"
    return example


def number_value(schema: dict, hinted: Any, integer: bool, variant: int, valid: Valid) -> int | float:
    """A number for the schema: near the hint (or default, or 0), inside the bounds, on the multipleOf grid."""
    low, low_strict = _bound(schema, "minimum", "exclusiveMinimum")
    high, high_strict = _bound(schema, "maximum", "exclusiveMaximum")
    step = _step(schema.get("multipleOf"), integer)
    targets: list[Fraction] = []
    if is_number(hinted):
        targets.append(Fraction(str(hinted)) if isinstance(hinted, float) else Fraction(hinted))
    default = schema.get("default")
    if is_number(default):
        targets.append(Fraction(str(default)) if isinstance(default, float) else Fraction(default))
    targets.append(Fraction(0))
    number_schema = {k: schema[k] for k in ("type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                                           "multipleOf") if k in schema}
    first: int | float | None = None
    for target in targets:
        for candidate in _number_candidates(target, low, low_strict, high, high_strict, step, integer, variant):
            value = _as_json_number(candidate, integer)
            first = value if first is None else first
            if valid(number_schema, value):
                return value
    return first if first is not None else 0


def _bound(schema: dict, inclusive: str, exclusive: str) -> tuple[Fraction | None, bool]:
    """A bound and whether it is strict, in draft 2020-12 (a number) or draft 4 (a boolean) form."""
    value = schema.get(inclusive)
    strict_value = schema.get(exclusive)
    bound = Fraction(str(value)) if is_number(value) else None
    if isinstance(strict_value, bool):
        return bound, strict_value and bound is not None
    if is_number(strict_value):
        strict = Fraction(str(strict_value))
        if bound is None or (strict >= bound if inclusive == "minimum" else strict <= bound):
            return strict, True
    return bound, False


def _step(multiple: Any, integer: bool) -> Fraction | None:
    if not is_number(multiple) or multiple <= 0:
        return Fraction(1) if integer else None
    step = Fraction(str(multiple))
    return Fraction(step.numerator) if integer else step


def _number_candidates(target: Fraction, low: Fraction | None, low_strict: bool, high: Fraction | None,
                       high_strict: bool, step: Fraction | None, integer: bool, variant: int) -> list[Fraction]:
    """Values near the target inside the bounds, on the multipleOf grid, shifted by the variant."""
    unit = step or Fraction(1)
    if low is not None and (target < low or (low_strict and target <= low)):
        target = low if step else (low + high) / 2 if low_strict and high is not None else low + low_strict
    if high is not None and (target > high or (high_strict and target >= high)):
        target = high if step else (low + high) / 2 if high_strict and low is not None else high - high_strict
    base = target
    target += variant * unit
    if high is not None and target > high:
        target -= 2 * variant * unit
    if not step:
        return [target, base]
    k = math.ceil(target / step)
    return [j * step for j in (k, math.floor(target / step), k + 1, k - 1, k + 2)] + \
        [j * step for j in range(k + 3, k + 12)]


def _as_json_number(value: Fraction, integer: bool) -> int | float:
    if value.denominator == 1:
        return int(value)
    return float(value)
