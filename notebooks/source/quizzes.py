"""A short quiz before each notebook's recap: three questions, each answer folded in <details>."""

from cells import md

QUESTIONS = {
    1: [
        ("The model's answer stopped mid-sentence and `stop_reason` is `max_tokens`. Did the API raise an error?",
         "No. A cut answer is a normal response; only `stop_reason` tells you. Raise `max_tokens` (and in an agent, never take a cut answer for a finished one).",
         "Ответ модели оборвался на полуслове, а `stop_reason` равен `max_tokens`. Выбросил ли API исключение?",
         "Нет. Обрезанный ответ — обычный ответ; об обрыве говорит только `stop_reason`. Увеличьте `max_tokens` (а в агенте никогда не принимайте обрезанный ответ за законченный)."),
        ("Asked to review !482 with no tools, what can the model do?",
         "Only write text: it cannot open GitLab. Everything an agent \"does\" is done by your code.",
         "Что может модель, если попросить её проверить !482 без инструментов?",
         "Только написать текст: открыть GitLab она не может. Всё, что агент «делает», делает ваш код."),
        ("What does `usage` tell you?",
         "How many input and output tokens the call used: what you pay for.",
         "Что сообщает `usage`?",
         "Сколько входных и выходных токенов ушло на вызов, то есть за что вы платите."),
    ],
    2: [
        ("What does the model see of a tool?", "Only its name, description and `input_schema`; never your function's code.",
         "Что модель видит от инструмента?", "Только имя, описание и `input_schema`; код вашей функции — никогда."),
        ("Which id links a `tool_result` to its call?", "`tool_use_id`, equal to the `id` of the `tool_use` block it answers.",
         "Какой id связывает `tool_result` с вызовом?", "`tool_use_id`, равный `id` блока `tool_use`, на который он отвечает."),
        ("By how many messages does the history grow per tool turn?", "Two: the assistant's response, then one user message with the results.",
         "На сколько сообщений растёт история за один ход с инструментом?", "На два: ответ assistant, затем одно сообщение user с результатами."),
    ],
    3: [
        ("What separates an agent from a workflow?", "Who picks the next step: in an agent the model does, so the number of iterations is not known in advance.",
         "Чем агент отличается от воркфлоу?", "Тем, кто выбирает следующий шаг: в агенте — модель, поэтому число итераций заранее неизвестно."),
        ("Why does every iteration cost more than the one before?", "Each request sends the whole history again, and the history grows.",
         "Почему каждая итерация дороже предыдущей?", "Каждый запрос заново отправляет всю историю, а она растёт."),
        ("What happens without a cap when a tool keeps returning something useless?", "The loop runs until the money runs out.",
         "Что будет без ограничения, если инструмент раз за разом возвращает бесполезное?", "Цикл будет крутиться, пока не кончатся деньги."),
    ],
    4: [
        ("The model asked for three files in one response. How many user messages carry the results?", "One, with all three `tool_result` blocks.",
         "Модель запросила три файла в одном ответе. Сколько сообщений user несут результаты?", "Одно, со всеми тремя блоками `tool_result`."),
        ("What does the model learn from results split over several messages?", "To stop calling tools in parallel: more round trips, more tokens.",
         "Чему учат модель результаты, разбитые на несколько сообщений?", "Перестать вызывать инструменты параллельно: больше запросов, больше токенов."),
        ("Which calls of a turn may run at the same time?", "Read-only ones; calls that write or are dangerous run one after another, in order.",
         "Какие вызовы одного хода можно выполнять одновременно?", "Только читающие; пишущие и опасные — по одному, по порядку."),
    ],
    5: [
        ("GitLab answers 404 to a tool. What goes back to the model?", "A `tool_result` with `is_error: true` and the error's text; the loop goes on.",
         "GitLab ответил инструменту 404. Что уходит модели?", "`tool_result` с `is_error: true` и текстом ошибки; цикл продолжается."),
        ("With thinking on, which blocks of a response go back into the history?", "All of them, unchanged: thinking (with its signature), text and tool_use.",
         "Какие блоки ответа возвращаются в историю, если включено рассуждение?", "Все, без изменений: thinking (с подписью), text и tool_use."),
        ("Can you edit an earlier message of a conversation that carries thinking blocks?", "No: the history is append-only; put every update in a new message at the end.",
         "Можно ли править раннее сообщение в диалоге с блоками рассуждения?", "Нет: историю только дописывают; любое обновление — новым сообщением в конце."),
    ],
    6: [
        ("What do you send after `pause_turn`?", "The conversation with the paused response appended, and no new user message.",
         "Что отправить после `pause_turn`?", "Диалог с добавленным приостановленным ответом и без нового сообщения от user."),
        ("`max_tokens` cut a `tool_use` in the middle. Run it?", "Never: its input is incomplete. Raise `max_tokens` and ask again.",
         "`max_tokens` обрезал `tool_use` посередине. Выполнять его?", "Никогда: вход неполный. Увеличьте `max_tokens` и спросите снова."),
        ("Is sending a refused request again a good idea?", "Not to the same model: it refuses again. Another model is a deliberate fallback, not a retry.",
         "Стоит ли отправить отклонённый запрос ещё раз?", "Не той же модели: она снова откажет. Другая модель — осознанный переход на запасную, а не повтор."),
    ],
    7: [
        ("Who decides whether a tool call may run?", "Your code, not the model: the model only decides what to ask for.",
         "Кто решает, можно ли выполнить вызов инструмента?", "Ваш код, а не модель: модель только решает, что попросить."),
        ("Why `merge_pr(pr)` rather than `bash(command)`?", "A narrow tool can be gated, logged and counted; a command string cannot be checked.",
         "Почему `merge_pr(pr)`, а не `bash(command)`?", "Узкий инструмент можно поставить на подтверждение, залогировать и посчитать; строку команды проверить нельзя."),
        ("No human answers the approval prompt. What happens?", "No answer means no: the call is refused and the refusal goes back as an error result.",
         "Никто не ответил на запрос подтверждения. Что произойдёт?", "Нет ответа — значит нет: вызов отклонён, и отказ уходит модели как результат с ошибкой."),
    ],
    8: [
        ("What does a cache read cost compared with a plain input token?", "A tenth (0.1x); a cache write costs 1.25x.",
         "Сколько стоит чтение из кэша по сравнению с обычным входным токеном?", "Десятую часть (0,1); запись в кэш — 1,25."),
        ("What does `tool_runner` not do for you?", "Gate the calls: safety stays your job.",
         "Чего `tool_runner` за вас не делает?", "Не ставит вызовы на подтверждение: безопасность — по-прежнему ваша забота."),
        ("Where is the whole state of an agent run?", "In its `messages` list: save it, and the run can be read and resumed.",
         "Где всё состояние запуска агента?", "В списке `messages`: сохраните его — и запуск можно прочитать и продолжить."),
    ],
}


def quiz(notebook: int):
    """The quiz of one notebook, as one markdown cell in each language."""
    def text(heading: str, answer: str, items: list[tuple[str, str]]) -> str:
        parts = [f"## {heading}", ""]
        for number, (question, reply) in enumerate(items, start=1):
            parts += [f"{number}. {question}", "", f"<details><summary>{answer}</summary>", "", reply, "</details>", ""]
        return "\n".join(parts)

    items = QUESTIONS[notebook]
    return md(text("Check yourself", "Answer", [(q, a) for q, a, _, _ in items]),
              text("Проверьте себя", "Ответ", [(q, a) for _, _, q, a in items]))
