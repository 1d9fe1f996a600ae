"""Deprecated home of the hunk reader: it is `course_shared.hunks` now, below the sandbox and the course alike.

`from course_agent.hunks import hunks` still works, with a DeprecationWarning, until course-agent 0.3.
"""

import warnings

from course_agent.moved import REMOVED_IN
from course_shared.hunks import *  # noqa: F401,F403
from course_shared.hunks import __all__  # noqa: F401

warnings.warn("course_agent.hunks moved to course_shared.hunks: import it from there (`from course_shared.hunks import "
              f"hunks`); the old path goes in course-agent {REMOVED_IN}", DeprecationWarning, stacklevel=2)
