"""Point the learner's clients at a scenario's sandbox, whatever they are called, and back.

A loop may reach its Anthropic client as a global named anything, a closure cell, a
`functools.partial` argument, an attribute of `self`, or build one on each call; it may
reach GitLab through a `gitlab.Gitlab` or a `Project`. So the check retargets by type, not
by name: every `Anthropic`/`AsyncAnthropic` and `gitlab.Gitlab` object in the process is
pointed at the sandbox in place (and restored afterwards); `Project` objects the loop can
reach are swapped for the sandbox's project; clients built during the run (even from addresses
and keys saved before it) get the sandbox's address and credential from their constructors; and
the environment (ANTHROPIC_*, GITLAB_*, the course's shared sandbox) points there too. No
request of a check can reach the live API or change the learner's own GitLab. Approvals are
answered "no" (COURSE_AGENT_AUTO_APPROVE=deny; input() finds no human).
"""

import builtins
import functools
import gc
import inspect
import os
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anthropic
import gitlab
from gitlab.v4.objects import Project

from .. import client as course_client
from course_sandbox import Sandbox

_ANTHROPIC_STATE = ("api_key", "auth_token", "webhook_key", "_credential_headers", "_unchosen_base_url",
                    "credentials", "_token_cache", "_custom_auth", "_base_url", "max_retries", "_client")
"""What makes an Anthropic client talk to one server with one credential; the rest (headers,
timeouts, middleware) stays the learner's."""
_AUTH_HEADERS = ("x-api-key", "authorization")
_GITLAB_STATE = ("_base_url", "_url", "private_token", "oauth_token", "job_token", "http_username",
                 "http_password", "_auth")
_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "GITLAB_URL", "GITLAB_TOKEN",
        "GITLAB_PROJECT", "COURSE_AGENT_BACKEND", "COURSE_AGENT_AUTO_APPROVE")
_MAX_VISITS = 5000


def _with_subclasses(kinds: tuple[type, ...]) -> frozenset[int]:
    """The ids of these classes and of all their subclasses (ids: a class need not be hashable)."""
    found: set[int] = set()
    todo = list(kinds)
    while todo:
        kind = todo.pop()
        if id(kind) not in found:
            found.add(id(kind))
            todo += type.__subclasses__(kind)
    return frozenset(found)


def _live_objects(kinds: tuple[type, ...], generations: tuple[int, ...] | None = None) -> list[Any]:
    """Every object of these classes (or their subclasses) in the process, or in gc's `generations` only.
    A set lookup of the id of each object's type, not isinstance(): a third less time over the ~400,000
    objects of a notebook's kernel."""
    classes = _with_subclasses(kinds)
    pools = [gc.get_objects()] if generations is None else [gc.get_objects(g) for g in generations]
    return [o for pool in pools for o in pool if id(type(o)) in classes]


class Slot:
    """A place that holds a Project: a dict entry, a closure cell, an attribute, a partial's argument."""

    def __init__(self, get: Callable[[], Any], put: Callable[[Any], None]) -> None:
        self.get, self.put = get, put


def _dict_slot(mapping: dict, key: Any) -> Slot:
    return Slot(lambda: mapping[key], lambda value: mapping.__setitem__(key, value))


def _cell_slot(cell: types.CellType) -> Slot:
    def put(value: Any) -> None:
        cell.cell_contents = value

    return Slot(lambda: cell.cell_contents, put)


def _partial_slot(p: functools.partial, index: int | None, key: str | None) -> Slot:
    def get() -> Any:
        return p.args[index] if index is not None else p.keywords[key]

    def put(value: Any) -> None:
        func, args, keywords, namespace = p.__reduce__()[2]
        args, keywords = list(args), dict(keywords or {})
        if index is not None:
            args[index] = value
        else:
            keywords[key] = value
        p.__setstate__((func, tuple(args), keywords, namespace))

    return Slot(get, put)


def _names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def project_slots(loop: Callable) -> list[Slot]:
    """Every place, reachable from the loop, that holds a python-gitlab Project."""
    slots: list[Slot] = []
    seen: set[int] = set()
    todo: list[Any] = [loop]
    while todo and len(seen) < _MAX_VISITS:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None))):
            continue
        seen.add(id(obj))
        if isinstance(obj, functools.partial):
            todo.append(obj.func)
            for i, arg in enumerate(obj.args):
                _visit(_partial_slot(obj, i, None), arg, slots, todo)
            for key, arg in (obj.keywords or {}).items():
                _visit(_partial_slot(obj, None, key), arg, slots, todo)
        elif isinstance(obj, types.MethodType):
            todo += [obj.__func__, obj.__self__]
        elif isinstance(obj, types.FunctionType):
            namespace = obj.__globals__
            for name in _names(obj.__code__):
                if name in namespace:
                    _visit(_dict_slot(namespace, name), namespace[name], slots, todo)
            for cell in obj.__closure__ or ():
                try:
                    _visit(_cell_slot(cell), cell.cell_contents, slots, todo)
                except ValueError:  # an empty cell
                    pass
            todo += [d for d in (obj.__defaults__ or ()) if not isinstance(d, Project)]
        elif isinstance(obj, types.ModuleType):
            continue  # a module's names are reached through the code that uses them
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo += list(obj)[:200]
        elif isinstance(obj, dict):
            for key, value in list(obj.items())[:200]:
                _visit(_dict_slot(obj, key), value, slots, todo)
        elif hasattr(obj, "__dict__") and not isinstance(obj, (type, anthropic.Anthropic, anthropic.AsyncAnthropic,
                                                                gitlab.Gitlab)):
            attributes = vars(obj)
            for key, value in list(attributes.items()):
                _visit(_dict_slot(attributes, key), value, slots, todo)
            call = getattr(type(obj), "__call__", None)
            if isinstance(call, types.FunctionType):
                todo.append(call)
            todo += [v for k, v in vars(type(obj)).items() if isinstance(v, types.FunctionType)]
    return slots


def _visit(slot: Slot, value: Any, slots: list[Slot], todo: list[Any]) -> None:
    if isinstance(value, Project):
        slots.append(slot)
    elif isinstance(value, types.ModuleType):
        todo.append(value)
    else:
        todo.append(value)


def _nobody_answers(prompt: object = "") -> str:
    """input() during a check: no human is there, so an approval asked with input() gets no yes."""
    raise EOFError("the self-check runs without a human: no answer")


_KINDS = (anthropic.Anthropic, anthropic.AsyncAnthropic, gitlab.Gitlab)


class Targets:
    """The clients of the process, found once per check (a full scan of live objects costs tenths of a
    second); clients made since then are young objects, found again cheaply before each scenario."""

    def __init__(self, loop: Callable) -> None:
        self.clients = _live_objects(_KINDS)
        self.ours: list[Any] = []
        self.project_slots = project_slots(loop)
        """Where the loop keeps python-gitlab Projects: the same places in every scenario."""
        self.made: list[tuple[Any, type, tuple, dict]] = []
        """Clients the loop built during the check: (client, class, the arguments the loop gave)."""

    def give_back(self) -> None:
        """Once the check is over, a client the loop built during it (pointed at a scenario's sandbox, stopped
        by now) talks where the loop's own arguments and the environment say, as if built afterwards."""
        for client, cls, args, kwargs in self.made:
            try:
                fresh = cls(*args, **kwargs)
            except Exception:  # e.g. no key in the environment: it keeps the sandbox's address
                continue
            keys = _GITLAB_STATE if isinstance(client, gitlab.Gitlab) else _ANTHROPIC_STATE
            vars(client).update({k: v for k, v in vars(fresh).items() if k in keys})
        self.made.clear()

    def refresh(self) -> list[Any]:
        known = {id(c) for c in self.clients} | {id(c) for c in self.ours}
        self.clients += [c for c in _live_objects(_KINDS, generations=(0, 1)) if id(c) not in known]
        return self.clients


def _made_for(sandbox: Sandbox, targets: Targets) -> dict[type, Callable]:
    """Clients built during the run (from addresses and keys saved before it) talk to the sandbox too:
    their constructors get the sandbox's address and credential whatever they are given. Each is also
    added to the check's targets, so the next scenario points it at its own sandbox (a client the loop
    builds once and keeps, e.g. on its first call, is an old object by then: no cheap scan finds it)."""
    originals = {cls: cls.__init__ for cls in (anthropic.Anthropic, anthropic.AsyncAnthropic, gitlab.Gitlab)}

    def anthropic_init(cls: type) -> Callable:
        original = originals[cls]

        @functools.wraps(original)
        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            targets.made.append((self, cls, args, dict(kwargs)))
            kwargs.update(base_url=sandbox.anthropic_base_url, api_key=sandbox.api_key, auth_token=None)
            for key in ("credentials", "config", "profile"):
                kwargs.pop(key, None)
            original(self, *args, **kwargs)
            targets.clients.append(self)
        return init

    def gitlab_init(self: Any, *args: Any, **kwargs: Any) -> None:
        targets.made.append((self, gitlab.Gitlab, args, dict(kwargs)))
        bound = inspect.signature(originals[gitlab.Gitlab]).bind(self, *args, **kwargs)
        bound.arguments.update(url=sandbox.gitlab_url, private_token=sandbox.gitlab_token, oauth_token=None,
                               job_token=None, http_username=None, http_password=None)
        originals[gitlab.Gitlab](*bound.args, **bound.kwargs)
        targets.clients.append(self)

    anthropic.Anthropic.__init__ = anthropic_init(anthropic.Anthropic)
    anthropic.AsyncAnthropic.__init__ = anthropic_init(anthropic.AsyncAnthropic)
    gitlab.Gitlab.__init__ = functools.wraps(originals[gitlab.Gitlab])(gitlab_init)
    return originals


@contextmanager
def pointed_at(sandbox: Sandbox, loop: Callable, targets: Targets | None = None) -> Iterator[Any]:
    """Within the block, every client the loop can use talks to `sandbox` only."""
    owned = targets is None
    targets = targets or Targets(loop)
    fresh_sync = sandbox.client(max_retries=0)
    fresh_async = sandbox.async_client(max_retries=0)
    fresh_gitlab = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token)
    targets.ours += [fresh_sync, fresh_async, fresh_gitlab]
    saved: list[tuple[dict, dict]] = []
    for client in targets.refresh():
        state = vars(client)
        if isinstance(client, gitlab.Gitlab):
            source, keys = vars(fresh_gitlab), _GITLAB_STATE
        else:
            source = vars(fresh_async if isinstance(client, anthropic.AsyncAnthropic) else fresh_sync)
            keys = _ANTHROPIC_STATE
        before = {k: state[k] for k in (*keys, "_custom_headers") if k in state}
        saved.append((state, before))
        state.update({k: source[k] for k in keys if k in source})
        if isinstance(state.get("_custom_headers"), dict):
            state["_custom_headers"] = {k: v for k, v in state["_custom_headers"].items()
                                        if k.lower() not in _AUTH_HEADERS}
    slots = [(slot, slot.get()) for slot in targets.project_slots]
    project = fresh_gitlab.projects.get(sandbox.project) if slots else None
    for slot, _ in slots:
        slot.put(project)
    environ = {k: os.environ.get(k) for k in _ENV}
    os.environ.update({**sandbox.env(), "COURSE_AGENT_BACKEND": "sandbox", "COURSE_AGENT_AUTO_APPROVE": "deny"})
    os.environ.pop("ANTHROPIC_AUTH_TOKEN", None)
    shared = course_client._shared
    course_client._shared = sandbox
    ask = builtins.input
    builtins.input = _nobody_answers
    constructors = _made_for(sandbox, targets)
    try:
        yield fresh_async
    finally:
        for cls, init in constructors.items():
            cls.__init__ = init
        builtins.input = ask
        course_client._shared = shared
        for key, value in environ.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        for slot, value in reversed(slots):
            slot.put(value)
        for state, before in saved:
            state.update(before)
        if owned:
            targets.give_back()
