"""The demo GitLab's state: project course/shop, its merge requests and their notes, over a
real git repository. The JSON views follow GitLab's REST API v4."""

import base64
import hashlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .approvals import Approvals, approvals_view
from .award_emoji import Awards
from .clock import Clock
from .discussions import Discussion, Note, NoteStore
from .errors import GitLabError, bad_request, not_found
from .labels import ProjectLabels
from .mr_updates import apply_update
from .repository import GitError, MergeConflict, MergeRequestSpec, Repository, fresh_repository, merge_request_specs
from .users import CURRENT_USER, USERS, user

PROJECT_ID = 7
PROJECT_PATH = "course/shop"
TARGET_BRANCH = "main"
CREATED_AT = "2026-01-15T10:00:00.000Z"
DRAFT_TITLE = re.compile(r"^\s*(\[draft\]|\(draft\)|draft:)", re.IGNORECASE)
REBASE_LOCKED = "Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later."
WEB_URL = "https://gitlab.sandbox.invalid"
"""Where `web_url` fields point: fixed, so responses do not depend on the sandbox's port."""
__all__ = ["CURRENT_USER", "USERS", "DemoProject", "GitLabError", "MergeRequest", "not_found", "user"]


@dataclass
class MergeRequest:
    spec: MergeRequestSpec
    state: str = "opened"
    merge_commit_sha: str | None = None
    merged_base: str | None = None
    merged_head: str | None = None
    """The source branch's head when merged (the branch may be gone since)."""
    should_remove_source_branch: bool | None = None
    force_remove_source_branch: bool = False
    squash: bool = False
    squash_commit_sha: str | None = None
    merge_error: str | None = None
    has_conflicts: bool = False
    discussions: list[Discussion] = field(default_factory=list)
    approvals: Approvals = field(default_factory=Approvals)
    title: str | None = None
    description: str | None = None
    labels: list[str] = field(default_factory=list)
    updated_at: str = CREATED_AT

    def __post_init__(self) -> None:
        self.title = self.spec.title if self.title is None else self.title
        self.description = self.spec.description if self.description is None else self.description

    @property
    def draft(self) -> bool:
        """GitLab reads draft status from the title (`Draft:`, `[Draft]`, `(Draft)`)."""
        return bool(DRAFT_TITLE.match(self.title)) or (self.spec.draft and self.title == self.spec.title)

    def note_objects(self) -> list[Note]:
        """Every note of every discussion (GitLab's Notes API lists them all)."""
        return [note for discussion in self.discussions for note in discussion.notes]

    @property
    def notes(self) -> list[dict]:
        """The notes as the API shows them, oldest first (for tests and instructors' checks)."""
        notes = sorted(self.note_objects(), key=lambda note: (note.created_at, note.id))
        return [note.view(PROJECT_ID, self.spec.iid) for note in notes]


class DemoProject:
    def __init__(self, workdir: Path, web_url: str = WEB_URL) -> None:
        self.repository: Repository = fresh_repository(workdir)
        self.web_url = web_url.rstrip("/")
        self.merge_requests = {spec.iid: MergeRequest(spec) for spec in merge_request_specs()}
        self._lock = threading.Lock()
        self.clock = Clock()
        self.notes = NoteStore(self.clock)
        self.labels = ProjectLabels()
        self.awards = Awards()
        self.commit_discussions: dict[str, list[Discussion]] = {}
        """Comments and threads on commits, by commit id."""

    def view(self) -> dict:
        return {
            "id": PROJECT_ID, "name": "shop", "path": "shop", "path_with_namespace": PROJECT_PATH,
            "name_with_namespace": "course / shop", "default_branch": TARGET_BRANCH, "visibility": "private",
            "web_url": f"{self.web_url}/{PROJECT_PATH}", "created_at": CREATED_AT,
            "namespace": {"id": 3, "name": "course", "path": "course", "kind": "group", "full_path": "course"},
        }

    def get(self, iid: int) -> MergeRequest:
        if iid not in self.merge_requests:
            raise not_found()
        return self.merge_requests[iid]

    def base(self, mr: MergeRequest) -> str:
        """Where the diff starts: the merge base, or after a merge the base it was merged from."""
        return mr.merged_base or self.repository.merge_base(TARGET_BRANCH, mr.spec.source_branch)

    def head(self, mr: MergeRequest) -> str | None:
        """Where the diff ends: the source branch, or after a merge the head it was merged from."""
        return mr.merged_head or self.repository.sha(mr.spec.source_branch)

    def diff_refs(self, mr: MergeRequest) -> dict:
        """The shas a position must name (the merge request's one diff version)."""
        base = self.base(mr)
        return {"base_sha": base, "head_sha": self.head(mr), "start_sha": base}

    def changes(self, mr: MergeRequest) -> list[dict]:
        """The merge request's diff entries (after a merge: still from the base it was merged from)."""
        return self.repository.changes(self.base(mr), self.head(mr))

    def mr_view(self, mr: MergeRequest) -> dict:
        spec = mr.spec
        head = self.head(mr)
        base = self.base(mr)
        if mr.state != "opened":
            status = "not_open"
        elif mr.draft:
            status = "draft_status"
        else:
            status = "conflict" if mr.has_conflicts else "mergeable"
        return {
            "id": 1000 + spec.iid, "iid": spec.iid, "project_id": PROJECT_ID, "title": mr.title,
            "description": mr.description, "state": mr.state, "draft": mr.draft,
            "work_in_progress": mr.draft, "created_at": CREATED_AT, "updated_at": mr.updated_at,
            "merged_at": CREATED_AT if mr.state == "merged" else None,
            "target_branch": TARGET_BRANCH, "source_branch": spec.source_branch,
            "source_project_id": PROJECT_ID, "target_project_id": PROJECT_ID,
            "author": user(spec.author), "sha": head, "merge_commit_sha": mr.merge_commit_sha,
            "merge_status": "can_be_merged" if status == "mergeable" else "cannot_be_merged",
            "detailed_merge_status": status, "has_conflicts": mr.has_conflicts,
            "diff_refs": {"base_sha": base, "head_sha": head, "start_sha": base},
            "user_notes_count": len(mr.note_objects()), "labels": sorted(mr.labels),
            "web_url": f"{self.web_url}/{PROJECT_PATH}/-/merge_requests/{spec.iid}",
            # the rest of Entities::MergeRequestBasic, as GitLab sends it for an MR nobody assigned
            "merged_by": user(CURRENT_USER) if mr.state == "merged" else None,
            "merge_user": user(CURRENT_USER) if mr.state == "merged" else None,
            "assignee": None, "assignees": [], "reviewers": [], "milestone": None,
            "upvotes": self._votes(mr, "thumbsup"), "downvotes": self._votes(mr, "thumbsdown"),
            "merge_when_pipeline_succeeds": False, "squash_commit_sha": mr.squash_commit_sha,
            "discussion_locked": None, "should_remove_source_branch": mr.should_remove_source_branch,
            "force_remove_source_branch": mr.force_remove_source_branch, "squash": mr.squash,
            "squash_on_merge": mr.squash,
            "reference": f"!{spec.iid}", "references": {"short": f"!{spec.iid}", "relative": f"!{spec.iid}",
                                                        "full": f"{PROJECT_PATH}!{spec.iid}"},
            "task_completion_status": {"count": 0, "completed_count": 0},
            "blocking_discussions_resolved": True, "imported": False, "imported_from": "none",
        }

    def mr_detail_view(self, mr: MergeRequest) -> dict:
        """GET .../merge_requests/:iid: Entities::MergeRequest adds these to the basic view (no CI here)."""
        return {**self.mr_view(mr), "subscribed": False, "changes_count": str(len(self.changes(mr))),
                "latest_build_started_at": None, "latest_build_finished_at": None,
                "first_deployed_to_production_at": None, "pipeline": None, "head_pipeline": None,
                "merge_error": mr.merge_error, "user": {"can_merge": True}}  # the token's user may push to main

    def _votes(self, mr: MergeRequest, name: str) -> int:
        return sum(1 for award in self.awards.of("MergeRequest", 1000 + mr.spec.iid) if award.name == name)

    def changes_view(self, mr: MergeRequest) -> dict:
        changes = self.changes(mr)
        return {**self.mr_detail_view(mr), "changes": changes, "overflow": False}

    def file_view(self, path: str, ref: str) -> dict:
        """A file and its metadata, as GET /repository/files/:path gives it (content base64)."""
        content, commit = self._blob(path, ref)
        return {
            "file_name": path.rsplit("/", 1)[-1], "file_path": path, "size": len(content), "encoding": "base64",
            "content_sha256": hashlib.sha256(content).hexdigest(), "ref": ref,
            "blob_id": self.repository.blob_id(commit, path), "commit_id": commit,
            "last_commit_id": (self.repository.log(commit, path) or [commit])[0],
            "execute_filemode": False, "content": base64.b64encode(content).decode("ascii"),
        }

    def raw_file(self, path: str, ref: str) -> bytes:
        return self._blob(path, ref)[0]

    def _blob(self, path: str, ref: str) -> tuple[bytes, str]:
        """GitLab's `assign_file_vars!`: an unknown ref is `404 Commit Not Found`, then the file."""
        commit = self.repository.sha(ref)
        if commit is None:
            raise not_found("Commit Not Found")
        content = self.repository.read(commit, path)
        if content is None:
            raise not_found("File Not Found")
        return content, commit

    def add_note(self, mr: MergeRequest, body: str, author: str = CURRENT_USER) -> dict:
        """A plain comment (Notes API): an individual-note discussion of one note."""
        discussion = self.notes.start(mr.discussions, body, author, individual=True)
        return discussion.notes[0].view(PROJECT_ID, mr.spec.iid)

    def update(self, mr: MergeRequest, params: dict) -> dict:
        with self._lock:
            before = list(mr.labels)
            now = apply_update(mr, params, self.clock.tick)
            self.labels.record(mr.spec.iid, before, mr.labels, CURRENT_USER, now)
        return self.mr_view(mr)

    def approve(self, mr: MergeRequest, sha: object, username: str = CURRENT_USER) -> dict:
        if sha is not None and not isinstance(sha, str):
            raise GitLabError(400, {"error": "sha is invalid"})
        with self._lock:
            head = self.repository.sha(mr.spec.source_branch)
            if sha and sha != head:
                raise GitLabError(409, {"message": f"SHA does not match HEAD of source branch: {head}"})
            mr.approvals.approve(username, self.clock.tick, mr.state == "opened" and username != mr.spec.author)
        return self.approvals_view(mr)

    def unapprove(self, mr: MergeRequest, username: str = CURRENT_USER) -> dict:
        with self._lock:
            mr.approvals.unapprove(username)
        return self.approvals_view(mr)

    def approvals_view(self, mr: MergeRequest) -> dict:
        return approvals_view(self.mr_view(mr), mr.approvals, CURRENT_USER, mr.spec.author)

    def merge(self, mr: MergeRequest, sha: object, message: object, *, remove_source: bool | None = None,
              squash: bool | None = None, squash_message: object = None) -> dict:
        """Merge for real (squashed first if asked, or if the MR says so; the source branch deleted if
        `remove_source`, else if the MR's `force_remove_source_branch` says so, as GitLab's MergeService);
        a refused or failed merge leaves the repository and the MR as they were."""
        for name, value in (("merge_commit_message", message), ("squash_commit_message", squash_message)):
            if value is not None and (not isinstance(value, str) or "\x00" in value):
                raise GitLabError(400, {"error": f"{name} is invalid"})
        if sha is not None and not isinstance(sha, str):
            raise GitLabError(400, {"error": "sha is invalid"})
        with self._lock:
            if mr.state != "opened" or mr.draft:
                raise GitLabError(405, {"message": "405 Method Not Allowed"})
            head = self.repository.sha(mr.spec.source_branch)
            if sha is not None and sha != head:
                raise GitLabError(409, {"message": f"SHA does not match HEAD of source branch: {head}"})
            base = self.base(mr)
            squash = mr.squash if squash is None else squash
            try:
                commit, squashed = self.repository.merge_squashed(mr.spec.source_branch, TARGET_BRANCH,
                                                                  message or self._merge_message(mr),
                                                                  (squash_message or mr.title) if squash else None)
            except MergeConflict:  # GitLab checks mergeability first: a conflicting MR is not allowed (405)
                mr.has_conflicts = True
                raise GitLabError(405, {"message": "405 Method Not Allowed"}) from None
            except GitError:
                raise GitLabError(422, {"message": "Branch cannot be merged"}) from None
            mr.state, mr.merge_commit_sha, mr.merged_base, mr.merged_head = "merged", commit, base, head
            mr.squash, mr.squash_commit_sha = squash, squashed
            if remove_source is not None:
                mr.should_remove_source_branch = remove_source
            if (mr.force_remove_source_branch if remove_source is None else remove_source):
                self.repository.delete_branch(mr.spec.source_branch)
        return self.mr_view(mr)

    @staticmethod
    def _merge_message(mr: MergeRequest) -> str:
        """GitLab's default merge commit message."""
        return (f"Merge branch '{mr.spec.source_branch}' into '{TARGET_BRANCH}'\n\n{mr.title}\n\n"
                f"See merge request {PROJECT_PATH}!{mr.spec.iid}")

    def merge_ref(self, mr: MergeRequest) -> str:
        """GET .../merge_ref: the merge commit GitLab would make, kept in refs/merge-requests/:iid/merge; a
        merge request that cannot be merged is 400 (MergeabilityCheckService)."""
        with self._lock:
            if mr.state == "opened" and not mr.has_conflicts:
                try:
                    return self.repository.write_merge_ref(mr.spec.source_branch, TARGET_BRANCH,
                                                           f"refs/merge-requests/{mr.spec.iid}/merge",
                                                           self._merge_message(mr))
                except MergeConflict:
                    mr.has_conflicts = True
                except GitError:
                    pass
        raise bad_request("Merge request is not mergeable")

    def rebase(self, mr: MergeRequest) -> None:
        """PUT .../rebase, done at once: a merged or closed MR is GitLab's 409 (its rebase lock refuses it);
        a branch gone is 403; a conflict leaves the branch and sets `merge_error`, as GitLab's RebaseService."""
        with self._lock:
            if self.repository.sha(mr.spec.source_branch) is None:
                raise GitLabError(403, {"message": "403 Forbidden - Cannot push to source branch"})
            if mr.state != "opened":
                raise GitLabError(409, {"message": REBASE_LOCKED})
            try:
                self.repository.rebase(mr.spec.source_branch, TARGET_BRANCH)
            except MergeConflict:
                mr.merge_error = "Rebase failed: Rebase locally, resolve all conflicts, then push the branch."
            else:  # on main's head, it merges cleanly
                mr.merge_error, mr.has_conflicts = None, False
