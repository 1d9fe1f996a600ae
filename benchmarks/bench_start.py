"""How long a notebook's setup takes, against `import anthropic` alone, each in a fresh interpreter.

The setup is what the first cells of a notebook do, offline (the sandbox forced, as the notebook
tests run them): the setup cell (`import anthropic`, `make_client()`, `model_id()`), the GitLab
cell (`gitlab_settings()` and `projects.get(...)`, which starts nothing new: the sandbox is
shared), then the imports of the views and the self-checks the notebooks use. The floor is
`import anthropic` alone. Both run in fresh interpreters (`python -c`), alternately, `--repeat`
times; each times itself with perf_counter from its first statement to its last (interpreter
start-up is the same for both and left out), and the medians are compared.

Target: the setup within 1.5 s of the floor. Then it prints the modules that cost the setup the
most beyond the floor, from `python -X importtime` (cumulative, then self time).

Benchmarks report, they never assert: exit status 0 either way.

Run: python benchmarks/bench_start.py [--repeat 7] [--top 25]
"""

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 1.5

FLOOR = """\
import time
_t0 = time.perf_counter()
import anthropic
print(time.perf_counter() - _t0)
"""

SETUP = """\
import time
_t0 = time.perf_counter()
import os

import anthropic
from course_agent.client import make_client
from course_agent.config import model_id

client = make_client()
MODEL = model_id()
_t1 = time.perf_counter()

import gitlab
from course_agent.client import gitlab_settings

url, token, project_path = gitlab_settings()
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path)
_t2 = time.perf_counter()

from course_agent.widgets import MessagesView, WidgetApprover
from course_selfcheck import check_loop
from course_selfcheck.exercises import check_exercise_1
from course_selfcheck.loop_exercises import check_exercise_3
_t3 = time.perf_counter()
print(_t3 - _t0, _t1 - _t0, _t2 - _t1, _t3 - _t2)
"""


def environment() -> dict[str, str]:
    """Offline, as the notebook tests run: no key, no GitLab, the sandbox forced; the repository importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
    env.update({"COURSE_AGENT_BACKEND": "sandbox", "COURSE_AGENT_AUTO_APPROVE": "deny",
                "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))})
    return env


def timed(code: str, env: dict[str, str]) -> list[float]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True)
    return [float(x) for x in done.stdout.split()[-4:]] if "make_client" in code else [float(done.stdout)]


def import_times(code: str, env: dict[str, str]) -> dict[str, tuple[int, int]]:
    """{module: (self µs, cumulative µs)} from `python -X importtime -c code`."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT, check=True)
    found = {}
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            own, cumulative, name = line.split(":", 1)[1].split("|")
            found[name.strip()] = (int(own), int(cumulative))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="fresh interpreters of each kind (default 7)")
    parser.add_argument("--top", type=int, default=25, help="modules to list from -X importtime (default 25)")
    args = parser.parse_args()
    env = environment()
    floor, setup, parts = [], [], []
    for _ in range(args.repeat):
        floor.append(timed(FLOOR, env)[0])
        total, *split = timed(SETUP, env)
        setup.append(total)
        parts.append(split)
    extra = statistics.median(setup) - statistics.median(floor)
    print(f"fresh interpreters, medians of {args.repeat}:")
    print(f"  import anthropic alone:  {statistics.median(floor):.3f} s")
    print(f"  notebook setup:          {statistics.median(setup):.3f} s  (setup cell "
          f"{statistics.median(p[0] for p in parts):.3f} s, "
          f"GitLab cell {statistics.median(p[1] for p in parts):.3f} s, "
          f"view and self-check imports {statistics.median(p[2] for p in parts):.3f} s)")
    print(f"  setup - floor: {extra:.3f} s (target <= {TARGET_SECONDS} s): "
          f"{'PASS' if extra <= TARGET_SECONDS else 'MISS'}; "
          f"ratio {statistics.median(setup) / statistics.median(floor):.2f}x")

    base = import_times(FLOOR, env)
    with_setup = import_times(SETUP, env)
    beyond = {name: times for name, times in with_setup.items() if name not in base}
    print(f"\nimports beyond `import anthropic` (one -X importtime run): {len(beyond)} modules, "
          f"{sum(own for own, _ in beyond.values()) / 1000:.0f} ms of self time")
    print(f"  top {args.top} by cumulative time (ms):")
    for name, (_, cumulative) in sorted(beyond.items(), key=lambda kv: -kv[1][1])[:args.top]:
        print(f"    {cumulative / 1000:8.1f}  {name}")
    print(f"  top {args.top} by self time (ms):")
    for name, (own, _) in sorted(beyond.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"    {own / 1000:8.1f}  {name}")


if __name__ == "__main__":
    main()
