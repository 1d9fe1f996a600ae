"""The demo repository, built once per version on a machine instead of once per process.

Building it runs ~20 git commands (~0.3 s of every notebook kernel's start); the result depends only
on the build code (`repository.py`), the fixtures and git's version, so it is kept on disk under a
digest of those, in `$COURSE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/course-agent`, else
`~/.cache/course-agent` (`COURSE_AGENT_CACHE_DIR=off`: no cache). It is built in a private folder,
repacked (one pack instead of ~100 loose objects, so each sandbox's copy is half the files), marked
ready and renamed into place, so a reader never sees half a repository; a process that loses the race
to rename uses the winner's. The cached repository is only ever copied, never changed.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

CACHE_ENV = "COURSE_AGENT_CACHE_DIR"
_READY = "ready"
_FORMAT = b"course-agent demo repository cache 2: built, then repacked"
"""Part of the key: a change to what is done to a cached build names another directory."""


def cache_root() -> Path | None:
    chosen = os.environ.get(CACHE_ENV, "").strip()
    if chosen.lower() == "off":
        return None
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "course-agent"


def cache_key(build_code: Path, fixtures: Path) -> str:
    """A digest of everything the built repository depends on: any change names another directory."""
    digest = hashlib.sha256(_FORMAT)
    digest.update(build_code.read_bytes())
    for path in sorted(fixtures.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(fixtures).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(subprocess.run(["git", "--version"], capture_output=True, timeout=30, check=True).stdout)
    return digest.hexdigest()[:24]


def cached_build(key: str, build: Callable[[Path], object]) -> Path | None:
    """The folder of the repository built by `build(folder)` for this key, built now if the cache does
    not have it yet; None when the cache is off."""
    root = cache_root()
    if root is None:
        return None
    final = root / f"demo-repository-{key}"
    if (final / _READY).is_file():
        return final / "shop"
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        build(building / "shop")
        (building / _READY).write_text("")
        try:
            building.rename(final)
        except OSError:  # another process put it there first
            if not (final / _READY).is_file():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return final / "shop"
