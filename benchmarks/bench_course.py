"""How long the whole course takes to execute, against the floor of starting kernels.

Executes all 16 notebooks (8 lessons x 2 languages) top to bottom with nbclient, offline, as
notebooks/build.py does (without writing them), and compares with the floor: the same number
of fresh kernels each running one empty cell. Target: the course within 2x of the floor.

Run: python benchmarks/bench_course.py [--repeat 1]
"""

import argparse
import copy
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))
from build import clean_env  # noqa: E402


def run(nb: nbformat.NotebookNode, folder: Path) -> float:
    started = time.perf_counter()
    NotebookClient(copy.deepcopy(nb), timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    os.environ.clear()
    os.environ.update(clean_env())
    paths = sorted(NOTEBOOKS.glob("[er][nu]/*.ipynb"))
    empty = new_notebook(cells=[new_code_cell("pass")])
    for _ in range(args.repeat):
        per_notebook = {p: run(nbformat.read(p, as_version=4), p.parent) for p in paths}
        course = sum(per_notebook.values())
        floor = sum(run(empty, NOTEBOOKS) for _ in paths)
        slowest = max(per_notebook, key=per_notebook.get)
        print(f"{len(paths)} notebooks: {course:.1f} s (slowest {slowest.parent.name}/{slowest.name} "
              f"{per_notebook[slowest]:.1f} s); floor, {len(paths)} kernels with an empty cell: {floor:.1f} s; "
              f"ratio {course / floor:.2f}x (target <= 2x): {'PASS' if course <= 2 * floor else 'MISS'}")


if __name__ == "__main__":
    main()
