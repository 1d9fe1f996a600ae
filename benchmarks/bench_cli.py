"""How long `course-agent review 482` takes against the sandbox, and what its exit costs.

Three commands, each in a fresh interpreter, alternated `--repeat` times against one sandbox
(started here, as a learner's `course-agent sandbox` would be):

* the command: `python -m course_agent.cli review 482`;
* the same review ended like a library call, `sys.exit(cli.main(argv))`: everything the same
  except that CPython then runs its final garbage collections over the SDK's objects (what the
  command did before it froze them at exit);
* two floors: `python -c "import anthropic"`, what any program on the SDK pays, final collections
  included; and the same import ended with `gc.freeze()`, as the command now ends.

It prints the median wall and CPU time (user + system) of each. Benchmarks report, they never
assert: exit status 0 either way.

Run: python benchmarks/bench_cli.py [--repeat 5]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from course_sandbox import Sandbox

AS_A_LIBRARY = "import sys\nfrom course_agent import cli\nsys.exit(cli.main(sys.argv[1:]))"


def timed(arguments: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of `python ARGUMENTS`, which must succeed."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *arguments], env=env, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise RuntimeError(f"python {' '.join(arguments)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return wall, after.children_user + after.children_system - before.children_user - before.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with Sandbox() as sandbox, tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
        env.update(sandbox.env(), COURSE_AGENT_LANGUAGE="en")
        runs = {"the command": ["-m", "course_agent.cli"], "ended like a library call": ["-c", AS_A_LIBRARY]}
        floors = {"import anthropic": "import anthropic",
                  "import anthropic, frozen": "import gc, anthropic\ngc.freeze()"}
        figures: dict[str, list[tuple[float, float]]] = {label: [] for label in [*runs, *floors]}
        for n in range(args.repeat):
            for label, start in runs.items():
                transcript = Path(folder) / f"{label[:3]}-{n}.jsonl"
                figures[label].append(timed([*start, "review", "482", "--transcript", str(transcript)], env))
            for label, code in floors.items():
                figures[label].append(timed(["-c", code], env))
    print(f"course-agent review 482 against the sandbox, {args.repeat} runs each (medians):")
    for label, pairs in figures.items():
        wall, cpu = statistics.median(w for w, _ in pairs), statistics.median(c for _, c in pairs)
        print(f"  {label:26s} wall {wall:5.2f} s   cpu {cpu:5.2f} s")


if __name__ == "__main__":
    main()
