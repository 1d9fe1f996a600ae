"""Exercise 5 (notebook 5) on the learner's own loop: the loop of exercise 4 grown so that a failing tool never ends
the run. Its report is the self-check's: notebook 5's rule (GitLab's 404 for a merge request that does not exist, and
a call without its arguments, each sent back as a result with is_error) with the rules of notebooks 3 and 4 still
checked on the same loop; a loop that passes is kept for notebook 6.

The older form of the exercise, a dispatcher run_tool_missing_file(name, tool_input), is graded by exercise_5.py:
check_exercise_5 tells the two apart by how many arguments the function must be given."""

import inspect
from collections.abc import Callable

from course_agent.i18n import N_

from ..report import Report
from .loops import grade_loop

RULES = ["whole_response", "one_message", "errors_are_results", "cap", "returns_answer"]
TASK = N_("Grow your loop so that a failing tool never ends the run: the failure goes back to the model as that call's "
          "tool_result, with is_error: True and what went wrong.")
TASKS = {"errors_are_results": TASK}
NOTE = N_("Not done yet: a tool that fails must go back to the model as a tool_result with is_error: True (see the "
          "rules marked ✘ or – below).")
HINT = N_("Where in your loop does a tool run? What happens there when it raises: who catches the exception, and what "
          "does the model get for that call?")


def takes_a_merge_request(function: object) -> bool:
    """A loop, loop(pr_number, ...), rather than a dispatcher, run_tool(name, tool_input): it can be called with one
    argument."""
    try:
        signature = inspect.signature(function)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in signature.parameters.values() if p.kind in positional and p.default is p.empty]
    return len(required) <= 1


def check_loop_5(loop: Callable | None, language: str | None = None) -> Report:
    """Your loop of notebook 4, with a failing tool's error sent back as a result (is_error) instead of raised."""
    return grade_loop(5, loop, language, RULES, NOTE, HINT, tasks=TASKS)
