"""The process's environment with none of the variables that steer the course: a subprocess started with it
sees no key, no GitLab, no pipeline and no course setting of the machine it runs on, only what a test adds."""

import os

SETTINGS = ("ANTHROPIC_", "GITLAB_", "CI_", "COURSE_AGENT_")


def environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}
