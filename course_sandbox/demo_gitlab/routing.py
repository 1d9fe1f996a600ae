"""The route table's parts: a route is a method, a path pattern and a handler; a handler gets a
`Call` (the request, the project, the path's values) and returns a werkzeug Response.

Patterns are paths after `projects/:id/`; a segment starting with ':' takes any one segment,
GitLab's URL-encoded project and file paths included (`course%2Fshop`, `shop%2Fpricing.py`):
`route()` turns them into werkzeug rules, matched by the sandbox's one router (`web.Routes`).
"""

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlencode

from werkzeug.routing import BaseConverter, Rule
from werkzeug.wrappers import Request, Response

from ..web import json_response
from .errors import GitLabError, invalid
from .params import boolean
from .project import DemoProject

MAX_IID = 2**31 - 1
_SECRET_PARAMS = ("private_token", "access_token", "job_token")


def no_content() -> Response:
    return Response(b"", 204)


@dataclass
class Call:
    request: Request
    project: DemoProject
    args: dict[str, str]
    """The values of the pattern's ':name' segments (URL-decoded)."""

    _params: dict | None = None

    @property
    def method(self) -> str:
        return self.request.method

    def params(self) -> dict:
        """Query string, then the JSON or form body over it (as Grape merges them)."""
        if self._params is None:
            self._params = request_params(self.request)
        return self._params

    def iid(self, name: str = "iid") -> int:
        text = self.args[name]
        if not (text.isascii() and text.isdigit()):
            raise invalid("merge_request_iid")
        iid = _small_int(text)
        if iid is None:
            raise GitLabError(404, {"message": "404 Not found"})
        return iid

    def int_arg(self, name: str) -> int:
        text = self.args[name]
        number = _small_int(text) if text.isascii() and text.isdigit() else None
        if number is None:
            raise invalid(name)
        return number

    def flag(self, name: str, default: bool | None = None) -> bool | None:
        """A Grape Boolean parameter: true/false/1/0..., anything else is 400 `<name> is invalid`."""
        return boolean(self.params().get(name, default), name)

    def choice(self, name: str, allowed: tuple[str, ...], default: str | None) -> str | None:
        value = self.params().get(name, default)
        if value is not None and value not in allowed:
            raise invalid(name, "does not have a valid value")
        return value

    def paginated(self, items: list, extra_headers: dict | None = None) -> Response:
        return paginated(self.request, items, extra_headers)


def _small_int(digits: str) -> int | None:
    """The number, or None above MAX_IID: the length is checked first, since Python refuses to
    convert more than 4300 digits (a ValueError GitLab has no reason to give)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(MAX_IID)) or int(significant) > MAX_IID:
        return None
    return int(significant)


Handler = Callable[[Call], Response]


class Segment(BaseConverter):
    """One path segment, URL-decoded: GitLab puts a project path or a file path, slashes and all,
    in one segment (`shop%2Fpricing.py`). Matched on the path as `segments()` writes it; may be
    empty, as GitLab then answers the parameter's own 400 rather than 404."""

    regex = "[^/]*"

    def to_python(self, value: str) -> str:
        return unquote(value)


CONVERTERS = {"segment": Segment}


def segments(raw_path: str) -> str:
    """The raw request path with each segment decoded but its own `/` and `%` kept encoded, so a
    literal segment matches however it was escaped and an encoded slash never splits one."""
    return "/".join(quote(unquote(part), safe="") for part in raw_path.split("/"))


@dataclass(frozen=True)
class Route:
    method: str
    pattern: tuple[str, ...]
    handler: Handler

    def rule(self) -> Rule:
        """This route as a werkzeug rule, under /projects/<project_id>/."""
        parts = ("projects", ":project_id", *self.pattern)
        path = "/".join(f"<segment:{p[1:]}>" if p.startswith(":") else p for p in parts)
        return Rule(f"/{path}", endpoint=self.handler, methods=[self.method])


def route(method: str, path: str, handler: Handler) -> Route:
    """`route("GET", "merge_requests/:iid/notes", handler)`; the path is under projects/:id/."""
    return Route(method, tuple(path.split("/")) if path else (), handler)


def request_params(request: Request) -> dict:
    params: dict = dict(request.args)
    if request.is_json and request.get_data(cache=True):
        try:
            body = strict_json(request.get_data(cache=True))
            json.dumps(body, ensure_ascii=False).encode("utf-8")  # lone surrogates cannot be stored
        except (RecursionError, UnicodeEncodeError, ValueError):
            body = None
        if not isinstance(body, dict):
            raise GitLabError(400, {"error": "the request body is not a valid JSON object"})
        params.update(body)
    elif not request.is_json:
        params.update(_nested(request.form))
    return params


def _refuse(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise ValueError(f"{text} is out of range")
    return number


def strict_json(data: bytes) -> object:
    """JSON as GitLab's parser reads it: `NaN`, `Infinity` and numbers beyond a double (`1e999`) are
    errors (Python would take them), as are integers of more than 4300 digits (Python's own limit)."""
    return json.loads(data, parse_constant=_refuse, parse_float=_finite)


def _nested(form) -> dict:
    """Rack-style form keys: `position[new_line]=3` becomes {"position": {"new_line": "3"}},
    `labels[]=a&labels[]=b` becomes {"labels": ["a", "b"]}."""
    params: dict = {}
    for key in form:
        values = form.getlist(key)
        if key.endswith("[]") and "[" not in key[:-2]:
            params[key[:-2]] = values
            continue
        if "[" not in key or not key.endswith("]"):
            params[key] = values[-1]
            continue
        head, _, rest = key.partition("[")
        path = [head, *rest[:-1].split("][")]
        target = params
        for part in path[:-1]:
            child = target.get(part)
            if not isinstance(child, dict):
                child = target[part] = {}
            target = child
        target[path[-1]] = values[-1]
    return params


def paginated(request: Request, items: list, extra_headers: dict | None = None) -> Response:
    """One page of a list, with GitLab's X-* pagination headers and its Link header: prev, next,
    first and last (Gitlab::Pagination::OffsetHeaderBuilder#pagination_links)."""
    try:
        page = max(1, int(request.args.get("page", 1)))
        per_page = min(100, max(1, int(request.args.get("per_page", 20))))
    except ValueError:
        raise GitLabError(400, {"error": "page is invalid"}) from None
    pages = max(1, -(-len(items) // per_page))
    next_page = page + 1 if page < pages else None
    prev_page = page - 1 if 1 < page <= pages else None  # Kaminari: none before 1 or past the end
    headers = {"X-Page": str(page), "X-Per-Page": str(per_page), "X-Total": str(len(items)),
               "X-Total-Pages": str(pages), "X-Next-Page": str(next_page or ""),
               "X-Prev-Page": str(prev_page or ""), **(extra_headers or {})}
    query = {k: v for k, v in request.args.items() if k not in _SECRET_PARAMS}
    raw_path = request.environ.get("REQUEST_URI", request.path).split("?", 1)[0]
    url = f'{request.host_url.rstrip("/")}{raw_path}'
    links = [(prev_page, "prev"), (next_page, "next"), (1, "first"), (pages, "last")]
    headers["Link"] = ", ".join(f'<{url}?{urlencode({**query, "page": n, "per_page": per_page})}>; rel="{rel}"'
                                for n, rel in links if n)
    return json_response(items[(page - 1) * per_page: page * per_page], 200, headers)
