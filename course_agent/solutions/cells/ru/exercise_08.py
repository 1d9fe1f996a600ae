# Упражнение 8: цикл упражнения 7, в котором каждый запрос кэшируется, стоимость печатается, а результат инструмента
# длиннее `LIMIT` обрезается и дополняется строкой о том, что он обрезан, и о том, как прочитать остальное (`start`, с
# которого читать дальше). Использует `client`, `MODEL`, `TOOLS`, `run_tool`, `REVIEW_RULES`, `DANGEROUS`, `ask_human`,
# `billed` и `LIMIT` блокнота.
# Шаг 1 — обрезка (run_cut, её вызывает tool_result); шаг 2 — кэширование и счёт (cache_control, `usage`, `finally`).


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
    except Exception:
        return False


def run_cut(name: str, tool_input: dict) -> str:  # шаг 1
    """run_tool, только результат длиннее LIMIT обрезается, а строка после него говорит, как прочитать остальное."""
    text = run_tool(name, tool_input)  # read_file уже читает с символа, который назван в вызове
    if len(text) <= LIMIT:
        return text
    if name != "read_file":  # только read_file умеет читать с середины
        return f"{text[:LIMIT]}\n\n[обрезано: отправлены символы 0–{LIMIT} из {len(text)}, остальные — нет.]"
    start = tool_input.get("start", 0)
    end = start + LIMIT
    return (f"{text[:LIMIT]}\n\n[обрезано: отправлены символы {start}–{end} из {start + len(text)}. Чтобы "
            f"прочитать остальное, вызови read_file с start={end}.]")


def tool_result(call) -> dict:
    """Как в упражнении 5, только длинный результат обрезается (run_cut); упавший инструмент даёт
    результат с ошибкой."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_cut(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} завершился ошибкой: {type(error).__name__}: {error}"}


def denied(call) -> dict:
    """Результат опасного вызова без подтверждения: ошибка, которую прочтёт модель; ничего не выполнено."""
    return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
            "content": f"Человек отклонил этот вызов: {call.name} не выполнен. "
                       "Не пытайся добиться того же другим путём — просто сообщи об этом."}


def review_with_cost(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]
    usage = []  # шаг 2: `usage` каждого ответа; счёт — в `finally`
    try:
        for _ in range(max_iterations):
            response = client.messages.create(
                model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
                # автоматическое кэширование: контрольная точка кэша движется вместе с диалогом
                cache_control={"type": "ephemeral"},
            )
            usage.append(response.usage)
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
    finally:  # выполняется, чем бы ни закончился `try` (ответом или ошибкой): счёт печатается всегда
        print(f"оплачиваемый вход, токенов: {billed(usage):.0f}; вызовов модели: {len(usage)}")
