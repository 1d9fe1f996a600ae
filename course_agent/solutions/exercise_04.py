"""Exercise 4 (notebook 4), a spoiler: the calls of a turn run at the same time, their results in the
calls' order, all in one message. Only the step that runs the calls changes: the loop is exercise 3's.

    from course_agent.solutions import exercise_04
    check_exercise_4(exercise_04.review_pull_request_concurrently)
"""

from concurrent.futures import ThreadPoolExecutor

from course_agent.solutions.exercise_03 import review_pull_request, run_tool


def run_all(calls: list) -> list[dict]:
    """Every call of the turn in a thread of its own; pool.map gives the results in the calls' order."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda block: run_tool(block.name, block.input), calls))
    return [{"type": "tool_result", "tool_use_id": block.id, **result}
            for block, result in zip(calls, results, strict=True)]


def review_pull_request_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    return review_pull_request(pr_number, max_iterations, run_calls=run_all)
