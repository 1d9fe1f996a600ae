"""Point everything the loop can use at a scenario's sandbox, and back.

A loop may reach its Anthropic client as a global named anything, a closure cell, a
`functools.partial` argument, an attribute of `self`, or build one on each call; it may reach
GitLab through a `gitlab.Gitlab` or a `Project` made before the check. So the check does not
look for clients at all: every HTTP request the process sends during a scenario goes to its
sandbox, with the sandbox's credentials in place of the learner's (intercept.py, at the HTTP
libraries' public send methods; most are answered by the sandbox's app in the loop's own thread).
Besides, the environment (ANTHROPIC_*, GITLAB_*, the course's shared sandbox) points there, for
clients built during the run. No request of a check
can reach the live API or change the learner's own GitLab. Approvals are answered "no"
(COURSE_AGENT_AUTO_APPROVE=deny; input() finds no human).
"""

import builtins
from collections.abc import Iterator
from contextlib import contextmanager

from course_agent.client import sandbox_shared_as
from course_agent.i18n import tr
from course_agent.settings import environment
from course_sandbox import Sandbox

from .intercept import routed_to
from .route import Route

_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "GITLAB_URL", "GITLAB_TOKEN",
        "GITLAB_PROJECT", "COURSE_AGENT_BACKEND", "COURSE_AGENT_AUTO_APPROVE")
"""The variables a scenario sets or unsets, and puts back afterwards."""


def route_to(sandbox: Sandbox) -> Route:
    return Route(sandbox.host, sandbox.port, sandbox.api_key, sandbox.gitlab_token, sandbox.project)


def _nobody_answers(prompt: object = "") -> str:
    """input() during a check: no human is there, so an approval asked with input() gets no yes. The words are in
    the learner's language (COURSE_AGENT_LANGUAGE, which a notebook sets): their loop may print them."""
    raise EOFError(tr("the self-check runs without a human: no answer"))


def _typing(answer: str):
    """input() during a check that plays a person at the keyboard who types `answer`."""
    def typed(prompt: object = "") -> str:
        return answer
    return typed


@contextmanager
def pointed_at(sandbox: Sandbox, typed: str | None = None) -> Iterator[None]:
    """Within the block, every request the loop sends reaches `sandbox` only; input() gets no answer (EOFError),
    or `typed` when given (a person who types "no")."""
    values: dict[str, str | None] = {name: None for name in _ENV}
    values.update({**sandbox.env(), "COURSE_AGENT_BACKEND": "sandbox", "COURSE_AGENT_AUTO_APPROVE": "deny"})
    ask = builtins.input
    try:
        builtins.input = _nobody_answers if typed is None else _typing(typed)
        with environment(values), sandbox_shared_as(sandbox), routed_to(route_to(sandbox), sandbox.wsgi_app):
            yield
    finally:
        builtins.input = ask
