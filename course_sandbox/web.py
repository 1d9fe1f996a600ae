"""What both services share over HTTP: the JSON response, the credential, the router."""

import hmac
import json
from collections.abc import Iterable

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, RequestRedirect, Rule
from werkzeug.wrappers import Request, Response


def json_response(data: object, status: int = 200, headers: dict | None = None) -> Response:
    """JSON as both real services send it: UTF-8 text, not \\u escapes."""
    return Response(json.dumps(data, ensure_ascii=False), status, headers, mimetype="application/json")


def credential(request: Request, header: str, query: Iterable[str] = ()) -> str | None:
    """The key or token a request carries: the service's header (`x-api-key`, `PRIVATE-TOKEN`), else
    `Authorization: Bearer`, else a query parameter (GitLab's `private_token`): a header always wins."""
    found = request.headers.get(header)
    bearer = request.headers.get("authorization", "")
    if found is None and bearer.lower().startswith("bearer "):
        found = bearer[7:].strip()
    for name in query:
        found = found if found is not None else request.args.get(name) or None
    return found


def is_the(secret: str, given: str | None) -> bool:
    """True when the credential a request carries is this sandbox's `secret`, compared in constant time
    (the time of a refusal says nothing of how much of a guess was right)."""
    return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode())


class Routes:
    """werkzeug's `Map`, telling 404 from 405 for each service to answer in its own JSON. No redirects:
    werkzeug would answer `//` or a missing slash with a 308 clients cannot follow."""

    def __init__(self, rules: Iterable[Rule], converters: dict | None = None) -> None:
        self._map = Map(list(rules), strict_slashes=False, merge_slashes=False, converters=converters)

    def match(self, path: str, method: str) -> tuple[object, dict] | int:
        """(endpoint, values), else 405 (the path with another method) or 404. HEAD is taken as GET."""
        try:
            return self._map.bind("sandbox", path_info=path).match(path, method)
        except MethodNotAllowed:
            return 405
        except (NotFound, RequestRedirect):
            return 404
