"""The sandbox's HTTP application (WSGI, on werkzeug): routing, authentication, faults,
and one place that turns every failure into the API's JSON error envelope."""

import hashlib
import json
import logging
import socket
import time

from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from . import sse
from .errors import ApiError, invalid
from .faults import Fault, Faults
from .messages_api import MessagesApi

log = logging.getLogger("course_agent.sandbox")

MAX_BODY_BYTES = 8 * 1024 * 1024
"""Requests above this get 413 request_too_large (the real API's limit is larger)."""

_STATUS_MESSAGES = {
    429: "Number of requests has exceeded your rate limit. Please retry after the time in the retry-after header.",
    500: "Internal server error",
    529: "Overloaded",
}

_ROUTES = Map([
    Rule("/", endpoint="index", methods=["GET"]),
    Rule("/v1/messages", endpoint="messages", methods=["POST"]),
    Rule("/v1/messages/count_tokens", endpoint="count_tokens", methods=["POST"]),
    Rule("/sandbox/faults", endpoint="faults", methods=["GET", "POST", "DELETE"]),
])


def _json(data: object, status: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status, headers, mimetype="application/json")


class SandboxApp:
    """One sandbox's HTTP surface."""

    def __init__(self, api_key: str, messages: MessagesApi, faults: Faults) -> None:
        self.api_key = api_key
        self.messages = messages
        self.faults = faults

    def __call__(self, environ, start_response):
        request = Request(environ)
        request.max_content_length = MAX_BODY_BYTES
        return self.handle(request)(environ, start_response)

    def handle(self, request: Request) -> Response:
        request_id = "req_01" + hashlib.sha256(f"{request.method} {request.full_path}".encode()).hexdigest()[:22]
        try:
            fault = self.faults.take(request.path)
            if fault is not None and fault.kind == "slow":
                time.sleep(fault.delay)
            elif fault is not None:
                return self._apply(fault, request)
            endpoint, _ = _ROUTES.bind_to_environ(request.environ).match()
            if endpoint in ("messages", "count_tokens"):
                self._authenticate(request)
            return getattr(self, f"on_{endpoint}")(request)
        except ApiError as error:
            return _json(error.body(request_id), error.status, {"request-id": request_id, **error.headers})
        except RequestEntityTooLarge:
            error = ApiError(413, f"Request exceeds the maximum allowed number of bytes ({MAX_BODY_BYTES}).")
        except MethodNotAllowed:
            error = ApiError(405, f"Method Not Allowed: {request.method} {request.path}")
        except NotFound:
            error = ApiError(404, "Not Found")
        except HTTPException as exc:
            error = ApiError(exc.code or 400, exc.description or exc.name)
        except Exception:  # a bug in the sandbox: answer like the API, keep serving
            log.exception("sandbox error on %s %s", request.method, request.path)
            error = ApiError(500, "Internal server error")
        return _json(error.body(request_id), error.status, {"request-id": request_id})

    def _authenticate(self, request: Request) -> None:
        key = request.headers.get("x-api-key")
        bearer = request.headers.get("authorization", "")
        if key is None and bearer.lower().startswith("bearer "):
            key = bearer[7:].strip()
        if key is None:
            raise ApiError(401, "x-api-key header is required")
        if key != self.api_key:
            raise ApiError(401, "invalid x-api-key")

    def _apply(self, fault: Fault, request: Request) -> Response:
        if fault.kind == "drop":
            sock = request.environ.get("werkzeug.socket")
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
            return Response(b"", 500)
        headers = {}
        if fault.retry_after is not None:
            headers = {"retry-after": str(max(1, round(fault.retry_after))),
                       "retry-after-ms": str(int(fault.retry_after * 1000))}
        raise ApiError(fault.status, _STATUS_MESSAGES.get(fault.status, "Injected fault"), headers=headers)

    def _body(self, request: Request) -> object:
        raw = request.get_data(cache=False)
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise invalid(f"Request body is not valid JSON: {exc}") from None

    def on_messages(self, request: Request) -> Response:
        body = self._body(request)
        message, partial_json = self.messages.create(body)
        headers = {"request-id": request_id_for(message)}
        if isinstance(body, dict) and body.get("stream"):
            stream = Response(sse.events(message, partial_json), 200, headers, mimetype="text/event-stream")
            stream.headers["cache-control"] = "no-cache"
            return stream
        return _json(message, 200, headers)

    def on_count_tokens(self, request: Request) -> Response:
        return _json(self.messages.count_tokens(self._body(request)))

    def on_index(self, request: Request) -> Response:
        return _json({"service": "course-agent sandbox", "anthropic": "/v1/messages"})

    def on_faults(self, request: Request) -> Response:
        """GET lists pending faults, POST adds one ({"kind", "status", "times", ...}), DELETE clears them."""
        if request.method == "DELETE":
            self.faults.clear()
        elif request.method == "POST":
            spec = self._body(request)
            if not isinstance(spec, dict):
                raise invalid("a fault is a JSON object")
            try:
                self.faults.add(Fault(
                    kind=str(spec.get("kind", "status")), path_prefix=str(spec.get("path", "/v1/")),
                    times=int(spec.get("times", 1)), status=int(spec.get("status", 0)),
                    retry_after=spec.get("retry_after"), delay=float(spec.get("delay", 0)),
                ))
            except (TypeError, ValueError) as exc:
                raise invalid(f"bad fault: {exc}") from None
        return _json([vars(f) for f in self.faults.pending()])


def request_id_for(message: dict) -> str:
    return "req_01" + message["id"][len("msg_01"):]
