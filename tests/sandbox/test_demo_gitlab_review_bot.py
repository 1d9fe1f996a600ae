"""The demo GitLab through python-gitlab the way a review bot uses it: threads and inline
comments, notes, diff versions, approvals, labels, the repository's tree, history and files."""

import re
import urllib.parse
import urllib.request

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandbox_http import raw_post

from course_sandbox import Sandbox
from course_sandbox.demo_gitlab.positions import DiffLine, diff_lines

LINE_CODE_ERROR = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'


def position(mr, path, *, new_line=None, old_line=None, **changes):
    refs = mr.diff_refs
    data = {"position_type": "text", "base_sha": refs["base_sha"], "start_sha": refs["start_sha"],
            "head_sha": refs["head_sha"], "new_path": path, "old_path": path}
    if new_line is not None:
        data["new_line"] = new_line
    if old_line is not None:
        data["old_line"] = old_line
    return {**data, **changes}


def get(sandbox, path):
    return raw_post(sandbox, path, None, headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, method="GET")


# Discussions and inline comments
def test_inline_comment_on_an_added_line_is_listed_with_its_position(project):
    mr = project.mergerequests.get(482)
    created = mr.discussions.create({"body": "Why frozen?", "position": position(mr, "shop/pricing.py", new_line=9)})
    assert re.fullmatch(r"[0-9a-f]{40}", created.id) and created.individual_note is False
    note = created.attributes["notes"][0]
    assert note["type"] == "DiffNote" and note["resolvable"] is True and note["resolved"] is False
    assert note["position"] == {**position(mr, "shop/pricing.py", new_line=9), "old_line": None, "line_range": None}
    listed = mr.discussions.list(get_all=True)
    assert [d.id for d in listed] == [created.id]
    assert listed[0].attributes["notes"][0]["position"]["new_line"] == 9
    assert mr.discussions.get(created.id).attributes["notes"][0]["body"] == "Why frozen?"


def test_inline_comment_outside_every_hunk_is_refused_with_gitlabs_message(project, sandbox):
    mr = project.mergerequests.get(482)
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        mr.discussions.create({"body": "x", "position": position(mr, "shop/cart.py", new_line=15)})
    assert (caught.value.response_code, caught.value.error_message) == (400, LINE_CODE_ERROR)
    assert mr.discussions.list(get_all=True) == [] and sandbox.gitlab.merge_requests[482].notes == []


def test_removed_line_by_old_line_and_context_line_by_both_numbers(project):
    mr = project.mergerequests.get(482)
    removed = mr.discussions.create({"body": "gone", "position": position(mr, "shop/pricing.py", old_line=13)})
    assert removed.attributes["notes"][0]["position"]["old_line"] == 13
    context = mr.discussions.create({"body": "ctx", "position": position(mr, "shop/cart.py", old_line=3, new_line=3)})
    assert context.attributes["notes"][0]["position"]["new_line"] == 3
    for wrong in (position(mr, "shop/cart.py", new_line=3),  # a context line needs both numbers, as in GitLab
                  position(mr, "shop/pricing.py", old_line=13, new_line=21),  # a removed line has no new number
                  position(mr, "shop/checkout.py", new_line=1),  # not in the diff
                  position(mr, "shop/pricing.py", new_line=9, head_sha="0" * 40),
                  position(mr, "shop/pricing.py", new_line=9, base_sha=mr.diff_refs["head_sha"])):
        with pytest.raises(gitlab.GitlabCreateError) as caught:
            mr.discussions.create({"body": "x", "position": wrong})
        assert caught.value.error_message == LINE_CODE_ERROR, wrong


def test_position_without_a_line_or_without_shas(project, sandbox):
    mr = project.mergerequests.get(482)
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        mr.discussions.create({"body": "x", "position": position(mr, "shop/pricing.py")})
    assert caught.value.error_message == (
        '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"], '
        ':position=>["is incomplete"]}')
    bad = position(mr, "shop/pricing.py", new_line=9)
    del bad["head_sha"]
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        mr.discussions.create({"body": "x", "position": bad})
    assert (caught.value.response_code, caught.value.error_message) == (400, "position[head_sha] is missing")
    with pytest.raises(AttributeError):  # python-gitlab itself insists on a body
        mr.discussions.create({"position": position(mr, "shop/pricing.py", new_line=9)})
    code, body = raw_post(sandbox, "/api/v4/projects/7/merge_requests/482/discussions", b"{}",
                          headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    assert (code, body) == (400, {"error": "body is missing"})


def test_form_encoded_position_is_accepted(sandbox, project):
    mr = project.mergerequests.get(482)
    refs = mr.diff_refs
    form = {"body": "form", "position[position_type]": "text", "position[base_sha]": refs["base_sha"],
            "position[start_sha]": refs["start_sha"], "position[head_sha]": refs["head_sha"],
            "position[new_path]": "shop/pricing.py", "position[old_path]": "shop/pricing.py",
            "position[new_line]": "9"}
    request = urllib.request.Request(sandbox.gitlab_url + "/api/v4/projects/7/merge_requests/482/discussions",
                                     data=urllib.parse.urlencode(form).encode(), method="POST",
                                     headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
    note = mr.discussions.list(get_all=True)[0].attributes["notes"][0]
    assert note["position"]["new_line"] == 9 and note["body"] == "form"


def test_replies_resolve_and_unresolve(project):
    mr = project.mergerequests.get(482)
    thread = mr.discussions.create({"body": "Rename?", "position": position(mr, "shop/pricing.py", new_line=9)})
    reply = thread.notes.create({"body": "Done."})
    assert reply.type == "DiffNote" and reply.body == "Done."
    thread = mr.discussions.get(thread.id)
    assert [n["body"] for n in thread.attributes["notes"]] == ["Rename?", "Done."]
    thread.resolved = True
    thread.save()
    notes = mr.discussions.get(thread.id).attributes["notes"]
    assert all(n["resolved"] for n in notes) and notes[0]["resolved_by"]["username"] == "course-reviewer"
    thread.resolved = False
    thread.save()
    assert not any(n["resolved"] for n in mr.discussions.get(thread.id).attributes["notes"])


def test_a_plain_note_is_an_individual_discussion_and_becomes_a_thread_on_reply(project):
    mr = project.mergerequests.get(483)
    note = mr.notes.create({"body": "LGTM overall"})
    [discussion] = mr.discussions.list(get_all=True)
    assert discussion.individual_note is True
    assert discussion.attributes["notes"][0]["id"] == note.id and discussion.attributes["notes"][0]["type"] is None
    with pytest.raises(gitlab.GitlabUpdateError) as caught:
        discussion.resolved = True
        discussion.save()
    assert caught.value.response_code == 403
    discussion.notes.create({"body": "Thanks"})
    again = mr.discussions.get(discussion.id)
    assert again.individual_note is False
    assert [n["type"] for n in again.attributes["notes"]] == ["DiscussionNote", "DiscussionNote"]


def test_thread_without_position_is_resolvable(project):
    mr = project.mergerequests.get(483)
    thread = mr.discussions.create({"body": "General question"})
    note = thread.attributes["notes"][0]
    assert (note["type"], note["resolvable"], note["resolved"]) == ("DiscussionNote", True, False)
    assert "position" not in note


def test_edit_and_delete_notes_through_both_apis(project):
    mr = project.mergerequests.get(483)
    note = mr.notes.create({"body": "typo hre"})
    note.body = "typo here"
    note.save()
    fetched = mr.notes.get(note.id)
    assert fetched.body == "typo here" and fetched.updated_at > fetched.created_at
    thread = mr.discussions.create({"body": "first"})
    reply = thread.notes.create({"body": "second"})
    in_thread = thread.notes.get(reply.id)
    in_thread.body = "second, edited"
    in_thread.save()
    assert mr.notes.get(reply.id).body == "second, edited"
    in_thread.delete()
    assert [n["body"] for n in mr.discussions.get(thread.id).attributes["notes"]] == ["first"]
    fetched.delete()
    with pytest.raises(gitlab.GitlabGetError) as caught:
        mr.notes.get(note.id)
    assert (caught.value.response_code, caught.value.error_message) == (404, "404 Not found")
    assert [d.id for d in mr.discussions.list(get_all=True)] == [thread.id]


def test_discussion_note_edit_needs_exactly_one_of_body_and_resolved(sandbox, project):
    mr = project.mergerequests.get(483)
    thread = mr.discussions.create({"body": "first"})
    note_id = thread.attributes["notes"][0]["id"]
    path = f"/api/v4/projects/7/merge_requests/483/discussions/{thread.id}/notes/{note_id}"
    headers = {"PRIVATE-TOKEN": sandbox.gitlab_token}
    assert raw_post(sandbox, path, b"{}", headers=headers, method="PUT") == (
        400, {"error": "body, resolved are missing, exactly one parameter must be provided"})
    assert raw_post(sandbox, path, b'{"body": "x", "resolved": true}', headers=headers, method="PUT")[0] == 400
    code, body = raw_post(sandbox, path, b'{"resolved": true}', headers=headers, method="PUT")
    assert code == 200 and body["resolved"] is True


def test_unknown_discussion_and_note(project):
    mr = project.mergerequests.get(483)
    with pytest.raises(gitlab.GitlabGetError) as caught:
        mr.discussions.get("f" * 40)
    assert (caught.value.response_code, caught.value.error_message) == (404, "404 Discussion Not Found")
    with pytest.raises(gitlab.GitlabGetError) as caught:
        mr.notes.get(123456)
    assert caught.value.response_code == 404


def test_notes_sort_and_order_by(project):
    mr = project.mergerequests.get(484)
    first = mr.notes.create({"body": "first"})
    mr.notes.create({"body": "second"})
    mr.discussions.create({"body": "third"})
    assert [n.body for n in mr.notes.list(get_all=True)] == ["third", "second", "first"]
    assert [n.body for n in mr.notes.list(get_all=True, sort="asc")] == ["first", "second", "third"]
    first.body = "first, edited last"
    first.save()
    by_update = mr.notes.list(get_all=True, order_by="updated_at", sort="desc")
    assert by_update[0].body == "first, edited last"
    with pytest.raises(gitlab.GitlabListError) as caught:
        mr.notes.list(sort="sideways")
    assert (caught.value.response_code, caught.value.error_message) == (400, "sort does not have a valid value")


def test_discussions_paginate(project):
    mr = project.mergerequests.get(485)
    ids = [mr.discussions.create({"body": f"thread {n}"}).id for n in range(5)]
    assert len(mr.discussions.list(per_page=2, get_all=False)) == 2
    assert [d.id for d in mr.discussions.list(per_page=2, iterator=True)] == ids
    assert len(set(ids)) == 5


def test_reset_demo_forgets_discussions():
    with Sandbox() as sandbox:
        project = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(7)
        first = project.mergerequests.get(482).discussions.create({"body": "x"}).id
        sandbox.reset_demo()
        assert project.mergerequests.get(482).discussions.list(get_all=True) == []
        assert project.mergerequests.get(482).discussions.create({"body": "x"}).id == first


def _hunk_lines(diff):
    """An independent reading of a unified diff: the (old, new) pairs of its hunks' lines."""
    pairs, old, new = set(), 0, 0
    for text in diff.splitlines():
        if text.startswith("@@"):
            numbers = re.findall(r"[-+](\d+)", text.split("@@")[1])
            old, new = int(numbers[0]), int(numbers[1])
        elif text[:1] == " ":
            pairs.add((old, new))
            old, new = old + 1, new + 1
        elif text[:1] == "-":
            pairs.add((old, None))
            old += 1
        elif text[:1] == "+":
            pairs.add((None, new))
            new += 1
    return pairs


@pytest.fixture(scope="module")
def live():
    with Sandbox() as sandbox:
        project = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(7)
        mrs = {iid: project.mergerequests.get(iid) for iid in (482, 483, 484)}
        changes = {iid: {c["new_path"]: c["diff"] for c in mr.changes()["changes"]} for iid, mr in mrs.items()}
        yield sandbox, mrs, changes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_position_is_accepted_iff_it_names_a_line_of_a_hunk(live, data):
    _, mrs, changes = live
    iid = data.draw(st.sampled_from(sorted(mrs)))
    path = data.draw(st.sampled_from(sorted(changes[iid])))
    old_line = data.draw(st.one_of(st.none(), st.integers(1, 40)))
    new_line = data.draw(st.one_of(st.none(), st.integers(1, 40)))
    if old_line is None and new_line is None:
        return
    pos = position(mrs[iid], path, new_line=new_line, old_line=old_line)
    in_hunk = (old_line, new_line) in _hunk_lines(changes[iid][path])
    try:
        mrs[iid].discussions.create({"body": "h", "position": pos})
        accepted = True
    except gitlab.GitlabCreateError as error:
        assert error.error_message == LINE_CODE_ERROR
        accepted = False
    assert accepted == in_hunk, (iid, path, old_line, new_line)


def test_diff_lines_reads_hunks_and_skips_no_newline_markers():
    diff = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    assert diff_lines(diff) == [DiffLine(1, 1), DiffLine(2, None), DiffLine(None, 2)]
    assert diff_lines("") == []


# Diff versions, diffs, commits, participants, pipelines
def test_versions_list_and_single_version(project):
    mr = project.mergerequests.get(482)
    [listed] = mr.diffs.list(get_all=True)
    assert (listed.head_commit_sha, listed.base_commit_sha, listed.start_commit_sha) == (
        mr.diff_refs["head_sha"], mr.diff_refs["base_sha"], mr.diff_refs["start_sha"])
    assert (listed.state, listed.real_size, listed.merge_request_id) == ("collected", "2", mr.id)
    version = mr.diffs.get(listed.id)
    assert [c["id"] for c in version.commits] == [mr.sha]
    assert [d["new_path"] for d in version.diffs] == ["shop/cart.py", "shop/pricing.py"]
    with pytest.raises(gitlab.GitlabGetError) as caught:
        mr.diffs.get(listed.id + 1)
    assert caught.value.response_code == 404


def test_mr_diffs_paginate_and_match_changes(sandbox, project):
    mr = project.mergerequests.get(484)
    changes = mr.changes()["changes"]
    code, first = get(sandbox, "/api/v4/projects/7/merge_requests/484/diffs?per_page=2")
    assert code == 200 and first == changes[:2]
    every = project.manager.gitlab.http_list("/projects/7/merge_requests/484/diffs", per_page=1, get_all=True)
    assert every == changes


def test_commits_participants_pipelines(project):
    mr = project.mergerequests.get(483)
    [commit] = mr.commits()
    assert commit.id == mr.sha and commit.title == "Show prices with two decimals"
    assert [u["username"] for u in mr.participants()] == ["bob"]
    mr.notes.create({"body": "looks fine"})
    assert [u["username"] for u in mr.participants()] == ["bob", "course-reviewer"]
    assert mr.pipelines.list(get_all=True) == []


def test_after_a_merge_versions_still_show_the_mrs_diff(project):
    mr = project.mergerequests.get(483)
    before = mr.diffs.get(mr.diffs.list(get_all=True)[0].id).diffs
    mr.merge()
    merged = project.mergerequests.get(483)
    [version] = merged.diffs.list(get_all=True)
    assert merged.diffs.get(version.id).diffs == before
    assert [c.id for c in merged.commits()] == [merged.sha]


# Approvals
def test_approve_twice_and_unapprove_twice(project):
    mr = project.mergerequests.get(482)
    state = mr.approvals.get()
    assert (state.approved, state.approvals_required, state.approvals_left, state.approved_by) == (False, 1, 1, [])
    answer = mr.approve(sha=mr.sha)
    assert answer["approved"] is True and answer["approved_by"][0]["user"]["username"] == "course-reviewer"
    assert mr.approval_state.get().rules[0]["approved_by"][0]["username"] == "course-reviewer"
    with pytest.raises(gitlab.GitlabAuthenticationError) as caught:  # GitLab: unauthorized! unless success
        mr.approve()
    assert (caught.value.response_code, caught.value.error_message) == (401, "401 Unauthorized")
    mr.unapprove()
    assert mr.approvals.get().approvals_left == 1
    with pytest.raises(gitlab.GitlabMRApprovalError) as caught:
        mr.unapprove()
    assert (caught.value.response_code, caught.value.error_message) == (404, "404 Not found")


def test_approve_with_a_stale_sha_is_409(project):
    mr = project.mergerequests.get(482)
    with pytest.raises(gitlab.GitlabMRApprovalError) as caught:
        mr.approve(sha="0" * 40)
    assert caught.value.response_code == 409
    assert caught.value.error_message == f"SHA does not match HEAD of source branch: {mr.sha}"
    assert mr.approvals.get().approved is False


# Editing: labels, title, state
def test_labels_add_remove_and_filter(project):
    mr = project.mergerequests.get(482)
    assert mr.labels == []
    mr.labels = ["needs-review", "bug"]
    mr.save()
    assert project.mergerequests.get(482).labels == ["bug", "needs-review"]
    project.mergerequests.update(482, {"add_labels": "api,bug", "remove_labels": "needs-review"})
    assert project.mergerequests.get(482).labels == ["api", "bug"]
    project.mergerequests.update(483, {"labels": "bug"})
    assert [m.iid for m in project.mergerequests.list(labels=["bug"], get_all=True)] == [483, 482]
    assert [m.iid for m in project.mergerequests.list(labels=["api", "bug"], get_all=True)] == [482]
    assert 484 in [m.iid for m in project.mergerequests.list(labels="None", get_all=True)]
    project.mergerequests.update(482, {"labels": ""})
    assert project.mergerequests.get(482).labels == []


def test_title_description_close_and_reopen(project, sandbox):
    mr = project.mergerequests.get(484)
    mr.title = "Tax rates by region"
    mr.description = "New text"
    mr.save()
    again = project.mergerequests.get(484)
    assert (again.title, again.description) == ("Tax rates by region", "New text")
    assert again.updated_at > again.created_at
    again.state_event = "close"
    again.save()
    assert project.mergerequests.get(484).state == "closed"
    with pytest.raises(gitlab.GitlabMRClosedError):
        project.mergerequests.get(484).merge()
    project.mergerequests.update(484, {"state_event": "reopen"})
    assert project.mergerequests.get(484).state == "opened"
    with pytest.raises(gitlab.GitlabUpdateError) as caught:
        project.mergerequests.update(484, {"state_event": "explode"})
    assert caught.value.error_message == "state_event does not have a valid value"
    code, body = raw_post(sandbox, "/api/v4/projects/7/merge_requests/484", b"{}",
                          headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, method="PUT")
    assert code == 400 and body["error"].endswith("are missing, at least one parameter must be provided")


def test_a_draft_retitled_without_its_prefix_can_be_merged(project):
    mr = project.mergerequests.get(487)
    assert mr.draft is True
    project.mergerequests.update(487, {"title": "Express checkout"})
    assert project.mergerequests.get(487).draft is False
    assert project.mergerequests.get(487).merge()["state"] == "merged"


# Repository
def test_tree_top_level_and_recursive(project):
    top = project.repository_tree(get_all=True)
    assert {(e["name"], e["type"]) for e in top} >= {("shop", "tree"), ("README.md", "blob")}
    assert all(set(e) == {"id", "name", "type", "path", "mode"} for e in top)
    shop = project.repository_tree(path="shop", ref="feature/discount-object", get_all=True)
    assert {e["path"] for e in shop} >= {"shop/cart.py", "shop/pricing.py"} and all(e["type"] == "blob" for e in shop)
    everything = project.repository_tree(recursive=True, get_all=True)
    assert {"shop", "shop/pricing.py", "docs/Руководство покупателя.md"} <= {e["path"] for e in everything}
    assert next(e for e in everything if e["path"] == "shop")["mode"] == "040000"
    assert "tests/test_tax.py" in {e["path"] for e in project.repository_tree(
        recursive=True, ref="feature/tax-regions", get_all=True)}
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.repository_tree(ref="no-such-branch")
    assert caught.value.error_message == "404 Tree Not Found"


def test_tree_pagination_headers(sandbox):
    code, _ = get(sandbox, "/api/v4/projects/7/repository/tree?recursive=true&per_page=5")
    assert code == 200
    request = urllib.request.Request(sandbox.gitlab_url + "/api/v4/projects/7/repository/tree?recursive=true&per_page=5",
                                     headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    with urllib.request.urlopen(request, timeout=10) as response:
        headers = response.headers
    assert (headers["X-Page"], headers["X-Per-Page"], headers["X-Next-Page"]) == ("1", "5", "2")
    assert int(headers["X-Total-Pages"]) == -(-int(headers["X-Total"]) // 5)
    assert 'rel="next"' in headers["Link"]


def test_compare_branches(project):
    compared = project.repository_compare("main", "feature/discount-object")
    assert [c["title"] for c in compared["commits"]] == ["Pass discounts as objects"]
    assert compared["commit"]["id"] == compared["commits"][-1]["id"]
    assert [d["new_path"] for d in compared["diffs"]] == ["shop/cart.py", "shop/pricing.py"]
    assert (compared["compare_timeout"], compared["compare_same_ref"]) == (False, False)
    same = project.repository_compare("main", "main")
    assert (same["commits"], same["diffs"], same["compare_same_ref"], same["commit"]) == ([], [], True, None)
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.repository_compare("main", "no-such-branch")
    assert caught.value.error_message == "404 Ref Not Found"


def test_branches(project):
    names = [b.name for b in project.branches.list(get_all=True)]
    assert "main" in names and "feature/discount-object" in names
    main = project.branches.get("main")
    assert (main.default, main.protected, main.merged) == (True, True, False)
    feature = project.branches.get("fix/money-format")
    assert (feature.default, feature.merged, feature.commit["title"]) == (False, False, "Show prices with two decimals")
    project.mergerequests.get(483).merge()
    assert project.branches.get("fix/money-format").merged is True
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.branches.get("nope")
    assert caught.value.error_message == "404 Branch Not Found"


def test_commits_list_single_and_diff(project):
    history = project.commits.list(ref_name="feature/tax-regions", get_all=True)
    assert [c.title for c in history] == ["Look up tax rates by region inside tax_for", "Initial version of the shop"]
    assert [c.title for c in project.commits.list(get_all=True)] == ["Initial version of the shop"]
    single = project.commits.get(history[0].id)
    assert single.parent_ids == [history[1].id] and single.stats["total"] > 0
    assert {d["new_path"] for d in single.diff(get_all=True)} == {"shop/checkout.py", "shop/tax.py", "tests/test_tax.py"}
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.commits.get("0" * 40)
    assert caught.value.error_message == "404 Commit Not Found"


def test_blame(project):
    ranges = project.files.blame("shop/cart.py", ref="feature/discount-object")
    owners = [r["commit"]["title"] for r in ranges]
    assert "Pass discounts as objects" in owners and "Initial version of the shop" in owners
    lines = [line for r in ranges for line in r["lines"]]
    assert "\n".join(lines) + "\n" == project.files.raw("shop/cart.py", ref="feature/discount-object").decode()
    changed = next(r for r in ranges if r["commit"]["title"] == "Pass discounts as objects")
    assert "from shop.pricing import Discount, calculate_total" in changed["lines"]


def test_raw_without_ref_reads_the_default_branch_but_get_needs_a_ref(project, sandbox):
    assert project.files.raw("shop/cart.py") == project.files.raw("shop/cart.py", ref="main")
    code, body = get(sandbox, "/api/v4/projects/7/repository/files/shop%2Fcart.py")
    assert (code, body) == (400, {"error": "ref is missing"})
    code, body = get(sandbox, "/api/v4/projects/7/repository/files/shop%2Fcart.py/blame")
    assert (code, body) == (400, {"error": "ref is missing"})


def test_files_head_and_get_send_gitlabs_headers(project, sandbox):
    headers = project.files.head("shop/pricing.py", ref="feature/discount-object")
    got = project.files.get("shop/pricing.py", ref="feature/discount-object")
    assert headers["X-Gitlab-Blob-Id"] == got.blob_id
    assert headers["X-Gitlab-Commit-Id"] == got.commit_id == project.mergerequests.get(482).sha
    assert headers["X-Gitlab-Last-Commit-Id"] == got.last_commit_id
    assert headers["X-Gitlab-Content-Sha256"] == got.content_sha256
    assert (headers["X-Gitlab-File-Name"], headers["X-Gitlab-File-Path"]) == ("pricing.py", "shop/pricing.py")
    assert (headers["X-Gitlab-Ref"], headers["X-Gitlab-Encoding"]) == ("feature/discount-object", "base64")
    assert (headers["X-Gitlab-Size"], headers["X-Gitlab-Execute-Filemode"]) == (str(got.size), "false")
    request = urllib.request.Request(
        sandbox.gitlab_url + "/api/v4/projects/7/repository/files/shop%2Fpricing.py?ref=main",
        headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["X-Gitlab-Blob-Id"] == project.files.get("shop/pricing.py", ref="main").blob_id
    with pytest.raises(gitlab.GitlabHeadError) as caught:
        project.files.head("shop/nothing.py", ref="main")
    assert caught.value.response_code == 404


def test_last_commit_id_is_the_last_commit_that_touched_the_file(project):
    untouched = project.files.get("shop/checkout.py", ref="feature/discount-object")
    assert untouched.commit_id == project.mergerequests.get(482).sha
    assert untouched.last_commit_id == project.commits.list(get_all=True)[0].id


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/api/v4/projects/7/merge_requests/482/nothing", 404),
    ("GET", "/api/v4/projects/7/repository/nothing", 404),
    ("DELETE", "/api/v4/projects/7/merge_requests/482/discussions", 405),
    ("POST", "/api/v4/projects/7/repository/tree", 405),
    ("GET", "/api/v4/projects/7/merge_requests/482/approve", 405),
    ("GET", "/api/v4/projects/7/merge_requests/482/notes/abc", 400),
])
def test_unknown_routes_and_wrong_methods(sandbox, method, path, status):
    code, body = raw_post(sandbox, path, None if method == "GET" else b"{}",
                          headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, method=method)
    assert code == status
    if status == 404:
        assert body == {"error": "404 Not Found"}
    if status == 405:
        assert body == {"message": "405 Method Not Allowed"}


def test_blank_bodies_and_bad_resolved_values(sandbox, project):
    mr = project.mergerequests.get(483)
    note = mr.notes.create({"body": "x"})
    headers = {"PRIVATE-TOKEN": sandbox.gitlab_token}
    base = "/api/v4/projects/7/merge_requests/483"
    assert raw_post(sandbox, f"{base}/notes/{note.id}", b'{"body": " "}', headers=headers, method="PUT") == (
        400, {"error": "body is empty"})
    assert raw_post(sandbox, f"{base}/discussions", b'{"body": ""}', headers=headers) == (
        400, {"message": '400 Bad request - Note {:note=>["can\'t be blank"]}'})
    thread = mr.discussions.create({"body": "q"})
    assert raw_post(sandbox, f"{base}/discussions/{thread.id}?resolved=maybe", b"{}", headers=headers,
                    method="PUT") == (400, {"error": "resolved is invalid"})
    assert raw_post(sandbox, f"{base}/discussions/{thread.id}", b"{}", headers=headers, method="PUT") == (
        400, {"error": "resolved is missing"})
    assert mr.notes.get(note.id).body == "x"


@pytest.fixture(scope="module")
def labelled():
    with Sandbox() as sandbox:
        yield gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(7)


_LABEL = st.sampled_from(["bug", "api", "docs", "needs-review", "security"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.lists(_LABEL, unique=True), add=st.lists(_LABEL, unique=True),
       remove=st.lists(_LABEL, unique=True))
def test_add_and_remove_labels_are_set_operations(labelled, start, add, remove):
    labelled.mergerequests.update(485, {"labels": ",".join(start)})
    changes = {k: ",".join(v) for k, v in (("add_labels", add), ("remove_labels", remove)) if v}
    if changes:
        labelled.mergerequests.update(485, changes)
    assert labelled.mergerequests.get(485).labels == sorted((set(start) - set(remove)) | (set(add) - set(remove)))
