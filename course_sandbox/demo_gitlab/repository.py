"""The demo project as a real git repository, built from the fixtures in `project/`.

Branches come from the fixtures (`main/` is the default branch, `mr/<iid>/` overlays a merge
request's files), diffs come from `git diff`, and merging writes a real merge commit. Author
and commit dates are fixed, so every build has the same commit ids. The server only uses
plumbing commands; the work tree is never touched after the build.
"""

import atexit
import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

from ..bytes_cache import BytesCache
from . import template_cache

FIXTURES = Path(__file__).parent / "project"
TOO_LARGE_BYTES = 100_000
"""A file whose diff is larger than this comes back with `too_large: true` and an empty diff."""
_SAFE_REF = re.compile(r"^(?!-)[\w./-]{1,200}$")
_GIT_ENV = {
    "GIT_AUTHOR_NAME": "Course Shop", "GIT_AUTHOR_EMAIL": "shop@example.com",
    "GIT_COMMITTER_NAME": "Course Shop", "GIT_COMMITTER_EMAIL": "shop@example.com",
    "GIT_AUTHOR_DATE": "2026-01-15T10:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-15T10:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
    # a read runs in the shared template's folder (copy on write): never an index refresh as a side effect
    "GIT_OPTIONAL_LOCKS": "0",
}
_ENV = {**os.environ, **_GIT_ENV}
_NOT_FIXTURES = shutil.ignore_patterns("__pycache__", "*.pyc")
_COMMIT_FORMAT = "%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B"
_READING = frozenset({"blame", "cat-file", "diff", "for-each-ref", "log", "ls-tree", "merge-base", "rev-list",
                      "rev-parse", "show"})
"""git commands that never change refs, the index, the work tree or objects (hash-object too, without -w)."""


def _only_reads(args: tuple[str, ...]) -> bool:
    """Whether a git command line (global options first, as `git` takes them) only reads: anything else,
    a command unknown here included, counts as a write."""
    rest = list(args)
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
    if not rest:
        return False
    command, options = rest[0], rest[1:]
    if command == "hash-object":
        return "-w" not in options and "--stdin-paths" not in options
    return command in _READING and not any(option.startswith("--output") for option in options)


class GitError(Exception):
    """A git command failed (missing git, bad ref, conflict...)."""

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode
        """git's exit status (1 is its plain "no" to --verify or --is-ancestor); None when git did not run."""


class _Unsure(Exception):
    """An answer made up after a failure (the copy's folder gone, git missing), not git's reply about a
    commit: it is returned, never kept, since the cache is shared by every copy."""

    def __init__(self, value: object) -> None:
        self.value = value


class MergeConflict(GitError):
    pass


@dataclass
class MergeRequestSpec:
    iid: int
    title: str
    description: str
    source_branch: str
    author: str
    draft: bool = False


def merge_request_specs() -> list[MergeRequestSpec]:
    rows = json.loads((FIXTURES / "merge_requests.json").read_text(encoding="utf-8"))
    return [MergeRequestSpec(**{k: v for k, v in row.items() if k != "generated"}) for row in rows]


def _catalog(products: int) -> str:
    """A large, deterministic catalogue export (the 'too large to diff' file)."""
    rng = random.Random(486)
    rows = [{"sku": f"P{n:05d}", "name": f"Product {n}", "price": f"{rng.randint(100, 9999) / 100:.2f}",
             "in_stock": rng.random() > 0.1} for n in range(products)]
    return "[\n" + ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows) + "\n]\n"


class Repository:
    """Git plumbing for the server. Answers about a commit id never change, so they are kept
    (each git process costs milliseconds) in a cache bounded by bytes, which every copy of one
    template shares (see copy_to); only branch names move,
    and only on merge(). Where a branch points is cached too, under a lock with a generation
    number: a reader that asked git before a merge moved the branch cannot store the old answer
    after it, and a merge always asks git afresh and moves the branch by compare-and-swap.

    A copy is copied on write: most sandboxes only read, and copying the template's folder, then
    deleting it, was most of what a sandbox cost to start and stop. Until its first write, a copy's
    git commands run in its template's folder (the same files a copy would hold); the first command
    that may write (see _only_reads), or anyone asking for `path` (to write there by hand), copies the
    template into the copy's own folder first, once, under a lock. A template about to be written
    first does the same for its unwritten copies, so no write is ever seen by another repository."""

    MAX_CACHED_BYTES = 32 * 1024 * 1024
    MAX_CACHED_REFS = 4096

    def __init__(self, path: Path, by_commit: BytesCache | None = None, refs: dict[str, str] | None = None,
                 template: "Repository | None" = None) -> None:
        self._own = path
        self._template = template
        """The repository this copy reads from until its first write (None once written, or for an original)."""
        self._copies: weakref.WeakSet[Repository] = weakref.WeakSet()
        """The copies that still read from this repository."""
        self._copy_lock = threading.Lock()
        self._lock = threading.Lock()
        """Held by merge(): one writer at a time."""
        self._refs_lock = threading.Lock()
        self._refs: dict[str, str | None] = dict(refs or {})
        self._generation = 0
        self._by_commit = BytesCache(self.MAX_CACHED_BYTES) if by_commit is None else by_commit
        self._start_refs: dict[str, str] | None = None

    @property
    def path(self) -> Path:
        """The repository's own folder. Whoever asks may write there, so a copy is made first."""
        self._make_writable()
        return self._own

    def _make_writable(self) -> None:
        """Give this repository a folder of its own (a copy of its template's), and its unwritten copies theirs;
        forget the refs copies start from (they may move now)."""
        with self._copy_lock:
            template = self._template
            if template is not None:
                if self._own.parent.is_dir():  # else its sandbox has stopped: git fails there, as it always did
                    try:
                        shutil.copytree(template._own, self._own)
                    except OSError as error:
                        if not isinstance(error, FileExistsError):
                            shutil.rmtree(self._own, ignore_errors=True)  # half a copy
                        raise GitError(f"could not copy the demo repository: {error}") from None
                self._template = None
            for copy in list(self._copies):
                copy._make_writable()
            self._copies.clear()
            self._start_refs = None

    def _folder_for(self, args: tuple[str, ...]) -> Path:
        """Where a git command runs: a read runs in the template's folder while this copy was never written."""
        if _only_reads(args):
            template = self._template
            return self._own if template is None else template._own
        self._make_writable()
        return self._own

    def refs_moved(self) -> None:
        """Forget where branches point (call after changing the repository by hand)."""
        with self._refs_lock:
            self._generation += 1
            self._refs.clear()

    def _kept(self, key: tuple, compute):
        try:
            return self._by_commit.get_or_compute(key, compute)
        except _Unsure as unsure:
            return unsure.value

    def git(self, *args: str, input: bytes | None = None) -> bytes:
        try:
            done = subprocess.run(["git", "-C", str(self._folder_for(args)), *args], input=input, capture_output=True,
                                  env=_ENV, timeout=30)
        except FileNotFoundError:
            raise GitError("git is not installed: the demo GitLab needs the git command") from None
        if done.returncode != 0:
            raise GitError(done.stderr.decode(errors="replace").strip() or f"git {args[0]} failed", done.returncode)
        return done.stdout

    # building
    @classmethod
    def build(cls, path: Path) -> "Repository":
        """A fresh repository with main and one branch per merge request."""
        repo = cls(path)
        path.mkdir(parents=True, exist_ok=True)
        repo.git("init", "-q", "-b", "main")
        shutil.copytree(FIXTURES / "main", path, dirs_exist_ok=True, ignore=_NOT_FIXTURES)
        repo.git("add", "-A")
        repo.git("commit", "-q", "-m", "Initial version of the shop")
        rows = json.loads((FIXTURES / "merge_requests.json").read_text(encoding="utf-8"))
        for row in rows:
            repo.git("checkout", "-q", "-b", row["source_branch"], "main")
            overlay = FIXTURES / "mr" / str(row["iid"])
            if overlay.exists():
                shutil.copytree(overlay, path, dirs_exist_ok=True, ignore=_NOT_FIXTURES)
            for name, products in row.get("generated", {}).items():
                (path / name).write_text(_catalog(products), encoding="utf-8")
            repo.git("add", "-A")
            repo.git("commit", "-q", "-m", row["title"])
        repo.git("checkout", "-q", "main")
        return repo

    def copy_to(self, path: Path) -> "Repository":
        """A private copy, made in `path` at its first write (see the class). It shares this repository's
        answers about commits (an id names the same content in every copy, so what one sandbox asked git,
        the next one need not) and knows where its branches and commits point at the start; a merge in
        the copy moves its own branches only."""
        template = self._template
        if template is not None:  # never written: its template has the same content
            return template.copy_to(path)
        refs = self._refs_at_start()
        path.parent.mkdir(parents=True, exist_ok=True)  # the copy's own folder is made at its first write
        with self._copy_lock:
            copy = Repository(path, by_commit=self._by_commit, refs=refs, template=self)
            self._copies.add(copy)
        return copy

    def _refs_at_start(self) -> dict[str, str]:
        """Every branch name and commit id of this repository, and the commit each names (asked again after a write)."""
        if self._start_refs is None:
            heads = self.git("for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/").decode()
            refs = dict(line.split() for line in heads.splitlines())
            refs.update((sha, sha) for sha in self.git("rev-list", "--all").decode().split())
            self._start_refs = refs
        return self._start_refs

    # reading
    def sha(self, ref: str) -> str | None:
        """The commit a branch or sha names, or None if there is none."""
        if not _SAFE_REF.match(ref):
            return None
        with self._refs_lock:
            if ref in self._refs:
                return self._refs[ref]
            generation = self._generation
        found = self._resolve(ref)
        with self._refs_lock:
            if self._generation == generation:  # no merge moved a branch while git was answering
                if len(self._refs) >= self.MAX_CACHED_REFS:
                    self._refs.clear()
                self._refs[ref] = found
        return found

    def _resolve(self, ref: str) -> str | None:
        """Ask git where a ref points now (no cache)."""
        try:
            return self.git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip() or None
        except GitError:
            return None

    def read(self, ref: str, path: str) -> bytes | None:
        """A file's bytes at a ref, or None if the ref or file does not exist."""
        blob = self.blob_id(ref, path)
        return None if blob is None else self._kept(("blob", blob), lambda: self.git("cat-file", "blob", blob))

    def blob_id(self, ref: str, path: str) -> str | None:
        """The id of a file's blob at a ref, or None if there is no such file (or ref)."""
        sha = self.sha(ref)
        if sha is None:
            return None

        def look_up() -> str | None:
            try:
                blob = self.git("rev-parse", "--verify", "--quiet", f"{sha}:{path}").decode().strip()
                return blob if self.git("cat-file", "-t", blob).strip() == b"blob" else None
            except GitError as error:
                if error.returncode == 1:  # git's answer: no such file at that commit
                    return None
                raise _Unsure(None) from error

        return self._kept(("blob-id", sha, path), look_up)

    def merge_base(self, target: str, source: str) -> str:
        a, b = self.sha(target) or target, self.sha(source) or source
        return self._kept(("merge-base", a, b), lambda: self.git("merge-base", a, b).decode().strip())

    def merge_base_of(self, shas: list[str]) -> str | None:
        """The best common ancestor of the first commit and the others (git merge-base), or None."""
        def ask() -> str | None:
            try:
                return self.git("merge-base", *shas).decode().split("\n")[0] or None
            except GitError as error:
                if error.returncode == 1:  # git's answer: no common ancestor
                    return None
                raise _Unsure(None) from error

        return self._kept(("merge-base-of", *shas), ask)

    def blob(self, object_id: str) -> bytes | None:
        """A blob's bytes by its id (full or abbreviated hex), or None if it names no blob."""
        if not re.fullmatch(r"[0-9a-f]{4,64}", object_id):
            return None
        try:
            full = self.git("rev-parse", "--verify", "--quiet", f"{object_id}^{{blob}}").decode().strip()
        except GitError:
            return None
        return self._kept(("blob", full), lambda: self.git("cat-file", "blob", full))

    def changes(self, base: str, head: str) -> list[dict]:
        """GitLab's diff entries between two commits."""
        base, head = self.sha(base) or base, self.sha(head) or head
        return self._kept(("changes", base, head), lambda: self._changes(base, head))

    def _changes(self, base: str, head: str) -> list[dict]:
        status = self.git("diff", "-z", "--name-status", "-M", base, head).decode().split("\0")
        entries = []
        n = 0
        while n < len(status) - 1:
            code = status[n]
            if code.startswith("R"):
                old, new = status[n + 1], status[n + 2]
                n += 3
            else:
                old = new = status[n + 1]
                n += 2
            raw = self.git("diff", "--no-color", "--no-ext-diff", "-M", base, head, "--", *{old, new}).decode(
                errors="replace")
            hunk = raw.find("\n@@")
            diff = raw[hunk + 1:] if hunk >= 0 else ""
            too_large = len(diff.encode()) > TOO_LARGE_BYTES
            entries.append({
                "old_path": old, "new_path": new,
                "a_mode": "0" if code == "A" else "100644", "b_mode": "0" if code == "D" else "100644",
                "new_file": code == "A", "renamed_file": code.startswith("R"), "deleted_file": code == "D",
                "generated_file": False, "too_large": too_large, "collapsed": too_large,
                "diff": "" if too_large else diff,
            })
        return entries

    # history
    def commit_info(self, sha: str) -> dict:
        """A commit's ids, people, dates and message (git's own words, parsed once per commit)."""
        return self._kept(("commit", sha), lambda: self._commit_info(sha))

    def _commit_info(self, sha: str) -> dict:
        fields = self.git("show", "-s", "--no-color", f"--format={_COMMIT_FORMAT}", sha).decode(
            errors="replace").split("\x1f")
        full, parents, author, author_email, authored, committer, committer_email, committed, message = fields
        return {"id": full, "parent_ids": parents.split(), "author_name": author, "author_email": author_email,
                "authored_date": authored, "committer_name": committer, "committer_email": committer_email,
                "committed_date": committed, "message": message.rstrip("\n") + "\n" if message.strip() else ""}

    def log(self, ref: str, path: str | None = None, exclude: str | None = None) -> list[str]:
        """Commit ids reachable from ref (newest first), optionally not from `exclude`, touching `path`."""
        head = self.sha(ref)
        if head is None:
            return []
        stop = self.sha(exclude) if exclude else None
        key = ("log", head, stop, path)
        args = ["--literal-pathspecs", "rev-list", head, *([f"^{stop}"] if stop else []),
                *(["--", path] if path else [])]
        return self._kept(key, lambda: self.git(*args).decode().split())

    def log_all(self, path: str | None = None) -> list[str]:
        """Commit ids reachable from any ref (`commits?all=true`), newest first; never cached (refs move)."""
        return self.git("--literal-pathspecs", "rev-list", "--all", "--date-order",
                        *(["--", path] if path else [])).decode().split()

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        a, d = self.sha(ancestor), self.sha(descendant)
        if a is None or d is None:
            return False

        def ask() -> bool:
            try:
                self.git("merge-base", "--is-ancestor", a, d)
                return True
            except GitError as error:
                if error.returncode == 1:  # git's answer: not an ancestor
                    return False
                raise _Unsure(False) from error

        return self._kept(("ancestor", a, d), ask)

    def branches(self) -> list[str]:
        """Branch names, sorted (they only change on merge, which moves a branch but adds none)."""
        names = self.git("for-each-ref", "--format=%(refname:short)", "refs/heads/").decode().split()
        return sorted(names)

    def tree(self, ref: str, path: str = "", recursive: bool = False) -> list[dict] | None:
        """Entries under a folder at a ref (None if the ref does not exist)."""
        sha = self.sha(ref)
        if sha is None:
            return None
        folder = path.strip("/")
        return self._kept(("tree", sha, folder, recursive), lambda: self._tree(sha, folder, recursive))

    def _tree(self, sha: str, folder: str, recursive: bool) -> list[dict]:
        args = ["--literal-pathspecs", "ls-tree", "-z", *(["-r", "-t"] if recursive else []), sha]
        if folder:
            args += ["--", folder + "/"]
        entries = []
        for row in self.git(*args).decode(errors="replace").split("\0"):
            if not row:
                continue
            meta, name = row.split("\t", 1)
            mode, kind, object_id = meta.split()
            entries.append({"id": object_id, "name": name.rsplit("/", 1)[-1], "type": kind, "path": name,
                            "mode": mode})
        return entries

    def blame(self, ref: str, path: str) -> list[tuple[str, list[str]]]:
        """Runs of consecutive lines last changed by the same commit: (commit id, lines)."""
        sha = self.sha(ref)
        return self._kept(("blame", sha, path), lambda: self._blame(sha, path))

    def _blame(self, sha: str, path: str) -> list[tuple[str, list[str]]]:
        out = self.git("blame", "--porcelain", sha, "--", path).decode(errors="replace").split("\n")
        ranges: list[tuple[str, list[str]]] = []
        commit = None
        for line in out:
            if line.startswith("\t"):
                if ranges and ranges[-1][0] == commit:
                    ranges[-1][1].append(line[1:])
                else:
                    ranges.append((commit, [line[1:]]))
            elif re.match(r"^[0-9a-f]{40} \d+ \d+", line):
                commit = line.split()[0]
        return ranges

    def diff_stats(self, base: str, head: str) -> tuple[int, int]:
        """Lines added and removed between two commits."""
        def count() -> tuple[int, int]:
            added = removed = 0
            for row in self.git("diff", "--numstat", base, head).decode(errors="replace").splitlines():
                a, r = row.split("\t")[:2]
                added += int(a) if a.isdigit() else 0
                removed += int(r) if r.isdigit() else 0
            return added, removed

        return self._kept(("stats", base, head), count)

    # writing
    def merge(self, source: str, target: str, message: str) -> str:
        """Merge source into target with a merge commit; on conflict nothing changes."""
        return self.merge_squashed(source, target, message, None)[0]

    def merge_squashed(self, source: str, target: str, message: str,
                       squash_message: str | None) -> tuple[str, str | None]:
        """As merge(); with `squash_message`, source's commits are first squashed into one commit on
        target (GitLab's squash, then merge). Returns (merge commit, squash commit or None)."""
        with self._lock:
            target_sha, source_sha = self._heads(target, source)
            tree = self._merge_tree(target_sha, source_sha)
            squashed = None
            if squash_message is not None:
                squashed = source_sha = self._commit_tree(tree, [target_sha], squash_message)
            commit_sha = self._commit_tree(tree, [target_sha, source_sha], message)
            self._move(f"refs/heads/{target}", commit_sha, target_sha)
            return commit_sha, squashed

    def write_merge_ref(self, source: str, target: str, ref: str, message: str) -> str:
        """The commit merging would make, kept under `ref` (GitLab's refs/merge-requests/:iid/merge);
        no branch moves."""
        with self._lock:
            target_sha, source_sha = self._heads(target, source)
            commit_sha = self._commit_tree(self._merge_tree(target_sha, source_sha), [target_sha, source_sha], message)
            self._move(ref, commit_sha, None)
            return commit_sha

    def rebase(self, source: str, onto: str) -> str:
        """Replay source's own commits on onto's head and move source there (a no-op when source already
        starts from it). A conflict leaves the branch where it was (MergeConflict)."""
        with self._lock:
            onto_sha, source_sha = self._heads(onto, source)
            if self.git("merge-base", onto_sha, source_sha).decode().strip() == onto_sha:
                return source_sha
            folder = tempfile.mkdtemp(prefix="course-shop-rebase-")
            try:
                self.git("worktree", "add", "-q", "--detach", folder, source_sha)
                try:
                    self.git("-C", folder, "rebase", "-q", onto_sha)
                except GitError as error:
                    raise MergeConflict(str(error)) from None
                rebased = self.git("-C", folder, "rev-parse", "HEAD").decode().strip()
            finally:
                with contextlib.suppress(GitError):
                    self.git("worktree", "remove", "--force", folder)
                shutil.rmtree(folder, ignore_errors=True)
            self._move(f"refs/heads/{source}", rebased, source_sha)
            return rebased

    def delete_branch(self, name: str) -> None:
        with self._lock:
            try:
                self.git("update-ref", "-d", f"refs/heads/{name}")
            finally:
                self.refs_moved()

    def _heads(self, *branches: str) -> list[str]:
        """Where the branches point, asked of git (never the cache): a write starts from the truth."""
        shas = [self._resolve(name) for name in branches]
        for name, sha in zip(branches, shas, strict=True):
            if sha is None:
                raise GitError(f"unknown branch {name}")
        return shas

    def _merge_tree(self, target_sha: str, source_sha: str) -> str:
        try:
            return self.git("merge-tree", "--write-tree", target_sha, source_sha).decode().split("\n")[0]
        except GitError as error:
            raise MergeConflict(str(error)) from None

    def _commit_tree(self, tree: str, parents: list[str], message: str) -> str:
        parent_args = [arg for parent in parents for arg in ("-p", parent)]
        return self.git("commit-tree", tree, *parent_args, "-m", message).decode().strip()

    def _move(self, ref: str, new: str, old: str | None) -> None:
        """Compare-and-swap: moves a branch only if it still points where the write started."""
        try:
            self.git("update-ref", ref, new, *([old] if old else []))
        finally:
            self.refs_moved()


_template: Repository | None = None
_template_lock = threading.Lock()
_built_here: Path | None = None
"""The folder of a template this process built for itself (removed at exit); never the cache."""


def _remove_template() -> None:
    global _template, _built_here
    with _template_lock:
        if _built_here is not None:
            shutil.rmtree(_built_here, ignore_errors=True)
            _template = _built_here = None


def _build_packed(path: Path) -> Repository:
    repo = Repository.build(path)
    repo.git("repack", "-a", "-d", "-q")  # one pack: each sandbox's copy is half the files
    repo.git("prune-packed")
    return repo


def _cached_template() -> Repository | None:
    """The template from the on-disk cache (see template_cache); None when the cache is off or fails:
    the cache is an optimisation, never a reason not to start."""
    try:
        path = template_cache.cached_build(template_cache.cache_key(Path(__file__), FIXTURES), _build_packed)
    except Exception:
        return None
    return None if path is None else Repository(path)


def _template_built_here() -> Repository:
    global _built_here
    folder = Path(tempfile.mkdtemp(prefix="course-shop-template-"))
    try:
        template = Repository.build(folder / "shop")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    _built_here = folder
    atexit.register(_remove_template)
    return template


def fresh_repository(parent: Path) -> Repository:
    """A private copy of the demo repository: the template comes from the on-disk cache, or is built
    once per process (and removed when the process exits), then copied into `parent / "shop"` at the
    copy's first write (Repository.copy_to)."""
    global _template
    with _template_lock:
        if _template is None:
            _template = _cached_template() or _template_built_here()
        template = _template
    return template.copy_to(parent / "shop")
