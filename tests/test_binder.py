"""Binder: what repo2docker builds from binder/ (its folder wins over the repository's own environment.yml).

binder/environment.yml is installed before the repository's files are copied into the image, so it holds the
dependencies only (the same as pyproject.toml's base and `course` extra, on a Python that `requires-python`
allows) and binder/postBuild, run in the repository once it is there, installs the course's packages. The order
is read from the Dockerfile repo2docker itself generates (`--no-build`: no Docker needed)."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from test_packaging import _requirements

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _environment() -> dict:
    return yaml.safe_load((BINDER / "environment.yml").read_text())


def test_binders_environment_has_the_courses_dependencies():
    project = _project()
    wanted = _requirements(project["dependencies"] + project["optional-dependencies"]["course"])
    dependencies = _environment()["dependencies"]
    assert all(isinstance(d, str) for d in dependencies), "no pip section: the repository is not there yet"
    conda = _requirements(dependencies)
    conda.pop("python")
    conda.pop("pip")
    assert conda == wanted
    assert "conda-forge" in _environment()["channels"]


def test_binders_python_is_one_the_package_allows():
    python = next(d for d in _environment()["dependencies"] if d.startswith("python"))
    version = re.fullmatch(r"python=(\d+)\.(\d+)", python)
    assert version, f"a pinned minor version, so the image is the same next month: {python}"
    low = re.fullmatch(r">=(\d+)\.(\d+)", _project()["requires-python"])
    assert tuple(map(int, version.groups())) >= tuple(map(int, low.groups()))


def test_postbuild_installs_the_package_and_nothing_else():
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    commands = [line for line in post_build.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert commands == ["set -euo pipefail", "python -m pip install --no-cache-dir --no-deps -e ."]


def test_repo2docker_installs_the_environment_before_the_copy_and_the_package_after():
    pytest.importorskip("repo2docker", reason="jupyter-repo2docker is not installed (pip install -e '.[test]')")
    built = subprocess.run([sys.executable, "-m", "repo2docker", "--no-build", "--debug", str(ROOT)],
                           capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, built.stderr[-2000:]
    dockerfile = built.stdout + built.stderr
    steps = [line for line in dockerfile.splitlines() if line.startswith(("COPY", "RUN", "bash -c"))]
    early_copies = []
    for index, step in enumerate(steps):
        if "src/ ${REPO_DIR}/" in step:
            copy_all = index
            break
        if "src/" in step:
            early_copies.append(step)
    else:
        pytest.fail("repo2docker's Dockerfile does not copy the repository")
    assert early_copies == ["COPY --chown=0:0 src/binder/environment.yml ${REPO_DIR}/binder/environment.yml"]
    install = next(i for i, step in enumerate(steps) if 'env update -p ${NB_PYTHON_PREFIX} --file "binder/environment.yml"'
                   in step)
    post_build = steps.index("RUN ./binder/postBuild")
    assert install < copy_all < post_build
    python = re.fullmatch(r"python=(\d+\.\d+)", next(d for d in _environment()["dependencies"] if d.startswith("python")))
    assert f"environment.py-{python.group(1)}-linux-64.lock" in dockerfile.replace("-2d", "-").replace("-2e", ".")


@pytest.mark.parametrize("readme, language", [("README.md", "en"), ("README.ru.md", "ru")])
def test_both_readmes_have_the_binder_badge_opening_notebook_1_of_their_language(readme, language):
    text = (ROOT / readme).read_text()
    assert "[![Binder](https://mybinder.org/badge_logo.svg)][binder]" in text
    link = re.search(r"^\[binder\]: (\S+)$", text, re.M).group(1)
    match = re.fullmatch(r"https://mybinder\.org/v2/gh/[^/]+/[^/]+/HEAD\?urlpath=lab/tree/(\S+)", link)
    assert match and match.group(1) == f"notebooks/{language}/01_single_call.ipynb"
    assert (ROOT / match.group(1)).exists()


@pytest.mark.parametrize("readme, guide", [("README.md", "docs/classroom.md"), ("README.ru.md", "docs/classroom.ru.md")])
def test_both_readmes_link_the_classroom_guide_in_their_language(readme, guide):
    assert f"]({guide})" in (ROOT / readme).read_text()
    assert (ROOT / guide).exists()
