"""GitLab's JSON for things in the repository: commits, branches, trees, compares, blame, and
the X-Gitlab-* headers of a file (docs.gitlab.com/api/commits/, /branches/, /repositories/,
/repository_files/). Pure functions of the repository: no state of their own."""

from .errors import not_found
from .repository import Repository

DEFAULT_BRANCH = "main"
PROTECTED_BRANCHES = ("main",)


def _gitlab_date(iso: str) -> str:
    """git's `2026-01-15T10:00:00+00:00` as GitLab writes it: `2026-01-15T10:00:00.000+00:00`."""
    return iso[:19] + ".000" + iso[19:] if len(iso) > 19 and iso[19] != "." else iso


def commit_view(repository: Repository, sha: str, web_url: str) -> dict:
    """Entities::Commit."""
    info = repository.commit_info(sha)
    message = info["message"]
    return {
        "id": info["id"], "short_id": info["id"][:8], "created_at": _gitlab_date(info["committed_date"]),
        "parent_ids": info["parent_ids"], "title": message.split("\n", 1)[0], "message": message,
        "author_name": info["author_name"], "author_email": info["author_email"],
        "authored_date": _gitlab_date(info["authored_date"]), "committer_name": info["committer_name"],
        "committer_email": info["committer_email"], "committed_date": _gitlab_date(info["committed_date"]),
        "trailers": {}, "extended_trailers": {}, "web_url": f"{web_url}/-/commit/{info['id']}",
    }


def commit_detail_view(repository: Repository, sha: str, web_url: str, project_id: int) -> dict:
    """Entities::CommitDetail: a commit with its stats (against its first parent)."""
    view = commit_view(repository, sha, web_url)
    parents = view["parent_ids"]
    added, removed = repository.diff_stats(parents[0], sha) if parents else _root_stats(repository, sha)
    return {**view, "stats": {"additions": added, "deletions": removed, "total": added + removed},
            "status": None, "project_id": project_id, "last_pipeline": None}


def _root_stats(repository: Repository, sha: str) -> tuple[int, int]:
    empty_tree = repository.git("hash-object", "-t", "tree", "/dev/null").decode().strip()
    return repository.diff_stats(empty_tree, sha)


def commit_diffs(repository: Repository, sha: str) -> list[dict]:
    """A commit's diff entries against its first parent (the root commit: against nothing)."""
    parents = repository.commit_info(sha)["parent_ids"]
    base = parents[0] if parents else repository.git("hash-object", "-t", "tree", "/dev/null").decode().strip()
    return repository.changes(base, sha)


def resolve_commit(repository: Repository, ref: str) -> str:
    sha = repository.sha(ref)
    if sha is None:
        raise not_found("Commit Not Found")
    return sha


def branch_view(repository: Repository, name: str, web_url: str) -> dict:
    """Entities::Branch; `merged` means merged into the default branch."""
    sha = repository.sha(name) if name in repository.branches() else None  # not a commit id, HEAD or a tag
    if sha is None:
        raise not_found("Branch Not Found")
    default = name == DEFAULT_BRANCH
    protected = name in PROTECTED_BRANCHES
    return {
        "name": name, "commit": commit_view(repository, sha, web_url),
        "merged": not default and repository.is_ancestor(sha, DEFAULT_BRANCH),
        "protected": protected, "developers_can_push": not protected, "developers_can_merge": not protected,
        "can_push": True, "default": default, "web_url": f"{web_url}/-/tree/{name}",
    }


def compare_view(repository: Repository, source: str, target: str, web_url: str, straight: bool) -> dict:
    """Entities::Compare: commits from `source` to `target` (oldest first) and the diff; not
    straight (the default) diffs from their merge base, as GitLab does."""
    start, end = repository.sha(source), repository.sha(target)
    if start is None or end is None:
        raise not_found("Ref Not Found")
    base = start if straight else repository.merge_base(start, end)
    commits = [commit_view(repository, sha, web_url) for sha in reversed(repository.log(end, exclude=start))]
    return {
        "commit": commits[-1] if commits else None, "commits": commits,
        "diffs": repository.changes(base, end), "compare_timeout": False, "compare_same_ref": start == end,
        "web_url": f"{web_url}/-/compare/{start}...{end}",
    }


def blame_view(repository: Repository, ref: str, path: str, web_url: str) -> list[dict]:
    """Entities::BlameRange: runs of lines with the commit that last changed them."""
    return [{"commit": commit_view(repository, sha, web_url), "lines": lines}
            for sha, lines in repository.blame(ref, path)]


def file_headers(view: dict) -> dict[str, str]:
    """What GitLab's `set_http_headers(blob_data)` sends with a file (GET, HEAD, raw, blame)."""
    names = ("blob_id", "commit_id", "content_sha256", "encoding", "file_name", "file_path", "last_commit_id",
             "ref", "size", "execute_filemode")
    return {"X-Gitlab-" + "-".join(part.capitalize() for part in name.split("_")): _header_value(view[name])
            for name in names}


def _header_value(value: object) -> str:
    """Rack sends a header's UTF-8 bytes as they are; a WSGI header is latin-1, so the same
    bytes on the wire are the UTF-8 read as latin-1 (a Cyrillic file name arrives as GitLab's)."""
    text = "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return text.encode("utf-8").decode("latin-1")
