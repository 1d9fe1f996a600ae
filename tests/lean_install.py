"""The lean install, simulated offline: a Python that can import only what `pip install course-agent` (no
extras) would bring, worked out from the installed packages' own metadata.

A fresh virtual environment would need PyPI; this needs nothing. The set of distributions is the closure of
course-agent's requirements that carry no extra, following each distribution's own requirements whose
environment markers hold; every top-level module of another distribution (JupyterLab, widgets, the sandbox's
HTTP server...) raises ModuleNotFoundError, as it would where it is not installed."""

import sys
from importlib import metadata

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

OWN_PACKAGES = ("course_agent", "course_sandbox", "course_selfcheck", "course_shared")


def _requirements(distribution: str, extras: tuple[str, ...] = ("",)) -> list[str]:
    names = []
    for line in metadata.requires(distribution) or []:
        requirement = Requirement(line)
        if requirement.marker is None or any(
                requirement.marker.evaluate({**default_environment(), "extra": extra}) for extra in extras):
            names.append(requirement.name)
    return names


def lean_distributions() -> set[str]:
    """The distributions a lean install of course-agent holds (names canonicalised), course-agent itself included."""
    seen: set[str] = set()
    todo = ["course-agent"]
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        try:
            todo += _requirements(name)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency of a dependency that this machine does not have either
        seen.add(name)
    return seen


def lean_modules(own: bool = True) -> set[str]:
    """Top-level modules importable in the lean install: the standard library, the lean distributions' modules and
    (unless `own` is False: a learner's project that has only anthropic and python-gitlab) the course's packages."""
    wanted = lean_distributions()
    modules = {module for module, distributions in metadata.packages_distributions().items()
               if any(canonicalize_name(d) in wanted for d in distributions)} - set(OWN_PACKAGES)
    return modules | set(sys.stdlib_module_names) | (set(OWN_PACKAGES) if own else set())


def prelude(own: bool = True) -> str:
    """Python source that, run first in a fresh interpreter, makes every other top-level module unimportable."""
    return f"""
import sys
_ALLOWED = {sorted(lean_modules(own))!r}
class _LeanInstall:
    # wraps each finder: for a module the lean install lacks every finder answers None, as where it is not installed
    def __init__(self, finder):
        self._finder = finder
    def __getattr__(self, name):
        return getattr(self._finder, name)
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in _ALLOWED or top.startswith(("__editable__", "_distutils_hack", "_sysconfigdata_")):
            return self._finder.find_spec(name, path, target)
        return None
sys.meta_path[:] = [_LeanInstall(finder) for finder in sys.meta_path]
"""
