"""`course-agent review`: progress, the review, posting, approvals, exit codes."""

import json
import os
import subprocess
import sys

import pytest

from course_agent import client as client_module
from course_agent.cli import main


def run_cli(tmp_path, *args, env=None):
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_"))}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "course_agent.cli", "review", *args,
                           "--transcript", str(tmp_path / "run.jsonl")],
                          capture_output=True, text=True, env=environment, timeout=120, cwd=tmp_path)


def test_review_482_prints_progress_and_the_review(tmp_path):
    done = run_cli(tmp_path, "482")
    assert done.returncode == 0
    assert done.stdout.startswith("Review of !482") and "shop/checkout.py:20" in done.stdout
    assert "[1] tool_use:" in done.stderr and "-> get_diff(pr=482)" in done.stderr
    assert "cache read" in done.stderr and "[3] end_turn" in done.stderr
    assert "using the offline sandbox" in done.stderr
    lines = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]
    assert [line["message"]["role"] for line in lines] == ["user", "assistant", "user", "assistant", "user",
                                                           "assistant"]


@pytest.mark.parametrize("args, code, reason", [
    (["999"], 3, "merge request !999: not found"),
    (["482", "--max-iterations", "1"], 5, "no answer after 1 iteration (the cap)"),
])
def test_exit_codes_with_one_line_reasons(tmp_path, args, code, reason):
    done = run_cli(tmp_path, *args)
    assert done.returncode == code
    assert reason in done.stderr.splitlines()[-1]


def test_bad_gitlab_token_is_an_auth_failure(tmp_path):
    from course_agent.sandbox import Sandbox
    with Sandbox() as gitlab_only:
        done = run_cli(tmp_path, "482", env={"GITLAB_URL": gitlab_only.gitlab_url, "GITLAB_TOKEN": "glpat-zzzzzzzzzz",
                                             "GITLAB_PROJECT": "course/shop"})
    assert done.returncode == 4
    assert "401 Unauthorized" in done.stderr.splitlines()[-1]
    assert "glpat-zzzzzzzzzz" not in done.stdout + done.stderr


def test_half_configured_gitlab_is_a_setup_error(tmp_path):
    done = run_cli(tmp_path, "482", env={"GITLAB_URL": "https://gitlab.example.com"})
    assert done.returncode == 2
    assert "set both GITLAB_URL and GITLAB_TOKEN" in done.stderr


def test_refusal_exit_code(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("course_agent.review.review_task", lambda pr, post=False, language="en": "Write ransomware")
    monkeypatch.chdir(tmp_path)
    assert main(["review", "482"]) == 6
    assert "refused" in capsys.readouterr().err


def test_api_auth_failure_exit_code(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(client_module, "make_client",
                        lambda: client_module.shared_sandbox().client(api_key="sk-ant-bad-key-00000", max_retries=0))
    monkeypatch.setattr("course_agent.review.make_client", client_module.make_client)
    assert main(["review", "482"]) == 4
    assert "rejected the key" in capsys.readouterr().err


def test_post_and_approvals(tmp_path):
    done = run_cli(tmp_path, "482", "--post")
    assert done.returncode == 0 and done.stdout.startswith("Posted the review on !482.")
    approved = run_cli(tmp_path, "485", "--approval", "approve")
    assert "I merged !485" in approved.stdout
    denied = run_cli(tmp_path, "485", "--approval", "deny")
    assert "it was refused" in denied.stdout
    audit = [json.loads(line) for line in (tmp_path / "run.audit.jsonl").read_text().splitlines()]
    assert {(a["tool"], a["decision"]) for a in audit} >= {("merge_pr", "approved"), ("merge_pr", "refused")}


def test_ask_without_a_terminal_means_no(tmp_path):
    done = subprocess.run([sys.executable, "-m", "course_agent.cli", "review", "485", "--timeout", "1",
                           "--transcript", str(tmp_path / "run.jsonl")], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, cwd=tmp_path,
                          env={k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_"))})
    assert done.returncode == 0
    assert "it was refused" in done.stdout
