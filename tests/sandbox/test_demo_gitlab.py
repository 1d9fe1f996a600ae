"""The demo GitLab through the real python-gitlab client: every call a reviewer makes."""

import base64
import json
import threading
import time
import urllib.request

import gitlab
import pytest

from sandbox_http import raw_post
from course_sandbox import Sandbox


def test_project_by_encoded_path_and_by_numeric_id(gl, sandbox):
    by_path = gl.projects.get("course/shop")
    by_id = gl.projects.get(by_path.id)
    assert by_path.path_with_namespace == by_id.path_with_namespace == "course/shop"
    assert by_id.default_branch == "main"
    assert sandbox.env()["GITLAB_PROJECT"] == "course/shop"


def test_bearer_token_and_current_user(sandbox):
    gl = gitlab.Gitlab(sandbox.gitlab_url, oauth_token=sandbox.gitlab_token)
    gl.auth()
    assert gl.user.username == "course-reviewer"


@pytest.mark.parametrize("iid, files", [
    (482, {"shop/cart.py", "shop/pricing.py"}),
    (483, {"shop/money.py", "tests/test_money.py"}),
    (484, {"shop/checkout.py", "shop/tax.py", "tests/test_tax.py"}),
    (485, {"README.md"}),
    (486, {"data/catalog.json", "shop/catalog.py"}),
    (487, {"shop/checkout.py"}),
])
def test_every_demo_mr_has_its_changes_from_git(project, iid, files):
    changes = project.mergerequests.get(iid).changes()
    assert {c["new_path"] for c in changes["changes"]} == files
    assert changes["overflow"] is False
    for change in changes["changes"]:
        assert set(change) >= {"old_path", "new_path", "diff", "new_file", "renamed_file", "deleted_file",
                               "a_mode", "b_mode", "too_large", "collapsed", "generated_file"}
        assert change["too_large"] or change["diff"].startswith("@@ ")


def test_482_changes_the_signature_and_leaves_checkout_alone(project):
    mr = project.mergerequests.get(482)
    diff = {c["new_path"]: c["diff"] for c in mr.changes()["changes"]}
    assert "+def calculate_total(items, *, discount: Discount | None = None):" in diff["shop/pricing.py"]
    assert "-def calculate_total(items, discount_percent):" in diff["shop/pricing.py"]
    checkout = project.files.get("shop/checkout.py", ref=mr.source_branch).decode().decode()
    assert "calculate_total(cart.items, coupon_percent)" in checkout


def test_too_large_file_has_an_empty_diff_but_can_be_read(project):
    mr = project.mergerequests.get(486)
    catalog = next(c for c in mr.changes()["changes"] if c["new_path"] == "data/catalog.json")
    assert catalog["too_large"] is True and catalog["diff"] == ""
    rows = json.loads(project.files.raw("data/catalog.json", ref=mr.source_branch))
    assert len(rows) == 6000


def test_new_file_in_an_mr(project):
    change = next(c for c in project.mergerequests.get(484).changes()["changes"]
                  if c["new_path"] == "tests/test_tax.py")
    assert change["new_file"] is True and change["a_mode"] == "0"


def test_files_get_and_raw(project):
    got = project.files.get("shop/pricing.py", ref="main")
    assert got.encoding == "base64" and got.file_name == "pricing.py"
    assert got.decode() == project.files.raw("shop/pricing.py", ref="main")
    assert base64.b64decode(got.content).startswith(b'"""Prices of carts')


def test_file_path_with_spaces_and_unicode(project):
    path = "docs/Руководство покупателя.md"
    assert project.files.get(path, ref="main").decode().decode().startswith("# Руководство покупателя")
    assert "Скидка" in project.files.raw(path, ref="main").decode()


def test_unknown_mr_file_project_and_bad_token_give_the_real_errors(gl, project, sandbox):
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.mergerequests.get(999)
    assert (caught.value.response_code, caught.value.error_message) == (404, "404 Not found")
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.files.get("shop/nothing.py", ref="main")
    assert caught.value.error_message == "404 File Not Found"
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.files.get("shop/pricing.py", ref="no-such-branch")
    assert caught.value.error_message == "404 Commit Not Found"  # GitLab looks the ref up first
    with pytest.raises(gitlab.GitlabGetError) as caught:
        gl.projects.get("course/other")
    assert caught.value.error_message == "404 Project Not Found"
    with pytest.raises(gitlab.GitlabAuthenticationError) as caught:
        gitlab.Gitlab(sandbox.gitlab_url, private_token="glpat-wrong").projects.get("course/shop")
    assert caught.value.response_code == 401


def test_notes_create_and_list_with_pagination(project):
    mr = project.mergerequests.get(483)
    created = [mr.notes.create({"body": f"note {n}"}) for n in range(5)]
    assert [n.author["username"] for n in created] == ["course-reviewer"] * 5
    first_page = mr.notes.list(per_page=2, get_all=False)
    assert len(first_page) == 2
    every = [n.body for n in mr.notes.list(per_page=2, iterator=True)]
    assert every == [f"note {n}" for n in reversed(range(5))]  # GitLab's default: sort=desc, newest first
    oldest_first = [n.body for n in mr.notes.list(per_page=2, iterator=True, sort="asc")]
    assert oldest_first == [f"note {n}" for n in range(5)]


def test_empty_note_is_refused(project):
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        project.mergerequests.get(483).notes.create({"body": "  "})
    assert caught.value.response_code == 400


def test_merge_requests_list_paginates(project):
    assert [mr.iid for mr in project.mergerequests.list(per_page=4, iterator=True)] == [487, 486, 485, 484, 483, 482]
    assert [mr.iid for mr in project.mergerequests.list(state="merged", get_all=True)] == []


def test_a_real_merge_moves_main_and_a_second_merge_is_refused(sandbox, project):
    repo = sandbox.gitlab.repository
    before = repo.sha("main")
    mr = project.mergerequests.get(483)
    result = mr.merge()
    assert result["state"] == "merged"
    after = repo.sha("main")
    assert after != before and result["merge_commit_sha"] == after
    assert repo.git("rev-parse", f"{after}^1").decode().strip() == before
    assert "2f}" in project.files.raw("shop/money.py", ref="main").decode()
    assert project.mergerequests.get(483).state == "merged"
    with pytest.raises(gitlab.GitlabMRClosedError) as caught:
        mr.merge()
    assert (caught.value.response_code, caught.value.error_message) == (405, "405 Method Not Allowed")
    assert repo.sha("main") == after
    assert {c["new_path"] for c in project.mergerequests.get(483).changes()["changes"]} == {
        "shop/money.py", "tests/test_money.py"}


def test_draft_mr_cannot_be_merged(sandbox, project):
    before = sandbox.gitlab.repository.sha("main")
    with pytest.raises(gitlab.GitlabMRClosedError) as caught:
        project.mergerequests.get(487).merge()
    assert caught.value.response_code == 405
    assert sandbox.gitlab.repository.sha("main") == before


def test_stale_sha_is_409_and_changes_nothing(sandbox, project):
    before = sandbox.gitlab.repository.sha("main")
    with pytest.raises(gitlab.GitlabMRClosedError) as caught:
        project.mergerequests.get(482).merge(sha="0" * 40)
    assert caught.value.response_code == 409
    assert sandbox.gitlab.repository.sha("main") == before


def test_conflict_is_405_and_leaves_the_repository_as_it_was(sandbox, project):
    """GitLab's merge endpoint checks mergeability before merging: a conflict is `not_allowed!` (gitlab-org/gitlab#364102);
    422 "Branch cannot be merged" is for a merge that fails after that check."""
    repo = sandbox.gitlab.repository
    (repo.path / "shop" / "cart.py").write_text("# rewritten on main\n", encoding="utf-8")
    repo.sha("main")  # remembered before the hand-made commit...
    repo.git("commit", "-q", "-am", "A conflicting change on main")
    repo.refs_moved()  # ...and forgotten after it
    before = repo.sha("main")
    with pytest.raises(gitlab.GitlabMRClosedError) as caught:
        project.mergerequests.get(482).merge()
    assert (caught.value.response_code, caught.value.error_message) == (405, "405 Method Not Allowed")
    assert repo.sha("main") == before
    assert project.mergerequests.get(482).state == "opened"


def test_429_with_retry_after_is_retried_by_python_gitlab(sandbox, project):
    sandbox.faults.rate_limit(times=1, retry_after=1, path="/api/v4/")
    started = time.monotonic()
    assert project.mergerequests.get(482).iid == 482
    assert time.monotonic() - started >= 1
    assert sandbox.faults.pending() == []


def test_500_is_an_error_unless_transient_retries_are_on(sandbox):
    gl = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token)
    sandbox.faults.server_error(path="/api/v4/", retry_after=None)
    with pytest.raises(gitlab.GitlabGetError) as caught:
        gl.projects.get("course/shop")
    assert caught.value.response_code == 500
    sandbox.faults.server_error(path="/api/v4/", retry_after=None)
    patient = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token, retry_transient_errors=True)
    assert patient.projects.get("course/shop").id == 7


@pytest.mark.parametrize("path, status", [
    ("/api/v4/projects/7/repository/files/..%2F..%2Fetc%2Fpasswd?ref=main", 400),
    ("/api/v4/projects/7/repository/files/%2Fetc%2Fpasswd?ref=main", 400),
    ("/api/v4/projects/7/repository/files/shop%2Fpricing.py?ref=--output%3D%2Ftmp%2Fx", 404),
    ("/api/v4/projects/7/repository/files/shop%2Fpricing.py", 400),
    ("/api/v4/projects/7/merge_requests/99999999999999999999999", 404),
    ("/api/v4/projects/7/merge_requests/-1", 400),
    ("/api/v4/projects/7/merge_requests/482/nothing", 404),
    ("/api/v4/projects/..%2F..%2F7", 404),
    ("/api/v4/nothing", 404),
])
def test_hostile_and_unknown_paths_are_refused_cleanly(sandbox, path, status):
    code, body = raw_post(sandbox, path, None, headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, method="GET")
    assert code == status
    assert isinstance(body, dict) and ("message" in body or "error" in body)
    code, _ = raw_post(sandbox, "/api/v4/projects/7", None, headers={"PRIVATE-TOKEN": sandbox.gitlab_token},
                       method="GET")
    assert code == 200


def test_wrong_method_is_405_json(sandbox):
    code, body = raw_post(sandbox, "/api/v4/projects/7/merge_requests/482", b"{}",
                          headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, method="DELETE")
    assert (code, body) == (405, {"message": "405 Method Not Allowed"})


def test_each_sandbox_has_its_own_repository():
    with Sandbox() as first, Sandbox() as second:
        gitlab.Gitlab(first.gitlab_url, private_token=first.gitlab_token).projects.get(7) \
            .mergerequests.get(483).merge()
        assert first.gitlab.repository.sha("main") != second.gitlab.repository.sha("main")
        assert second.gitlab.merge_requests[483].state == "opened"


def test_web_urls_do_not_depend_on_the_port(project):
    mr = project.mergerequests.get(482)
    assert mr.web_url == "https://gitlab.sandbox.invalid/course/shop/-/merge_requests/482"


def test_fixtures_never_bring_compiled_files(project):
    for iid in range(482, 488):
        paths = [c["new_path"] for c in project.mergerequests.get(iid).changes()["changes"]]
        assert not any("__pycache__" in p or p.endswith(".pyc") for p in paths)


@pytest.mark.parametrize("path, data", [
    ("/api/v4/projects/7/merge_requests/%C2%B2", None),
    ("/api/v4/projects/7/merge_requests/483/merge", b'{"merge_commit_message": 5}'),
    ("/api/v4/projects/7/merge_requests/483/merge", b'{"merge_commit_message": "a\\u0000b"}'),
    ("/api/v4/projects/7/merge_requests/483/notes", b'{"body": "\\ud800"}'),
])
def test_odd_values_are_refused_cleanly(sandbox, path, data):
    method = "GET" if data is None else ("POST" if path.endswith("notes") else "PUT")
    code, body = raw_post(sandbox, path, data, headers={"PRIVATE-TOKEN": sandbox.gitlab_token}, method=method)
    assert code == 400 and ("error" in body or "message" in body)
    assert sandbox.gitlab.merge_requests[483].state == "opened" and sandbox.gitlab.merge_requests[483].notes == []


def test_a_token_in_the_query_is_not_echoed(sandbox, project):
    for n in range(3):
        project.mergerequests.get(483).notes.create({"body": f"note {n}"})
    request = urllib.request.Request(
        sandbox.gitlab_url + "/api/v4/projects/7/merge_requests/483/notes?per_page=1&private_token=glpat-secret-in-query",
        headers={"PRIVATE-TOKEN": sandbox.gitlab_token})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert "glpat-secret-in-query" not in response.headers["Link"]


def test_concurrent_merges_and_reads_leave_the_api_in_step_with_git(sandbox, monkeypatch):
    """Merges of different MRs while other clients read files at main: afterwards the API's main is
    git's main, and the next mergeable MR merges (a stale cached main once made every merge 422)."""
    repo = sandbox.gitlab.repository
    real_git = repo.git

    def slow_rev_parse(*args, **kwargs):  # widens the window between asking git and caching its answer
        answer = real_git(*args, **kwargs)
        if args and args[0] == "rev-parse" and "main^{commit}" in args:
            time.sleep(0.005)
        return answer

    monkeypatch.setattr(repo, "git", slow_rev_parse)
    done = threading.Event()
    failures = []

    def client():
        return gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project)

    def merge(iid):
        try:
            client().mergerequests.get(iid).merge()
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append((iid, repr(error)))

    def read():
        project = client()
        deadline = time.monotonic() + 20
        while not done.is_set() and time.monotonic() < deadline:
            project.files.get("shop/cart.py", ref="main")
            project.mergerequests.get(482)

    readers = [threading.Thread(target=read) for _ in range(6)]
    mergers = [threading.Thread(target=merge, args=(iid,)) for iid in (483, 484, 485, 486)]
    for thread in readers + mergers:
        thread.start()
    for thread in mergers:
        thread.join(timeout=30)
    done.set()
    for thread in readers:
        thread.join(timeout=30)
    assert failures == []
    project = client()
    git_main = real_git("rev-parse", "main").decode().strip()
    assert project.files.get("shop/cart.py", ref="main").commit_id == git_main
    result = project.mergerequests.get(482).merge()
    assert result["state"] == "merged"
    git_main = real_git("rev-parse", "main").decode().strip()
    assert result["merge_commit_sha"] == git_main
    assert project.files.get("shop/cart.py", ref="main").commit_id == git_main


def test_a_read_that_straddles_a_merge_cannot_cache_the_old_main(sandbox, monkeypatch):
    """A reader asks git where main is, a merge moves main before the reader stores the answer:
    the old answer must not be cached (it made every later merge fail with 422)."""
    repo = sandbox.gitlab.repository
    real_git = repo.git
    answered, release = threading.Event(), threading.Event()

    def paused_git(*args, **kwargs):
        answer = real_git(*args, **kwargs)
        if threading.current_thread().name == "reader" and args[0] == "rev-parse":
            answered.set()
            release.wait(5)
        return answer

    monkeypatch.setattr(repo, "git", paused_git)
    repo.refs_moved()
    reader = threading.Thread(target=repo.sha, args=("main",), name="reader")
    reader.start()
    assert answered.wait(5)
    merged = repo.merge(sandbox.gitlab.merge_requests[483].spec.source_branch, "main", "Merge !483")
    release.set()
    reader.join(5)
    assert repo.sha("main") == merged == real_git("rev-parse", "main").decode().strip()
    second = repo.merge(sandbox.gitlab.merge_requests[485].spec.source_branch, "main", "Merge !485")
    assert real_git("rev-parse", "main").decode().strip() == second


def test_sandboxes_share_what_git_said_about_commits_but_not_their_branches(monkeypatch):
    """Each sandbox's repository is a copy of one template: answers about commit ids are shared (the same
    id is the same content in every copy), so a second sandbox asks git far less; where a branch points is
    each copy's own, so a merge in one sandbox is not seen by another, even one started afterwards."""
    from course_sandbox.demo_gitlab.repository import Repository

    asked: list[tuple[str, ...]] = []
    real_git = Repository.git

    def counting(self, *args, **kwargs):
        asked.append(args)
        return real_git(self, *args, **kwargs)

    monkeypatch.setattr(Repository, "git", counting)

    def look(sandbox: Sandbox) -> tuple:
        """What a reader sees through branch names (main moves when 483 is merged) and through the MR."""
        project = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project)
        mr = project.mergerequests.get(483)
        files = [project.files.raw(path, ref="main") for path in ("shop/cart.py", "shop/money.py")]
        history = [c.id for c in project.commits.list(ref_name="main", get_all=True)]
        tree = sorted(e["path"] for e in project.repository_tree(ref="main", recursive=True, get_all=True))
        return (mr.state, project.branches.get("main").commit["id"], [c["diff"] for c in mr.changes()["changes"]],
                [c.id for c in mr.commits()], files, history, tree)

    with Sandbox() as first, Sandbox() as second:
        first.gitlab.repository._by_commit.clear()  # shared by the process: start from nothing asked
        asked.clear()
        seen_first = look(first)
        first_asked = len(asked)
        project = gitlab.Gitlab(first.gitlab_url, private_token=first.gitlab_token).projects.get(first.project)
        project.mergerequests.get(483).merge()
        merged_main = project.branches.get("main").commit["id"]
        assert merged_main != seen_first[1]
        after = look(first)
        assert after[5][0] == merged_main and len(after[5]) > len(seen_first[5])  # main's history moved here
        assert after[4] != seen_first[4]  # and main's files changed
        asked.clear()
        assert look(second) == seen_first  # the merge in `first` moved nothing in `second`
        assert len(asked) < first_asked / 2, (len(asked), first_asked)
        with Sandbox() as third:
            assert look(third) == seen_first
        assert project.branches.get("main").commit["id"] == merged_main
        assert project.mergerequests.get(483).state == "merged"


def test_a_failure_in_one_copy_of_the_repository_is_not_remembered_for_the_others(tmp_path):
    """The answers the copies share are git's replies about commits; a made-up answer after a failure (here
    the copy's folder is gone, as when a sandbox stops during a request) is returned, never kept."""
    import shutil

    from course_sandbox.demo_gitlab.repository import fresh_repository

    broken, healthy = fresh_repository(tmp_path / "a"), fresh_repository(tmp_path / "b")
    broken._by_commit.clear()
    main = healthy.sha("main")
    shutil.rmtree(broken.path)
    assert broken.blob_id("main", "shop/cart.py") is None
    assert broken.is_ancestor(main, main) is False
    assert healthy.blob_id("main", "shop/cart.py") is not None
    assert healthy.is_ancestor(main, main) is True
    assert fresh_repository(tmp_path / "c").read("main", "shop/cart.py").startswith(b'"""')
    assert healthy.blob_id("main", "no/such/file.py") is None  # git's own "no" is still an answer
