"""A string that matches a regular expression (a `pattern` in a tool's schema), built by walking
the parsed pattern and always taking the first choice: deterministic, and readable enough."""

import re
from re import _constants as c  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]

_CATEGORY = {
    c.CATEGORY_DIGIT: "0", c.CATEGORY_NOT_DIGIT: "a", c.CATEGORY_WORD: "a", c.CATEGORY_NOT_WORD: "-",
    c.CATEGORY_SPACE: " ", c.CATEGORY_NOT_SPACE: "a", c.CATEGORY_LINEBREAK: "\n", c.CATEGORY_NOT_LINEBREAK: "a",
}
_SPARE = "aA0_ -.x@"
MAX_REPEAT = 64


def regex_example(pattern: str, grow: int = 0) -> str | None:
    """A match of the pattern, with each repetition taken `grow` more times than its minimum.

    None when the pattern cannot be parsed or uses what this walker does not follow
    (back-references); the caller then validates and tries something else.
    """
    try:
        parsed = _parser.parse(pattern)
        text = _emit(list(parsed), grow)
        return text if re.search(pattern, text) else None
    except (re.error, ValueError, RecursionError, _Unsupported):
        return None


class _Unsupported(Exception):
    pass


def _emit(items: list, grow: int) -> str:
    out: list[str] = []
    for op, av in items:
        if op is c.LITERAL:
            out.append(chr(av))
        elif op is c.NOT_LITERAL:
            out.append("a" if av != ord("a") else "b")
        elif op is c.ANY:
            out.append("a")
        elif op is c.IN:
            out.append(_one_of(av))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            count = low + grow if high is c.MAXREPEAT else min(high, low + grow)
            out.extend(_emit(list(sub), grow) for _ in range(min(count, max(low, MAX_REPEAT))))
        elif op is c.SUBPATTERN:
            out.append(_emit(list(av[-1]), grow))
        elif op is getattr(c, "ATOMIC_GROUP", None):
            out.append(_emit(list(av), grow))
        elif op is c.BRANCH:
            out.append(_emit(list(av[1][0]), grow))
        elif op is c.CATEGORY:
            out.append(_CATEGORY.get(av, "a"))
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        else:
            raise _Unsupported(str(op))
    return "".join(out)


def _one_of(items: list) -> str:
    """The first character of a [class]; for a negated class, a common character outside it."""
    if items and items[0][0] is c.NEGATE:
        for char in _SPARE:
            if not _in_class(items[1:], char):
                return char
        raise _Unsupported("negated class")
    op, av = items[0]
    if op is c.LITERAL:
        return chr(av)
    if op is c.RANGE:
        return chr(av[0])
    if op is c.CATEGORY:
        return _CATEGORY.get(av, "a")
    raise _Unsupported(str(op))


def _in_class(items: list, char: str) -> bool:
    code = ord(char)
    for op, av in items:
        if op is c.LITERAL and av == code:
            return True
        if op is c.RANGE and av[0] <= code <= av[1]:
            return True
        if op is c.CATEGORY and re.fullmatch(_category_regex(av), char):
            return True
    return False


def _category_regex(category: object) -> str:
    return {c.CATEGORY_DIGIT: r"\d", c.CATEGORY_NOT_DIGIT: r"\D", c.CATEGORY_WORD: r"\w",
            c.CATEGORY_NOT_WORD: r"\W", c.CATEGORY_SPACE: r"\s", c.CATEGORY_NOT_SPACE: r"\S"}.get(category, r"\w")
