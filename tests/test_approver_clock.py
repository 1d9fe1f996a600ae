"""Exercise 7's reading of a clock of the loop's own on the approver (attack 15's H3, H4): a run cannot tell a loop
that waits for the person from one that waits longer than the grader's silent approver, so the loop's source is
read. A clock on the question to the approver fails, whatever builds it; a clock elsewhere (the client's, a tool's)
does not; a source that cannot be read is said not to have been read."""

import itertools
import linecache
import textwrap

import pytest

from course_selfcheck.approver_clock import clock_on_approver

_cells = itertools.count()


def cell(source: str) -> dict:
    """The source run as a notebook cell is: IPython keeps each cell's text in linecache under a name of its own."""
    source = textwrap.dedent(source)
    name = f"<ipython-input-{next(_cells)}-clock>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace: dict = {"__name__": "__main__"}
    exec(compile(source, name, "exec"), namespace)
    return namespace


CLOCKED = {
    "event, fail-open": ("""
        import threading

        def review(pr, approve, max_iterations=20):
            for call in calls_of(pr):
                answers, answered = [], threading.Event()

                def ask():
                    answers.append(approve(call["name"], call["input"]))
                    answered.set()

                threading.Thread(target=ask, daemon=True).start()
                allowed = answers[0] is True if answered.wait(120) else True
        """, "answered.wait(120)"),
    "thread join": ("""
        import threading

        def review(pr, consent):
            box = {}
            worker = threading.Thread(target=lambda: box.update(said=consent("merge_pr", {"iid": pr})))
            worker.start()
            worker.join(timeout=45)
            return box.get("said") is True
        """, "worker.join(timeout=45)"),
    "a helper of a class": ("""
        from concurrent.futures import ThreadPoolExecutor

        class Gate:
            def __init__(self, ask):
                self.ask = ask
                self.pool = ThreadPoolExecutor(1)

            def allows(self, name, tool_input):
                pending = self.pool.submit(self.ask, name, tool_input)
                return pending.result(60) is True

        def review(pr, approve=None):
            return Gate(approve).allows("merge_pr", {"iid": pr})
        """, "pending.result(60)"),
    "asyncio.timeout": ("""
        import asyncio

        async def decide(check, name, tool_input):
            async with asyncio.timeout(25):
                return await asyncio.to_thread(check, name, tool_input) is True

        async def review(pr, approve):
            return await decide(approve, "merge_pr", {"iid": pr})
        """, "async with asyncio.timeout(25):"),
    "as_completed": ("""
        from concurrent import futures

        def review(pr, approve):
            pool = futures.ThreadPoolExecutor(2)
            asked = [pool.submit(approve, "merge_pr", {"iid": pr})]
            for done in futures.as_completed(asked, 30):
                return done.result() is True
        """, "for done in futures.as_completed(asked, 30):"),
}


@pytest.mark.parametrize("style", CLOCKED)
def test_a_clock_on_the_approver_is_read_with_its_line(style):
    source, line = CLOCKED[style]
    found = clock_on_approver(cell(source)["review"], "consent" if "consent" in source else "approve")
    assert isinstance(found, tuple) and line in found[1], found


UNCLOCKED = {
    "the client's clock and a tool's": """
        from concurrent.futures import ThreadPoolExecutor

        def review(pr, approve):
            client = make_client(timeout=60)
            pool = ThreadPoolExecutor(4)
            reads = [pool.submit(read, path) for path in paths(pr)]
            texts = [r.result(timeout=30) for r in reads]
            allowed = approve("merge_pr", {"iid": pr}) is True
            return ", ".join(texts), allowed
        """,
    "the answer waited for, no clock": """
        from concurrent.futures import ThreadPoolExecutor

        def review(pr, approve):
            with ThreadPoolExecutor(1) as pool:
                said = pool.submit(approve, "merge_pr", {"iid": pr}).result()
            denied = {"merge": said is not True}
            return denied.get("merge"), " / ".join(["a", "b"])
        """,
}


@pytest.mark.parametrize("style", UNCLOCKED)
def test_a_clock_elsewhere_is_not_the_approvers(style):
    assert clock_on_approver(cell(UNCLOCKED[style])["review"], "approve") is None


def test_a_loop_whose_source_cannot_be_read_is_not_read():
    namespace: dict = {}
    exec(compile("def review(pr, approve):\n    return approve('merge_pr', {}) is True\n", "<no source>", "exec"),
         namespace)
    assert clock_on_approver(namespace["review"], "approve") is False


@pytest.fixture
def short_silence(monkeypatch):
    from course_selfcheck import approvers

    monkeypatch.setattr(approvers, "SILENCE", 0.6)
    monkeypatch.setattr(approvers, "WATCHED_SILENCE", 1.5)


def test_exercise_7_fails_the_reference_with_a_clock_longer_than_its_wait(short_silence):
    """The reference in a notebook cell, its approver asked in a thread of its own and given half a minute (longer
    than the grader's slow yes): no run sees the clock, the source does, and row 2 quotes its line."""
    from course_agent.solutions import given_code, solution_code
    from course_selfcheck.exercises import check_exercise_7

    reference = solution_code(7)
    helper = reference[reference.index("def approved("):]
    helper = helper[:helper.index("\n\n\n") if "\n\n\n" in helper else len(helper)]
    clocked = reference.replace(helper, textwrap.dedent('''\
        def approved(approve, name: str, tool_input: dict) -> bool:
            """A yes is True, if it comes within half a minute."""
            import threading

            said = []
            worker = threading.Thread(target=lambda: said.append(approve(name, tool_input)), daemon=True)
            worker.start()
            worker.join(30)
            return bool(said) and said[0] is True'''))
    assert clocked != reference
    namespace = cell(given_code(7) + "\n\n" + clocked)
    report = check_exercise_7(namespace["review_with_gate"], language="en")
    row = next(f for f in report.findings if f.rule == "yes_merges")
    assert row.status == "broken" and "worker.join(30)" in row.detail, report.text()


def test_a_clock_on_the_tools_of_a_turn_the_gate_decided_is_not_the_approvers():
    """The gate before the pool: the approver's answers decide which calls run, and a clock on those calls is the
    tools' (attack 15's rB7 style), not a clock on a question to the approver."""
    source = """
        import asyncio

        async def review(pr, approve):
            calls = await next_calls(pr)
            denied = {c.id for c in calls if approve(c.name, c.input) is not True}
            ran = await asyncio.wait_for(asyncio.gather(*[asyncio.to_thread(run, c) for c in calls
                                                            if c.id not in denied]), 60)
            return ran
        """
    assert clock_on_approver(cell(source)["review"], "approve") is None


def test_the_reference_brought_in_by_start_from_is_read():
    """start_from runs the course's reference under the name '<reference solution of exercise 7>': its text is the
    course's own, so it is read (and has no clock), not said unread."""
    from course_agent.solutions import given_code, solution_code

    namespace: dict = {"__name__": "__main__"}
    exec(compile(given_code(7), "<given 7>", "exec"), namespace)
    exec(compile(solution_code(7), "<reference solution of exercise 7>", "exec"), namespace)
    assert clock_on_approver(namespace["review_with_gate"], "approve") is None
