"""Exercise 7 (notebook 7): the gate in the learner's own loop (exercise_7_gate.py); and, the older form, a
`policy` in which post_comment asks too, and an `approver` (ApprovalRequest -> Verdict) that approves comments
shorter than 2000 characters only. Each is asked tool by tool and request by request, then both guard a review of
!482 that posts its comment, through a SafetyGate in a fresh sandbox: a rule is only trusted once it has decided a
real call."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from course_agent.i18n import N_, ntr, tr

from ..crash import error_text
from ..report import Report
from .exercise_7_gate import check_gate_loop
from .grading import MAX_ITERATIONS, REVIEWED, Grade, Requirement, Seen, call, is_placeholder, setting
from .reading import kind, short

Answer = tuple[bool | None, str, Any, bool]
"""(approved, what was seen, the verdict, hung) of the approver for one request."""
SHORT, LONG = (100, 1999), (2000, 2500)
"""Comment lengths the approver is asked about: just under the limit, and at it or over."""
READS = ("get_diff", "read_file")


def _decision(policy: Any, tool: Any) -> tuple[str | None, str]:
    """('allow' | 'ask' | 'deny' | None, what was seen) of a policy for one tool."""
    try:
        value = policy.decide(tool)
    except Exception as error:
        return None, error_text(error)
    raw = getattr(value, "value", value)
    seen = str(raw).strip().lower() if raw is not None else ""
    return (seen if seen in ("allow", "ask", "deny") else None), str(raw)


def _verdict(approver: Callable, request: Any, lang: str) -> Answer:
    """The approver's answer to one request; approved is None when it failed, hung or gave no Verdict."""
    timeout = setting("APPROVER_TIMEOUT")
    value, error, hung = call(approver, request, timeout=timeout)
    if hung:
        return None, tr("no answer within {seconds} s", lang, seconds=int(timeout)), None, True
    if error is not None:
        return None, tr("raised {error}", lang, error=short(error_text(error), 100)), None, False
    approved = getattr(value, "approved", None)
    if not isinstance(approved, bool) or not hasattr(value, "by"):
        return None, tr("returned {value}, not a Verdict", lang, value=short(value, 60)), value, False
    return approved, tr("approved", lang) if approved else tr("denied", lang), value, False


class _AsDecisions:
    """The learner's policy for a SafetyGate: whatever its decide() returns ("ask", Decision.ASK), a Decision."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def decide(self, tool: Any) -> Any:
        from course_agent.safety import Decision

        found, seen = _decision(self.policy, tool)
        if found is None:
            raise ValueError(f"the policy's decision for {tool.name} is {seen}")
        return Decision(found)


def _unwritten(function: Any, *probe: Any) -> bool:
    """A function left as its template (`...`, `pass`, `raise NotImplementedError`): it answers nothing."""
    if not callable(function):
        return False
    value, error, hung = call(function, *probe, timeout=setting("APPROVER_TIMEOUT"))
    return not hung and ((error is None and value is None) or isinstance(error, NotImplementedError))


@dataclass(frozen=True)
class Gated:
    """The review of !482 run through the learner's gate: the comment the audit log holds, or a failure."""

    failure: str
    entry: dict | None
    finished: bool


@dataclass(frozen=True)
class Seen7:
    """The policy's decision per tool, the approver's answer per request, and the gated review."""

    decisions: dict[str, tuple[str | None, str]]
    answers: dict[int | str, Answer]
    gated: Gated | None

    def deciders(self) -> set:
        return {getattr(answer[2], "by", None) for answer in self.answers.values()}


def _ask(approver: Callable, lang: str) -> dict[int | str, Answer]:
    """The approver on comments of each length and on a merge; one that waits for a person is asked once."""
    from course_agent.safety import ApprovalRequest
    from course_agent.tools import Risk

    requests: dict[int | str, Any] = {n: ApprovalRequest("post_comment", {"pr": REVIEWED, "body": "x" * n},
                                                         Risk.WRITES) for n in (*SHORT, *LONG)}
    requests["merge"] = ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS)
    answers: dict[int | str, Answer] = {}
    for key, request in requests.items():
        if any(answer[3] for answer in answers.values()):
            answers[key] = None, tr("not asked: the approver did not answer before", lang), None, True
        else:
            answers[key] = _verdict(approver, request, lang)
    return answers


def _gated_review(sb: Any, tools: list, policy: Any, approver: Callable, lang: str) -> Gated:
    """A review of !482 that posts its comment, with the learner's policy and approver in the gate."""
    from course_agent.loop import run_agent
    from course_agent.review import REVIEW_RULES, review_task
    from course_agent.safety import AuditLog, SafetyGate, Verdict
    from course_agent.tools import Toolbox

    audit = AuditLog()

    def asked(request: Any) -> Any:
        timeout = setting("APPROVER_TIMEOUT")
        value, error, hung = call(approver, request, timeout=timeout)
        if hung:
            return Verdict(False, "timeout", f"no answer within {int(timeout)} s")
        if error is not None:
            raise error
        return value

    toolbox = Toolbox(tools, gate=SafetyGate(_AsDecisions(policy), asked, audit))
    try:
        result = run_agent(sb.client(), review_task(REVIEWED, post=True, language=lang), toolbox,
                           system=REVIEW_RULES, max_iterations=MAX_ITERATIONS)
        failure = ""
    except Exception as error:
        result, failure = None, error_text(error)
    entries = [e for e in audit.entries if e["tool"] == "post_comment"]
    return Gated(failure, entries[-1] if entries else None, result is not None)


def _post_comment_asks(seen: Seen7, lang: str) -> Seen:
    found, shown = seen.decisions["post_comment"]
    return Seen(found == "ask", tr("decide(post_comment) gives {value}.", lang, value=shown))


def _merge_pr_asks(seen: Seen7, lang: str) -> Seen:
    found, shown = seen.decisions["merge_pr"]
    return Seen(found in ("ask", "deny"), tr("decide(merge_pr) gives {value}.", lang, value=shown))


def _reads_allowed(seen: Seen7, lang: str) -> Seen:
    reads = {name: seen.decisions[name] for name in READS}
    return Seen(all(d == "allow" for d, _ in reads.values()),
                ", ".join(tr("decide({tool}) gives {value}", lang, tool=name, value=shown)
                          for name, (_, shown) in reads.items()) + ".")


def _lengths(seen: Seen7, lengths: tuple[int, ...], approved: bool, lang: str) -> Seen:
    answers = {n: seen.answers[n] for n in lengths}
    return Seen(all(a[0] is approved for a in answers.values()),
                ", ".join(ntr("{n} character: {seen}", "{n} characters: {seen}", n, lang, seen=a[1])
                          for n, a in answers.items()) + ".")


def _short_approved(seen: Seen7, lang: str) -> Seen:
    return _lengths(seen, SHORT, True, lang)


def _long_refused(seen: Seen7, lang: str) -> Seen:
    return _lengths(seen, LONG, False, lang)


def _merge_refused(seen: Seen7, lang: str) -> Seen:
    answer = seen.answers["merge"]
    return Seen(answer[0] is False, tr("merge_pr of !485: {seen}.", lang, seen=answer[1]))


def _through_gate(seen: Seen7, lang: str) -> Seen:
    gated = seen.gated
    if gated is None:
        return Seen(None, tr("needs a policy that asks for post_comment and an approver that answers with a "
                             "Verdict.", lang))
    if gated.failure:
        return Seen(False, tr("the review failed: {error}", lang, error=short(gated.failure, 160)))
    if gated.entry is None:
        return Seen(False, tr("the model did not call post_comment, so the gate was never asked.", lang))
    body = str(gated.entry["input"].get("body", ""))
    right = gated.entry["decision"] == ("approved" if len(body) < 2000 else "denied")
    return Seen(right and gated.entry["by"] in seen.deciders() and gated.finished,
                tr("the audit log has post_comment ({length} characters): {decision} by {by}.", lang,
                   length=len(body), decision=gated.entry["decision"], by=gated.entry["by"]))


POLICY_HINT = N_("Start from Policy({\"post_comment\": Decision.ASK}): a tool not named keeps the decision of its "
                 "risk (read-only and writing tools run, dangerous ones ask).")
APPROVER_HINT = N_("def approver(request): return Verdict(request.tool == \"post_comment\" and "
                   "len(request.input.get(\"body\", \"\")) < 2000, by=\"comment-length rule\")")
POLICY = (
    Requirement("post_comment_asks", N_("The policy asks before post_comment"), _post_comment_asks, POLICY_HINT),
    Requirement("merge_pr_asks", N_("The policy still asks (or denies) before merge_pr"), _merge_pr_asks,
                N_("Asking for post_comment must not open merge_pr: keep it ASK (its default) or DENY.")),
    Requirement("reads_allowed", N_("The policy lets get_diff and read_file run without asking"), _reads_allowed,
                N_("Reading is harmless: asking a human before every get_diff or read_file only teaches them to "
                   "click yes without looking.")),
)
APPROVER = (
    Requirement("short_comment_approved", N_("The approver approves a comment shorter than 2000 characters"),
                _short_approved,
                N_("The approver must answer with Verdict(True, by=...) for a post_comment whose "
                   "request.input[\"body\"] is shorter than 2000 characters.")),
    Requirement("long_comment_refused", N_("The approver denies a comment of 2000 characters or more"),
                _long_refused,
                N_("\"Shorter than 2000\" means len(body) < 2000: a body of exactly 2000 characters is denied "
                   "too, with Verdict(False, ...).")),
    Requirement("merge_refused", N_("The approver denies merge_pr"), _merge_refused,
                N_("The approver is asked for every tool the policy marks ASK, merge_pr included: approve only "
                   "what you mean to (check request.tool), deny the rest.")),
)
GATE = Requirement("review_through_gate", N_("A review of !482 that posts its comment goes through your gate"),
                   _through_gate,
                   N_("Build the toolbox as in this notebook: Toolbox(gitlab_tools.tools(), gate=SafetyGate(policy, "
                      "approver, audit)), and give every Verdict a `by` that names your approver."))

WHAT = N_("`policy` and `approver` are not written yet. Write both and run this cell again.")


_LOOP = object()
"""check_exercise_7(loop): the exercise on the learner's own loop (exercise_7_gate.py)."""


def check_exercise_7(policy: Any, approver: Any = _LOOP, language: str | None = None) -> Report:
    """Notebook 7: the gate in your own loop, check_exercise_7(review_with_gate); or the course's SafetyGate
    configured, check_exercise_7(policy, approver): each on its own and then together on a real review."""
    if approver is _LOOP:
        return check_gate_loop(policy, language)
    from course_agent.gitlab import GitLabTools
    from course_agent.safety import ApprovalRequest, Decision, Policy
    from course_agent.tools import Risk
    from course_sandbox import Sandbox

    g = Grade(7, language, (*POLICY, *APPROVER, GATE))
    lang = g.lang
    probe = ApprovalRequest("post_comment", {"pr": REVIEWED, "body": "Looks good."}, Risk.WRITES)
    if is_placeholder(policy) and (is_placeholder(approver) or _unwritten(approver, probe)):
        return g.not_done(WHAT)
    if isinstance(policy, Mapping):  # {"post_comment": Decision.ASK}: the overrides of a Policy
        policy = Policy({name: Decision(getattr(d, "value", d)) for name, d in policy.items()})
    is_policy, is_approver = policy is not None and hasattr(policy, "decide"), callable(approver)

    with Sandbox() as sb:
        tools = {t.name: t for t in GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project).tools()}
        decisions = {name: _decision(policy, tools[name]) for name in ("post_comment", "merge_pr", *READS)} \
            if is_policy else {}
        answers = _ask(approver, lang) if is_approver else {}
        seen = Seen7(decisions, answers, None)
        works = (is_policy and _post_comment_asks(seen, lang).ok and _merge_pr_asks(seen, lang).ok
                 and is_approver and all(a[0] is not None for a in answers.values()))
        if works:
            seen = Seen7(decisions, answers, _gated_review(sb, list(tools.values()), policy, approver, lang))

    if is_policy:
        g.run(POLICY, seen)
    else:
        g.all_broken(POLICY, tr("expected a Policy (something with decide(tool)), got {kind}.", lang,
                                kind=kind(policy)), POLICY_HINT)
    if is_approver:
        g.run(APPROVER, seen)
    else:
        g.all_broken(APPROVER, tr("expected a function approver(request) -> Verdict, got {kind}.", lang,
                                  kind=kind(approver)), APPROVER_HINT)
    g.run([GATE], seen)
    return g.report(tr("Comments now wait for your rule, merges still wait for a human, and the audit log says who "
                       "decided.", lang))
