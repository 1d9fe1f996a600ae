"""Проект, инструменты и правила блокнота 3: код его ячеек, чтобы следующие блокноты их импортировали.

Файл пишет notebooks/build.py из notebooks/source/shared_cells.py: правьте тот файл, а не этот.
"""

import gitlab

from course_agent.client import gitlab_settings

url, token, project_path = gitlab_settings()  # GITLAB_URL / GITLAB_TOKEN / GITLAB_PROJECT или демо-GitLab песочницы
project = gitlab.Gitlab(url, private_token=token).projects.get(project_path)


def get_diff(pr: int) -> str:
    """Изменения merge request !pr: заголовок, исходная ветка, описание и diff каждого файла."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff слишком большой, не показан: прочитай файл)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main") -> str:
    """Файл репозитория целиком, из ветки или коммита."""
    return project.files.raw(path, ref=ref).decode("utf-8")


TOOLS = [
    {
        "name": "get_diff",
        "description": "Get the changes of a merge request: title, source branch and the diff of every file.",
        "input_schema": {
            "type": "object",
            "properties": {"pr": {"type": "integer", "description": "The merge request number, e.g. 482."}},
            "required": ["pr"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a whole file from the repository at a branch (default main): the code around a change, "
                       "or the callers of a function the change alters.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file's path from the repository root."},
                "ref": {"type": "string", "description": "The branch or commit to read; the merge request's "
                                                         "source_branch shows the changed file."},
            },
            "required": ["path"],
        },
    },
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file}


def run_tool(name: str, tool_input: dict) -> str:
    """Обычный диспетчер: имя инструмента выбирает функцию. Никакого ИИ здесь нет."""
    return FUNCTIONS[name](**tool_input)


REVIEW_RULES = """Ты проверяешь merge request в GitLab. Начни с get_diff. Если изменение затрагивает функцию,
которая используется в других местах, прочитай эти файлы через read_file. Ссылайся на path:line.
Закончи строкой "Вердикт: можно вливать." или "Вердикт: нужны исправления."
"""
