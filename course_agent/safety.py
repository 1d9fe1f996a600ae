"""The line of responsibility: the model decides what to call, this code decides whether it may.

A policy gives each tool a decision: ALLOW (run at once), ASK (a human approves or refuses)
or DENY (never). By default read-only tools are allowed, tools that write are allowed and
logged, and dangerous tools ask. Every decision goes to the audit log, and counters show
how often each tool was called. A refusal goes back to the model as an error result, and
the loop goes on.
"""

import enum
import json
import math
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .i18n import N_, language, tr
from .redaction import redact
from .settings import AUTO_ANSWERS, AUTO_APPROVE_ENV, Settings
from .terminal import ask_in_a_thread, read_line
from .tools import Risk, Tool

DEFAULT_TIMEOUT = 120.0
MAX_TIMEOUT = 24 * 3600.0


def _lang() -> str:
    """The learner's language, or English when COURSE_AGENT_LANGUAGE is not one we know."""
    try:
        return language()
    except ValueError:
        return "en"


_RISK_WORDS = {Risk.READ_ONLY: N_("read-only"), Risk.WRITES: N_("writes"), Risk.DANGEROUS: N_("dangerous")}
_DECISION_WORDS = {"allowed": N_("allowed"), "denied": N_("denied"), "approved": N_("approved")}
_BY_WORDS = {"policy": N_("policy")}


def risk_label(risk: Risk, lang: str | None = None) -> str:
    """A risk level in the learner's words («опасное действие»); the code and the audit log keep `risk.value`."""
    return tr(_RISK_WORDS[risk], lang)


def decision_label(decision: str, lang: str | None = None) -> str:
    """An audit log decision ("allowed", "denied", "approved") in the learner's words; the log keeps the English."""
    return tr(_DECISION_WORDS[decision], lang) if decision in _DECISION_WORDS else decision


def by_label(by: str, lang: str | None = None) -> str:
    """Who decided, as the audit log names it: "policy" in the learner's words (the log keeps the English); an
    approver's own name, or "interrupted", as it is."""
    return tr(_BY_WORDS[by], lang) if by in _BY_WORDS else by


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


def approval_from_env() -> str | None:
    """COURSE_AGENT_AUTO_APPROVE as 'approve' or 'deny', None when unset; anything else is an error."""
    return Settings.from_env().auto_approve


def resolve_approval(flag: str | None = None) -> tuple[str, str]:
    """Who answers approval requests, from one source of truth: the flag (e.g. `--approval`), else
    COURSE_AGENT_AUTO_APPROVE, else a prompt. Returns (answer, source): answer is 'approve', 'deny'
    or 'ask'; source is '--approval', 'COURSE_AGENT_AUTO_APPROVE' or 'prompt'. An invalid value
    of the variable is a ValueError, raised here, at start, not at the first approval."""
    from_env = approval_from_env()  # checked even when the flag wins: a typo should not wait to bite
    if flag is not None:
        answer = flag.strip().lower()
        if answer not in (*AUTO_ANSWERS, "ask"):
            raise ValueError(tr("--approval must be ask, approve or deny, got {value!r}", _lang(), value=flag))
        return answer, "--approval"
    if from_env is not None:
        return from_env, AUTO_APPROVE_ENV
    return "ask", "prompt"


def auto_approver(answer: str | None = None, source: str | None = None) -> Approver:
    """Answers every request the same way. Without `answer`, COURSE_AGENT_AUTO_APPROVE=approve|deny
    (for CI and demos). The audit's `by` names where the answer came from: `source=answer`."""
    if answer is None:
        answer, source = approval_from_env(), source or AUTO_APPROVE_ENV
        if answer is None:
            raise ValueError(tr("{variable} must be 'approve' or 'deny', got {value!r}", _lang(),
                                variable=AUTO_APPROVE_ENV, value=""))
    answer = answer.strip().lower()
    if answer not in AUTO_ANSWERS:
        raise ValueError(tr("the automatic answer must be 'approve' or 'deny', got {value!r}", _lang(), value=answer))
    by = f"{source or 'auto_approver'}={answer}"
    return lambda request: Verdict(answer == "approve", by)


def _check_timeout(timeout: float) -> float:
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise ValueError(tr("the approval timeout must be between 0 and {limit} seconds, got {value}", _lang(),
                            limit=int(MAX_TIMEOUT), value=timeout))
    return float(timeout)


def console_approver(timeout: float = DEFAULT_TIMEOUT, ask: Callable[[str], str] | None = None) -> Approver:
    """Asks on the terminal (the question on stderr, the answer from stdin); no answer within
    `timeout` seconds means no. `ask(prompt) -> reply` replaces the terminal (tests, other UIs)."""
    timeout = _check_timeout(timeout)

    def approve(request: ApprovalRequest) -> Verdict:
        lang = _lang()
        arguments = json.dumps(request.input, ensure_ascii=False, indent=2, default=str)
        prompt = redact("\n" + tr("The agent wants to call {tool} ({risk}) with:", lang, tool=request.tool,
                                   risk=risk_label(request.risk, lang)) + f"\n{arguments}\n"
                        + tr("Allow it? [y/N] ", lang))
        try:
            if ask is not None:
                reply = ask_in_a_thread(ask, prompt, timeout)
            else:
                print(prompt, end="", file=sys.stderr, flush=True)
                reply = read_line(timeout)
        except EOFError:
            return Verdict(False, "console", tr("no terminal to ask on", lang))
        if reply is None:
            if ask is None:
                print(file=sys.stderr, flush=True)
            return Verdict(False, "timeout", tr("no answer within {seconds} s", lang, seconds=f"{timeout:g}"))
        approved = reply.strip().lower() in ("y", "yes", "д", "да")
        return Verdict(approved, "console", "" if approved else tr("the operator said no", lang))

    return approve


def default_approver() -> Approver:
    """The auto-approver when COURSE_AGENT_AUTO_APPROVE is set; otherwise the console, if there is one."""
    if approval_from_env() is not None:
        return auto_approver()
    if sys.stdin is not None and sys.stdin.isatty():
        return console_approver()
    return lambda request: Verdict(False, "nobody", tr("no approver is available to ask", _lang()))


@dataclass(frozen=True)
class Ruling:
    """A policy's answer for one call: allow, ask a human, or deny; when denied, why (for the audit log) and what
    the model reads instead of the result."""

    decision: Decision
    why: str = ""
    refusal: str = ""


def plain_ruling(decision: Decision, tool: Tool, lang: str | None = None) -> Ruling:
    """A decision with the plain words: a denial says this tool is never allowed."""
    if decision is not Decision.DENY:
        return Ruling(decision)
    return Ruling(decision, tr("the policy never allows this tool", lang),
                  tr("Denied by policy: {tool} may not be called by this agent.", lang, tool=tool.name))


@dataclass
class Policy:
    """Decisions per tool; tools not named follow their risk."""

    overrides: dict[str, Decision] = field(default_factory=dict)
    by_risk: dict[Risk, Decision] = field(default_factory=lambda: {
        Risk.READ_ONLY: Decision.ALLOW, Risk.WRITES: Decision.ALLOW, Risk.DANGEROUS: Decision.ASK,
    })

    def rule(self, tool: Tool, lang: str | None = None) -> Ruling:
        """Allow, ask or deny a call of this tool, and why: the one place where a call's fate is decided (a human,
        through the approver, answers only what this says to ask)."""
        return plain_ruling(self.overrides.get(tool.name, self.by_risk[tool.risk]), tool, lang)

    def decide(self, tool: Tool) -> Decision:
        """The decision alone, without the words."""
        return self.rule(tool).decision


@dataclass
class ReviewPolicy(Policy):
    """The reviewer's policy (`course-agent review`): reads run; writes (post_comment, comment_on_line)
    run only when the review is to be posted (`post=True`, the command's --post) and are refused
    otherwise; merges ask a human, unless `nobody_to_ask` names why no one can be asked (GitLab CI,
    batch mode): then they are refused. Overrides still win, as in Policy."""

    post: bool = False
    nobody_to_ask: str = ""

    def rule(self, tool: Tool, lang: str | None = None) -> Ruling:
        if tool.name in self.overrides:
            return super().rule(tool, lang)
        if tool.risk is Risk.WRITES and not self.post:
            return Ruling(Decision.DENY, tr("writes only with --post, and this review is not to be posted", lang),
                          tr("Denied by policy: {tool} writes to the merge request, and this review is not to be "
                             "posted (no --post). Put what you wanted to write in your final answer instead.", lang,
                             tool=tool.name))
        if tool.risk is Risk.DANGEROUS and self.nobody_to_ask:
            return Ruling(Decision.DENY, tr("needs a human's approval, and nobody can be asked here ({where})", lang,
                                            where=self.nobody_to_ask),
                          tr("Denied by policy: {tool} needs a human's approval, and nobody can be asked here "
                             "({where}). Do not try to do the same thing another way; report it in your review.",
                             lang, tool=tool.name, where=self.nobody_to_ask))
        return super().rule(tool, lang)


class AuditLog:
    """Every gated call as one JSON line (time, tool, input, decision, who decided), plus counters."""

    def __init__(self, path: str | Path | None = None, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path) if path else None
        self.entries: list[dict] = []
        self.calls: Counter[str] = Counter()
        self.decisions: Counter[tuple[str, str]] = Counter()
        self._clock = clock
        self._lock = threading.Lock()

    def record(self, tool: str, tool_input: dict, *, decision: str, by: str, reason: str = "") -> dict:
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
    """The Toolbox's gate: applies the policy, asks the approver, logs everything.

    Without an approver, COURSE_AGENT_AUTO_APPROVE is checked when the gate is made (an invalid
    value is a ValueError at start, not a surprise at the first merge)."""

    policy: Policy = field(default_factory=Policy)
    approver: Approver | None = None
    audit: AuditLog = field(default_factory=AuditLog)
    _one_question_at_a_time: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.approver is None:
            approval_from_env()

    def __call__(self, tool: Tool, tool_input: dict) -> str | None:
        lang = _lang()
        ruling = self._rule(tool, lang)
        if ruling.decision is Decision.DENY:
            self.audit.record(tool.name, tool_input, decision="denied", by="policy", reason=ruling.why)
            return ruling.refusal
        if ruling.decision is Decision.ALLOW:
            self.audit.record(tool.name, tool_input, decision="allowed", by="policy")
            return None
        try:
            with self._one_question_at_a_time:
                approver = self.approver or default_approver()
                verdict = approver(ApprovalRequest(tool.name, tool_input, tool.risk))
            if not isinstance(verdict, Verdict):
                raise TypeError(f"an approver must return a Verdict, not {type(verdict).__name__}")
        except (KeyboardInterrupt, SystemExit):
            self.audit.record(tool.name, tool_input, decision="denied", by="interrupted",
                              reason=tr("interrupted while waiting for an answer", lang))
            raise
        except Exception as error:  # an approver that breaks must not approve
            verdict = Verdict(False, "error", tr("the approver failed: {error}", lang,
                                                 error=type(error).__name__))
        approved = verdict.approved is True  # only an explicit yes opens the gate: Verdict("no", ...) is a no
        self.audit.record(tool.name, tool_input, decision="approved" if approved else "denied", by=verdict.by,
                          reason=verdict.reason)
        if approved:
            return None
        because = f" ({verdict.reason})" if verdict.reason else ""
        return tr("A human denied this call: {tool} was not run{because}. "
                  "Do not try to do the same thing another way; report it instead.", lang,
                  tool=tool.name, because=because)

    def _rule(self, tool: Tool, lang: str) -> Ruling:
        """The policy's ruling; a policy-like object of your own with decide() alone gets the plain words."""
        if isinstance(self.policy, Policy):
            return self.policy.rule(tool, lang)
        return plain_ruling(self.policy.decide(tool), tool, lang)
