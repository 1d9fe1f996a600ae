"""The demo GitLab over HTTP: the REST API v4 routes a merge-request reviewer uses.

Routing reads the raw request path, because GitLab URL-encodes project paths and file paths
into one segment (`projects/course%2Fshop/repository/files/shop%2Fpricing.py`).
"""

import json
import re
from urllib.parse import unquote, urlencode

from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Request, Response

from .project import PROJECT_ID, PROJECT_PATH, DemoProject, GitLabError, not_found, user

_FAULT_MESSAGES = {429: "429 Too Many Requests", 500: "500 Internal Server Error", 502: "502 Bad Gateway",
                   503: "503 Service Unavailable"}
MAX_IID = 2**31 - 1
_BAD_PATH = re.compile(r"(^|/)\.\.?(/|$)|^/|\x00|\\")


def _json(data: object, status: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status, headers, mimetype="application/json")


class GitLabHttp:
    prefix = "/api/v4/"

    def __init__(self, token: str, project: DemoProject) -> None:
        self.token = token
        self.project = project

    def __call__(self, request: Request) -> Response:
        try:
            self._authenticate(request)
            raw_path = request.environ.get("REQUEST_URI", request.path).split("?", 1)[0]
            segments = [unquote(s) for s in raw_path[len("/api/v4/"):].split("/")]
            return self._route(request, segments)
        except GitLabError as error:
            return _json(error.body, error.status)
        except RequestEntityTooLarge:
            return _json({"message": "413 Request Entity Too Large"}, 413)

    def fault(self, status: int, headers: dict[str, str], request: Request) -> Response:
        return _json({"message": _FAULT_MESSAGES.get(status, f"{status} Error")}, status,
                     {k: v for k, v in headers.items() if k == "retry-after"})

    def _authenticate(self, request: Request) -> None:
        token = request.headers.get("PRIVATE-TOKEN")
        bearer = request.headers.get("Authorization", "")
        if token is None and bearer.lower().startswith("bearer "):
            token = bearer[7:].strip()
        if token != self.token:
            raise GitLabError(401, {"message": "401 Unauthorized"})

    def _route(self, request: Request, s: list[str]) -> Response:
        method = request.method
        if s == ["user"]:
            return self._only(method, "GET") or _json(user("course-reviewer"))
        if len(s) < 2 or s[0] != "projects":
            raise GitLabError(404, {"error": "404 Not Found"})
        self._project(s[1])
        rest = s[2:]
        if rest == []:
            return self._only(method, "GET") or _json(self.project.view())
        if rest == ["merge_requests"]:
            return self._only(method, "GET") or self._merge_requests(request)
        if len(rest) >= 2 and rest[0] == "merge_requests":
            mr = self.project.get(self._iid(rest[1]))
            tail = rest[2:]
            if tail == []:
                return self._only(method, "GET") or _json(self.project.mr_view(mr))
            if tail == ["changes"]:
                return self._only(method, "GET") or _json(self.project.changes_view(mr))
            if tail == ["notes"] and method == "POST":
                body = self._params(request).get("body")
                if not isinstance(body, str) or not body.strip():
                    raise GitLabError(400, {"error": "body is missing"})
                return _json(self.project.add_note(mr, body, "course-reviewer"), 201)
            if tail == ["notes"]:
                return self._only(method, "GET") or self._paginated(request, mr.notes)
            if tail == ["merge"]:
                params = self._params(request)
                return self._only(method, "PUT") or _json(self.project.merge(
                    mr, params.get("sha"), params.get("merge_commit_message")))
        if len(rest) in (3, 4) and rest[:2] == ["repository", "files"] and rest[3:] in ([], ["raw"]):
            path = rest[2]
            if _BAD_PATH.search(path) or len(path) > 1024:
                raise GitLabError(400, {"error": "file_path should be a valid file path"})
            ref = request.args.get("ref")
            if not ref:
                raise GitLabError(400, {"error": "ref is missing"})
            if method not in ("GET", "HEAD"):
                return self._only(method, "GET")
            if rest[3:] == ["raw"]:
                return Response(self.project.raw_file(path, ref), 200, mimetype="text/plain")
            return _json(self.project.file_view(path, ref))
        raise GitLabError(404, {"error": "404 Not Found"})

    @staticmethod
    def _only(method: str, allowed: str) -> Response | None:
        return None if method == allowed else _json({"message": "405 Method Not Allowed"}, 405)

    @staticmethod
    def _project(project_id: str) -> None:
        if project_id not in (str(PROJECT_ID), PROJECT_PATH):
            raise not_found("Project Not Found")

    @staticmethod
    def _iid(text: str) -> int:
        if not (text.isascii() and text.isdigit()):
            raise GitLabError(400, {"error": "merge_request_iid is invalid"})
        iid = int(text)
        if iid > MAX_IID:
            raise not_found()
        return iid

    @staticmethod
    def _params(request: Request) -> dict:
        params = dict(request.args)
        if request.is_json:
            try:
                body = request.get_json(silent=True)
                json.dumps(body, ensure_ascii=False).encode("utf-8")  # lone surrogates cannot be stored
            except (RecursionError, UnicodeEncodeError):
                body = None
            if not isinstance(body, dict):
                raise GitLabError(400, {"error": "the request body is not a valid JSON object"})
            params.update(body)
        else:
            params.update(request.form)
        return params

    def _merge_requests(self, request: Request) -> Response:
        state = request.args.get("state", "all")
        views = [self.project.mr_view(mr) for mr in self.project.merge_requests.values()
                 if state in ("all", mr.state)]
        return self._paginated(request, sorted(views, key=lambda v: -v["iid"]))

    def _paginated(self, request: Request, items: list) -> Response:
        try:
            page = max(1, int(request.args.get("page", 1)))
            per_page = min(100, max(1, int(request.args.get("per_page", 20))))
        except ValueError:
            raise GitLabError(400, {"error": "page is invalid"}) from None
        pages = max(1, -(-len(items) // per_page))
        headers = {"X-Page": str(page), "X-Per-Page": str(per_page), "X-Total": str(len(items)),
                   "X-Total-Pages": str(pages), "X-Next-Page": str(page + 1) if page < pages else "",
                   "X-Prev-Page": str(page - 1) if page > 1 else ""}
        if page < pages:
            query = {k: v for k, v in request.args.items() if k not in ("private_token", "access_token", "job_token")}
            query.update(page=page + 1, per_page=per_page)
            raw_path = request.environ.get("REQUEST_URI", request.path).split("?", 1)[0]
            headers["Link"] = f'<{request.host_url.rstrip("/")}{raw_path}?{urlencode(query)}>; rel="next"'
        return _json(items[(page - 1) * per_page: page * per_page], 200, headers)
