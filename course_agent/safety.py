"""The line of responsibility: the model decides what to call, this code decides whether it may.

A policy gives each tool a decision: ALLOW (run at once), ASK (a human approves or refuses)
or DENY (never). By default read-only tools are allowed, tools that write are allowed and
logged, and dangerous tools ask. Every decision goes to the audit log, and counters show
how often each tool was called. A refusal goes back to the model as an error result, and
the loop goes on.
"""

import enum
import json
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path

from .redaction import redact
from .tools import Risk, Tool

AUTO_APPROVE_ENV = "COURSE_AGENT_AUTO_APPROVE"
DEFAULT_TIMEOUT = 120.0


class Decision(enum.Enum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


@dataclass(frozen=True)
class Verdict:
    """A human's (or a stand-in's) answer to one approval request."""

    approved: bool
    by: str
    reason: str = ""


@dataclass(frozen=True)
class ApprovalRequest:
    tool: str
    input: dict
    risk: Risk


Approver = Callable[[ApprovalRequest], Verdict]
"""Anything that answers an approval request: a console prompt, a rule, a widget."""


def auto_approver(answer: str | None = None) -> Approver:
    """Answers every request the same way: COURSE_AGENT_AUTO_APPROVE=approve|deny (for CI and demos)."""
    answer = (answer or os.environ.get(AUTO_APPROVE_ENV) or "").strip().lower()
    if answer not in ("approve", "deny"):
        raise ValueError(f"{AUTO_APPROVE_ENV} must be 'approve' or 'deny', got {answer!r}")
    return lambda request: Verdict(answer == "approve", f"{AUTO_APPROVE_ENV}={answer}")


def console_approver(timeout: float = DEFAULT_TIMEOUT, ask: Callable[[str], str] = input) -> Approver:
    """Asks on the terminal; no answer within `timeout` seconds means no."""

    def approve(request: ApprovalRequest) -> Verdict:
        prompt = (f"\nThe agent wants to call {request.tool} ({request.risk.value}) with:\n"
                  f"{redact(json.dumps(request.input, ensure_ascii=False, indent=2))}\nAllow it? [y/N] ")
        pool = ThreadPoolExecutor(max_workers=1)
        try:
            reply = pool.submit(ask, prompt).result(timeout=timeout)
        except FutureTimeout:
            return Verdict(False, "timeout", f"no answer within {timeout:g} s")
        except EOFError:
            return Verdict(False, "console", "no terminal to ask on")
        finally:
            pool.shutdown(wait=False)
        approved = reply.strip().lower() in ("y", "yes", "д", "да")
        return Verdict(approved, "console", "" if approved else "the operator said no")

    return approve


def default_approver() -> Approver:
    """The auto-approver when COURSE_AGENT_AUTO_APPROVE is set; otherwise the console, if there is one."""
    if os.environ.get(AUTO_APPROVE_ENV):
        return auto_approver()
    if sys.stdin is not None and sys.stdin.isatty():
        return console_approver()
    return lambda request: Verdict(False, "nobody", "no approver is available to ask")


@dataclass
class Policy:
    """Decisions per tool; tools not named follow their risk."""

    overrides: dict[str, Decision] = field(default_factory=dict)
    by_risk: dict[Risk, Decision] = field(default_factory=lambda: {
        Risk.READ_ONLY: Decision.ALLOW, Risk.WRITES: Decision.ALLOW, Risk.DANGEROUS: Decision.ASK,
    })

    def decide(self, tool: Tool) -> Decision:
        return self.overrides.get(tool.name, self.by_risk[tool.risk])


class AuditLog:
    """Every gated call as one JSON line (time, tool, input, decision, who decided), plus counters."""

    def __init__(self, path: str | Path | None = None, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path) if path else None
        self.entries: list[dict] = []
        self.calls: Counter[str] = Counter()
        self.decisions: Counter[tuple[str, str]] = Counter()
        self._clock = clock
        self._lock = threading.Lock()

    def record(self, tool: str, tool_input: dict, decision: str, by: str, reason: str = "") -> dict:
        entry = {"time": round(self._clock(), 3), "tool": tool, "input": tool_input, "decision": decision,
                 "by": by, "reason": reason}
        line = redact(json.dumps(entry, ensure_ascii=False, default=str))
        with self._lock:
            self.entries.append(json.loads(line))
            self.calls[tool] += 1
            self.decisions[(tool, decision)] += 1
            if self.path is not None:
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(line + "\n")
        return entry


@dataclass
class SafetyGate:
    """The Toolbox's gate: applies the policy, asks the approver, logs everything."""

    policy: Policy = field(default_factory=Policy)
    approver: Approver | None = None
    audit: AuditLog = field(default_factory=AuditLog)
    _one_question_at_a_time: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __call__(self, tool: Tool, tool_input: dict) -> str | None:
        decision = self.policy.decide(tool)
        if decision is Decision.DENY:
            self.audit.record(tool.name, tool_input, "denied", "policy")
            return f"Refused by policy: {tool.name} may not be called by this agent."
        if decision is Decision.ALLOW:
            self.audit.record(tool.name, tool_input, "allowed", "policy")
            return None
        approver = self.approver or default_approver()
        try:
            with self._one_question_at_a_time:
                verdict = approver(ApprovalRequest(tool.name, tool_input, tool.risk))
        except Exception as error:  # an approver that breaks must not approve
            verdict = Verdict(False, "error", f"the approver failed: {type(error).__name__}")
        self.audit.record(tool.name, tool_input, "approved" if verdict.approved else "refused", verdict.by,
                          verdict.reason)
        if verdict.approved:
            return None
        because = f" ({verdict.reason})" if verdict.reason else ""
        return (f"A human refused this call: {tool.name} was not run{because}. "
                "Do not try to do the same thing another way; report it instead.")
