"""Each sandbox's demo repository is copied from the template only when it is first written (issue #26:
most self-check scenarios only read, and the copy and its removal were most of a sandbox's start and
stop). Reads run in the template's folder until then; a write never reaches the template or another
sandbox, a sandbox that only read leaves nothing on disk, and threads writing first copy once."""

import hashlib
import shutil
import threading
from pathlib import Path

import gitlab
import pytest
import requests

from course_sandbox import Sandbox
from course_sandbox.demo_gitlab import repository


@pytest.fixture
def template(tmp_path, monkeypatch) -> Path:
    """A template of this test's own (not the machine's cache), so that its every byte can be checked."""
    built = repository._build_packed(tmp_path / "template" / "shop")
    monkeypatch.setattr(repository, "_template", built)
    return tmp_path / "template" / "shop"


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder`, with a digest of each file's bytes."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file()
            else "folder" for path in sorted(folder.rglob("*"))}


def project_of(sandbox: Sandbox):
    return gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project)


def look(sandbox: Sandbox) -> tuple:
    """What a client sees: branches, files, diffs, history, the tree and the merge requests' states."""
    project = project_of(sandbox)
    branches = sorted((b.name, b.commit["id"]) for b in project.branches.list(get_all=True))
    files = [project.files.raw(path, ref="main") for path in ("shop/cart.py", "shop/money.py", "shop/tax.py")]
    diffs = [[(c["new_path"], c["diff"]) for c in project.mergerequests.get(iid).changes()["changes"]]
             for iid in (483, 485)]
    history = [c.id for c in project.commits.list(ref_name="main", get_all=True)]
    everything = [c.id for c in project.commits.list(all=True, get_all=True)]
    tree = sorted(e["path"] for e in project.repository_tree(ref="main", recursive=True, get_all=True))
    states = [mr.state for mr in project.mergerequests.list(get_all=True, order_by="created_at")]
    return branches, files, diffs, history, everything, tree, states


def folder_of(sandbox: Sandbox) -> Path:
    """Where the sandbox's repository is copied when it is first written."""
    return sandbox.gitlab.repository._own


def test_writes_in_one_sandbox_reach_neither_the_template_nor_another_sandbox(template):
    before = snapshot(template)
    with Sandbox() as first, Sandbox() as second:
        seen = look(second)
        assert look(first) == seen
        reply = requests.put(f"{first.gitlab_url}/api/v4/projects/7/merge_requests/483/merge", timeout=10,
                             headers={"PRIVATE-TOKEN": first.gitlab_token},
                             json={"should_remove_source_branch": True, "squash": True})
        assert reply.status_code == 200, reply.text
        project = project_of(first)
        project.mergerequests.get(485).rebase()  # onto the main the merge moved
        project.mergerequests.get(484).merge_ref()
        written = look(first)
        assert written[0] != seen[0] and written[1] != seen[1] and written[3] != seen[3]  # main moved, a branch went
        assert written[6] != seen[6]
        assert look(second) == seen  # the other sandbox, started before the writes
        assert not folder_of(second).exists()  # ...still reads from the template
        with Sandbox() as third:  # and one started after them
            assert look(third) == seen
        assert snapshot(template) == before  # not one byte of the template changed
        assert look(first) == written


def test_a_sandbox_that_only_reads_leaves_nothing_and_one_that_writes_is_removed(template, tmp_path):
    with Sandbox() as reader, Sandbox() as writer:
        look(reader)
        project = project_of(reader)
        project.repository_compare("main", "fix/money-format")
        project.files.blame("shop/cart.py", ref="main")
        workdir = folder_of(reader).parent
        assert list(workdir.iterdir()) == []  # no copy was made for reads
        project_of(writer).mergerequests.get(483).merge()
        assert (folder_of(writer) / ".git").is_dir()
        assert list(folder_of(writer).parent.iterdir()) == [folder_of(writer)]
    assert not workdir.exists() and not folder_of(writer).parent.exists()  # stop removed what each had made

    alone = repository.fresh_repository(tmp_path / "alone")
    assert alone.read("main", "shop/cart.py").startswith(b'"""') and alone.branches()
    assert list((tmp_path / "alone").iterdir()) == []


def test_threads_writing_first_copy_the_template_once(template, monkeypatch):
    copies: list[Path] = []
    real_copytree = shutil.copytree

    def slow_copytree(source, destination, *args, **kwargs):
        if Path(source) == template:
            copies.append(Path(destination))
            threading.Event().wait(0.05)  # the others reach their first write meanwhile
        return real_copytree(source, destination, *args, **kwargs)

    monkeypatch.setattr(shutil, "copytree", slow_copytree)
    with Sandbox() as sandbox:
        repo = sandbox.gitlab.repository
        main = repo.sha("main")
        start = threading.Barrier(5)
        errors: list[BaseException] = []

        def write(n: int) -> None:
            start.wait(5)
            try:
                if n == 4:
                    (repo.path / "NOTES.txt").write_text("by hand\n", encoding="utf-8")
                else:
                    repo.git("update-ref", f"refs/heads/thread-{n}", main)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=write, args=(n,)) for n in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert errors == []
        assert copies == [folder_of(sandbox)]
        assert [b for b in repo.branches() if b.startswith("thread-")] == [f"thread-{n}" for n in range(4)]
        assert (folder_of(sandbox) / "NOTES.txt").read_text(encoding="utf-8") == "by hand\n"
    assert not (template / "NOTES.txt").exists()
    assert repository.Repository(template).git("for-each-ref", "refs/heads/thread-0") == b""


def test_a_template_written_after_copies_were_made_copies_them_first(tmp_path):
    """Only the copies read from a folder they do not own; if that folder is written (by hand, in a test),
    the copies still see what they started from."""
    original = repository.Repository.build(tmp_path / "original")
    copy = original.copy_to(tmp_path / "copy" / "shop")
    start = copy.sha("main")
    original.merge(repository.merge_request_specs()[1].source_branch, "main", "Merged in the original")
    copy.refs_moved()
    assert copy.sha("main") == start != original.sha("main")
    assert copy.branches() == original.branches()
    assert (tmp_path / "copy" / "shop" / ".git").is_dir()
