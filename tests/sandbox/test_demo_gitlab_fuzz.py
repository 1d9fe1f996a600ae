"""The demo GitLab answers every input like GitLab would (issue #30): a 4xx with GitLab's
`{"message": ...}` or `{"error": ...}`, never a 5xx or a traceback, and a refused request changes
nothing. First the cases fuzzing found, then a bounded, derandomized hypothesis fuzz over paths,
query parameters and bodies."""

import http.client
import json
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.demo_gitlab.http import ROUTES

TOKEN_HEADER = "PRIVATE-TOKEN"


def request(sandbox, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    """(status, parsed JSON or the raw text) from a plain HTTP client; the path is sent as it is."""
    connection = http.client.HTTPConnection("127.0.0.1", sandbox.port, timeout=30)
    try:
        connection.request(method, path, body, {TOKEN_HEADER: sandbox.gitlab_token,
                                                "content-type": "application/json", **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, raw.decode(errors="replace")


def gitlab_shaped(body) -> bool:
    return isinstance(body, dict) and set(body) in ({"message"}, {"error"})


# the cases fuzzing found
def test_an_iid_past_pythons_int_digit_limit_is_the_same_404_as_a_long_one(sandbox):
    assert request(sandbox, "GET", "/api/v4/projects/7/merge_requests/" + "1" * 4300) == (
        404, {"message": "404 Not found"})
    assert request(sandbox, "GET", "/api/v4/projects/7/merge_requests/" + "1" * 4301) == (
        404, {"message": "404 Not found"})
    assert request(sandbox, "GET", "/api/v4/projects/7/merge_requests/482/notes/" + "9" * 5000)[0] == 400


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e999", "1" * 5000])
def test_a_json_number_gitlabs_parser_rejects_is_400_and_no_thread(sandbox, number):
    mr = sandbox.gitlab.merge_requests[482]
    body = ('{"body": "x", "position": {"position_type": "text", "base_sha": "a", "start_sha": "a", '
            f'"head_sha": "a", "new_path": "shop/pricing.py", "new_line": {number}}}}}').encode()
    status, answer = request(sandbox, "POST", "/api/v4/projects/7/merge_requests/482/discussions", body)
    assert status == 400 and gitlab_shaped(answer), answer
    assert mr.discussions == []


@pytest.mark.parametrize("path", ["../x", "/etc/passwd", "a/../../b", "x\x00y", ":(glob)**", "-x"])
def test_commits_of_an_odd_path_is_no_commit_not_a_git_error(sandbox, path):
    query = urllib.parse.urlencode({"path": path})
    for extra in ("", "&all=true"):
        assert request(sandbox, "GET", f"/api/v4/projects/7/repository/commits?{query}{extra}") == (200, [])
    assert request(sandbox, "GET", f"/api/v4/projects/7/repository/tree?{query}")[0] in (200, 404)


def test_a_header_too_large_on_a_gitlab_path_gets_gitlabs_envelope(sandbox):
    status, body = request(sandbox, "GET", "/api/v4/projects/7", headers={"X-Big": "a" * (300 * 1024)})
    assert (status, body) == (431, {"message": "431 Request Header Fields Too Large"})
    status, body = request(sandbox, "GET", "/v1/models", headers={"X-Big": "a" * (300 * 1024)})
    assert status == 431 and body["type"] == "error"  # the Messages API keeps its own envelope


def test_a_refused_edit_reaction_or_approval_moves_no_clock(sandbox):
    before = sandbox.gitlab.clock.events
    assert request(sandbox, "PUT", "/api/v4/projects/7/merge_requests/482", b'{"title": " "}')[0] == 400
    assert request(sandbox, "PUT", "/api/v4/projects/7/merge_requests/482", b'{"squash": "?"}')[0] == 400
    assert request(sandbox, "POST", "/api/v4/projects/7/merge_requests/482/award_emoji", b'{"name": "?"}')[0] == 404
    assert sandbox.gitlab.clock.events == before
    assert request(sandbox, "POST", "/api/v4/projects/7/merge_requests/482/approve")[0] == 201
    before = sandbox.gitlab.clock.events
    assert request(sandbox, "POST", "/api/v4/projects/7/merge_requests/482/approve")[0] == 401
    assert sandbox.gitlab.clock.events == before


def test_a_bad_parameter_is_400_before_an_unknown_note_is_404(sandbox):
    """Grape validates the parameters before the endpoint looks anything up."""
    path = "/api/v4/projects/7/merge_requests/482/discussions/x/notes/999"
    assert request(sandbox, "PUT", path, b'{"resolved": "maybe"}') == (400, {"error": "resolved is invalid"})
    assert request(sandbox, "PUT", path, b'{"resolved": true}') == (404, {"message": "404 Not found"})


@pytest.mark.parametrize("name", ["HEAD", "d1f3f346c2fa696969c753e1d7988b5e181f2bda", "refs%2Fheads%2Fmain"])
def test_only_a_branch_is_a_branch(sandbox, name):
    assert request(sandbox, "GET", f"/api/v4/projects/7/repository/branches/{name}") == (
        404, {"message": "404 Branch Not Found"})


@pytest.mark.parametrize("path", ["/api/v4", "/api/v4/", "/api/v4/nothing"])
def test_the_api_root_is_gitlabs_404(sandbox, path):
    assert request(sandbox, "GET", path) == (404, {"error": "404 Not Found"})


# the fuzz
SHA = "d1f3f346c2fa696969c753e1d7988b5e181f2bda"
VALUES = st.one_of(
    st.sampled_from(["482", "483", "487", "1", "0", "-1", "7", "main", "feature/x", SHA, "0" * 40, "..", ".", "",
                     "README.md", "shop/pricing.py", "shop%2Fpricing.py", "%00", "1e999", "Infinity", "NaN",
                     "9" * 4301, "2147483648", "true", "eyes", "bug", "a,b", " ", "\u00e9", "-x", ":(glob)*"]),
    st.text(max_size=12),
)
PARAMS = ["ref", "ref_name", "path", "page", "per_page", "state", "labels", "iids[]", "iids", "refs[]", "refs", "from",
          "to", "sort", "order_by", "all", "with_counts", "search", "recursive", "straight", "with_stats",
          "include_rebase_in_progress", "name", "body", "note", "line", "line_type", "sha", "squash",
          "should_remove_source_branch", "title", "resolved"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | VALUES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(PARAMS + ["position", "new_line"]),
                                                                inner, max_size=4),
    max_leaves=8)
POSITION = st.fixed_dictionaries({"position_type": st.sampled_from(["text", "image", "x"]), "base_sha": VALUES,
                                  "start_sha": VALUES, "head_sha": VALUES, "new_path": VALUES},
                                 optional={"new_line": JSON_VALUES, "old_line": JSON_VALUES})


VALID = st.sampled_from(["482", "483", "487", "main", SHA, "shop%2Fpricing.py", "5001", "1", "bug",
                         "9ee0a4d1a1f1b5c3d6e7f8a9b0c1d2e3f4a5b6c7"])
"""Path values the demo knows (an MR, a branch, a commit, a file, the first note's id...), so that
a request gets past the route to its parameters."""


def _segment(value: str) -> str:
    return urllib.parse.quote(value, safe="") if value not in ("..", ".") else value


@st.composite
def gitlab_requests(draw):
    """A route of the demo (or a near miss) with random values, method, query and body."""
    route = draw(st.sampled_from(ROUTES))
    segments = [draw(VALID | VALUES.map(_segment)) if part.startswith(":") else part for part in route.pattern]
    if draw(st.booleans()) and segments:  # a near miss: one segment replaced
        segments[draw(st.integers(0, len(segments) - 1))] = _segment(draw(VALUES))
    project = draw(st.sampled_from(["7", "7", "7", "course%2Fshop", "8", "course%2Fother"]))
    method = draw(st.sampled_from([route.method] * 4 + ["GET", "POST", "PUT", "DELETE", "HEAD"]))
    query = draw(st.lists(st.tuples(st.sampled_from(PARAMS), VALUES), max_size=4))
    path = "/api/v4/projects/" + "/".join([project, *segments]).rstrip("/")
    if query:
        path += "?" + urllib.parse.urlencode(query)
    fields = st.dictionaries(st.sampled_from(PARAMS), JSON_VALUES, max_size=5)
    body = draw(st.one_of(
        st.none(),
        fields.map(lambda f: json.dumps(f, allow_nan=True).encode()),
        st.builds(lambda f, p: json.dumps({**f, "position": p}, allow_nan=True).encode(), fields, POSITION),
        st.binary(max_size=40),
        st.sampled_from([b"[]", b'"x"', b"{", b'{"body": "\\ud800"}', b'{"a": ' * 600, b'{"new_line": 1e999}'])))
    return method, path, body


def demo_state(project) -> str:
    """Everything a client can change: branches and refs, each MR as the API shows it with its
    threads, approvals and reactions, the labels, commit threads, and the clock (a refused request
    must not shift later timestamps). (Mergeability, `has_conflicts`,
    is knowledge GitLab also updates when it checks, so it is left out.)"""
    refs = project.repository.git("for-each-ref", "--format=%(refname) %(objectname)").decode()
    mrs = [[project.mr_view(mr), [d.view(7, iid) for d in mr.discussions], mr.approvals.by,
            [a.view() for a in project.awards.of("MergeRequest", 1000 + iid)],
            [a.view() for note in mr.note_objects() for a in project.awards.of("Note", note.id)]]
           for iid, mr in sorted(project.merge_requests.items())]
    for row in mrs:
        row[0] = {k: v for k, v in row[0].items() if k not in ("has_conflicts", "merge_status", "detailed_merge_status")}
    labels = [label.view() for label in project.labels.all()], [e.view() for e in project.labels.events]
    commits = {sha: [d.view(7, None) for d in threads] for sha, threads in project.commit_discussions.items()
               if threads}  # a commit nobody commented on looks the same with or without its empty list
    return json.dumps([refs, mrs, labels, commits, project.clock.events], sort_keys=True, default=str)


def test_fuzzed_requests_get_gitlab_answers_and_refusals_change_nothing():
    with Sandbox() as sandbox:
        @settings(max_examples=350, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(gitlab_requests())
        def check(generated):
            method, path, body = generated
            before = demo_state(sandbox.gitlab)
            status, answer = request(sandbox, method, path, body)
            assert status < 500, (method, path, body, status, answer)
            assert "Traceback" not in str(answer)
            if status >= 400:
                assert method == "HEAD" or gitlab_shaped(answer), (method, path, body, status, answer)
                assert demo_state(sandbox.gitlab) == before, (method, path, body, status, answer)

        check()
