"""How long the whole course takes to execute, against two floors measured side by side.

Executes all 16 notebooks (8 lessons x 2 languages) top to bottom with nbclient, offline, as
notebooks/build.py does (without writing them), and compares, in the same run, with:

* the import floor: as many fresh kernels, each running one cell `import anthropic, gitlab,
  ipywidgets` (what any course on these libraries pays before its first line of its own);
* bare kernels: as many fresh kernels, each running one empty cell.

The three are interleaved (bare kernel, import kernel, notebook; then the next notebook), so
that a burst of load on the machine touches all three alike. Target: the course within 1.4x of
the import floor. Benchmarks report, they never assert: exit status 0 either way.

Run: python benchmarks/bench_course.py [--repeat 1]
"""

import argparse
import copy
import os
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))
from build import clean_env  # noqa: E402

TARGET_RATIO = 1.4
IMPORTS = "import anthropic, gitlab, ipywidgets"


def run(nb: nbformat.NotebookNode, folder: Path) -> tuple[float, list[tuple[float, int, str]]]:
    """Seconds to start a kernel, execute every cell and shut the kernel down; and each code cell's
    (seconds in the kernel, index, first line), from the timestamps nbclient records."""
    executed = copy.deepcopy(nb)
    started = time.perf_counter()
    NotebookClient(executed, timeout=300, kernel_name="python3", record_timing=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    total = time.perf_counter() - started
    cells = []
    for index, cell in enumerate(executed.cells):
        stamps = cell.metadata.get("execution", {})
        if cell.cell_type == "code" and {"iopub.execute_input", "shell.execute_reply"} <= set(stamps):
            seconds = (datetime.fromisoformat(stamps["shell.execute_reply"].rstrip("Z"))
                       - datetime.fromisoformat(stamps["iopub.execute_input"].rstrip("Z"))).total_seconds()
            cells.append((seconds, index, (cell.source.strip().splitlines() or [""])[0][:60]))
    return total, cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    env = clean_env()  # read before the environment is cleared: PATH, HOME and PYTHONPATH stay
    os.environ.clear()
    os.environ.update(env)
    paths = sorted(NOTEBOOKS.glob("[er][nu]/*.ipynb"))
    bare = new_notebook(cells=[new_code_cell("pass")])
    imports = new_notebook(cells=[new_code_cell(IMPORTS)])
    ratios = []
    for _ in range(args.repeat):
        per_notebook, bare_total, import_total, floor_cells, setup_cells = {}, 0.0, 0.0, 0.0, 0.0
        cells: list[tuple[float, str]] = []
        for path in paths:
            bare_total += run(bare, path.parent)[0]
            seconds, [(floor_cell, _, _)] = run(imports, path.parent)
            import_total += seconds
            floor_cells += floor_cell
            per_notebook[path], timed = run(nbformat.read(path, as_version=4), path.parent)
            setup_cells += timed[0][0]  # the setup cell: imports, client, model, like the floor's one cell
            cells += [(t, f"{path.parent.name}/{path.name[:2]} cell {i}: {line}") for t, i, line in timed[1:]]
        course = sum(per_notebook.values())
        slowest = sorted(per_notebook, key=per_notebook.get, reverse=True)[:3]
        ratio = course / import_total
        ratios.append(ratio)
        print(f"{len(paths)} notebooks: {course:.1f} s (slowest: "
              + ", ".join(f"{p.parent.name}/{p.name} {per_notebook[p]:.1f} s" for p in slowest) + ")")
        print(f"  import floor, {len(paths)} kernels running `{IMPORTS}`: {import_total:.1f} s")
        print(f"  bare kernels, {len(paths)} kernels running an empty cell: {bare_total:.1f} s")
        print(f"  course / import floor {ratio:.2f}x (target <= {TARGET_RATIO}x): "
              f"{'PASS' if ratio <= TARGET_RATIO else 'MISS'}; course / bare kernels {course / bare_total:.2f}x; "
              f"per notebook beyond the import floor {(course - import_total) / len(paths):.2f} s")
        in_cells = setup_cells + sum(t for t, _ in cells)
        print(f"  in the kernels' cells: course {in_cells:.1f} s (setup cells {setup_cells:.1f} s, the others "
              f"{in_cells - setup_cells:.1f} s), import floor {floor_cells:.1f} s; starting and stopping kernels: "
              f"course {course - in_cells:.1f} s, import floor {import_total - floor_cells:.1f} s")
        print("  the costliest cells after the setup cell:")
        for seconds, where in sorted(cells, reverse=True)[:12]:
            print(f"    {seconds:5.2f} s  {where}")
    if args.repeat > 1:
        print(f"median ratio course / import floor over {args.repeat} runs: {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
