"""Merge requests API (docs.gitlab.com/api/merge_requests/, /merge_request_approvals/): list
(with the `labels` filter), show, edit, changes, diff versions, diffs, commits, participants,
pipelines, approvals, merge (with squash and source-branch removal), merge_ref and rebase.

A demo merge request has one diff version, from its base to its source branch's head; after a
merge it keeps showing that diff (GitLab keeps the merged version too).
"""

from werkzeug.wrappers import Response

from .approvals import approval_state_view
from .errors import invalid, not_found
from .mr_updates import has_labels
from .project import CREATED_AT, PROJECT_PATH, MergeRequest
from .repository_views import commit_view
from .routing import Call, json_response, route
from .users import user

VERSION_ID_BASE = 10_000
"""A merge request's one diff version has id 10000 + iid (stable, so outputs are reproducible)."""


def _mr(call: Call) -> MergeRequest:
    return call.project.get(call.iid())


SORT_OPTIONS = ("created_at", "label_priority", "milestone_due", "popularity", "priority", "title", "updated_at",
                "merged_at")
"""GitLab's MergeRequestsHelpers.sort_options."""


def _iids(call: Call) -> set[int] | None:
    """`iids[]=482&iids[]=483` or `iids=482,483` (GitLab's CommaSeparatedToIntegerArray)."""
    values = call.request.args.getlist("iids[]") + call.request.args.getlist("iids")
    if not values:
        return None
    try:
        return {int(part) for value in values for part in value.split(",") if part.strip()}
    except ValueError:
        raise invalid("iids") from None


def _matches(view: dict, args, iids: set[int] | None) -> bool:
    text = f"{view['title']}\n{view['description'] or ''}".lower()
    return ((iids is None or view["iid"] in iids) and (args.get("search") or "").lower() in text
            and args.get("source_branch", view["source_branch"]) == view["source_branch"]
            and args.get("target_branch", view["target_branch"]) == view["target_branch"]
            and args.get("author_username", view["author"]["username"]) == view["author"]["username"])


def list_merge_requests(call: Call) -> Response:
    """The filters a bot uses (merge_requests_helpers.rb): state, labels, iids, source and target
    branch, author_username, search (title and description); newest first by `created_at`, or by
    `updated_at`, `merged_at` or `title` (`sort=asc` for oldest first)."""
    state = call.choice("state", ("opened", "closed", "locked", "merged", "all"), "all")
    order_by = call.choice("order_by", SORT_OPTIONS, "created_at")
    sort = call.choice("sort", ("asc", "desc"), "desc")
    labels, iids = call.request.args.get("labels"), _iids(call)
    views = [call.project.mr_view(mr) for mr in call.project.merge_requests.values()
             if state in ("all", mr.state) and (labels is None or has_labels(mr, labels))]
    views = [view for view in views if _matches(view, call.request.args, iids)]
    key = order_by if order_by in ("title", "updated_at", "merged_at") else "created_at"  # no priorities here
    views.sort(key=lambda v: (v[key] or "", v["id"]), reverse=sort == "desc")
    return call.paginated(views)


def show(call: Call) -> Response:
    view = call.project.mr_detail_view(_mr(call))
    if call.flag("include_rebase_in_progress", False):
        view["rebase_in_progress"] = False
    return json_response(view)


def edit(call: Call) -> Response:
    return json_response(call.project.update(_mr(call), call.params()))


def changes(call: Call) -> Response:
    return json_response(call.project.changes_view(_mr(call)))


def merge(call: Call) -> Response:
    """`should_remove_source_branch` and `squash` (with `squash_commit_message`) as GitLab takes them."""
    mr = _mr(call)
    params = call.params()
    return json_response(call.project.merge(
        mr, params.get("sha"), params.get("merge_commit_message"),
        remove_source=call.flag("should_remove_source_branch"), squash=call.flag("squash"),
        squash_message=params.get("squash_commit_message")))


def merge_ref(call: Call) -> Response:
    return json_response({"commit_id": call.project.merge_ref(_mr(call))})


def rebase(call: Call) -> Response:
    """GitLab enqueues the rebase and answers 202 `rebase_in_progress: true`; the demo has already done it
    (`GET .../merge_requests/:iid?include_rebase_in_progress=true` says false)."""
    mr = _mr(call)
    call.flag("skip_ci")
    call.project.rebase(mr)
    return json_response({"rebase_in_progress": True}, 202)


# diff versions, diffs, commits
def _commits(call: Call, mr: MergeRequest) -> list[dict]:
    """The merge request's commits, newest first."""
    repository = call.project.repository
    web_url = f"{call.project.web_url}/{PROJECT_PATH}"
    head = call.project.diff_refs(mr)["head_sha"]
    return [commit_view(repository, sha, web_url) for sha in repository.log(head, exclude=call.project.base(mr))]


def _version(call: Call, mr: MergeRequest) -> dict:
    refs = call.project.diff_refs(mr)
    return {
        "id": VERSION_ID_BASE + mr.spec.iid, "head_commit_sha": refs["head_sha"],
        "base_commit_sha": refs["base_sha"], "start_commit_sha": refs["start_sha"], "created_at": CREATED_AT,
        "merge_request_id": 1000 + mr.spec.iid, "state": "collected",
        "real_size": str(len(call.project.changes(mr))), "patch_id_sha": None,
    }


def versions(call: Call) -> Response:
    return call.paginated([_version(call, _mr(call))])


def version(call: Call) -> Response:
    mr = _mr(call)
    if call.int_arg("version_id") != VERSION_ID_BASE + mr.spec.iid:
        raise not_found()
    return json_response({**_version(call, mr), "commits": _commits(call, mr), "diffs": call.project.changes(mr)})


def diffs(call: Call) -> Response:
    return call.paginated(call.project.changes(_mr(call)))


def commits(call: Call) -> Response:
    mr = _mr(call)
    return call.paginated(_commits(call, mr))


def participants(call: Call) -> Response:
    """The author, then everyone who commented, once each."""
    mr = _mr(call)
    names = [mr.spec.author]
    for note in sorted(mr.note_objects(), key=lambda n: n.id):
        if note.author not in names:
            names.append(note.author)
    return call.paginated([user(name) for name in names])


def pipelines(call: Call) -> Response:
    _mr(call)
    return call.paginated([])


# approvals
def approvals(call: Call) -> Response:
    return json_response(call.project.approvals_view(_mr(call)))


def approval_state(call: Call) -> Response:
    return json_response(approval_state_view(_mr(call).approvals))


def approve(call: Call) -> Response:
    mr = _mr(call)
    return json_response(call.project.approve(mr, call.params().get("sha")), 201)


def unapprove(call: Call) -> Response:
    return json_response(call.project.unapprove(_mr(call)), 201)


ROUTES = [
    route("GET", "merge_requests", list_merge_requests),
    route("GET", "merge_requests/:iid", show),
    route("PUT", "merge_requests/:iid", edit),
    route("GET", "merge_requests/:iid/changes", changes),
    route("PUT", "merge_requests/:iid/merge", merge),
    route("GET", "merge_requests/:iid/merge_ref", merge_ref),
    route("PUT", "merge_requests/:iid/rebase", rebase),
    route("GET", "merge_requests/:iid/versions", versions),
    route("GET", "merge_requests/:iid/versions/:version_id", version),
    route("GET", "merge_requests/:iid/diffs", diffs),
    route("GET", "merge_requests/:iid/commits", commits),
    route("GET", "merge_requests/:iid/participants", participants),
    route("GET", "merge_requests/:iid/pipelines", pipelines),
    route("GET", "merge_requests/:iid/approvals", approvals),
    route("GET", "merge_requests/:iid/approval_state", approval_state),
    route("POST", "merge_requests/:iid/approve", approve),
    route("POST", "merge_requests/:iid/unapprove", unapprove),
]
