"""Упражнение 5 (блокнот 5), спойлер: проверить !482, когда read_file всегда завершается ошибкой.

Написано так, как пишет блокнот 5, с `project` на уровне модуля:

    from course_agent.solutions.ru import exercise_05
    run_tool_missing_file = exercise_05.solve(project)
    check_exercise_5(run_tool_missing_file)
"""

from course_agent.solutions.ru.exercise_02 import diff_of

project = None  # Project из python-gitlab: `project` блокнота


def run_tool_safely(functions: dict, name: str, tool_input: dict) -> dict:
    """Результат инструмента; любой сбой становится результатом для модели (is_error), а не исключением."""
    try:
        return {"content": functions[name](**tool_input)}
    except Exception as error:
        return {"content": f"{name} завершился ошибкой: {type(error).__name__}: {error}", "is_error": True}


def get_diff(pr: int) -> str:
    return diff_of(project, pr)


def read_file(path: str, ref: str = "main") -> str:
    """В этом упражнении нет ни одного файла."""
    raise FileNotFoundError(f"файла {path} нет в {ref}")


def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely из блокнота 5 с read_file, который всегда завершается ошибкой."""
    return run_tool_safely({"get_diff": get_diff, "read_file": read_file}, name, tool_input)


def solve(gitlab_project):
    """Взять этот проект и вернуть диспетчер (затем: print(review_with(482, run_tool_missing_file)))."""
    global project
    project = gitlab_project
    return run_tool_missing_file
