"""The four packages import in one direction: course_selfcheck → course_agent → course_sandbox → course_shared
(import-linter's layers contract in pyproject.toml). The contract holds, and it would catch an upward import."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("course_selfcheck", "course_agent", "course_sandbox", "course_shared")


def lint_imports(where: Path) -> subprocess.CompletedProcess:
    script = ("import sys; from importlinter.cli import lint_imports; "
              "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")
    return subprocess.run([sys.executable, "-c", script], cwd=where, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin", "HOME": str(where)})


def test_the_packages_are_layered_in_one_direction():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout, done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path):
    """The sandbox importing the course again (what the shared package ended) is caught."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "project"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    positions = tmp_path / "course_sandbox" / "demo_gitlab" / "positions.py"
    positions.write_text(positions.read_text().replace("from course_shared.hunks import", "from course_agent.hunks import"))
    done = lint_imports(tmp_path)
    assert done.returncode != 0 and "BROKEN" in done.stdout, done.stdout + done.stderr
    assert "course_sandbox.demo_gitlab.positions -> course_agent.hunks" in done.stdout, done.stdout
