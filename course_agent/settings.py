"""Every environment variable the course reads, read here and nowhere else.

`Settings.from_env()` reads them when it is called, never at import: a notebook sets
os.environ["COURSE_AGENT_LANGUAGE"] after importing the package, and tests use monkeypatch. A value
the course cannot use is a SettingsError (a ValueError) whose one line names the variable; the
command turns it into exit 2. Secrets (API keys, tokens) never appear in a repr or an error.
Defaults (which model, which GitLab) stay with the code that applies them: None here means unset.
"""

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType

BACKEND_ENV = "COURSE_AGENT_BACKEND"
LANGUAGE_ENV = "COURSE_AGENT_LANGUAGE"
AUTO_APPROVE_ENV = "COURSE_AGENT_AUTO_APPROVE"
BACKENDS = ("sandbox", "live")
LANGUAGES = ("en", "ru")
AUTO_ANSWERS = ("approve", "deny")
SECRET_ENV_VARS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GITLAB_TOKEN", "COURSE_AGENT_GITLAB_TOKEN")
HIDDEN = "[REDACTED]"


class SettingsError(ValueError):
    """A variable holds a value the course cannot use (a ValueError, as before there was a Settings)."""


def _environ(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def _language(raw: str) -> str | None:
    chosen = raw.strip().lower()
    if chosen and chosen.split("_")[0].split("-")[0] not in LANGUAGES:
        raise SettingsError(f"{LANGUAGE_ENV} must be one of {', '.join(LANGUAGES)}, got {chosen!r}")
    return chosen[:2] or None


def _backend(raw: str) -> str | None:
    backend = raw.strip().lower()
    if backend and backend not in BACKENDS:
        raise SettingsError(f"{BACKEND_ENV} must be 'sandbox' or 'live', got {backend!r}")
    return backend or None


def _merge_request_iid(raw: str) -> int | None:
    """GitLab's number, or None for anything else (GitLab sets it, not a learner: nothing to refuse)."""
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) > 0 else None


VARIABLES = (
    "COURSE_AGENT_MODEL", "COURSE_AGENT_NEWER_MODEL", "COURSE_AGENT_FALLBACK_MODEL",
    "COURSE_AGENT_PRESERVED_THINKING_MODEL", BACKEND_ENV, LANGUAGE_ENV, AUTO_APPROVE_ENV, "LANG",
    "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "GITLAB_URL", "GITLAB_TOKEN", "GITLAB_PROJECT",
    "COURSE_AGENT_GITLAB_TOKEN", "COURSE_AGENT_GITLAB_URL", "COURSE_AGENT_GITLAB_PROJECT", "GITLAB_CI", "CI_SERVER_URL",
    "CI_PROJECT_ID", "CI_PROJECT_PATH",
    "CI_MERGE_REQUEST_PROJECT_ID", "CI_MERGE_REQUEST_IID", "CI_PIPELINE_SOURCE", "COURSE_AGENT_MY_CODE",
)
"""Every variable the package reads."""


def _text(variable: str, what: str) -> property:
    """A property giving the variable's text as is (None when unset or empty): nothing to check."""

    def get(self: "Settings") -> str | None:
        return self.environ.get(variable)

    return property(get, doc=f"{variable}: {what}.")


@dataclass(frozen=True, repr=False)
class Settings:
    """The course's variables as the environment held them when read (unset and empty ones left out).

    Each property checks its own variable only, when it is read: a typo in COURSE_AGENT_AUTO_APPROVE
    stops the approvals, not the model id a run is using. `check()` checks them all at once."""

    environ: Mapping[str, str] = field(default_factory=dict)
    """The variables of VARIABLES that are set, read-only (secrets among them: show the Settings, not this)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        """The course's variables from `environ` (None: os.environ as it is now)."""
        env = _environ(environ)
        return cls(MappingProxyType({name: env[name] for name in VARIABLES if env.get(name)}))

    def check(self) -> "Settings":
        """Itself, once every value has been checked: SettingsError for the first one the course cannot
        use, the language first, so that the other errors can be said in it."""
        for name in ("language", "backend", "auto_approve"):
            getattr(self, name)
        return self

    model = _text("COURSE_AGENT_MODEL", "the model every notebook and command uses")
    newer_model = _text("COURSE_AGENT_NEWER_MODEL", "notebook 4's newer model")
    fallback_model = _text("COURSE_AGENT_FALLBACK_MODEL", "notebook 6's fallback after a refusal")
    preserved_thinking_model = _text("COURSE_AGENT_PRESERVED_THINKING_MODEL", "notebook 5's append-only demo")
    my_code = _text("COURSE_AGENT_MY_CODE", "the folder of the exercises kept for later notebooks (my_code.py)")
    anthropic_api_key = _text("ANTHROPIC_API_KEY", "a secret, never shown")
    anthropic_auth_token = _text("ANTHROPIC_AUTH_TOKEN", "a secret, never shown")
    anthropic_base_url = _text("ANTHROPIC_BASE_URL", "another address for the Messages API")
    gitlab_url = _text("GITLAB_URL", "a GitLab of one's own")
    gitlab_token = _text("GITLAB_TOKEN", "a secret, never shown")
    gitlab_project = _text("GITLAB_PROJECT", "e.g. group/project")
    ci_gitlab_token = _text("COURSE_AGENT_GITLAB_TOKEN", "the pipeline's token: a secret, never shown")
    ci_gitlab_url = _text("COURSE_AGENT_GITLAB_URL", "in a pipeline, another GitLab than the one running the job")
    ci_gitlab_project = _text("COURSE_AGENT_GITLAB_PROJECT", "in a pipeline, another project than the job's")
    ci_server_url = _text("CI_SERVER_URL", "set by GitLab CI")
    ci_project_id = _text("CI_PROJECT_ID", "set by GitLab CI")
    ci_merge_request_project_id = _text("CI_MERGE_REQUEST_PROJECT_ID",
                                        "set by GitLab CI: the merge request's (target) project, also in a fork")
    ci_project_path = _text("CI_PROJECT_PATH", "set by GitLab CI")

    @property
    def backend(self) -> str | None:
        """COURSE_AGENT_BACKEND: 'sandbox', 'live' or None (decided by ANTHROPIC_API_KEY)."""
        return _backend(self.environ.get(BACKEND_ENV, ""))

    @property
    def language(self) -> str | None:
        """COURSE_AGENT_LANGUAGE: 'en', 'ru' or None (the locale decides)."""
        return _language(self.environ.get(LANGUAGE_ENV, ""))

    @property
    def auto_approve(self) -> str | None:
        """COURSE_AGENT_AUTO_APPROVE: 'approve', 'deny' or None (a human is asked)."""
        raw = self.environ.get(AUTO_APPROVE_ENV, "")
        answer = raw.strip().lower()
        if answer and answer not in AUTO_ANSWERS:
            from .i18n import language, tr  # imported here: i18n reads its language from this module

            try:
                lang = self.language or language()
            except SettingsError:  # said in English, then: the language's own error comes where it is read
                lang = "en"
            raise SettingsError(tr("{variable} must be 'approve' or 'deny', got {value!r}", lang,
                                   variable=AUTO_APPROVE_ENV, value=raw))
        return answer or None

    @property
    def system_locale(self) -> str:
        """LANG, lower-cased ('' when unset): the language's last resort, after the process's locale."""
        return self.environ.get("LANG", "").lower()

    @property
    def secrets(self) -> set[str]:
        """The values of SECRET_ENV_VARS that are set. Never raises: redaction runs while a bad setting is
        being reported, so it must not depend on any variable being valid."""
        return {self.environ[name] for name in SECRET_ENV_VARS if name in self.environ}

    @property
    def gitlab_ci(self) -> bool:
        """True in a GitLab CI job (GITLAB_CI=true)."""
        return self.environ.get("GITLAB_CI", "").strip().lower() == "true"

    @property
    def ci_merge_request_iid(self) -> int | None:
        """CI_MERGE_REQUEST_IID as a number; None when unset or not one."""
        return _merge_request_iid(self.environ.get("CI_MERGE_REQUEST_IID", ""))

    @property
    def ci_pipeline_source(self) -> str | None:
        return self.environ.get("CI_PIPELINE_SOURCE", "").strip() or None

    def __repr__(self) -> str:
        shown = {name: HIDDEN if name in SECRET_ENV_VARS else value for name, value in self.environ.items()}
        return f"Settings({shown!r})"


def _put(values: Mapping[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@contextmanager
def environment(values: Mapping[str, str | None]) -> Iterator[None]:
    """Within the block, the environment holds `values` (None: the variable is unset); afterwards, what
    it held before. For the self-checks, which point everything a learner's loop may read at a sandbox."""
    saved = {name: os.environ.get(name) for name in values}
    try:
        _put(values)
        yield
    finally:
        _put(saved)
