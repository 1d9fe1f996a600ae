"""Repository routes: files (with GitLab's X-Gitlab-* headers), tree, compare, branches,
commits, blame, merge base, blobs by id, and the project's languages (docs.gitlab.com/api/repository_files/,
/repositories/, /branches/, /commits/, /projects/).

`ref` is required for a file's metadata, its HEAD and its blame, but optional for raw (the
default branch), as in GitLab's lib/api/files.rb.
"""

import base64
import re

from werkzeug.wrappers import Response

from .errors import GitLabError, invalid, not_found
from .project import PROJECT_ID, PROJECT_PATH, TARGET_BRANCH
from .repository_views import (
    blame_view,
    branch_view,
    commit_detail_view,
    commit_diffs,
    commit_view,
    compare_view,
    file_headers,
    resolve_commit,
)
from .routing import Call, json_response, route

_BAD_PATH = re.compile(r"(^|/)\.\.?(/|$)|^/|\x00|\\")
_LANGUAGES = {".py": "Python", ".md": "Markdown"}
"""Programming and markup languages by extension (data such as JSON is not counted, as in linguist)."""
_DOCUMENTATION = re.compile(r"^docs?/|(^|/)(README|CHANGELOG|LICENSE)[^/]*$", re.IGNORECASE)


def _web_url(call: Call) -> str:
    return f"{call.project.web_url}/{PROJECT_PATH}"


def _file_path(call: Call) -> str:
    path = call.args["file_path"]
    if _BAD_PATH.search(path) or len(path) > 1024:
        raise invalid("file_path", "should be a valid file path")
    return path


def _ref(call: Call, required: bool = True, name: str = "ref") -> str | None:
    ref = call.request.args.get(name)
    if ref is None:
        if required:
            raise invalid(name, "is missing")
        return None
    if not ref.strip():
        raise invalid(name, "is empty")
    return ref


def get_file(call: Call) -> Response:
    """The file with its metadata; HEAD gives the same headers without the body."""
    view = call.project.file_view(_file_path(call), _ref(call))
    return json_response(view, 200, file_headers(view))


def raw_file(call: Call) -> Response:
    path = _file_path(call)
    ref = _ref(call, required=False)
    view = call.project.file_view(path, ref or TARGET_BRANCH)
    view["ref"] = ref
    return Response(call.project.raw_file(path, ref or TARGET_BRANCH), 200, file_headers(view),
                    mimetype="text/plain")


def blame(call: Call) -> Response:
    path = _file_path(call)
    view = call.project.file_view(path, _ref(call))
    ranges = blame_view(call.project.repository, view["commit_id"], path, _web_url(call))
    return call.paginated(ranges, file_headers(view))


def tree(call: Call) -> Response:
    ref = call.request.args.get("ref", TARGET_BRANCH)
    path = call.request.args.get("path") or ""
    recursive = bool(call.flag("recursive", False))
    entries = None if _BAD_PATH.search(path.strip("/")) else call.project.repository.tree(ref, path, recursive)
    if entries is None:
        raise not_found("Tree Not Found")
    return call.paginated(entries)


def compare(call: Call) -> Response:
    source, target = _ref(call, name="from"), _ref(call, name="to")
    return json_response(compare_view(call.project.repository, source, target, _web_url(call),
                                      bool(call.flag("straight", False))))


def branches(call: Call) -> Response:
    search = call.request.args.get("search") or ""
    repository = call.project.repository
    names = [name for name in repository.branches() if search.lower() in name.lower()]
    return call.paginated([branch_view(repository, name, _web_url(call)) for name in names])


def branch(call: Call) -> Response:
    return json_response(branch_view(call.project.repository, call.args["branch"], _web_url(call)))


def commits(call: Call) -> Response:
    """A branch's history, newest first (`ref_name` defaults to the default branch), or with
    `all=true` every ref's; `with_stats` adds each commit's stats (Entities::CommitWithStats)."""
    ref = call.request.args.get("ref_name") or TARGET_BRANCH  # GitLab: `ref_name.presence || default`
    repository = call.project.repository
    path = call.request.args.get("path") or None
    if path is not None and _BAD_PATH.search(path):
        return call.paginated([])  # no file of the repository lives outside it: no commit touched one
    shas = repository.log_all(path) if call.flag("all", False) else repository.log(ref, path)
    views = [commit_view(repository, sha, _web_url(call)) for sha in shas]
    if call.flag("with_stats", False):
        views = [{**view, "stats": commit_detail_view(repository, view["id"], _web_url(call), PROJECT_ID)["stats"]}
                 for view in views]
    return call.paginated(views)


def commit(call: Call) -> Response:
    repository = call.project.repository
    sha = resolve_commit(repository, call.args["sha"])
    return json_response(commit_detail_view(repository, sha, _web_url(call), PROJECT_ID))


def commit_diff(call: Call) -> Response:
    repository = call.project.repository
    return call.paginated(commit_diffs(repository, resolve_commit(repository, call.args["sha"])))


def commit_signature(call: Call) -> Response:
    """The demo's commits are not signed: GitLab's `not_found! 'Signature'` (after the commit is found)."""
    resolve_commit(call.project.repository, call.args["sha"])
    raise not_found("Signature Not Found")


def merge_base(call: Call) -> Response:
    """GET repository/merge_base?refs[]=a&refs[]=b (or `refs=a,b`): the best common ancestor, as
    GitLab's lib/api/repositories.rb answers it: fewer than two refs 400, unknown refs 400, none 404."""
    values = call.request.args.getlist("refs[]") + call.request.args.getlist("refs")
    if not values:
        raise invalid("refs", "is missing")
    refs = [part for value in values for part in _comma_separated(value)]
    if len(refs) < 2:
        raise GitLabError(400, {"message": "Provide at least 2 refs"})
    repository = call.project.repository
    shas = [repository.sha(ref) for ref in refs]
    unknown = [ref for ref, sha in zip(refs, shas, strict=True) if sha is None]
    if unknown:
        noun = "ref" if len(unknown) == 1 else "refs"
        raise GitLabError(400, {"message": f"Could not find {noun}: {', '.join(unknown)}"})
    base = repository.merge_base_of(shas)
    if base is None:
        raise not_found("Merge Base Not Found")
    return json_response(commit_view(repository, base, _web_url(call)))


def _comma_separated(value: str) -> list[str]:
    """GitLab's CommaSeparatedToArray: Ruby's `split(",")` (trailing empty parts dropped), stripped."""
    parts = value.split(",")
    while parts and not parts[-1]:
        parts.pop()
    return [part.strip() for part in parts]


def _blob(call: Call) -> tuple[str, bytes]:
    """GitLab's `assign_blob_vars!`: anything that is not a blob's id is `404 Blob Not Found`."""
    sha = call.args["sha"]
    content = call.project.repository.blob(sha)
    if content is None:
        raise not_found("Blob Not Found")
    return sha, content


def blob(call: Call) -> Response:
    sha, content = _blob(call)
    return json_response({"size": len(content), "encoding": "base64",
                          "content": base64.b64encode(content).decode("ascii"), "sha": sha})


def raw_blob(call: Call) -> Response:
    return Response(_blob(call)[1], 200, {"Cache-Control": "no-cache"}, mimetype="text/plain")


def languages(call: Call) -> Response:
    """GET /projects/:id/languages (docs.gitlab.com/api/projects/): each language's share of the
    default branch's bytes, in percent with two decimals, largest first; documentation (README,
    docs/) is left out, as Gitaly's linguist does."""
    repository = call.project.repository
    sizes: dict[str, int] = {}
    for entry in repository.tree(TARGET_BRANCH, recursive=True) or []:
        language = _LANGUAGES.get("." + entry["name"].rsplit(".", 1)[-1])
        if entry["type"] == "blob" and language and not _DOCUMENTATION.search(entry["path"]):
            sizes[language] = sizes.get(language, 0) + len(repository.read(TARGET_BRANCH, entry["path"]) or b"")
    total = sum(sizes.values()) or 1
    return json_response({name: round(100 * size / total, 2)
                          for name, size in sorted(sizes.items(), key=lambda item: -item[1])})


ROUTES = [
    route("GET", "languages", languages),
    route("GET", "repository/files/:file_path", get_file),
    route("GET", "repository/files/:file_path/raw", raw_file),
    route("GET", "repository/files/:file_path/blame", blame),
    route("GET", "repository/tree", tree),
    route("GET", "repository/compare", compare),
    route("GET", "repository/branches", branches),
    route("GET", "repository/branches/:branch", branch),
    route("GET", "repository/commits", commits),
    route("GET", "repository/commits/:sha", commit),
    route("GET", "repository/commits/:sha/diff", commit_diff),
    route("GET", "repository/commits/:sha/signature", commit_signature),
    route("GET", "repository/merge_base", merge_base),
    route("GET", "repository/blobs/:sha", blob),
    route("GET", "repository/blobs/:sha/raw", raw_blob),
]
