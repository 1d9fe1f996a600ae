"""The safety gate: allow / ask / deny, approvers, the audit log and counters."""

import json
import threading
import time

import pytest
from anthropic.types import ToolUseBlock

from course_agent.safety import (
    AUTO_APPROVE_ENV, AuditLog, Decision, Policy, SafetyGate, Verdict, auto_approver, console_approver,
    default_approver,
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
    assert result["content"].startswith("A human refused this call: merge_pr was not run (not today).")
    assert merged == [] and audit.decisions[("merge_pr", "refused")] == 1


def test_deny_never_asks():
    merged, asked = [], []
    gate = SafetyGate(Policy({"merge_pr": Decision.DENY}), approver=lambda req: asked.append(req))
    result = call(toolbox(gate, merged), "merge_pr")
    assert result["is_error"] and "Refused by policy" in result["content"]
    assert merged == [] and asked == []


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
