"""Repository files API (docs.gitlab.com/api/repository_files/): a file with its metadata, raw."""

import re

from werkzeug.wrappers import Response

from .errors import invalid
from .routing import Call, json_response, route

_BAD_PATH = re.compile(r"(^|/)\.\.?(/|$)|^/|\x00|\\")


def _file_path(call: Call) -> str:
    path = call.args["file_path"]
    if _BAD_PATH.search(path) or len(path) > 1024:
        raise invalid("file_path", "should be a valid file path")
    return path


def get_file(call: Call) -> Response:
    path = _file_path(call)
    ref = call.request.args.get("ref")
    if not ref:
        raise invalid("ref", "is missing")
    return json_response(call.project.file_view(path, ref))


def raw_file(call: Call) -> Response:
    path = _file_path(call)
    ref = call.request.args.get("ref")
    if not ref:
        raise invalid("ref", "is missing")
    return Response(call.project.raw_file(path, ref), 200, mimetype="text/plain")


ROUTES = [
    route("GET", "repository/files/:file_path", get_file),
    route("GET", "repository/files/:file_path/raw", raw_file),
]
