# Упражнение 2 (блокнот 2): второй инструмент, read_file, и шаги 1–4 снова и снова, пока модель не закончит.
def read_file(path: str, ref: str = "main") -> str:
    """Файл репозитория целиком, на ветке или коммите."""
    return project.files.raw(path, ref=ref).decode("utf-8")  # raw отдаёт байты, а результат инструмента — текст


TOOLS = TOOLS[:1] + [{
    "name": "read_file",
    "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the code that "
                   "calls a function the merge request changes.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
            "ref": {"type": "string", "description": "Branch or commit; the merge request's source branch shows the "
                                                     "file as changed."},
        },
        "required": ["path"],
    },
}]
functions = {"get_diff": get_diff, "read_file": read_file}  # имя инструмента выбирает функцию

exercise_messages = [{"role": "user", "content": "Проверь pull request #482."}]
calls = 0
while True:  # шаги 1–4 снова, пока модель не закончит (в блокноте 3 это станет агентным циклом с ограничением)
    response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
    calls += 1
    exercise_messages.append({"role": "assistant", "content": response.content})  # ответ целиком
    if response.stop_reason != "tool_use" or calls == 10:
        break
    for block in response.content:
        if block.type == "tool_use":
            print(calls, block.name, block.input)
    exercise_messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": block.id, "content": functions[block.name](**block.input)}
        for block in response.content if block.type == "tool_use"
    ]})
print("вызовов:", calls, "| stop_reason:", response.stop_reason)
print("\n".join(block.text for block in response.content if block.type == "text"))
