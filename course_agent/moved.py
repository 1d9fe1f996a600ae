"""Old import paths of packages that moved out of `course_agent` (the sandbox, the self-check) keep working.

`course_agent.sandbox.X` and `course_agent.checks.X` give the very same module objects as their new homes
(one `Sandbox` class, one `check_loop`, not two), with one DeprecationWarning, so old notebooks and scripts
keep running until they change their imports.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings

REMOVED_IN = "0.3"
"""The release without the old paths."""


class Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `<old>.X` and hands back the already-importable `<new>.X`."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def find_spec(self, name: str, path, target=None) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith(self.old + "."):
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec):
        return importlib.import_module(self.new + spec.name[len(self.old):])

    def exec_module(self, module) -> None:
        """Nothing to run: the module was executed once, under its new name."""


def moved(old: str, new: str, example: str) -> None:
    """Warn once that `old` moved to `new`, and make every `old.X` import resolve to `new.X`."""
    warnings.warn(f"{old} moved to {new}: import it from there (`{example}`); the old path goes in course-agent "
                  f"{REMOVED_IN}", DeprecationWarning, stacklevel=3)
    if not any(isinstance(finder, Alias) and finder.old == old for finder in sys.meta_path):
        sys.meta_path.insert(0, Alias(old, new))
