"""Exercise 7 (notebook 7), a spoiler: the approval gate in your own loop. merge_pr runs only after a
human's yes (an approver function); a no goes back to the model as an error result, and the loop goes on.

    from course_agent.solutions.exercise_07 import review_with_gate
    check_exercise_7(review_with_gate)
    review_with_gate(485, approve=lambda name, tool_input: False)

Below it, the same decision made by the course's SafetyGate: a `policy` in which post_comment asks too,
and an `approver` that answers for comments (`check_exercise_7(policy, approver)`).
"""

from course_agent.gitlab import GitLabTools
from course_agent.i18n import language as course_language, tr
from course_agent.loop import run_agent
from course_agent.review import REVIEW_RULES
from course_agent.safety import AuditLog, Decision, Policy, SafetyGate, Verdict
from course_agent.solutions import project, run_tool
from course_agent.solutions.exercise_06 import review_every_stop
from course_agent.tools import Toolbox

DANGEROUS = {"merge_pr"}
"""The tools that ask a human first; every other tool runs at once."""


def ask_human(name: str, tool_input: dict) -> bool:
    """The approver of a notebook: a person types yes. Anything else, or no one there, is a no."""
    try:
        return input(f"{name} {tool_input}: run it? [yes/no] ").strip().lower() in ("yes", "y", "да", "д")
    except (EOFError, OSError):
        return False


def approved(approve, name: str, tool_input: dict) -> bool:
    """Only an explicit True is a yes: an approver that raises, returns None or "no", is a no."""
    try:
        return approve(name, tool_input) is True
    except Exception:  # nobody could be asked (no stdin, a closed widget): no answer is a no
        return False


def gated(approve):
    """run_tool behind the gate: a dangerous call runs only when approve(name, tool_input) says yes."""
    def run_gated(name: str, tool_input: dict) -> dict:
        if name not in DANGEROUS:
            return run_tool(name, tool_input)
        if not approved(approve, name, tool_input):
            return {"content": tr("A human refused this call: {tool} did not run. Do not try it again.", tool=name),
                    "is_error": True}
        try:
            project.mergerequests.get(tool_input["pr"]).merge()
        except Exception as error:
            return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}
        return {"content": f"merged !{tool_input['pr']}"}
    return run_gated


def review_with_gate(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    return review_every_stop(pr_number, max_iterations, run_tool=gated(approve))


# The course's SafetyGate, the same decision as a policy and an approver.
MAX_COMMENT = 2000

# post_comment asks; every other tool keeps the decision of its risk: get_diff and read_file
# run, merge_pr asks a human.
policy = Policy({"post_comment": Decision.ASK})


def approver(request) -> Verdict:
    """Approve a comment shorter than 2000 characters; refuse everything else (merge_pr included)."""
    if request.tool != "post_comment":
        return Verdict(False, "comment-length rule", f"this rule only approves comments, not {request.tool}")
    length = len(request.input.get("body", ""))
    if length < MAX_COMMENT:
        return Verdict(True, "comment-length rule", f"{length} characters")
    return Verdict(False, "comment-length rule", f"{length} characters: comments must be shorter than {MAX_COMMENT}")


def solve():
    return policy, approver


def post_review(client, gitlab_tools=None, language: str | None = None) -> AuditLog:
    """Review !482 and post the review, through a gate with this policy and approver; print the audit log."""
    gitlab_tools = gitlab_tools or GitLabTools()
    audit = AuditLog()
    toolbox = Toolbox(gitlab_tools.tools(), gate=SafetyGate(policy, approver, audit))
    task = ("Проверь merge request !482. Опубликуй ревью комментарием." if course_language(language) == "ru"
            else "Review merge request !482. Post your review as a comment.")
    result = run_agent(client, task, toolbox, system=REVIEW_RULES)
    print(result.text.splitlines()[0])
    for entry in audit.entries:
        print(entry["tool"], entry["decision"], "by", entry["by"], entry["reason"])
    return audit
