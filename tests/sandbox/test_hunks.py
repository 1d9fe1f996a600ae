"""The one reading of a diff's hunks (`course_shared.hunks`), shared by the publisher, the demo GitLab's
positions and the simulated reviewer, checked against difflib's own hunks and GitLab's parser rules."""

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from course_shared.hunks import Hunk, HunkLine, hunk_lines, hunks
from course_agent.publish import diff_line_position, diff_new_lines
from course_sandbox.demo_gitlab.positions import DiffLine, diff_lines

TEXTS = ["a", "b", "c", "", " x", "-x", "+x", "@@ x", "\\ x", "x\x0cy", "x\u2028y", "x\r"]
"""Lines of code, some that look like diff syntax once a marker is put before them."""
files = st.lists(st.sampled_from(TEXTS), max_size=25)


def unified(old: list[str], new: list[str], context: int) -> str:
    return "".join(line if line.endswith("\n") else line + "\n"
                   for line in difflib.unified_diff([t + "\n" for t in old], [t + "\n" for t in new],
                                                    "a/f.py", "b/f.py", n=context))


def text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def difflib_pairs(old: list[str], new: list[str], context: int) -> list[HunkLine]:
    """The oracle: each hunk line difflib writes, from its opcodes, with both files' numbers."""
    found = []
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(context):
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                found += [HunkLine(" ", i + 1, j + 1, old[i]) for i, j in zip(range(i1, i2), range(j1, j2))]
                continue
            found += [HunkLine("-", i + 1, None, old[i]) for i in range(i1, i2)]
            found += [HunkLine("+", None, j + 1, new[j]) for j in range(j1, j2)]
    return found


@settings(max_examples=300, deadline=None)
@given(old=files, new=files, context=st.integers(0, 4))
def test_every_hunk_line_is_numbered_as_difflib_wrote_it(old, new, context):
    diff = unified(old, new, context)
    assert hunk_lines(diff) == difflib_pairs(old, new, context)
    assert diff_lines(diff) == [DiffLine(line.old, line.new) for line in hunk_lines(diff)]
    for line in hunk_lines(diff):
        if line.new is not None:
            expected = {"new_line": line.new} if line.kind == "+" else {"old_line": line.old, "new_line": line.new}
            assert diff_line_position(diff, line.new) == expected
    covered = {line.new for line in hunk_lines(diff) if line.new is not None}
    assert {n for first, last in diff_new_lines(diff) for n in range(first, last + 1)} == covered


@settings(max_examples=200, deadline=None)
@given(old=files, new=files, context=st.integers(0, 3), data=st.data())
def test_what_gitlab_reads_past_changes_nothing(old, new, context, data):
    """A blank context line that lost its space, '\\ No newline' markers and a preamble before the first hunk."""
    lines = unified(old, new, context).split("\n")[2:-1]  # without difflib's file names
    plain = hunk_lines(text(lines))
    stripped = ["" if line == " " else line for line in lines]
    marked = [m for line in lines for m in ([line, "\\ No newline at end of file"] if data.draw(st.booleans())
                                             else [line])]
    preamble = ["Title: fix", "diff --git a/f.py b/f.py", "index 1..2 100644", "--- a/f.py", "+++ b/f.py"]
    assert hunk_lines(text(stripped)) == plain
    assert hunk_lines(text(marked)) == plain
    assert hunk_lines(text(preamble + lines)) == plain
    assert hunk_lines(lines) == plain  # lines already split read the same


def test_gitlab_skips_file_name_lines_even_inside_a_hunk():
    """`Gitlab::Diff::Parser#filename?`: a removed line `-- a…` is written `--- a…` and GitLab skips it."""
    diff = "@@ -1,3 +1,2 @@\n keep\n--- a comment\n-gone\n+new\n"
    assert hunk_lines(diff) == [HunkLine(" ", 1, 1, "keep"), HunkLine("-", 2, None, "gone"),
                                HunkLine("+", None, 2, "new")]


def test_headers_counts_and_odd_input():
    assert hunks("@@ -3 +4,0 @@\n-x\n@@ -10,2 +9,3 @@ def f():\n") == [Hunk(3, 1, 4, 0), Hunk(10, 2, 9, 3)]
    assert [h.new_span() for h in hunks("@@ -3 +4,0 @@\n@@ -1 +1 @@")] == [None, (1, 1)]
    assert hunk_lines("") == hunk_lines("no diff here\n+not in a hunk") == []
    assert hunk_lines("@@ -1 +1 @@\n-a\n+b") == [HunkLine("-", 1, None, "a"), HunkLine("+", None, 1, "b")]
    huge = "@@ -1" + "0" * 5000 + " +1 @@\n+a\n"  # no header: Python would refuse to read the number
    assert hunk_lines(huge) == []
