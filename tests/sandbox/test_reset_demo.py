"""reset_demo() puts the demo GitLab back as it was at start, through the same server and URLs."""

import gitlab

from course_sandbox import Sandbox


def test_reset_demo_undoes_merges_and_notes_and_keeps_serving():
    with Sandbox() as sandbox:
        project = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project)
        start = sandbox.gitlab.repository.sha("main")
        notes = len(project.mergerequests.get(482).notes.list(get_all=True))
        project.mergerequests.get(483).merge()
        project.mergerequests.get(482).notes.create({"body": "a note"})
        assert sandbox.gitlab.repository.sha("main") != start
        sandbox.reset_demo()
        assert project.mergerequests.get(483).state == "opened"
        assert sandbox.gitlab.repository.sha("main") == start
        assert len(project.mergerequests.get(482).notes.list(get_all=True)) == notes
        project.mergerequests.get(483).merge()  # the reset project merges again
        assert sandbox.gitlab.repository.sha("main") != start
