"""Each sandbox has credentials of its own (issue #41): on a shared machine every learner's sandbox is on
127.0.0.1, so a port found must not be a way in. Another sandbox's key and token get the services' own 401s."""

import json
import urllib.error
import urllib.request
import warnings

import anthropic
import gitlab
import pytest
from sandbox_http import MODEL

import course_sandbox
from course_agent.redaction import redact
from course_sandbox import SANDBOX_KEY_PREFIX, SANDBOX_TOKEN_PREFIX, Sandbox

ASK = {"model": MODEL, "max_tokens": 64, "messages": [{"role": "user", "content": "Hello"}]}


@pytest.fixture(scope="module")
def two():
    with Sandbox() as first, Sandbox() as second:
        yield first, second


def _anthropic(sandbox: Sandbox, key: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=sandbox.anthropic_base_url, api_key=key, max_retries=0)


def _gitlab(sandbox: Sandbox, token: str) -> gitlab.Gitlab:
    return gitlab.Gitlab(sandbox.gitlab_url, private_token=token, retry_transient_errors=False)


def test_another_sandboxs_key_gets_the_apis_401(two):
    first, second = two
    with pytest.raises(anthropic.AuthenticationError) as caught:
        _anthropic(second, first.api_key).messages.create(**ASK)
    assert caught.value.status_code == 401
    assert caught.value.body == {"type": "error", "error": {"type": "authentication_error",
                                                            "message": "invalid x-api-key"},
                                 "request_id": caught.value.request_id}
    assert first.api_key not in json.dumps(caught.value.body) and second.api_key not in json.dumps(caught.value.body)
    with pytest.raises(anthropic.AuthenticationError):  # as a bearer token too
        anthropic.Anthropic(base_url=second.anthropic_base_url, auth_token=first.api_key,
                            max_retries=0).messages.create(**ASK)
    for own in two:  # each sandbox's own key works, there and only there
        assert _anthropic(own, own.api_key).messages.create(**ASK).role == "assistant"
        assert own.client(max_retries=0).messages.count_tokens(model=ASK["model"], messages=ASK["messages"])


def test_another_sandboxs_token_gets_gitlabs_401(two):
    first, second = two
    with pytest.raises(gitlab.GitlabAuthenticationError) as caught:
        _gitlab(second, first.gitlab_token).projects.get(second.project)
    assert caught.value.response_code == 401
    assert json.loads(caught.value.response_body) == {"message": "401 Unauthorized"}
    mr = _gitlab(second, second.gitlab_token).projects.get(second.project, lazy=True).mergerequests.get(485)
    with pytest.raises(gitlab.GitlabAuthenticationError):  # the merge a learner must not do in another's GitLab
        _gitlab(second, first.gitlab_token).projects.get(second.project, lazy=True).mergerequests.get(485,
                                                                                                    lazy=True).merge()
    assert second.gitlab.merge_requests[485].state == mr.state == "opened"
    for own in two:
        project = _gitlab(own, own.gitlab_token).projects.get(own.project)
        assert project.path_with_namespace == own.project
    with pytest.raises(gitlab.GitlabAuthenticationError):  # nor does the API key open the GitLab, or the reverse
        _gitlab(first, first.api_key).projects.get(first.project)
    with pytest.raises(anthropic.AuthenticationError):
        _anthropic(first, first.gitlab_token).messages.create(**ASK)


def test_another_sandboxs_key_cannot_set_its_faults(two):
    first, second = two
    request = urllib.request.Request(second.url + "/sandbox/faults", data=b'{"kind": "status", "status": 529}',
                                     method="POST", headers={"x-api-key": first.api_key})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 401 and json.loads(caught.value.read())["error"]["type"] == "authentication_error"
    assert second.faults.pending() == []


def test_no_two_sandboxes_share_a_key_or_a_token():
    made = [Sandbox() for _ in range(200)]
    keys, tokens = [sb.api_key for sb in made], [sb.gitlab_token for sb in made]
    assert len(set(keys)) == len(set(tokens)) == len(made)
    assert all(k.startswith(SANDBOX_KEY_PREFIX) and len(k) == len(SANDBOX_KEY_PREFIX) + 32 for k in keys)
    assert all(t.startswith(SANDBOX_TOKEN_PREFIX) and len(t) == len(SANDBOX_TOKEN_PREFIX) + 32 for t in tokens)
    assert not set(k.removeprefix(SANDBOX_KEY_PREFIX) for k in keys) & set(
        t.removeprefix(SANDBOX_TOKEN_PREFIX) for t in tokens)
    for sb in made:
        sb.messages_api.close()


def test_the_started_sandbox_keeps_its_key_and_hands_it_out():
    sandbox = Sandbox()
    key, token = sandbox.api_key, sandbox.gitlab_token
    with sandbox.start():
        assert (sandbox.api_key, sandbox.gitlab_token) == (key, token)
        assert sandbox.client().api_key == key
        assert sandbox.env()["ANTHROPIC_API_KEY"] == key and sandbox.env()["GITLAB_TOKEN"] == token
    shown = redact(f"key {key}, token {token}, cut {key[:20]}")  # secrets now: hidden by their shape alone
    assert key not in shown and token not in shown and key[:20] not in shown


def test_a_sandbox_given_credentials_before_start_accepts_those():
    """A test may name the key and token before start(), as tests/test_lean_install.py does."""
    sandbox = Sandbox()
    sandbox.api_key, sandbox.gitlab_token = "sk-ant-sandbox-chosen-by-a-test", "glpat-sandbox-chosen-by-a-test"
    with sandbox:
        assert sandbox.client(max_retries=0).messages.create(**ASK).role == "assistant"
        assert _gitlab(sandbox, "glpat-sandbox-chosen-by-a-test").projects.get(sandbox.project)


def test_the_old_fixed_names_are_deprecated_and_name_the_prefix():
    with pytest.warns(DeprecationWarning, match=r"SANDBOX_API_KEY is deprecated.*sb\.api_key") as caught:
        assert course_sandbox.SANDBOX_API_KEY == SANDBOX_KEY_PREFIX
    assert caught[0].filename == __file__  # pointed at the caller
    with pytest.warns(DeprecationWarning, match=r"sb\.gitlab_token"):
        from course_sandbox.server import SANDBOX_GITLAB_TOKEN
    assert SANDBOX_GITLAB_TOKEN == SANDBOX_TOKEN_PREFIX
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec("from course_sandbox import *", {})  # __all__ has the new names only: no warning
    with pytest.raises(AttributeError):
        course_sandbox.SANDBOX_NOTHING  # noqa: B018
