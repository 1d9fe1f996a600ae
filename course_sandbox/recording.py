"""The record of exchanges, as WSGI middleware: every request the sandbox answered and what it
answered, read from the HTTP traffic itself (what the self-check judges). The services know
nothing of it."""

import io
import json
import threading
from dataclasses import dataclass

from werkzeug.wrappers import Request

from . import sse

MESSAGES_PATHS = ("/v1/messages", "/v1/messages/count_tokens")
"""The requests whose JSON body is recorded (a Messages API request)."""


@dataclass(frozen=True)
class Exchange:
    """One request the server received and what it answered, as the self-check reads them."""

    method: str
    path: str
    status: int
    body: object = None
    """The parsed JSON body of a Messages API request (None for other services, or a body that is not JSON)."""
    reply: object = None
    """The message the Messages API answered (streamed or not), or the JSON body any service answered."""


class Recorder:
    """Wraps a WSGI application and appends an `Exchange` to `exchanges` for each request, in the
    order answered. A JSON or event-stream answer is read whole before it is sent (the sandbox
    computes both at once anyway); other answers pass through untouched."""

    def __init__(self, app, exchanges: list[Exchange], max_body_bytes: int) -> None:
        self.app = app
        self.exchanges = exchanges
        self.max_body_bytes = max_body_bytes
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        request = Request(environ)
        body = self._body(request)
        started: list = []

        def start(status: str, headers: list, exc_info=None):
            started[:] = [int(status.split(" ", 1)[0]), dict((k.lower(), v) for k, v in headers)]
            return start_response(status, headers, exc_info)

        answer = self.app(environ, start)
        status, headers = started
        mimetype = headers.get("content-type", "").split(";")[0].strip()
        reply = None
        if mimetype in ("application/json", "text/event-stream"):
            try:
                answer_bytes = b"".join(answer)
            finally:
                getattr(answer, "close", lambda: None)()
            answer = [answer_bytes]
            reply = sse.message_of(answer_bytes) if mimetype == "text/event-stream" else _json(answer_bytes)
        with self._lock:
            self.exchanges.append(Exchange(request.method, request.path, status, body, reply))
        return answer

    def _body(self, request: Request) -> object:
        """A Messages API request's JSON body (read here, and put back for the application)."""
        length = request.content_length
        if request.method != "POST" or request.path.rstrip("/") not in MESSAGES_PATHS \
                or length is None or length > self.max_body_bytes:
            return None
        raw = request.environ["wsgi.input"].read(length)
        request.environ["wsgi.input"] = io.BytesIO(raw)
        request.environ["CONTENT_LENGTH"] = str(len(raw))
        return _json(raw)


def _json(raw: bytes) -> object:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None
