"""The course's settings that a learner may override from the environment, kept in one place."""

import os

DEFAULT_MODEL = "claude-opus-5"
"""The model every notebook and command uses unless COURSE_AGENT_MODEL says otherwise."""


def model_id() -> str:
    """The model id to send: COURSE_AGENT_MODEL if set, else the course default."""
    return os.environ.get("COURSE_AGENT_MODEL") or DEFAULT_MODEL
