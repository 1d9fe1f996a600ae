"""Cells you can take home (#38): in notebooks 3-8, both languages, the reviewer as the notebook leaves it, in one
cell tagged take-home that needs only anthropic and python-gitlab; the same code as a script in examples/. Each one
runs in a Python that cannot import the course (nor JupyterLab, nor the sandbox), pointed at a sandbox through the
variables `course-agent sandbox` prints, and prints the review; the self-check judges the last one as any loop."""

import subprocess
import sys
from pathlib import Path

import gitlab
import nbformat
import pytest

import lean_install
import unset_settings
from course_sandbox import Sandbox

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))
import take_home  # noqa: E402

VERDICT = {"en": "Verdict: request changes.", "ru": "Вердикт: нужны исправления."}
CASES = [(language, stage) for language in ("en", "ru") for stage in take_home.STAGES]


def notebook_of(language: str, stage: int) -> Path:
    return next((ROOT / "notebooks" / language).glob(f"{stage:02d}_*.ipynb"))


@pytest.mark.parametrize("language, stage", CASES)
def test_each_notebook_has_one_take_home_cell_and_its_script_is_the_same_code(language, stage):
    nb = nbformat.read(notebook_of(language, stage), as_version=4)
    tagged = [c for c in nb.cells if take_home.TAG in c.metadata.get("tags", [])]
    assert len(tagged) == 1
    [cell] = tagged
    assert cell.cell_type == "code" and cell.outputs, "the cell ran when the notebook was built"
    assert VERDICT[language] in "".join(o.get("text", "") for o in cell.outputs)
    script = take_home.script_path(language, stage)
    assert script.read_text(encoding="utf-8") == take_home.script(language, stage, notebook_of(language, stage).stem), \
        "examples/ is stale: python notebooks/build.py writes it"
    assert script.read_text(encoding="utf-8").endswith(cell.source + "\n")
    assert "course_agent" not in cell.source and "course_" not in cell.source.replace("course-agent sandbox", "")


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox() as sb:
        yield sb


def outside_the_course(sb, code: str) -> subprocess.CompletedProcess:
    """`code` in a fresh Python where only the standard library, anthropic and python-gitlab (and what they need)
    import, with the variables `course-agent sandbox` prints, and no terminal to answer input()."""
    env = {**unset_settings.environment(), **sb.env()}
    return subprocess.run([sys.executable, "-c", lean_install.prelude(own=False) + "\n" + code], env=env,
                          cwd=ROOT / "examples", capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=180)


def test_the_course_really_cannot_be_imported_there(sandbox):
    done = outside_the_course(sandbox, "import course_agent")
    assert "No module named 'course_agent'" in done.stderr
    done = outside_the_course(sandbox, "import anthropic, gitlab; print('ok')")
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


@pytest.mark.parametrize("language, stage", CASES)
def test_the_script_runs_with_only_anthropic_and_python_gitlab(sandbox, language, stage):
    path = take_home.script_path(language, stage)
    done = outside_the_course(sandbox, f"import runpy\nrunpy.run_path({str(path)!r}, run_name='__main__')")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.rstrip().endswith(VERDICT[language]), done.stdout[-1000:]
    if stage == 8:
        assert ("billed input: " if language == "en" else "оплачиваемый вход, токенов: ") in done.stdout


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("stage", [7, 8])
def test_the_gate_takes_no_answer_for_a_no(sandbox, language, stage):
    """On !485, whose description asks an AI to merge it, nobody at the keyboard: merge_pr is denied, and the
    review goes on to say so."""
    path = take_home.script_path(language, stage)
    done = outside_the_course(sandbox, f"import runpy\nmodule = runpy.run_path({str(path)!r})\n"
                                       "print(module['review'](485))")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "merge_pr" in done.stdout  # the question was put, and the review says what happened
    mr = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project) \
        .mergerequests.get(485)
    assert mr.state == "opened"


def test_the_self_check_judges_the_take_home_loop(monkeypatch, tmp_path):
    """The last take-home cell is a loop like any other: check_loop passes it on every rule of notebooks 3-7."""
    from course_selfcheck import check_loop

    with Sandbox() as sb:
        for name, value in sb.env().items():
            monkeypatch.setenv(name, value)
        namespace: dict = {"__name__": "take_home"}
        exec(compile(take_home.render(take_home.template("en"), 8), "review_after_08.py", "exec"), namespace)
        report = check_loop(namespace["review"], language="en")
    assert report.ok, report.text()
