"""The self-check's routing at the HTTP libraries' send methods: every request not addressed to the
scenario's sandbox goes there, with the sandbox's credentials and never the learner's, from any client
and any thread; the sandbox's own traffic goes once and as it is; the libraries are left as they were."""

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anthropic
import gitlab
import httpx2
import pytest
import requests

from course_selfcheck.intercept import patched, routed_to
from course_selfcheck.route import Route

LIVE_KEY, LIVE_TOKEN = "sk-ant-live-key-of-the-learner", "glpat-learners-own-token"
ELSEWHERE = "http://127.0.0.1:9"
"""Not the route's server (a closed port): only routing can make a request sent there succeed."""
MESSAGE = json.dumps({"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": [],
                      "stop_reason": "end_turn", "stop_sequence": None,
                      "usage": {"input_tokens": 1, "output_tokens": 1}}).encode()
"""The stand-ins' answer to a Messages API request."""


class _Recorder(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.server.seen.append((self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                                 self.rfile.read(length)))
        body = b"[]" if self.path.startswith("/api/v4/") else MESSAGE
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server():
    """A stand-in for a scenario's sandbox that records every request with its headers."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    httpd.seen = []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _route(httpd) -> Route:
    return Route("127.0.0.1", httpd.server_address[1], "sk-ant-sandbox", "glpat-sandbox", "course/shop")


def _no_learner_secret(seen) -> bool:
    return not any(secret in repr(entry) for entry in seen for secret in (LIVE_KEY, LIVE_TOKEN))


def test_the_sdk_reaches_the_sandbox_with_its_key_whatever_its_address_and_key(server):
    clients = [anthropic.Anthropic(api_key=LIVE_KEY, base_url=ELSEWHERE + "/gateway", max_retries=0),
               anthropic.Anthropic(auth_token=LIVE_KEY, base_url=ELSEWHERE, max_retries=0),
               anthropic.Anthropic(api_key=LIVE_KEY, base_url="https://api.anthropic.com", max_retries=0,
                                   http_client=httpx2.Client(transport=httpx2.MockTransport(_never)))]
    with routed_to(_route(server)):
        for client in clients:
            client.messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": "hi"}])
            client.with_options(timeout=5).beta.messages.create(model="m", max_tokens=1, messages=[])
    assert [path.partition("?")[0] for _, path, _, _ in server.seen] == ["/v1/messages"] * 6
    assert all(headers.get("x-api-key") == "sk-ant-sandbox" and "authorization" not in headers
               for _, _, headers, _ in server.seen)
    assert _no_learner_secret(server.seen)


def _never(request: httpx2.Request) -> httpx2.Response:
    raise AssertionError(f"{request.url} left the process")


def test_python_gitlab_reaches_the_sandbox_project_with_its_token(server):
    """A Project made before the check, for the learner's own GitLab and project, is the sandbox's."""
    project = gitlab.Gitlab(ELSEWHERE + "/gitlab", private_token=LIVE_TOKEN).projects.get(4242, lazy=True)
    with routed_to(_route(server)):
        project.mergerequests.get(482, lazy=True).notes.list(get_all=False)
        requests.get(ELSEWHERE + "/api/v4/projects/a%2Fb/repository/files/x?ref=main&private_token=" + LIVE_TOKEN,
                     auth=("me", LIVE_TOKEN), timeout=5)
    paths = [path for _, path, _, _ in server.seen]
    assert paths[0].startswith("/api/v4/projects/course%2Fshop/merge_requests/482/notes")
    assert paths[1] == "/api/v4/projects/course%2Fshop/repository/files/x?ref=main"
    assert all(headers.get("private-token") == "glpat-sandbox" for _, _, headers, _ in server.seen)
    assert _no_learner_secret(server.seen)


def test_a_request_already_for_the_sandbox_goes_once_and_as_it_is(server):
    """The sandbox's own traffic is not rerouted (nor rerouted twice): a wrong key sent to it stays wrong."""
    own = anthropic.Anthropic(api_key="sk-ant-what-the-loop-said", base_url=_route(server).origin, max_retries=0)
    with routed_to(_route(server)):
        own.messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": "hi"}])
    assert len(server.seen) == 1 and "sk-ant-what-the-loop-said" in repr(server.seen[0][2])


def test_threads_and_event_loops_of_the_loop_are_routed(server):
    """A pool of threads, and an async client used by one asyncio.run after another (each its own event
    loop, which a pooled connection would not survive)."""
    sync = anthropic.Anthropic(api_key=LIVE_KEY, base_url=ELSEWHERE, max_retries=0)
    aclient = anthropic.AsyncAnthropic(api_key=LIVE_KEY, base_url=ELSEWHERE, max_retries=0)
    ask = {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "hi"}]}
    with routed_to(_route(server)):
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda _: sync.messages.create(**ask), range(8)))
        for _ in range(3):
            asyncio.run(aclient.messages.create(**ask))
    assert len(server.seen) == 11 and _no_learner_secret(server.seen)


def test_nested_routes_use_the_innermost_and_the_libraries_are_restored_even_after_an_error(server):
    before = [getattr(owner, name) for owner, name, _ in patched()]
    inner = Route("127.0.0.1", server.server_address[1], "sk-ant-inner", "glpat-inner", "course/shop")
    outer = Route("127.0.0.1", 9, "sk-ant-outer", "glpat-outer", "course/shop")
    with pytest.raises(RuntimeError, match="the loop failed"):
        with routed_to(outer):
            with routed_to(inner):
                httpx2.get(ELSEWHERE + "/v1/models")
            assert [getattr(owner, name) for owner, name, _ in patched()] != before  # still routing for `outer`
            raise RuntimeError("the loop failed")
    assert [getattr(owner, name) for owner, name, _ in patched()] == before
    assert server.seen[0][2]["x-api-key"] == "sk-ant-inner"
    with pytest.raises(httpx2.ConnectError):
        httpx2.get(ELSEWHERE + "/v1/models")  # no route: the request goes where it was sent


def test_httpx_is_routed_too_once_the_learner_has_imported_it(server):
    """Not the SDK's (it uses httpx2), but a learner's own HTTP call to the API is a request of the check too."""
    import httpx

    with routed_to(_route(server)):
        httpx.post(ELSEWHERE + "/v1/messages", headers={"x-api-key": LIVE_KEY}, json={"model": "m"}, timeout=5)
        asyncio.run(httpx.AsyncClient().post(ELSEWHERE + "/v1/messages", headers={"x-api-key": LIVE_KEY}))
    assert len(server.seen) == 2 and _no_learner_secret(server.seen)
    assert all(headers.get("x-api-key") == "sk-ant-sandbox" for _, _, headers, _ in server.seen)


@pytest.mark.parametrize("given, expected", [
    ("/v1/messages?beta=true", "/v1/messages?beta=true"),
    ("/proxy/anthropic/v1/messages/count_tokens", "/v1/messages/count_tokens"),
    ("/gitlab/api/v4/projects/12345/merge_requests/7/changes", "/api/v4/projects/course%2Fshop/merge_requests/7/changes"),
    ("/api/v4/projects/team%2Fapp/repository/files/a%2Fb.py/raw?ref=main&access_token=x",
     "/api/v4/projects/course%2Fshop/repository/files/a%2Fb.py/raw?ref=main"),
    ("/api/v4/user", "/api/v4/user"),
])
def test_the_sandboxs_address_for_a_request(given, expected):
    route = Route("127.0.0.1", 5000, "k", "t", "course/shop")
    assert route.target(given) == "http://127.0.0.1:5000" + expected


class _App:
    """A stand-in for the sandbox's WSGI app: records each request's thread, URI, headers and body."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str, dict, bytes]] = []

    def __call__(self, environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        headers = {k[5:].replace("_", "-").lower(): v for k, v in environ.items() if k.startswith("HTTP_")}
        self.seen.append((threading.current_thread().name, environ["REQUEST_METHOD"],
                          environ.get("REQUEST_URI", environ["PATH_INFO"]), headers, body))
        if environ["PATH_INFO"].startswith("/api/v4/"):
            answer = json.dumps({"id": 1, "iid": 482, "body": json.loads(body or b"{}").get("body")}).encode()
        else:
            answer = MESSAGE
        start_response("201 Created" if environ["REQUEST_METHOD"] == "POST" and b"body" in body else "200 OK",
                       [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))])
        return [answer]


def test_with_the_sandboxs_app_the_requests_are_answered_in_the_loops_own_thread(server):
    """No HTTP hop: the SDK's and python-gitlab's requests reach the app in the thread that sent them, readdressed
    and signed as over HTTP (the GitLab project's encoded path included); nothing reaches the server."""
    app = _App()
    claude = anthropic.Anthropic(api_key=LIVE_KEY, base_url=ELSEWHERE + "/gateway", max_retries=0)
    project = gitlab.Gitlab(ELSEWHERE, private_token=LIVE_TOKEN).projects.get(4242, lazy=True)
    with routed_to(_route(server), app):
        reply = claude.with_options(timeout=5).messages.create(model="m", max_tokens=1,
                                                               messages=[{"role": "user", "content": "hi"}])
        note = project.mergerequests.get(482, lazy=True).notes.create({"body": "Looks good."})
        with ThreadPoolExecutor(2, thread_name_prefix="learners-pool") as pool:
            list(pool.map(lambda _: claude.messages.count_tokens(model="m", messages=[]), range(2)))
    assert reply.stop_reason == "end_turn" and note.body == "Looks good." and server.seen == []
    threads, methods, uris, headers, bodies = zip(*app.seen)
    assert threads[:2] == (threading.current_thread().name,) * 2
    assert all(t.startswith("learners-pool") for t in threads[2:])
    assert uris[0] == "/v1/messages" and uris[1] == "/api/v4/projects/course%2Fshop/merge_requests/482/notes"
    assert json.loads(bodies[1]) == {"body": "Looks good."} and methods[1] == "POST"
    assert [h.get("x-api-key") for h in headers] == ["sk-ant-sandbox", None, "sk-ant-sandbox", "sk-ant-sandbox"]
    assert headers[1]["private-token"] == "glpat-sandbox" and _no_learner_secret(app.seen)


def test_with_the_sandboxs_app_async_clients_still_go_over_http(server):
    """An async client's requests are answered by the sandbox's server (an app called in the event loop
    would block it)."""
    app = _App()
    aclient = anthropic.AsyncAnthropic(api_key=LIVE_KEY, base_url=ELSEWHERE, max_retries=0)
    with routed_to(_route(server), app):
        asyncio.run(aclient.messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": "hi"}]))
    assert app.seen == [] and len(server.seen) == 1 and _no_learner_secret(server.seen)


def test_urllib_is_routed_too(server):
    """A learner's tool that calls GitLab with plain urllib (urlopen, or an opener of its own) reaches the
    sandbox with its token, never the learner's GitLab."""
    import urllib.request

    with routed_to(_route(server)):
        urllib.request.urlopen(urllib.request.Request(
            ELSEWHERE + "/api/v4/projects/team%2Fapp/merge_requests/482/merge?private_token=" + LIVE_TOKEN,
            method="PUT", headers={"PRIVATE-TOKEN": LIVE_TOKEN}), timeout=5).read()
        urllib.request.build_opener().open(ELSEWHERE + "/v1/messages", data=b"{}", timeout=5).read()
    (put, path, headers, _), (post, path2, headers2, body) = server.seen
    assert (put, path) == ("PUT", "/api/v4/projects/course%2Fshop/merge_requests/482/merge")
    assert headers["private-token"] == "glpat-sandbox" and headers2["x-api-key"] == "sk-ant-sandbox"
    assert (post, path2, body) == ("POST", "/v1/messages", b"{}") and _no_learner_secret(server.seen)


def test_a_dropped_connection_answered_in_process_is_what_the_libraries_raise_over_a_socket():
    """The sandbox's drop fault, answered in the loop's own thread, raises what requests (python-gitlab) and httpx
    (the SDK) raise when a server closes the connection without an answer: a tool's except for a network error
    catches it, as it would over HTTP; never the server's own ClientDisconnected."""
    from course_sandbox import Sandbox
    from course_selfcheck.retarget import route_to

    with Sandbox() as sandbox:
        sandbox.faults.drop(times=2, path="/")
        claude = anthropic.Anthropic(api_key=LIVE_KEY, base_url=ELSEWHERE, max_retries=0)
        lab = gitlab.Gitlab(ELSEWHERE, private_token=LIVE_TOKEN)
        with routed_to(route_to(sandbox), sandbox.wsgi_app):
            with pytest.raises(requests.exceptions.ConnectionError, match="Connection aborted"):
                lab.projects.get(sandbox.project)
            with pytest.raises(anthropic.APIConnectionError):
                claude.messages.create(model="claude-sonnet-5", max_tokens=10,
                                       messages=[{"role": "user", "content": "hi"}])
        assert sandbox.faults.pending() == []
