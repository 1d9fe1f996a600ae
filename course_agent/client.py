"""Which Anthropic API and which GitLab the course talks to, decided once per process.

With ANTHROPIC_API_KEY set, `make_client()` returns a client for the live API (unless
COURSE_AGENT_BACKEND=sandbox forces the sandbox); otherwise it starts the offline sandbox on
demand and points the client at it. Either way it is a real `anthropic.Anthropic`. The
choice is announced once, and never with a secret in it.
"""

import atexit
import os
import sys
import threading

import anthropic

from .sandbox import Sandbox

BACKEND_ENV = "COURSE_AGENT_BACKEND"
_shared: Sandbox | None = None
_lock = threading.Lock()
_announced: set[str] = set()


def shared_sandbox() -> Sandbox:
    """The process's sandbox, started on first use and stopped at exit."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = Sandbox().start()
            atexit.register(_shared.stop)
        return _shared


def use_sandbox() -> bool:
    """True unless a key for the live API is set and the sandbox is not forced."""
    backend = os.environ.get(BACKEND_ENV, "").strip().lower()
    if backend not in ("", "sandbox", "live"):
        raise ValueError(f"{BACKEND_ENV} must be 'sandbox' or 'live', got {backend!r}")
    if backend == "live" and not os.environ.get("ANTHROPIC_API_KEY"):
        raise RuntimeError(f"{BACKEND_ENV}=live needs ANTHROPIC_API_KEY")
    return backend == "sandbox" or not os.environ.get("ANTHROPIC_API_KEY")


def _announce(what: str, line: str) -> None:
    if what not in _announced:
        _announced.add(what)
        print(line, file=sys.stderr)


def make_client(**options: object) -> anthropic.Anthropic:
    """A real anthropic client: the live API with a key, otherwise the offline sandbox."""
    if use_sandbox():
        _announce("anthropic", "course-agent: using the offline sandbox (simulated model); "
                               "set ANTHROPIC_API_KEY to use the real API.")
        return shared_sandbox().client(**options)
    where = "the API at ANTHROPIC_BASE_URL" if os.environ.get("ANTHROPIC_BASE_URL") else "the live Anthropic API"
    _announce("anthropic", f"course-agent: using {where} (ANTHROPIC_API_KEY is set).")
    return anthropic.Anthropic(**options)


def gitlab_settings() -> tuple[str, str, str]:
    """(url, token, project) from GITLAB_URL / GITLAB_TOKEN / GITLAB_PROJECT, else the sandbox's demo GitLab."""
    url, token = os.environ.get("GITLAB_URL"), os.environ.get("GITLAB_TOKEN")
    if url and token:
        project = os.environ.get("GITLAB_PROJECT")
        if not project:
            raise RuntimeError("GITLAB_URL and GITLAB_TOKEN are set but GITLAB_PROJECT is not (e.g. group/project)")
        _announce("gitlab", "course-agent: using the GitLab at GITLAB_URL.")
        return url, token, project
    if url or token:
        raise RuntimeError("set both GITLAB_URL and GITLAB_TOKEN (or neither, for the sandbox's demo GitLab)")
    sandbox = shared_sandbox()
    _announce("gitlab", "course-agent: using the sandbox's demo GitLab (project course/shop).")
    return sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project
