"""Sandbox: the course's local server on 127.0.0.1, started in a background thread.

`with Sandbox() as sb:` gives a free port, the base URL and key for the anthropic client,
the URL, token and project for python-gitlab, and knobs for faults, the prompt cache and
the context window. Each instance is independent (its own port, prompt cache and copy of
the demo repository), so tests and notebooks can run several at once.
"""

import asyncio
import atexit
import contextlib
import functools
import hashlib
import ipaddress
import json
import logging
import os
import secrets
import shutil
import socket
import ssl
import tempfile
import threading
import warnings
from collections.abc import Callable
from pathlib import Path

import anthropic
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from .app import MAX_BODY_BYTES, SandboxApp
from .demo_gitlab import PROJECT_PATH, DemoProject, GitLabHttp
from .errors import ApiError
from .faults import Faults
from .messages_api import MessagesApi
from .messages_http import MessagesHttp
from .recording import Exchange, Recorder

SANDBOX_KEY_PREFIX = "sk-ant-sandbox-"
"""How every sandbox's key starts; the rest is random, made for each Sandbox (`sb.api_key`). Each sandbox
accepts its own key and no other: a real key sent here by mistake gets 401, and so does another sandbox's
key (on a shared machine every learner's sandbox is on 127.0.0.1: a port found is not a way in)."""
SANDBOX_TOKEN_PREFIX = "glpat-sandbox-"
"""How every demo GitLab's token starts; the rest is random, made for each Sandbox (`sb.gitlab_token`)."""
_DEPRECATED = {"SANDBOX_API_KEY": ("SANDBOX_KEY_PREFIX", SANDBOX_KEY_PREFIX, "sb.api_key"),
               "SANDBOX_GITLAB_TOKEN": ("SANDBOX_TOKEN_PREFIX", SANDBOX_TOKEN_PREFIX, "sb.gitlab_token")}
"""The fixed key and token every sandbox once accepted: gone, each sandbox has its own. The old names still
import and now mean the prefix (recognising a sandbox key still works; using it as a key gets 401)."""
WORKER_THREADS = 8
CONNECTION_LIMIT = 1000
IDLE_TIMEOUT = 30
"""Seconds a connection may stay idle (nothing asked, or half a request) before it is closed."""
CROWDED_IDLE_TIMEOUT = 2
"""...and when more than half the connection limit is in use: idle sockets cannot lock clients out."""

logging.getLogger("waitress.queue").setLevel(logging.ERROR)
"""A short request queue is normal here; its warning would only clutter notebook output."""


WORKDIR_PREFIX = "course-agent-sandbox-"
"""A sandbox's folder (its demo GitLab's git repository) is named with this, the process id and a random part."""


def _remove_orphans() -> None:
    """Remove the folders of sandboxes whose process is gone without stopping them (a kernel killed, not shut down:
    atexit never ran), this user's only. Each one is a copy of the demo repository; on a shared machine with a
    class of learners they would pile up in the temporary folder. POSIX only (os.kill(pid, 0) asks whether a process
    is there; on Windows signal 0 is CTRL_C_EVENT)."""
    if os.name != "posix":
        return
    for folder in Path(tempfile.gettempdir()).glob(f"{WORKDIR_PREFIX}*-*"):
        pid = folder.name[len(WORKDIR_PREFIX):].split("-", 1)[0]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.getuid() or _alive(int(pid)):
                continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One certificate store for every client made for a sandbox. The sandbox speaks plain HTTP, so
    it is never used; but each client the SDK builds loads the system's certificates again (~25 ms),
    and the self-check builds two clients a scenario."""
    return ssl.create_default_context()


def new_credential(prefix: str) -> str:
    """`prefix` and 32 random characters (192 bits from `secrets`): a key nobody can guess or find by trying."""
    return prefix + secrets.token_urlsafe(24)


def deprecated(name: str, module: str) -> str:
    """The value of a deprecated name (SANDBOX_API_KEY, SANDBOX_GITLAB_TOKEN), with a DeprecationWarning
    for the caller's caller. AttributeError for any other name, as a module's __getattr__ must."""
    if name not in _DEPRECATED:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    replacement, value, attribute = _DEPRECATED[name]
    warnings.warn(f"{name} is deprecated: each Sandbox has a random key and token of its own ({attribute}); "
                  f"{name} is now only their prefix, {replacement} ({value!r})", DeprecationWarning, stacklevel=3)
    return value


def __getattr__(name: str) -> str:
    return deprecated(name, __name__)


def is_loopback(host: str) -> bool:
    """True when every address `host` names is a loopback address (only this machine can connect)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in found)


class _HttpClient(anthropic.DefaultHttpxClient):
    """The SDK's public client with its defaults, closed when collected like the one the SDK makes."""

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # half-built, or the interpreter is shutting down
            self.close()


class _AsyncHttpClient(anthropic.DefaultAsyncHttpxClient):
    def __del__(self) -> None:
        with contextlib.suppress(RuntimeError):  # no running loop: the transport goes with the object
            asyncio.get_running_loop().create_task(self.aclose())


# waitress has no public hook for the body of its own errors (they never reach the WSGI app) nor for a
# shorter idle timeout when crowded: beyond create_server/run/close, these are all the (unprefixed)
# parts of it the sandbox touches, each behaviour checked in test_sandbox_server.
class _JsonErrorTask(ErrorTask):
    """waitress's own errors (a malformed request line, headers too large, bad chunking) in the
    API's JSON envelope instead of plain text."""

    def execute(self):
        error = self.request.error
        message = f"{error.reason}: {error.body}".strip().rstrip(":")
        request_id = "req_01" + hashlib.sha256(message.encode()).hexdigest()[:22]
        body = json.dumps(ApiError(error.code, message).body(request_id)).encode()
        if GitLabHttp.owns(_request_target(self.request)):
            body = json.dumps(GitLabHttp.server_error_body(error.code, error.reason)).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                      ("request-id", request_id), ("Connection", "close")])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


def _request_target(request) -> str:
    """The path the client asked for. When the headers were too large, waitress parsed a stand-in
    request line (`GET /`); the real one still starts the bytes it kept (`header_plus`)."""
    first_line = (request.header_plus or b"").split(b"\r\n", 1)[0].split(b" ")
    return first_line[1].decode("latin-1") if len(first_line) > 2 else (getattr(request, "path", None) or "")


class _Channel(HTTPChannel):
    error_task_class = _JsonErrorTask


def _harden(server) -> None:
    """Bounded idle time for every connection (shorter when the server is crowded), and errors in JSON."""
    server.channel_class = _Channel

    def maintenance(now: float) -> None:
        crowded = len(server.active_channels) > CONNECTION_LIMIT // 2
        cutoff = now - (CROWDED_IDLE_TIMEOUT if crowded else IDLE_TIMEOUT)
        for channel in list(server.active_channels.values()):
            if not channel.requests and channel.last_activity < cutoff:
                channel.will_close = True

    server.maintenance = maintenance


class Sandbox:
    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, context_window: int | None = None,
                 record: bool = False) -> None:
        if not is_loopback(host):
            warnings.warn(f"the sandbox will listen on {host}, which is not a loopback address: other machines "
                          "can reach it, its key travels in clear text (plain HTTP) and it runs git for whoever "
                          "sends that key", stacklevel=2)
        self.host = host
        self.requested_port = port
        self.api_key = new_credential(SANDBOX_KEY_PREFIX)
        """The only key this sandbox accepts, random (no two sandboxes share it); `sb.client()` and `sb.env()`
        carry it."""
        self.gitlab_token = new_credential(SANDBOX_TOKEN_PREFIX)
        """The demo GitLab's only token, random like the key."""
        self.project = PROJECT_PATH
        self.faults = Faults(slow_capacity=WORKER_THREADS // 2)
        self.messages_api = MessagesApi(context_window)
        self.gitlab: DemoProject | None = None
        """The demo GitLab's state (merge requests, notes, the git repository), for tests and demos."""
        self.exchanges: list[Exchange] | None = [] if record else None
        """With record=True, every request received and its answer, in order (what the self-check judges)."""
        self.app: SandboxApp | None = None
        self.wsgi_app: Callable | None = None
        """What the server serves (the app, behind the recorder with record=True), once started: the
        self-check calls it in the loop's own thread, without an HTTP hop (course_selfcheck/intercept.py)."""
        self._server = None
        self._thread: threading.Thread | None = None
        self._workdir: Path | None = None
        self._port = 0

    # life cycle
    def start(self) -> "Sandbox":
        if self._server is not None:
            return self
        listener = socket.create_server((self.host, self.requested_port))  # a busy port raises OSError here
        self._port = listener.getsockname()[1]
        _remove_orphans()
        self._workdir = Path(tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-"))
        try:
            self.gitlab = DemoProject(self._workdir)
        except Exception:
            listener.close()
            shutil.rmtree(self._workdir, ignore_errors=True)
            raise
        self._gitlab_http = GitLabHttp(self.gitlab_token, self.gitlab)
        app = SandboxApp(MessagesHttp(self.api_key, self.messages_api), self.faults, [self._gitlab_http])
        self.app = app
        served = self.wsgi_app = app if self.exchanges is None else Recorder(app, self.exchanges, MAX_BODY_BYTES)
        self._server = create_server(served, sockets=[listener], threads=WORKER_THREADS, ident="course-agent-sandbox",
                                     asyncore_use_poll=True, connection_limit=CONNECTION_LIMIT,
                                     channel_timeout=IDLE_TIMEOUT, cleanup_interval=1,
                                     max_request_body_size=2 * MAX_BODY_BYTES)
        _harden(self._server)
        self._thread = threading.Thread(target=self._server.run, name=f"course-agent-sandbox:{self._port}",
                                        daemon=True)
        self._thread.start()
        atexit.register(self.stop)  # a sandbox nobody stopped still removes its directory at exit
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        atexit.unregister(self.stop)
        server = self._server
        self.faults.release()  # requests held by a "slow" fault end now
        # Workers first: one may still be finishing a response and will wake the loop when done.
        server.task_dispatcher.shutdown()

        def close_everything() -> None:  # runs in the server's own loop thread
            for channel in list(server.active_channels.values()):
                channel.close()
            server.close()  # the listening socket and the trigger: the loop ends with nothing left

        with contextlib.suppress(OSError):  # the loop may be gone already
            server.trigger.pull_trigger(close_everything)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.messages_api.close()  # the Message Batches worker
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
        self._server = self._thread = self._workdir = None

    def reset_demo(self) -> None:
        """Put the demo GitLab back as it was at start (a fresh copy of the repository and its merge
        requests: nothing merged, no notes), e.g. between two live demos. The Messages API is untouched."""
        if self._server is None or self._workdir is None:
            raise RuntimeError("the sandbox is not running: call start() or use `with Sandbox() as sb:`")
        fresh = Path(tempfile.mkdtemp(prefix="reset-", dir=self._workdir))
        self.gitlab = self._gitlab_http.project = DemoProject(fresh)

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
        return f"http://{self.host}:{self._port}"

    @property
    def anthropic_base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def gitlab_url(self) -> str:
        """Base URL for `gitlab.Gitlab(url, private_token=...)` (the API lives under /api/v4)."""
        return f"http://{self.host}:{self.port}"

    def env(self) -> dict[str, str]:
        """The environment variables that point clients at this sandbox."""
        return {"ANTHROPIC_BASE_URL": self.anthropic_base_url, "ANTHROPIC_API_KEY": self.api_key,
                "GITLAB_URL": self.gitlab_url, "GITLAB_TOKEN": self.gitlab_token, "GITLAB_PROJECT": self.project}

    # knobs
    def client(self, **options: object) -> anthropic.Anthropic:
        """A real anthropic.Anthropic client pointed at this sandbox."""
        # the SDK's public HTTP client with its own defaults (closed when collected), and the shared
        # certificate store
        if "http_client" not in options:
            options["http_client"] = _HttpClient(**self._http_options(options))
        return anthropic.Anthropic(**{"base_url": self.anthropic_base_url, "api_key": self.api_key, **options})

    def _http_options(self, options: dict) -> dict:
        """What the SDK gives the HTTP client it makes itself (its address and timeout), and the shared
        certificate store."""
        timeout = options.get("timeout")
        given = timeout is not None and not isinstance(timeout, anthropic.NotGiven)
        return {"base_url": self.anthropic_base_url, "verify": tls_context(), **({"timeout": timeout} if given else {})}

    def async_client(self, **options: object) -> anthropic.AsyncAnthropic:
        """A real anthropic.AsyncAnthropic client pointed at this sandbox."""
        if "http_client" not in options:
            options["http_client"] = _AsyncHttpClient(**self._http_options(options))
        return anthropic.AsyncAnthropic(**{"base_url": self.anthropic_base_url, "api_key": self.api_key,
                                           **options})

    @property
    def context_window(self) -> int | None:
        return self.messages_api.context_window

    @context_window.setter
    def context_window(self, tokens: int | None) -> None:
        """Shrink every model's context window (None restores the models' own)."""
        if tokens is not None and tokens < 1:
            raise ValueError("context_window must be a positive number of tokens")
        self.messages_api.context_window = tokens

    def force(self, *misbehaviours: str) -> None:
        """Make the next responses misbehave, one each, in order: "refusal", "pause_turn", "max_tokens" (a tool
        call cut in the middle), "max_tokens_answer" (the answer cut half-way, whichever turn it comes in),
        "context_window" (the same cut by a full window), "stuck" (the same tool asked again), "wandering" (the same
        tool with another input each time), "one_more_call" (the answer put off once: the last call asked again),
        "bad_input" (a call sent without its arguments), "unknown_tool" (a call of a tool not offered),
        "stop_sequence", "unknown_stop", "doubled" (each tool call asked twice in
        one turn), "reversed_calls" (the first turn of several calls asks them the other way round) or "as_is" (the
        reply unchanged: an order that starts later). See messages_api.misbehave."""
        self.messages_api.force(*misbehaviours)

    def clear_cache(self) -> None:
        self.messages_api.cache.clear()

    def forget_threads(self) -> None:
        """Drop every conversation held for message threads, as a server restart does (a demo of the SDK's
        replay: its next `continue` gets `thread_not_found` and sends the whole history again)."""
        self.messages_api.threads.clear()
