"""A string that matches a regular expression (a `pattern` in a tool's schema), built by walking
the pattern's tree (regex_syntax) and always taking the first choice: deterministic, and
readable enough. Bounded: no example is longer than MAX_EXAMPLE_LENGTH, and the check that it
matches runs only when the pattern cannot backtrack for long on it."""

import functools
import re

from .generation_bounds import checkable_length
from .regex_syntax import Node, Unreadable, min_length, parse

MAX_REPEAT = 64
"""An unbounded repetition (`+`, `*`, `{2,}`) is taken at most this many times beyond its minimum."""
MAX_EXAMPLE_LENGTH = 20_000
"""Longer examples are not built (`a{1000000}` gets None, not a megabyte of `a`)."""


class _TooLong(Exception):
    pass


def regex_example(pattern: str, grow: int = 0) -> str | None:
    """A match of the pattern, with each repetition taken `grow` more times than its minimum.

    None when the pattern cannot be read (back-references...), its shortest match is too long,
    or the example cannot be checked against it quickly; the caller then tries something else.
    """
    limit = min(MAX_EXAMPLE_LENGTH, checkable_length(pattern))  # longer, it could not be checked
    tree = _tree(pattern) if limit else None
    if tree is None or min_length(tree) > limit:
        return None
    try:
        text = _emit(tree, grow, [limit])
    except (_TooLong, RecursionError):
        return None
    try:
        return text if re.search(pattern, text) else None
    except re.error:
        return None


@functools.lru_cache(maxsize=256)
def _tree(pattern: str) -> Node | None:
    """The pattern read once (string_value asks for many examples of one pattern); None if unreadable.
    Only patterns checkable_length accepts get here, so none is longer than MAX_PATTERN_LENGTH."""
    try:
        return parse(pattern)
    except (Unreadable, RecursionError):
        return None


def _emit(node: Node, grow: int, room: list[int]) -> str:
    """The node's first-choice match; `room` counts down the characters it may still take."""
    if node.kind == "char":
        room[0] -= 1
        if room[0] < 0:
            raise _TooLong()
        return node.example
    if node.kind == "seq":
        return "".join(_emit(child, grow, room) for child in node.children)
    if node.kind == "alt":
        return _emit(node.children[0], grow, room)
    if node.kind == "repeat":
        count = node.low + grow if node.high is None else min(node.high, node.low + grow)
        count = min(count, max(node.low, MAX_REPEAT))
        return "".join(_emit(node.children[0], grow, room) for _ in range(count))
    return ""  # anchors and lookarounds take no characters
