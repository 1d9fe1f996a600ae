"""The reviewer alone (`pip install course-agent`, no extras; what the GitLab CI job installs) runs with only
anthropic, python-gitlab and jsonschema, and says which extra the sandbox needs (#42, #43)."""

import subprocess
import sys
import tomllib
from pathlib import Path

import gitlab
import pytest
from packaging.requirements import Requirement

from course_sandbox import Sandbox

import lean_install
import unset_settings

ROOT = Path(__file__).resolve().parent.parent
COURSE_ONLY = ("jupyterlab", "ipywidgets", "ipykernel", "IPython", "matplotlib", "waitress", "werkzeug", "markdown_it")
TOKEN = "lean-ci-token-5d1e8b"


def test_the_lean_requirements_are_the_reviewers_and_the_course_is_an_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lean = {Requirement(r).name for r in project["dependencies"]}
    assert lean == {"anthropic", "python-gitlab", "jsonschema", "jiter"}
    course = {Requirement(r).name for r in project["optional-dependencies"]["course"]}
    assert {"jupyterlab", "ipywidgets", "matplotlib", "waitress", "werkzeug"} <= course


def test_the_simulated_lean_install_lacks_the_course_and_keeps_the_reviewers_libraries():
    modules = lean_install.lean_modules()
    assert not [m for m in COURSE_ONLY if m in modules]  # else the runs below would prove nothing
    assert {"anthropic", "gitlab", "jsonschema", "jiter"} <= modules
    blocked = subprocess.run([sys.executable, "-c", lean_install.prelude() + "\nimport matplotlib"],
                             capture_output=True, text=True, timeout=60)
    assert "No module named 'matplotlib'" in blocked.stderr


def lean(args, env, cwd):
    """`course-agent ARGS` where only the lean install's modules import."""
    code = lean_install.prelude() + (f"\nimport runpy\nsys.argv = {['course-agent', *args]!r}\n"
                                     "runpy.run_module('course_agent.cli', run_name='__main__')\n")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=180)


def clean_env(**extra):
    return {**unset_settings.environment(), "COURSE_AGENT_LANGUAGE": "en", **extra}


def test_review_help_answers_in_the_lean_install(tmp_path):
    done = lean(["review", "--help"], clean_env(), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "--post" in done.stdout


def test_the_ci_job_reviews_and_posts_with_the_lean_install(tmp_path):
    sandbox = Sandbox()
    sandbox.gitlab_token = TOKEN
    with sandbox:
        env = clean_env(GITLAB_CI="true", CI="true", CI_PIPELINE_SOURCE="merge_request_event",
                        CI_SERVER_URL=sandbox.gitlab_url, CI_PROJECT_ID="7", CI_MERGE_REQUEST_IID="483",
                        COURSE_AGENT_GITLAB_TOKEN=TOKEN, ANTHROPIC_BASE_URL=sandbox.anthropic_base_url,
                        ANTHROPIC_API_KEY=sandbox.api_key)
        done = lean(["review", "--post"], env, tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.startswith("Posted the review on !483.")
        notes = gitlab.Gitlab(sandbox.gitlab_url, private_token=TOKEN).projects.get(7).mergerequests.get(483).notes
        posted = [n for n in notes.list(get_all=True) if "Review of !483" in n.body]
    assert len(posted) == 1
    assert TOKEN not in done.stdout + done.stderr


@pytest.mark.parametrize("args", [["sandbox"], ["review", "482"]], ids=["sandbox", "review-offline"])
@pytest.mark.parametrize("language, words", [("en", "the offline sandbox needs the course's extras"),
                                             ("ru", "дополнительные зависимости курса")])
def test_without_the_course_extra_the_sandbox_says_what_to_install(tmp_path, args, language, words):
    done = lean(args, clean_env(COURSE_AGENT_LANGUAGE=language), tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert words in done.stderr and 'pip install -e ".[course]"' in done.stderr
    assert "Traceback" not in done.stderr
