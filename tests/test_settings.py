"""The environment is read in one place, course_agent/settings.py: every variable, each bad value
refused with its variable named, no secret in a repr or an error, and read at call time."""

import ast
from pathlib import Path

import pytest

from course_agent import config, i18n
from course_agent.settings import SECRET_ENV_VARS, VARIABLES, Settings, SettingsError, environment

PACKAGE = Path(__file__).resolve().parent.parent / "course_agent"


READS = [
    ("COURSE_AGENT_MODEL", "model", "claude-x", "claude-x"),
    ("COURSE_AGENT_NEWER_MODEL", "newer_model", "claude-y", "claude-y"),
    ("COURSE_AGENT_FALLBACK_MODEL", "fallback_model", "claude-z", "claude-z"),
    ("COURSE_AGENT_PRESERVED_THINKING_MODEL", "preserved_thinking_model", "claude-p", "claude-p"),
    ("COURSE_AGENT_MY_CODE", "my_code", "/tmp/kept", "/tmp/kept"),
    ("COURSE_AGENT_BACKEND", "backend", " Live ", "live"),
    ("COURSE_AGENT_LANGUAGE", "language", "ru_RU", "ru"),
    ("COURSE_AGENT_AUTO_APPROVE", "auto_approve", "DENY ", "deny"),
    ("LANG", "system_locale", "ru_RU.UTF-8", "ru_ru.utf-8"),
    ("ANTHROPIC_API_KEY", "anthropic_api_key", "sk-ant-key-123456", "sk-ant-key-123456"),
    ("ANTHROPIC_AUTH_TOKEN", "anthropic_auth_token", "auth-token-123456", "auth-token-123456"),
    ("ANTHROPIC_BASE_URL", "anthropic_base_url", "http://127.0.0.1:9", "http://127.0.0.1:9"),
    ("GITLAB_URL", "gitlab_url", "https://gitlab.example", "https://gitlab.example"),
    ("GITLAB_TOKEN", "gitlab_token", "glpat-abcdefgh", "glpat-abcdefgh"),
    ("GITLAB_PROJECT", "gitlab_project", "group/shop", "group/shop"),
    ("COURSE_AGENT_GITLAB_TOKEN", "ci_gitlab_token", "ci-token-123456", "ci-token-123456"),
    ("COURSE_AGENT_GITLAB_URL", "ci_gitlab_url", "https://gitlab.example.com", "https://gitlab.example.com"),
    ("COURSE_AGENT_GITLAB_PROJECT", "ci_gitlab_project", "group/shop", "group/shop"),
    ("GITLAB_CI", "gitlab_ci", "TRUE", True),
    ("CI_SERVER_URL", "ci_server_url", "https://ci.example", "https://ci.example"),
    ("CI_PROJECT_ID", "ci_project_id", "42", "42"),
    ("CI_MERGE_REQUEST_PROJECT_ID", "ci_merge_request_project_id", "7", "7"),
    ("CI_PROJECT_PATH", "ci_project_path", "group/shop", "group/shop"),
    ("CI_MERGE_REQUEST_IID", "ci_merge_request_iid", " 17 ", 17),
    ("CI_PIPELINE_SOURCE", "ci_pipeline_source", "merge_request_event", "merge_request_event"),
]
"""(variable, Settings attribute, value set, value read)."""


@pytest.mark.parametrize("variable, attribute, raw, expected", READS)
def test_each_variable_is_read(variable, attribute, raw, expected):
    assert variable in VARIABLES
    assert getattr(Settings.from_env({variable: raw}), attribute) == expected
    unset = getattr(Settings.from_env({}), attribute)
    assert unset == getattr(Settings.from_env({variable: ""}), attribute)  # empty is unset
    assert unset in (None, False, "")


def test_every_variable_has_a_test_above():
    assert sorted(variable for variable, *_ in READS) == sorted(VARIABLES)


@pytest.mark.parametrize("variable, raw, words", [
    ("COURSE_AGENT_BACKEND", "cloud", "COURSE_AGENT_BACKEND must be 'sandbox' or 'live', got 'cloud'"),
    ("COURSE_AGENT_LANGUAGE", "de", "COURSE_AGENT_LANGUAGE must be one of en, ru, got 'de'"),
    ("COURSE_AGENT_AUTO_APPROVE", "yes", "COURSE_AGENT_AUTO_APPROVE must be 'approve' or 'deny', got 'yes'"),
])
def test_a_bad_value_is_refused_with_its_variable_named(variable, raw, words, monkeypatch):
    monkeypatch.delenv("COURSE_AGENT_LANGUAGE", raising=False)
    settings = Settings.from_env({variable: raw, "COURSE_AGENT_MODEL": "claude-x"})
    attribute = {"COURSE_AGENT_BACKEND": "backend", "COURSE_AGENT_LANGUAGE": "language",
                 "COURSE_AGENT_AUTO_APPROVE": "auto_approve"}[variable]
    with pytest.raises(SettingsError, match=words) as raised:
        getattr(settings, attribute)
    assert isinstance(raised.value, ValueError) and "\n" not in str(raised.value)
    with pytest.raises(SettingsError, match=words):
        settings.check()
    assert settings.model == "claude-x"  # a typo in one variable stops only what reads it


def test_the_language_is_checked_first_and_says_the_other_errors():
    with pytest.raises(SettingsError, match="COURSE_AGENT_LANGUAGE"):
        Settings.from_env({"COURSE_AGENT_LANGUAGE": "de", "COURSE_AGENT_BACKEND": "cloud"}).check()
    with pytest.raises(SettingsError, match="COURSE_AGENT_AUTO_APPROVE должна быть"):
        Settings.from_env({"COURSE_AGENT_LANGUAGE": "ru", "COURSE_AGENT_AUTO_APPROVE": "yes"}).check()
    assert Settings.from_env({"COURSE_AGENT_BACKEND": "sandbox"}).check().backend == "sandbox"


def test_no_secret_in_a_repr_or_an_error():
    secrets = {name: f"secret-{name.lower()}-0123456789" for name in SECRET_ENV_VARS}
    settings = Settings.from_env({**secrets, "GITLAB_URL": "https://gitlab.example", "COURSE_AGENT_BACKEND": "x"})
    shown = repr(settings) + str(settings)
    assert "https://gitlab.example" in shown and "[REDACTED]" in shown
    assert not any(value in shown for value in secrets.values())
    with pytest.raises(SettingsError) as raised:
        settings.check()
    assert not any(value in str(raised.value) for value in secrets.values())
    assert settings.secrets == set(secrets.values())


def test_settings_are_read_at_call_time(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_MODEL", "claude-later")
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert config.model_id() == "claude-later" and i18n.language() == "ru"
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    assert i18n.language() == "en"


def test_environment_sets_and_puts_back(monkeypatch):
    monkeypatch.setenv("GITLAB_URL", "https://mine.example")
    monkeypatch.delenv("GITLAB_TOKEN", raising=False)
    with environment({"GITLAB_URL": None, "GITLAB_TOKEN": "sandbox-token"}):
        assert Settings.from_env().gitlab_url is None and Settings.from_env().gitlab_token == "sandbox-token"
    assert Settings.from_env().gitlab_url == "https://mine.example" and Settings.from_env().gitlab_token is None


def _reads_the_environment(tree: ast.AST) -> list[int]:
    """Lines that touch the process's environment: os.environ, os.getenv/putenv/unsetenv, or either
    imported from os."""
    names = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in names and getattr(node.value, "id", None) == "os":
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and names & {a.name for a in node.names}:
            lines.append(node.lineno)
    return lines


def test_only_settings_reads_the_environment():
    found = []
    for path in sorted([*PACKAGE.rglob("*.py"), *(PACKAGE.parent / "course_selfcheck").rglob("*.py")]):
        if path.name == "settings.py" and path.parent == PACKAGE:
            continue
        found += [f"{path.relative_to(PACKAGE.parent)}:{line}" for line in _reads_the_environment(ast.parse(path.read_text()))]
    assert not found, "read the environment through course_agent.settings.Settings instead:\n" + "\n".join(found)
    assert _reads_the_environment(ast.parse((PACKAGE / "settings.py").read_text()))  # the check sees a read


def test_settings_cannot_be_changed_once_read():
    from dataclasses import FrozenInstanceError

    settings = Settings.from_env({"GITLAB_URL": "https://gitlab.example"})
    with pytest.raises(FrozenInstanceError):
        settings.environ = {}
    with pytest.raises(TypeError):
        settings.environ["GITLAB_URL"] = "https://elsewhere.example"


def test_using_demo_gitlab_is_false_as_soon_as_a_gitlab_of_ones_own_is_named(monkeypatch):
    """Notebook 7's unguarded cell merges !485 on purpose only where using_demo_gitlab() says so."""
    from course_agent.client import using_demo_gitlab

    for name in ("GITLAB_URL", "GITLAB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    assert using_demo_gitlab()
    monkeypatch.setenv("GITLAB_URL", "https://gitlab.example.com")
    assert not using_demo_gitlab()
    monkeypatch.delenv("GITLAB_URL")
    monkeypatch.setenv("GITLAB_TOKEN", "glpat-x")
    assert not using_demo_gitlab()
