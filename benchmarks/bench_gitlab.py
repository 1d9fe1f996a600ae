"""How fast the sandbox's demo GitLab answers python-gitlab, alone and inside a whole review.

Against one running `Sandbox()` this prints the median and p90 of:

* `mr.changes()` for merge request !482 (the `mr` object is fetched once; only `changes()` is timed);
* `project.files.get("shop/checkout.py", ref="main")`;
* a whole simulated review of !482: from the first `messages.create` to the final `end_turn`
  text, with the tools `get_diff` and `read_file` answered by the demo GitLab through
  python-gitlab (the lesson's loop, written inline). The review changes no state, so one
  sandbox serves every run. Also printed: model calls and tool calls per review, and how the
  review's time splits between model calls and tool calls.

For each GitLab call it also prints the same work done in-process by the server's
`DemoProject` (no HTTP, no python-gitlab) and how many `git` subprocesses one call starts:
the difference to the python-gitlab figure is the HTTP hop plus the client's own work.

Target: a whole review of !482 under 0.2 s (median). The script prints PASS or MISS but always
exits 0: benchmarks report, tests assert.

Run: python benchmarks/bench_gitlab.py [--n 200] [--reviews 30] [--warmup 5]
"""

import argparse
import json
import statistics
import time

import gitlab

from course_sandbox import Sandbox

MODEL = "claude-opus-5"
MR = 482
FILE_PATH = "shop/checkout.py"
TARGET_REVIEW_S = 0.2
TOOLS = [
    {"name": "get_diff", "description": "Get the diff of a merge request by its number.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
    {"name": "read_file", "description": "Read a whole file from the repository.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
                      "required": ["path"]}},
]


def timed(fn, n: int, warmup: int) -> list[float]:
    """Milliseconds of n timed calls of fn(), after `warmup` untimed ones."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def p90(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=10)[-1] if len(samples) > 1 else samples[0]


def line(label: str, samples: list[float], extra: str = "") -> None:
    print(f"  {label:22s} median {statistics.median(samples):8.3f} ms   p90 {p90(samples):8.3f} ms{extra}")


def git_calls_per(sb: Sandbox, fn) -> int:
    """How many git subprocesses one fn() makes the server start (counted on this sandbox's repository)."""
    repo = sb.gitlab.repository
    original = repo.git
    count = 0

    def counting(*args, **kwargs):
        nonlocal count
        count += 1
        return original(*args, **kwargs)

    repo.git = counting
    try:
        fn()
    finally:
        del repo.git  # back to the class's method
    return count


def make_tools(project):
    """The lesson's tool functions on python-gitlab; errors become error results."""

    def answer(name: str, tool_input: dict) -> tuple[str, bool]:
        try:
            if name == "get_diff":
                return json.dumps(project.mergerequests.get(tool_input["pr"]).changes()), False
            if name == "read_file":
                return project.files.raw(tool_input["path"], ref=tool_input.get("ref") or "main").decode(), False
        except gitlab.GitlabError as error:
            return f"GitLab error {error.response_code}: {error.error_message}", True
        return f"unknown tool {name}", True

    return answer


def review(client, answer, task: str = f"Review PR #{MR}.", max_iterations: int = 10) -> dict:
    """One review, the lesson's loop; returns its final text, call counts and time split (seconds)."""
    messages = [{"role": "user", "content": task}]
    tool_calls = 0
    model_s = tool_s = 0.0
    for model_calls in range(1, max_iterations + 1):
        start = time.perf_counter()
        response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)
        model_s += time.perf_counter() - start
        if response.stop_reason == "end_turn":
            return {"text": response.content[-1].text, "model_calls": model_calls, "tool_calls": tool_calls,
                    "model_s": model_s, "tool_s": tool_s}
        messages.append({"role": "assistant", "content": response.content})
        results = []
        start = time.perf_counter()
        for block in response.content:
            if block.type == "tool_use":
                content, is_error = answer(block.name, block.input)
                tool_calls += 1
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": content,
                                "is_error": is_error})
        tool_s += time.perf_counter() - start
        messages.append({"role": "user", "content": results})
    raise RuntimeError(f"the review did not reach end_turn in {max_iterations} model calls")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="timed calls per GitLab measurement (default 200)")
    parser.add_argument("--reviews", type=int, default=30, help="timed whole reviews (default 30)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed runs before each measurement (default 5)")
    args = parser.parse_args()

    with Sandbox() as sb:
        gl = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token)
        project = gl.projects.get(sb.project)
        mr = project.mergerequests.get(MR)
        demo = sb.gitlab

        print(f"\nmr.changes() for !{MR}: {len(mr.changes()['changes'])} changed files, n={args.n}")
        line("python-gitlab", timed(mr.changes, args.n, args.warmup))
        line("server in-process", timed(lambda: demo.changes_view(demo.get(MR)), args.n, args.warmup),
             f"   ({git_calls_per(sb, mr.changes)} git subprocesses per call)")

        get_file = lambda: project.files.get(FILE_PATH, ref="main")  # noqa: E731
        print(f"\nproject.files.get({FILE_PATH!r}, ref='main'): {get_file().size} bytes, n={args.n}")
        line("python-gitlab", timed(get_file, args.n, args.warmup))
        line("server in-process", timed(lambda: demo.file_view(FILE_PATH, "main"), args.n, args.warmup),
             f"   ({git_calls_per(sb, get_file)} git subprocesses per call)")

        client, answer = sb.client(), make_tools(project)
        for _ in range(args.warmup):
            review(client, answer)
        runs, totals = [], []
        for _ in range(args.reviews):
            start = time.perf_counter()
            runs.append(review(client, answer))
            totals.append((time.perf_counter() - start) * 1000)
        first = runs[0]
        assert all(r["text"] == first["text"] for r in runs), "reviews of the same MR differ"
        print(f"\nwhole review of !{MR} (first messages.create to end_turn), n={args.reviews}")
        print(f"  {first['model_calls']} model calls and {first['tool_calls']} tool calls per review; "
              f"ends: ...{first['text'][-40:]!r}")
        line("review", totals)
        line("  of which model calls", [r["model_s"] * 1000 for r in runs])
        line("  of which tool calls", [r["tool_s"] * 1000 for r in runs],
             f"   ({git_calls_per(sb, lambda: review(client, answer))} git subprocesses per review)")
        median_s = statistics.median(totals) / 1000
        verdict = "PASS" if median_s < TARGET_REVIEW_S else "MISS"
        print(f"  median {median_s:.3f} s (target < {TARGET_REVIEW_S} s): {verdict}")


if __name__ == "__main__":
    main()
