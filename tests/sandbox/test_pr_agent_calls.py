"""The GitLab calls pr-agent's GitLab provider makes during a review, made the same way through
python-gitlab against the demo GitLab. Source: github.com/qodo-ai/pr-agent at commit
0e37fc84fcc8207561e64eef8f7f634fb57e8447, `pr_agent/git_providers/gitlab_provider.py`; each step
names the provider method it mirrors. pr-agent itself is not vendored or installed: the calls are
re-made here in our words, with the arguments it passes.
"""

import gitlab
import pytest

from course_sandbox.demo_gitlab.positions import diff_lines

MR_URL_PATH = "course/shop"
MR_IID = 482


@pytest.fixture
def gl(sandbox):
    """GitLabProvider.__init__ with GITLAB.AUTH_TYPE = private_token."""
    return gitlab.Gitlab(url=sandbox.gitlab_url, private_token=sandbox.gitlab_token)


def _added_line(change: dict) -> int:
    return next(line.new for line in diff_lines(change["diff"]) if line.old is None)


def test_a_review_makes_every_call_the_demo_answers(gl):
    # _set_merge_request: the MR, and its last diff version
    mr = gl.projects.get(MR_URL_PATH).mergerequests.get(MR_IID)
    last_diff = mr.diffs.list(get_all=True)[-1]
    assert last_diff.head_commit_sha == mr.diff_refs["head_sha"]

    # get_diff_files: changes, and each file before and after (get_pr_file_content)
    changes = mr.changes().get("changes", [])
    assert changes
    for diff in changes:
        project = gl.projects.get(MR_URL_PATH)
        if not diff["new_file"]:
            project.files.get(diff["old_path"], mr.diff_refs["base_sha"]).decode()
        if not diff["deleted_file"]:
            assert project.files.get(diff["new_path"], mr.diff_refs["head_sha"]).decode()

    # get_languages, get_canonical_url_parts, get_repo_settings (no .pr_agent.toml: pr-agent catches the 404)
    assert gl.projects.get(MR_URL_PATH).languages()
    main_branch = gl.projects.get(MR_URL_PATH).default_branch
    with pytest.raises(gitlab.GitlabGetError) as missing:
        gl.projects.get(MR_URL_PATH).files.get(file_path=".pr_agent.toml", ref=main_branch)
    assert missing.value.response_code == 404
    # _get_gitmodules_map: no .gitmodules either
    with pytest.raises(gitlab.GitlabGetError):
        gl.projects.get(MR_URL_PATH).files.get(file_path=".gitmodules", ref=mr.target_branch)

    # the webhook server: get_issue_comments, then add_eyes_reaction on the command's comment
    command = mr.notes.create({"body": "/review"})
    assert command.id in [note.id for note in mr.notes.list(get_all=True)[::-1]]
    comment = gl.projects.get(MR_URL_PATH).mergerequests.get(MR_IID).notes.get(command.id)
    award_emoji = comment.awardemojis.create({"name": "eyes"})
    assert award_emoji.id and award_emoji.name == "eyes"

    # publish_comment (temporary "Preparing review..."), edit_comment, edit_comment_from_comment_id
    temporary = mr.notes.create({"body": "Preparing review..."})
    mr.notes.update(temporary.id, {"body": "Preparing review... (1/2)"})
    fetched = mr.notes.get(temporary.id)
    fetched.body = "Preparing review... (2/2)"
    fetched.save()
    assert mr.notes.get(temporary.id).body == "Preparing review... (2/2)"
    assert mr.notes.get(temporary.id).body == mr.notes.get(temporary.id).attributes["body"]  # get_comment_body...

    # get_commit_messages, get_latest_commit_url, get_pr_id, get_pr_branch, get_title, get_pr_description_full
    assert [commit.message for commit in mr.commits()]
    assert mr.commits().next().web_url
    assert mr.web_url and mr.source_branch and mr.title and mr.description is not None

    # send_inline_comment: a thread at an added line, with the last diff version's shas
    change = next(c for c in changes if not c["deleted_file"] and not c["too_large"])
    diff = last_diff
    pos_obj = {"position_type": "text", "new_path": change["new_path"], "old_path": change["old_path"],
               "base_sha": diff.base_commit_sha, "start_sha": diff.start_commit_sha,
               "head_sha": diff.head_commit_sha, "new_line": _added_line(change)}
    thread = mr.discussions.create({"body": "**Suggestion:** ...", "position": pos_obj})
    # reply_to_comment_from_comment_id
    mr.discussions.get(thread.id).notes.create({"body": "Answered"})
    # the fallback when a position is refused: a note with a file position (GitLab keeps it as a note)
    mr.notes.create({"body": "fallback", "position": {**{k: pos_obj[k] for k in ("base_sha", "start_sha", "head_sha")},
                                                      "position_type": "text", "file_path": change["new_path"]}})

    # publish_description, publish_labels, get_pr_labels, get_repo_labels
    mr.title, mr.description = mr.title, "## PR Type\nEnhancement"
    mr.save()
    mr.labels = list({"enhancement", "Review effort 2/5"})
    mr.save()
    assert sorted(mr.labels) == ["Review effort 2/5", "enhancement"]
    repo_labels = gl.projects.get(MR_URL_PATH).labels.list()
    assert {"enhancement", "Review effort 2/5"} <= {label.name for label in repo_labels}

    # publish_persistent_comment / remove_initial_comment: the temporary comment goes
    temporary.delete()
    with pytest.raises(gitlab.GitlabGetError):
        mr.notes.get(temporary.id)

    # remove_reaction: the provider lists the comment's reactions and deletes the one it added
    comment = gl.projects.get(MR_URL_PATH).mergerequests.get(MR_IID).notes.get(command.id)
    reactions = comment.awardemojis.list()
    assert [reaction.name for reaction in reactions] == ["eyes"]
    next(r for r in reactions if r.id == award_emoji.id).delete()
    assert comment.awardemojis.list() == []


def test_the_eyes_reaction_twice_is_gitlabs_404(gl):
    """pr-agent logs the error and carries on; the body is GitLab's (lib/api/award_emoji.rb)."""
    mr = gl.projects.get(MR_URL_PATH).mergerequests.get(MR_IID)
    note = mr.notes.get(mr.notes.create({"body": "/describe"}).id)
    note.awardemojis.create({"name": "eyes"})
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        note.awardemojis.create({"name": "eyes"})
    assert (caught.value.response_code, caught.value.error_message) == (
        404, '404 Award Emoji ["User has already been taken"] Not Found')
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        note.awardemojis.create({"name": "not-an-emoji"})
    assert caught.value.error_message == '404 Award Emoji ["Name is not a valid emoji name"] Not Found'
    with pytest.raises(gitlab.GitlabGetError) as caught:
        note.awardemojis.get(999_999)
    assert (caught.value.response_code, caught.value.error_message) == (404, "404 Not found")
