"""The Messages API over HTTP: routes under /v1/, the x-api-key check, and the API's
JSON error envelope for everything that goes wrong there."""

import hashlib
import json

from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from . import sse
from .errors import ApiError, invalid
from .messages_api import MessagesApi

_ROUTES = Map([
    Rule("/v1/messages", endpoint="messages", methods=["POST"]),
    Rule("/v1/messages/count_tokens", endpoint="count_tokens", methods=["POST"]),
])
_FAULT_MESSAGES = {
    429: "Number of requests has exceeded your rate limit. Please retry after the time in the retry-after header.",
    500: "Internal server error",
    529: "Overloaded",
}


def json_response(data: object, status: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status, headers, mimetype="application/json")


def read_json(request: Request) -> object:
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw)
        if b"\\ud" in raw.lower():  # only an escaped surrogate can hide a lone one (\\ud800 is not text)
            json.dumps(body, ensure_ascii=False).encode("utf-8")
        return body
    except (ValueError, UnicodeEncodeError) as exc:
        raise invalid(f"Request body is not valid JSON: {exc}") from None
    except RecursionError:
        raise invalid("Request body is not valid JSON: nested too deeply") from None


class MessagesHttp:
    prefix = "/v1/"

    def __init__(self, api_key: str, api: MessagesApi) -> None:
        self.api_key = api_key
        self.api = api

    def __call__(self, request: Request) -> Response:
        try:
            endpoint, _ = _ROUTES.bind_to_environ(request.environ).match()
            self._authenticate(request)
            body = read_json(request)
            request.environ["course_agent.body"] = body  # for the sandbox's record of exchanges
            if endpoint == "count_tokens":
                return json_response(self.api.count_tokens(body))
            message, partial_json = self.api.create(body)
            request.environ["course_agent.reply"] = message
            headers = {"request-id": "req_01" + message["id"][len("msg_01"):]}
            if isinstance(body, dict) and body.get("stream"):
                headers["cache-control"] = "no-cache"
                return Response(sse.events(message, partial_json), 200, headers, mimetype="text/event-stream")
            return json_response(message, 200, headers)
        except ApiError as error:
            return self.error(error, request)
        except RequestEntityTooLarge:
            return self.error(ApiError(413, f"Request exceeds the maximum allowed number of bytes "
                                            f"({request.max_content_length})."), request)
        except MethodNotAllowed:
            return self.error(ApiError(405, f"Method Not Allowed: {request.method} {request.path}"), request)
        except NotFound:
            return self.error(ApiError(404, "Not Found"), request)
        except HTTPException as exc:
            return self.error(ApiError(exc.code or 400, exc.description or exc.name), request)

    def error(self, error: ApiError, request: Request) -> Response:
        request_id = "req_01" + hashlib.sha256(f"{request.method} {request.full_path}".encode()).hexdigest()[:22]
        return json_response(error.body(request_id), error.status, {"request-id": request_id, **error.headers})

    def fault(self, status: int, headers: dict[str, str], request: Request) -> Response:
        return self.error(ApiError(status, _FAULT_MESSAGES.get(status, "Injected fault"), headers=headers), request)

    def _authenticate(self, request: Request) -> None:
        key = request.headers.get("x-api-key")
        bearer = request.headers.get("authorization", "")
        if key is None and bearer.lower().startswith("bearer "):
            key = bearer[7:].strip()
        if key is None:
            raise ApiError(401, "x-api-key header is required")
        if key != self.api_key:
            raise ApiError(401, "invalid x-api-key")
