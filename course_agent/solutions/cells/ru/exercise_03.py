# Упражнение 3: цикл этого блокнота, у которого ошибка при достижении ограничения сообщает, сколько было вызовов
# инструментов и какие это были инструменты (из `messages`). Использует `client`, `MODEL`, `TOOLS`, `run_tool` и `REVIEW_RULES`
# блокнота.

def tool_calls(messages: list) -> list[str]:
    """Имена всех инструментов, которые модель успела запросить, по порядку."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    if messages is None:  # историю не передали: начинаем новую
        messages = []
    messages.append({"role": "user", "content": f"Проверь merge request !{pr_number}."})

    for iteration in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        messages.append({"role": "assistant", "content": response.content})  # ответ целиком, всегда

        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")

        results = []
        for block in response.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id,
                                "content": run_tool(block.name, block.input)})
        messages.append({"role": "user", "content": results})  # все результаты ОДНИМ сообщением

    names = tool_calls(messages)
    raise RuntimeError(f"Итераций без ответа: {max_iterations}; вызовов инструментов: {len(names)} "
                       f"({', '.join(names)})")
