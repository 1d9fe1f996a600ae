"""The project's own files stay consistent: dependencies, the README's commands, CI."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def _requirements(lines: list[str]) -> dict[str, str]:
    out = {}
    for line in lines:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", line.strip())
        if match:
            out[match.group(1).lower().replace("_", "-")] = match.group(2).replace(" ", "")
    return out


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    own = [r for r in extras["test"] if r.startswith("course-agent[")]
    assert own == ["course-agent[course]", "course-agent[hub]"], "the tests run on top of the course's and hub's extras"
    assert [r for r in extras["hub"] if r.startswith("course-agent[")] == ["course-agent[course]"]
    hub = [r for r in extras["hub"] if not r.startswith("course-agent[")]
    declared = _requirements(project["dependencies"] + extras["course"] + hub
                             + [r for r in extras["test"] if r not in own])
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = _requirements([d for d in environment["dependencies"] if isinstance(d, str)])
    conda.pop("python")
    conda.pop("pip")
    conda.pop("configurable-http-proxy")  # the hub's proxy: from npm for pip users (classroom/install-proxy)
    assert "conda-forge" in environment["channels"]
    assert conda == declared
    assert all(bound.startswith(">=") for bound in declared.values()), "every dependency has a lower bound"


def _command_after(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"<!-- {marker} -->\s*```bash\n(.+?)\n```", text, re.S)
    assert match, f"README.md has no command after <!-- {marker} -->"
    return match.group(1).strip()


def test_ci_runs_exactly_the_readme_test_command():
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    assert _command_after("test-command") in ci_lines


def test_russian_readme_gives_the_same_test_command():
    russian = (ROOT / "README.ru.md").read_text()
    match = re.search(r"<!-- test-command -->\s*```bash\n(.+?)\n```", russian, re.S)
    assert match and match.group(1).strip() == _command_after("test-command")


def test_readme_start_command_opens_the_notebooks():
    command = _command_after("start-command")
    assert "pip install" in command and "jupyter lab notebooks" in command
    assert (ROOT / "notebooks").is_dir()


def test_console_script_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["course-agent"] == "course_agent.cli:main"


def _python(script: str, **env: str) -> subprocess.CompletedProcess:
    """`python -c script` in a fresh interpreter at the repository's root (with `env` added), which must succeed."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_lazy_import_compiles_no_grammar_and_still_checks_iri():
    """Issue #17, kept for the test configuration only since #42: `import_jsonschema_lazily` (what pytest's
    `-p course_shared.jsonschema_first` runs) must not compile rfc3987_syntax's Lark grammars (~1 s), and
    jsonschema's "iri" formats must still be checked exactly as without it."""
    script = (
        "import sys\n"
        "from course_shared.lazy_jsonschema import import_jsonschema_lazily\n"
        "import_jsonschema_lazily()\n"
        "import jsonschema\n"
        "print('lark' in sys.modules)\n"
        "checker = jsonschema.Draft202012Validator.FORMAT_CHECKER\n"
        "print(checker.conforms('https://example.com/\u00e4', 'iri'), checker.conforms('not an iri', 'iri'),\n"
        "      checker.conforms('rel/path', 'iri-reference'), checker.conforms('a b', 'iri-reference'))\n"
    )
    done = _python(script)
    assert done.stdout.split() == ["False", "True", "False", "True", "False"]


def test_the_command_skips_the_final_collections_and_a_library_call_does_not():
    """`course-agent` (main() with no argv: the process ends next) freezes the garbage collector's objects,
    so CPython's final collections at exit do not walk the SDK's ~500,000 objects again (0.5–0.9 s of each
    run; benchmarks/bench_cli.py). main(argv), as tests and other programs call it, leaves the collector alone."""
    script = (
        "import gc, sys\n"
        "from course_agent import cli\n"
        "print('exit', cli.main(['--help']), gc.get_freeze_count())\n"
        "sys.argv = ['course-agent', 'no-such-command']\n"
        "print('exit', cli.main(), gc.get_freeze_count() > 0)\n"
    )
    done = _python(script)
    assert [line for line in done.stdout.splitlines() if line.startswith("exit")] == ["exit 0 0", "exit 2 True"]


def test_pytest_imports_jsonschema_with_the_lazy_grammar():
    """pyproject's `-p course_shared.jsonschema_first` runs before nbval (whose nbformat imports jsonschema),
    so no pytest process (the main one, each worker) spends ~1.3 s compiling rfc3987_syntax's grammars."""
    import jsonschema._format

    checker = getattr(jsonschema._format, "_rfc3987_is_valid_syntax", None)
    if checker is None:  # jsonschema checks IRIs with the package rfc3987 here, or not at all: no grammar
        pytest.skip("this jsonschema does not use rfc3987_syntax")
    assert checker.__module__ == "course_shared.lazy_jsonschema", \
        f"jsonschema was imported before course_shared.jsonschema_first: {checker.__module__}"


def test_pytest_does_not_rewrite_the_course_code():
    """The tests run the course's modules as learners do: pytest rewrites the asserts only of the module
    that `-p` names first (course_shared.jsonschema_first), not of the packages' others."""
    import importlib

    for name in ("course_agent", "course_agent.cli", "course_sandbox.messages_api"):
        loader = importlib.import_module(name).__spec__.loader
        assert type(loader).__name__ != "AssertionRewritingHook", f"pytest rewrote {name}"


def test_course_agent_help_answers_without_importing_the_sdk():
    """`course-agent --help` (and a usage error) answers in a fraction of a second: the anthropic SDK
    (~1.2 s to import) is loaded only by the commands that talk to a model."""
    script = (
        "import sys\n"
        "from course_agent import cli\n"
        "for argv in (['--help'], ['review', '--help'], ['no-such-command']):\n"
        "    print('exit', cli.main(argv))\n"
        "print('anthropic' in sys.modules)\n"
    )
    done = _python(script, COURSE_AGENT_LANGUAGE="en")
    lines = done.stdout.splitlines()
    assert [line for line in lines if re.fullmatch(r"exit \d+", line)] == ["exit 0", "exit 0", "exit 2"]
    assert lines[-1] == "False", "the SDK was imported"
    assert "invalid choice: 'no-such-command'" in done.stderr


def test_the_public_api_resolves_lazily():
    """`from course_agent import make_client, run_agent, ...` works for every name in __all__, and
    `import course_agent` alone loads none of them (nor the anthropic SDK): each comes on first use."""
    script = (
        "import sys\n"
        "import course_agent\n"
        "print('anthropic' in sys.modules, 'course_agent.loop' in sys.modules)\n"
        "missing = [name for name in course_agent.__all__ if getattr(course_agent, name, None) is None]\n"
        "print('missing', missing)\n"
        "print(set(course_agent.__all__) <= set(dir(course_agent)))\n"
        "from course_agent import make_client, model_id, run_agent, Tool, Toolbox, gitlab_settings\n"
        "from course_agent.client import make_client as home\n"
        "print(make_client is home, model_id is course_agent.config.model_id)\n"
    )
    done = _python(script)
    assert done.stdout.splitlines() == ["False False", "missing []", "True", "True True"]
    import course_agent

    expected = {"make_client", "using_sandbox", "shared_sandbox", "gitlab_settings", "model_id", "newer_model",
                "fallback_model", "preserved_thinking_model", "run_agent", "Tool", "Toolbox",
                "GitLabTools", "Settings"}
    assert expected <= set(course_agent.__all__)
    assert "check_loop" not in course_agent.__all__  # the self-check is above the course: course_selfcheck
    with pytest.raises(AttributeError, match="no_such_name"):
        course_agent.no_such_name  # noqa: B018


def test_the_build_prints_no_deprecation_warning(tmp_path):
    """pyproject's license is an SPDX expression (a TOML table is deprecated, and setuptools says such builds fail
    from 2027-02-18): building the wheel warns about nothing, and the wheel holds all four packages (#42)."""
    import zipfile

    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-w",
                           str(tmp_path), "-v"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Deprecat" not in done.stdout + done.stderr, [line for line in (done.stdout + done.stderr).splitlines()
                                                          if "eprecat" in line][:3]
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    assert all(any(n.startswith(f"{package}/") for n in names)
               for package in ("course_agent", "course_sandbox", "course_selfcheck", "course_shared"))
