"""Run the installed anthropic SDK's own API tests against the sandbox (a peer test suite).

    python tests/peer/run_sdk_tests.py                 # substitute real ids for the two placeholders
    python tests/peer/run_sdk_tests.py --as-published  # the tests exactly as the SDK ships them

It downloads the SDK's source distribution for the installed version from PyPI
(`pip download --no-binary :all: --no-deps anthropic==X`), extracts the tests of messages,
message batches and models with the conftest and helpers they import, installs their test
dependencies (pinned as in the SDK's requirements-dev.lock) into a virtual environment that
also sees this environment's packages, starts a Sandbox and runs pytest with
`TEST_API_BASE_URL` pointing at it. Not part of the default test command: it needs the network.

The SDK's tests are written for a mock server that answers any id, so as published they ask
for the model `model_id` and the batch `message_batch_id`, which a faithful server answers
with 404. Unless --as-published is given, the runner substitutes a real model id and, per
test, a fresh batch (an ended one for the delete tests, whose API deletes only ended batches).
The conftest's placeholder key is replaced by the sandbox's key, which is the only one it accepts.
"""

import argparse
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from course_sandbox import Sandbox  # noqa: E402

TEST_FILES = [
    "tests/api_resources/test_messages.py",
    "tests/api_resources/messages/test_batches.py",
    "tests/api_resources/test_models.py",
]
SUPPORT_FILES = [
    "tests/__init__.py", "tests/conftest.py", "tests/utils.py", "tests/_alias_httpx.py",
    "tests/api_resources/__init__.py", "tests/api_resources/messages/__init__.py",
]
TEST_DEPENDENCIES = ["pytest-asyncio", "respx", "inline-snapshot", "http-snapshot[httpx]", "dirty-equals", "anyio"]
"""Pinned from the SDK's requirements-dev.lock when it names them."""
AIOHTTP = "aiohttp>=3.10.0,<4"
"""The SDK's `aiohttp` extra, for the tests that run over DefaultAioHttpClient."""
PYTEST_INI = """[pytest]
addopts = --tb=short -p tests._alias_httpx -p no:cacheprovider
pythonpath = .
xfail_strict = true
asyncio_mode = auto
asyncio_default_fixture_loop_scope = session
filterwarnings =
  error
"""
HELPER = '''"""Real ids for the SDK tests' placeholders, made in the sandbox under test (written by run_sdk_tests.py)."""
import json, os, time, urllib.request

MODEL = "claude-opus-5"


def _call(method, path, body=None):
    request = urllib.request.Request(os.environ["TEST_API_BASE_URL"] + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"x-api-key": os.environ["SANDBOX_API_KEY"], "anthropic-version": "2023-06-01",
                                              "content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def batch(ended=False):
    """A new batch of one request; with ended=True, once it has ended."""
    made = _call("POST", "/v1/messages/batches", {"requests": [{"custom_id": "peer", "params": {
        "model": MODEL, "max_tokens": 50, "messages": [{"role": "user", "content": "Hello"}]}}]})
    while ended and _call("GET", "/v1/messages/batches/" + made["id"])["processing_status"] != "ended":
        time.sleep(0.05)
    return made["id"]
'''


def sh(*command: str, **options) -> subprocess.CompletedProcess:
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, check=True, **options)


def fetch_sources(version: str, workdir: Path) -> Path:
    """The SDK's sdist for `version`, extracted under workdir (downloaded once)."""
    archive = next(workdir.glob(f"anthropic-{version}.tar.gz"), None)
    if archive is None:
        sh(sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "--quiet",
           f"anthropic=={version}", "-d", str(workdir))
        archive = workdir / f"anthropic-{version}.tar.gz"
    source = workdir / f"anthropic-{version}"
    if not source.exists():
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.name.startswith(f"anthropic-{version}/")
                       and (m.name.endswith("requirements-dev.lock") or "/tests/" in m.name) and m.isfile()]
            tar.extractall(workdir, members=members, filter="data")
    return source


def environment(source: Path, workdir: Path) -> Path:
    """A virtual environment with the test dependencies, seeing this environment's packages."""
    venv = workdir / "venv"
    python = venv / "bin" / "python"
    if not python.exists():
        sh(sys.executable, "-m", "venv", "--system-site-packages", str(venv))
        lock = (source / "requirements-dev.lock").read_text() if (source / "requirements-dev.lock").exists() else ""
        pins = []
        for spec in TEST_DEPENDENCIES:
            found = re.search(rf"^{re.escape(spec.split('[')[0])}==([^\s;]+)", lock, re.M)
            pins.append(f"{spec}=={found[1]}" if found else spec)
        sh(str(python), "-m", "pip", "install", "--quiet", *pins, AIOHTTP)
    return python


def prepare(source: Path, workdir: Path, api_key: str, as_published: bool) -> Path:
    """The suite to run: the SDK's files, copied, with the substitutions described in the module docstring."""
    suite = workdir / ("suite-as-published" if as_published else "suite")
    shutil.rmtree(suite, ignore_errors=True)
    for name in SUPPORT_FILES + TEST_FILES:
        target = suite / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / name, target)
    (suite / "pytest.ini").write_text(PYTEST_INI)
    conftest = suite / "tests/conftest.py"
    conftest.write_text(conftest.read_text().replace('api_key = "my-anthropic-api-key"', f'api_key = "{api_key}"'))
    if not as_published:
        (suite / "tests/_sandbox_ids.py").write_text(HELPER)
        for name in TEST_FILES:
            path = suite / name
            path.write_text(substitute_ids(path.read_text()))
    return suite


def substitute_ids(text: str) -> str:
    """Placeholder ids replaced by real ones, test by test (the respx-mocked results tests keep theirs)."""
    lines, test = [], ""
    for line in text.splitlines(keepends=True):
        found = re.match(r"\s*(?:async\s+)?def (test_\w+)", line)
        if found:
            test = found[1]
        line = line.replace('model_id="model_id"', 'model_id=_sandbox_ids.MODEL')
        if "results" not in test:
            line = line.replace('message_batch_id="message_batch_id"',
                                f'message_batch_id=_sandbox_ids.batch(ended={"delete" in test})')
        lines.append(line)
    text = "".join(lines)
    future = "from __future__ import annotations\n"
    head, _, rest = text.partition(future) if future in text else ("", "", text)
    return head + (future if _ else "") + "\nfrom tests import _sandbox_ids\n" + rest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--as-published", action="store_true", help="run the SDK's tests without substituting ids")
    parser.add_argument("--workdir", type=Path, help="where to download and build (default: a cache dir in /tmp)")
    parser.add_argument("pytest_args", nargs="*", help="passed on to pytest (e.g. -k models -x)")
    args = parser.parse_args()

    version = importlib.metadata.version("anthropic")
    workdir = args.workdir or Path(tempfile.gettempdir()) / f"course-agent-sdk-tests-{version}"
    workdir.mkdir(parents=True, exist_ok=True)
    source = fetch_sources(version, workdir)
    python = environment(source, workdir)
    with Sandbox() as sandbox:
        sandbox.messages_api.batches.delay = 0.5  # long enough to cancel a batch just created
        suite = prepare(source, workdir, sandbox.api_key, args.as_published)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
        env.update(TEST_API_BASE_URL=sandbox.anthropic_base_url, SANDBOX_API_KEY=sandbox.api_key)
        print(f"anthropic {version}: running {len(TEST_FILES)} SDK test files against {sandbox.url}", flush=True)
        done = subprocess.run([str(python), "-m", "pytest", "-q", "-rfE", *TEST_FILES, *args.pytest_args],
                              cwd=suite, env=env)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
