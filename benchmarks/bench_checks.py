"""How long the self-check takes: a full nine-rule check_loop of the reference loop and of a loop in
another style, and one graded exercise, as medians over a few runs (target: a full check under 5 s).

    python benchmarks/bench_checks.py [--repeat 5]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def timed(function, repeat: int) -> list[float]:
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    os.environ.setdefault("COURSE_AGENT_BACKEND", "sandbox")

    import learner_styles

    from course_agent import solutions
    from course_selfcheck import check_loop
    from course_selfcheck.loop_exercises import check_exercise_3

    check_loop(solutions.review_pull_request, rules="refusal")  # imports and the template repository, once
    cases = {
        "check_loop(reference loop), 9 rules": lambda: check_loop(solutions.review_pull_request),
        "check_loop(streaming loop, other names), 9 rules": lambda: check_loop(learner_styles.streaming_loop),
        "check_loop(async loop), 9 rules": lambda: check_loop(learner_styles.async_loop),
        "check_exercise_3(reference)": lambda: check_exercise_3(solutions.review_pull_request),
    }
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, case in cases.items():
        seconds = timed(case, repeat)
        print(f"{name:50s} median {statistics.median(seconds):5.2f} s  "
              f"(min {min(seconds):.2f}, max {max(seconds):.2f})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
