"""`course-agent review` in a GitLab CI job: what it reads from GitLab CI's predefined variables.

In a pipeline (GITLAB_CI=true) the GitLab is the one running the job, unless COURSE_AGENT_GITLAB_URL and
COURSE_AGENT_GITLAB_PROJECT say otherwise. GITLAB_URL and GITLAB_PROJECT, which the course reads outside CI, are
ignored here: a project or group may set variables of those common names for another tool, and the review's token
would then go to that host, or the review to another project.

    url      COURSE_AGENT_GITLAB_URL, else CI_SERVER_URL
    token    COURSE_AGENT_GITLAB_TOKEN, else GITLAB_TOKEN   (a masked CI/CD variable; the job's own
             CI_JOB_TOKEN may not write notes)
    project  COURSE_AGENT_GITLAB_PROJECT, else CI_MERGE_REQUEST_PROJECT_ID (the merge request's own project: in a fork's
             pipeline CI_PROJECT_ID is the fork, while CI_MERGE_REQUEST_IID numbers the target's merge request),
             else CI_PROJECT_ID, else CI_PROJECT_PATH
    the MR   CI_MERGE_REQUEST_IID, when the command is given no number

Nobody can answer an approval request in a pipeline, so merges are refused there; and the
sandbox's simulated model is never used by accident: a job needs ANTHROPIC_API_KEY, or
COURSE_AGENT_BACKEND=sandbox said on purpose. Outside CI, client.gitlab_settings() decides. The
variables are read through settings.Settings, like every other.
"""

from collections.abc import Mapping

from .i18n import tr
from .redaction import register_secret
from .settings import Settings

TOKEN_VARIABLES = ("COURSE_AGENT_GITLAB_TOKEN", "GITLAB_TOKEN")


def in_ci(env: Mapping[str, str] | None = None) -> bool:
    """True in a GitLab CI job. `env` (here and below): the variables to read, os.environ when None."""
    return Settings.from_env(env).gitlab_ci


def merge_request_iid(env: Mapping[str, str] | None = None) -> int | None:
    """The merge request of a merge-request pipeline, None in other pipelines (or outside CI)."""
    settings = Settings.from_env(env)
    return settings.ci_merge_request_iid if settings.gitlab_ci else None


def _token(settings: Settings) -> tuple[str, str] | None:
    """(variable, token): the first of TOKEN_VARIABLES that is set."""
    tokens = {"COURSE_AGENT_GITLAB_TOKEN": settings.ci_gitlab_token, "GITLAB_TOKEN": settings.gitlab_token}
    return next(((name, tokens[name]) for name in TOKEN_VARIABLES if tokens[name]), None)


def token_variable(env: Mapping[str, str] | None = None) -> str | None:
    """The variable the GitLab token comes from in a pipeline (None outside one, or when none is set)."""
    settings = Settings.from_env(env)
    found = _token(settings) if settings.gitlab_ci else None
    return found[0] if found else None


def pipeline_gitlab(env: Mapping[str, str] | None = None, lang: str | None = None) -> tuple[str, str, str] | None:
    """(url, token, project) in a pipeline; None outside one. RuntimeError when something is missing."""
    settings = Settings.from_env(env)
    if not settings.gitlab_ci:
        return None
    url = settings.ci_gitlab_url or settings.ci_server_url  # never GITLAB_URL here: see the module's docstring
    found = _token(settings)
    project = (settings.ci_gitlab_project or settings.ci_merge_request_project_id or settings.ci_project_id
               or settings.ci_project_path)
    if not found:
        raise RuntimeError(tr("in GitLab CI, set a masked CI/CD variable COURSE_AGENT_GITLAB_TOKEN (or GITLAB_TOKEN) "
                              "to a token with the api scope; the job's CI_JOB_TOKEN may not write notes", lang))
    if not url or not project:
        raise RuntimeError(tr("in GitLab CI, CI_SERVER_URL and CI_PROJECT_ID are missing (or set "
                              "COURSE_AGENT_GITLAB_URL and COURSE_AGENT_GITLAB_PROJECT)", lang))
    token = found[1]
    register_secret(token)  # hidden from every line written, from here on
    return url, token, project


def check_model_access(env: Mapping[str, str] | None = None, lang: str | None = None) -> None:
    """In a pipeline, a review needs the real API: RuntimeError without ANTHROPIC_API_KEY, unless
    COURSE_AGENT_BACKEND=sandbox asks for the simulated model on purpose (the course's own tests)."""
    settings = Settings.from_env(env)
    if settings.gitlab_ci and not settings.anthropic_api_key and settings.backend != "sandbox":
        raise RuntimeError(tr("in GitLab CI, set a masked CI/CD variable ANTHROPIC_API_KEY (the offline sandbox's "
                              "simulated model is used only with COURSE_AGENT_BACKEND=sandbox)", lang))
