"""The demo GitLab over HTTP: the REST API v4 routes a merge-request reviewer uses.

Routing reads the raw request path, because GitLab URL-encodes project paths and file paths
into one segment (`projects/course%2Fshop/repository/files/shop%2Fpricing.py`). Each module
of routes (`*_routes.py`) lists its routes; this one authenticates, finds the route (werkzeug's,
as the Messages API), and turns GitLab errors into their JSON answers.
"""

from urllib.parse import unquote

from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import Rule
from werkzeug.wrappers import Request, Response

from ..web import Routes, credential, is_the, json_response
from . import (
    award_routes,
    commit_note_routes,
    label_routes,
    merge_request_routes,
    notes_routes,
    repository_routes,
    search_routes,
)
from .errors import GitLabError, not_found
from .project import PROJECT_ID, PROJECT_PATH, DemoProject, user
from .repository import GitError
from .routing import CONVERTERS, Call, Route, route, segments
from .users import CURRENT_USER

_FAULT_MESSAGES = {429: "429 Too Many Requests", 500: "500 Internal Server Error", 502: "502 Bad Gateway",
                   503: "503 Service Unavailable"}
METHOD_NOT_ALLOWED = {"message": "405 Method Not Allowed"}


def _project_view(call: Call) -> Response:
    return json_response(call.project.view())


def _current_user(call: Call) -> Response:
    return json_response(user(CURRENT_USER))


ROUTES: list[Route] = [
    route("GET", "", _project_view),
    *merge_request_routes.ROUTES,
    *notes_routes.ROUTES,
    *repository_routes.ROUTES,
    *label_routes.ROUTES,
    *award_routes.ROUTES,
    *commit_note_routes.ROUTES,
    *search_routes.ROUTES,
]
_ROUTER = Routes([Rule("/user", endpoint=_current_user, methods=["GET"]), *(r.rule() for r in ROUTES)], CONVERTERS)


class GitLabHttp:
    prefix = "/api/v4/"

    def __init__(self, token: str, project: DemoProject) -> None:
        self.token = token
        self.project = project

    def __call__(self, request: Request) -> Response:
        try:
            self._authenticate(request)
            raw_path = request.environ.get("REQUEST_URI", request.path).split("?", 1)[0]
            return self._route(request, segments(raw_path[len(self.prefix) - 1:]))
        except GitLabError as error:
            return json_response(error.body, error.status)
        except RequestEntityTooLarge:
            return json_response({"message": "413 Request Entity Too Large"}, 413)
        except GitError:  # a git command failed on odd input: GitLab's envelope, not a crash
            return json_response({"message": "500 Internal Server Error"}, 500)

    @classmethod
    def owns(cls, path: str) -> bool:
        """Whether a request path is the demo GitLab's (`/api/v4` itself included)."""
        return path.startswith(cls.prefix) or path.split("?", 1)[0] == cls.prefix.rstrip("/")

    @staticmethod
    def server_error_body(status: int, reason: str) -> dict:
        """What GitLab's front sends for an error the HTTP server itself answers (headers too
        large, a malformed request): the status line as `message`."""
        return {"message": f"{status} {reason}"}

    def fault(self, status: int, headers: dict[str, str], request: Request) -> Response:
        return json_response({"message": _FAULT_MESSAGES.get(status, f"{status} Error")}, status,
                             {k: v for k, v in headers.items() if k == "retry-after"})

    def _authenticate(self, request: Request) -> None:
        """GitLab's AuthFinders: the `PRIVATE-TOKEN` header, `Authorization: Bearer`, or the
        `private_token` / `access_token` query parameter (GitLab reads the parameter first; here
        the header wins, so a token in the query never overrides the one in the header)."""
        token = credential(request, "PRIVATE-TOKEN", ("private_token", "access_token"))
        if not is_the(self.token, token):
            raise GitLabError(401, {"message": "401 Unauthorized"})

    def _route(self, request: Request, path: str) -> Response:
        parts = path.split("/")
        if len(parts) > 2 and parts[1] == "projects" and unquote(parts[2]) not in (str(PROJECT_ID), PROJECT_PATH):
            raise not_found("Project Not Found")
        found = _ROUTER.match(path, request.method)
        if found == 405:
            return json_response(METHOD_NOT_ALLOWED, 405)
        if found == 404:
            raise GitLabError(404, {"error": "404 Not Found"})
        handler, args = found
        return handler(Call(request, self.project, args))
