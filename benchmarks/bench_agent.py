"""Figures for the course_agent core (targets from the core issue).

1. Loop overhead per iteration beyond the API round trip and the tools (target < 5 ms):
   a review of !482 through run_agent against the sandbox, timing every messages.create and
   every tool call; what is left, per iteration, is the loop's own work (building requests,
   the SDK's conversion of responses, dispatch, the transcript).
2. Parallel tools: three calls of 200 ms in one turn (target: well under 2 x 200 ms).
3. Prompt caching: billed input tokens over a full review of !482 with and without caching,
   billed as the API does (cache writes 1.25x, reads 0.1x). "cold" is the first review in a
   fresh sandbox; "warm" follows one review of another MR, so the rules and tools are already
   cached, as in any agent that reviews more than one MR (target: warm <= 35% of uncached).

Run: python benchmarks/bench_agent.py [--n 30]
"""

import argparse
import statistics
import time

from anthropic.types import ToolUseBlock

from course_agent.gitlab import GitLabTools
from course_agent.loop import run_agent
from course_agent.review import REVIEW_RULES, review, reviewer_toolbox
from course_agent.safety import auto_approver
from course_agent.tools import Tool, Toolbox
from course_sandbox import Sandbox


class TimedClient:
    """Wraps a client so the time spent inside messages.create can be taken out."""

    def __init__(self, client):
        self._client, self.seconds = client, 0.0
        self.messages = self

    def create(self, **kwargs):
        started = time.perf_counter()
        try:
            return self._client.messages.create(**kwargs)
        finally:
            self.seconds += time.perf_counter() - started


def loop_overhead(sb: Sandbox, n: int, tmp_transcript: str) -> list[float]:
    gitlab = GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project)
    tool_seconds = [0.0]

    def timed(function):
        def run(**kwargs):
            started = time.perf_counter()
            try:
                return function(**kwargs)
            finally:
                tool_seconds[0] += time.perf_counter() - started
        return run

    tools = [Tool(t.name, t.description, t.input_schema, timed(t.function), t.risk) for t in gitlab.tools()]
    per_iteration = []
    for _ in range(n):
        client, tool_seconds[0] = TimedClient(sb.client()), 0.0
        started = time.perf_counter()
        result = run_agent(client, "Review merge request !482.", Toolbox(tools), system=REVIEW_RULES,
                           transcript=tmp_transcript)
        total = time.perf_counter() - started
        per_iteration.append((total - client.seconds - tool_seconds[0]) / result.iterations * 1000)
    return per_iteration


def parallel_speedup(n: int) -> list[float]:
    slow = Toolbox([Tool("read_file", "r", {"type": "object"}, lambda **kw: time.sleep(0.2) or "ok")])
    blocks = [ToolUseBlock(type="tool_use", id=f"toolu_{i}", name="read_file", input={}) for i in range(3)]
    walls = []
    for _ in range(n):
        started = time.perf_counter()
        slow.run_all(blocks)
        walls.append((time.perf_counter() - started) * 1000)
    return walls


def billed(usage) -> float:
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def caching() -> dict[tuple[str, bool], float]:
    figures = {}
    for warm in (False, True):
        for cache in (False, True):
            with Sandbox() as sb:
                toolbox = reviewer_toolbox(GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project),
                                           approver=auto_approver("deny"))
                if warm:
                    review(483, client=sb.client(), toolbox=toolbox, cache=cache)
                figures[("warm" if warm else "cold", cache)] = billed(
                    review(482, client=sb.client(), toolbox=toolbox, cache=cache).usage)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="repetitions (default 30)")
    args = parser.parse_args()

    import tempfile
    with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
        overhead = loop_overhead(sb, args.n, f"{tmp}/run.jsonl")
    median = statistics.median(overhead)
    print(f"loop overhead per iteration (review of !482, n={args.n}): median {median:.2f} ms, "
          f"max {max(overhead):.2f} ms  (target < 5 ms): {'PASS' if median < 5 else 'MISS'}")

    walls = parallel_speedup(max(5, args.n // 3))
    wall = statistics.median(walls)
    print(f"three 200 ms tool calls in one turn: median {wall:.0f} ms (serial would be 600 ms; speed-up "
          f"{600 / wall:.2f}x; target < 400 ms): {'PASS' if wall < 400 else 'MISS'}")

    figures = caching()
    for state in ("cold", "warm"):
        plain, cached = figures[(state, False)], figures[(state, True)]
        verdict = "" if state == "cold" else f"  (target <= 35%): {'PASS' if cached <= 0.35 * plain else 'MISS'}"
        print(f"billed input tokens, review of !482, {state}: without caching {plain:.0f}, with caching "
              f"{cached:.0f} = {cached / plain:.0%}{verdict}")


if __name__ == "__main__":
    main()
