"""Deprecated home of the sandbox: it is the top-level package `course_sandbox` now.

`import course_agent.sandbox` and any `course_agent.sandbox.<module>` still work, with a DeprecationWarning,
and give the very same module objects as `course_sandbox` (one `Sandbox` class, not two; see
`course_agent.moved`), so old notebooks and scripts keep running until they change their imports.
"""

from course_agent.moved import moved

moved(__name__, "course_sandbox", "from course_sandbox import Sandbox")

from course_sandbox import *  # noqa: E402,F401,F403
from course_sandbox import __all__  # noqa: E402,F401
