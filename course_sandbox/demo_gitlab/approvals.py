"""Merge request approvals (docs.gitlab.com/api/merge_request_approvals/), as GitLab answers:
one approval is required; approving needs the MR open and not approved by you yet (GitLab
answers `401 Unauthorized` otherwise, `unauthorized! unless success` in
lib/api/merge_request_approvals.rb), a `sha` that is not the head is `409`, and unapproving
what you never approved is `404 Not found`."""

from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import GitLabError, not_found
from .users import user

APPROVALS_REQUIRED = 1
UNAUTHORIZED = {"message": "401 Unauthorized"}


@dataclass
class Approvals:
    by: list[tuple[str, str]] = field(default_factory=list)
    """(username, approved_at), in the order they approved."""

    def has(self, username: str) -> bool:
        return any(name == username for name, _ in self.by)

    def approve(self, username: str, clock: Callable[[], str], open_: bool) -> None:
        """Stamped by `clock` once accepted: a refused approval moves no time."""
        if not open_ or self.has(username):
            raise GitLabError(401, UNAUTHORIZED)
        self.by.append((username, clock()))

    def unapprove(self, username: str) -> None:
        if not self.has(username):
            raise not_found()
        self.by = [(name, at) for name, at in self.by if name != username]

    @property
    def left(self) -> int:
        return max(0, APPROVALS_REQUIRED - len(self.by))


def approvals_view(mr_view: dict, approvals: Approvals, current_user: str, author: str) -> dict:
    """GitLab's MergeRequestApprovals entity (with the EE fields a bot reads: required, left)."""
    keys = ("id", "iid", "project_id", "title", "description", "state", "created_at", "updated_at",
            "merge_status")
    can_approve = mr_view["state"] == "opened" and not approvals.has(current_user) and current_user != author
    return {
        **{key: mr_view[key] for key in keys},
        "approved": approvals.left == 0, "approvals_required": APPROVALS_REQUIRED, "approvals_left": approvals.left,
        "require_password_to_approve": False,
        "approved_by": [{"user": user(name)} for name, _ in approvals.by],
        "suggested_approvers": [], "approvers": [], "approver_groups": [],
        "user_has_approved": approvals.has(current_user), "user_can_approve": can_approve,
        "approval_rules_left": [] if approvals.left == 0 else [_rule_summary()],
        "has_approval_rules": True, "merge_request_approvers_available": True,
        "multiple_approval_rules_available": False, "invalid_approvers_rules": [],
    }


def _rule_summary() -> dict:
    return {"id": 1, "name": "All Members", "rule_type": "any_approver"}


def approval_state_view(approvals: Approvals) -> dict:
    """GET .../approval_state: the one 'All Members' rule and who approved."""
    return {
        "approval_rules_overwritten": False,
        "rules": [{**_rule_summary(), "eligible_approvers": [], "approvals_required": APPROVALS_REQUIRED,
                   "users": [], "groups": [], "contains_hidden_groups": False,
                   "approved_by": [user(name) for name, _ in approvals.by], "source_rule": None,
                   "approved": approvals.left == 0, "overridden": False, "section": None}],
    }
