# Упражнение 2 (блокнот 2): второй инструмент, read_file, и шаги 1–4, повторённые вручную, круг за кругом, пока
# модель не закончит (в блокноте 3 эти круги станут циклом с ограничением на число итераций).
def read_file(path: str, ref: str = "main") -> str:
    """Файл репозитория целиком, из ветки или коммита."""
    return project.files.raw(path, ref=ref).decode("utf-8")  # raw отдаёт байты, а результат инструмента — текст


# описание read_file, как его даёт ячейка упражнения, и TOOLS новым списком: описание get_diff и описание read_file
READ_FILE_TOOL = {
    "name": "read_file",
    "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the code that "
                   "calls a function the merge request changes.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
            "ref": {"type": "string", "description": "Branch or commit, e.g. the merge request's source branch."},
        },
        "required": ["path"],
    },
}
TOOLS = [TOOLS[0], READ_FILE_TOOL]
functions = {"get_diff": get_diff, "read_file": read_file}  # имя инструмента выбирает функцию

exercise_messages = [{"role": "user", "content": "Проверь merge request !482."}]

# круг 1: шаг 1, затем шаги 2–3 для каждого tool_use в ответе
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
exercise_messages.append({"role": "assistant", "content": response.content})  # ответ целиком
print(1, response.stop_reason, [(block.name, block.input) for block in response.content if block.type == "tool_use"])
exercise_messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": block.id, "content": functions[block.name](**block.input)}
    for block in response.content if block.type == "tool_use"
]})

# круг 2: шаг 1, затем шаги 2–3 для каждого tool_use в ответе (те же строки ещё раз: теперь модель читает файл)
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
exercise_messages.append({"role": "assistant", "content": response.content})  # ответ целиком
print(2, response.stop_reason, [(block.name, block.input) for block in response.content if block.type == "tool_use"])
exercise_messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": block.id, "content": functions[block.name](**block.input)}
    for block in response.content if block.type == "tool_use"
]})

# круг 3: модель закончила (end_turn), и её ответ тоже идёт в историю. (С настоящим API модели может понадобиться
# ещё один круг: тогда скопируйте строки выше ещё раз.)
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
exercise_messages.append({"role": "assistant", "content": response.content})
print(3, response.stop_reason)
print("\n".join([block.text for block in response.content if block.type == "text"]))
