"""Упражнение 2 (блокнот 2), спойлер: второй инструмент, read_file, и шаги 1–4, повторённые до end_turn.

    from course_agent.solutions.ru import exercise_02
    TOOLS, exercise_messages = exercise_02.solve(client, project)
    check_exercise_2(TOOLS, exercise_messages)

Инструменты, написанные здесь (TOOLS, diff_of, file_of), — те же, что у всех следующих эталонных решений.
"""

from functools import partial

from course_agent.config import model_id


def diff_of(project, pr: int) -> str:
    """Изменения merge request !pr: заголовок, исходная ветка, описание и diff каждого файла."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff слишком большой, не показан: прочитай файл)")
    return "\n".join(parts)


def file_of(project, path: str, ref: str = "main") -> str:
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
        "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the "
                       "code that calls a function the merge request changes.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
                "ref": {"type": "string", "description": "Branch or commit; the merge request's source branch "
                                                         "to see the file as changed."},
            },
            "required": ["path"],
        },
    },
]


def solve(client, project):
    """Проверить !482 с get_diff и read_file, шаг за шагом; вернуть (TOOLS, всю историю)."""
    functions = {"get_diff": partial(diff_of, project), "read_file": partial(file_of, project)}
    task = "Проверь merge request !482."
    messages = [{"role": "user", "content": task}]
    # Шаги 1–4 блокнота, снова и снова, пока модель не закончит (не больше 10 раз:
    # в блокноте 3 именно это становится агентным циклом с ограничением).
    for call in range(1, 11):
        response = client.messages.create(model=model_id(), max_tokens=4000, tools=TOOLS, messages=messages)
        messages.append({"role": "assistant", "content": response.content})  # ответ целиком
        print(call, response.stop_reason, [block.name for block in response.content if block.type == "tool_use"])
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                print("   ", block.name, block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": functions[block.name](**block.input)})
        messages.append({"role": "user", "content": results})  # все результаты хода ОДНИМ сообщением
    print("\n".join(block.text for block in response.content if block.type == "text"))  # текстовые блоки по type
    return TOOLS, messages
