"""Sandbox: the course's local server on 127.0.0.1, started in a background thread.

`with Sandbox() as sb:` gives a free port, the base URL and key for the anthropic
client, and knobs for faults, the prompt cache and the context window. Each
instance is independent, so tests and notebooks can run several at once.
"""

import logging
import socket
import threading

import anthropic
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from .app import SandboxApp
from .faults import Faults
from .messages_api import MessagesApi
from .messages_http import MessagesHttp

SANDBOX_API_KEY = "sk-ant-sandbox-course-agent"
"""Not a secret: the sandbox accepts this key and no other, so a real key sent here by mistake gets 401."""

log = logging.getLogger("course_agent.sandbox")


class _QuietHandler(WSGIRequestHandler):
    """Keeps request lines out of notebooks and test output (they go to the debug log)."""

    def log(self, type: str, message: str, *args: object) -> None:
        log.debug(message, *args)


class Sandbox:
    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, context_window: int | None = None) -> None:
        self.host = host
        self.requested_port = port
        self.api_key = SANDBOX_API_KEY
        self.faults = Faults()
        self.messages_api = MessagesApi(context_window)
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None
        self._port = 0

    # lifecycle
    def start(self) -> "Sandbox":
        if self._server is not None:
            return self
        app = SandboxApp(MessagesHttp(self.api_key, self.messages_api), self.faults)
        # Bind here so a busy port raises OSError (werkzeug would print and exit the process).
        listener = socket.create_server((self.host, self.requested_port))
        self._port = listener.getsockname()[1]
        self._server = make_server(self.host, self._port, app, threaded=True,
                                   request_handler=_QuietHandler, fd=listener.detach())
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        name=f"course-agent-sandbox:{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> "Sandbox":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # addresses
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the sandbox is not running: call start() or use `with Sandbox() as sb:`")
        return self._port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    def env(self) -> dict[str, str]:
        """The environment variables that point clients at this sandbox."""
        return {"ANTHROPIC_BASE_URL": self.anthropic_base_url, "ANTHROPIC_API_KEY": self.api_key}

    # knobs
    def client(self, **options: object) -> anthropic.Anthropic:
        """A real anthropic.Anthropic client pointed at this sandbox."""
        return anthropic.Anthropic(base_url=self.anthropic_base_url, api_key=self.api_key, **options)

    @property
    def context_window(self) -> int | None:
        return self.messages_api.context_window

    @context_window.setter
    def context_window(self, tokens: int | None) -> None:
        """Shrink every model's context window (None restores the models' own)."""
        if tokens is not None and tokens < 1:
            raise ValueError("context_window must be a positive number of tokens")
        self.messages_api.context_window = tokens

    def clear_cache(self) -> None:
        self.messages_api.cache.clear()
