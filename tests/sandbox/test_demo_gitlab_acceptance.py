"""Acceptance: review-bot operations through python-gitlab (and raw requests) against a fresh
sandbox, the way open-source GitLab review bots call them (qodo-ai/pr-agent's GitLabProvider,
Nikita-Filonov/ai-review, canefe/reviewbot), each compared with GitLab's docs and its sources
(lib/api/*.rb, lib/api/entities/*.rb, app/models, app/services)."""

import difflib
import re
import warnings

import gitlab
import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.demo_gitlab.errors import GitLabError
from course_sandbox.demo_gitlab.positions import check_position, parse_position

LINE_CODE_400 = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'


@pytest.fixture(scope="module")
def sb():
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def gl(sb):
    return gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token)


@pytest.fixture(scope="module")
def project(gl):
    return gl.projects.get("course/shop")


@pytest.fixture()
def fresh():
    """A sandbox of its own, for a test that changes state."""
    with Sandbox() as sandbox:
        client = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token)
        yield sandbox, client.projects.get(7)


def position(mr, path, new_line=None, old_line=None, old_path=None):
    """As pr-agent builds it: the shas of the latest diff version (GitLab lists versions newest first)."""
    version = mr.diffs.list(get_all=True)[0]
    return {"position_type": "text", "base_sha": version.base_commit_sha, "start_sha": version.start_commit_sha,
            "head_sha": version.head_commit_sha, "old_path": old_path or path, "new_path": path,
            "new_line": new_line, "old_line": old_line}


def hunk_lines(diff):
    """(old, new) of every diff line: old None for an added line, new None for a removed one."""
    lines, old, new = [], 0, 0
    for text in diff.split("\n"):
        header = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)", text)
        if header:
            old, new = int(header.group(1)), int(header.group(2))
        elif text[:1] == " ":
            lines.append((old, new))
            old, new = old + 1, new + 1
        elif text[:1] == "-":
            lines.append((old, None))
            old += 1
        elif text[:1] == "+":
            lines.append((None, new))
            new += 1
    return lines


# projects, merge requests, diffs
def test_project_by_path_and_by_id_are_the_same(gl):
    by_path, by_id = gl.projects.get("course/shop"), gl.projects.get(7)
    assert by_path.id == by_id.id == 7
    assert by_path.path_with_namespace == "course/shop" and by_path.default_branch == "main"
    with pytest.raises(gitlab.GitlabGetError) as error:
        gl.projects.get("course/nope")
    assert error.value.response_code == 404 and error.value.error_message == "404 Project Not Found"


def test_user_is_the_reviewer(gl):
    """Users are Entities::UserBasic (id, username, name, state, locked, avatar_url), without a
    web_url that would make python-gitlab's auth() warn about a base URL other than the sandbox's."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gl.auth()
    assert gl.user.username == "course-reviewer"
    assert {"id", "username", "name", "state", "locked", "avatar_url"} <= set(gl.user.attributes)


def test_open_merge_requests_listed_newest_first(project):
    iids = [mr.iid for mr in project.mergerequests.list(state="opened", iterator=True, per_page=2)]
    assert iids == [487, 486, 485, 484, 483, 482]


def test_lazy_merge_request_reaches_its_sub_resources(project):
    mr = project.mergerequests.get(482, lazy=True)
    assert [c.id for c in mr.commits()] and mr.participants()[0]["username"] == "alice"
    assert mr.pipelines.list() == []
    assert len(mr.diffs.list()) == 1


def test_merge_request_fields_a_bot_reads(project):
    mr = project.mergerequests.get(482)
    assert set(mr.diff_refs) == {"base_sha", "head_sha", "start_sha"}
    assert mr.sha == mr.diff_refs["head_sha"] and mr.author["username"] == "alice"
    assert mr.labels == [] and mr.draft is False and mr.source_branch == "feature/discount-object"
    assert isinstance(mr.user_notes_count, int)


def test_merge_request_entity_has_gitlabs_fields(project):
    """lib/api/entities/merge_request_basic.rb for lists, merge_request.rb for one MR: python-gitlab
    raises AttributeError on a missing key, so a bot reading `mr.head_pipeline` must find it (null)."""
    mr = project.mergerequests.get(482)
    assert (mr.head_pipeline, mr.pipeline, mr.assignees, mr.reviewers, mr.milestone) == (None, None, [], [], None)
    assert mr.references["full"] == "course/shop!482" and mr.reference == "!482"
    assert mr.changes_count == "2" and mr.blocking_discussions_resolved is True and mr.merged_by is None
    assert mr.user["can_merge"] is True and mr.task_completion_status == {"count": 0, "completed_count": 0}
    listed = project.mergerequests.list(iids=[482])[0]
    assert "head_pipeline" not in listed.attributes and listed.references == mr.references


def test_merge_request_list_filters(project):
    """docs.gitlab.com/api/merge_requests/#list-project-merge-requests: iids, source_branch,
    target_branch, author_username, search, order_by/sort; unknown filters are ignored."""
    def iids(**filters):
        return [mr.iid for mr in project.mergerequests.list(get_all=True, **filters)]
    assert iids(iids=[483, 482]) == [483, 482]
    assert iids(source_branch="feature/tax-regions") == [484] and iids(target_branch="develop") == []
    assert iids(author_username="alice") == [484, 482] and iids(search="README") == [485]
    assert iids(search="ignore all previous") == [485]  # the description counts too
    assert iids(sort="asc", state="opened") == [482, 483, 484, 485, 486, 487]
    assert iids(no_such_filter="x") == iids()
    assert iids(order_by="title", sort="asc") == [487, 484, 482, 486, 483, 485]


def test_diff_versions_as_pr_agent_reads_them(project):
    mr = project.mergerequests.get(482)
    version = mr.diffs.list(get_all=True)[0]
    assert version.head_commit_sha == mr.diff_refs["head_sha"]
    assert version.base_commit_sha == mr.diff_refs["base_sha"]
    assert version.start_commit_sha == mr.diff_refs["start_sha"]
    full = mr.diffs.get(version.id)
    assert [d["new_path"] for d in full.diffs] == ["shop/cart.py", "shop/pricing.py"]
    assert full.commits[0]["id"] == mr.sha
    changes = mr.changes()
    assert [c["diff"] for c in changes["changes"]] == [d["diff"] for d in full.diffs]
    with pytest.raises(gitlab.GitlabGetError) as error:
        mr.diffs.get(version.id + 1)
    assert error.value.response_code == 404


def test_unknown_merge_request_is_404(project):
    with pytest.raises(gitlab.GitlabGetError) as error:
        project.mergerequests.get(999)
    assert error.value.response_code == 404 and error.value.error_message == "404 Not found"
    with pytest.raises(gitlab.GitlabListError) as error:
        project.mergerequests.get(999, lazy=True).notes.list()
    assert error.value.response_code == 404


def test_new_file_diff_flags(project):
    changes = project.mergerequests.get(484).changes()["changes"]
    new = next(c for c in changes if c["new_path"] == "tests/test_tax.py")
    assert new["new_file"] is True and new["diff"].startswith("@@ -0,0 +1,7 @@")


def test_a_pr_agent_style_run(fresh):
    """What qodo-ai/pr-agent's GitLabProvider asks, in its order: the MR, its latest diff version,
    the project's languages, old and new contents at the diff's shas (a new file is 404 at the base),
    an inline comment, and when GitLab refuses a position a plain note carrying the rejected
    `position` (the Notes API ignores it)."""
    _, project = fresh
    mr = project.mergerequests.get(484)
    last_diff = mr.diffs.list(get_all=True)[0]
    assert project.languages() == {"Python": 100.0}
    for change in mr.changes()["changes"]:
        new = project.files.get(change["new_path"], mr.diff_refs["head_sha"]).decode()
        assert new
        if change["new_file"]:
            with pytest.raises(gitlab.GitlabGetError):
                project.files.get(change["old_path"], mr.diff_refs["base_sha"])
    refs = {"base_sha": last_diff.base_commit_sha, "start_sha": last_diff.start_commit_sha,
            "head_sha": last_diff.head_commit_sha}
    pos = {"position_type": "text", "new_path": "shop/tax.py", "old_path": "shop/tax.py", **refs, "new_line": 10}
    mr.discussions.create({"body": "**Suggestion:** ...", "position": pos})
    with pytest.raises(gitlab.GitlabCreateError):
        mr.discussions.create({"body": "x", "position": {**pos, "new_line": 1}})
    fallback = mr.notes.create({"body": "fallback", "position": {**refs, "position_type": "text",
                                                                 "file_path": "shop/tax.py"}})
    assert fallback.type is None and not hasattr(fallback, "position")
    assert mr.commits().next().web_url.endswith(mr.sha)
    mr.notes.update(fallback.id, {"body": "edited"})
    assert mr.notes.get(fallback.id).body == "edited"
    mr.add_labels, mr.remove_labels = "Bug fix", ""
    mr.save()
    assert project.mergerequests.get(484).labels == ["Bug fix"]


# inline discussions
def test_inline_comment_on_an_added_line_of_482_is_listed_with_its_position(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    pos = position(mr, "shop/pricing.py", new_line=3)
    discussion = mr.discussions.create({"body": "Why a dataclass?", "position": pos})
    note = discussion.attributes["notes"][0]
    assert note["type"] == "DiffNote" and note["resolvable"] is True and note["resolved"] is False
    assert discussion.individual_note is False
    listed = mr.discussions.list(get_all=True)
    assert [d.id for d in listed] == [discussion.id]
    stored = listed[0].attributes["notes"][0]["position"]
    assert {k: stored[k] for k in pos} == {**pos, "old_line": None}
    assert stored["position_type"] == "text" and stored["line_range"] is None
    assert mr.notes.list()[0].position["new_line"] == 3


def test_inline_comment_on_a_file_not_in_the_diff_is_refused(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    with pytest.raises(gitlab.GitlabCreateError) as error:
        mr.discussions.create({"body": "old call", "position": position(mr, "shop/checkout.py", new_line=20)})
    assert error.value.response_code == 400 and error.value.error_message == LINE_CODE_400
    assert mr.discussions.list() == []


def test_inline_comment_on_an_unchanged_line_with_new_line_only_is_refused(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    for line in (1, 4, 26):  # 1 and 4 are context lines of the hunk: they need old_line too
        with pytest.raises(gitlab.GitlabCreateError) as error:
            mr.discussions.create({"body": "x", "position": position(mr, "shop/pricing.py", new_line=line)})
        assert error.value.response_code == 400
    assert mr.discussions.list() == []


def test_context_and_removed_lines_take_their_numbers(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    context = mr.discussions.create({"body": "ctx", "position": position(mr, "shop/cart.py", new_line=3, old_line=3)})
    removed = mr.discussions.create({"body": "rm", "position": position(mr, "shop/cart.py", old_line=6)})
    assert context.attributes["notes"][0]["position"]["old_line"] == 3
    assert removed.attributes["notes"][0]["position"]["new_line"] is None
    with pytest.raises(gitlab.GitlabCreateError):  # a removed line by its new number does not exist
        mr.discussions.create({"body": "x", "position": position(mr, "shop/cart.py", new_line=6, old_line=6)})


def test_hunk_edges_and_second_hunk(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    # second hunk of shop/cart.py: @@ -22,4 +22,4 @@, last line is added line 25
    for ok in ({"new_line": 22, "old_line": 22}, {"new_line": 25}, {"old_line": 25}):
        mr.discussions.create({"body": "edge", "position": position(mr, "shop/cart.py", **ok)})
    for bad in ({"new_line": 26}, {"old_line": 26}, {"new_line": 21}, {"new_line": 22, "old_line": 21}):
        with pytest.raises(gitlab.GitlabCreateError):
            mr.discussions.create({"body": "beyond", "position": position(mr, "shop/cart.py", **bad)})
    assert len(mr.discussions.list()) == 3


@pytest.mark.xfail(strict=True, reason="not served yet: test_demo_gitlab_review_bot.py's "
                   "test_a_position_is_accepted_iff_it_names_a_line_of_a_hunk expects these refused")
def test_unchanged_line_outside_the_hunks_is_unfolded_as_in_gitlab(fresh):
    """GitLab unfolds the diff for an unchanged line named by both numbers (Gitlab::Diff::Position#diff_file
    calls unfold_diff_lines; lib/gitlab/diff/lines_unfolder.rb), as when a reviewer expands the diff."""
    _, project = fresh
    mr = project.mergerequests.get(482)
    for old, new in ((15, 15), (1, 1), (10, 10), (21, 21)):  # shop/cart.py: hunks at old 3-9 and 22-25
        created = mr.discussions.create({"body": "gap", "position": position(mr, "shop/cart.py", new, old)})
        assert created.attributes["notes"][0]["position"]["old_line"] == old
    for old, new in ((15, 16), (15, None), (40, 40)):  # wrong offset, one number, past the end of the file
        with pytest.raises(gitlab.GitlabCreateError):
            mr.discussions.create({"body": "x", "position": position(mr, "shop/cart.py", new, old)})
    assert len(mr.discussions.list()) == 4


def test_new_file_lines_by_new_line(fresh):
    _, project = fresh
    mr = project.mergerequests.get(484)
    mr.discussions.create({"body": "test", "position": position(mr, "tests/test_tax.py", new_line=7)})
    with pytest.raises(gitlab.GitlabCreateError):
        mr.discussions.create({"body": "x", "position": position(mr, "tests/test_tax.py", new_line=8)})


def test_too_large_diff_has_no_lines_but_drafts_and_closed_mrs_take_comments(fresh):
    _, project = fresh
    catalog = project.mergerequests.get(486)
    with pytest.raises(gitlab.GitlabCreateError):  # too_large: GitLab has no diff lines for it either
        catalog.discussions.create({"body": "x", "position": position(catalog, "data/catalog.json", new_line=1)})
    draft = project.mergerequests.get(487)
    draft.discussions.create({"body": "todo", "position": position(draft, "shop/checkout.py", new_line=16)})
    draft.state_event = "close"
    draft.save()
    assert draft.notes.create({"body": "closed, still commentable"}).body == "closed, still commentable"
    assert len(project.mergerequests.get(487).notes.list()) == 2


def test_stale_or_foreign_shas_are_refused(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    stale = {**position(mr, "shop/pricing.py", new_line=3), "head_sha": "0" * 40}
    with pytest.raises(gitlab.GitlabCreateError) as error:
        mr.discussions.create({"body": "x", "position": stale})
    assert error.value.response_code == 400
    other = project.mergerequests.get(483)
    with pytest.raises(gitlab.GitlabCreateError):  # !483's shas on !482's line
        mr.discussions.create({"body": "x", "position": {**position(other, "shop/pricing.py", new_line=3)}})


def test_incomplete_position_is_grape_400(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    pos = position(mr, "shop/pricing.py", new_line=3)
    del pos["head_sha"]
    with pytest.raises(gitlab.GitlabCreateError) as error:
        mr.discussions.create({"body": "x", "position": pos})
    assert error.value.response_code == 400 and "position[head_sha] is missing" in str(error.value.error_message)


def test_form_encoded_position_like_curl(fresh):
    sandbox, project = fresh
    mr = project.mergerequests.get(482)
    refs = mr.diff_refs
    url = f"{sandbox.gitlab_url}/api/v4/projects/course%2Fshop/merge_requests/482/discussions"
    form = {"body": "form", "position[position_type]": "text", "position[new_path]": "shop/pricing.py",
            "position[old_path]": "shop/pricing.py", "position[new_line]": "13",
            **{f"position[{k}]": v for k, v in refs.items()}}
    answer = requests.post(url, data=form, headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, timeout=10)
    assert answer.status_code == 201, answer.text
    assert answer.json()["notes"][0]["position"]["new_line"] == 13
    form["position[new_line]"] = "17"  # a context line (old 8 / new 17) named by its new number only
    answer = requests.post(url, data=form, headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, timeout=10)
    assert answer.status_code == 400 and answer.json() == {"message": LINE_CODE_400}


def test_reply_to_an_inline_thread_and_resolve_it(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    discussion = mr.discussions.create({"body": "why?", "position": position(mr, "shop/pricing.py", new_line=3)})
    reply = discussion.notes.create({"body": "because"})
    assert reply.type == "DiffNote" and reply.position == discussion.attributes["notes"][0]["position"]
    discussion = mr.discussions.get(discussion.id)
    assert [n["body"] for n in discussion.attributes["notes"]] == ["why?", "because"]
    discussion.resolved = True
    discussion.save()
    again = mr.discussions.get(discussion.id)
    assert all(n["resolved"] and n["resolved_by"]["username"] == "course-reviewer" for n in again.attributes["notes"])
    late = again.notes.create({"body": "one more thing"})  # a reply to a resolved thread is resolved too
    assert late.resolved is True and late.resolved_by["username"] == "course-reviewer"
    assert all(n["resolved"] for n in mr.discussions.get(discussion.id).attributes["notes"])
    late.delete()
    note = again.notes.get(reply.id)
    note.body = "because, edited"
    note.save()
    assert mr.notes.get(reply.id).body == "because, edited"
    note.delete()
    assert len(mr.discussions.get(discussion.id).attributes["notes"]) == 1
    with pytest.raises(gitlab.GitlabGetError):
        mr.discussions.get("f" * 40)


# notes
def test_notes_crud_and_sort(fresh):
    _, project = fresh
    mr = project.mergerequests.get(483)
    first = mr.notes.create({"body": "first"})
    second = mr.notes.create({"body": "second"})
    assert first.author["username"] == "course-reviewer" and first.type is None and first.resolvable is False
    assert [n.body for n in mr.notes.list()] == ["second", "first"]  # newest first by default
    first.body = "first, edited"
    first.save()
    ordered = mr.notes.list(sort="asc", order_by="updated_at", get_all=True)
    assert [n.body for n in ordered] == ["second", "first, edited"]
    assert [n.id for n in mr.notes.list(sort="asc")] == [first.id, second.id]
    plain = mr.discussions.list(get_all=True)
    assert [d.individual_note for d in plain] == [True, True]
    second.delete()
    with pytest.raises(gitlab.GitlabGetError) as error:
        mr.notes.get(second.id)
    assert error.value.response_code == 404
    with pytest.raises(gitlab.GitlabDeleteError):
        mr.notes.delete(second.id)
    with pytest.raises(gitlab.GitlabCreateError) as error:
        mr.notes.create({"body": "  "})
    assert error.value.response_code == 400


def test_the_reviewer_manages_someone_elses_note_as_a_maintainer(fresh):
    """The token's user merges into protected main, so it is a Maintainer, and GitLab's ProjectPolicy
    gives maintainers `admin_note` (NotePolicy delegates to the project): editing and deleting alice's
    note succeed; the note keeps its author."""
    sandbox, project = fresh
    seeded = sandbox.gitlab.add_note(sandbox.gitlab.merge_requests[482], "LGTM from alice", "alice")
    mr = project.mergerequests.get(482)
    note = mr.notes.get(seeded["id"])
    assert note.author["username"] == "alice"
    assert [u["username"] for u in mr.participants()] == ["alice"]
    note.body = "LGTM from alice (edited by the reviewer)"
    note.save()
    assert mr.notes.get(note.id).author["username"] == "alice"
    note.delete()
    assert mr.notes.list() == []


def test_resolving_a_plain_note_discussion_is_forbidden(fresh):
    _, project = fresh
    mr = project.mergerequests.get(483)
    mr.notes.create({"body": "plain"})
    discussion = mr.discussions.list()[0]
    discussion.resolved = True
    with pytest.raises(gitlab.GitlabUpdateError) as error:
        discussion.save()
    assert error.value.response_code == 403


def test_saving_a_note_touches_the_merge_request(fresh):
    """GitLab's note.rb: `after_save :touch_noteable`. Resolving one note saves it (Note#resolve!), so
    its `updated_at` moves; resolving a whole discussion is an `update_all` (ResolvableNote.resolve!)
    that leaves `updated_at` alone. Bots poll `updated_after` and order notes by `updated_at`."""
    _, project = fresh
    mr = project.mergerequests.get(482)
    before = mr.updated_at
    note = mr.notes.create({"body": "first"})
    assert project.mergerequests.get(482).updated_at == note.updated_at > before
    thread = mr.discussions.create({"body": "inline", "position": position(mr, "shop/pricing.py", new_line=3)})
    first = thread.attributes["notes"][0]
    touched = project.mergerequests.get(482).updated_at
    assert touched == first["updated_at"]
    thread.resolved = True
    thread.save()
    resolved = mr.discussions.get(thread.id).attributes["notes"][0]
    assert resolved["resolved"] and resolved["updated_at"] == first["updated_at"]
    assert project.mergerequests.get(482).updated_at == touched
    single = thread.notes.get(first["id"])
    single.resolved = False
    single.save()
    unresolved = mr.notes.get(first["id"])
    assert unresolved.resolved is False and unresolved.updated_at > first["updated_at"]
    assert project.mergerequests.get(482).updated_at == unresolved.updated_at
    assert [n.id for n in mr.notes.list(order_by="updated_at")] == [first["id"], note.id]
    note.body = "first, edited"
    note.save()
    assert project.mergerequests.get(482).updated_at == mr.notes.get(note.id).updated_at


def test_notes_pagination_headers(fresh):
    sandbox, project = fresh
    mr = project.mergerequests.get(483)
    for n in range(5):
        mr.notes.create({"body": f"n{n}"})
    page = mr.notes.list(per_page=2, page=1)
    assert len(page) == 2
    listing = mr.notes.list(per_page=2, iterator=True)
    assert listing.total == 5 and listing.total_pages == 3 and listing.next_page == 2
    assert len(list(listing)) == 5
    answer = requests.get(f"{sandbox.gitlab_url}/api/v4/projects/7/merge_requests/483/notes?per_page=2",
                          headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, timeout=10)
    assert answer.headers["X-Total"] == "5" and "glpat" not in answer.headers["Link"]
    assert rels(answer) == {"next": 2, "first": 1, "last": 3}  # as GitLab's OffsetHeaderBuilder
    answer = requests.get(f"{sandbox.gitlab_url}/api/v4/projects/7/merge_requests/483/notes?per_page=2&page=3",
                          headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, timeout=10)
    assert rels(answer) == {"prev": 2, "first": 1, "last": 3} and answer.headers["X-Prev-Page"] == "2"
    assert [len(mr.notes.list(per_page=2, page=n)) for n in (1, 2, 3, 4)] == [2, 2, 1, 0]


def rels(answer):
    """The Link header's relations and their page numbers."""
    links = requests.utils.parse_header_links(answer.headers["Link"])
    return {link["rel"]: int(re.search(r"[?&]page=(\d+)", link["url"]).group(1)) for link in links}


# approvals and updates
def test_approve_unapprove_and_approvals(fresh):
    _, project = fresh
    mr = project.mergerequests.get(483)
    state = mr.approvals.get()
    assert state.approved is False and state.approvals_left == 1 and state.approved_by == []
    mr.approve()
    state = mr.approvals.get()
    assert state.approved is True and [a["user"]["username"] for a in state.approved_by] == ["course-reviewer"]
    with pytest.raises(gitlab.GitlabAuthenticationError):  # 401 on a second approval, as in GitLab
        mr.approve()
    mr.unapprove()
    with pytest.raises(gitlab.GitlabMRApprovalError) as error:
        mr.unapprove()
    assert error.value.response_code == 404
    with pytest.raises(gitlab.GitlabMRApprovalError) as error:
        mr.approve(sha="0" * 40)
    assert error.value.response_code == 409


def test_labels_and_title_through_save(fresh):
    _, project = fresh
    mr = project.mergerequests.get(482)
    mr.labels = ["ai-reviewed", "needs-work"]
    mr.save()
    assert project.mergerequests.get(482).labels == ["ai-reviewed", "needs-work"]
    assert [m.iid for m in project.mergerequests.list(labels="ai-reviewed")] == [482]
    mr.title = "Draft: " + mr.title
    mr.save()
    assert project.mergerequests.get(482).draft is True
    mr.state_event = "close"
    mr.save()
    assert project.mergerequests.get(482).state == "closed"


# repository
def test_repository_tree_compare_branches(project):
    tree = project.repository_tree(recursive=True, get_all=True)
    paths = {entry["path"] for entry in tree}
    assert {"shop/checkout.py", "shop/cart.py", "README.md"} <= paths
    assert all(entry["type"] in ("blob", "tree") for entry in tree)
    compare = project.repository_compare("main", "feature/discount-object")
    assert [d["new_path"] for d in compare["diffs"]] == ["shop/cart.py", "shop/pricing.py"]
    assert compare["commit"]["id"] == project.mergerequests.get(482).sha
    names = [b.name for b in project.branches.list(get_all=True)]
    assert "main" in names and "feature/discount-object" in names
    assert project.branches.get("main").default is True
    with pytest.raises(gitlab.GitlabGetError) as error:
        project.branches.get("nope")
    assert error.value.error_message == "404 Branch Not Found"


def test_commits_and_their_diffs(project):
    commits = project.commits.list(ref_name="feature/discount-object", get_all=True)
    head = project.commits.get(commits[0].id)
    assert head.id == project.mergerequests.get(482).sha and head.stats["total"] > 0
    diff = head.diff(get_all=True)
    assert {d["new_path"] for d in diff} == {"shop/cart.py", "shop/pricing.py"}
    with pytest.raises(gitlab.GitlabGetError) as error:
        project.commits.get("0" * 40)
    assert error.value.error_message == "404 Commit Not Found"
    with_stats = project.commits.list(ref_name="feature/discount-object", with_stats=True, get_all=True)
    assert with_stats[0].stats == head.stats and "stats" not in commits[0].attributes
    assert project.commits.list(ref_name="no-such-branch") == []  # GitLab's repository.commits finds none


def test_files_raw_head_get_blame(project):
    raw = project.files.raw("shop/checkout.py")
    assert b"calculate_total" in raw
    head = project.files.head("shop/checkout.py", ref="main")
    assert head["X-Gitlab-File-Path"] == "shop/checkout.py" and int(head["X-Gitlab-Size"]) == len(raw)
    file = project.files.get("shop/checkout.py", ref="main")
    assert file.decode() == raw and file.file_name == "checkout.py"
    branch_file = project.files.get("shop/pricing.py", ref="feature/discount-object")
    assert b"class Discount" in branch_file.decode()
    blame = project.files.blame("shop/checkout.py", "main")
    assert sum(len(r["lines"]) for r in blame) == raw.decode().count("\n")
    with pytest.raises(gitlab.GitlabGetError) as error:
        project.files.get("nope.py", ref="main")
    assert error.value.error_message == "404 File Not Found"
    with pytest.raises(gitlab.GitlabGetError) as error:
        project.files.raw("shop/checkout.py", ref="no-such-branch")
    assert error.value.response_code == 404


def test_head_answers_like_get_without_a_body(sb):
    url = f"{sb.gitlab_url}/api/v4/projects/7/repository/files/shop%2Fcart.py?ref=main"
    headers = {"PRIVATE-TOKEN": sb.gitlab_token}
    got, head = requests.get(url, headers=headers, timeout=10), requests.head(url, headers=headers, timeout=10)
    assert got.status_code == head.status_code == 200 and head.content == b""
    assert {k: v for k, v in got.headers.items() if k.startswith("X-Gitlab")} == {
        k: v for k, v in head.headers.items() if k.startswith("X-Gitlab")}


# errors
def test_error_statuses_and_bodies(sb):
    base = f"{sb.gitlab_url}/api/v4"
    headers = {"PRIVATE-TOKEN": sb.gitlab_token}
    assert requests.get(f"{base}/projects/7", timeout=10).json() == {"message": "401 Unauthorized"}
    unknown = requests.get(f"{base}/projects/7/merge_requests/482/nope", headers=headers, timeout=10)
    assert unknown.status_code == 404 and unknown.json() == {"error": "404 Not Found"}
    deleted = requests.delete(f"{base}/projects/7/merge_requests/482/notes/{'9' * 9}", headers=headers, timeout=10)
    assert deleted.status_code == 404 and deleted.json() == {"message": "404 Not found"}
    missing = requests.get(f"{base}/projects/7/merge_requests/482/discussions/{'a' * 40}", headers=headers,
                           timeout=10)
    assert missing.status_code == 404 and missing.json() == {"message": "404 Discussion Not Found"}
    notes = requests.get(f"{base}/projects/7/merge_requests/482/discussions/{'a' * 40}/notes", headers=headers,
                         timeout=10)  # lib/api/discussions.rb: not_found!("Notes")
    assert notes.status_code == 404 and notes.json() == {"message": "404 Notes Not Found"}
    note = requests.get(f"{base}/projects/7/merge_requests/482/notes/1", headers=headers, timeout=10)
    assert note.status_code == 404 and note.json() == {"message": "404 Not found"}


def test_a_token_in_the_query_authenticates(sb):
    """docs.gitlab.com/api/rest/authentication: a personal access token in `private_token` (or, as
    an OAuth-style token, `access_token`) works like the header (Gitlab::Auth::AuthFinders)."""
    url = f"{sb.gitlab_url}/api/v4/projects/course%2Fshop/merge_requests/482"
    for name in ("private_token", "access_token"):
        assert requests.get(url, params={name: sb.gitlab_token}, timeout=10).json()["iid"] == 482
        assert requests.get(url, params={name: "glpat-wrong"}, timeout=10).status_code == 401


def test_merge_request_state_filter_is_checked(project):
    """lib/api/helpers/merge_requests_helpers.rb: `values: %w[opened closed locked merged all]`."""
    assert project.mergerequests.list(state="merged") == []
    with pytest.raises(gitlab.GitlabListError) as error:
        project.mergerequests.list(state="open")
    assert error.value.response_code == 400 and error.value.error_message == "state does not have a valid value"


def test_bad_token_raises_authentication_error(sb):
    with pytest.raises(gitlab.GitlabAuthenticationError):
        gitlab.Gitlab(sb.gitlab_url, private_token="glpat-wrong").projects.get(7)


# every line of every diff, as hypothesis picks them
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_diff_line_is_accepted_and_any_line_outside_refused(project, data):
    iid = data.draw(st.sampled_from([482, 483, 484, 487]))
    mr = project.mergerequests.get(iid)
    change = data.draw(st.sampled_from(mr.changes()["changes"]))
    lines = hunk_lines(change["diff"])
    old, new = data.draw(st.sampled_from(lines))
    pos = position(mr, change["new_path"], new_line=new, old_line=old)
    created = mr.discussions.create({"body": "hypothesis", "position": pos})
    assert created.attributes["notes"][0]["position"]["new_line"] == new
    created.notes.get(created.attributes["notes"][0]["id"]).delete()
    outside = data.draw(st.integers(1, 200).filter(lambda n: (None, n) not in lines))
    with pytest.raises(gitlab.GitlabCreateError):
        mr.discussions.create({"body": "x", "position": position(mr, change["new_path"], new_line=outside)})


# positions against diffs hypothesis writes, with difflib's own hunks as the oracle
REFS = {"base_sha": "b" * 40, "start_sha": "b" * 40, "head_sha": "h" * 40}
source_lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e\n"]), max_size=25)


def diff_of(old, new):
    """A unified diff with three lines of context, and its lines per difflib's grouped opcodes."""
    text = "".join(list(difflib.unified_diff(old, new, n=3))[2:])
    lines = set()
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(3):
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines |= {(i + 1, j + 1) for i, j in zip(range(i1, i2), range(j1, j2))}
            else:
                lines |= {(i + 1, None) for i in range(i1, i2)} | {(None, j + 1) for j in range(j1, j2)}
    return text, lines


@settings(max_examples=200, deadline=None)
@given(old=source_lines, new=source_lines, old_line=st.none() | st.integers(0, 30),
       new_line=st.none() | st.integers(0, 30), renamed=st.booleans())
def test_a_position_names_exactly_the_lines_difflib_put_in_the_hunks(old, new, old_line, new_line, renamed):
    diff, lines = diff_of(old, new)
    old_path, new_path = ("a.py", "b.py") if renamed else ("b.py", "b.py")
    change = {"old_path": old_path, "new_path": new_path, "diff": diff, "new_file": False,
              "deleted_file": False, "renamed_file": renamed}
    position = {**REFS, "position_type": "text", "old_path": old_path, "new_path": new_path,
                "old_line": old_line, "new_line": new_line}
    if old_line is None and new_line is None:
        return
    if None not in (old_line, new_line) and (old_line, new_line) not in lines:
        return  # an unchanged line outside the hunks: GitLab unfolds the diff (see the xfail above)
    try:
        check_position(parse_position(position), REFS, [change])
        accepted = True
    except GitLabError as error:
        assert error.status == 400
        accepted = False
    assert accepted == ((old_line, new_line) in lines)


def test_a_renamed_file_is_found_by_either_path():
    diff, _ = diff_of(["a\n"] * 8, ["a\n"] * 4 + ["b\n"] + ["a\n"] * 4)
    change = {"old_path": "old.py", "new_path": "new.py", "diff": diff, "new_file": False, "deleted_file": False}
    for paths in ({"new_path": "new.py"}, {"old_path": "old.py"}, {"old_path": "old.py", "new_path": "new.py"}):
        check_position(parse_position({**REFS, "position_type": "text", **paths, "new_line": 5}), REFS, [change])
    with pytest.raises(GitLabError):
        check_position(parse_position({**REFS, "position_type": "text", "new_path": "other.py", "new_line": 5}),
                       REFS, [change])
