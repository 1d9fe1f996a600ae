"""Reading a diff the way a reviewer does, from whatever a learner's diff tool returns:
GitLab's JSON (`mr.changes()`), a list of change entries, or unified-diff text."""

import functools
import json
import re
from dataclasses import dataclass, field

from course_shared.hunks import HUNK_HEADER, hunk_lines

_FILE_HEADER = re.compile(r"^diff --git a/(.+?) b/(.+)$")
_NEW_PATH = re.compile(r"^\+\+\+ (?:b/)?(.+)$")
_TOO_LARGE = re.compile(r"too[ _]large|collapsed|слишком (велик|больш)|not shown|не показан", re.I)
_BRANCH = re.compile(r"source[_ ]branch[\"']?\s*[:=]\s*[\"']?([\w./-]+)", re.I)
_TITLE = re.compile(r"^(?:title|заголовок)\s*:\s*(.+)$", re.I | re.M)
_PATH_MENTION = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:py|js|ts|go|rb|java|toml|ya?ml|json|cfg|ini))\b")
_IMPORT = re.compile(r"^\s*from\s+([\w.]+)\s+import\b|^\s*import\s+([\w.]+)", re.M)


@dataclass
class Line:
    kind: str  # "+", "-" or " "
    text: str
    new_no: int | None


@dataclass
class FileDiff:
    path: str
    lines: list[Line] = field(default_factory=list)
    too_large: bool = False
    deleted: bool = False

    def count(self, kind: str) -> int:
        return sum(1 for line in self.lines if line.kind == kind)


@dataclass
class ChangeSet:
    files: list[FileDiff]
    text: str
    title: str = ""
    description: str = ""
    source_branch: str | None = None

    def paths(self) -> set[str]:
        return {f.path for f in self.files}

    def mentioned_paths(self) -> list[str]:
        """Files the change refers to (by path, or by an import it adds) without changing them."""
        prose = "\n".join(
            line for line in self.text.splitlines() if not line.startswith(("diff --git", "--- ", "+++ "))
        )
        found = [m.group(1) for m in _PATH_MENTION.finditer(prose)]
        added = "\n".join(line.text for f in self.files for line in f.lines if line.kind == "+")
        for m in _IMPORT.finditer(added):
            module = m.group(1) or m.group(2)
            if "." in module:
                found.append(module.replace(".", "/") + ".py")
        return [p for p in dict.fromkeys(found) if p not in self.paths()]


_MEMO_CHARS = 256 * 1024
"""Diffs up to this size are remembered (a few of them): the same tool result is read again on every
request of a conversation. Callers only read a ChangeSet, so one can be shared."""


def parse_changes(text: str) -> ChangeSet:
    """A ChangeSet from a diff tool's result, in any of the formats above."""
    return _remembered(text) if len(text) <= _MEMO_CHARS else _parsed(text)


def _parsed(text: str) -> ChangeSet:
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("changes"), list):
        changes = _from_entries(data["changes"], text)
        changes.title = str(data.get("title") or "")
        changes.description = str(data.get("description") or "")
        changes.source_branch = data.get("source_branch")
        return changes
    if isinstance(data, list) and all(isinstance(e, dict) for e in data):
        return _from_entries(data, text)
    return _from_text(text)


_remembered = functools.lru_cache(maxsize=16)(_parsed)


def _from_entries(entries: list[dict], text: str) -> ChangeSet:
    files = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        diff_file = FileDiff(str(entry.get("new_path") or entry.get("old_path") or "?"))
        diff_file.deleted = bool(entry.get("deleted_file"))
        diff = entry.get("diff") if isinstance(entry.get("diff"), str) else ""
        diff_file.too_large = bool(entry.get("too_large") or entry.get("collapsed")) or not diff
        _read_hunks(diff, diff_file)
        files.append(diff_file)
    branch = _BRANCH.search(text)
    return ChangeSet(files, text, source_branch=branch.group(1) if branch else None)


def _from_text(text: str) -> ChangeSet:
    files: list[tuple[FileDiff, list[str]]] = []
    preamble: list[str] = []
    for raw in text.splitlines():
        in_header = not files or not any(HUNK_HEADER.match(line) for line in files[-1][1])
        header = _FILE_HEADER.match(raw)
        new_path = _NEW_PATH.match(raw)
        if header:
            files.append((FileDiff(header.group(2)), []))
        elif new_path and in_header:
            if raw.startswith("+++ /dev/null"):
                if files:
                    files[-1][0].deleted = True
            elif not files or files[-1][1]:
                files.append((FileDiff(new_path.group(1)), []))
        elif raw.startswith("--- ") and in_header:
            continue
        elif not files:
            preamble.append(raw)
        elif in_header and _TOO_LARGE.search(raw):
            files[-1][0].too_large = True
        else:
            files[-1][1].append(raw)
    for diff_file, body in files:
        _read_hunks(body, diff_file)
    title = _TITLE.search("\n".join(preamble))
    branch = _BRANCH.search(text)
    return ChangeSet(
        [f for f, _ in files], text, title=title.group(1).strip() if title else "",
        description="\n".join(preamble).strip(), source_branch=branch.group(1) if branch else None,
    )


def _read_hunks(lines: str | list[str], diff_file: FileDiff) -> None:
    diff_file.lines.extend(Line(line.kind, line.text, line.new) for line in hunk_lines(lines))
