"""Python function signatures in a diff, and calls in a file that no longer fit them:
how the simulated reviewer spots the lesson's stale caller."""

import re
from dataclasses import dataclass

from .diff_reading import FileDiff

_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\(([^\n]*)\)\s*(?:->[^:\n]*)?:\s*$")
_NUMBERED = re.compile(r"^\s*(\d{1,7})\s?[|:│]\s?(.*)$")
MAX_LINE = 2000
"""Longer lines (minified or generated code) are not read for signatures or calls."""


@dataclass
class Signature:
    name: str
    text: str
    positional: list[str]
    required: set[str]
    keyword_only: list[str]
    var_positional: bool
    var_keyword: bool

    def accepts(self, n_positional: int, keywords: list[str]) -> bool:
        if n_positional > len(self.positional) and not self.var_positional:
            return False
        bound = set(self.positional[:n_positional])
        allowed = set(self.positional[n_positional:]) | set(self.keyword_only)
        if any(k not in allowed for k in keywords) and not self.var_keyword:
            return False
        return self.required <= bound | set(keywords)


@dataclass
class SignatureChange:
    path: str
    line: int | None
    old: Signature
    new: Signature


@dataclass
class StaleCall:
    path: str
    line: int
    code: str
    change: SignatureChange


def split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def parse_signature(name: str, params: str) -> Signature:
    positional, required, keyword_only = [], set(), []
    var_positional = var_keyword = star_seen = False
    for param in split_top_level(params):
        if param == "/":
            continue
        if param == "*":
            star_seen = True
            continue
        if param.startswith("**"):
            var_keyword = True
            continue
        if param.startswith("*"):
            var_positional = star_seen = True
            continue
        pname = re.split(r"[:=]", param, maxsplit=1)[0].strip()
        if pname in ("self", "cls"):
            continue
        (keyword_only if star_seen else positional).append(pname)
        if "=" not in param:
            required.add(pname)
    return Signature(name, f"{name}({params})", positional, required, keyword_only, var_positional, var_keyword)


def changed_signatures(files: list[FileDiff]) -> list[SignatureChange]:
    """Functions whose parameters a diff changes."""
    changes = []
    for diff_file in files:
        removed, added = {}, {}
        for line in diff_file.lines:
            m = _DEF.match(line.text) if len(line.text) <= MAX_LINE else None
            if m and line.kind == "-":
                removed[m.group(1)] = parse_signature(m.group(1), m.group(2))
            elif m and line.kind == "+":
                added[m.group(1)] = (parse_signature(m.group(1), m.group(2)), line.new_no)
        for name, old in removed.items():
            if name in added and added[name][0].text != old.text:
                changes.append(SignatureChange(diff_file.path, added[name][1], old, added[name][0]))
    return changes


def numbered_lines(content: str) -> list[tuple[int, str]]:
    """A file's lines with their numbers; reads numbers the tool may have prefixed ("12| code")."""
    lines = content.splitlines()
    matches = [_NUMBERED.match(line) for line in lines]
    if lines and all(matches):
        return [(int(m.group(1)), m.group(2)) for m in matches if m]
    return list(enumerate(lines, start=1))


def stale_calls(path: str, content: str, change: SignatureChange) -> list[StaleCall]:
    """Calls of the changed function in a file that the new signature rejects."""
    lines = numbered_lines(content)
    call = re.compile(rf"(?<![\w.]){re.escape(change.new.name)}\s*\(|\.{re.escape(change.new.name)}\s*\(")
    found = []
    for index, (number, text) in enumerate(lines):
        if len(text) > MAX_LINE or re.match(r"\s*(async\s+)?def\s", text) or text.lstrip().startswith("#"):
            continue
        for m in call.finditer(text):
            rest = text[m.end():] + "\n" + "\n".join(t for _, t in lines[index + 1:index + 6])
            args = _call_args(rest)
            if args is None or any(a.startswith("*") for a in args):
                continue
            keywords = [a.split("=", 1)[0].strip() for a in args if re.match(r"^\w+\s*=(?!=)", a)]
            if not change.new.accepts(len(args) - len(keywords), keywords):
                found.append(StaleCall(path, number, text.strip(), change))
    return found


def _call_args(rest: str) -> list[str] | None:
    depth = 1
    for n, ch in enumerate(rest):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return split_top_level(rest[:n])
    return None
