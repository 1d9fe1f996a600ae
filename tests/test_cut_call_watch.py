"""The tool watcher of the scenarios that cut a tool call (scenario.watching_tools) notes a call of a tool function
whatever path reaches it (attack 19's H2): the code runs, not the name. Each path below captures the original function
before the watch begins, so wrapping the global name alone would not see it."""

import functools
import threading

import pytest

from course_selfcheck.scenario import Run, watching_tools


def get_diff(pr: int) -> str:
    return f"diff of !{pr}"


def read_file(path: str, ref: str = "main") -> str:
    return f"{path}@{ref}"


def unrelated(pr: int) -> str:
    return f"not a tool: {pr}"


TABLE = {"get_diff": get_diff}


def via_default(pr, table={"get_diff": get_diff}):  # noqa: B006 (the path under test)
    return table["get_diff"](pr)


def _closure():
    copy = dict(TABLE)
    return lambda pr: copy["get_diff"](pr)


via_closure = _closure()


class Toolbox:
    get_diff = staticmethod(get_diff)


class Reviewer:
    """A loop written as a callable instance: no __globals__ of its own."""

    def __init__(self, how):
        self.how = how

    def __call__(self, pr):
        return self.how(pr)


PATHS = {
    "global name": lambda pr: get_diff(pr),
    "default-argument dict": via_default,
    "closure's copy": via_closure,
    "class attribute": lambda pr: getattr(Toolbox, "get_diff")(pr),  # noqa: B009
    "lambda default": (lambda pr, f=get_diff: f(pr)),
    "partial": functools.partial(get_diff),
    "a thread the loop starts": lambda pr: _in_a_thread(get_diff, pr),
}


def _in_a_thread(tool, pr):
    out = []
    worker = threading.Thread(target=lambda: out.append(tool(pr)))
    worker.start()
    worker.join()
    return out[0]


def _watched(loop, how, pr=48):
    run = Run(exchanges=[])
    with watching_tools(loop, run, run.exchanges):
        worker = threading.Thread(target=how, args=(pr,))  # the scenario runs the loop in a thread started here
        worker.start()
        worker.join()
    return run


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_tool_called_through_any_path_is_noted(path):
    how = PATHS[path]
    run = _watched(how, how)
    assert [name for _, name in run.tool_calls][:1] == ["get_diff"], run.tool_calls


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_loop_written_as_a_callable_instance_is_watched_too(path):
    loop = Reviewer(PATHS[path])
    run = _watched(loop, loop)
    assert "get_diff" in [name for _, name in run.tool_calls], run.tool_calls


def test_a_function_that_is_no_tool_is_not_noted_and_the_watch_ends_with_the_scenario():
    run = _watched(unrelated, unrelated)
    assert run.tool_calls == []
    get_diff(482)  # after the scenario: nobody is watching
    worker = threading.Thread(target=get_diff, args=(482,))
    worker.start()
    worker.join()
    assert run.tool_calls == [] and threading.getprofile() is None
    assert TABLE["get_diff"] is get_diff and globals()["get_diff"].__name__ == "get_diff"


def _later(tool, pr):
    """A loop that returns (or raises) at once and leaves a thread that runs the tool a moment later."""
    threading.Thread(target=lambda: (threading.Event().wait(0.3), tool(pr))).start()
    return "done"


def test_a_thread_the_loop_leaves_behind_is_still_watched_when_it_runs_the_tool_later():
    run = _watched(_later, lambda pr: _later(get_diff, pr))
    assert {name for _, name in run.tool_calls} == {"get_diff"}, run.tool_calls


def test_only_the_loops_threads_are_waited_for(monkeypatch):
    """A sandbox starting in the background starts server threads while the loop runs; they are not the loop's and
    live on, so waiting for them would add the whole grace to every scenario (exercise 6 took ~6.5 s, not ~1)."""
    release = threading.Event()
    ready = threading.Event()
    servers: list[threading.Thread] = []

    def pool_worker():  # started before the watch, like the sandbox pool's threads
        ready.wait()
        servers.append(threading.Thread(target=release.wait, name="server", daemon=True))
        servers[0].start()

    pool = threading.Thread(target=pool_worker, daemon=True)
    pool.start()
    joined: list[str] = []
    join = threading.Thread.join

    def noting_join(self, timeout=None):
        joined.append(self.name)
        return join(self, timeout)

    def loop(pr):
        ready.set()
        pool.join()  # the server thread has started, from another thread than the loop's
        return _in_a_thread(get_diff, pr)

    monkeypatch.setattr(threading.Thread, "join", noting_join)
    run = _watched(loop, loop)
    monkeypatch.undo()
    release.set()
    assert {name for _, name in run.tool_calls} == {"get_diff"}, run.tool_calls
    assert servers and "server" not in joined, joined
