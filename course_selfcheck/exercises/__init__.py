"""Graders of the notebooks' exercises: one module per exercise, each returning a Report.

    from course_selfcheck.exercises import check_exercise_1
    check_exercise_1(counting)              # the Message of your call

Each grader judges what the learner produced (a Message, a history, a function, a policy, a
table, a loop), one Finding per requirement of the exercise. An exercise's requirements are a
table of rows, Requirement(rule, title, check, hint) (grading.py), so that what is graded reads
as data; each row is made by @requirement right above the check function that judges it. Where behaviour has to
be seen, the grader runs the learner's code against a fresh Sandbox (never the learner's own GitLab or the live
API). An untouched placeholder (None, an empty list, the notebook's template) gives one "not done yet" line and
judges no requirement (grading.NotDone). When the learner's code raises, the report starts with the exception, its type,
message and the learner's line, and every requirement it kept from being checked says "not checked
because your code raised X" (crash.py). A requirement is passed only when it was observed and right.
"""

from .exercise_1 import check_exercise_1
from .exercise_2 import check_exercise_2
from .exercise_3 import check_exercise_3
from .exercise_4 import check_exercise_4
from .exercise_5 import check_exercise_5
from .exercise_6 import check_exercise_6, check_fallback
from .exercise_7 import check_exercise_7
from .exercise_8 import check_exercise_8
from .exercise_9 import check_exercise_9
from .grading import DEMO_MRS, MAX_ITERATIONS, REVIEWED, Requirement, Seen
from .loops import passed

# The graders read these knobs when they run (grading.setting), so a test or a slow machine can change them.
TOOL_TIMEOUT = 10.0
"""Seconds a learner's tool dispatcher may take for one call before the grader gives up on it."""
APPROVER_TIMEOUT = 5.0
"""An approver is a rule here: one that waits for a click (or input()) is given up on after this."""

__all__ = ["APPROVER_TIMEOUT", "DEMO_MRS", "MAX_ITERATIONS", "REVIEWED", "TOOL_TIMEOUT", "Requirement", "Seen",
           "check_exercise_1", "check_exercise_2", "check_exercise_3", "check_exercise_4", "check_exercise_5",
           "check_exercise_6", "check_exercise_7", "check_exercise_8", "check_exercise_9",
           "check_fallback", "passed"]
