# Упражнение 6, раздел «Глубже» (по желанию): цикл упражнения 6, в котором после отказа запрос один раз уходит запасной
# модели. Изменилась только ветка отказа, а модель теперь запоминается в переменной и остаётся той же до конца запуска;
# остальные правила упражнения 6 соблюдены. Использует `client`, `MODEL`, `TOOLS`, `run_tool` и `REVIEW_RULES` блокнота.
from concurrent.futures import ThreadPoolExecutor

from course_agent.config import fallback_model


def tool_calls(messages: list) -> list[str]:
    """Как в упражнении 3: имена всех инструментов, которые модель успела запросить, по порядку."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def tool_result(call) -> dict:
    """Результат одного блока tool_use; упавший инструмент даёт результат с ошибкой, а не исключение."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} завершился ошибкой: {type(error).__name__}: {error}"}


def run_all(calls: list) -> list[dict]:
    """Как в упражнении 5: каждый tool_use хода — в своём потоке, результаты в порядке вызовов."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(tool_result, calls))


def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]
    model = MODEL

    for _ in range(max_iterations):
        response = client.messages.create(
            model=model, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        match response.stop_reason:
            case "end_turn":
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "stop_sequence":  # ваша собственная стоп-последовательность: уже написанный текст и есть ответ
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "pause_turn":  # тот же ход продолжается: ответ — в историю, нового сообщения от user нет
                messages.append({"role": "assistant", "content": response.content})
            case "refusal":  # ответ с отказом в историю не попадает
                if model == fallback_model():  # отказом ответила и запасная модель: её уже спросили один раз
                    raise RuntimeError(f"Обе модели отказались отвечать: {response.stop_details}")
                model = fallback_model()  # те же сообщения уходят запасной модели, и дальше запуск идёт с ней
            case "max_tokens":  # обрезанный вызов инструмента не выполняется
                raise RuntimeError("Ответ обрезан: увеличьте max_tokens (вызов инструмента, если был, не выполнен)")
            case "model_context_window_exceeded":
                raise RuntimeError("Контекстное окно заполнено: начните заново с более короткой историей")
            case "tool_use":
                messages.append({"role": "assistant", "content": response.content})
                calls = [block for block in response.content if block.type == "tool_use"]
                messages.append({"role": "user", "content": run_all(calls)})  # одновременно; все ОДНИМ сообщением
            case other:
                raise RuntimeError(f"Неожиданная остановка: {other}")

    names = tool_calls(messages)  # ошибка из упражнения 3: чем был занят запуск
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations}); "
                       f"вызовов инструментов: {len(names)} ({', '.join(names)})")
