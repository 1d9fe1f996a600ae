"""A class on the classroom hub (issue #41): N learners at once, each running notebook 3 and its check cell.

For each N (default 2, 5, 10) a fresh JupyterHub with classroom/jupyterhub_config.py on 127.0.0.1 (as
tests/classroom/test_hub.py starts it): the N learners log in with the shared password, start their servers
through the REST API, get the course by nbgitpuller and run every code cell of notebook 3 (English; the exercise
done with the reference solution) in their kernels, all at the same time. Then, with every kernel still alive:

- per learner, the memory of their server and its kernel: USS (what stopping them would free) and RSS, summed
  over the server process and its descendants, from psutil;
- the check cell (`check_exercise_3`) and the self-check cell (`check_loop`): p50 and p95 over the learners;
  the whole notebook's wall time, p50 and max; the server's start (login to ready) p50 and max;
- CPU seconds per learner (server + kernel, user + system) for the whole visit;
- the hub's own overhead: USS of the hub, its proxy and the idle culler, idle before anyone logs in and after;
- the mode: run as root, each learner's server runs as an OS user of their own (`os_users`, `server_uids`).

    python benchmarks/bench_classroom.py [--sizes 2,5,10] [--json results.json]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "classroom"))

import psutil  # noqa: E402
from classroom_hub import (  # noqa: E402
    EXERCISE_STUB,
    Learner,
    code_cells,
    course_repository,
    missing,
    running_hub,
    served_repository,
)

MIB = 1024 * 1024


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _tree(process: psutil.Process) -> list[psutil.Process]:
    try:
        return [process, *process.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _memory(processes: list[psutil.Process]) -> tuple[float, float]:
    uss = rss = 0
    for process in processes:
        try:
            info = process.memory_full_info()
        except psutil.NoSuchProcess:
            continue
        uss, rss = uss + info.uss, rss + info.rss
    return uss / MIB, rss / MIB


def _cpu(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _servers(hub) -> dict[str, psutil.Process]:
    """Each learner's single-user server, found among the hub's children by JUPYTERHUB_USER."""
    found = {}
    for child in psutil.Process(hub.process.pid).children():
        try:
            if "jupyterhub.singleuser" in " ".join(child.cmdline()):
                found[child.environ().get("JUPYTERHUB_USER", "?")] = child
        except psutil.NoSuchProcess:
            pass
    return found


def _hub_processes(hub, servers: dict[str, psutil.Process]) -> list[psutil.Process]:
    learners = {p.pid for server in servers.values() for p in _tree(server)}
    return [p for p in _tree(psutil.Process(hub.process.pid)) if p.pid not in learners]


def visit(learner: Learner, repo: str, ran: threading.Barrier, measured: threading.Event, merged: threading.Event,
          first: bool) -> dict:
    """One learner's visit: log in, start, pull, notebook 3; then wait (kernel alive) until memory is measured; then
    the first learner merges !485 in their demo GitLab and every other one looks whether theirs still has it open."""
    from course_agent.solutions import solution_code

    started = time.perf_counter()
    learner.log_in()
    learner.start("en")
    ready = time.perf_counter() - started
    learner.pull(repo)
    notebook = "course/notebooks/en/03_the_loop.ipynb"
    kernel = learner.kernel(notebook)
    timings = {}
    began = time.perf_counter()
    try:
        for code in code_cells(learner.home / notebook):
            if code.startswith(EXERCISE_STUB):  # the exercise: the reference solution (as the hub test does)
                code = solution_code(3, "en")
            at = time.perf_counter()
            text, error = kernel.run(code)
            if error is not None:
                raise RuntimeError(f"{learner.name}: {error.get('ename')}: {error.get('evalue')}")
            if "check_exercise_3(" in code:
                timings["check"] = time.perf_counter() - at
                timings["check_passed"] = "0 broken, 0 not checked" in text
            elif "check_loop(" in code:
                timings["self_check"] = time.perf_counter() - at
                timings["self_check_passed"] = "0 broken, 0 not checked" in text
        timings["notebook"] = time.perf_counter() - began
        timings["ready"] = ready
        timings["sandbox"], _ = kernel.run("print(url)")
        ran.wait()
        measured.wait(600)
        if first:
            text, error = kernel.run("print(project.mergerequests.get(485).merge()['state'])")
            timings["485"] = text.strip()
            merged.set()
        else:
            merged.wait(600)
            text, error = kernel.run("print(project.mergerequests.get(485).state)")
            timings["485"] = text.strip()
    finally:
        kernel.close()
    return timings


def one_class(n: int, where: Path) -> dict:
    repo = course_repository(where / "repo")
    (where / "hub").mkdir()
    with served_repository(repo) as url, running_hub(where / "hub") as hub:
        time.sleep(3)  # the idle culler's first look
        idle_hub, _ = _memory(_hub_processes(hub, {}))
        learners = [Learner(hub, f"learner{i:02d}") for i in range(n)]
        ran, measured, merged = threading.Barrier(n + 1), threading.Event(), threading.Event()
        started = time.perf_counter()
        with ThreadPoolExecutor(n) as pool:
            futures = [pool.submit(visit, learner, url, ran, measured, merged, index == 0)
                       for index, learner in enumerate(learners)]
            try:
                ran.wait(1200)
            except threading.BrokenBarrierError:
                for future in futures:
                    if future.done() and future.exception():
                        raise future.exception() from None
                raise
            wall = time.perf_counter() - started
            servers = _servers(hub)
            uids = sorted({server.uids().real for server in servers.values()})
            memory = {name: _memory(_tree(server)) for name, server in servers.items()}
            server_only = [_memory([server])[0] for server in servers.values()]
            cpu = {name: _cpu(_tree(server)) for name, server in servers.items()}
            hub_uss, _ = _memory(_hub_processes(hub, servers))
            hub_cpu = _cpu(_hub_processes(hub, servers))
            measured.set()
            results = [future.result() for future in futures]
    uss = [m[0] for m in memory.values()]  # the same order as server_only: servers' order
    rss = [m[1] for m in memory.values()]
    return {
        "learners": n, "servers_found": len(servers), "wall_s": wall,
        "os_users": hub.os_users, "server_uids": uids,
        "all_checks_passed": all(r["check_passed"] and r["self_check_passed"] for r in results),
        "sandboxes": len({r["sandbox"] for r in results}),
        "isolated": results[0]["485"] == "merged" and all(r["485"] == "opened" for r in results[1:]),
        "uss_mib_median": statistics.median(uss), "uss_mib_max": max(uss),
        "rss_mib_median": statistics.median(rss), "rss_mib_max": max(rss),
        "server_uss_mib_median": statistics.median(server_only),
        "kernel_uss_mib_median": statistics.median(u - s for u, s in zip(uss, server_only, strict=True)),
        "check_p50_s": _percentile([r["check"] for r in results], 0.5),
        "check_p95_s": _percentile([r["check"] for r in results], 0.95),
        "self_check_p50_s": _percentile([r["self_check"] for r in results], 0.5),
        "self_check_p95_s": _percentile([r["self_check"] for r in results], 0.95),
        "notebook_p50_s": _percentile([r["notebook"] for r in results], 0.5),
        "notebook_max_s": max(r["notebook"] for r in results),
        "ready_p50_s": _percentile([r["ready"] for r in results], 0.5),
        "ready_max_s": max(r["ready"] for r in results),
        "cpu_s_per_learner": statistics.median(cpu.values()),
        "hub_uss_mib_idle": idle_hub, "hub_uss_mib_loaded": hub_uss, "hub_cpu_s": hub_cpu,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2,5,10", help="class sizes, comma-separated (default 2,5,10)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    reason = missing()
    if reason:
        print(f"cannot start a hub here: {reason}")
        return 0
    rows = []
    print(f"cores: {os.cpu_count()}, load before: {os.getloadavg()[0]:.2f}, "
          f"memory: {psutil.virtual_memory().total / MIB / 1024:.1f} GiB")
    for n in [int(size) for size in args.sizes.split(",")]:
        with tempfile.TemporaryDirectory(prefix=f"classroom{n}-") as where:
            row = one_class(n, Path(where))
        row["load_after"] = os.getloadavg()[0]
        rows.append(row)
        print(json.dumps(row))
    print()
    print("| learners | all checks passed | sandboxes (ports) | !485 merged by one, open for the rest "
          "| server+kernel USS MiB (median / max) | server / kernel USS MiB | RSS MiB median | check p50 / p95 s "
          "| check_loop p50 / p95 s | notebook 3 p50 / max s | start p50 / max s | CPU s per learner "
          "| hub USS MiB idle / loaded | all done in s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['learners']} | {'yes' if r['all_checks_passed'] else 'NO'} | {r['sandboxes']} "
              f"| {'yes' if r['isolated'] else 'NO'} "
              f"| {r['uss_mib_median']:.0f} / {r['uss_mib_max']:.0f} "
              f"| {r['server_uss_mib_median']:.0f} / {r['kernel_uss_mib_median']:.0f} | {r['rss_mib_median']:.0f} "
              f"| {r['check_p50_s']:.2f} / {r['check_p95_s']:.2f} | {r['self_check_p50_s']:.2f} / "
              f"{r['self_check_p95_s']:.2f} | {r['notebook_p50_s']:.1f} / {r['notebook_max_s']:.1f} "
              f"| {r['ready_p50_s']:.1f} / {r['ready_max_s']:.1f} | {r['cpu_s_per_learner']:.1f} "
              f"| {r['hub_uss_mib_idle']:.0f} / {r['hub_uss_mib_loaded']:.0f} | {r['wall_s']:.0f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
