"""Deprecated home of the self-check: it is the top-level package `course_selfcheck` now.

`import course_agent.checks` and any `course_agent.checks.<module>` still work, with a DeprecationWarning,
and give the very same module objects as `course_selfcheck` (see `course_agent.moved`).
"""

from course_agent.moved import moved

moved(__name__, "course_selfcheck", "from course_selfcheck import check_loop")

from course_selfcheck import *  # noqa: E402,F401,F403
from course_selfcheck import __all__  # noqa: E402,F401
