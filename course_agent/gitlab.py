"""The reviewer's GitLab tools, on python-gitlab: get_diff, read_file, post_comment, comment_on_line, merge_pr.

The same code works against the sandbox's demo GitLab and gitlab.com; only GITLAB_URL,
GITLAB_TOKEN and GITLAB_PROJECT change. Every GitLab failure becomes a ToolError with a
message the model can act on (and a person can read), never a traceback. Notes are written
through publish.ReviewPublisher: with `idempotent=True` (`course-agent review --post`) a second
run edits its own earlier review instead of adding another.
"""

import functools
from collections.abc import Callable

import gitlab
import requests

from .client import gitlab_settings
from .i18n import tr
from .publish import Posted, ReviewPublisher, change_of, diff_new_lines, inline_key
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


def _outside_the_diff(path: str, line: int, change: dict | None) -> Callable[[str], str]:
    """GitLab's 400 for an inline comment, said so that the model knows what to do instead."""
    return lambda why: (f"line {line} of {path} is not part of this merge request's diff (GitLab answered 400: "
                        f"{why}). Comment only on a line the diff adds or changes (a + line; count lines in the new "
                        f"file, from the hunk header's +start; {_commentable(path, change)}), or put this finding "
                        "in the summary (post_comment) instead.")


def _commentable(path: str, change: dict | None) -> str:
    """Which lines of `path` an inline comment may name: "lines 3-9 and 22-25 of shop/cart.py are in the diff"."""
    if change is None:
        return f"{path} is not among the files this merge request changes"
    spans = [str(a) if a == b else f"{a}\u2013{b}" for a, b in diff_new_lines(change.get("diff") or "")]
    if not spans:
        return f"no line of {path} is in the diff"
    listed = spans[0] if len(spans) == 1 else ", ".join(spans[:-1]) + " and " + spans[-1]
    return f"lines {listed} of {path} are in the diff"


class GitLabTools:
    """The five tools, bound to one project (a tool that acts on a merge request names it: see comment_on_line).

    With `idempotent=True` post_comment and comment_on_line update the review this token posted
    before (found by a hidden marker) instead of adding a second one; call `finish_review(pr)`
    after the run to remove the inline comments the new review no longer makes."""

    def __init__(self, url: str | None = None, token: str | None = None, project: str | None = None,
                 timeout: float = TIMEOUT_SECONDS, *, idempotent: bool = False) -> None:
        if url is None or token is None or project is None:
            url, token, project = gitlab_settings()
        register_secret(token)
        self.project_path = project
        self.timeout = timeout
        self._gl = gitlab.Gitlab(url, private_token=token, timeout=timeout)
        self.publisher = ReviewPublisher(self._gl, idempotent)
        self._changes_seen: dict[tuple, dict] = {}

    def _call(self, what: str, action: Callable, hints: dict[int, Callable[[str], str]] | None = None):
        """Run a python-gitlab call; turn every failure into a ToolError that says what happened."""
        try:
            return action()
        except gitlab.GitlabError as error:
            code = error.response_code or 0
            if hints and code in hints:
                raise ToolError(f"{what}: {hints[code](error.error_message)}") from None
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

    def _changes(self, mr) -> dict:
        """`mr.changes()`, fetched once per version of the diff (its diff_refs): get_diff and every
        comment_on_line of the review share it."""
        refs = getattr(mr, "diff_refs", None) or {}
        version = (mr.iid, refs.get("base_sha"), refs.get("start_sha"), refs.get("head_sha"))
        if version in self._changes_seen:
            return self._changes_seen[version]
        changes = self._call(f"changes of !{mr.iid}", mr.changes)
        if refs.get("head_sha"):
            self._changes_seen[version] = changes
        return changes

    def get_diff(self, pr: int) -> str:
        mr = self._mr(pr)
        changes = self._changes(mr)
        # The labels stay English in both languages: they are what the model reads (the sandbox's model finds the
        # title by "Title:"), the English twin's model reads the same text, and GitLab's state ("opened") is data.
        # The notes in parentheses are sentences, in the learner's language as the notebooks' own get_diff writes
        # them (docs/glossary.ru.md).
        lines = [f"Title: {mr.title}", f"Author: {mr.author['username']}",
                 f"source_branch: {mr.source_branch} -> target_branch: {mr.target_branch}", f"State: {mr.state}",
                 "Description:", mr.description or tr("(none)"), ""]
        for change in changes["changes"]:
            lines.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
            if change.get("new_file"):
                lines.append(tr("(new file)"))
            if change.get("deleted_file"):
                lines.append(tr("(deleted file)"))
            if change.get("too_large") or change.get("collapsed") or not change.get("diff"):
                lines.append(tr("(diff not shown: too large or collapsed by GitLab; call read_file with path={path} "
                                "and ref={ref} to see the file)", path=repr(change["new_path"]),
                                ref=repr(mr.source_branch)))
            else:
                lines.append(change["diff"].rstrip("\n"))
        if changes.get("overflow"):
            lines.append(tr("(GitLab left out some files: the change is larger than its limits)"))
        return "\n".join(lines)

    def read_file(self, path: str, ref: str = "main") -> str:
        raw = self._call(f"file {path} at {ref}", lambda: self.project.files.raw(path, ref=ref))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return f"(binary file, {len(raw)} bytes)"

    def post_comment(self, pr: int, body: str) -> str:
        mr = self._mr(pr)
        posted = self._call(f"comment on !{pr}", lambda: self.publisher.summary(mr, body))
        return _said(posted, f"Comment {posted.note_id} posted on !{pr}.",
                     f"review comment {posted.note_id} on !{pr}")

    def comment_on_line(self, pr: int, path: str, line: int, body: str) -> str:
        """An inline comment: a GitLab discussion positioned on `line` of `path` (the new file's numbering).

        It names the merge request, like the other four tools, rather than being bound to one: the
        model says where each comment goes (the transcript shows it), and one GitLabTools serves
        every review of a run (`--all-open` shares it between merge requests). The policy, not the
        tool, decides whether it may write at all (only with --post)."""
        mr = self._mr(pr)
        if not getattr(mr, "diff_refs", None):
            raise ToolError(f"inline comment on !{pr}: GitLab gave no diff_refs for this merge request, so a line "
                            "cannot be pointed at; put the finding in the summary (post_comment) instead.")
        changes = self._changes(mr)["changes"]
        posted = self._call(f"inline comment on {path}:{line} of !{pr}",
                            lambda: self.publisher.inline(mr, path, line, body, changes),
                            {400: _outside_the_diff(path, line, change_of(changes, path))})
        return _said(posted, f"Inline comment {posted.note_id} posted on {path}:{line} of !{pr}.",
                     f"inline comment {posted.note_id} on {path}:{line} of !{pr}")

    def open_merge_requests(self) -> list[int]:
        """The numbers of the project's open merge requests, lowest first (`review --all-open`)."""
        found = self._call("open merge requests", lambda: self.project.mergerequests.list(state="opened", get_all=True))
        return sorted(mr.iid for mr in found)

    def remember(self, tool: str, tool_input: dict, succeeded: bool) -> None:
        """A write an earlier process made for this review (a resumed batch run reads it from the
        transcript): an inline comment's place is one the review reports, so that finish_review() keeps
        it; a summary that was posted lets finish_review() clean up as if this process had posted it."""
        if not self.publisher.idempotent:
            return
        try:
            pr = int(tool_input["pr"])
            if tool == "comment_on_line":
                self.publisher.reported.setdefault(pr, set()).add(inline_key(str(tool_input["path"]),
                                                                             int(tool_input["line"])))
            elif tool == "post_comment" and succeeded:
                self.publisher.summarized.add(pr)
        except (KeyError, TypeError, ValueError):
            pass  # a call the model got wrong wrote nothing

    def finish_review(self, pr: int) -> list[str]:
        """After a run that posted its review on !pr: remove our own earlier inline comments it no longer
        makes (see publish.ReviewPublisher.finish). Returns their places; [] when nothing was posted."""
        if pr not in self.publisher.summarized:
            return []
        mr = self._mr(pr)
        return self._call(f"cleaning up earlier inline comments on !{pr}", lambda: self.publisher.finish(mr))

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
            Tool("comment_on_line",
                 "Comment on one line of a merge request's diff, as a reviewer does inline: `line` is the line's "
                 "number in the new version of `path`, on a line the diff adds or changes. Use it for each finding "
                 "that belongs to a changed line, then post the summary with post_comment.",
                 {"type": "object", "properties": {
                     "pr": number,
                     "path": {"type": "string", "minLength": 1,
                              "description": "The file's path in the diff (new path)."},
                     "line": {"type": "integer", "minimum": 1, "description": "Line number in the new file."},
                     "body": {"type": "string", "minLength": 1, "description": "The comment, in Markdown."}},
                  "required": ["pr", "path", "line", "body"], "additionalProperties": False},
                 self.comment_on_line, Risk.WRITES),
            Tool("merge_pr", "Merge a merge request into its target branch.",
                 {"type": "object", "properties": {"pr": number}, "required": ["pr"], "additionalProperties": False},
                 self.merge_pr, Risk.DANGEROUS),
        ]


def _said(posted: Posted, created: str, what: str) -> str:
    """The tool's answer: created, or what happened to our earlier note of the same place."""
    if posted.action == "updated":
        return f"Updated the earlier {what} (a re-run edits its own review instead of adding another)."
    if posted.action == "unchanged":
        return f"The earlier {what} already says this; left as it is."
    return created
