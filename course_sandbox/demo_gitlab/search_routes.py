"""Project search: `GET /projects/:id/search?scope=blobs&search=...` (docs.gitlab.com/api/search/, "Project search
API", scope `blobs`), what python-gitlab's `project.search("blobs", text)` calls: the code of one ref (`ref`, the
default branch if not given) searched for a text, as GitLab's basic search does it (Gitaly's `git grep`): case
insensitive, the text taken literally, binary files left out, each match with two lines of context either side, and
matches whose context touches merged into one result.

Each result has GitLab's fields (API::Entities::Blob, Gitlab::Search::FoundBlob): `basename` (the path without its
extension), `data` (the matched lines with their context), `path`, `filename` (the same path), `id` (null for a
grepped match), `ref`, `startline` (the first line of `data`, counting from 1) and `project_id`; paginated like every
list. The demo searches code only: the `wiki_blobs` scope finds nothing (the demo project has no wiki), and a scope
GitLab searches in other records (issues, merge requests, commits, notes, milestones, users) is answered as one the
demo does not know, with Grape's `scope does not have a valid value`; the advanced-search filters (`filename:`,
`path:`, `extension:`) are not read, only the literal text."""

from werkzeug.wrappers import Response

from .errors import invalid
from .project import PROJECT_ID, TARGET_BRANCH
from .routing import Call, route

CONTEXT = 2
"""Lines of context either side of a match, as Gitaly's search by content gives them."""
SCOPES = ("blobs", "wiki_blobs")


def _matches(text: str, lines: list[str]) -> list[tuple[int, int]]:
    """The (first, last) line indexes of each result: every matching line with CONTEXT lines either side, results
    that touch or overlap merged, as `git grep --before-context --after-context` prints them."""
    wanted = text.casefold()
    spans: list[tuple[int, int]] = []
    for number, line in enumerate(lines):
        if wanted in line.casefold():
            first, last = max(0, number - CONTEXT), min(len(lines) - 1, number + CONTEXT)
            if spans and first <= spans[-1][1] + 1:
                spans[-1] = (spans[-1][0], last)
            else:
                spans.append((first, last))
    return spans


def blobs(call: Call, text: str, ref: str) -> list[dict]:
    """Every result of a search for `text` in the files at `ref` (none for an unknown ref or an empty text), in the
    order of the files' paths."""
    repository = call.project.repository
    found: list[dict] = []
    if not text:
        return found
    for entry in sorted(repository.tree(ref, recursive=True) or [], key=lambda e: e["path"]):
        if entry["type"] != "blob":
            continue
        content = repository.read(ref, entry["path"]) or b""
        if b"\0" in content:  # binary: git grep -I leaves it out
            continue
        lines = content.decode("utf-8", errors="replace").splitlines(keepends=True)
        for first, last in _matches(text, lines):
            path = entry["path"]
            stem, dot, extension = path.rpartition(".")
            basename = stem if dot and "/" not in extension and stem and not stem.endswith("/") else path
            found.append({"basename": basename, "data": "".join(lines[first:last + 1]), "path": path,
                          "filename": path, "id": None, "ref": ref, "startline": first + 1,
                          "project_id": PROJECT_ID})
    return found


def search(call: Call) -> Response:
    params = call.params()
    scope = params.get("scope")
    if scope is None:
        raise invalid("scope", "is missing")
    if scope not in SCOPES:
        raise invalid("scope", "does not have a valid value")
    text = params.get("search")
    if text is None:
        raise invalid("search", "is missing")
    if scope == "wiki_blobs":
        return call.paginated([])
    ref = params.get("ref") or TARGET_BRANCH
    return call.paginated(blobs(call, str(text), str(ref)))


ROUTES = [route("GET", "search", search)]
