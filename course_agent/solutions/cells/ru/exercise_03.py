# Упражнение 3: цикл этого блокнота в том виде, в каком он дан в ячейке упражнения, с изменённой ошибкой при
# достижении ограничения: она сообщает, сколько было вызовов инструментов и какие это были инструменты (из `messages`).
# Использует `client`, `MODEL`, `TOOLS`, `run_tool` и `REVIEW_RULES` блокнота.

def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    """Цикл: вызвать модель, запустить инструменты, которые она запросила, повторять до конца."""
    if messages is None:  # историю не передали: начинаем новую
        messages = []
    messages.append({"role": "user", "content": f"Проверь merge request !{pr_number}."})

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )

        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})  # ответ тоже сохраняем в истории
            return "\n".join(block.text for block in response.content if block.type == "text")

        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")

        # 1. Ответ модели добавляем в историю целиком
        messages.append({"role": "assistant", "content": response.content})

        # 2. Выполняем все запрошенные инструменты
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": run_tool(block.name, block.input),
            })

        # 3. Результаты — сообщением от user
        messages.append({"role": "user", "content": results})

    names = []  # инструменты всех блоков tool_use в истории, по порядку
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations}); "
                       f"вызовов инструментов: {len(names)} ({', '.join(names)})")
