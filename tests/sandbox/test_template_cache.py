"""The demo repository's on-disk cache: built once per version, the same commits as a fresh build,
never half a repository, and never a reason for a sandbox not to start."""

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from course_sandbox.demo_gitlab import repository, template_cache


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(template_cache.CACHE_ENV, str(folder))
    return folder


def branches(path: Path) -> dict[str, str]:
    lines = repository.Repository(path).git("for-each-ref", "--format=%(refname:short) %(objectname)").decode()
    return dict(line.split() for line in lines.splitlines())


def test_built_once_then_reused(cache_dir):
    builds = []

    def build(path: Path) -> None:
        builds.append(path)
        repository.Repository.build(path)

    first = template_cache.cached_build("k1", build)
    second = template_cache.cached_build("k1", build)
    assert first == second == cache_dir / "demo-repository-k1" / "shop"
    assert len(builds) == 1
    assert (cache_dir / "demo-repository-k1" / "ready").is_file()
    assert [p.name for p in cache_dir.iterdir()] == ["demo-repository-k1"]  # no building folder left


def test_the_cached_repository_has_the_commits_of_a_fresh_build(cache_dir, tmp_path):
    cached = template_cache.cached_build("k2", repository._build_packed)
    fresh = repository.Repository.build(tmp_path / "fresh").path
    assert branches(cached) == branches(fresh)
    assert len(branches(cached)) == 7  # main and one branch per merge request
    assert not list((cached / ".git" / "objects").glob("[0-9a-f][0-9a-f]"))  # packed: no loose objects


def test_off_means_no_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(template_cache.CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert template_cache.cached_build("k3", lambda path: pytest.fail("built")) is None
    assert list(tmp_path.iterdir()) == []


def test_the_key_changes_with_a_fixture_or_the_build_code(tmp_path):
    fixtures = tmp_path / "project"
    shutil.copytree(repository.FIXTURES, fixtures, ignore=shutil.ignore_patterns("__pycache__"))
    code = tmp_path / "repository.py"
    code.write_bytes(Path(repository.__file__).read_bytes())
    key = template_cache.cache_key(code, fixtures)
    assert template_cache.cache_key(code, fixtures) == key
    (fixtures / "main" / "shop" / "cart.py").write_text("# changed\n", encoding="utf-8")
    changed_fixture = template_cache.cache_key(code, fixtures)
    code.write_text(code.read_text() + "\n# changed\n")
    changed_code = template_cache.cache_key(code, fixtures)
    assert len({key, changed_fixture, changed_code}) == 3


def test_a_failed_build_leaves_nothing_and_raises(cache_dir):
    def broken(path: Path) -> None:
        path.mkdir(parents=True)
        raise RuntimeError("git failed")

    with pytest.raises(RuntimeError):
        template_cache.cached_build("k4", broken)
    assert list(cache_dir.iterdir()) == []


def test_two_builders_at_once_both_get_the_one_repository(cache_dir):
    started = threading.Barrier(2)

    def slow_build(path: Path) -> None:
        started.wait(timeout=30)
        repository.Repository.build(path)
        time.sleep(0.2)

    results = []
    threads = [threading.Thread(target=lambda: results.append(template_cache.cached_build("k5", slow_build)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert results == [cache_dir / "demo-repository-k5" / "shop"] * 2
    assert [p.name for p in cache_dir.iterdir()] == ["demo-repository-k5"]
    assert len(branches(results[0])) == 7


@pytest.mark.parametrize("where", ["a file, not a folder", "off"])
def test_a_sandbox_starts_whatever_the_cache_is(tmp_path, where):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    env = {**os.environ, template_cache.CACHE_ENV: str(blocker / "cache") if where != "off" else "off",
           "TMPDIR": str(tmp_path)}
    script = ("from course_sandbox import Sandbox\n"
              "import gitlab\n"
              "with Sandbox() as sb:\n"
              "    gl = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token)\n"
              "    print(gl.projects.get(sb.project).mergerequests.get(482).title)\n")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Pass discounts as objects"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-folder"]  # its own template removed at exit
