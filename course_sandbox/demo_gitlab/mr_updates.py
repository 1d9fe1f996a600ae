"""Editing a merge request (PUT /projects/:id/merge_requests/:iid): title, description, labels
(replace, add, remove) and state_event close/reopen, with GitLab's parameter errors."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import GitLabError, invalid
from .params import boolean

if TYPE_CHECKING:  # project.py imports this module
    from .project import MergeRequest

UPDATE_PARAMS = (
    "assignee_id", "assignee_ids", "reviewer_ids", "description", "labels", "add_labels", "remove_labels",
    "milestone_id", "milestone", "remove_source_branch", "allow_collaboration", "allow_maintainer_to_push",
    "squash", "target_branch", "title", "state_event", "discussion_locked", "merge_after",
)
"""GitLab's `update_params_at_least_one_of` (lib/api/merge_requests.rb): at least one is required."""


def label_list(value: object, name: str = "labels") -> list[str]:
    """Labels as a comma-separated string or a list of names (GitLab accepts both)."""
    if value is None:
        return []
    if isinstance(value, str):
        parts = value.split(",")
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = [part for v in value for part in v.split(",")]
    else:
        raise invalid(name)
    labels: list[str] = []
    for part in (p.strip() for p in parts):
        if part and part not in labels:
            labels.append(part)
    return labels


def _text(params: dict, name: str) -> str | None:
    value = params.get(name)
    if value is not None and not isinstance(value, str):
        raise invalid(name)
    return value


def apply_update(mr: "MergeRequest", params: dict, clock: Callable[[], str]) -> str:
    """Changes the merge request in place and returns when (the clock is read only once every
    parameter passed, so a refused request moves no time); refuses a request that changes nothing
    GitLab knows."""
    if not any(params.get(name) is not None for name in UPDATE_PARAMS):
        raise invalid(", ".join(UPDATE_PARAMS), "are missing, at least one parameter must be provided")
    state_event = params.get("state_event")
    if state_event is not None and state_event not in ("close", "reopen"):
        raise invalid("state_event", "does not have a valid value")
    title, description = _text(params, "title"), _text(params, "description")
    if title is not None and not title.strip():
        raise GitLabError(400, {"message": {"title": ["can't be blank"]}})
    labels = label_list(params["labels"]) if "labels" in params and params["labels"] is not None else None
    add, remove = label_list(params.get("add_labels"), "add_labels"), label_list(params.get("remove_labels"),
                                                                                    "remove_labels")
    remove_source, squash = boolean(params.get("remove_source_branch"), "remove_source_branch"), boolean(
        params.get("squash"), "squash")
    if title is not None:
        mr.title = title
    if description is not None:
        mr.description = description
    if labels is not None:
        mr.labels = labels
    mr.labels = [label for label in mr.labels if label not in remove] + [
        label for label in add if label not in mr.labels and label not in remove]
    if remove_source is not None:  # the MR's own "delete the source branch when merged"
        mr.force_remove_source_branch = remove_source
    if squash is not None:
        mr.squash = squash
    if state_event == "close" and mr.state == "opened":
        mr.state = "closed"
    elif state_event == "reopen" and mr.state == "closed":
        mr.state = "opened"
    mr.updated_at = now = clock()
    return now


def has_labels(mr: "MergeRequest", wanted: str) -> bool:
    """The `labels` filter of GET merge_requests: all of them, or `None` / `Any`."""
    if wanted.strip().lower() == "none":
        return not mr.labels
    if wanted.strip().lower() == "any":
        return bool(mr.labels)
    return all(label in mr.labels for label in label_list(wanted))
