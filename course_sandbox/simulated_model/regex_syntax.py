"""A small reader of regular expressions (the syntax of a `pattern` in a tool's JSON Schema),
written here so the sandbox can reason about a learner's pattern without running it.

Python's `re` holds the interpreter lock while it matches, and a pattern like `(a+)+$` can
backtrack for hours on a 40-character string: one such match stops every thread of the sandbox.
From the tree read here the sandbox knows, before any match, how costly a pattern can be
(`safe_length`), how short its matches are (`min_length`), and a string that matches it
(regex_example). Anything this reader does not follow (back-references, conditionals, verbose
mode) makes the pattern `Unreadable`, and such a pattern is never run on anything long.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

MATCH_STEPS = 2_000_000
"""Backtracking steps one match may take in the worst case (about 20 ms of `re`)."""
MAX_CHECKED_LENGTH = 20_000
"""No string longer than this is matched against a learner's pattern."""

_CLASS_ESCAPES = {"d": "0", "D": "a", "w": "a", "W": "-", "s": " ", "S": "a"}
_ESCAPE_SETS = {"d": frozenset("0123456789"), "s": frozenset(" \t\n\r\f\v")}
"""The members of \\d and \\s (ASCII: what matters is whether they meet another set); \\w is too broad."""
_SPARE = "aA0_ -.x@#"
_FLAGS = "aiLmsux-"
_CHAR_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "0": "\0"}
_ZERO_WIDTH_ESCAPES = set("bBAZz")


class Unreadable(Exception):
    """The pattern uses syntax this reader does not follow (or is not a pattern at all)."""


@dataclass
class Node:
    """One piece of a pattern. kind: char (chars: the characters it may be, None for any; negated),
    seq, alt, repeat (low, high; high None for unbounded), look (a lookaround), anchor."""

    kind: str
    children: list["Node"] = field(default_factory=list)
    chars: frozenset[str] | None = None
    negated: bool = False
    example: str = "a"
    low: int = 1
    high: int | None = 1


def parse(pattern: str) -> Node:
    """The pattern's tree; Unreadable when it uses what this reader does not follow."""
    reader = _Reader(pattern)
    try:
        node = reader.alternation()
    except (IndexError, RecursionError, ValueError):
        raise Unreadable(pattern) from None
    if reader.pos != len(pattern):
        raise Unreadable(pattern)
    return node


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.ignore_case = False

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def take(self) -> str:
        char = self.text[self.pos]
        self.pos += 1
        return char

    def alternation(self) -> Node:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.pos += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else Node("alt", branches)

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.pos < len(self.text) and self.peek() not in "|)":
            atom = self.atom()
            items.append(self.quantified(atom))
        return Node("seq", items)

    def atom(self) -> Node:
        char = self.take()
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        if char == ".":
            return self.char(None, "a")
        if char in "^$":
            return Node("anchor")
        if char == "\\":
            return self.escape()
        if char in "*+?":
            raise Unreadable("nothing to repeat")
        return self.char(frozenset(char), char)

    def group(self) -> Node:
        kind = "seq"
        if self.peek() == "?":
            self.pos += 1
            head = self.take()
            if head == ":" or head == ">":
                pass
            elif head in "=!":
                kind = "look"
            elif head == "<" and self.peek() in ("=", "!"):
                self.pos += 1
                kind = "look"
            elif head in "P<" and (head == "<" or self.peek() == "<"):
                self.pos += head == "P"
                end = self.text.index(">", self.pos)
                self.pos = end + 1
            elif head in _FLAGS:  # inline flags, (?i) or (?i:...)
                flags = head
                while self.peek() not in (":", ")"):
                    flags += self.take()
                if "x" in flags or not set(flags) <= set(_FLAGS):  # verbose mode, or (?P=name)...
                    raise Unreadable(f"(?{flags}")
                self.ignore_case = self.ignore_case or "i" in flags.partition("-")[0]
                if self.take() == ")":
                    return Node("seq")
            else:
                raise Unreadable(f"(?{head}")
        inner = self.alternation()
        if self.take() != ")":
            raise Unreadable("unclosed group")
        return Node(kind, [inner])

    def char(self, chars: frozenset[str] | None, example: str, negated: bool = False) -> Node:
        """A one-character node; under case-insensitive matching its set is not known exactly."""
        return Node("char", chars=None if self.ignore_case else chars, negated=negated, example=example)

    def escape(self) -> Node:
        char = self.take()
        if char in _CLASS_ESCAPES:
            return self.char(_ESCAPE_SETS.get(char), _CLASS_ESCAPES[char], negated=char.isupper())
        if char in _ZERO_WIDTH_ESCAPES:
            return Node("anchor")
        literal = self.escaped_char(char)
        return self.char(frozenset(literal), literal)

    def escaped_char(self, char: str) -> str:
        if char in _CHAR_ESCAPES:
            return _CHAR_ESCAPES[char]
        if char in "xuU":
            digits = {"x": 2, "u": 4, "U": 8}[char]
            code = self.text[self.pos:self.pos + digits]
            self.pos += digits
            if len(code) != digits:
                raise Unreadable("short escape")
            return chr(int(code, 16))
        if char.isalnum():  # back-references (\1, \k<name>), \N{...} and the like
            raise Unreadable(f"\\{char}")
        return char

    def char_class(self) -> Node:
        """A [class]: its members when they are few and known, and an example checked by `re`
        against the class alone (one character, no repetition: instant)."""
        start = self.pos - 1
        negated = self.peek() == "^"
        self.pos += negated
        members: list[str] = []
        escaped: frozenset[str] = frozenset()  # all of \\d or \\s, when the class holds them
        broad = negated
        first = True
        while first or self.peek() != "]":
            first = False
            char = self.take()
            if char == "\\":
                char = self.take()
                if char in _CLASS_ESCAPES:
                    members.append(_CLASS_ESCAPES[char])
                    known = _ESCAPE_SETS.get(char)
                    broad = broad or known is None or char.isupper()
                    escaped |= known or frozenset()
                    continue
                char = self.escaped_char(char)
            if self.peek() == "-" and self.text[self.pos + 1] != "]":
                self.pos += 1
                end = self.take()
                end = self.escaped_char(self.take()) if end == "\\" else end
                if ord(end) < ord(char):
                    raise Unreadable("bad range")
                broad = broad or ord(end) - ord(char) > 256
                members += [chr(c) for c in range(ord(char), min(ord(end), ord(char) + 256) + 1)]
            else:
                members.append(char)
        self.pos += 1
        source = self.text[start:self.pos]
        flags = re.IGNORECASE if self.ignore_case else 0
        candidates = [] if negated else members  # the first member written is the example, as a reader expects
        example = next((c for c in [*candidates, *_SPARE] if re.fullmatch(source, c, flags)), None)
        if example is None:
            raise Unreadable("a class nothing here matches")
        return self.char(None if broad else frozenset(members) | escaped, example, negated)

    def quantified(self, atom: Node) -> Node:
        bounds = self.bounds()
        if bounds is None:
            return atom
        if atom.kind in ("anchor", "look"):
            raise Unreadable("repeated assertion")
        if self.peek() in ("?", "+"):  # lazy or possessive: the same strings match
            self.pos += 1
        if self.bounds() is not None:
            raise Unreadable("multiple repeat")
        low, high = bounds
        return Node("repeat", [atom], low=low, high=high)

    def bounds(self) -> tuple[int, int | None] | None:
        char = self.peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            return {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
        if char != "{":
            return None
        end = self.text.find("}", self.pos)
        body = self.text[self.pos + 1:end] if end > 0 else ""
        low_text, comma, high_text = body.partition(",")
        if not (low_text.isdigit() or (comma and not low_text)) or not (high_text.isdigit() or not high_text) \
                or not (low_text or high_text):
            return None  # `{` that opens no repetition is a literal, as in `re`
        self.pos = end + 1
        low = int(low_text or 0)
        high = int(high_text) if high_text else (None if comma else low)
        if high is not None and high < low:
            raise Unreadable("min repeat greater than max repeat")
        return low, high


def min_length(node: Node) -> int:
    """The length of the shortest string the node can match."""
    if node.kind == "char":
        return 1
    if node.kind == "seq":
        return sum(min_length(c) for c in node.children)
    if node.kind == "alt":
        return min(min_length(c) for c in node.children)
    if node.kind == "repeat":
        return node.low * min_length(node.children[0])
    return 0


def safe_length(pattern: str) -> int:
    """The longest string `re.search(pattern, s)` may be run on: its worst-case backtracking,
    about n to the power of (variable repetitions + 1) times the pattern's width, stays under
    MATCH_STEPS. 0 for a pattern with nested or ambiguous repetition (`(a+)+`, `(a|a)*`), or one
    this reader cannot follow."""
    try:
        tree = parse(pattern)
    except Unreadable:
        return 0
    if _ambiguous(tree, repeated=False):
        return 0
    degree = _variable_repeats(tree) + (0 if _anchored(tree) else 1)
    if degree == 0:
        return MAX_CHECKED_LENGTH
    return min(MAX_CHECKED_LENGTH, int((MATCH_STEPS / _width(tree)) ** (1 / degree)))


def _width(node: Node) -> int:
    """Roughly the steps one attempt at one position takes, besides the variable repetitions
    (`(?:a{1000}|b{1000})` tries 2000 characters at every start); at least 1, at most MATCH_STEPS."""
    if node.kind == "char":
        return 1
    if node.kind == "repeat":
        own = node.high if node.high is not None else max(node.low, 1)
        return min(MATCH_STEPS, own * _width(node.children[0]))
    return min(MATCH_STEPS, max(1, sum(_width(c) for c in node.children)))


def _variable_repeats(node: Node) -> int:
    own = node.kind == "repeat" and node.high != node.low
    return own + sum(_variable_repeats(c) for c in node.children)


def _anchored(node: Node) -> bool:
    """Whether the pattern can only match at the start (`^...`): then `re` tries one position, not n."""
    first = node.children[0] if node.kind == "seq" and node.children else None
    return first is not None and first.kind == "anchor"


def _ambiguous(node: Node, repeated: bool) -> bool:
    """Inside a repetition: another variable repetition, or branches that can start alike."""
    if node.kind == "repeat":
        many = node.high is None or node.high > 1
        if repeated and node.high != node.low:
            return True
        if many and _delimited(node.children[0]):
            return _ambiguous(node.children[0], False)
        return _ambiguous(node.children[0], repeated or many)
    if node.kind == "alt" and repeated and _overlapping([_first_chars(c) for c in node.children]):
        return True
    return any(_ambiguous(c, repeated) for c in node.children)


def _items(node: Node) -> list[Node]:
    """A sequence's pieces, groups opened: `(-(x))` is `-`, `x`."""
    if node.kind != "seq":
        return [node]
    return [item for child in node.children for item in _items(child)]


def _delimited(body: Node) -> bool:
    """Whether each round of a repetition starts with a character nothing inside it repeats
    (`(-[a-z0-9]+)*`): then a string splits into rounds one way only."""
    items = _items(body)
    head = items[0] if items else None
    if head is None or head.kind != "char" or head.chars is None or head.negated:
        return False
    rest = _consumed(Node("seq", items[1:]))
    return rest is not None and not head.chars & rest


def _consumed(node: Node) -> frozenset[str] | None:
    """Every character the node can take (None: too many to list)."""
    if node.kind == "char":
        return None if node.chars is None or node.negated else node.chars
    return _union(_consumed(c) for c in node.children)


def _union(sets: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """All the characters of the sets, or None when one of them is not known."""
    found: set[str] = set()
    for chars in sets:
        if chars is None:
            return None
        found |= chars
    return frozenset(found)


def _first_chars(node: Node) -> frozenset[str] | None:
    """The characters a match of the node can start with (None: any, or not known)."""
    if node.kind == "char":
        return None if node.chars is None or node.negated or len(node.chars) > 64 else node.chars
    if node.kind == "seq":
        found: set[str] = set()
        for child in node.children:
            chars = _first_chars(child)
            if chars is None:
                return None
            found |= chars
            if min_length(child) > 0:
                return frozenset(found)
        return None  # the sequence can match nothing: it starts like whatever follows
    if node.kind == "alt":
        return _union(_first_chars(c) for c in node.children)
    if node.kind == "repeat" and node.low > 0:
        return _first_chars(node.children[0])
    return None


def _overlapping(starts: list[frozenset[str] | None]) -> bool:
    seen: set[str] = set()
    for chars in starts:
        if chars is None or chars & seen:
            return True
        seen |= chars
    return False
