"""python-gitlab's own functional tests for the routes a reviewer or a bot uses, run against the
demo GitLab. Source: github.com/python-gitlab/python-gitlab at commit
00e380267b2408f77a23fccfaa1d64ba0bc38cac, `tests/functional/api/test_merge_requests.py` and
`tests/functional/api/test_repository.py` (LGPL-3.0), re-written here in our words.

The test bodies keep python-gitlab's calls and assertions; only the fixtures are adapted:
`project` is `course/shop` in a fresh sandbox, `merge_request` is !482 (python-gitlab creates a
fresh MR from a new branch), the `time.sleep` pauses that let a real GitLab catch up are left
out, and where a test first writes to the repository through routes the demo does not serve
(`files.create`, `commits.create`), the fixture reaches the same state another way (named
in each test). Left out: tests of routes no review uses (archives, snapshot, cherry-pick,
revert, statuses, approval rules, pipelines, milestones, access tokens).
"""

import gitlab
import pytest


@pytest.fixture
def merge_request(project):
    return project.mergerequests.get(482)


# test_merge_requests.py
def test_merge_requests_get(project, merge_request):
    mr = project.mergerequests.get(merge_request.iid)
    assert mr.iid == merge_request.iid

    mr = project.mergerequests.get(str(merge_request.iid))
    assert mr.iid == merge_request.iid


def test_merge_requests_get_lazy(project, merge_request):
    mr = project.mergerequests.get(merge_request.iid, lazy=True)
    assert mr.iid == merge_request.iid


def test_merge_request_discussion(project):
    mr = project.mergerequests.list()[0]

    discussion = mr.discussions.create({"body": "Discussion body"})
    assert discussion in mr.discussions.list()

    note = discussion.notes.create({"body": "first note"})
    note_from_get = discussion.notes.get(note.id)
    note_from_get.body = "updated body"
    note_from_get.save()

    discussion = mr.discussions.get(discussion.id)
    assert discussion.attributes["notes"][-1]["body"] == "updated body"

    note_from_get.delete()


def test_merge_request_labels(project):
    mr = project.mergerequests.list()[0]
    mr.labels = ["label2"]
    mr.save()

    events = mr.resourcelabelevents.list()
    assert events

    event = mr.resourcelabelevents.get(events[0].id)
    assert event


def test_merge_request_basic(project):
    mr = project.mergerequests.list()[0]
    # basic testing: only make sure that the methods exist
    mr.commits()
    mr.changes()
    participants = mr.participants()
    assert participants
    assert isinstance(participants, list)


def test_merge_request_rebase(project):
    mr = project.mergerequests.list()[0]
    assert mr.rebase()


def test_merge_request_merge(project, merge_request):
    merge_request.merge()

    mr = project.mergerequests.get(merge_request.iid)
    assert mr.merged_at is not None
    assert mr.merge_when_pipeline_succeeds is False
    with pytest.raises(gitlab.GitlabMRClosedError):
        # Two merge attempts should raise GitlabMRClosedError
        mr.merge()


def test_merge_request_should_remove_source_branch(project, merge_request):
    merge_request.merge(should_remove_source_branch=True)

    mr = project.mergerequests.get(merge_request.iid)
    assert mr is not None
    assert mr.merged_at is not None

    # Ensure we can NOT get the MR branch
    with pytest.raises(gitlab.exceptions.GitlabGetError):
        project.branches.get(merge_request.source_branch)


def test_merge_request_large_commit_message(project, merge_request):
    merge_commit_message = "large_message\r\n" * 1_000
    assert len(merge_commit_message) > 10_000

    merge_request.merge(merge_commit_message=merge_commit_message, should_remove_source_branch=False)

    mr = project.mergerequests.get(merge_request.iid)
    assert mr is not None
    assert mr.merged_at is not None

    # Ensure we can get the MR branch
    project.branches.get(merge_request.source_branch)


def test_merge_request_merge_ref(merge_request):
    response = merge_request.merge_ref()
    assert response and "commit_id" in response


def test_merge_request_merge_ref_should_fail(project):
    # Create conflict. Adapted: python-gitlab commits a clashing file to main; here !484, which
    # changes the same lines of shop/checkout.py as !487, is merged first.
    project.mergerequests.get(484).merge()
    merge_request = project.mergerequests.get(487)

    # Check for non-existing merge_ref for MR with conflicts
    with pytest.raises(gitlab.exceptions.GitlabGetError):
        response = merge_request.merge_ref()
        assert "commit_id" not in response


# test_repository.py
def test_repository_tree(project):
    tree = project.repository_tree()
    assert tree
    # Adapted: python-gitlab's project holds one README.rst; the demo's first entry is README.md.
    assert tree[0]["name"] == "README.md"

    blob_id = tree[0]["id"]
    blob = project.repository_raw_blob(blob_id)
    assert blob.decode() == project.files.raw(file_path="README.md", ref="main").decode()


def test_commit_signature(project):
    commit = project.commits.list()[0]

    with pytest.raises(gitlab.GitlabGetError) as e:
        commit.signature()

    assert "404 Signature Not Found" in str(e.value)


def test_commit_comment(project):
    commit = project.commits.list()[0]

    commit.comments.create({"note": "This is a commit comment"})
    assert len(commit.comments.list()) == 1


def test_commit_discussion(project):
    commit = project.commits.list()[0]

    discussion = commit.discussions.create({"body": "Discussion body"})
    assert discussion in commit.discussions.list()

    note = discussion.notes.create({"body": "first note"})
    note_from_get = discussion.notes.get(note.id)
    note_from_get.body = "updated body"
    note_from_get.save()
    discussion = commit.discussions.get(discussion.id)

    note_from_get.delete()


def test_repository_merge_base(project):
    # Adapted: main has one commit at start, python-gitlab's project several; a merge adds two.
    project.mergerequests.get(483).merge()
    refs = [commit.id for commit in project.commits.list(all=True)]

    commit = project.repository_merge_base(refs)
    assert commit["id"] in refs

    with pytest.raises(gitlab.GitlabGetError, match="Provide at least 2 refs"):
        commit = project.repository_merge_base(refs[0])
