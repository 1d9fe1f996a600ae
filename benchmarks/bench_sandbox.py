"""How much latency the course sandbox adds to a real anthropic SDK call.

For each of two requests this prints the median and p90 of:

* sandbox: `client.messages.create(...)` through the real SDK against a running
  `Sandbox()` (HTTP over 127.0.0.1 to the waitress server in a background thread);
* floor: the same SDK call answered in-process by an httpx2.MockTransport that returns
  the very message the sandbox computes for that body (precomputed once), so it only
  measures the SDK's own work: building the request and parsing the response.

A third line, http-only, answers the same call from a waitress server in this process that
returns the precomputed message and does nothing else: the cost of a local HTTP hop alone,
so the difference to the sandbox is the sandbox's own work.

Two more lines answer whether a sandbox in a process of its own (off the client's GIL) would
pay: "sandbox, own process" is `course-agent sandbox` started as a child process, and
"http-only, own process" the fixed-reply server of the line above in a child process: the
best any server design in its own process could do with this HTTP stack.

Requests: a one-line "Hello", and a review request with 3 tools and a 20-message
history (built by driving the sandbox's simulated reviewer).

Target: the sandbox round trip stays within 2.5x of the floor (median). The script prints
PASS or MISS but always exits 0: benchmarks report, tests assert. The five are measured
side by side in one run; --rounds alternates them several times and takes the median of
each round's median (the machine's load then touches all five alike).

Run: python benchmarks/bench_sandbox.py [--n 300] [--warmup 20] [--rounds 3]
"""

import argparse
import json
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anthropic
import httpx2
from waitress.server import create_server

from course_sandbox import Sandbox
from course_sandbox.server import WORKER_THREADS

MODEL = "claude-opus-5"
TARGET_RATIO = 2.5
TOOLS = [
    {"name": "get_diff", "description": "Get the diff of a merge request by its number.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
    {"name": "read_file", "description": "Read a whole file from the repository.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "post_comment", "description": "Post a comment on a merge request.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}, "body": {"type": "string"}},
                      "required": ["pr", "body"]}},
]
FAKE_DIFF = "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-RETRIES = 1\n+RETRIES = 3\n"


def hello_body() -> dict:
    return {"model": MODEL, "max_tokens": 1000, "messages": [{"role": "user", "content": "Hello"}]}


def review_body(client: anthropic.Anthropic, history: int = 20) -> dict:
    """Drive the simulated reviewer over several PRs until `history` messages, then ask for one more."""
    messages: list[dict] = []
    pr = 482
    while len(messages) < history:
        if not messages or messages[-1]["role"] == "assistant":
            messages.append({"role": "user", "content": f"Review PR #{pr}"})
            pr += 1
        reply = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)
        messages.append({"role": "assistant", "content": [block.to_dict() for block in reply.content]})
        results = [{"type": "tool_result", "tool_use_id": block.id,
                    "content": FAKE_DIFF if block.name == "get_diff" else "RETRIES = 3  # fake file content"}
                   for block in reply.content if block.type == "tool_use"]
        if results:
            messages.append({"role": "user", "content": results})
    messages.append({"role": "user", "content": f"Review PR #{pr}"})
    return {"model": MODEL, "max_tokens": 4000, "tools": TOOLS, "messages": messages}


def floor_client(message: dict) -> anthropic.Anthropic:
    """An SDK client whose every request is answered in-process with `message`."""
    transport = httpx2.MockTransport(lambda request: httpx2.Response(200, json=message))
    return anthropic.Anthropic(api_key="sk-ant-floor", base_url="http://sandbox.test",
                               http_client=httpx2.Client(transport=transport))


@contextmanager
def fixed_reply_server(message: dict):
    """The same HTTP server the sandbox uses (waitress, keep-alive, in this process), answering
    every request with `message` and doing nothing else: the cost of a local HTTP hop alone."""
    payload = json.dumps(message).encode()

    def app(environ, start_response):
        environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
        return [payload]

    listener = socket.create_server(("127.0.0.1", 0))
    server = create_server(app, sockets=[listener], threads=WORKER_THREADS)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: [*(c.close() for c in list(server.active_channels.values())),
                                             server.close()])
        thread.join(timeout=5)


@contextmanager
def own_process(*arguments: str, wanted: tuple[str, ...] = ("ANTHROPIC_BASE_URL",),
                timeout: float = 60) -> Iterator[dict[str, str]]:
    """A server started as `python ARGUMENTS` in a child process, stopped at the end (killed if it does not
    stop); yields the variables it prints as `export NAME=...` lines (as `course-agent sandbox` does: its
    ANTHROPIC_API_KEY is that sandbox's own), once all `wanted` are printed, within `timeout` seconds."""
    child = subprocess.Popen([sys.executable, *arguments], stdout=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in child.stdout], daemon=True).start()
    exported: dict[str, str] = {}
    try:
        deadline = time.monotonic() + timeout
        while not set(wanted) <= exported.keys():
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"no {', '.join(wanted)} from python {' '.join(arguments)} in {timeout} s") from None
            if line.startswith("export ") and "=" in line:
                name, value = line.strip().removeprefix("export ").split("=", 1)
                exported[name] = value
        yield exported
    finally:
        child.terminate()
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


FIXED_REPLY_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from bench_sandbox import fixed_reply_server
with fixed_reply_server(json.loads(open(sys.argv[2]).read())) as url:
    print("export ANTHROPIC_BASE_URL=" + url, flush=True)
    time.sleep(3600)
"""


def timings(client: anthropic.Anthropic, body: dict, n: int, warmup: int) -> list[float]:
    """Milliseconds of n timed `messages.create(**body)` calls, after `warmup` untimed ones."""
    for _ in range(warmup):
        client.messages.create(**body)
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        client.messages.create(**body)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def p90(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=10)[-1]


def compare(name: str, sb: Sandbox, child_sandbox: dict[str, str], body: dict, n: int, warmup: int,
            rounds: int = 1) -> None:
    message, _ = sb.messages_api.create(body)
    with tempfile.TemporaryDirectory() as folder, fixed_reply_server(message) as url:
        reply = Path(folder) / "reply.json"
        reply.write_text(json.dumps(message))
        with own_process("-c", FIXED_REPLY_CHILD, str(Path(__file__).resolve().parent), str(reply)) as child:
            clients = {
                "sandbox": sb.client(),
                "sandbox, own process": anthropic.Anthropic(api_key=child_sandbox["ANTHROPIC_API_KEY"],
                                                            base_url=child_sandbox["ANTHROPIC_BASE_URL"]),
                "http-only": anthropic.Anthropic(api_key="sk-ant-floor", base_url=url),
                "http-only, own process": anthropic.Anthropic(api_key="sk-ant-floor",
                                                              base_url=child["ANTHROPIC_BASE_URL"]),
                "floor": floor_client(message),
            }
            medians: dict[str, list[float]] = {label: [] for label in clients}
            p90s: dict[str, list[float]] = {label: [] for label in clients}
            for _ in range(rounds):
                for label, client in clients.items():
                    samples = timings(client, body, n, warmup)
                    medians[label].append(statistics.median(samples))
                    p90s[label].append(p90(samples))
    median = {label: statistics.median(values) for label, values in medians.items()}
    ratio = median["sandbox"] / median["floor"]
    verdict = "PASS" if ratio <= TARGET_RATIO else "MISS"
    print(f"\n{name}: {len(body['messages'])} messages, {len(body.get('tools', []))} tools, n={n} x {rounds} round(s)")
    for label in medians:
        print(f"  {label:22s} median {median[label]:7.3f} ms   p90 {statistics.median(p90s[label]):7.3f} ms   "
              f"{median[label] / median['floor']:5.2f}x the floor")
    print(f"  ratio sandbox/floor {ratio:.2f}x  (target <= {TARGET_RATIO}x): {verdict}")
    print(f"  the sandbox's own work: {median['sandbox'] - median['http-only']:.3f} ms in this process, "
          f"{median['sandbox, own process'] - median['http-only, own process']:.3f} ms in its own")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="timed calls per measurement (default 300)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls first (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the five (default 3)")
    args = parser.parse_args()
    with Sandbox() as sb, own_process("-m", "course_agent.cli", "sandbox", "--port", "0",
                                      wanted=("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")) as child_sandbox:
        compare("hello", sb, child_sandbox, hello_body(), args.n, args.warmup, args.rounds)
        compare("review (20-message history + a new task)", sb, child_sandbox, review_body(sb.client()), args.n,
                args.warmup, args.rounds)


if __name__ == "__main__":
    main()
