"""The sandbox's HTTP application (WSGI, werkzeug's request objects, served by waitress): one server, several
services by path prefix, faults on demand, and a last line of defence that keeps the server serving."""

import logging

from waitress.channel import ClientDisconnected
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Request, Response

from .errors import ApiError, invalid
from .faults import Fault, Faults
from .messages_http import MessagesHttp, read_json
from .recording import Exchange as Exchange  # where the self-check has always found it
from .web import json_response

log = logging.getLogger("course_sandbox")


class ConnectionDropped(ClientDisconnected):
    """A "drop" fault: waitress closes the connection without a response, as a failing network would. A client
    answered in its own process (the self-check's) turns it into what its HTTP library raises for a dropped
    connection."""

MAX_BODY_BYTES = 32 * 1024 * 1024
"""Requests above this get 413, as the real API's 32 MB limit for the Messages and token-counting endpoints
(docs: API overview, request size limits)."""


class SandboxApp:
    """Dispatches each request to the service that owns its path; the Messages API answers the rest."""

    def __init__(self, messages: MessagesHttp, faults: Faults, services: list = ()) -> None:
        self.messages = messages
        self.services = [*services, messages]
        self.faults = faults

    def __call__(self, environ, start_response):
        request = Request(environ)
        request.max_content_length = MAX_BODY_BYTES
        try:
            response = self.handle(request)
        except ClientDisconnected:
            raise
        except Exception:  # the last line of defence: a bug still gets the JSON envelope
            log.exception("sandbox error on %s %s", request.method, request.path)
            response = self.messages.error(ApiError(500, "Internal server error"), request)
        return response(environ, start_response)

    def handle(self, request: Request) -> Response:
        if request.path.startswith("/sandbox/") or request.path == "/sandbox":
            try:
                self.messages.authenticate(request)
                if request.path.rstrip("/") != "/sandbox/faults":
                    raise ApiError(404, "Not Found")
                return self.on_faults(request)
            except ApiError as error:
                return self.messages.error(error, request)
            except RequestEntityTooLarge:
                return self.messages.error(ApiError(413, "Request exceeds the maximum allowed number of bytes."),
                                           request)
        if request.path == "/":
            return json_response({"service": "course-agent sandbox", "prefixes": [s.prefix for s in self.services]})
        service = next((s for s in self.services if request.path.startswith(s.prefix)
                        or request.path == s.prefix.rstrip("/")), self.messages)  # `/api/v4` is GitLab's too
        fault = self.faults.take(request.path)
        if fault is not None and fault.kind == "drop":
            # waitress closes the connection without a response, as a failing network would.
            raise ConnectionDropped("sandbox fault: connection dropped")
        if fault is not None and fault.kind == "slow":
            self.faults.hold(fault)
        elif fault is not None:
            headers = {}
            if fault.retry_after is not None:
                headers = {"retry-after": str(max(1, round(fault.retry_after))),
                           "retry-after-ms": str(int(fault.retry_after * 1000))}
            return service.fault(fault.status, headers, request)
        try:
            return service(request)
        except Exception:  # a bug in the sandbox: answer like the service would, keep serving
            log.exception("sandbox error on %s %s", request.method, request.path)
            return service.fault(500, {}, request)

    def on_faults(self, request: Request) -> Response:
        """GET lists pending faults, POST adds one ({"kind", "status", "times", ...}), DELETE clears them."""
        if request.method == "DELETE":
            self.faults.clear()
        elif request.method == "POST":
            spec = read_json(request)
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
        elif request.method != "GET":
            raise ApiError(405, f"Method Not Allowed: {request.method} {request.path}")
        return json_response([vars(f) for f in self.faults.pending()])
