"""Exercise 7's other form, kept for the tests: the gate's decision made by the course's SafetyGate, a `policy`
in which post_comment asks too, and an `approver` that answers for comments (`check_exercise_7(policy, approver)`).
Notebook 7's own exercise, the gate in the learner's loop, is cells/exercise_07.py.
"""

from course_agent.gitlab import GitLabTools
from course_agent.i18n import language as course_language
from course_agent.loop import run_agent
from course_agent.review import REVIEW_RULES
from course_agent.safety import AuditLog, Decision, Policy, SafetyGate, Verdict
from course_agent.tools import Toolbox

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
