"""Notes API and Discussions API of a merge request (docs.gitlab.com/api/notes/,
docs.gitlab.com/api/discussions/): comments, threads, inline threads, replies, resolving.

The discussion routes serve a commit's threads too (`repository/commits/:sha/discussions`):
a handler works on a `Noteable`, a merge request or a commit, whichever the path names.
"""

from collections.abc import Callable
from dataclasses import dataclass

from werkzeug.wrappers import Response

from .discussions import Discussion, Note
from .errors import bad_request, invalid, not_found
from .positions import check_position, parse_position
from .project import PROJECT_ID, MergeRequest
from .repository_views import commit_diffs, resolve_commit
from .routing import Call, json_response, no_content, route
from .users import CURRENT_USER


def _body(call: Call, required: bool = True) -> str | None:
    """`body` as Grape checks it; a blank body is the note model's error, as in GitLab."""
    body = call.params().get("body")
    if body is None:
        if required:
            raise invalid("body", "is missing")
        return None
    if isinstance(body, (int, float)) and not isinstance(body, bool):
        body = str(body)
    if not isinstance(body, str):
        raise invalid("body")
    if not body.strip():
        raise bad_request('Note {:note=>["can\'t be blank"]}')
    return body


@dataclass
class Noteable:
    """What notes hang on: a merge request (`iid`) or a commit (`commit_id`)."""

    discussions: list[Discussion]
    iid: int | None
    commit_id: str | None
    diff_refs: Callable[[], dict]
    changes: Callable[[], list[dict]]
    touch: Callable[[list[Note]], None]

    def view(self, item: Note | Discussion) -> dict:
        return item.view(PROJECT_ID, self.iid)


def _noteable(call: Call) -> Noteable:
    """The merge request or commit the path names; an unknown commit is `404 Commit Not Found`."""
    if "sha" not in call.args:
        mr = _mr(call)
        return Noteable(mr.discussions, mr.spec.iid, None, lambda: call.project.diff_refs(mr),
                        lambda: call.project.changes(mr), lambda notes: _touch(mr, notes))
    repository = call.project.repository
    sha = resolve_commit(repository, call.args["sha"])
    parent = (repository.commit_info(sha)["parent_ids"] or [None])[0]
    return Noteable(call.project.commit_discussions.setdefault(sha, []), None, sha,
                    lambda: {"base_sha": parent, "start_sha": parent, "head_sha": sha},
                    lambda: commit_diffs(repository, sha), lambda notes: None)


def _note_view(mr: MergeRequest, note: Note) -> dict:
    return note.view(PROJECT_ID, mr.spec.iid)


def _touch(mr: MergeRequest, notes: list[Note]) -> None:
    """Saving a note touches its merge request (`after_save :touch_noteable` in GitLab's note.rb)."""
    mr.updated_at = max([mr.updated_at, *(note.updated_at for note in notes)])


def _mr(call: Call) -> MergeRequest:
    return call.project.get(call.iid())


def _note(call: Call, mr: MergeRequest) -> Note:
    return call.project.notes.note(mr.discussions, call.int_arg("note_id"))


# Notes API
def list_notes(call: Call) -> Response:
    """GitLab's default is newest first (`sort=desc`, `order_by=created_at`), ties by id."""
    mr = _mr(call)
    order_by = call.choice("order_by", ("created_at", "updated_at"), "created_at")
    sort = call.choice("sort", ("asc", "desc"), "desc")
    notes = sorted(mr.note_objects(), key=lambda n: (getattr(n, order_by), n.id), reverse=sort == "desc")
    return call.paginated([_note_view(mr, note) for note in notes])


def create_note(call: Call) -> Response:
    mr = _mr(call)
    body = _body(call)
    view = call.project.add_note(mr, body, CURRENT_USER)
    _touch(mr, [call.project.notes.note(mr.discussions, view["id"])])
    return json_response(view, 201)


def edit_note(call: Call) -> Response:
    mr = _mr(call)
    note = _note(call, mr)
    body = call.params().get("body")
    if isinstance(body, str) and not body.strip():
        raise invalid("body", "is empty")
    if body is not None:
        _touch(mr, [call.project.notes.edit(note, _body(call))])
    return json_response(_note_view(mr, note))


# Discussions API (merge requests and commits)
def _noteable_note(call: Call, noteable: Noteable) -> Note:
    """A note of the noteable, whatever its discussion (as GitLab's `notes.find`)."""
    return call.project.notes.note(noteable.discussions, call.int_arg("note_id"))


def list_discussions(call: Call) -> Response:
    noteable = _noteable(call)
    return call.paginated([noteable.view(d) for d in noteable.discussions])


def get_discussion(call: Call) -> Response:
    noteable = _noteable(call)
    return json_response(noteable.view(call.project.notes.find(noteable.discussions, call.args["discussion_id"])))


def create_discussion(call: Call) -> Response:
    """A thread; with `position`, an inline thread on a line of the merge request's (or commit's) diff."""
    noteable = _noteable(call)
    body = _body(call)
    position = call.params().get("position")
    if position is not None:
        position = check_position(parse_position(position), noteable.diff_refs(), noteable.changes())
    discussion = call.project.notes.start(noteable.discussions, body, CURRENT_USER, position=position,
                                          commit_id=noteable.commit_id)
    noteable.touch(discussion.notes)
    return json_response(noteable.view(discussion), 201)


def resolve_discussion(call: Call) -> Response:
    mr = _mr(call)
    resolved = call.flag("resolved")
    if resolved is None:
        raise invalid("resolved", "is missing")
    discussion = call.project.notes.resolve(mr.discussions, call.args["discussion_id"], resolved, CURRENT_USER)
    return json_response(discussion.view(PROJECT_ID, mr.spec.iid))


def discussion_notes(call: Call) -> Response:
    """An unknown discussion has no notes: GitLab's `not_found!("Notes")` (lib/api/discussions.rb)."""
    noteable = _noteable(call)
    notes = next((d.notes for d in noteable.discussions if d.id == call.args["discussion_id"]), [])
    if not notes:
        raise not_found("Notes Not Found")
    return json_response([noteable.view(note) for note in notes])


def reply(call: Call) -> Response:
    noteable = _noteable(call)
    body = _body(call)
    note = call.project.notes.reply(noteable.discussions, call.args["discussion_id"], body, CURRENT_USER)
    noteable.touch([note])
    return json_response(noteable.view(note), 201)


def get_note(call: Call) -> Response:
    noteable = _noteable(call)
    return json_response(noteable.view(_noteable_note(call, noteable)))


def edit_discussion_note(call: Call) -> Response:
    """Exactly one of `body` (edit) and `resolved` (resolve this note)."""
    noteable = _noteable(call)
    params = call.params()
    given = [key for key in ("body", "resolved") if params.get(key) is not None]
    if not given:
        raise invalid("body, resolved", "are missing, exactly one parameter must be provided")
    if len(given) == 2:
        raise invalid("body, resolved", "are mutually exclusive")
    resolved = call.flag("resolved")  # Grape checks the parameters before the note is looked up
    note = _noteable_note(call, noteable)
    if given == ["body"]:
        call.project.notes.edit(note, _body(call))
    else:
        call.project.notes.resolve_note(note, resolved, CURRENT_USER)
    noteable.touch([note])
    return json_response(noteable.view(note))


def delete_note(call: Call) -> Response:
    noteable = _noteable(call)
    note = _noteable_note(call, noteable)
    call.project.notes.delete(noteable.discussions, note)
    call.project.awards.forget("Note", note.id)
    return no_content()


_DISCUSSION_ROUTES = [
    ("GET", "discussions", list_discussions),
    ("POST", "discussions", create_discussion),
    ("GET", "discussions/:discussion_id", get_discussion),
    ("GET", "discussions/:discussion_id/notes", discussion_notes),
    ("POST", "discussions/:discussion_id/notes", reply),
    ("GET", "discussions/:discussion_id/notes/:note_id", get_note),
    ("PUT", "discussions/:discussion_id/notes/:note_id", edit_discussion_note),
    ("DELETE", "discussions/:discussion_id/notes/:note_id", delete_note),
]
"""The same threads API on a merge request and on a commit (GitLab's lib/api/discussions.rb)."""

ROUTES = [
    route("GET", "merge_requests/:iid/notes", list_notes),
    route("POST", "merge_requests/:iid/notes", create_note),
    route("GET", "merge_requests/:iid/notes/:note_id", get_note),
    route("PUT", "merge_requests/:iid/notes/:note_id", edit_note),
    route("DELETE", "merge_requests/:iid/notes/:note_id", delete_note),
    route("PUT", "merge_requests/:iid/discussions/:discussion_id", resolve_discussion),
    *(route(method, f"{noteable}/{path}", handler) for noteable in ("merge_requests/:iid", "repository/commits/:sha")
      for method, path, handler in _DISCUSSION_ROUTES),
]
