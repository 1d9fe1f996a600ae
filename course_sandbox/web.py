"""What both services of the sandbox share over HTTP: the JSON response, the credential a request
carries, and one werkzeug route table type (`Routes`) that answers 404 and 405 in each service's
own words."""

import json
from collections.abc import Iterable

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, RequestRedirect, Rule
from werkzeug.wrappers import Request, Response


def json_response(data: object, status: int = 200, headers: dict | None = None) -> Response:
    """JSON as both real services send it: UTF-8 text, not \\u escapes."""
    return Response(json.dumps(data, ensure_ascii=False), status, headers, mimetype="application/json")


def credential(request: Request, header: str, query: Iterable[str] = ()) -> str | None:
    """The key or token a request carries: its own header (`x-api-key`, `PRIVATE-TOKEN`), else
    `Authorization: Bearer`, else a query parameter (GitLab's `private_token`). A header always wins,
    so a token in the query never overrides the one in the header. None when there is none."""
    found = request.headers.get(header)
    bearer = request.headers.get("authorization", "")
    if found is None and bearer.lower().startswith("bearer "):
        found = bearer[7:].strip()
    for name in query:
        found = found if found is not None else request.args.get(name) or None
    return found


class Routes:
    """A werkzeug `Map` that matches a request path and tells 404 from 405 without raising werkzeug's
    own HTML errors: each service renders them in its own JSON. No redirects: werkzeug would answer
    `//` or a missing slash with a 308 that clients cannot follow."""

    def __init__(self, rules: Iterable[Rule], converters: dict | None = None) -> None:
        self._map = Map(list(rules), strict_slashes=False, merge_slashes=False, converters=converters)

    def match(self, path: str, method: str) -> tuple[object, dict] | int:
        """(endpoint, values) of the rule that takes this path and method; else 405 when some rule
        takes the path with another method, 404 when none does. HEAD is answered as GET (werkzeug)."""
        try:
            return self._map.bind("sandbox", path_info=path).match(path, method)
        except MethodNotAllowed:
            return 405
        except (NotFound, RequestRedirect):
            return 404
