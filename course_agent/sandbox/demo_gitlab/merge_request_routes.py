"""Merge requests API (docs.gitlab.com/api/merge_requests/): list, show, changes, merge."""

from werkzeug.wrappers import Response

from .project import MergeRequest
from .routing import Call, json_response, route


def _mr(call: Call) -> MergeRequest:
    return call.project.get(call.iid())


def list_merge_requests(call: Call) -> Response:
    state = call.request.args.get("state", "all")
    views = [call.project.mr_view(mr) for mr in call.project.merge_requests.values()
             if state in ("all", mr.state)]
    return call.paginated(sorted(views, key=lambda v: -v["iid"]))


def show(call: Call) -> Response:
    return json_response(call.project.mr_view(_mr(call)))


def changes(call: Call) -> Response:
    return json_response(call.project.changes_view(_mr(call)))


def merge(call: Call) -> Response:
    mr = _mr(call)
    params = call.params()
    return json_response(call.project.merge(mr, params.get("sha"), params.get("merge_commit_message")))


ROUTES = [
    route("GET", "merge_requests", list_merge_requests),
    route("GET", "merge_requests/:iid", show),
    route("GET", "merge_requests/:iid/changes", changes),
    route("PUT", "merge_requests/:iid/merge", merge),
]
