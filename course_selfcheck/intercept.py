"""Send every HTTP request of the process to the scenario's sandbox while a check runs, at the
place requests leave it: `httpx2.Client.send` / `httpx2.AsyncClient.send` for the anthropic SDK,
`requests.adapters.HTTPAdapter.send` for python-gitlab, urllib's `OpenerDirector.open` (and httpx's,
when the learner's code has imported httpx), patched on the classes (the way respx and responses do
it), so any client object, however it was built, kept or copied, and in any thread, is covered,
without finding it or touching its insides.

A request already addressed to the sandbox goes as it is, through its own client. Any other is
readdressed to the sandbox, its credentials swapped for the sandbox's (see route.py), and answered
by the sandbox's WSGI app in the loop's own thread, without an HTTP hop (a round trip through the
server costs as much again as the sandbox's own work, and a check runs the loop for dozens of
requests): the SDK's Messages API requests through httpx2's public WSGITransport in a client of the
check's, python-gitlab's by the app through werkzeug's test environ, turned into a Response by the
loop's own adapter (build_response, as for a socket's answer). Everything else (async clients, the
GitLab API over httpx, whose encoded paths WSGITransport does not pass on) goes over HTTP, by a
client of the check's (the loop's may hold connections of another event loop, or a transport that is
not HTTP). In-process, a "slow" fault holds the loop's own thread whatever its client's timeout; the
check orders no fault that only a socket can show (a dropped connection).
"""

import functools
import inspect
import io
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.client import RemoteDisconnected
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import httpx2
import requests.adapters
import urllib3
from werkzeug.test import EnvironBuilder, run_wsgi_app

from course_sandbox.app import ConnectionDropped
from course_sandbox.server import tls_context

from .route import MESSAGES_API, Route, sign

_lock = threading.Lock()
_routes: list[Route] = []
"""The routes in force, the newest last (a check inside a check routes to the inner one's sandbox)."""
_undo: list[Callable[[], None]] = []
_apps: dict[Route, Callable] = {}
"""The WSGI app of each route's sandbox, which answers its readdressed requests in-process."""
_own: dict[type, Any] = {}
"""The check's own httpx2 (or httpx) clients over HTTP, made on the first request they carry, closed with the last
route."""
_in_process: dict[tuple[ModuleType, Route], Any] = {}
"""The check's own clients that hand a route's requests to its sandbox app, closed with their route."""


def current() -> Route | None:
    try:
        return _routes[-1]
    except IndexError:
        return None


def _own_client(http: ModuleType, kind: type) -> Any:
    """The check's client of this kind: plain HTTP to 127.0.0.1; the async one keeps no connection
    between requests, so it serves every event loop the loop may run (asyncio.run per call)."""
    with _lock:
        if kind not in _own:
            keep = {} if kind is http.Client else {"limits": http.Limits(max_keepalive_connections=0)}
            _own[kind] = kind(verify=tls_context(), timeout=http.Timeout(60.0), **keep)
        return _own[kind]


def _in_process_client(http: ModuleType, route: Route) -> Any:
    """The check's client that hands a request to the route's sandbox app in this thread."""
    with _lock:
        if (http, route) not in _in_process:
            _in_process[http, route] = http.Client(transport=http.WSGITransport(app=_apps[route]))
        return _in_process[http, route]


def _readdressed(request: Any) -> bool:
    """True when a route takes this request to its sandbox (and the request is readdressed and signed)."""
    route, url = current(), request.url
    if route is None or route.owns(url.scheme, url.host, url.port):
        return False
    target = route.target(url.raw_path.decode("ascii"))
    request.url = type(url)(target)
    sign(route, target, request.headers)
    request.headers["Host"] = f"{route.host}:{route.port}"
    return True


def _redirects(client: Any, kwargs: dict) -> bool:
    follow = kwargs.get("follow_redirects")
    return follow if isinstance(follow, bool) else client.follow_redirects


def _sync_send(original: Callable, http: ModuleType) -> Callable:
    @functools.wraps(original)
    def send(self: Any, request: Any, **kwargs: Any) -> Any:  # an httpx2 (or httpx) Client, Request, Response
        if self.is_closed or not _readdressed(request):
            return original(self, request, **kwargs)
        route = current()
        in_process = route in _apps and request.url.path.startswith(MESSAGES_API)
        client = _in_process_client(http, route) if in_process else _own_client(http, http.Client)
        try:
            return original(client, request, stream=kwargs.get("stream", False), auth=None,
                            follow_redirects=_redirects(self, kwargs))
        except ConnectionDropped:  # what httpx raises when the server closes the connection without an answer
            raise http.RemoteProtocolError("Server disconnected without sending a response.", request=request) \
                from None
    return send


def _async_send(original: Callable, http: ModuleType) -> Callable:
    @functools.wraps(original)
    async def send(self: Any, request: Any, **kwargs: Any) -> Any:
        if self.is_closed or not _readdressed(request):
            return await original(self, request, **kwargs)
        return await original(_own_client(http, http.AsyncClient), request, stream=kwargs.get("stream", False),
                              auth=None, follow_redirects=_redirects(self, kwargs))
    return send


def _adapter_send(original: Callable) -> Callable:
    signature = inspect.signature(original)

    @functools.wraps(original)
    def send(self: requests.adapters.HTTPAdapter, request: requests.PreparedRequest, *args: Any,
             **kwargs: Any) -> requests.Response:
        route, url = current(), urlsplit(request.url)
        if route is None or route.owns(url.scheme, url.hostname or "", url.port):
            return original(self, request, *args, **kwargs)
        request.url = route.target(request.path_url)
        sign(route, request.url, request.headers)
        if route in _apps:
            return _answered_in_process(self, request, _apps[route])
        bound = signature.bind(self, request, *args, **kwargs)
        bound.arguments["proxies"] = {}  # a proxy meant for the learner's GitLab has no business with 127.0.0.1
        return original(*bound.args, **bound.kwargs)
    return send


def _answered_in_process(adapter: requests.adapters.HTTPAdapter, request: requests.PreparedRequest,
                         app: Callable) -> requests.Response:
    """The sandbox app's answer to a requests request, as the adapter would have read it from a socket."""
    url = urlsplit(request.url)
    body = request.body.encode() if isinstance(request.body, str) else request.body
    if body is not None and not isinstance(body, bytes):  # a file or an iterable of chunks
        body = body.read() if hasattr(body, "read") else b"".join(body)
    environ = EnvironBuilder(path=url.path, query_string=url.query, method=request.method, data=body or b"",
                             headers=list(request.headers.items()),
                             base_url=f"{url.scheme}://{url.netloc}").get_environ()
    try:
        chunks, status, headers = run_wsgi_app(app, environ, buffered=True)
    except ConnectionDropped:  # what requests raises when the server closes the connection without an answer
        raise requests.exceptions.ConnectionError(urllib3.exceptions.ProtocolError(
            "Connection aborted.", RemoteDisconnected("Remote end closed connection without response")),
            request=request) from None
    code, _, reason = status.partition(" ")
    raw = urllib3.HTTPResponse(body=io.BytesIO(b"".join(chunks)), headers=list(headers.items()), status=int(code),
                               reason=reason, preload_content=False, decode_content=False)
    return adapter.build_response(request, raw)


def _opener_open(original: Callable) -> Callable:
    """urllib's OpenerDirector.open (urlopen, and any opener the loop builds): readdressed and signed, then
    sent over HTTP by the same opener."""
    @functools.wraps(original)
    def open(self: urllib.request.OpenerDirector, fullurl: Any, *args: Any, **kwargs: Any) -> Any:
        route = current()
        request = fullurl if isinstance(fullurl, urllib.request.Request) else urllib.request.Request(fullurl)
        url = urlsplit(request.full_url)
        if route is None or route.owns(url.scheme, url.hostname or "", url.port):
            return original(self, fullurl, *args, **kwargs)
        target = route.target(url.path + ("?" + url.query if url.query else ""))
        headers = dict(request.header_items())
        sign(route, target, headers)
        readdressed = urllib.request.Request(target, data=request.data, headers=headers,
                                             method=getattr(request, "method", None))  # set only when given
        return original(self, readdressed, *args, **kwargs)
    return open


def patched() -> list[tuple[type, str, Callable[[Callable], Callable]]]:
    """(class, method, wrapper maker) of each send method routed: httpx2's, requests' and urllib's always,
    httpx's when something in the process has imported it (a client of it can exist only then)."""
    found = [(requests.adapters.HTTPAdapter, "send", _adapter_send),
             (urllib.request.OpenerDirector, "open", _opener_open)]
    for http in (httpx2, sys.modules.get("httpx")):
        if http is not None:
            found += [(http.Client, "send", functools.partial(_sync_send, http=http)),
                      (http.AsyncClient, "send", functools.partial(_async_send, http=http))]
    return found


def _install() -> None:
    for owner, name, wrap in patched():
        original = getattr(owner, name)
        wrapper = wrap(original)
        setattr(owner, name, wrapper)

        def undo(owner: type = owner, name: str = name, original: Callable = original,
                 wrapper: Callable = wrapper) -> None:
            if getattr(owner, name) is wrapper:  # else someone patched over it: it stays, routing nothing
                setattr(owner, name, original)
        _undo.append(undo)


def _uninstall() -> None:
    while _undo:
        _undo.pop()()
    own = [client for client in _own.values() if hasattr(client, "close")]  # the async ones hold no connection
    _own.clear()
    for client in own:
        client.close()


@contextmanager
def routed_to(route: Route, app: Callable | None = None) -> Iterator[None]:
    """Within the block, every HTTP request of the process that is not addressed to `route`'s sandbox
    is sent there instead, with its credentials; given the sandbox's WSGI `app`, it answers them
    in-process. Nested blocks route to the innermost."""
    with _lock:
        if not _routes:
            _install()
        _routes.append(route)
        if app is not None:
            _apps[route] = app
    try:
        yield
    finally:
        with _lock:
            _routes.remove(route)
            _apps.pop(route, None)
            mine = [_in_process.pop(key) for key in list(_in_process) if key[1] == route]
            if not _routes:
                _uninstall()
        for client in mine:
            client.close()
