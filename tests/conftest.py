import gitlab
import pytest

from course_agent import client as client_module
from course_sandbox import Sandbox

COURSE_SETTINGS = ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GITLAB_URL", "GITLAB_TOKEN", "GITLAB_PROJECT",
                   "COURSE_AGENT_AUTO_APPROVE", "COURSE_AGENT_BACKEND", "COURSE_AGENT_LANGUAGE",
                   "COURSE_AGENT_GITLAB_TOKEN", "GITLAB_CI", "CI_MERGE_REQUEST_IID", "CI_SERVER_URL", "CI_PROJECT_ID",
                   "CI_PROJECT_PATH", "CI_PIPELINE_SOURCE")
"""The variables that point the course's code elsewhere (the live API, a GitLab, a pipeline, approvals)."""


@pytest.fixture
def sandbox():
    with Sandbox() as sb:
        yield sb


@pytest.fixture
def client(sandbox):
    return sandbox.client(max_retries=0)


@pytest.fixture
def gl(sandbox):
    """python-gitlab on the sandbox's demo GitLab."""
    return gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token)


@pytest.fixture
def project(gl, sandbox):
    return gl.projects.get(sandbox.project)


@pytest.fixture
def own_shared_sandbox(monkeypatch, tmp_path):
    """A sandbox of its own that in-process code (make_client, GitLabTools, the CLI's main) takes as the
    shared one, with none of COURSE_SETTINGS set and tmp_path as the working directory: a merge or a
    posted note does not leak into other tests, and nothing reaches the live API or a real GitLab."""
    for name in COURSE_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with Sandbox() as sb:
        monkeypatch.setattr(client_module, "_shared", sb)
        yield sb
