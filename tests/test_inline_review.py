"""Inline comments (comment_on_line), the policy around --post, and `course-agent review N --post`
run again and again: one summary note and one set of inline discussions, updated in place."""

import difflib
import re
from pathlib import Path

import gitlab
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_agent.cli import main
from course_agent.gitlab import GitLabTools
from course_agent.publish import (
    SUMMARY_MARKER,
    ReviewPublisher,
    diff_line_position,
    inline_key,
)
from course_agent.review import reviewer_toolbox
from course_sandbox import Sandbox
from course_agent.tools import ToolError


@pytest.fixture
def sandbox(own_shared_sandbox):
    """A sandbox of its own, used by the in-process CLI as the shared one (no state leaks between tests)."""
    return own_shared_sandbox


def tools_of(sb, **options):
    return GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project, **options)


def mr_of(sb, pr):
    return gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project).mergerequests.get(pr)


def summaries(mr):
    return [n for n in mr.notes.list(get_all=True) if SUMMARY_MARKER in n.body]


def inline(mr):
    """(path, line, first note's body) of every positioned discussion."""
    found = []
    for d in mr.discussions.list(get_all=True):
        first = d.attributes["notes"][0]
        if first.get("position"):
            found.append((first["position"]["new_path"], first["position"]["new_line"], first["body"]))
    return sorted(found)


# ---------------------------------------------------------------- the tool

def test_the_toolbox_has_five_tools_and_comment_on_line_writes():
    with Sandbox() as sb:
        tools = {t.name: t for t in tools_of(sb).tools()}
    assert list(tools) == ["get_diff", "read_file", "post_comment", "comment_on_line", "merge_pr"]
    assert tools["comment_on_line"].risk.value == "writes"
    assert tools["comment_on_line"].input_schema["required"] == ["pr", "path", "line", "body"]


def test_comment_on_a_changed_line_is_a_positioned_discussion(sandbox):
    answer = tools_of(sandbox).comment_on_line(482, "shop/pricing.py", 22, "This signature breaks callers.")
    assert answer.startswith("Inline comment ") and "shop/pricing.py:22 of !482" in answer
    mr = mr_of(sandbox, 482)
    [discussion] = [d for d in mr.discussions.list(get_all=True) if d.attributes["notes"][0].get("position")]
    position = discussion.attributes["notes"][0]["position"]
    assert (position["new_path"], position["new_line"]) == ("shop/pricing.py", 22)
    assert (position["base_sha"], position["head_sha"]) == (mr.diff_refs["base_sha"], mr.diff_refs["head_sha"])


def test_a_line_outside_the_diff_is_an_error_that_says_what_to_do(sandbox):
    # (line 1 of shop/pricing.py, used here before, is an unchanged line inside its hunk: it can be commented on)
    with pytest.raises(ToolError) as error:
        tools_of(sandbox).comment_on_line(482, "shop/cart.py", 15, "Nice method.")
    text = str(error.value)
    assert "line 15 of shop/cart.py is not part of this merge request's diff" in text
    assert "400" in text and "post_comment" in text and "Comment only on a line the diff adds or changes" in text
    assert "lines 3\u20139 and 22\u201325 of shop/cart.py are in the diff" in text
    assert inline(mr_of(sandbox, 482)) == []


def test_a_file_the_merge_request_does_not_change_is_named_as_such(sandbox):
    with pytest.raises(ToolError) as error:
        tools_of(sandbox).comment_on_line(482, "shop/tax.py", 11, "x")
    assert "400" in str(error.value) and "shop/tax.py is not among the files this merge request changes" in str(
        error.value)


def test_no_such_merge_request_for_an_inline_comment(sandbox):
    with pytest.raises(ToolError, match=r"merge request !999: not found"):
        tools_of(sandbox).comment_on_line(999, "shop/pricing.py", 22, "x")


# ---------------------------------------------------------------- the policy

def _use(name, **tool_input):
    from anthropic.types import ToolUseBlock
    return ToolUseBlock(type="tool_use", id=f"toolu_{name}", name=name, input=tool_input)


def test_without_post_every_write_is_refused_by_the_policy(sandbox):
    toolbox = reviewer_toolbox(tools_of(sandbox), post=False)
    results = toolbox.run_all([_use("post_comment", pr=482, body="LGTM"),
                               _use("comment_on_line", pr=482, path="shop/pricing.py", line=22, body="x")])
    assert all(r.get("is_error") for r in results)
    assert all("Denied by policy" in r["content"] and "no --post" in r["content"] for r in results)
    assert mr_of(sandbox, 482).notes.list(get_all=True) == []


def test_with_post_writes_run(sandbox):
    toolbox = reviewer_toolbox(tools_of(sandbox), post=True)
    [result] = toolbox.run_all([_use("comment_on_line", pr=482, path="shop/pricing.py", line=22, body="x")])
    assert not result.get("is_error")
    assert len(inline(mr_of(sandbox, 482))) == 1


def test_merges_are_refused_where_nobody_can_be_asked(sandbox):
    asked = []
    toolbox = reviewer_toolbox(tools_of(sandbox), post=True, nobody_to_ask="batch mode",
                               approver=lambda request: asked.append(request))
    [result] = toolbox.run_all([_use("merge_pr", pr=485)])
    assert result["is_error"] and "nobody can be asked here (batch mode)" in result["content"]
    assert asked == [] and sandbox.gitlab.merge_requests[485].state == "opened"


# ---------------------------------------------------------------- course-agent review N --post, again and again

def test_review_482_posted_three_times_leaves_one_summary_and_one_inline_comment(sandbox, capsys):
    for run in range(3):
        assert main(["review", "482", "--post", "--transcript", f"run{run}.jsonl"]) == 0
        mr = mr_of(sandbox, 482)
        assert len(summaries(mr)) == 1
        assert [(p, line) for p, line, _ in inline(mr)] == [("shop/pricing.py", 22)]
    out = capsys.readouterr().out
    assert out.count("Inline comments on: shop/pricing.py:22.") == 3
    [summary] = summaries(mr)
    assert summary.body.startswith("Review of !482") and summary.body.endswith(SUMMARY_MARKER)
    [(_, _, body)] = inline(mr)
    assert f"<!-- course-agent-review:inline {inline_key('shop/pricing.py', 22)} -->" in body
    assert "shop/checkout.py:20 still calls" in body
    # the second and third runs said so to the model, and edited nothing (the same review)
    assert "already says this; left as it is" in Path("run2.jsonl").read_text(encoding="utf-8")


def test_a_human_note_without_the_marker_is_left_alone(sandbox):
    mr = mr_of(sandbox, 484)
    mr.notes.create({"body": "Review of !484 by hand: please add a test for the EU rates."})
    assert main(["review", "484", "--post", "--transcript", "a.jsonl"]) == 0
    mr.notes.create({"body": "Another human note, posted between the runs."})
    assert main(["review", "484", "--post", "--transcript", "b.jsonl"]) == 0
    bodies = [n.body for n in mr_of(sandbox, 484).notes.list(get_all=True, sort="asc")]
    assert "Review of !484 by hand: please add a test for the EU rates." in bodies
    assert "Another human note, posted between the runs." in bodies
    assert sum(SUMMARY_MARKER in b for b in bodies) == 1
    # two stale callers of the same changed line: one inline comment there, holding both findings
    [(path, line, body)] = inline(mr_of(sandbox, 484))
    assert (path, line) == ("shop/tax.py", 11)
    assert "shop/invoices.py:9" in body and "shop/reports.py:10" in body


def test_an_edited_summary_is_put_back_and_a_stale_inline_comment_removed(sandbox):
    assert main(["review", "487", "--post", "--transcript", "a.jsonl"]) == 0
    mr = mr_of(sandbox, 487)
    [summary] = summaries(mr)
    mr.notes.update(summary.id, {"body": "tampered\n\n" + SUMMARY_MARKER})
    # an inline comment of ours, from an "earlier review", on a line this review says nothing about
    diff = mr.changes()["changes"][0]["diff"]
    assert "+    # TODO: charge for express delivery" in diff
    tools_of(sandbox, idempotent=True).publisher.inline(mr, "shop/checkout.py", 16, "an old finding")
    assert len(inline(mr)) == 2
    assert main(["review", "487", "--post", "--transcript", "b.jsonl"]) == 0
    [summary] = summaries(mr_of(sandbox, 487))
    assert summary.id == summaries(mr)[0].id and summary.body.startswith("Review of !487")
    assert [(p, line) for p, line, _ in inline(mr_of(sandbox, 487))] == [("shop/checkout.py", 22)]


def test_an_own_stale_comment_someone_replied_to_is_resolved_not_deleted(sandbox):
    tools = tools_of(sandbox, idempotent=True)
    mr = mr_of(sandbox, 487)
    tools.publisher.inline(mr, "shop/checkout.py", 16, "an old finding")
    [discussion] = mr.discussions.list(get_all=True)
    sandbox.gitlab.notes.reply(sandbox.gitlab.merge_requests[487].discussions, discussion.id, "Fixed, thanks.",
                               "alice")
    assert main(["review", "487", "--post", "--transcript", "a.jsonl"]) == 0
    kept = mr.discussions.get(discussion.id)
    assert len(kept.attributes["notes"]) == 2 and kept.attributes["notes"][0]["resolved"] is True


def test_without_post_nothing_is_written(sandbox, capsys):
    assert main(["review", "482", "--transcript", "a.jsonl"]) == 0
    assert mr_of(sandbox, 482).notes.list(get_all=True) == []
    assert capsys.readouterr().out.startswith("Review of !482")


def test_the_notebooks_plain_post_is_unchanged(sandbox):
    """Without idempotent=True (the notebooks), post_comment adds a note as before, with no marker."""
    tools = tools_of(sandbox)
    assert tools.post_comment(483, "Looks good.").startswith("Comment ")
    assert tools.post_comment(483, "Looks good.").startswith("Comment ")
    assert [n.body for n in mr_of(sandbox, 483).notes.list(get_all=True)] == ["Looks good.", "Looks good."]


def test_a_summary_that_could_not_be_posted_cleans_nothing_up(sandbox, monkeypatch):
    tools = tools_of(sandbox, idempotent=True)
    mr = mr_of(sandbox, 487)
    tools.publisher.inline(mr, "shop/checkout.py", 16, "an old finding")
    fresh = tools_of(sandbox, idempotent=True)

    def gitlab_fails(mr, body):
        raise gitlab.GitlabCreateError("500 Internal Server Error", 500)

    monkeypatch.setattr(fresh.publisher, "_summary", gitlab_fails)
    with pytest.raises(ToolError, match="GitLab failed"):
        fresh.post_comment(487, "the review")
    assert fresh.finish_review(487) == []
    assert len(inline(mr_of(sandbox, 487))) == 1


def test_two_summaries_of_ours_become_one(sandbox):
    tools = tools_of(sandbox, idempotent=True)
    mr = mr_of(sandbox, 483)
    mr.notes.create({"body": "first\n\n" + SUMMARY_MARKER})
    mr.notes.create({"body": "second\n\n" + SUMMARY_MARKER})
    assert tools.post_comment(483, "the review").startswith("Updated the earlier review comment")
    assert [n.body for n in summaries(mr_of(sandbox, 483))] == ["the review\n\n" + SUMMARY_MARKER]


# ---------------------------------------------------------------- where an inline comment sits (diff_line_position)

def positioned(mr):
    """The stored position of every positioned discussion: (old_path, new_path, old_line, new_line)."""
    found = []
    for d in mr.discussions.list(get_all=True):
        p = d.attributes["notes"][0].get("position")
        if p:
            found.append((p["old_path"], p["new_path"], p["old_line"], p["new_line"]))
    return sorted(found, key=str)


def test_an_unchanged_line_inside_a_hunk_is_named_by_both_numbers(sandbox):
    # shop/pricing.py line 4 of the new file is `from decimal import Decimal`, line 3 before !482 added an import
    tools = tools_of(sandbox)
    assert tools.comment_on_line(482, "shop/pricing.py", 4, "Context.").startswith("Inline comment ")
    assert tools.comment_on_line(482, "shop/pricing.py", 3, "Added.").startswith("Inline comment ")
    assert positioned(mr_of(sandbox, 482)) == [("shop/pricing.py", "shop/pricing.py", 3, 4),
                                               ("shop/pricing.py", "shop/pricing.py", None, 3)]


def test_a_renamed_file_is_positioned_by_its_old_and_new_paths(sandbox):
    # !485's branch also renames shop/tax.py to shop/taxes.py and changes one of its lines
    repository = sandbox.gitlab.repository
    branch = sandbox.gitlab.merge_requests[485].spec.source_branch
    repository.git("checkout", "-q", branch)
    try:
        repository.git("mv", "shop/tax.py", "shop/taxes.py")
        taxes = repository.path / "shop" / "taxes.py"
        taxes.write_text(taxes.read_text(encoding="utf-8").replace('"CH": Decimal("0.081")', '"CH": Decimal("0.077")'),
                         encoding="utf-8")
        repository.git("commit", "-q", "-am", "Rename shop/tax.py")
    finally:
        repository.git("checkout", "-q", "main")
        repository.refs_moved()
    [renamed] = [c for c in mr_of(sandbox, 485).changes()["changes"] if c["renamed_file"]]
    assert (renamed["old_path"], renamed["new_path"]) == ("shop/tax.py", "shop/taxes.py")
    tools = tools_of(sandbox)
    tools.comment_on_line(485, "shop/taxes.py", 7, "The Swiss rate changed.")  # the changed line
    tools.comment_on_line(485, "shop/taxes.py", 10, "Unchanged, next to it.")  # context: old 10, new 10
    assert positioned(mr_of(sandbox, 485)) == [("shop/tax.py", "shop/taxes.py", 10, 10),
                                               ("shop/tax.py", "shop/taxes.py", None, 7)]


def test_one_changes_call_serves_get_diff_and_every_inline_comment(sandbox, monkeypatch):
    calls = []
    changes = gitlab.v4.objects.ProjectMergeRequest.changes
    monkeypatch.setattr(gitlab.v4.objects.ProjectMergeRequest, "changes",
                        lambda self, **kwargs: calls.append(self.iid) or changes(self, **kwargs))
    tools = tools_of(sandbox)
    tools.get_diff(482)
    tools.comment_on_line(482, "shop/pricing.py", 22, "a")
    tools.comment_on_line(482, "shop/cart.py", 25, "b")
    tools.comment_on_line(484, "shop/tax.py", 11, "c")
    assert calls == [482, 484]


# every line of every changed file of !482 and !484, as hypothesis picks them, against the demo GitLab
@pytest.fixture(scope="module")
def changed_files():
    """A sandbox of the module's own, and (mr, its changes, one change, lines in its new file) per changed file."""
    with Sandbox() as sb:
        project = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project)
        files = []
        for iid in (482, 484):
            mr = project.mergerequests.get(iid)
            changes = mr.changes()["changes"]
            for change in changes:
                text = project.files.raw(change["new_path"], ref=mr.source_branch).decode()
                files.append((mr, changes, change, len(text.splitlines())))
        yield files


def in_a_hunk(diff, line):
    """The oracle: the new-file lines the hunk headers (@@ -a,b +c,d @@) cover, c to c+d-1."""
    return any(int(c) <= line < int(c) + int(d or 1) for c, d in re.findall(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@",
                                                                           diff, re.MULTILINE))


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_every_line_of_a_changed_file_is_accepted_iff_it_is_in_a_hunk(changed_files, data):
    mr, changes, change, length = data.draw(st.sampled_from(changed_files))
    line = data.draw(st.integers(1, length + 2))
    where = diff_line_position(change["diff"], line)
    assert (where is not None) == in_a_hunk(change["diff"], line)
    try:
        ReviewPublisher(mr.manager.gitlab).inline(mr, change["new_path"], line, "hypothesis", changes)
        accepted = True
    except gitlab.GitlabCreateError as error:
        assert error.response_code == 400 and "line_code" in error.error_message
        accepted = False
    assert accepted == in_a_hunk(change["diff"], line)


# the pure function against difflib's own hunks
source_lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n"]), max_size=25)


@settings(max_examples=200, deadline=None)
@given(old=source_lines, new=source_lines, line=st.integers(1, 30))
def test_diff_line_position_names_the_line_difflib_put_in_a_hunk(old, new, line):
    diff = "".join(list(difflib.unified_diff(old, new, n=3))[2:])
    pairs = set()
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(3):
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                pairs |= {(i + 1, j + 1) for i, j in zip(range(i1, i2), range(j1, j2))}
            elif tag in ("insert", "replace"):
                pairs |= {(None, j + 1) for j in range(j1, j2)}
    [expected] = [p for p in pairs if p[1] == line] or [None]
    where = diff_line_position(diff, line)
    assert (None if where is None else (where.get("old_line"), where["new_line"])) == expected


def test_diff_line_position_of_a_new_file_a_deleted_file_and_no_newline_at_the_end():
    assert diff_line_position("@@ -0,0 +1,2 @@\n+a\n+b\n", 2) == {"new_line": 2}
    assert diff_line_position("@@ -1,2 +0,0 @@\n-a\n-b\n", 1) is None
    no_newline = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    assert [diff_line_position(no_newline, n) for n in (1, 2, 3)] == [{"old_line": 1, "new_line": 1},
                                                                       {"new_line": 2}, None]
