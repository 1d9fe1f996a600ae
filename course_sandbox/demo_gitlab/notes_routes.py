"""Notes API and Discussions API of a merge request (docs.gitlab.com/api/notes/,
docs.gitlab.com/api/discussions/): comments, threads, inline threads, replies, resolving."""

from werkzeug.wrappers import Response

from .discussions import Note
from .errors import bad_request, invalid, not_found
from .positions import check_position, parse_position
from .project import PROJECT_ID, MergeRequest
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


def get_note(call: Call) -> Response:
    mr = _mr(call)
    return json_response(_note_view(mr, _note(call, mr)))


def edit_note(call: Call) -> Response:
    mr = _mr(call)
    note = _note(call, mr)
    body = call.params().get("body")
    if isinstance(body, str) and not body.strip():
        raise invalid("body", "is empty")
    if body is not None:
        _touch(mr, [call.project.notes.edit(note, _body(call))])
    return json_response(_note_view(mr, note))


def delete_note(call: Call) -> Response:
    mr = _mr(call)
    call.project.notes.delete(mr.discussions, _note(call, mr))
    return no_content()


# Discussions API
def list_discussions(call: Call) -> Response:
    mr = _mr(call)
    return call.paginated([d.view(PROJECT_ID, mr.spec.iid) for d in mr.discussions])


def get_discussion(call: Call) -> Response:
    mr = _mr(call)
    discussion = call.project.notes.find(mr.discussions, call.args["discussion_id"])
    return json_response(discussion.view(PROJECT_ID, mr.spec.iid))


def create_discussion(call: Call) -> Response:
    """A thread; with `position`, an inline thread on a line of the merge request's diff."""
    mr = _mr(call)
    body = _body(call)
    position = call.params().get("position")
    if position is not None:
        position = check_position(parse_position(position), call.project.diff_refs(mr), call.project.changes(mr))
    discussion = call.project.notes.start(mr.discussions, body, CURRENT_USER, position=position)
    _touch(mr, discussion.notes)
    return json_response(discussion.view(PROJECT_ID, mr.spec.iid), 201)


def resolve_discussion(call: Call) -> Response:
    mr = _mr(call)
    resolved = call.flag("resolved")
    if resolved is None:
        raise invalid("resolved", "is missing")
    discussion = call.project.notes.resolve(mr.discussions, call.args["discussion_id"], resolved, CURRENT_USER)
    return json_response(discussion.view(PROJECT_ID, mr.spec.iid))


def discussion_notes(call: Call) -> Response:
    """An unknown discussion has no notes: GitLab's `not_found!("Notes")` (lib/api/discussions.rb)."""
    mr = _mr(call)
    notes = next((d.notes for d in mr.discussions if d.id == call.args["discussion_id"]), [])
    if not notes:
        raise not_found("Notes Not Found")
    return json_response([_note_view(mr, note) for note in notes])


def reply(call: Call) -> Response:
    mr = _mr(call)
    body = _body(call)
    note = call.project.notes.reply(mr.discussions, call.args["discussion_id"], body, CURRENT_USER)
    _touch(mr, [note])
    return json_response(_note_view(mr, note), 201)


def edit_discussion_note(call: Call) -> Response:
    """Exactly one of `body` (edit) and `resolved` (resolve this note)."""
    mr = _mr(call)
    params = call.params()
    given = [key for key in ("body", "resolved") if params.get(key) is not None]
    if not given:
        raise invalid("body, resolved", "are missing, exactly one parameter must be provided")
    if len(given) == 2:
        raise invalid("body, resolved", "are mutually exclusive")
    note = _note(call, mr)
    if given == ["body"]:
        call.project.notes.edit(note, _body(call))
    else:
        call.project.notes.resolve_note(note, call.flag("resolved"), CURRENT_USER)
    _touch(mr, [note])
    return json_response(_note_view(mr, note))


ROUTES = [
    route("GET", "merge_requests/:iid/notes", list_notes),
    route("POST", "merge_requests/:iid/notes", create_note),
    route("GET", "merge_requests/:iid/notes/:note_id", get_note),
    route("PUT", "merge_requests/:iid/notes/:note_id", edit_note),
    route("DELETE", "merge_requests/:iid/notes/:note_id", delete_note),
    route("GET", "merge_requests/:iid/discussions", list_discussions),
    route("POST", "merge_requests/:iid/discussions", create_discussion),
    route("GET", "merge_requests/:iid/discussions/:discussion_id", get_discussion),
    route("PUT", "merge_requests/:iid/discussions/:discussion_id", resolve_discussion),
    route("GET", "merge_requests/:iid/discussions/:discussion_id/notes", discussion_notes),
    route("POST", "merge_requests/:iid/discussions/:discussion_id/notes", reply),
    route("GET", "merge_requests/:iid/discussions/:discussion_id/notes/:note_id", get_note),
    route("PUT", "merge_requests/:iid/discussions/:discussion_id/notes/:note_id", edit_discussion_note),
    route("DELETE", "merge_requests/:iid/discussions/:discussion_id/notes/:note_id", delete_note),
]
