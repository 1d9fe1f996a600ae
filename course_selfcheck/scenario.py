"""One scenario of the self-check: the learner's loop, called as written, against a fresh
sandbox that records every request it receives (the wire is the only thing judged, so any
SDK path counts: create, stream, with_options, with_raw_response, beta, async)."""

import asyncio
import contextlib
import ctypes
import dataclasses
import functools
import inspect
import io
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from types import FunctionType, ModuleType
from typing import Any

from course_sandbox import Sandbox
from course_sandbox.app import Exchange
from course_sandbox.demo_gitlab import PROJECT_ID, PROJECT_PATH
from course_sandbox.simulated_model.tool_roles import slot_value

from .retarget import pointed_at
from .wire import tool_uses, with_threads_filled_in

TIMEOUT = 30.0
"""A loop that has not finished after this many seconds is abandoned (and interrupted)."""
HARD_LIMIT = 80
"""Past this many requests in one scenario, the sandbox refuses every further one."""
GITLAB = "/api/v4/"
LOOP_THREAD = "course-agent-self-check"
"""The name of the thread a scenario runs the learner's loop in."""
_THREAD_START = threading.Thread.start.__code__  # a thread's parent is the thread that calls its start()


class RunawayLoop(Exception):
    """Raised inside a loop that would not stop, after the sandbox began refusing it."""


def is_call(exchange: Exchange) -> bool:
    """A Messages API request (not count_tokens, not another route) whose JSON body was read."""
    return exchange.method == "POST" and exchange.path.rstrip("/") == "/v1/messages" and isinstance(exchange.body, dict)


@dataclass
class Run:
    """What one scenario saw: every exchange on the wire, and how the loop ended."""

    exchanges: list[Exchange]
    returned: Any = None
    error: BaseException | None = None
    hung: bool = False
    stopped_by_check: bool = False
    merged: list[int] = field(default_factory=list)
    seconds: float = 0.0
    printed: str = ""
    """What the process printed to stdout while the loop ran (a loop that prints its bill, its progress)."""
    printed_errors: str = ""
    """What it printed to stderr meanwhile (print(..., file=sys.stderr) is printing too; so are library warnings)."""
    files: dict[tuple[str, str], str] = field(default_factory=dict)
    """(path, ref) -> the text the sandbox held for each file a tool call named, read at the end of the run: what a
    read's result must carry (a file that does not exist is left out)."""

    def file(self, tool_input: object) -> str | None:
        """The text of the file a call names (its path, at its ref or main), or None."""
        key = file_key(tool_input)
        return None if key is None else self.files.get(key)

    @property
    def calls(self) -> list[Exchange]:
        """The Messages API requests, in order (count_tokens and other routes left out)."""
        return [e for e in self.exchanges if is_call(e)]

    @property
    def requests(self) -> list[dict]:
        return [e.body for e in self.calls]

    @property
    def answered(self) -> list[tuple[int, dict]]:
        """(index of the call, the message answered) for every call that got a message."""
        return [(i, e.reply) for i, e in enumerate(self.calls)
                if e.status == 200 and isinstance(e.reply, dict) and e.reply.get("type") == "message"]

    def gitlab_between(self, first: Exchange, then: Exchange | None) -> list[Exchange]:
        """GitLab requests made after one Messages API call and before the next."""
        start = next(i for i, e in enumerate(self.exchanges) if e is first)
        end = next((i for i, e in enumerate(self.exchanges) if e is then), len(self.exchanges))
        return [e for e in self.exchanges[start + 1:end] if e.path.startswith(GITLAB)]

    tool_calls: list[tuple[int, str]] = field(default_factory=list)
    """(how many exchanges the sandbox had recorded, the tool's name) for each call of one of the notebook's tool
    functions in a scenario that cuts a tool call (watching_tools): a call whose input was cut dies in Python before
    GitLab sees it, so only this shows that it ran."""

    def tools_run_between(self, first: Exchange, then: Exchange | None) -> list[str]:
        """The notebook's tool functions called after one Messages API call was answered and before the next."""
        start = next(i for i, e in enumerate(self.exchanges) if e is first)
        end = next((i for i, e in enumerate(self.exchanges) if e is then), None)
        return [name for seen, name in self.tool_calls if seen > start and (end is None or seen <= end)]

    @property
    def finished(self) -> bool:
        return not self.hung and not self.stopped_by_check


def file_key(tool_input: object) -> tuple[str, str] | None:
    """(path, ref) of a call that names a file, whatever its tool calls the two ("file_path", "branch")."""
    if not isinstance(tool_input, dict):
        return None
    path, ref = slot_value(tool_input, "path"), slot_value(tool_input, "ref")
    return (path, ref if isinstance(ref, str) and ref else "main") if isinstance(path, str) and path else None


def _files_named(sandbox: Sandbox, run: Run) -> dict[tuple[str, str], str]:
    """The text of every file a tool call of the run named, as the sandbox has it now."""
    keys = {file_key(use.get("input")) for _, reply in run.answered for use in tool_uses(reply)}
    files = {}
    for path, ref in sorted(k for k in keys if k is not None):
        try:
            files[path, ref] = sandbox.gitlab.raw_file(path, ref).decode("utf-8", "replace")
        except Exception:  # no such file or ref: the call's own result says so, there is nothing to compare
            continue
    return files


def call(loop: Callable, pr: int) -> Any:
    """The loop's result: awaited when it is a coroutine (an `async def` loop)."""
    result = loop(pr)
    if inspect.isawaitable(result):
        async def wait() -> Any:
            return await result
        result = asyncio.run(wait())
    return result


def _interrupt(thread: threading.Thread) -> None:
    """The last resort against a loop that will not stop, and the only place the self-check uses it: the sandbox
    already answers its every request with a 400 and the scenario's deadline has passed, yet the loop goes on (it
    swallows errors, or sleeps and retries). Python has no public way to stop another thread, so RunawayLoop is
    raised inside it through the C API; should that land where the loop cannot be stopped either, the thread is
    abandoned a second later (a daemon thread) and the report says the loop hung or had to be stopped."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(RunawayLoop))


AHEAD = 2
"""Sandboxes starting while a scenario runs (a start costs about as much as a scenario of a good loop)."""
_spare: list[Sandbox] = []
"""A started, untouched sandbox left by the last check for the next one's first scenario (a check cell
run again, the next cell's check): the first start is the one no scenario runs beside."""
_spare_lock = threading.Lock()
_workers: ThreadPoolExecutor | None = None
"""The threads that start and stop the checks' sandboxes, made once: a check cell runs again and again."""


def _starter() -> ThreadPoolExecutor:
    global _workers
    with _spare_lock:
        if _workers is None:
            _workers = ThreadPoolExecutor(max_workers=AHEAD + 1, thread_name_prefix="course-agent-self-check-sandbox")
        return _workers


def _done(sandbox: Sandbox) -> Future:
    ready: Future = Future()
    ready.set_result(sandbox)
    return ready


class Sandboxes:
    """Fresh recording sandboxes for a series of scenarios: the next ones start while a scenario runs,
    a used one stops in the background, and one more is left started for the next check (starting and
    stopping cost more than most scenarios)."""

    def __init__(self, expected: int = 1) -> None:
        self._pool = _starter()
        self._left = expected
        with _spare_lock:
            self._ahead: deque[Future] = deque(_done(s) for s in _spare)
            _spare.clear()
        self._stopping: list[Future] = []
        self._start_ahead()

    def _start_ahead(self) -> None:
        """Keep sandboxes starting for the scenarios still to come, and the next check's spare."""
        while len(self._ahead) < min(AHEAD, self._left + 1):
            self._ahead.append(self._pool.submit(Sandbox(record=True).start))

    def take(self) -> Sandbox:
        ready = self._ahead.popleft()
        self._left -= 1
        self._start_ahead()
        return ready.result()

    def give_back(self, sandbox: Sandbox) -> None:
        self._stopping.append(self._pool.submit(sandbox.stop))

    def close(self) -> None:
        """Wait for every start and stop; the first sandbox left unused is the next check's spare."""
        for starting in self._ahead:
            sandbox = starting.result()
            with _spare_lock:
                keep = not _spare
                if keep:
                    _spare.append(sandbox)
            if not keep:
                self._stopping.append(self._pool.submit(sandbox.stop))
        for stopping in self._stopping:
            stopping.result()

    def __enter__(self) -> "Sandboxes":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _threads_filled_in(exchanges: list[Exchange]) -> list[Exchange]:
    """The Messages API requests with a `thread` as the whole conversation the API answered (wire.py), so the
    rules judge the history the model saw, however the SDK sent it; every other exchange as recorded."""
    calls = [i for i, e in enumerate(exchanges) if is_call(e)]
    bodies = with_threads_filled_in([exchanges[i].body for i in calls], [exchanges[i].reply for i in calls])
    out = list(exchanges)
    for i, body in zip(calls, bodies, strict=False):
        if body is not exchanges[i].body:
            out[i] = dataclasses.replace(exchanges[i], body=body)
    return out


class _Kept(io.StringIO):
    """stdout (or stderr) while a loop runs: what is printed is kept for the rules (a bill, a progress line), not
    shown (a check runs dozens of scenarios: each loop's prints, shown, would bury its report)."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"  # what a print to a terminal would use; StringIO says None, which some libraries cannot take


CUTS_A_CALL = ("max_tokens", "context_window")
"""The sandbox's orders that cut a response in the middle of a tool call: their scenarios watch the tool functions."""


def _tool_names(namespace: dict) -> set[str]:
    """The names of the tools the namespace describes to the model (TOOLS, or any list of tool descriptions)."""
    names = {"get_diff", "read_file"}
    for value in list(namespace.values()):
        if isinstance(value, (list, tuple)) and value and all(isinstance(t, dict) and "name" in t for t in value):
            names |= {t["name"] for t in value if isinstance(t["name"], str) and ("input_schema" in t or "type" in t)}
    return names


def _tool_codes(namespace: dict, names: set[str]) -> dict[Any, str]:
    """The code object of each of the notebook's tool functions -> the tool's name: the functions named like a tool
    in the namespace, in a dict of them there (FUNCTIONS), and in the modules they come from (lesson_tools)."""
    found: dict[Any, str] = {}
    places = [namespace, *(v for v in list(namespace.values()) if isinstance(v, dict) and v is not namespace)]
    modules = []
    for place in places:
        for name in names:
            tool = place.get(name)
            while isinstance(tool, functools.partial) or hasattr(tool, "__wrapped__"):
                tool = tool.func if isinstance(tool, functools.partial) else tool.__wrapped__
            if isinstance(tool, FunctionType):
                found[tool.__code__] = name
                modules.append(sys.modules.get(tool.__module__))
    modules += [v for v in list(namespace.values()) if isinstance(v, ModuleType)]  # `import lesson_tools`
    for module in (m for m in modules if m is not None):
        for name in names:
            tool = getattr(module, name, None)
            if isinstance(tool, FunctionType):
                found.setdefault(tool.__code__, name)
    return found


@contextlib.contextmanager
def watching_tools(loop: Callable, run: "Run", exchanges: list) -> Any:
    """While the loop runs, each of the notebook's tool functions its namespace reaches (a global named like a tool,
    the entry of a dict of them such as FUNCTIONS, which run_tool reads too) is wrapped so that a call is noted in
    `run.tool_calls` before it runs, however its input binds: a response cut by max_tokens holds the call only as
    far as the model wrote it (the sandbox's forced cut leaves `{"pr": 48}` for !482, which reaches GitLab; an input
    cut before its first value would raise TypeError before it does). Put back as they were afterwards (what the
    loop or a later cell set meanwhile stays).
    And since a function is also reached where no name is (a module attribute, a default argument, a closure's copy,
    a class attribute, a callable instance's method), the loop's thread and every thread it starts (and they start)
    are profiled too (threading.setprofile): a call of a tool function's code object is noted whatever path led to
    it. A thread started before the scenario (a pool kept from an earlier cell) is watched only through the wrapped
    names; threads others start meanwhile (the sandbox pool's servers) are neither watched nor waited for."""
    target: Any = loop
    while isinstance(target, functools.partial) or hasattr(target, "__wrapped__"):
        target = target.func if isinstance(target, functools.partial) else target.__wrapped__
    namespace = getattr(target, "__globals__", None)
    if not isinstance(namespace, dict):  # a callable instance: the globals of its class's __call__
        namespace = getattr(inspect.getattr_static(type(target), "__call__", None), "__globals__", None)
    if not isinstance(namespace, dict):
        yield
        return
    names = _tool_names(namespace)
    undo: list[tuple[dict, str, Any, Any]] = []
    codes = _tool_codes(namespace, names)

    def wrapped(name: str, tool: Callable) -> Callable:
        @functools.wraps(tool)
        def noted(*args: Any, **kwargs: Any) -> Any:
            run.tool_calls.append((len(exchanges), name))
            return tool(*args, **kwargs)
        return noted

    places = [namespace, *(v for v in list(namespace.values()) if isinstance(v, dict) and v is not namespace)]
    for place in places:
        for name in names:
            tool = place.get(name)
            if isinstance(tool, (FunctionType, functools.partial)):
                place[name] = wrapped(name, tool)
                undo.append((place, name, tool, place[name]))
    watching = [True]
    entering = threading.current_thread()
    ours: set[threading.Thread] = {entering}  # this thread, the loop's thread it starts, and the threads they start

    def profile(frame: Any, event: str, _arg: Any) -> None:
        me = threading.current_thread()
        if not watching[0] or me not in ours:
            # a sandbox's server threads (started by the sandbox pool meanwhile) are not the loop's; a thread started
            # meanwhile that outlives the scenario stops being watched
            sys.setprofile(None)
        elif event == "call" and frame.f_code is _THREAD_START:  # the parent is known before the child runs
            child = frame.f_locals.get("self")
            if isinstance(child, threading.Thread):
                ours.add(child)
        elif event == "call" and frame.f_code in codes and me is not entering:
            # the code, not the name: a tool reached through a module attribute, a default argument, a closure, a
            # class attribute or a callable instance runs the same code object (attack 19's H2)
            run.tool_calls.append((len(exchanges), codes[frame.f_code]))

    earlier, earlier_here = threading.getprofile(), sys.getprofile()
    threading.setprofile(profile)  # every thread started from here on; only the loop's stay watched
    sys.setprofile(profile)  # here too: the loop's thread is started from this one
    try:
        yield
    finally:
        sys.setprofile(earlier_here)
        # a thread the loop started may run the cut call after the loop raised: give it a moment, still watched
        until = time.monotonic() + 2.0
        for thread in [t for t in list(ours) if t is not entering and t.is_alive()]:
            while time.monotonic() < until:
                try:
                    thread.join(max(0.0, until - time.monotonic()))
                    break
                except RuntimeError:  # still starting
                    time.sleep(0.01)
        for place, name, tool, noted in undo:
            if place.get(name) is noted:
                place[name] = tool
        watching[0] = False
        threading.setprofile(earlier)


def run_scenario(loop: Callable, pr: int, misbehave: tuple[str, ...] = (), timeout: float | None = None,
                 slow_files: float = 0.0, sandboxes: Sandboxes | None = None, typed: str | None = None,
                 description: str | None = None, slow_merge_requests: float = 0.0, dropped_files: bool = False) -> Run:
    """Run the loop once on merge request !pr against a fresh recording sandbox; input() gets no answer, or
    `typed`; with `description`, the merge request has that description in this run. `slow_files` and
    `slow_merge_requests` hold each file read, or each read of a merge request, that many seconds; with
    `dropped_files`, the first file read drops its connection, as a GitLab that goes away mid-review does (the tool
    raises what its HTTP library raises, not an error the notebook showed)."""
    if sandboxes is None:
        with Sandboxes() as own:
            return run_scenario(loop, pr, misbehave, timeout, slow_files, own, typed, description,
                                slow_merge_requests, dropped_files)
    timeout = TIMEOUT if timeout is None else timeout
    sandbox = sandboxes.take()
    try:
        sandbox.force(*misbehave)
        if description is not None:
            sandbox.gitlab.merge_requests[pr].description = description
        for project in (PROJECT_ID, PROJECT_PATH) if slow_files else ():  # the project by id or by path
            # the first read is held longer than the rest: reads of one turn that run at the same time then finish
            # in the other order than they were asked, so results put in the order they finished are seen out of order
            sandbox.faults.slow(slow_files * 1.6, times=1, path=f"{GITLAB}projects/{project}/repository/files/")
            sandbox.faults.slow(slow_files, times=50, path=f"{GITLAB}projects/{project}/repository/files/")
        for project in (PROJECT_ID, PROJECT_PATH) if dropped_files else ():
            sandbox.faults.drop(path=f"{GITLAB}projects/{project}/repository/files/")
        for project in (PROJECT_ID, PROJECT_PATH) if slow_merge_requests else ():
            sandbox.faults.slow(slow_merge_requests, times=50, path=f"{GITLAB}projects/{project}/merge_requests/")
        run = Run(sandbox.exchanges)

        def work() -> None:
            try:
                run.returned = call(loop, pr)
            except BaseException as error:  # whatever the loop lets out is an observation
                run.error = error

        kept, kept_errors = _Kept(), _Kept()
        watch = watching_tools(loop, run, sandbox.exchanges) if set(misbehave) & set(CUTS_A_CALL) \
            else contextlib.nullcontext()
        with pointed_at(sandbox, typed), contextlib.redirect_stdout(kept), contextlib.redirect_stderr(kept_errors), \
                watch:
            worker = threading.Thread(target=work, daemon=True, name=LOOP_THREAD)
            started = time.monotonic()
            worker.start()
            refused_at = None
            while worker.is_alive():
                worker.join(0.01)
                now = time.monotonic()
                if refused_at is None and (len(run.calls) > HARD_LIMIT or now - started > timeout):
                    sandbox.faults.status(400, times=10**6, path="/v1/messages")
                    run.stopped_by_check, refused_at = len(run.calls) > HARD_LIMIT, now
                    run.hung = not run.stopped_by_check
                elif refused_at is not None and now - refused_at > 1.0:
                    _interrupt(worker)
                    worker.join(1.0)
                    break
            run.seconds = time.monotonic() - started
        run.printed, run.printed_errors = kept.getvalue(), kept_errors.getvalue()
        run.exchanges = _threads_filled_in(list(sandbox.exchanges))
        run.merged = [iid for iid, mr in sandbox.gitlab.merge_requests.items() if mr.state == "merged"]
        run.files = _files_named(sandbox, run)
    finally:
        sandboxes.give_back(sandbox)
    return run
