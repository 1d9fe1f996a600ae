"""The course's offline sandbox: one real HTTP server on 127.0.0.1 that speaks the Messages API
(a deterministic simulated model) and a reviewer's part of GitLab's REST API (the demo project).

A package of its own beside `course_agent`: the learner reads and copies `course_agent`; this is the
stand-in world it talks to offline, used by any client in any language.
"""

from course_shared.lazy_jsonschema import import_jsonschema_lazily

import_jsonschema_lazily()

__all__ = ["Fault", "Faults", "SANDBOX_API_KEY", "Sandbox"]
_HOMES = {"Fault": ".faults", "Faults": ".faults", "SANDBOX_API_KEY": ".server", "Sandbox": ".server"}


def __getattr__(name: str):
    """`from course_sandbox import Sandbox` loads the server only then: `import course_agent` stays cheap."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(_HOMES[name], __name__), name)
    globals()[name] = value
    return value
