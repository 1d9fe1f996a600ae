"""`course-agent review`: progress, the review, posting, approvals, exit codes."""

import json
import os
import re
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
    from course_sandbox import Sandbox
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


@pytest.mark.parametrize(("status", "code", "words"), [
    (529, 7, "the API call failed"),  # overloaded: it may pass, so the CI job retries exit 7
    (500, 7, "the API call failed"),
    (429, 7, "the API call failed"),
    (400, 8, "sent again it fails again"),  # the same request fails again: exit 8, not retried
    (404, 8, "sent again it fails again"),
])
def test_an_api_error_that_may_pass_is_7_and_a_rejected_request_is_8(monkeypatch, capsys, tmp_path, status, code,
                                                                      words):
    monkeypatch.chdir(tmp_path)
    sandbox = client_module.shared_sandbox()
    monkeypatch.setattr(client_module, "make_client", lambda: sandbox.client(max_retries=0))
    monkeypatch.setattr("course_agent.review.make_client", client_module.make_client)
    sandbox.faults.status(status, times=1, path="/v1/messages")
    try:
        assert main(["review", "482"]) == code
    finally:
        sandbox.faults.clear()
    assert words in capsys.readouterr().err


def test_post_and_approvals(tmp_path):
    done = run_cli(tmp_path, "482", "--post")
    assert done.returncode == 0 and done.stdout.startswith("Posted the review on !482.")
    approved = run_cli(tmp_path, "485", "--approval", "approve")
    assert "I merged !485" in approved.stdout
    denied = run_cli(tmp_path, "485", "--approval", "deny")
    assert "it did not go through" in denied.stdout
    audit = [json.loads(line) for line in (tmp_path / "run.audit.jsonl").read_text().splitlines()]
    assert {(a["tool"], a["decision"]) for a in audit} >= {("merge_pr", "approved"), ("merge_pr", "denied")}


def test_ask_without_a_terminal_means_no(tmp_path):
    done = subprocess.run([sys.executable, "-m", "course_agent.cli", "review", "485", "--timeout", "1",
                           "--transcript", str(tmp_path / "run.jsonl")], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, cwd=tmp_path,
                          env={k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_"))})
    assert done.returncode == 0
    assert "it did not go through" in done.stdout


@pytest.fixture
def fresh_shared(own_shared_sandbox):
    """In-process runs get a sandbox of their own (a merge must not leak into other tests)."""
    return own_shared_sandbox


@pytest.mark.parametrize("misbehaviour", ["max_tokens", "context window"])
def test_stopped_otherwise_is_exit_8(fresh_shared, capsys, misbehaviour):
    if misbehaviour == "max_tokens":
        fresh_shared.force("max_tokens")
        reason = "the answer was cut at max_tokens"
    else:
        fresh_shared.context_window = 1700
        reason = "no longer fits the model's context window"
    assert main(["review", "482"]) == 8
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("course-agent review: ") and reason in last


def test_a_merge_the_transcript_could_not_record_stops_the_run(fresh_shared, capsys, tmp_path, monkeypatch):
    from course_agent.gitlab import GitLabTools

    transcript = tmp_path / "run.jsonl"
    merge = GitLabTools.merge_pr

    def merge_then_lose_the_transcript(self, pr):
        done = merge(self, pr)
        transcript.unlink()
        transcript.mkdir()
        return done

    monkeypatch.setattr(GitLabTools, "merge_pr", merge_then_lose_the_transcript)
    assert main(["review", "485", "--approval", "approve", "--transcript", str(transcript)]) == 8
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "could not save to the transcript" in last and "Not saved: Merged !485 into main" in last
    assert fresh_shared.gitlab.merge_requests[485].state == "merged"


def test_the_cli_speaks_russian(fresh_shared, capsys, monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert main(["review", "999"]) == 3
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == "course-agent review: merge request !999 не найден (GitLab ответил 404)"
    assert "вход " in err and "ток." in err and "транскрипт: " in err
    assert main(["review", "482", "--timeout", "-1"]) == 2
    assert capsys.readouterr().err == ("course-agent review: ошибка: аргумент --timeout: нужно число секунд больше 0 "
                                       "и не больше 86400, а получено '-1'\n")


def test_help_in_russian():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_"))}
    done = subprocess.run([sys.executable, "-m", "course_agent.cli", "review", "--help"], capture_output=True,
                          text=True, env={**env, "COURSE_AGENT_LANGUAGE": "ru"}, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("использование: course-agent review")
    assert "позиционные аргументы" in done.stdout and "коды выхода:" in done.stdout and "130 — прервано" in done.stdout
    assert "options" not in done.stdout and "usage" not in done.stdout


@pytest.mark.parametrize("env, words", [
    ({"COURSE_AGENT_LANGUAGE": "de"}, "COURSE_AGENT_LANGUAGE must be one of en, ru"),
    ({"COURSE_AGENT_BACKEND": "cloud"}, "COURSE_AGENT_BACKEND must be 'sandbox' or 'live'"),
    ({"COURSE_AGENT_AUTO_APPROVE": "true"}, "COURSE_AGENT_AUTO_APPROVE must be 'approve' or 'deny'"),
])
def test_setup_problems_are_exit_2_in_one_line(fresh_shared, capsys, monkeypatch, env, words):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["review", "482"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


def test_help_names_the_new_flags_in_both_languages():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GITLAB_"))}
    for lang, words in [("en", ["--all-open", "--batch", "--resume DIR", "CI_MERGE_REQUEST_IID", "inline comments"]),
                        ("ru", ["--all-open", "за полцены", "комментарии к строкам", "CI_MERGE_REQUEST_IID"])]:
        done = subprocess.run([sys.executable, "-m", "course_agent.cli", "review", "--help"], capture_output=True,
                              text=True, env={**env, "COURSE_AGENT_LANGUAGE": lang, "COLUMNS": "300"}, timeout=60)
        assert done.returncode == 0 and all(w in done.stdout for w in words), done.stdout


def test_all_open_speaks_russian(fresh_shared, capsys, monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert main(["review", "--all-open", "--batch", "--transcript", "runs"]) == 0
    captured = capsys.readouterr()
    assert "[раунд 1] !482: tool_use -> get_diff(pr=482)" in captured.err
    assert "(Message Batches: за полцены)" in captured.err.splitlines()[-1]
    assert re.search(r"к оплате за 6 ревью: входных токенов — \d+,\d", captured.err)
    assert "=== !482 ===\nРевью !482" in captured.out


def _tool_error(text: str) -> list[dict]:
    return [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                          "content": text}]}]


def test_a_tool_error_that_only_mentions_401_or_another_mr_is_no_failure():
    """A review that got an inline comment refused on line 401, or asked for !482 while reviewing !48,
    still produced its review: only GitLab's own 404/401 answers for this run end it."""
    from course_agent.exit_codes import EXIT_AUTH, EXIT_NO_SUCH_MR
    from course_agent.exit_codes import failure as _failure

    line_401 = ("inline comment on shop/cart.py:401 of !482: line 401 of shop/cart.py is not part of this merge "
                "request's diff (GitLab answered 400: line_code can't be blank).")
    assert _failure(_tool_error(line_401), None, pr=482, max_iterations=20, lang="en") is None
    other_mr = "merge request !482: not found (404: 404 Not found)."
    assert _failure(_tool_error(other_mr), None, pr=48, max_iterations=20, lang="en") is None
    assert _failure(_tool_error(other_mr), None, pr=482, max_iterations=20, lang="en")[0] == EXIT_NO_SUCH_MR
    rejected = "merge request !482: GitLab rejected the token (401 Unauthorized): check GITLAB_TOKEN."
    assert _failure(_tool_error(rejected), None, pr=482, max_iterations=20, lang="en")[0] == EXIT_AUTH
