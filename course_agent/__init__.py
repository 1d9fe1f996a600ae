"""Companion package of the agent-loop course: the reference agent the notebooks build."""

import course_sandbox  # noqa: F401  (cheap: its lazy jsonschema import; the server loads on first use)

__version__ = "0.1.0"
