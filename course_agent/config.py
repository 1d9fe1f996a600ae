"""The models the course uses, each of which a learner may override from the environment (read in settings.py)."""

from .settings import Settings

DEFAULT_MODEL = "claude-opus-5"
"""The model every notebook and command uses unless COURSE_AGENT_MODEL says otherwise."""


def model_id() -> str:
    """The model id to send: COURSE_AGENT_MODEL if set, else the course default."""
    return Settings.from_env().model or DEFAULT_MODEL


NEWER_MODEL = "claude-opus-5-5"
"""A model newer than the default, for the demos of what changed: it refuses forced tool use
(notebook 10) and checks what came before each thinking block sent back (notebook 12)."""


def newer_model() -> str:
    """The newer model of notebook 10's demo: COURSE_AGENT_NEWER_MODEL, else Opus 5.5."""
    return Settings.from_env().newer_model or NEWER_MODEL


FALLBACK_MODEL = "claude-opus-4-8"
"""The model exercise 6 falls back to after a refusal (the SDK's own example uses it too)."""


def fallback_model() -> str:
    """The fallback model of exercise 6 and notebook 11: COURSE_AGENT_FALLBACK_MODEL, else Opus 4.8."""
    return Settings.from_env().fallback_model or FALLBACK_MODEL


PRESERVED_THINKING_MODEL = NEWER_MODEL
"""A model that checks what came before each thinking block sent back (docs: preserved thinking)."""


def preserved_thinking_model() -> str:
    """The model of notebook 12's append-only demo: COURSE_AGENT_PRESERVED_THINKING_MODEL, else NEWER_MODEL."""
    return Settings.from_env().preserved_thinking_model or PRESERVED_THINKING_MODEL
