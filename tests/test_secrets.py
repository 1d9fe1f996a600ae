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


def test_redact_hides_prefixes_url_encoded_and_json_escaped_forms(monkeypatch):
    secret = 'glpat-TESTSECRET/"quoted"+value'
    monkeypatch.setenv("GITLAB_TOKEN", secret)
    from urllib.parse import quote
    text = redact(f"a {secret[:13]}, b {quote(secret, safe='')}, c {json.dumps(secret)}, d {quote(secret)[:20]}")
    assert "TESTSEC" not in text and "quoted" not in text
    assert redact("glpat-TE!") == "[REDACTED]!" and redact("glpat-T") == "glpat-T"  # 8 characters hidden, 7 not


def test_approvals_reach_a_leaky_approver_and_the_audit_stays_clean(sandbox, tmp_path, monkeypatch):
    """The approver is really asked (the sandbox's own token works), and what it says is redacted."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    asked = []

    def leaky_approver(request):
        asked.append(request)
        return Verdict(False, f"alice {TOKEN}", reason=f"key {KEY}, token prefix {TOKEN[:12]}")

    audit = AuditLog(tmp_path / "audit.jsonl")
    tools = GitLabTools(sandbox.gitlab_url, sandbox.gitlab_token, sandbox.project)
    result = run_agent(sandbox.client(), "Review MR !485", reviewer_toolbox(tools, approver=leaky_approver, audit=audit),
                       system=REVIEW_RULES, transcript=tmp_path / "t.jsonl")
    assert [r.tool for r in asked] == ["merge_pr"]
    written = (tmp_path / "audit.jsonl").read_text()
    assert '"decision": "denied"' in written and "[REDACTED]" in written
    for place in [written, json.dumps(audit.entries), (tmp_path / "t.jsonl").read_text(), result.text,
                  json.dumps(result.messages, default=str)]:
        assert KEY not in place and TOKEN not in place and TOKEN[:12] not in place


def test_the_audit_log_redacts_what_it_records(tmp_path, monkeypatch):
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    audit = AuditLog(tmp_path / "audit.jsonl")
    audit.record("post_comment", {"body": f"token {TOKEN}", "key": KEY}, decision="allowed", by="policy",
                 reason=f"saw {TOKEN}")
    assert KEY not in (tmp_path / "audit.jsonl").read_text() and TOKEN not in (tmp_path / "audit.jsonl").read_text()
    assert KEY not in json.dumps(audit.entries) and TOKEN not in json.dumps(audit.entries)


def test_tool_results_sent_to_the_api_are_redacted(tmp_path, monkeypatch):
    """Not only the transcript's copy: the request body the API receives holds no secret."""
    from course_sandbox import Sandbox
    from course_agent.tools import Tool, Toolbox

    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    leaky = Tool("get_diff", "Get the diff of a merge request.",
                 {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]},
                 lambda pr: f"diff --git a/x b/x\n+API_KEY = '{KEY}'\n")
    with Sandbox(record=True) as sb:
        run_agent(sb.client(), "Review PR #482", Toolbox([leaky]), transcript=tmp_path / "t.jsonl")
        bodies = json.dumps([e.body for e in sb.exchanges])
    assert "tool_result" in bodies and "[REDACTED]" in bodies
    assert KEY not in bodies and KEY[:12] not in bodies


def test_a_gitlab_token_passed_as_an_argument_is_redacted_whatever_its_shape():
    token = "plain-Token-Without-Prefix-31337"
    GitLabTools("http://127.0.0.1:9", token, "course/shop")
    assert token not in redact(f"Authorization: {token}") and token[:10] not in redact(token[:10])


def test_the_console_approval_prompt_is_redacted(monkeypatch):
    from course_agent.safety import ApprovalRequest, console_approver
    from course_agent.tools import Risk

    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    shown = []
    console_approver(ask=lambda prompt: shown.append(prompt) or "n")(
        ApprovalRequest("post_comment", {"body": f"token {TOKEN} and key {KEY}"}, Risk.DANGEROUS))
    assert shown and "post_comment" in shown[0]
    assert TOKEN not in shown[0] and KEY not in shown[0] and "[REDACTED]" in shown[0]
