"""No block of six or more lines is written twice in course_agent (issue #26): a learner reads this
package and copies from it, so one piece of logic lives in one place. Read with tokenize, as the
`duplicates` tool does: each logical line reduced to its shape (names, strings and numbers made
alike), comments and docstrings left out; two places whose six consecutive lines have the same shape
are one pair. Imports do not count, nor six lines of fewer than four shapes (a dataclass's fields,
a row of constants), nor a shape that stands in many places (argparse options): those are patterns
of the language, not copies."""

import io
import tokenize
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [ROOT / "course_agent", ROOT / "course_selfcheck"]  # what a learner reads, and the self-check beside it
MIN_LINES = 6
TOO_COMMON = 8
"""A six-line shape found in more places than this is a pattern of the language, not a copy."""
MIN_SHAPES = 4
"""Six lines of fewer shapes (fields, constants, one call after another) are a list, not logic."""
_FSTRING = {getattr(tokenize, name) for name in ("FSTRING_START", "FSTRING_END") if hasattr(tokenize, name)}
"""Python 3.12 splits an f-string into tokens: its start and end stand for the whole string."""
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT,
         tokenize.NEWLINE, getattr(tokenize, "FSTRING_MIDDLE", -1)}
_KEYWORDS = {"and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
             "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
             "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "None", "True", "False"}


def _token_shape(token: tokenize.TokenInfo) -> str:
    if token.type == tokenize.NAME:
        return token.string if token.string in _KEYWORDS else "N"
    if token.type == tokenize.STRING or token.type in _FSTRING:
        return "S"
    if token.type == tokenize.NUMBER:
        return "0"
    return token.string


def shapes(source: str) -> list[tuple[int, str]]:
    """(first line number, shape) of each logical line that is code: no docstring, no import."""
    lines, current, start = [], [], 0
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NEWLINE:
            shape = " ".join(current)
            if shape not in ("", "S") and not shape.startswith(("import ", "from ")):
                lines.append((start, shape))
            current = []
        elif token.type not in _SKIP:
            if not current:
                start = token.start[0]
            current.append(_token_shape(token))
    return lines


def duplicated_blocks(files: dict[str, str], min_lines: int = MIN_LINES) -> list[tuple[str, str]]:
    """Pairs of places ("path:line") that share `min_lines` logical lines of the same shape. Runs that
    overlap themselves in one file (a shape repeated line after line) do not count."""
    places: dict[tuple[str, ...], list[tuple[str, int]]] = defaultdict(list)
    for path, source in files.items():
        lines = shapes(source)
        for i in range(len(lines) - min_lines + 1):
            window = tuple(shape for _, shape in lines[i:i + min_lines])
            if len(set(window)) >= MIN_SHAPES:
                places[window].append((path, lines[i][0]))
    pairs, seen = [], set()
    for where in places.values():
        if len(where) < 2 or len({path for path, _ in where}) == 1 and _overlapping(where, min_lines) \
                or len(where) > TOO_COMMON:
            continue
        first, second = where[0], where[1]
        key = (first[0], second[0])
        if key not in seen:  # one row per pair of files is enough to go and look
            seen.add(key)
            pairs.append((f"{first[0]}:{first[1]}", f"{second[0]}:{second[1]}"))
    return pairs


def _overlapping(where: list[tuple[str, int]], min_lines: int) -> bool:
    lines = sorted(line for _, line in where)
    return all(b - a < min_lines for a, b in zip(lines, lines[1:]))


LEARNER_TEXTS = (ROOT / "course_agent" / "solutions" / "cells", ROOT / "course_agent" / "solutions" / "ru")
"""Not the package's logic but text a learner reads as a notebook cell: the loop exercises' reference solutions,
each whole at its notebook's level (exercise 7's is exercise 6's grown, as the learner's own is, issue #39), and
given.py, the notebooks' own cells they run on; and the Russian twins of the references, the same code in the
Russian learner's words (#36). tests/test_my_code.py and tests/test_loop_exercises.py hold them to their twins."""


def _package_sources() -> dict[str, str]:
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
            for package in PACKAGES for path in sorted(package.rglob("*.py")) if not any(text in path.parents for text in LEARNER_TEXTS)}


PLANTED = '''
def total(rows):
    """Sum what each row costs."""
    result = 0
    for row in rows:
        if row.kind == "input":
            result += row.tokens * 3
        else:
            result += row.tokens
    return result
'''
RENAMED = '''
def weight(items):
    # Same logic with other names, strings and numbers.
    acc = 0
    for item in items:
        if item.sort == "output":
            acc += item.grams * 15
        else:
            acc += item.grams
    return acc
'''


def test_the_detector_finds_a_planted_pair_with_other_names() -> None:
    pairs = duplicated_blocks({"a.py": PLANTED, "b.py": RENAMED, "c.py": "x = 1\n"})
    assert pairs == [("a.py:2", "b.py:2")]


def test_the_detector_ignores_shorter_runs_and_docstrings() -> None:
    five = "\n".join(PLANTED.splitlines()[:-3]) + "\n"  # the def, its docstring and four lines of code
    assert duplicated_blocks({"a.py": five, "b.py": five.replace("rows", "items")}) == []
    docstring = 'def f():\n    """' + "\n".join(["same words"] * 10) + '"""\n    return 1\n'
    assert duplicated_blocks({"a.py": docstring, "b.py": docstring.replace("return 1", "return [2]")}) == []


def test_the_detector_finds_a_pair_inside_one_file() -> None:
    assert duplicated_blocks({"a.py": PLANTED + "\n\n" + RENAMED}) == [("a.py:2", "a.py:14")]


def test_no_block_of_six_lines_is_written_twice_in_the_package() -> None:
    pairs = duplicated_blocks(_package_sources())
    if pairs:
        pytest.fail("blocks of six or more lines of the same shape, written twice (make one serve both):\n"
                    + "\n".join(f"  {a}  ~  {b}" for a, b in pairs))
