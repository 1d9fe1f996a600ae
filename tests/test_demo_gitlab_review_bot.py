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

from course_agent.sandbox import Sandbox
from course_agent.sandbox.demo_gitlab.positions import DiffLine, diff_lines

LINE_CODE_ERROR = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'


@pytest.fixture
def gl(sandbox):
    return gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token)


@pytest.fixture
def project(gl, sandbox):
    return gl.projects.get(sandbox.project)


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
