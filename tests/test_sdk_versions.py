"""The self-check works on every anthropic SDK pyproject.toml allows: the newest is the one installed
here (every other test runs on it), the oldest is installed from PyPI into a venv of its own (beside
this environment's other packages) and the check's tests run there. Without PyPI that test is skipped
with the reason, except in CI, where it fails."""

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import anthropic
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from course_sandbox.demo_gitlab.template_cache import cache_root

ROOT = Path(__file__).resolve().parent.parent


def allowed() -> Requirement:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return next(Requirement(d) for d in dependencies if Requirement(d).name == "anthropic")


def _bounds() -> tuple[Version, Version]:
    """(the oldest release allowed, the first release not allowed)."""
    specifiers = list(allowed().specifier)
    lowest = next((Version(s.version) for s in specifiers if s.operator == ">="), None)
    above = next((Version(s.version) for s in specifiers if s.operator == "<"), None)
    assert lowest is not None and above is not None, f"anthropic needs a tested lower and upper bound: {allowed()}"
    return lowest, above


def test_the_sdk_installed_here_is_the_newest_minor_release_allowed():
    lowest, above = _bounds()
    installed = Version(anthropic.__version__)
    assert installed in allowed().specifier and (installed.major, installed.minor + 1) == (above.major, above.minor), \
        f"anthropic {installed} is installed; tests must run on the newest release below {above}"


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the oldest anthropic SDK allowed could not be installed: {why}")
    pytest.skip(f"the oldest anthropic SDK allowed could not be installed (PyPI unreachable?): {why}")


@pytest.fixture(scope="module")
def oldest_sdk_python() -> Path:
    """A venv with the oldest anthropic allowed (and its aiohttp extra) over this environment's packages,
    kept in the course's cache (built aside, then renamed into place)."""
    lowest, _ = _bounds()
    wanted = f"anthropic[aiohttp]=={lowest.major}.{lowest.minor}.*"
    root = cache_root() or Path(tempfile.gettempdir()) / "course-agent"
    home = root / "sdk-venvs" / f"anthropic-{lowest.major}.{lowest.minor}-py{sys.version_info.major}.{sys.version_info.minor}"
    python = home / "bin" / "python"
    if python.exists():
        return python
    home.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=home.name + ".", dir=home.parent))
    try:
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(building)], check=True,
                       capture_output=True, timeout=120)
        subprocess.run([str(building / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", wanted], check=True, capture_output=True, text=True, timeout=300)
        building.rename(home)  # the venv's scripts name their folder: renamed, only its python is used
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        shutil.rmtree(building, ignore_errors=True)
        if python.exists():  # another worker built it meanwhile
            return python
        _unavailable(f"{error} {getattr(error, 'stderr', '') or ''}"[-600:])
    return python


def test_the_checks_tests_pass_on_the_oldest_sdk_allowed(oldest_sdk_python):
    lowest, _ = _bounds()
    version = subprocess.run([str(oldest_sdk_python), "-c", "import anthropic; print(anthropic.__version__)"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    assert Version(version).release[:2] == lowest.release[:2], version
    chosen = ["tests/test_intercept.py", "tests/test_checks.py::test_a_loop_on_the_sdks_aiohttp_transport_passes_every_rule",
              "tests/test_checks.py::test_no_request_leaves_for_the_live_api",
              "tests/test_checks.py::test_a_loop_whose_requests_all_get_401_is_told_why_nothing_was_judged",
              *(f"tests/test_checks.py::test_correct_loops_in_many_styles_pass_every_rule[{style}]" for style in
                ("reference", "stream", "with_raw_response", "beta", "async", "asyncio.run each turn", "own http_client"))]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([str(oldest_sdk_python), "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider",
                           "-W", "error::pytest.PytestUnknownMarkWarning", *chosen], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and " skipped" not in done.stdout.splitlines()[-1], done.stdout[-3000:] + done.stderr[-2000:]
