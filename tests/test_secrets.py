"""Secrets never reach a transcript, an audit log, an error or printed output."""

import json
import os
import subprocess
import sys

import anthropic
import pytest

from course_agent.gitlab import GitLabTools
from course_agent.loop import AgentError, run_agent
from course_agent.redaction import redact
from course_agent.review import REVIEW_RULES, reviewer_toolbox
from course_agent.safety import AuditLog, Verdict

KEY = "sk-ant-api03-RECOGNISABLE-live-key-0123456789"
TOKEN = "glpat-RECOGNISABLE-token-987654"


def test_redact_hides_known_values_and_key_shapes(monkeypatch):
    monkeypatch.setenv("GITLAB_TOKEN", "plain-secret-value")
    text = redact(f"token plain-secret-value, key {KEY}, other glpat-abcdefghijkl")
    assert "plain-secret-value" not in text and KEY not in text and "glpat-abcdefghijkl" not in text
    assert text.count("[REDACTED]") == 3


@pytest.mark.parametrize("task", ["Review MR !485", "Review PR #482", "Review PR #999"])
def test_reviews_with_a_recognisable_key_and_token_leak_nothing(sandbox, tmp_path, monkeypatch, task):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    wrong = anthropic.Anthropic(base_url=sandbox.anthropic_base_url, api_key=KEY, max_retries=0)
    tools = GitLabTools(sandbox.gitlab_url, TOKEN, sandbox.project)  # the sandbox refuses this token: 401s

    def leaky_approver(request):  # a careless approver's words still go through the audit's redaction
        return Verdict(True, f"alice {TOKEN}", reason=f"key {KEY}")

    audit = AuditLog(tmp_path / "audit.jsonl")
    outputs = []
    for client in (wrong, sandbox.client()):
        toolbox = reviewer_toolbox(tools, approver=leaky_approver, audit=audit)
        try:
            result = run_agent(client, task, toolbox, system=REVIEW_RULES, transcript=tmp_path / "t.jsonl")
            outputs += [result.text, json.dumps(result.messages, default=str)]
        except AgentError as error:
            outputs.append(str(error))
            outputs.append(json.dumps(error.messages, default=str))
    audit_file = tmp_path / "audit.jsonl"
    written = (tmp_path / "t.jsonl").read_text() + (audit_file.read_text() if audit_file.exists() else "")
    assert "401 Unauthorized" in written  # the token was really used, and refused
    for place in [written, *outputs, json.dumps(audit.entries)]:
        assert KEY not in place and TOKEN not in place


def test_cli_review_prints_no_secret(tmp_path):
    env = {**os.environ, "ANTHROPIC_API_KEY": KEY, "COURSE_AGENT_BACKEND": "sandbox"}
    done = subprocess.run([sys.executable, "-m", "course_agent.cli", "review", "485", "--approval", "approve",
                           "--transcript", str(tmp_path / "run.jsonl")], capture_output=True, text=True,
                          env=env, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    everything = done.stdout + done.stderr + (tmp_path / "run.jsonl").read_text() + \
        (tmp_path / "run.audit.jsonl").read_text()
    assert KEY not in everything
