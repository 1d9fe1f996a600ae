"""With ANTHROPIC_API_KEY set, the notebooks take the live code path: they run against an external stand-in
of the API (a sandbox in this process, reached only through ANTHROPIC_BASE_URL) with no error outside the
"break it" cells, and no cell prints sandbox-only results as if they had happened."""

import importlib.util
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from course_sandbox import Sandbox

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*/[0-9][0-9]_*.ipynb"))
_spec = importlib.util.spec_from_file_location("course_notebooks_build", NOTEBOOKS[0].parent.parent / "build.py")
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)
SANDBOX_ONLY = ("after two 529s", "после двух ответов 529", " input tokens; ",
                " ток. на входе; ")


@pytest.fixture(scope="module")
def stand_in():
    with Sandbox() as sandbox:
        yield sandbox


def _each(language: str):
    paths = [p for p in NOTEBOOKS if p.parent.name == language]
    return pytest.mark.parametrize("path", paths, ids=[f"{p.parent.name}/{p.name}" for p in paths])


MODELS = (None, "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-4-5")
"""The default model, the two 5.5 models (thinking always on or `between_tools`, no forced tool use) and an
older model with no default thinking: every notebook must run on each (issue #24)."""


def _class(language: str, model: str | None) -> type:
    """One class per language and model: with `--dist loadscope` each is a unit of its own, so the two
    workers share the notebooks' kernels (a minute or so per class)."""

    @_each(language)
    def test_notebooks_on_the_live_code_path(self, path, stand_in, monkeypatch):
        live_code_path(path, stand_in, monkeypatch, model)

    name = f"Test_{language}_{(model or 'default').replace('-', '_')}"
    return type(name, (), {"test_notebooks_on_the_live_code_path": test_notebooks_on_the_live_code_path})


for _language in ("en", "ru"):
    for _model in MODELS:
        _made = _class(_language, _model)
        globals()[_made.__name__] = _made


def test_both_languages_are_run():
    assert {p.parent.name for p in NOTEBOOKS} == {"en", "ru"} and len(NOTEBOOKS) >= 16


def live_code_path(path, stand_in, monkeypatch, model=None):
    for name in list(os.environ):
        if name.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_")):
            monkeypatch.delenv(name)
    if model:
        monkeypatch.setenv("COURSE_AGENT_MODEL", model)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", stand_in.anthropic_base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", stand_in.api_key)
    monkeypatch.setenv("COURSE_AGENT_AUTO_APPROVE", "deny")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    # shutdown_kernel="immediate": the outputs are all in by then, and a graceful shutdown only waits
    # (~1.5 s a notebook) for a kernel whose work is done; nbval stops its kernels the same way.
    # a kernel that dies before answering kernel_info (no cell has run) starts again, as under nbval
    _build.started_again_if_it_dies(
        lambda: NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True, shutdown_kernel="immediate",
                               resources={"metadata": {"path": str(path.parent)}}).execute())()
    problems = []
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if errors and "raises-exception" not in cell.metadata.get("tags", []):
            problems.append(f"cell {number}: {errors[0].ename}: {errors[0].evalue[:300]}")
        shown = "".join(o.get("text", "") for o in cell.outputs)
        problems += [f"cell {number} printed a sandbox-only result: {s!r}" for s in SANDBOX_ONLY if s in shown]
    assert not problems, "\n".join(problems)


def test_a_kernel_start_is_tried_again_only_when_the_kernel_died_before_answering():
    """The retry nbval and this test share (notebooks/build.py): three starts in all, only for a kernel that died
    before kernel_info; any other error, or the third death, goes up at once."""
    tries = []

    def dies(times, message=_build.KERNEL_DIED_AT_START):
        def start():
            tries.append(message)
            if len(tries) <= times:
                raise RuntimeError(message)
            return "up"
        return start

    assert _build.started_again_if_it_dies(dies(2))() == "up" and len(tries) == 3
    tries.clear()
    with pytest.raises(RuntimeError, match="kernel_info"):
        _build.started_again_if_it_dies(dies(3))()
    assert len(tries) == 3
    tries.clear()
    with pytest.raises(RuntimeError, match="no such kernel"):
        _build.started_again_if_it_dies(dies(1, "no such kernel"))()
    assert len(tries) == 1
