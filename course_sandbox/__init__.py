"""The course's offline sandbox: one real HTTP server on 127.0.0.1 that speaks the Messages API
(a deterministic simulated model) and a reviewer's part of GitLab's REST API (the demo project).

A package of its own beside `course_agent`: the learner reads and copies `course_agent`; this is the
stand-in world it talks to offline, used by any client in any language.
"""

__all__ = ["Fault", "Faults", "SANDBOX_KEY_PREFIX", "SANDBOX_TOKEN_PREFIX", "Sandbox"]
_HOMES = {"Fault": ".faults", "Faults": ".faults", "SANDBOX_KEY_PREFIX": ".server", "SANDBOX_TOKEN_PREFIX": ".server",
          "Sandbox": ".server"}
_DEPRECATED = ("SANDBOX_API_KEY", "SANDBOX_GITLAB_TOKEN")
"""Once the fixed key and token of every sandbox; each Sandbox now has its own (`sb.api_key`, `sb.gitlab_token`),
and these names give their prefix, with a DeprecationWarning each time they are read."""


def __getattr__(name: str):
    """`from course_sandbox import Sandbox` loads the server only then: `import course_agent` stays cheap."""
    import importlib
    if name in _DEPRECATED:
        return importlib.import_module(".server", __name__).deprecated(name, __name__)
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name], __name__), name)
    globals()[name] = value
    return value
