"""Emoji reaction routes on a merge request and on its comments (docs.gitlab.com/api/emoji_reactions/):
list (paginated), get, add (201) and delete (204); see award_emoji.py for the answers."""

from werkzeug.wrappers import Response

from .errors import GitLabError
from .project import MergeRequest
from .routing import Call, json_response, no_content, route
from .users import CURRENT_USER


def _awardable(call: Call) -> tuple[str, int]:
    """("MergeRequest", its id) or ("Note", the note's id); an unknown one is `404 Not found`."""
    mr: MergeRequest = call.project.get(call.iid())
    if "note_id" in call.args:  # not a declared Integer here: GitLab's `notes.find` just finds nothing
        text = call.args["note_id"]
        note_id = int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else -1
        return "Note", call.project.notes.note(mr.discussions, note_id).id
    return "MergeRequest", 1000 + mr.spec.iid


def list_awards(call: Call) -> Response:
    return call.paginated([award.view() for award in call.project.awards.of(*_awardable(call))])


def get_award(call: Call) -> Response:
    return json_response(call.project.awards.find(*_awardable(call), call.int_arg("award_id")).view())


def add_award(call: Call) -> Response:
    awardable = _awardable(call)
    award = call.project.awards.add(*awardable, call.params().get("name"), CURRENT_USER, call.project.clock.tick)
    return json_response(award.view(), 201)


def delete_award(call: Call) -> Response:
    award = call.project.awards.find(*_awardable(call), call.int_arg("award_id"))
    if award.username != CURRENT_USER:  # GitLab: only who awarded it (or an admin) may take it back
        raise GitLabError(401, {"message": "401 Unauthorized"})
    call.project.awards.delete(award)
    return no_content()


ROUTES = [
    route(method, f"merge_requests/:iid{note}/award_emoji{award}", handler)
    for note in ("", "/notes/:note_id")
    for method, award, handler in (("GET", "", list_awards), ("POST", "", add_award),
                                   ("GET", "/:award_id", get_award), ("DELETE", "/:award_id", delete_award))
]
