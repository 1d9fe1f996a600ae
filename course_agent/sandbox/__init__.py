"""Deprecated home of the sandbox: it is the top-level package `course_sandbox` now.

`import course_agent.sandbox` and any `course_agent.sandbox.<module>` still work, with a
DeprecationWarning, and give the very same module objects as `course_sandbox` (one `Sandbox` class,
not two), so old notebooks and scripts keep running until they change their imports.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings

_NEW = "course_sandbox"

warnings.warn(
    f"course_agent.sandbox moved to {_NEW}: import it from there (`from {_NEW} import Sandbox`)",
    DeprecationWarning,
    stacklevel=2,
)


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `course_agent.sandbox.X` and hands back the already-importable `course_sandbox.X`."""

    def find_spec(self, name: str, path, target=None) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith(__name__ + "."):
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec):
        return importlib.import_module(_NEW + spec.name[len(__name__):])

    def exec_module(self, module) -> None:
        """Nothing to run: the module was executed once, under its new name."""


if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
    sys.meta_path.insert(0, _Alias())

from course_sandbox import *  # noqa: E402,F401,F403
from course_sandbox import __all__  # noqa: E402,F401
