"""The reviewer's GitLab tools, on python-gitlab: get_diff, read_file, post_comment, merge_pr.

The same code works against the sandbox's demo GitLab and gitlab.com; only GITLAB_URL,
GITLAB_TOKEN and GITLAB_PROJECT change. Every GitLab failure becomes a ToolError with a
message the model can act on (and a person can read), never a traceback.
"""

import functools
from collections.abc import Callable

import gitlab
import requests

from .client import gitlab_settings
from .redaction import register_secret
from .tools import Risk, Tool, ToolError

TIMEOUT_SECONDS = 15

_STATUS_HINTS = {
    401: "GitLab rejected the token (401 Unauthorized): check GITLAB_TOKEN.",
    403: "GitLab says this token may not do that (403 Forbidden).",
    405: "GitLab refused (405 Method Not Allowed): the merge request is a draft, closed or already merged.",
    409: "GitLab refused (409 Conflict): the branch moved; fetch the diff again.",
    422: "GitLab refused (422): the branch cannot be merged, e.g. because of conflicts.",
    429: "GitLab is rate-limiting us (429 Too Many Requests) even after retries; try again later.",
}


class GitLabTools:
    """The four tools, bound to one project."""

    def __init__(self, url: str | None = None, token: str | None = None, project: str | None = None,
                 timeout: float = TIMEOUT_SECONDS) -> None:
        if url is None or token is None or project is None:
            url, token, project = gitlab_settings()
        register_secret(token)
        self.project_path = project
        self.timeout = timeout
        self._gl = gitlab.Gitlab(url, private_token=token, timeout=timeout)

    def _call(self, what: str, action: Callable):
        """Run a python-gitlab call; turn every failure into a ToolError that says what happened."""
        try:
            return action()
        except gitlab.GitlabError as error:
            code = error.response_code or 0
            if code == 404:
                raise ToolError(f"{what}: not found (404: {error.error_message}).") from None
            hint = _STATUS_HINTS.get(code) or (
                f"GitLab failed ({code}): {error.error_message}. It may be temporary." if code >= 500
                else f"GitLab error {code}: {error.error_message}")
            raise ToolError(f"{what}: {hint}") from None
        except requests.Timeout:
            raise ToolError(f"{what}: GitLab did not answer within {self.timeout:g} s.") from None
        except requests.ConnectionError:
            raise ToolError(f"{what}: cannot connect to GitLab (is GITLAB_URL right and the server up?).") from None

    @functools.cached_property
    def project(self):
        return self._call(f"project {self.project_path}", lambda: self._gl.projects.get(self.project_path))

    def _mr(self, pr: int):
        return self._call(f"merge request !{pr}", lambda: self.project.mergerequests.get(pr))

    def get_diff(self, pr: int) -> str:
        mr = self._mr(pr)
        changes = self._call(f"changes of !{pr}", mr.changes)
        lines = [f"Title: {mr.title}", f"Author: {mr.author['username']}",
                 f"source_branch: {mr.source_branch} -> target_branch: {mr.target_branch}", f"State: {mr.state}",
                 "Description:", mr.description or "(none)", ""]
        for change in changes["changes"]:
            lines.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
            if change.get("new_file"):
                lines.append("(new file)")
            if change.get("deleted_file"):
                lines.append("(deleted file)")
            if change.get("too_large") or change.get("collapsed") or not change.get("diff"):
                lines.append(f"(diff not shown: too large or collapsed by GitLab; call read_file with "
                             f"path={change['new_path']!r} and ref={mr.source_branch!r} to see the file)")
            else:
                lines.append(change["diff"].rstrip("\n"))
        if changes.get("overflow"):
            lines.append("(GitLab left out some files: the change is larger than its limits)")
        return "\n".join(lines)

    def read_file(self, path: str, ref: str = "main") -> str:
        raw = self._call(f"file {path} at {ref}", lambda: self.project.files.raw(path, ref=ref))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return f"(binary file, {len(raw)} bytes)"

    def post_comment(self, pr: int, body: str) -> str:
        note = self._call(f"comment on !{pr}", lambda: self._mr(pr).notes.create({"body": body}))
        return f"Comment {note.id} posted on !{pr}."

    def merge_pr(self, pr: int) -> str:
        result = self._call(f"merge of !{pr}", lambda: self._mr(pr).merge())
        return f"Merged !{pr} into {result.get('target_branch', 'main')} as {result.get('merge_commit_sha')}."

    def tools(self) -> list[Tool]:
        number = {"type": "integer", "minimum": 1, "description": "The merge request's number (iid), e.g. 482."}
        return [
            Tool("get_diff", "Get the changes of a merge request: title, description, source branch and the "
                             "unified diff of every changed file.",
                 {"type": "object", "properties": {"pr": number}, "required": ["pr"], "additionalProperties": False},
                 self.get_diff, Risk.READ_ONLY),
            Tool("read_file", "Read a whole file from the repository at a branch or commit, for context around "
                              "a change (callers, definitions, files too large to diff).",
                 {"type": "object", "properties": {
                     "path": {"type": "string", "minLength": 1, "description": "Path from the repository root."},
                     "ref": {"type": "string", "minLength": 1, "description": "Branch or commit; default main."}},
                  "required": ["path"], "additionalProperties": False},
                 self.read_file, Risk.READ_ONLY),
            Tool("post_comment", "Post a comment (note) on a merge request, e.g. the finished review.",
                 {"type": "object", "properties": {"pr": number, "body": {"type": "string", "minLength": 1}},
                  "required": ["pr", "body"], "additionalProperties": False},
                 self.post_comment, Risk.WRITES),
            Tool("merge_pr", "Merge a merge request into its target branch.",
                 {"type": "object", "properties": {"pr": number}, "required": ["pr"], "additionalProperties": False},
                 self.merge_pr, Risk.DANGEROUS),
        ]
