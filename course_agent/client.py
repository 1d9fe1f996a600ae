"""Which Anthropic API and which GitLab the course talks to, decided once per process.

With ANTHROPIC_API_KEY set, `make_client()` returns a client for the live API (unless
COURSE_AGENT_BACKEND=sandbox forces the sandbox); otherwise it starts the offline sandbox on
demand and points the client at it. Either way it is a real `anthropic.Anthropic`. The
choice is announced once, and never with a secret in it: in a notebook as a small note (an
information, not an error, so not on stderr, which JupyterLab paints red), elsewhere (the
command line) as a line on stderr. `using_sandbox()` tells a notebook which it will be, to
skip the demonstrations only the sandbox can give.
"""

import atexit
import html
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import anthropic

from .i18n import tr
from .settings import BACKEND_ENV, Settings

if TYPE_CHECKING:
    from course_sandbox import Sandbox

_shared: "Sandbox | None" = None
_lock = threading.Lock()
_announced: set[str] = set()


COURSE_EXTRA = 'pip install -e ".[course]"'
"""What a lean install (the reviewer alone, as the GitLab CI job has it) runs to get the sandbox and the notebooks."""


def sandbox_class() -> "type[Sandbox]":
    """course_sandbox's Sandbox. Its HTTP server comes with the `course` extra: a lean install gets a RuntimeError
    that says what to install, not a traceback from inside the sandbox."""
    try:
        from course_sandbox import Sandbox
    except ModuleNotFoundError as missing:
        if (missing.name or "").startswith("course_"):
            raise
        raise RuntimeError(tr("the offline sandbox needs the course's extras, and {module} is not installed: run "
                              "{command} in the course's folder (or set ANTHROPIC_API_KEY, GITLAB_URL and GITLAB_TOKEN "
                              "to use the real services)",
                              module=missing.name, command=COURSE_EXTRA)) from None
    return Sandbox


def shared_sandbox() -> "Sandbox":
    """The process's sandbox, started on first use and stopped at exit (imported only then: with
    ANTHROPIC_API_KEY and a GitLab of one's own, nothing of the sandbox is loaded)."""
    global _shared
    with _lock:
        if _shared is None:
            _shared = sandbox_class()().start()
            atexit.register(_shared.stop)
        return _shared


@contextmanager
def sandbox_shared_as(sandbox: "Sandbox") -> Iterator[None]:
    """Within the block, shared_sandbox() is `sandbox`: a self-check's scenario lends the loop its own
    sandbox, so a client the loop makes with make_client() reaches it too."""
    global _shared
    with _lock:
        before, _shared = _shared, sandbox
    try:
        yield
    finally:
        with _lock:
            _shared = before


def using_sandbox() -> bool:
    """True when make_client() would use the offline sandbox (no ANTHROPIC_API_KEY, or
    COURSE_AGENT_BACKEND=sandbox); False for the live API. A bad COURSE_AGENT_BACKEND raises, as
    make_client() would."""
    settings = Settings.from_env()
    backend, key = settings.backend, settings.anthropic_api_key
    if backend == "live" and not key:
        raise RuntimeError(f"{BACKEND_ENV}=live needs ANTHROPIC_API_KEY")
    return backend == "sandbox" or not key


NOTE_STYLE = ("border-left:4px solid var(--jp-info-color1,#0097a7);background:rgba(0,151,167,0.08);"
              "color:var(--jp-content-font-color1,#212121);padding:3px 10px;margin:2px 0;border-radius:2px;"
              "font-family:var(--jp-ui-font-family,sans-serif);font-size:var(--jp-ui-font-size1,13px)")


def _in_a_notebook() -> bool:
    """True in a Jupyter kernel (IPython with a kernel); the CLI never imports IPython."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return shell is not None and getattr(shell, "kernel", None) is not None


def _announce(what: str, line: str) -> None:
    """Say once which backend is used: a note in a notebook, a line on stderr elsewhere."""
    if what in _announced:
        return
    _announced.add(what)
    text = f"course-agent: {line}"
    if _in_a_notebook():
        from IPython.display import display
        display({"text/plain": text,
                 "text/html": f"<div style='{NOTE_STYLE}'>ℹ <b>course-agent</b>: {html.escape(line)}</div>"},
                raw=True)
    else:
        print(text, file=sys.stderr)


def make_client(**options: object) -> anthropic.Anthropic:
    """A real anthropic client: the live API with a key, otherwise the offline sandbox."""
    if using_sandbox():
        _announce("anthropic", tr("using the offline sandbox (simulated model); set ANTHROPIC_API_KEY to use "
                                  "the real API."))
        return shared_sandbox().client(**options)
    if Settings.from_env().anthropic_base_url:
        _announce("anthropic", tr("using the API at ANTHROPIC_BASE_URL (ANTHROPIC_API_KEY is set)."))
    else:
        _announce("anthropic", tr("using the live Anthropic API (ANTHROPIC_API_KEY is set)."))
    return anthropic.Anthropic(**options)


def gitlab_settings() -> tuple[str, str, str]:
    """(url, token, project) from GITLAB_URL / GITLAB_TOKEN / GITLAB_PROJECT, else the sandbox's demo GitLab."""
    settings = Settings.from_env()
    url, token, project = settings.gitlab_url, settings.gitlab_token, settings.gitlab_project
    if url and token:
        if not project:
            raise RuntimeError("GITLAB_URL and GITLAB_TOKEN are set but GITLAB_PROJECT is not (e.g. group/project)")
        _announce("gitlab", tr("using the GitLab at GITLAB_URL."))
        return url, token, project
    if url or token:
        raise RuntimeError("set both GITLAB_URL and GITLAB_TOKEN (or neither, for the sandbox's demo GitLab)")
    sandbox = shared_sandbox()
    _announce("gitlab", tr("using the sandbox's demo GitLab (project {project}).", project=sandbox.project))
    return sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project


def using_demo_gitlab() -> bool:
    """True when gitlab_settings() gives the sandbox's demo GitLab (neither GITLAB_URL nor GITLAB_TOKEN set): where a
    cell may merge !485 on purpose, as no cell may on a real project."""
    settings = Settings.from_env()
    return not (settings.gitlab_url or settings.gitlab_token)


def take_home_variables() -> dict[str, str]:
    """What a take-home cell reads from the environment (anthropic's own ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL,
    and GITLAB_URL, GITLAB_TOKEN, GITLAB_PROJECT), for the parts the learner has not set: offline, the sandbox's
    addresses, the variables `course-agent sandbox` prints. With a key and a GitLab of one's own: nothing."""
    wanted = []
    if using_sandbox():
        wanted += ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"]
    if using_demo_gitlab():
        wanted += ["GITLAB_URL", "GITLAB_TOKEN", "GITLAB_PROJECT"]
    if not wanted:
        return {}
    variables = shared_sandbox().env()
    return {name: variables[name] for name in wanted}


def reset_demo() -> None:
    """Put the sandbox's demo GitLab back as it was at start (nothing merged, no notes): for instructors
    between two demos, or for a learner who merged !485 on purpose. Only the offline sandbox can be reset."""
    shared_sandbox().reset_demo()
