"""The routes added for review bots (issue #29), with GitLab's shapes and error answers: labels and
label events, emoji reactions, merge options, merge_ref, rebase, merge_base, blobs, commit comments."""

import base64

import gitlab
import pytest
from sandbox_http import raw_post


def call(sandbox, method, path, body=None):
    data = None if body is None else __import__("json").dumps(body).encode()
    return raw_post(sandbox, "/api/v4/projects/7/" + path, data, headers={"PRIVATE-TOKEN": sandbox.gitlab_token},
                    method=method)


def test_labels_have_gitlabs_shape_and_counts_only_when_asked(project, sandbox):
    labels = project.labels.list(get_all=True)
    bug = next(label for label in labels if label.name == "bug")
    assert {k: v for k, v in bug.attributes.items() if k != "project_id"} == {"id": bug.id, "name": "bug", "description": "Something does not work",
                              "description_html": "Something does not work", "text_color": "#FFFFFF",
                              "color": "#d9534f", "archived": False, "subscribed": False, "priority": None,
                              "is_project_label": True}
    mr = project.mergerequests.get(483)
    mr.labels = ["bug"]
    mr.save()
    counted = project.labels.list(with_counts=True, search="bu")
    assert [(label.name, label.open_merge_requests_count) for label in counted] == [("bug", 1)]
    assert project.labels.get(bug.id).name == project.labels.get("bug").name == "bug"
    assert call(sandbox, "GET", "labels/nope") == (404, {"message": "404 Label Not Found"})


def test_a_label_new_to_the_project_is_created_and_each_change_is_an_event(project):
    mr = project.mergerequests.get(482)
    mr.labels = ["bug", "Review effort 3/5"]
    mr.save()
    mr.labels = ["Review effort 3/5"]
    mr.save()
    created = project.labels.get("Review effort 3/5")
    assert (created.color, created.text_color) == ("#6699cc", "#FFFFFF")
    events = mr.resourcelabelevents.list(get_all=True)
    assert [(e.action, e.label["name"]) for e in events] == [("add", "bug"), ("add", "Review effort 3/5"),
                                                             ("remove", "bug")]
    assert events[0].resource_type == "MergeRequest" and events[0].resource_id == mr.id
    assert events[0].user["username"] == "course-reviewer"
    with pytest.raises(gitlab.GitlabGetError) as caught:
        mr.resourcelabelevents.get(999)
    assert caught.value.error_message == "404 Not found"


def test_thumbs_on_a_merge_request_are_its_votes(project, sandbox):
    mr = project.mergerequests.get(483)
    award = mr.awardemojis.create({"name": "+1"})
    assert (award.name, award.awardable_type, award.awardable_id) == ("thumbsup", "MergeRequest", mr.id)
    assert project.mergerequests.get(483).upvotes == 1
    award.delete()
    assert project.mergerequests.get(483).upvotes == 0
    assert call(sandbox, "POST", "merge_requests/483/award_emoji", {}) == (400, {"error": "name is missing"})
    assert call(sandbox, "GET", "merge_requests/483/notes/77/award_emoji") == (404, {"message": "404 Not found"})
    assert call(sandbox, "GET", "merge_requests/483/notes/x/award_emoji") == (404, {"message": "404 Not found"})
    assert call(sandbox, "GET", "merge_requests/483/award_emoji/x") == (400, {"error": "award_id is invalid"})


def test_deleting_a_note_takes_its_reactions(project, sandbox):
    mr = project.mergerequests.get(482)
    note = mr.notes.get(mr.notes.create({"body": "/review"}).id)
    note.awardemojis.create({"name": "eyes"})
    note.delete()
    assert sandbox.gitlab.awards.of("Note", note.id) == []


def test_the_mrs_own_flags_decide_removal_and_squash_when_merge_does_not(project, sandbox):
    mr = project.mergerequests.get(483)
    mr.remove_source_branch = True
    mr.squash = True
    mr.save()
    assert (mr.force_remove_source_branch, mr.squash) == (True, True)
    project.mergerequests.get(483).merge()
    merged = project.mergerequests.get(483)
    squash = project.commits.get(merged.squash_commit_sha)
    assert squash.parent_ids == [merged.diff_refs["base_sha"]] and squash.message == merged.title + "\n"
    assert project.commits.get(merged.merge_commit_sha).parent_ids[1] == squash.id
    with pytest.raises(gitlab.GitlabGetError):
        project.branches.get(merged.source_branch)
    assert merged.sha == merged.diff_refs["head_sha"] and project.mergerequests.get(483).changes()["changes"]


def test_should_remove_source_branch_false_overrides_the_mrs_flag(project):
    mr = project.mergerequests.get(482)
    mr.remove_source_branch = True
    mr.save()
    mr.merge(should_remove_source_branch=False)
    assert project.branches.get(mr.source_branch)
    assert project.mergerequests.get(482).squash_commit_sha is None


def test_a_bad_merge_option_is_refused_and_nothing_merges(project, sandbox):
    before = sandbox.gitlab.repository.sha("main")
    assert call(sandbox, "PUT", "merge_requests/482/merge", {"squash": "maybe"}) == (400, {"error": "squash is invalid"})
    assert call(sandbox, "PUT", "merge_requests/482/merge", {"should_remove_source_branch": [1]}) == (
        400, {"error": "should_remove_source_branch is invalid"})
    assert sandbox.gitlab.repository.sha("main") == before and project.mergerequests.get(482).state == "opened"


def test_merge_ref_of_a_merged_or_conflicting_mr_is_gitlabs_400(project, sandbox):
    commit_id = project.mergerequests.get(482).merge_ref()["commit_id"]
    assert project.commits.get(commit_id).parent_ids[0] == sandbox.gitlab.repository.sha("main")
    project.mergerequests.get(482).merge()
    refused = (400, {"message": "400 Bad request - Merge request is not mergeable"})
    assert call(sandbox, "GET", "merge_requests/482/merge_ref") == refused


def test_rebase_moves_the_branch_onto_main_and_refuses_a_merged_mr(project, sandbox):
    project.mergerequests.get(483).merge(should_remove_source_branch=False)
    main = sandbox.gitlab.repository.sha("main")
    assert call(sandbox, "PUT", "merge_requests/482/rebase") == (202, {"rebase_in_progress": True})
    rebased = project.mergerequests.get(482, include_rebase_in_progress=True)
    assert rebased.rebase_in_progress is False and rebased.merge_error is None
    assert rebased.diff_refs["base_sha"] == main
    assert project.commits.get(rebased.sha).parent_ids == [main]
    assert call(sandbox, "PUT", "merge_requests/483/rebase") == (409, {
        "message": "Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later."})
    project.mergerequests.get(482).merge(should_remove_source_branch=True)
    assert call(sandbox, "PUT", "merge_requests/482/rebase") == (
        403, {"message": "403 Forbidden - Cannot push to source branch"})


def test_merge_base_and_its_errors(project, sandbox):
    mr = project.mergerequests.get(482)
    assert project.repository_merge_base(["main", mr.source_branch])["id"] == mr.diff_refs["base_sha"]
    assert call(sandbox, "GET", "repository/merge_base?refs[]=main&refs[]=nope&refs[]=gone") == (
        400, {"message": "Could not find refs: nope, gone"})
    assert call(sandbox, "GET", "repository/merge_base?refs=main") == (400, {"message": "Provide at least 2 refs"})
    assert call(sandbox, "GET", "repository/merge_base") == (400, {"error": "refs is missing"})
    assert call(sandbox, "GET", "repository/merge_base?refs=,,") == (400, {"message": "Provide at least 2 refs"})
    assert call(sandbox, "GET", "repository/merge_base?refs=main,%20,") == (400, {"message": "Could not find ref: "})


def test_a_blob_by_its_id(project, sandbox):
    entry = next(e for e in project.repository_tree(path="shop") if e["name"] == "pricing.py")
    raw = project.files.raw(file_path="shop/pricing.py", ref="main")
    assert project.repository_raw_blob(entry["id"]) == raw
    blob = project.repository_blob(entry["id"])
    assert (blob["sha"], blob["size"], base64.b64decode(blob["content"])) == (entry["id"], len(raw), raw)
    tree_id = next(e for e in project.repository_tree() if e["type"] == "tree")["id"]
    for bad in (tree_id, "0" * 40, "main", "abc"):
        assert call(sandbox, "GET", f"repository/blobs/{bad}") == (404, {"message": "404 Blob Not Found"})


def test_a_commit_comment_on_an_added_line_and_elsewhere(project, sandbox):
    mr = project.mergerequests.get(482)
    commit = project.commits.get(mr.sha)
    on_line = commit.comments.create({"note": "why?", "path": "shop/pricing.py", "line": 9, "line_type": "new"})
    assert (on_line.path, on_line.line, on_line.line_type) == ("shop/pricing.py", 9, "new")
    removed = commit.comments.create({"note": "gone?", "path": "shop/pricing.py", "line": 13, "line_type": "old"})
    assert (removed.path, removed.line, removed.line_type) == ("shop/pricing.py", 13, "old")
    off = commit.comments.create({"note": "and here?", "path": "shop/pricing.py", "line": 1, "line_type": "new"})
    assert (off.path, off.line, off.line_type) == (None, None, None)
    assert [c.note for c in commit.comments.list()] == ["why?", "gone?", "and here?"]
    thread = commit.discussions.list()[0]
    assert thread.attributes["notes"][0]["noteable_type"] == "Commit"
    assert thread.attributes["notes"][0]["resolvable"] is False
    assert call(sandbox, "POST", f"repository/commits/{mr.sha}/comments", {"note": "x", "path": "a"}) == (
        400, {"error": "line is missing"})
    assert call(sandbox, "POST", f"repository/commits/{mr.sha}/comments", {}) == (400, {"error": "note is missing"})
    assert call(sandbox, "GET", "repository/commits/nope/comments") == (404, {"message": "404 Commit Not Found"})


def test_a_rebase_that_conflicts_leaves_the_branch_and_says_why(project, sandbox):
    project.mergerequests.get(484).merge()
    head = sandbox.gitlab.repository.sha(project.mergerequests.get(487).source_branch)
    assert call(sandbox, "PUT", "merge_requests/487/rebase") == (202, {"rebase_in_progress": True})
    mr = project.mergerequests.get(487)
    assert mr.merge_error == "Rebase failed: Rebase locally, resolve all conflicts, then push the branch."
    assert mr.sha == head
