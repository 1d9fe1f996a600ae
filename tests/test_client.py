"""Choosing the backend: the live API with a key, the sandbox otherwise, announced once, no secret shown;
in a notebook the announcement is a note (not stderr, which JupyterLab paints red), in the learner's language."""

import pytest

from course_agent import client as client_module
from course_agent.config import DEFAULT_MODEL, model_id
from course_agent.gitlab import GitLabTools


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "COURSE_AGENT_BACKEND", "GITLAB_URL", "GITLAB_TOKEN",
                 "GITLAB_PROJECT", "COURSE_AGENT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(client_module, "_announced", set())
    monkeypatch.delenv("COURSE_AGENT_LANGUAGE", raising=False)


@pytest.fixture
def notebook(monkeypatch):
    """As if in a Jupyter kernel: what _announce displays is collected instead of shown."""
    import IPython.display
    shown = []
    monkeypatch.setattr(client_module, "_in_a_notebook", lambda: True)
    monkeypatch.setattr(IPython.display, "display", lambda *objects, **options: shown.append((objects, options)))
    return shown


def test_without_a_key_the_sandbox_answers(capsys):
    client = client_module.make_client()
    client_module.make_client()
    assert client.base_url.host == "127.0.0.1"
    assert client.messages.create(model=model_id(), max_tokens=100,
                                  messages=[{"role": "user", "content": "Hello"}]).stop_reason == "end_turn"
    assert capsys.readouterr().err.count("using the offline sandbox") == 1


def test_with_a_key_the_live_api_is_chosen_and_the_key_is_not_shown(monkeypatch, capsys):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-secret-abcdef")
    client = client_module.make_client()
    assert client.base_url.host == "api.anthropic.com"
    err = capsys.readouterr().err
    assert "live Anthropic API" in err and "sk-ant-live-secret-abcdef" not in err


def test_the_sandbox_can_be_forced(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-secret-abcdef")
    monkeypatch.setenv("COURSE_AGENT_BACKEND", "sandbox")
    assert client_module.make_client().base_url.host == "127.0.0.1"


def test_bad_backend_value_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_BACKEND", "cloud")
    with pytest.raises(ValueError, match="'sandbox' or 'live'"):
        client_module.make_client()


def test_model_id_lives_in_one_place_and_can_be_overridden(monkeypatch):
    assert model_id() == DEFAULT_MODEL
    monkeypatch.setenv("COURSE_AGENT_MODEL", "claude-sonnet-5")
    assert model_id() == "claude-sonnet-5"


def test_gitlab_defaults_to_the_sandbox_and_env_points_elsewhere(monkeypatch):
    url, token, project = client_module.gitlab_settings()
    assert project == "course/shop" and url.startswith("http://127.0.0.1:")
    monkeypatch.setenv("GITLAB_URL", "https://gitlab.example.com")
    monkeypatch.setenv("GITLAB_TOKEN", "glpat-real-token-123")
    with pytest.raises(RuntimeError, match="GITLAB_PROJECT"):
        client_module.gitlab_settings()
    monkeypatch.setenv("GITLAB_PROJECT", "group/project")
    assert client_module.gitlab_settings() == ("https://gitlab.example.com", "glpat-real-token-123", "group/project")


def test_the_same_tools_run_under_the_sdks_tool_runner(sandbox):
    """What the hand-written loop corresponds to in the SDK: its beta tool_runner."""
    from anthropic import beta_tool

    gitlab = GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project)

    @beta_tool
    def get_diff(pr: int) -> str:
        """Get the changes of a merge request."""
        return gitlab.get_diff(pr)

    @beta_tool
    def read_file(path: str, ref: str = "main") -> str:
        """Read a whole file from the repository."""
        return gitlab.read_file(path, ref)

    runner = sandbox.client().beta.messages.tool_runner(
        model=model_id(), max_tokens=4000, tools=[get_diff, read_file],
        messages=[{"role": "user", "content": "Review merge request !482."}])
    final = list(runner)[-1]
    assert final.stop_reason == "end_turn" and "shop/checkout.py:20" in final.content[-1].text


def test_using_sandbox_says_which_backend_make_client_will_use(monkeypatch):
    assert client_module.using_sandbox() is True
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-secret-abcdef")
    assert client_module.using_sandbox() is False
    monkeypatch.setenv("COURSE_AGENT_BACKEND", "sandbox")
    assert client_module.using_sandbox() is True
    monkeypatch.setenv("COURSE_AGENT_BACKEND", "cloud")
    with pytest.raises(ValueError, match="'sandbox' or 'live'"):
        client_module.using_sandbox()


def test_outside_a_kernel_the_notice_is_one_line_on_stderr(capsys):
    assert client_module._in_a_notebook() is False  # pytest is not a Jupyter kernel
    client_module.make_client()
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("course-agent: using the offline sandbox (simulated model); set ANTHROPIC_API_KEY to use "
                            "the real API.\n")


def test_in_a_notebook_the_notice_is_a_styled_note_not_stderr(notebook, capsys):
    client_module.make_client()
    client_module.make_client()
    client_module.gitlab_settings()
    assert capsys.readouterr().err == ""
    assert len(notebook) == 2  # the API and GitLab, each once
    (bundle,), options = notebook[0]
    assert options == {"raw": True} and set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"].startswith("course-agent: using the offline sandbox")
    note = bundle["text/html"]
    assert "using the offline sandbox" in note and "var(--jp-info-color1" in note
    assert "background:rgba(" in note and "error" not in note.lower()  # informational, not an error's red
    assert "project course/shop" in notebook[1][0][0]["text/plain"]


def test_the_notice_speaks_russian_and_never_shows_the_key(notebook, monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-secret-abcdef")
    client_module.make_client()
    bundle = notebook[0][0][0]
    assert bundle["text/plain"] == "course-agent: работаем с настоящим API Anthropic (ANTHROPIC_API_KEY задан)."
    assert "sk-ant-live-secret-abcdef" not in bundle["text/plain"] + bundle["text/html"]


def test_the_notice_in_a_real_kernel_is_display_data_not_stderr(tmp_path, monkeypatch):
    """The whole path, in an ipykernel as JupyterLab runs it."""
    import os

    from nbclient import NotebookClient
    from nbformat.v4 import new_code_cell, new_notebook

    nb = new_notebook(cells=[new_code_cell("from course_agent.client import make_client, using_sandbox\n"
                                           "client = make_client()\nprint(using_sandbox())")])
    for name in [k for k in os.environ if k.startswith(("ANTHROPIC_", "COURSE_AGENT_"))]:
        monkeypatch.delenv(name)  # the kernel inherits this environment
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = nb.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"], outputs
    notes = [o for o in outputs if o.output_type == "display_data"]
    assert len(notes) == 1 and "using the offline sandbox" in notes[0].data["text/plain"]
    assert "<div style=" in notes[0].data["text/html"]
    assert [o.text for o in outputs if o.output_type == "stream" and o.name == "stdout"] == ["True\n"]
