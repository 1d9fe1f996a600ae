# Упражнение 7: цикл упражнения 6 со шлюзом. Инструмент из `DANGEROUS` выполняется, только когда
# `approve(name, tool_input)` возвращает `True`; любой другой ответ, исключение или отсутствие ответа — это «нет»: вызов
# отклонён и возвращается модели как результат с ошибкой, и цикл продолжается. Обычный цикл по вызовам хода:
# спросить об опасном вызове, затем выполнить его или вернуть результат об отклонении.
# Использует `client`, `MODEL`, `TOOLS`, `run_tool`, `REVIEW_RULES`, `DANGEROUS` и `ask_human` блокнота.


def tool_calls(messages: list) -> list[str]:
    """Как в упражнении 3: имена всех инструментов, которые модель успела запросить, по порядку."""
    names = []
    for message in messages:
        if message["role"] == "assistant":
            names += [block.name for block in message["content"] if block.type == "tool_use"]
    return names


def approved(approve, name: str, tool_input: dict) -> bool:
    """Подтверждение — только явное True."""
    try:
        return approve(name, tool_input) is True
    except Exception:  # спросить было некого (нет клавиатуры, виджет закрыт): нет ответа — значит «нет»
        return False


def tool_result(call) -> dict:
    """Результат одного блока tool_use; упавший инструмент даёт результат с ошибкой, а не исключение."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} завершился ошибкой: {type(error).__name__}: {error}"}


def denied(call) -> dict:
    """Результат опасного вызова без подтверждения: ошибка, которую прочтёт модель; ничего не выполнено."""
    return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
            "content": f"Человек отклонил этот вызов: {call.name} не выполнен. "
                       "Не пытайся добиться того же другим путём — просто сообщи об этом."}


def review_with_gate(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )
        match response.stop_reason:
            case "end_turn":
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "stop_sequence":
                return "\n".join(block.text for block in response.content if block.type == "text")
            case "pause_turn":
                messages.append({"role": "assistant", "content": response.content})
            case "refusal":
                raise RuntimeError(f"Модель отказалась отвечать: {response.stop_details}")
            case "max_tokens":
                raise RuntimeError("Ответ обрезан: увеличьте max_tokens (вызов инструмента, если был, не выполнен)")
            case "model_context_window_exceeded":
                raise RuntimeError("Контекстное окно заполнено: начните заново с более короткой историей")
            case "tool_use":
                messages.append({"role": "assistant", "content": response.content})
                results = []  # шлюз, вызов за вызовом
                for call in [block for block in response.content if block.type == "tool_use"]:
                    if call.name in DANGEROUS and not approved(approve, call.name, call.input):
                        results.append(denied(call))  # вызов не выполнен: модель прочтёт причину
                    else:
                        results.append(tool_result(call))
                messages.append({"role": "user", "content": results})  # все результаты — в ОДНОМ сообщении
            case other:
                raise RuntimeError(f"Неожиданная остановка: {other}")

    names = tool_calls(messages)  # ошибка из упражнения 3: чем был занят запуск
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations}); "
                       f"вызовов инструментов: {len(names)} ({', '.join(names)})")
