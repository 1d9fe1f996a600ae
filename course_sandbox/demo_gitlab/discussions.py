"""Notes and discussions (threads) of a merge request, kept the way GitLab keeps them.

Every note belongs to a discussion: a plain note from the Notes API is an individual-note
discussion of one note (`type: null`, not resolvable), a thread from the Discussions API holds
`DiscussionNote`s, and an inline thread holds `DiffNote`s with a `position`. Replying to a plain
note turns it into a thread, as in GitLab. Discussion ids are 40 hex digits (sha1 of a counter)
and times come from the project's clock, so every run gives the same answers.
"""

import hashlib
import threading
from dataclasses import dataclass, field

from .clock import Clock
from .errors import GitLabError, bad_request, not_found
from .users import user

RESOLVABLE_TYPES = ("DiscussionNote", "DiffNote")


@dataclass
class Note:
    id: int
    body: str
    author: str
    created_at: str
    updated_at: str
    type: str | None
    discussion_id: str
    position: dict | None = None
    resolved_by: str | None = None
    resolved_at: str | None = None
    commit_id: str | None = None
    """Set for a note on a commit (commits do not support resolvable notes)."""

    @property
    def resolvable(self) -> bool:
        return self.type in RESOLVABLE_TYPES and self.commit_id is None

    def view(self, project_id: int, iid: int | None) -> dict:
        """Entities::Note: `resolved*` only for resolvable notes, `position` only for DiffNotes; a
        commit's note has no noteable id or iid (`iid` None)."""
        on_mr = self.commit_id is None
        data = {
            "id": self.id, "type": self.type, "body": self.body, "attachment": None, "author": user(self.author),
            "created_at": self.created_at, "updated_at": self.updated_at, "system": False,
            "noteable_id": 1000 + iid if on_mr else None, "noteable_type": "MergeRequest" if on_mr else "Commit",
            "noteable_iid": iid if on_mr else None,
            "project_id": project_id, "resolvable": self.resolvable, "confidential": False, "internal": False,
            "imported": False, "imported_from": "none", "commands_changes": {},
        }
        if self.type == "DiffNote" and on_mr:
            data["commit_id"] = None
            data["position"] = dict(self.position or {})
        if self.resolvable:
            data.update(resolved=self.resolved_by is not None,
                        resolved_by=user(self.resolved_by) if self.resolved_by else None,
                        resolved_at=self.resolved_at)
        return data


@dataclass
class Discussion:
    id: str
    individual_note: bool
    notes: list[Note] = field(default_factory=list)

    def view(self, project_id: int, iid: int | None) -> dict:
        return {"id": self.id, "individual_note": self.individual_note,
                "notes": [note.view(project_id, iid) for note in self.notes]}


class NoteStore:
    """Creates, finds and changes notes; one per demo project, so ids never repeat in it."""

    def __init__(self, clock: Clock, first_note_id: int = 5001) -> None:
        self.clock = clock
        self._next_note_id = first_note_id
        self._next_discussion = 1
        self.lock = threading.RLock()

    def _discussion_id(self) -> str:
        discussion_id = hashlib.sha1(f"course/shop discussion {self._next_discussion}".encode()).hexdigest()
        self._next_discussion += 1
        return discussion_id

    def _note(self, body: str, author: str, note_type: str | None, discussion_id: str,
              position: dict | None = None, commit_id: str | None = None) -> Note:
        now = self.clock.tick()
        note = Note(self._next_note_id, body, author, now, now, note_type, discussion_id, position,
                    commit_id=commit_id)
        self._next_note_id += 1
        return note

    def start(self, discussions: list[Discussion], body: str, author: str, *, individual: bool = False,
              position: dict | None = None, commit_id: str | None = None,
              note_type: str | None = None) -> Discussion:
        """A new discussion: a plain note, a thread, or (with a position) an inline thread; `note_type`
        only for a commit comment on a line (a LegacyDiffNote)."""
        with self.lock:
            discussion = Discussion(self._discussion_id(), individual)
            note_type = note_type or (None if individual else ("DiffNote" if position else "DiscussionNote"))
            discussion.notes.append(self._note(body, author, note_type, discussion.id, position, commit_id))
            discussions.append(discussion)
        return discussion

    @staticmethod
    def find(discussions: list[Discussion], discussion_id: str) -> Discussion:
        for discussion in discussions:
            if discussion.id == discussion_id:
                return discussion
        raise not_found("Discussion Not Found")

    @staticmethod
    def note(discussions: list[Discussion], note_id: int) -> Note:
        """A note of the merge request, whatever its discussion (as GitLab's `notes.find`)."""
        for discussion in discussions:
            for note in discussion.notes:
                if note.id == note_id:
                    return note
        raise not_found()

    def reply(self, discussions: list[Discussion], discussion_id: str, body: str, author: str) -> Note:
        with self.lock:
            discussion = self.find(discussions, discussion_id)
            if discussion.individual_note:  # GitLab converts a plain note into a thread on reply
                discussion.individual_note = False
                for note in discussion.notes:
                    note.type = "DiscussionNote"
            note_type = "DiffNote" if discussion.notes[0].type == "DiffNote" else "DiscussionNote"
            position = discussion.notes[0].position
            resolvable = [note for note in discussion.notes if note.resolvable]
            note = self._note(body, author, note_type, discussion.id, position, discussion.notes[0].commit_id)
            if resolvable and all(n.resolved_by for n in resolvable):  # Notes::BuildService: `should_resolve`
                self._set_resolved(note, True, author, note.created_at)
            discussion.notes.append(note)
        return note

    def resolve(self, discussions: list[Discussion], discussion_id: str, resolved: bool, by: str) -> Discussion:
        with self.lock:
            discussion = self.find(discussions, discussion_id)
            if not any(note.resolvable for note in discussion.notes):
                raise GitLabError(403, {"message": "403 Forbidden"})
            now = self.clock.tick()
            for note in discussion.notes:
                if note.resolvable:
                    self._set_resolved(note, resolved, by, now)
        return discussion

    def resolve_note(self, note: Note, resolved: bool, by: str) -> Note:
        with self.lock:
            if not note.resolvable:
                raise bad_request("Note is not resolvable")
            now = self.clock.tick()
            if self._set_resolved(note, resolved, by, now):  # Note#resolve! saves it: updated_at moves
                note.updated_at = now
        return note

    @staticmethod
    def _set_resolved(note: Note, resolved: bool, by: str, now: str) -> bool:
        """Whether the note changed. A whole discussion is resolved with `update_all` in GitLab
        (ResolvableNote.resolve!), so there its notes keep their `updated_at`."""
        if resolved and note.resolved_by is None:
            note.resolved_by, note.resolved_at = by, now
            return True
        if not resolved and note.resolved_by is not None:
            note.resolved_by = note.resolved_at = None
            return True
        return False

    def edit(self, note: Note, body: str) -> Note:
        with self.lock:
            note.body, note.updated_at = body, self.clock.tick()
        return note

    def delete(self, discussions: list[Discussion], note: Note) -> None:
        """Removes the note; a discussion left without notes is gone too."""
        with self.lock:
            for discussion in list(discussions):
                if note in discussion.notes:
                    discussion.notes.remove(note)
                    if not discussion.notes:
                        discussions.remove(discussion)
