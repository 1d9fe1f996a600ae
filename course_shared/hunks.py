"""The lines of a unified diff's hunks, numbered the way GitLab numbers them.

One reading for the whole project: where the publisher puts an inline comment
(`course_agent.publish`), which positions the demo GitLab accepts, and how the simulated reviewer
reads a diff all walk a diff with `hunk_lines`.

It follows GitLab's own parser (`Gitlab::Diff::Parser`), not the hunk headers' line counts, so a
diff cut short or with a miscounted header is read as GitLab reads it:

- `@@ -a,b +c,d @@` starts a hunk at old line a and new line c (a missing count is 1);
- `+` is an added line (new number only), `-` a removed one (old number only), anything else a
  context line (both numbers), a blank line too: an editor may have stripped its leading space;
- `\\ No newline at end of file` is no line and moves no number, nor is a file-name line
  (`--- a/…`, `+++ b/…`, `/dev/null`), wherever it stands: GitLab's `filename?` skips them all;
- what comes before the first hunk (`diff --git`, a title, a description) is no line.
"""

import re
from dataclasses import dataclass

__all__ = ["FILE_NAME_LINES", "HUNK_HEADER", "Hunk", "HunkLine", "hunk_lines", "hunk_of", "hunks"]

HUNK_HEADER = re.compile(r"^@@ -(\d{1,9})(?:,(\d{1,9}))? \+(\d{1,9})(?:,(\d{1,9}))? @@")
"""Nine digits at most: a header from a hostile or broken diff cannot make a number Python chokes on."""
FILE_NAME_LINES = ("--- /dev/null", "+++ /dev/null", "--- a", "+++ b", "+++ a", "--- /tmp/diffy", "+++ /tmp/diffy")
"""The lines GitLab's parser takes for file names and skips (`Gitlab::Diff::Parser#filename?`)."""


@dataclass(frozen=True)
class Hunk:
    """A hunk's header: where it starts in each file and how many lines of each it covers."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int

    def new_span(self) -> tuple[int, int] | None:
        """The new file's lines it covers, (first, last); None when it only removes lines."""
        return (self.new_start, self.new_start + self.new_count - 1) if self.new_count else None


@dataclass(frozen=True)
class HunkLine:
    """One line of a hunk: `old` is None for an added line, `new` is None for a removed one."""

    kind: str
    """"+", "-" or " "."""
    old: int | None
    new: int | None
    text: str
    """The line without its marker."""


def hunk_of(line: str) -> Hunk | None:
    """The hunk a header line starts, or None when the line is no hunk header."""
    found = HUNK_HEADER.match(line)
    if found is None:
        return None
    return Hunk(int(found[1]), int(found[2] or 1), int(found[3]), int(found[4] or 1))


def _lines(diff: str) -> list[str]:
    """The diff's lines as Ruby's `each_line` gives them: split at newlines only (a form feed or
    U+2028 inside a line of code stays in it), no empty line after the last newline."""
    lines = diff.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def hunks(diff: str) -> list[Hunk]:
    """The headers of a diff's hunks, in order."""
    return [hunk for hunk in map(hunk_of, _lines(diff)) if hunk is not None]


def hunk_lines(diff: str | list[str]) -> list[HunkLine]:
    """The lines of a diff's hunks (text, or its lines already split), numbered as GitLab does."""
    lines = _lines(diff) if isinstance(diff, str) else diff
    found: list[HunkLine] = []
    old = new = None
    for text in lines:
        hunk = hunk_of(text)
        if hunk is not None:
            old, new = hunk.old_start, hunk.new_start
        elif old is None or new is None or text.startswith(("\\", *FILE_NAME_LINES)):
            continue
        elif text.startswith("+"):
            found.append(HunkLine("+", None, new, text[1:]))
            new += 1
        elif text.startswith("-"):
            found.append(HunkLine("-", old, None, text[1:]))
            old += 1
        else:
            found.append(HunkLine(" ", old, new, text[1:]))
            old, new = old + 1, new + 1
    return found
