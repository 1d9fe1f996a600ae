"""What a self-check cell costs beyond the learner's loop itself (issue #26; target: at most 0.3 s).

Three cells, each measured side by side with one run of the loop it checks, alternated, medians:

- notebook 3's `check_loop(loop, rules=[...])` cell on the reference loop (course_agent.solutions),
- the same cell on a loop in another style (tests/learner_styles.py: a streaming loop with other names,
  its own clients built before the check),
- notebook 3's graded exercise, `check_exercise_3(loop)`, on the reference loop.

"The loop itself" is `loop(482)` against a sandbox, with the loop's own clients pointed there as a
learner's are (the notebook's sandbox for the reference loop; new clients for the other style). Besides
cell − loop, each row gives the cell's own cost: the cell's time minus the time spent inside the loop's
calls during the check (one call per rule, each against a scenario's sandbox).

    python benchmarks/bench_check_cell.py [--repeat 7] [--profile]
"""

import argparse
import cProfile
import functools
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

NOTEBOOK_3_RULES = ["whole_response", "cap", "returns_answer"]
"""The rules of notebook 3's self-check cell (notebooks/source/03_the_loop.py)."""
TARGET = 0.3


class Timed:
    """A loop wrapped so that the time spent inside its calls is summed (the check calls it once per rule)."""

    def __init__(self, loop: Callable) -> None:
        self.loop, self.inside = loop, 0.0
        functools.update_wrapper(self, loop)

    def __call__(self, *args, **kwargs):  # check_exercise_3 passes max_iterations=2
        started = time.perf_counter()
        try:
            return self.loop(*args, **kwargs)
        finally:
            self.inside += time.perf_counter() - started


def seconds(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def pointed_at_sandbox(style, sandbox) -> None:
    """The other style's own clients, built again for `sandbox` as a learner would build them."""
    import anthropic
    import gitlab

    env = sandbox.env()
    style.claude = anthropic.Anthropic(api_key=env["ANTHROPIC_API_KEY"], base_url=env["ANTHROPIC_BASE_URL"],
                                       max_retries=0)
    style.repo = gitlab.Gitlab(env["GITLAB_URL"], private_token=env["GITLAB_TOKEN"]).projects.get(
        env["GITLAB_PROJECT"], lazy=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--profile", action="store_true",
                        help="also profile one check cell (cProfile, top 25): its main thread, i.e. the check's "
                             "own work; the loop runs in a thread of its own")
    options = parser.parse_args()
    os.environ.setdefault("COURSE_AGENT_BACKEND", "sandbox")

    import learner_styles

    from course_agent import solutions
    from course_agent.client import shared_sandbox
    from course_sandbox import Sandbox
    from course_selfcheck import check_loop
    from course_selfcheck.loop_exercises import check_exercise_3

    other_sandbox = Sandbox().start()
    other_clients = type("Clients", (), {})()
    pointed_at_sandbox(other_clients, other_sandbox)
    dead = learner_styles.claude, learner_styles.repo

    def other_style_alone() -> None:
        learner_styles.claude, learner_styles.repo = other_clients.claude, other_clients.repo
        try:
            learner_styles.streaming_loop(482)
        finally:
            learner_styles.claude, learner_styles.repo = dead

    shared_sandbox()
    reference, other = Timed(solutions.review_pull_request), Timed(learner_styles.streaming_loop)
    cells = {
        "check_loop(reference loop, notebook 3's rules)":
            (lambda: solutions.review_pull_request(482), reference, lambda: check_loop(reference, NOTEBOOK_3_RULES)),
        "check_loop(streaming loop, other names)":
            (other_style_alone, other, lambda: check_loop(other, NOTEBOOK_3_RULES)),
        "check_exercise_3(reference loop)":
            (lambda: solutions.review_pull_request(482), reference, lambda: check_exercise_3(reference)),
    }
    for name, (alone, _, cell) in cells.items():  # imports, the template repository, the first sandboxes: once
        alone()
        report = cell()
        if not report.ok:  # a figure of a check that did not judge the loop would measure nothing
            sys.exit(f"{name}: the check did not pass, so its time means nothing:\n{report.text()}")
    print(f"load average before: {os.getloadavg()[0]:.2f}; {options.repeat} rounds, alternated")
    misses = 0
    for name, (alone, timed, cell) in cells.items():
        alone_s, cell_s, own_s = [], [], []
        for _ in range(options.repeat):
            alone_s.append(seconds(alone))
            timed.inside = 0.0
            cell_s.append(seconds(cell))
            own_s.append(cell_s[-1] - timed.inside)
        loop, check, own = (statistics.median(x) for x in (alone_s, cell_s, own_s))
        misses += check - loop > TARGET
        print(f"{name:48s} loop once {loop:5.3f} s  cell {check:5.3f} s  cell - loop {check - loop:+.3f} s  "
              f"(target +{TARGET} s: {'met' if check - loop <= TARGET else 'MISSED'})  the check's own {own:.3f} s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if options.profile:
        profile = cProfile.Profile()
        profile.runcall(check_loop, reference, NOTEBOOK_3_RULES)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    other_sandbox.stop()
    print("every cell within the target" if not misses else f"{misses} cell(s) over the target")


if __name__ == "__main__":
    main()
