"""Exercise 8's other form, kept for the tests: the course's reviewer on all six demo merge requests, one row
each (`check_exercise_8(solve(client))`). Notebook 8's own exercise, the cost of the learner's loop, is
cells/exercise_08.py.
"""

from course_agent.i18n import language as course_language
from course_agent.review import review, reviewer_toolbox


def billed(usage):
    """Input tokens as billed: cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def verdict_of(text: str) -> str:
    """The review's last line, "Verdict: request changes." -> "request changes"."""
    last = text.strip().splitlines()[-1]
    return last.split(":", 1)[-1].strip().rstrip(".")


def solve(client, gitlab_tools=None, language: str | None = None):
    """One row per merge request: (pr, verdict, model calls, billed input tokens)."""
    rows = []
    for pr in range(482, 488):
        toolbox = reviewer_toolbox(gitlab_tools) if gitlab_tools is not None else None
        result = review(pr, client=client, toolbox=toolbox, cache=True, language=course_language(language))
        rows.append((pr, verdict_of(result.text), result.iterations, billed(result.usage)))
    for pr, verdict, calls, billed_input in rows:
        print(f"!{pr}  {verdict:18}  {calls} calls  {billed_input:7.0f} billed input tokens")
    costliest = max(rows, key=lambda row: row[3])
    print(f"most expensive: !{costliest[0]} ({costliest[3]:.0f} billed input tokens); "
          "compare its usage with the others'")
    return rows
