# Упражнение 4: цикл упражнения 3 (его ошибка при достижении ограничения называет вызванные инструменты), в котором
# вызовы одного хода выполняются одновременно. `pool.map` отдаёт результаты в порядке вызовов, и все они возвращаются
# одним сообщением. Использует `client`, `MODEL`, `TOOLS`, `run_tool` и `REVIEW_RULES` блокнота.
from concurrent.futures import ThreadPoolExecutor


def tool_calls(messages: list) -> list[str]:
    """Как в упражнении 3: имена всех инструментов, которые модель успела запросить, по порядку."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def tool_result(call) -> dict:
    """Блок tool_result, который отвечает на один вызов."""
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def run_all(calls: list) -> list[dict]:
    """Как run_all из примера блокнота 4, только без параметра `answer` (он там ради медленного инструмента):
    каждый tool_use хода — в своём потоке, результаты в порядке вызовов; каждый результат даёт функция tool_result,
    определённая на момент запуска."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tool_result, calls))


def review_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        messages.append({"role": "assistant", "content": response.content})

        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")

        calls = [block for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": run_all(calls)})  # все результаты ОДНИМ сообщением

    names = tool_calls(messages)  # ошибка из упражнения 3: чем был занят запуск
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations}); "
                       f"вызовов инструментов: {len(names)} ({', '.join(names)})")
