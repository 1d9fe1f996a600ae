"""The four packages import in one direction: course_selfcheck → course_agent → course_sandbox → course_shared
(import-linter's layers contract in pyproject.toml). The contract holds, and it would catch an upward import.
Importing them has no side effect on other libraries: the lazy jsonschema import is the test configuration's."""

import os
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


def test_the_packages_leave_jsonschema_as_it_is():
    """#42: no module of the packages installs the stand-in `rfc3987_syntax` of course_shared.lazy_jsonschema
    (only pytest's `-p course_shared.jsonschema_first` does): after importing what a notebook, the CLI and the
    self-check import, jsonschema is the one any program gets, with rfc3987_syntax's own IRI check if installed."""
    script = (
        "import importlib.util, sys\n"
        "import course_agent, course_agent.tools, course_agent.loop, course_agent.cli\n"
        "import course_sandbox, course_sandbox.server, course_selfcheck\n"
        "import jsonschema\n"
        "print(sorted(name for name in sys.modules if name.startswith('course_shared.')))\n"
        "real = importlib.util.find_spec('rfc3987_syntax') is not None and importlib.util.find_spec('lark') is not None\n"
        "module = sys.modules.get('rfc3987_syntax')\n"
        "print(module is not None and module.__spec__ is not None and module.__spec__.origin is not None"
        " if real else 'not installed')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    modules, iri = done.stdout.splitlines()[-2:]
    assert "course_shared.lazy_jsonschema" not in modules, modules
    assert "course_shared.jsonschema_first" not in modules, modules
    assert iri in ("True", "not installed"), "jsonschema was imported with a stand-in rfc3987_syntax"
