"""Inline comments (comment_on_line), the policy around --post, and `course-agent review N --post`
run again and again: one summary note and one set of inline discussions, updated in place."""

from pathlib import Path

import gitlab
import pytest

from course_agent import client as client_module
from course_agent.cli import main
from course_agent.gitlab import GitLabTools
from course_agent.publish import SUMMARY_MARKER, inline_key
from course_agent.review import reviewer_toolbox
from course_agent.sandbox import Sandbox
from course_agent.tools import ToolError


@pytest.fixture
def sandbox(monkeypatch, tmp_path):
    """A sandbox of its own, used by the in-process CLI as the shared one (no state leaks between tests)."""
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GITLAB_URL", "GITLAB_TOKEN", "GITLAB_PROJECT",
                 "COURSE_AGENT_AUTO_APPROVE", "COURSE_AGENT_BACKEND", "COURSE_AGENT_LANGUAGE", "GITLAB_CI",
                 "CI_MERGE_REQUEST_IID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with Sandbox() as sb:
        monkeypatch.setattr(client_module, "_shared", sb)
        yield sb


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
    with pytest.raises(ToolError) as error:
        tools_of(sandbox).comment_on_line(482, "shop/pricing.py", 1, "Nice header.")
    text = str(error.value)
    assert "line 1 of shop/pricing.py is not part of this merge request's diff" in text
    assert "400" in text and "post_comment" in text and "Comment only on a line the diff adds or changes" in text
    assert inline(mr_of(sandbox, 482)) == []


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
    assert all("Refused by policy" in r["content"] and "no --post" in r["content"] for r in results)
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
