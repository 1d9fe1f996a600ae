"""`course-agent review` in a GitLab CI job: what it reads from GitLab CI's predefined variables.

In a pipeline (GITLAB_CI=true) the GitLab is the one running the job, unless GITLAB_URL and
GITLAB_PROJECT say otherwise:

    url      GITLAB_URL, else CI_SERVER_URL
    token    COURSE_AGENT_GITLAB_TOKEN, else GITLAB_TOKEN   (a masked CI/CD variable; the job's own
             CI_JOB_TOKEN may not write notes)
    project  GITLAB_PROJECT, else CI_PROJECT_ID, else CI_PROJECT_PATH
    the MR   CI_MERGE_REQUEST_IID, when the command is given no number

Nobody can answer an approval request in a pipeline, so merges are refused there; and the
sandbox's simulated model is never used by accident: a job needs ANTHROPIC_API_KEY, or
COURSE_AGENT_BACKEND=sandbox said on purpose. Outside CI, client.gitlab_settings() decides.
"""

import os
from collections.abc import Mapping

from .i18n import tr
from .redaction import register_secret

TOKEN_VARIABLES = ("COURSE_AGENT_GITLAB_TOKEN", "GITLAB_TOKEN")


def in_ci(env: Mapping[str, str] = os.environ) -> bool:
    return env.get("GITLAB_CI", "").strip().lower() == "true"


def merge_request_iid(env: Mapping[str, str] = os.environ) -> int | None:
    """The merge request of a merge-request pipeline, None in other pipelines (or outside CI)."""
    raw = env.get("CI_MERGE_REQUEST_IID", "").strip()
    return int(raw) if in_ci(env) and raw.isascii() and raw.isdigit() and int(raw) > 0 else None


def token_variable(env: Mapping[str, str] = os.environ) -> str | None:
    """The variable the GitLab token comes from in a pipeline (None outside one, or when none is set)."""
    if not in_ci(env):
        return None
    return next((name for name in TOKEN_VARIABLES if env.get(name)), None)


def gitlab_settings(env: Mapping[str, str] = os.environ, lang: str | None = None) -> tuple[str, str, str] | None:
    """(url, token, project) in a pipeline; None outside one. RuntimeError when something is missing."""
    if not in_ci(env):
        return None
    url = env.get("GITLAB_URL") or env.get("CI_SERVER_URL")
    token = next((env[name] for name in TOKEN_VARIABLES if env.get(name)), None)
    project = env.get("GITLAB_PROJECT") or env.get("CI_PROJECT_ID") or env.get("CI_PROJECT_PATH")
    if not token:
        raise RuntimeError(tr("in GitLab CI, set a masked CI/CD variable COURSE_AGENT_GITLAB_TOKEN (or GITLAB_TOKEN) "
                              "to a token with the api scope; the job's CI_JOB_TOKEN may not write notes", lang))
    if not url or not project:
        raise RuntimeError(tr("in GitLab CI, CI_SERVER_URL and CI_PROJECT_ID are missing (or set GITLAB_URL and "
                              "GITLAB_PROJECT)", lang))
    register_secret(token)  # hidden from every line written, from here on
    return url, token, project


def check_model_access(env: Mapping[str, str] = os.environ, lang: str | None = None) -> None:
    """In a pipeline, a review needs the real API: RuntimeError without ANTHROPIC_API_KEY, unless
    COURSE_AGENT_BACKEND=sandbox asks for the simulated model on purpose (the course's own tests)."""
    if in_ci(env) and not env.get("ANTHROPIC_API_KEY") and env.get("COURSE_AGENT_BACKEND", "").strip() != "sandbox":
        raise RuntimeError(tr("in GitLab CI, set a masked CI/CD variable ANTHROPIC_API_KEY (the offline sandbox's "
                              "simulated model is used only with COURSE_AGENT_BACKEND=sandbox)", lang))
