"""Comments on a commit (docs.gitlab.com/api/commits/#post-comment-to-commit): the older API
beside the commit's discussions, sharing their notes. A comment with `path`, `line` and
`line_type` sits on that line when the commit's diff has it: an added line for `new` (numbered
in the new file), a removed one for `old` (numbered in the old file), as GitLab's
lib/api/commits.rb matches `line.line` and `line.type`; otherwise it is a plain comment, as in GitLab."""

from werkzeug.wrappers import Response

from .errors import bad_request, invalid
from .positions import DiffLine, diff_lines
from .repository_views import commit_diffs, resolve_commit
from .routing import Call, json_response, route
from .users import CURRENT_USER, user

CAN_T_BE_BLANK = 'Note {:note=>["can\'t be blank"]}'


def _commit(call: Call) -> str:
    return resolve_commit(call.project.repository, call.args["sha"])


def _comment_view(note) -> dict:
    """Entities::CommitNote."""
    line = note.position if note.type == "LegacyDiffNote" else None
    return {"note": note.body, "path": line and line["path"], "line": line and line["line"],
            "line_type": line and line["line_type"], "author": user(note.author), "created_at": note.created_at}


def list_comments(call: Call) -> Response:
    discussions = call.project.commit_discussions.get(_commit(call), [])
    return call.paginated([_comment_view(note) for discussion in discussions for note in discussion.notes])


def _line(call: Call, sha: str) -> dict | None:
    """`path`, `line`, `line_type` as Grape checks them, and whether the commit's diff has that line."""
    params = call.params()
    path = params.get("path")
    if path is None:
        return None
    if not isinstance(path, str):
        raise invalid("path")
    if params.get("line") is None:
        raise invalid("line", "is missing")
    try:
        number = int(str(params["line"]).strip())
    except ValueError:
        raise invalid("line") from None
    line_type = params.get("line_type", "new")
    if line_type not in ("new", "old"):
        raise invalid("line_type", "does not have a valid value")
    for change in commit_diffs(call.project.repository, sha):
        if change["new_path"] == path and _has_line(change["diff"], number, line_type):
            return {"path": path, "line": number, "line_type": line_type}
    return None


def _has_line(diff: str, number: int, line_type: str) -> bool:
    """An added line numbered `number` in the new file (`new`), or a removed one numbered so in the
    old file (`old`): Gitlab::Diff::Line#line and #type."""
    wanted = DiffLine(None, number) if line_type == "new" else DiffLine(number, None)
    return wanted in diff_lines(diff)


def create_comment(call: Call) -> Response:
    sha = _commit(call)
    note = call.params().get("note")
    if note is None:
        raise invalid("note", "is missing")
    if not isinstance(note, str):
        raise invalid("note")
    line = _line(call, sha)
    if not note.strip():
        raise bad_request(CAN_T_BE_BLANK)
    discussion = call.project.notes.start(call.project.commit_discussions.setdefault(sha, []), note, CURRENT_USER,
                                          individual=True, position=line, commit_id=sha,
                                          note_type="LegacyDiffNote" if line else None)
    return json_response(_comment_view(discussion.notes[0]), 201)


ROUTES = [
    route("GET", "repository/commits/:sha/comments", list_comments),
    route("POST", "repository/commits/:sha/comments", create_comment),
]
