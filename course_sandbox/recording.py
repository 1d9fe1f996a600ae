"""The record of exchanges, as WSGI middleware: each request the sandbox answered and its answer,
read off the traffic itself (what the self-check judges); the services know nothing of it."""

import io
import json
import threading
from dataclasses import dataclass

from werkzeug.wrappers import Request

from . import sse

MESSAGES_PATHS = ("/v1/messages", "/v1/messages/count_tokens")


@dataclass(frozen=True)
class Exchange:
    method: str
    path: str
    status: int
    body: object = None
    """The JSON body of a Messages API request (None for other services, or a body that is not JSON)."""
    reply: object = None
    """The message the Messages API answered (streamed or not), or any JSON answer."""


class Recorder:
    """Appends an `Exchange` to `exchanges` for each request, in the order answered. A JSON or event
    stream answer is read whole before it is sent (the sandbox computes either at once anyway)."""

    def __init__(self, app, exchanges: list[Exchange], max_body_bytes: int) -> None:
        self.app, self.exchanges, self.max_body_bytes = app, exchanges, max_body_bytes
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        request, body, started = Request(environ), None, []
        length = request.content_length  # waitress gives it, a chunked upload's too
        if request.method == "POST" and request.path.rstrip("/") in MESSAGES_PATHS \
                and length is not None and length <= self.max_body_bytes:
            raw = environ["wsgi.input"].read(length)
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(raw), str(len(raw))
            body = _json(raw)

        def start(status: str, headers: list, exc_info=None):
            started[:] = [int(status[:3]), next((v for k, v in headers if k.lower() == "content-type"), "")]
            return start_response(status, headers, exc_info)

        answer = chunks = self.app(environ, start)
        status, mimetype = started[0], started[1].split(";")[0]
        reply = None
        if mimetype in ("application/json", "text/event-stream"):
            try:
                answer = [b"".join(chunks)]
            finally:
                getattr(chunks, "close", lambda: None)()
            reply = sse.message_of(answer[0]) if mimetype == "text/event-stream" else _json(answer[0])
        with self._lock:
            self.exchanges.append(Exchange(request.method, request.path, status, body, reply))
        return answer


def _json(raw: bytes) -> object:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None
