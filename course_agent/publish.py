"""Posting a review so that running it again updates it, instead of adding a second one.

The agent decides what to say; this module decides where it goes. With `idempotent=True`
(what `course-agent review --post` uses) every note it writes ends with a hidden marker, an
HTML comment GitLab does not show:

    <!-- course-agent-review -->                          the summary note (post_comment)
    <!-- course-agent-review:inline shop/tax.py:11 -->    an inline discussion (comment_on_line), per path:line

Publishing looks for the token's own note with the same marker and edits it (or leaves it when
the text is the same); only when there is none does it create one. After a run that posted its
summary, `finish()` removes the run's own inline discussions that this run did not report again
(or resolves them, when someone has replied: any reply without a marker, even one written with the
same account). Notes without a marker, or by someone else, are
never touched. Without `idempotent`, notes are created as they come, with no marker (the notebooks).

Where an inline comment sits is the file's diff's business (`diff_line_position`): GitLab addresses
an added line by its new number, an unchanged one by both numbers, and a renamed file by both paths.
"""

import re
from dataclasses import dataclass
from urllib.parse import quote

import gitlab

from course_shared.hunks import hunk_lines, hunks

SUMMARY_MARKER = "<!-- course-agent-review -->"
INLINE_MARKER = "<!-- course-agent-review:inline {key} -->"
_INLINE = re.compile(r"<!-- course-agent-review:inline (\S+) -->\s*\Z")
_ANY_MARKER = re.compile(r"\s*<!-- course-agent-review(?::inline \S*)? -->")
_ENDS_WITH_MARKER = re.compile(r"<!-- course-agent-review(?::inline \S*)? -->\s*\Z")
# A note is ours when a marker ENDS it, as _marked() writes it: a person's quote-reply ("> ..."), even one
# written with the same account, carries the marker in the middle and is never taken for ours.


def diff_line_position(diff_text: str, line: int) -> dict | None:
    """Where GitLab finds `line` of the new file in this file's diff (a change's `diff`):
    {"new_line": line} for an added line, {"old_line": o, "new_line": line} for an unchanged
    (context) line, None for a line outside every hunk.

    Why: GitLab looks for the one diff line whose (old_line, new_line) pair is exactly the
    position's (`Gitlab::Diff::File#line_for_position`). An unchanged line has both numbers, so
    new_line alone names nothing and GitLab answers 400 "line_code can't be blank". The model counts
    lines in the new file only; this finds the old number that goes with it. (A removed line has no
    number in the new file, so it is never named.)"""
    where = next((found for found in hunk_lines(diff_text) if found.new == line), None)
    if where is None:
        return None
    return {"new_line": line} if where.old is None else {"old_line": where.old, "new_line": line}


def diff_new_lines(diff_text: str) -> list[tuple[int, int]]:
    """The new file's lines each hunk covers, (first, last), from the hunk headers."""
    return [span for span in (hunk.new_span() for hunk in hunks(diff_text)) if span]


def change_of(changes: list[dict], path: str) -> dict | None:
    """The change (an entry of `mr.changes()["changes"]`) of `path`: its new path, or else its old one."""
    return (next((c for c in changes if c.get("new_path") == path), None)
            or next((c for c in changes if c.get("old_path") == path), None))


def inline_key(path: str, line: int) -> str:
    """The place of an inline comment, as its marker writes it (no spaces, no `-->` inside)."""
    return f"{quote(path, safe='/._-')}:{line}"


@dataclass(frozen=True)
class Posted:
    note_id: int
    action: str
    """"created", "updated", or "unchanged" (the earlier note already said this)."""


class ReviewPublisher:
    """Writes a review's notes on merge requests through python-gitlab (GitlabError passes through)."""

    def __init__(self, gl: gitlab.Gitlab, idempotent: bool = False) -> None:
        self._gl = gl
        self.idempotent = idempotent
        self.reported: dict[int, set[str]] = {}
        """Per merge request (iid): the places of the inline comments this run posted."""
        self.summarized: set[int] = set()
        """Merge requests (iid) whose summary this run posted."""
        self._me: int | None | bool = False

    # ------------------------------------------------------------ what the tools call
    def summary(self, mr, body: str) -> Posted:
        """The review's summary note: the earlier one edited, or a new one."""
        posted = self._summary(mr, body)
        self.summarized.add(mr.iid)  # only once it is there: finish() must not clean up after a failed post
        return posted

    def _summary(self, mr, body: str) -> Posted:
        if not self.idempotent:
            return Posted(mr.notes.create({"body": body}).id, "created")
        text = _marked(body, SUMMARY_MARKER)
        own = [n for n in mr.notes.list(get_all=True, sort="asc", order_by="created_at")
               if self._own(n.attributes) and (n.attributes.get("body") or "").rstrip().endswith(SUMMARY_MARKER)]
        if not own:
            return Posted(mr.notes.create({"body": text}).id, "created")
        for extra in own[1:]:  # a second summary of ours (an interrupted run, a race): one is enough
            mr.notes.delete(extra.id)
        return self._edit(own[0].attributes, text, lambda: mr.notes.update(own[0].id, {"body": text}))

    def inline(self, mr, path: str, line: int, body: str, changes: list[dict] | None = None) -> Posted:
        """An inline comment at path:line (new file's numbering): the earlier one there edited, or a new
        discussion. `changes` is `mr.changes()["changes"]` when the caller has it (else fetched here)."""
        key = inline_key(path, line)
        self.reported.setdefault(mr.iid, set()).add(key)
        text = _marked(body, INLINE_MARKER.format(key=key)) if self.idempotent else body
        if self.idempotent:
            earlier = next(((d, notes[0]) for d, notes, found in self._own_inline(mr) if found == key), None)
            if earlier is not None:
                discussion, note = earlier
                return self._edit(note, text, lambda: mr.discussions.get(discussion, lazy=True).notes.update(
                    note["id"], {"body": text}))
        change = change_of(mr.changes()["changes"] if changes is None else changes, path) or {}
        # a line outside the diff keeps new_line alone: GitLab's 400 says so, and the tool explains it
        lines = diff_line_position(change.get("diff") or "", line) or {"new_line": line}
        refs = mr.diff_refs or {}
        position = {"position_type": "text", "base_sha": refs.get("base_sha"), "start_sha": refs.get("start_sha"),
                    "head_sha": refs.get("head_sha"), "old_path": change.get("old_path", path),
                    "new_path": change.get("new_path", path), **lines}
        discussion = mr.discussions.create({"body": text, "position": position})
        notes = discussion.attributes.get("notes") or [{}]
        return Posted(notes[0].get("id", 0), "created")

    def finish(self, mr) -> list[str]:
        """After a run that posted its summary on `mr`: remove (or resolve, when someone replied: a note
        without our marker, whoever's account wrote it) our own inline discussions this run did not
        report. Returns the places cleaned up."""
        if not self.idempotent or mr.iid not in self.summarized:
            return []
        reported = self.reported.get(mr.iid, set())
        cleaned = []
        for discussion, notes, key in self._own_inline(mr):
            if key in reported:
                continue
            # Only notes we wrote carry a marker. A reply without one is a person's, even one written with the
            # same account (someone who runs the command with their own token and answers in the web page):
            # it is never deleted, the discussion is resolved instead.
            if all(self._own(n) and _ENDS_WITH_MARKER.search(n.get("body") or "") for n in notes):
                for note in reversed(notes):  # replies first, the discussion's first note last
                    mr.discussions.get(discussion, lazy=True).notes.delete(note["id"])
            elif notes[0].get("resolved"):
                continue  # resolved already (by an earlier run, or by someone), kept for its replies
            else:
                mr.discussions.update(discussion, {"resolved": True})
            cleaned.append(key)
        return cleaned

    # ------------------------------------------------------------ finding our own notes
    def _own_inline(self, mr) -> list[tuple[str, list[dict], str]]:
        """(discussion id, its notes, place) of each of our inline discussions on `mr`: the first note
        is ours and carries an inline marker."""
        found = []
        for discussion in mr.discussions.list(get_all=True):
            notes = discussion.attributes.get("notes") or []
            marker = _INLINE.search(notes[0].get("body") or "") if notes else None
            if marker and self._own(notes[0]):
                found.append((discussion.id, notes, marker.group(1)))
        return found

    def _own(self, note: dict) -> bool:
        """Written by this token's user (when GitLab says who that is), not by GitLab itself."""
        me = self._user_id()
        author = (note.get("author") or {}).get("id")
        return not note.get("system") and (me is None or author == me)

    def _user_id(self) -> int | None:
        if self._me is False:
            try:
                self._gl.auth()
                self._me = getattr(self._gl.user, "id", None)
            except gitlab.GitlabError:
                self._me = None  # a token that may not read /user: the marker alone says it is ours
        return self._me  # type: ignore[return-value]

    @staticmethod
    def _edit(note: dict, text: str, update) -> Posted:
        if (note.get("body") or "") == text:
            return Posted(note["id"], "unchanged")
        update()
        return Posted(note["id"], "updated")


def _marked(body: str, marker: str) -> str:
    """The body without any marker someone put in it, then ours at the end."""
    return _ANY_MARKER.sub("", body).rstrip() + "\n\n" + marker
