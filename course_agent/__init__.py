"""Companion package of the agent-loop course: the reference agent the notebooks build.

What a learner needs is here, `from course_agent import make_client, model_id, run_agent, Toolbox`,
each name imported on first use (PEP 562), so `import course_agent` stays cheap: the anthropic SDK
(~1 s) loads only when something that talks to a model is asked for. The submodules are where each
name is explained; `course_agent.review.review` is not here, as `course_agent.review` is its module.
"""

import importlib
import warnings

__version__ = "0.1.0"

_HOMES = {
    "course_agent.client": ("make_client", "using_sandbox", "shared_sandbox", "gitlab_settings", "reset_demo"),
    "course_agent.config": ("model_id", "newer_model", "fallback_model", "preserved_thinking_model", "DEFAULT_MODEL"),
    "course_agent.settings": ("Settings", "SettingsError"),
    "course_agent.loop": ("run_agent", "AgentResult", "AgentError", "MaxTokensReached", "Refused",
                          "IterationLimitReached", "LoopObserver"),
    "course_agent.tools": ("Tool", "Toolbox", "ToolError", "Risk"),
    "course_agent.gitlab": ("GitLabTools",),
    "course_agent.review": ("reviewer_toolbox", "REVIEW_RULES"),
    "course_agent.safety": ("Policy", "Decision", "SafetyGate", "AuditLog", "Verdict", "ApprovalRequest",
                            "auto_approver", "console_approver"),
    "course_agent.redaction": ("redact",),
    "course_agent.progress": ("ProgressPrinter",),
    "course_agent.widgets": ("MessagesView", "WidgetApprover"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
_MOVED_OUT = {"check_loop": ("course_selfcheck", "from course_selfcheck import check_loop")}
"""Names that live in a package above this one now: still given, with a DeprecationWarning, until REMOVED_IN."""
REMOVED_IN = "0.3"

__all__ = sorted(_HOME_OF)


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked for."""
    if name in _MOVED_OUT:
        home, example = _MOVED_OUT[name]
        warnings.warn(f"course_agent.{name} moved to {home}: import it from there (`{example}`); the old name "
                      f"goes in course-agent {REMOVED_IN}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked once: the next lookup is an ordinary one
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
