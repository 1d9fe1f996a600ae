"""Companion package of the agent-loop course: the reference agent and its offline sandbox."""

__version__ = "0.1.0"
