"""The safety gate: allow / ask / deny, approvers, the audit log and counters."""

import json
import threading
import time

import pytest
from anthropic.types import ToolUseBlock

from course_agent.safety import (
    AUTO_APPROVE_ENV, AuditLog, Decision, Policy, SafetyGate, Verdict, auto_approver, console_approver,
    default_approver, resolve_approval,
)
from course_agent.tools import Risk, Tool, Toolbox

OBJ = {"type": "object", "properties": {"pr": {"type": "integer"}}}


def toolbox(gate, merged):
    return Toolbox([
        Tool("get_diff", "d", OBJ, lambda pr: "diff", Risk.READ_ONLY),
        Tool("post_comment", "c", OBJ, lambda pr: "posted", Risk.WRITES),
        Tool("merge_pr", "m", OBJ, lambda pr: merged.append(pr) or "merged", Risk.DANGEROUS),
    ], gate=gate)


def call(box, name, n=1):
    return box.run(ToolUseBlock(type="tool_use", id=f"toolu_{n}", name=name, input={"pr": 485}))


def test_defaults_allow_reads_and_writes_and_ask_before_merging(tmp_path):
    asked, merged = [], []
    audit = AuditLog(tmp_path / "audit.jsonl", clock=lambda: 1000.0)
    gate = SafetyGate(approver=lambda req: asked.append(req) or Verdict(True, "alice"), audit=audit)
    box = toolbox(gate, merged)
    assert call(box, "get_diff")["content"] == "diff"
    assert call(box, "post_comment")["content"] == "posted"
    assert call(box, "merge_pr")["content"] == "merged"
    assert [r.tool for r in asked] == ["merge_pr"] and asked[0].input == {"pr": 485}
    assert merged == [485]
    lines = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert lines == [
        {"time": 1000.0, "tool": "get_diff", "input": {"pr": 485}, "decision": "allowed", "by": "policy", "reason": ""},
        {"time": 1000.0, "tool": "post_comment", "input": {"pr": 485}, "decision": "allowed", "by": "policy",
         "reason": ""},
        {"time": 1000.0, "tool": "merge_pr", "input": {"pr": 485}, "decision": "approved", "by": "alice",
         "reason": ""},
    ]
    assert audit.calls == {"get_diff": 1, "post_comment": 1, "merge_pr": 1}


def test_a_refusal_is_an_error_result_and_nothing_runs():
    merged = []
    audit = AuditLog()
    box = toolbox(SafetyGate(approver=lambda req: Verdict(False, "bob", "not today"), audit=audit), merged)
    result = call(box, "merge_pr")
    assert result["is_error"] is True
    assert result["content"].startswith("A human denied this call: merge_pr was not run (not today).")
    assert merged == [] and audit.decisions[("merge_pr", "denied")] == 1


def test_deny_never_asks_and_is_audited(tmp_path):
    merged, asked = [], []
    audit = AuditLog(tmp_path / "audit.jsonl", clock=lambda: 5.0)
    gate = SafetyGate(Policy({"merge_pr": Decision.DENY}), approver=lambda req: asked.append(req), audit=audit)
    result = call(toolbox(gate, merged), "merge_pr")
    assert result["is_error"] and "Denied by policy" in result["content"]
    assert merged == [] and asked == []
    assert [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()] == [
        {"time": 5.0, "tool": "merge_pr", "input": {"pr": 485}, "decision": "denied", "by": "policy",
         "reason": "the policy never allows this tool"}]
    assert audit.decisions[("merge_pr", "denied")] == 1


def test_a_broken_approver_does_not_approve():
    def broken(request):
        raise RuntimeError("widget gone")

    merged = []
    result = call(toolbox(SafetyGate(approver=broken), merged), "merge_pr")
    assert result["is_error"] and merged == []


@pytest.mark.parametrize("answer, approved", [("approve", True), ("deny", False), ("APPROVE ", True)])
def test_auto_approver_from_the_environment(monkeypatch, answer, approved):
    monkeypatch.setenv(AUTO_APPROVE_ENV, answer)
    verdict = default_approver()(None)
    assert verdict.approved is approved and verdict.by.startswith(AUTO_APPROVE_ENV)


def test_auto_approver_rejects_nonsense():
    with pytest.raises(ValueError, match="approve"):
        auto_approver("maybe")


@pytest.mark.parametrize("flag, env, expected", [
    (None, None, ("ask", "prompt")),
    (None, "deny", ("deny", AUTO_APPROVE_ENV)),
    ("approve", "deny", ("approve", "--approval")),
    ("deny", None, ("deny", "--approval")),
])
def test_one_source_of_truth_for_approval(monkeypatch, flag, env, expected):
    if env is None:
        monkeypatch.delenv(AUTO_APPROVE_ENV, raising=False)
    else:
        monkeypatch.setenv(AUTO_APPROVE_ENV, env)
    assert resolve_approval(flag) == expected
    answer, source = expected
    if answer != "ask":
        assert auto_approver(answer, source)(None).by == f"{source}={answer}"


@pytest.mark.parametrize("value", ["yes", "1", "true", "Approve it"])
def test_an_invalid_variable_is_an_error_when_the_gate_is_made(monkeypatch, value):
    monkeypatch.setenv(AUTO_APPROVE_ENV, value)
    with pytest.raises(ValueError, match=f"{AUTO_APPROVE_ENV} must be 'approve' or 'deny', got '{value}'"):
        SafetyGate()
    with pytest.raises(ValueError, match=AUTO_APPROVE_ENV):
        resolve_approval("deny")  # even when the flag would win: a typo is reported at start


def test_the_gate_speaks_russian(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    result = call(toolbox(SafetyGate(approver=lambda req: Verdict(False, "bob", "")), []), "merge_pr")
    assert result["content"].startswith("Человек отклонил этот вызов: merge_pr не выполнен.")
    denied = call(toolbox(SafetyGate(Policy({"merge_pr": Decision.DENY})), []), "merge_pr")
    assert denied["content"] == "Запрещено политикой: этому агенту нельзя вызывать merge_pr."


def test_the_console_prompt_goes_to_stderr_and_leaves_nothing_running(monkeypatch, capsys):
    import os
    read_end, write_end = os.pipe()
    monkeypatch.setattr("sys.stdin", os.fdopen(read_end))
    request = type("R", (), {"tool": "merge_pr", "input": {"pr": 1}, "risk": Risk.DANGEROUS})()
    threads = threading.active_count()
    verdict = console_approver(timeout=0.3)(request)
    assert verdict == Verdict(False, "timeout", "no answer within 0.3 s")
    assert threading.active_count() == threads  # no reader left waiting on the terminal
    err = capsys.readouterr()
    assert "Allow it? [y/N]" in err.err and err.out == ""
    os.write(write_end, b"y\n")
    assert console_approver(timeout=2)(request).approved is True
    os.close(write_end)
    assert console_approver(timeout=2)(request) == Verdict(False, "console", "no terminal to ask on")


def test_no_approver_available_means_no(monkeypatch):
    monkeypatch.delenv(AUTO_APPROVE_ENV, raising=False)
    assert default_approver()(None).approved is False


def test_console_approver_yes_no_and_timeout():
    request = type("R", (), {"tool": "merge_pr", "input": {"pr": 1}, "risk": Risk.DANGEROUS})()
    assert console_approver(ask=lambda prompt: "y")(request).approved is True
    assert console_approver(ask=lambda prompt: "")(request).approved is False
    started = time.monotonic()
    never = threading.Event()
    verdict = console_approver(timeout=0.2, ask=lambda prompt: never.wait(5) and "y")(request)
    never.set()
    assert verdict == Verdict(False, "timeout", "no answer within 0.2 s")
    assert time.monotonic() - started < 2


def test_approvals_are_asked_one_at_a_time():
    inside, peak = [0], [0]

    def approver(request):
        inside[0] += 1
        peak[0] = max(peak[0], inside[0])
        time.sleep(0.05)
        inside[0] -= 1
        return Verdict(True, "alice")

    box = toolbox(SafetyGate(approver=approver), [])
    blocks = [ToolUseBlock(type="tool_use", id=f"toolu_{n}", name="merge_pr", input={"pr": n}) for n in range(4)]
    assert all(not r.get("is_error") for r in box.run_all(blocks))
    assert peak[0] == 1


# ---------------------------------------------------------------- the reviewer's policy (course-agent review)

def _tools():
    noop = lambda **_: "done"  # noqa: E731
    return {risk: Tool(f"t_{risk.name.lower()}", "x", {"type": "object"}, noop, risk) for risk in Risk}


def test_review_policy_writes_only_when_posting():
    from course_agent.safety import Decision, ReviewPolicy

    tools = _tools()
    assert ReviewPolicy(post=False).decide(tools[Risk.WRITES]) is Decision.DENY
    assert ReviewPolicy(post=True).decide(tools[Risk.WRITES]) is Decision.ALLOW
    assert ReviewPolicy().decide(tools[Risk.READ_ONLY]) is Decision.ALLOW
    assert ReviewPolicy().decide(tools[Risk.DANGEROUS]) is Decision.ASK
    assert ReviewPolicy(nobody_to_ask="GitLab CI").decide(tools[Risk.DANGEROUS]) is Decision.DENY
    assert ReviewPolicy({"t_writes": Decision.ASK}).decide(tools[Risk.WRITES]) is Decision.ASK  # overrides win
    assert Policy().decide(tools[Risk.WRITES]) is Decision.ALLOW  # the notebooks' default is unchanged


def test_review_policy_refusals_tell_the_model_why():
    from course_agent.safety import AuditLog, ReviewPolicy

    tools = _tools()
    audit = AuditLog()
    gate = SafetyGate(ReviewPolicy(post=False, nobody_to_ask="batch mode"), lambda r: None, audit)
    assert "this review is not to be posted (no --post)" in gate(tools[Risk.WRITES], {})
    assert "nobody can be asked here (batch mode)" in gate(tools[Risk.DANGEROUS], {})
    assert [e["decision"] for e in audit.entries] == ["denied", "denied"]
    assert [e["reason"] for e in audit.entries] == [  # the audit log says why too, not "never allowed"
        "writes only with --post, and this review is not to be posted",
        "needs a human's approval, and nobody can be asked here (batch mode)"]


def test_a_policy_like_object_without_refusal_still_refuses():
    from course_agent.safety import AuditLog, Decision

    class OnlyDecides:
        def decide(self, tool):
            return Decision.DENY

    reason = SafetyGate(OnlyDecides(), lambda r: None, AuditLog())(_tools()[Risk.READ_ONLY], {})
    assert reason == "Denied by policy: t_read_only may not be called by this agent."
