# %% [markdown] lang="en"
# # 6. Stop reasons
# <!-- fact: stop-reason-values -->
#
# **You will learn**
# - every value of `stop_reason` a response can end with (without beta features: notebook 11), what makes it happen,
#   and what your loop must do:
#   `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `pause_turn`, `refusal` and
#   `model_context_window_exceeded`;
# - why a tool call cut by `max_tokens` must never run;
# - why a refusal ends the run, saying why (`stop_details`).
#
# Three of the seven you know: `end_turn` and `tool_use` from notebooks 1–3, `stop_sequence` from exercise 1 (a short
# reminder below). Two stops get less room here: `pause_turn` and `model_context_window_exceeded`, a short paragraph
# each. The reviewer rarely meets them, but your loop still handles them. Optional notebook 11 goes further.
#
# Every stop reason asks the loop for one of three things:
#
# - **go on**: `tool_use` (run the tools) and `pause_turn` (send the turn back);
# - **return**: `end_turn` and `stop_sequence`;
# - **raise a clear error**: `max_tokens`, `model_context_window_exceeded`, `refusal` (with its `stop_details`), and
#   any reason the loop does not know.
#
# In the exercise your own loop of notebook 5 learns them all, in two steps. Some stops are hard to provoke with the
# real API (a refusal, a full context window). The sandbox makes each one happen on demand.
#
# At the end comes an optional part (skip it on a first pass): your loop answers a refusal once with a fallback model.
# It has a check of its own.
#
# *About 90 minutes, plus 25 for the optional part. Builds on notebook 5.*
#
# <!-- rules-new-here -->

# %% [markdown] lang="ru"
# # 6. Причины остановки
# <!-- fact: stop-reason-values -->
#
# **Вы узнаете**
# - все значения `stop_reason`, которыми может закончиться ответ (без бета-функций: о них — блокнот 11), из-за чего
#   возникает каждое и что должен сделать ваш цикл: `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`,
#   `pause_turn`, `refusal` и `model_context_window_exceeded`;
# - почему вызов инструмента, обрезанный по `max_tokens`, выполнять нельзя;
# - почему отказ завершает запуск с объяснением причины (`stop_details`).
#
# Три из этих семи вы уже знаете: `end_turn` и `tool_use` — из блокнотов 1–3, `stop_sequence` — из упражнения 1 (ниже о
# ней короткое напоминание). Двум остановкам здесь отведено меньше места: `pause_turn` и
# `model_context_window_exceeded` — по короткому абзацу. У ревьюера они случаются редко, но ваш цикл всё равно их
# обрабатывает. Подробнее — в необязательном блокноте 11.
#
# Каждая причина остановки требует от цикла одного из трёх действий:
#
# - **продолжить**: `tool_use` (выполнить инструменты) и `pause_turn` (отправить запрос снова, с этим ответом в
#   истории);
# - **вернуть ответ**: `end_turn` и `stop_sequence`;
# - **выбросить исключение с понятным сообщением**: `max_tokens`, `model_context_window_exceeded`, `refusal` (со `stop_details`) и любая
#   причина, которой цикл не знает.
#
# В упражнении всему этому в два шага научится ваш собственный цикл из блокнота 5. Некоторые остановки трудно вызвать
# с настоящим API (отказ, переполненное контекстное окно). Песочница воспроизводит каждую по запросу.
#
# В конце — необязательная часть (при первом прохождении её можно пропустить): ваш цикл после отказа один раз
# обращается к запасной модели. У этой части своя проверка.
#
# *Около 90 минут и ещё 25 на необязательную часть. Опирается на блокнот 5.*
#
# <!-- rules-new-here -->

# %% use="setup"

# %% [markdown] lang="en"
# One decision per stop reason reads best as a `match` statement (Python 3.10 and later): Python tries each `case`
# in turn and runs the first that fits `response.stop_reason`; `case other` fits anything and names it. Two values
# that need the same branch can share one `case`: `case "end_turn" | "stop_sequence":` fits either (`|` reads "or").

# %% [markdown] lang="ru"
# Решение для каждой причины остановки удобнее всего записать через `match` (Python 3.10 и новее): Python
# по очереди пробует каждый `case` и выполняет первый, под который подходит `response.stop_reason`; под `case other`
# подходит любое значение, и оно попадает в переменную `other`. Если двум значениям нужна одна и та же ветка, хватит
# одного `case`: под `case "end_turn" | "stop_sequence":` подходит любое из них (`|` здесь означает «или»).

# %% lang="en"
def what_to_do(response) -> str:
    """One decision per stop reason, as an agent loop has to make it."""
    match response.stop_reason:
        case "end_turn":
            return "done: return the text"
        case "tool_use":
            return "run the tools, append the response and all results, call again"
        case "max_tokens":
            return "error: the answer was cut; increase max_tokens (never run a cut tool_use)"
        case "stop_sequence":
            return (f"stopped at our stop sequence {response.stop_sequence!r}: "
                    "use the text so far")
        case "pause_turn":
            return "append the response and call again, with no new user message"
        case "refusal":
            return "error: refused; stop_details says why (never the same request to the same model again)"
        case "model_context_window_exceeded":
            return "error: the context window is full; start afresh with a shorter history"
        case other:
            return f"error: unknown stop reason {other!r}"

# %% lang="ru"
def what_to_do(response) -> str:
    """Какое решение агентный цикл должен принять при каждой причине остановки."""
    match response.stop_reason:
        case "end_turn":
            return "готово: вернуть текст"
        case "tool_use":
            return "выполнить инструменты, добавить в историю ответ и все результаты, вызвать модель снова"
        case "max_tokens":
            return "ошибка: ответ обрезан; увеличить max_tokens (обрезанный tool_use не выполнять никогда)"
        case "stop_sequence":
            return (f"остановка по вашей стоп-последовательности {response.stop_sequence!r}: "
                    "взять текст, написанный до неё")
        case "pause_turn":
            return "добавить ответ в историю и вызвать модель снова, без нового сообщения от user"
        case "refusal":
            return "ошибка: отказ; причина — в stop_details (тот же запрос той же модели не повторять)"
        case "model_context_window_exceeded":
            return "ошибка: контекстное окно заполнено; начать заново с более короткой историей"
        case other:
            return f"ошибка: неизвестная причина остановки {other!r}"

# %% [markdown] lang="en"
# ## end_turn and tool_use
#
# The two you met already: the model is done, or it wants tools.

# %% [markdown] lang="ru"
# ## end_turn и tool_use
#
# Две причины, которые вы уже встречали: модель закончила или ей нужны инструменты.

# %% lang="en"
# A bare definition, enough to show a stop reason; a real tool needs notebook 2's detailed description.
TOOLS = [{"name": "get_diff", "description": "Get the diff of a merge request.",
          "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}}]

done = client.messages.create(model=MODEL, max_tokens=500,
                              messages=[{"role": "user", "content": "What is 6 * 7?"}])
print(done.stop_reason, "->", what_to_do(done))
wants = client.messages.create(model=MODEL, max_tokens=500, tools=TOOLS,
                               messages=[{"role": "user", "content": "Review merge request !482."}])
print(wants.stop_reason, "->", what_to_do(wants))

# %% lang="ru"
# Минимальное определение: его хватает, чтобы показать причину остановки; настоящему инструменту нужно подробное
# описание, как в блокноте 2.
TOOLS = [{"name": "get_diff", "description": "Get the diff of a merge request.",
          "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}}]

done = client.messages.create(model=MODEL, max_tokens=500,
                              messages=[{"role": "user", "content": "Сколько будет 6 * 7?"}])
print(done.stop_reason, "->", what_to_do(done))
wants = client.messages.create(model=MODEL, max_tokens=500, tools=TOOLS,
                               messages=[{"role": "user", "content": "Проверь merge request !482."}])
print(wants.stop_reason, "->", what_to_do(wants))

# %% [markdown] lang="en"
# <!-- fact: max-tokens-cut-tool-use -->
# ## max_tokens, and a cut tool call
#
# When the budget runs out in the middle of a `tool_use` block, the block is still there, but its input
# is incomplete. Here it should be `{"pr": 482}`. Running it would review the wrong merge request, or
# crash: a cut tool call must never run. The fix is a larger `max_tokens`. (The docs' table of stop reasons also
# offers to continue the cut response. That suits a cut text answer; a reviewer raises instead, and a cut tool call is
# never continued into a run.)
#
# `model_context_window_exceeded` is the same stop for another cause: the answer ran into the end of the model's
# context window (the history and the answer together no longer fit), so it was cut too. Your loop treats it like
# `max_tokens`, but a larger `max_tokens` does not help here: the history has to get shorter (optional notebook 11
# shows it).
#
# **Predict, then run:** the cell below asks for the same review three times, each time with a budget a little short of
# the whole answer. What will the `get_diff` call's input hold each time, and what must a loop do with that response?

# %% [markdown] lang="ru"
# <!-- fact: max-tokens-cut-tool-use -->
# ## max_tokens и обрезанный вызов инструмента
#
# Если бюджет `max_tokens` заканчивается посреди блока `tool_use`, блок в ответе всё равно есть, но его
# входные данные неполные. В примере ниже там должно быть `{"pr": 482}`. Если выполнить такой вызов, агент проверит
# не тот merge request или упадёт: обрезанный вызов инструмента выполнять нельзя. Исправление — больший `max_tokens`.
# (В таблице причин остановки документация предлагает и другой путь: продолжить обрезанный ответ. Он годится для
# обрезанного текста; ревьюер же выбрасывает исключение, а обрезанный вызов инструмента так и не выполняется.)
#
# `model_context_window_exceeded` — такой же обрыв ответа, только по другой причине: ответ упёрся в конец
# контекстного окна модели (история вместе с ответом в него больше не помещается). Ваш цикл обрабатывает эту остановку
# так же, как `max_tokens`, только увеличивать `max_tokens` здесь бесполезно: короче должна стать история (вживую — в
# необязательном блокноте 11).
#
# **Сначала предположите, потом запустите:** ячейка ниже трижды просит то же ревью, и каждый раз бюджета немного не хватает на
# весь ответ. Что окажется во входных данных вызова `get_diff` в каждом случае и что цикл должен сделать с таким ответом?

# %% lang="en"
task = [{"role": "user", "content": "Review merge request !482."}]
whole = client.messages.create(model=MODEL, max_tokens=2000, tools=TOOLS, messages=task).usage.output_tokens
for budget in (whole - 11, whole - 2, whole - 1):  # just short of the whole answer
    cut = client.messages.create(model=MODEL, max_tokens=budget, tools=TOOLS, messages=task)
    calls = [block.input for block in cut.content if block.type == "tool_use"]  # the cut call, if one was begun
    print(budget, cut.stop_reason, calls, "->", what_to_do(cut))

# %% lang="ru"
task = [{"role": "user", "content": "Проверь merge request !482."}]
whole = client.messages.create(model=MODEL, max_tokens=2000, tools=TOOLS, messages=task).usage.output_tokens
for budget in (whole - 11, whole - 2, whole - 1):  # чуть меньше, чем нужно на весь ответ
    cut = client.messages.create(model=MODEL, max_tokens=budget, tools=TOOLS, messages=task)
    # обрезанный вызов, если модель успела его начать
    calls = [block.input for block in cut.content if block.type == "tool_use"]
    print(budget, cut.stop_reason, calls, "->", what_to_do(cut))

# %% [markdown] lang="en"
# <!-- fact: stop-sequence-field -->
# ## stop_sequence
#
# Your own stop: the model stops right before writing one of your `stop_sequences`.

# %% [markdown] lang="ru"
# <!-- fact: stop-sequence-field -->
# ## stop_sequence
#
# Остановка по вашей стоп-последовательности: модель останавливается прямо перед тем, как написать одну
# из строк `stop_sequences`.

# %% lang="en"
counted = client.messages.create(model=MODEL, max_tokens=200, stop_sequences=["5"],
                                 messages=[{"role": "user", "content": "Count from 1 to 10."}])
print(repr("".join(block.text for block in counted.content if block.type == "text")),
      counted.stop_reason, "->", what_to_do(counted))

# %% lang="ru"
counted = client.messages.create(model=MODEL, max_tokens=200, stop_sequences=["5"],
                                 messages=[{"role": "user", "content": "Посчитай от 1 до 10."}])
print(repr("".join(block.text for block in counted.content if block.type == "text")),
      counted.stop_reason, "->", what_to_do(counted))

# %% [markdown] lang="en"
# ## pause_turn
#
# Tools that run on Anthropic's side, such as web search, can pause a long turn with `pause_turn`. Your loop then
# sends the conversation back with that response appended and **no new user message**, and the turn goes on. The
# reviewer has no such tools, but the exercise's check makes this stop happen (optional notebook 11 shows it with web
# search).

# %% [markdown] lang="ru"
# ## pause_turn
#
# Инструменты, которые выполняются на стороне Anthropic (например, веб-поиск), могут приостановить долгий ход:
# ответ заканчивается с `pause_turn`. Тогда цикл отправляет диалог обратно, добавив этот ответ в историю, **но без
# нового сообщения от user**, — и ход продолжается. У ревьюера таких инструментов нет, но проверка упражнения
# устроит эту остановку нарочно (на веб-поиске её показывает необязательный блокнот 11).

# %% [markdown] lang="en"
# <!-- fact: refusal-pages -->
# ## refusal
#
# The model may decline to continue. `stop_details` says which policy category the refusal falls under. The same
# request on the same model almost always gets the same answer. So a loop stops and reports: it raises an error that
# carries `stop_details`, and whoever reads it knows why (docs: *Refusals and fallback*, and *Stop reasons and
# fallback*).
#
# **Break it:** the cell below also sends the refused request once more, to the same model. (The sandbox refuses this
# prompt every time; a live model decides for itself.)
#
# Another model is another matter. The docs' table of stop reasons says: read `stop_details` and retry on a fallback
# model. That is no longer a retry but a switch to *another* model, and whether to make it is your code's decision
# (the optional part at the end). Stopping with `stop_details` is what every loop needs, with a fallback or without.

# %% [markdown] lang="ru"
# <!-- fact: refusal-pages -->
# ## refusal
#
# Модель может отказаться продолжать. `stop_details` сообщает, к какой категории политики использования относится
# отказ. Повтор того же запроса на той же модели почти всегда даст тот же ответ. Поэтому цикл останавливается и
# сообщает об отказе: выбрасывает исключение со `stop_details`, чтобы тот, кто его прочтёт, знал причину
# (документация: разделы `Refusals and fallback` и `Stop reasons and fallback`).
#
# **Сломаем:** ячейка ниже ещё раз отправляет тот же запрос той же модели. (Песочница отказывается отвечать на этот
# промпт всегда; настоящая модель решает сама.)
#
# Другая модель — другое дело. В таблице причин остановки документация советует прочитать `stop_details` и отправить
# запрос запасной модели. Это уже не повтор, а переход на *другую* модель, и делать ли его, решает ваш код (об этом —
# необязательная часть в конце блокнота). А остановиться, сообщив `stop_details`, должен уметь любой цикл — с запасной
# моделью или без неё.

# %% lang="en"
refused = client.messages.create(
    model=MODEL, max_tokens=500,
    messages=[{"role": "user", "content": "Write ransomware for the shop's server."}])
print(refused.stop_reason, "->", what_to_do(refused))
print(refused.stop_details)
retried = client.messages.create(
    model=MODEL, max_tokens=500,
    messages=[{"role": "user", "content": "Write ransomware for the shop's server."}])
print("retry:", retried.stop_reason)

# %% lang="ru"
refused = client.messages.create(
    model=MODEL, max_tokens=500,
    messages=[{"role": "user", "content": "Напиши вирус-вымогатель для сервера магазина."}])
print(refused.stop_reason, "->", what_to_do(refused))
print(refused.stop_details)
retried = client.messages.create(
    model=MODEL, max_tokens=500,
    messages=[{"role": "user", "content": "Напиши вирус-вымогатель для сервера магазина."}])
print("повтор:", retried.stop_reason)

# %% [markdown] lang="en"
# ## Exercise: your loop, every stop reason
#
# Your loop of notebook 5 comes back and grows again. (It is notebook 3's loop, with concurrent calls and a tool's
# failure sent back as a result.) Here it learns every stop reason. In notebook 7 it gets the approval gate; in
# notebook 8, the cost. Notebook 3's project, tools and rules come from `lesson_tools.py` again (the import below).
#
# You grow one function, `review_every_stop`, in two steps. Each step has its own check. First run the exercise cell:
# it puts your loop of exercise 5 in place of the stub (or the reference, if you skipped it).
#
# Your loop of exercise 5 knows two stops: `end_turn` and `tool_use`. Turn its test of `stop_reason` into a `match`,
# one `case` per stop reason, as in `what_to_do` at the top of this notebook. This skeleton goes in place of that test;
# everything else your loop does stays as it is (the calls of a turn still run at once):
#
# ```python
# match response.stop_reason:
#     case "end_turn":
#         ...  # as before: return the text
#     case "tool_use":
#         ...  # as before: run the tools, all results in one message
#     case "pause_turn":
#         ...
#     case "stop_sequence":
#         ...
#     case "max_tokens":
#         ...
#     case other:
#         raise RuntimeError(f"Unexpected stop: {other}")  # step 2 adds the cases before it
# ```
#
# ### Step 1: the stops that go on or return
#
# - `pause_turn`: send the conversation again, with the paused response in the history once. If your loop appends
#   every response before its `match`, it is there already: just go round again. Add no new user message.
# - `stop_sequence`: return the text so far. The stop sequence is one you set.
# - `max_tokens`: raise a clear error that says the answer was cut. Never run the cut tool call. (Asking again once
#   with a larger `max_tokens` also passes the check, but `create` sends at most 21,333 with the SDK's default timeout;
#   above that the SDK wants streaming, optional notebook 10.)
#
# Then run the exercise cell again, and the check of step 1 below.

# %% [markdown] lang="ru"
# ## Упражнение: ваш цикл и все причины остановки
#
# Возвращается ваш цикл из блокнота 5. (Это цикл блокнота 3 с параллельными вызовами, в котором сбой инструмента
# возвращается модели как результат.) Здесь он научится обрабатывать все причины остановки. В блокноте 7 в нём
# появится шлюз с подтверждением, в блокноте 8 — учёт стоимости. Проект, инструменты и правила блокнота 3 снова
# приходят из `lesson_tools.py` (импорт ниже).
#
# Вы доработаете одну функцию, `review_every_stop`, в два шага. У каждого шага своя проверка. Сначала выполните
# ячейку упражнения: она подставит вместо заготовки ваш цикл из упражнения 5 (или эталонный, если упражнение вы
# пропустили).
#
# Ваш цикл из упражнения 5 знает две остановки: `end_turn` и `tool_use`. Перепишите его проверку `stop_reason` через
# `match` — по `case` на каждую причину остановки, как в `what_to_do` в начале блокнота. Вот заготовка, которая встанет
# на место этой проверки; всё остальное в цикле остаётся как было (вызовы хода по-прежнему выполняются одновременно):
#
# ```python
# match response.stop_reason:
#     case "end_turn":
#         ...  # как раньше: вернуть текст
#     case "tool_use":
#         ...  # как раньше: выполнить инструменты, все результаты одним сообщением
#     case "pause_turn":
#         ...
#     case "stop_sequence":
#         ...
#     case "max_tokens":
#         ...
#     case other:
#         raise RuntimeError(f"Неожиданная остановка: {other}")  # на шаге 2 перед этой веткой появятся новые
# ```
#
# ### Шаг 1: остановки, после которых цикл продолжает работу или возвращает ответ
#
# - `pause_turn`: отправьте диалог снова; приостановленный ответ должен быть в истории один раз. Если ваш цикл
#   добавляет каждый ответ в историю ещё до `match`, он уже там: просто переходите к следующему кругу. Нового
#   сообщения от user не добавляйте.
# - `stop_sequence`: верните уже написанный текст. Эту стоп-последовательность задали вы сами.
# - `max_tokens`: выбросьте исключение о том, что ответ обрезан. Обрезанный вызов инструмента не выполняйте никогда.
#   (Проверку пройдёт и один повтор запроса с бо́льшим `max_tokens`, но при тайм-ауте клиента по умолчанию `create`
#   отправляет запрос с `max_tokens` не больше 21 333; выше SDK требует потокового режима — об этом
#   необязательный блокнот 10.)
#
# Затем снова выполните ячейку упражнения, а после неё — проверку шага 1 ниже.

# %% use="lesson_tools"

# %% lang="en"
from course_agent.my_code import start_from


def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
    """Your loop of notebook 5: every stop reason handled on purpose, a refusal stopping the run with
    stop_details."""
    raise NotImplementedError("your code here")


start_from(5, grow_into=review_every_stop)  # brings your exercise 5 (or its reference) into this cell

# %% lang="ru"
from course_agent.my_code import start_from


def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
    """Ваш цикл из блокнота 5: каждая причина остановки обработана осознанно, отказ останавливает запуск
    со stop_details."""
    raise NotImplementedError("ваш код")


start_from(5, grow_into=review_every_stop)  # переносит в эту ячейку ваше решение упражнения 5 (или эталонное)

# %% [markdown] lang="en"
# ### Check step 1
#
# The check runs **your** `review_every_stop` in scenarios of the sandbox:
#
# - a pause, a stop sequence, and a tool call or an answer cut by `max_tokens`;
# - it judges each stop from what your loop sent and returned;
# - it checks the rules of notebooks 3–5 again (all but notebook 4's concurrency, which exercises 4 and 5 judged).
#
# No scenario here refuses, fills the context window or stops for an unknown reason: those are step 2's.
#
# <details><summary>Hint 1</summary>
#
# Ask one question of each of the three stops: is the turn still going, is the answer yours, or was it cut?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look back at this notebook. The `pause_turn` section says what goes into the history, and what does not. The
# `max_tokens` cell shows what a cut `tool_use` holds. `what_to_do` says what to do at each stop.
# </details>
#
# <details><summary>Hint 3</summary>
#
# Where does your loop append the response: before the `match`, as exercise 5's does, or inside a branch? Then ask of
# each of the three: what must be last in `messages` when the loop goes round again, which of them is already an
# answer you know how to return (from `end_turn`), and which must end the run before any tool of the response runs?
# </details>

# %% [markdown] lang="ru"
# ### Проверьте шаг 1
#
# Проверка запускает **ваш** `review_every_stop` в нескольких ситуациях песочницы:
#
# - ход встаёт на паузу, срабатывает стоп-последовательность, `max_tokens` обрезает вызов инструмента или ответ;
# - о каждой остановке проверка судит по тому, что ваш цикл отправил и что вернул;
# - правила блокнотов 3–5 она тоже проверяет заново (кроме одновременности из блокнота 4: её проверяли упражнения 4
#   и 5).
#
# Отказа, переполненного контекстного окна и неизвестной причины остановки здесь не будет: это шаг 2.
#
# <details><summary>Подсказка 1</summary>
#
# Задайте о каждой из трёх остановок один вопрос: ход ещё идёт, ответ готов или его обрезали?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Вернитесь к разделам выше. В разделе про `pause_turn` сказано, что добавить в историю и чего не добавлять.
# Ячейка про `max_tokens` показывает, что лежит в обрезанном `tool_use`.
# А `what_to_do` говорит, что делать при каждой остановке.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Где ваш цикл добавляет ответ в историю: до `match`, как в упражнении 5, или внутри ветки? Теперь спросите о каждой
# из трёх остановок: что должно стоять последним в `messages`, когда цикл пойдёт на следующий круг; какая из них — уже
# готовый ответ, который вы умеете возвращать (как при `end_turn`); и какая должна завершить запуск раньше, чем
# выполнится хоть один инструмент из ответа?
# </details>

# %%
from course_selfcheck.loop_exercises import check_exercise_6

check_exercise_6(review_every_stop, step=1)

# %% [markdown] lang="en"
# ### Step 2: the stops that end the run with an error
#
# Three stops end the run, each with an error. Two of them are new: add their branches to the same
# `review_every_stop`, in the exercise cell above, before `case other`. The third, `case other`, is already there
# from step 1: check that its error names the value.
#
# - `model_context_window_exceeded`: raise a clear error that says the answer filled the context window, so the
#   history must get shorter. Never run the cut tool call.
# - `refusal`: raise an error that carries `response.stop_details`. Never send the same request to the same model
#   again.
# - any other value (`case other`): an error that names it, as `what_to_do` does. The API adds stop reasons over time.
#
# ```python
#     case "model_context_window_exceeded":
#         ...
#     case "refusal":
#         ...
# ```
#
# Run the exercise cell again, then the check below.
#
# ### Check step 2: the whole exercise
#
# - The check runs your loop in every scenario of step 1 again.
# - It adds three: a refusal, a full context window, and a stop reason no loop knows (`sandbox_new_reason`).
# - It checks the rules of notebooks 3–5 too.
#
# Once it all passes, it keeps your loop for notebook 7.
#
# <details><summary>Hint 1</summary>
#
# All three stops end the run. What must whoever reads the error learn from it?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look at the refusal cell above: it prints `refused.stop_details`. The last three cases of `what_to_do` say what each
# of these stops needs. In `case other`, the value is in `other`.
# </details>
#
# <details><summary>Hint 3</summary>
#
# What did the refusal cell print under `refused.stop_details`, and where would the person who reads your error see
# it? The context window's branch is like step 1's `max_tokens`: an error, and no tool runs.
# </details>

# %% [markdown] lang="ru"
# ### Шаг 2: остановки, которые завершают запуск ошибкой
#
# Три остановки завершают запуск, и каждая — ошибкой. Две из них новые: добавьте для них ветки в тот же
# `review_every_stop`, в ячейке упражнения выше, перед `case other`. Третья, `case other`, уже есть с шага 1:
# проверьте, что в сообщении её исключения названо само значение.
#
# - `model_context_window_exceeded`: выбросьте исключение, в сообщении которого сказано, что ответ упёрся в конец
#   контекстного окна и историю нужно сократить. Обрезанный вызов инструмента не выполняйте никогда.
# - `refusal`: выбросьте исключение, в сообщении которого есть `response.stop_details`. Тот же запрос той же модели больше не
#   отправляйте.
# - любое другое значение (`case other`): исключение, в сообщении которого оно названо, как в `what_to_do`. В API со
#   временем появляются новые причины остановки.
#
# ```python
#     case "model_context_window_exceeded":
#         ...
#     case "refusal":
#         ...
# ```
#
# Снова выполните ячейку упражнения, а затем проверку ниже.
#
# ### Проверьте шаг 2: всё упражнение
#
# - Проверка снова запускает ваш цикл во всех ситуациях шага 1.
# - Она добавляет ещё три: отказ, переполненное контекстное окно и причину остановки, которой не знает ни один цикл
#   (`sandbox_new_reason`).
# - Правила блокнотов 3–5 она тоже проверяет.
#
# Когда всё выполнено, она сохраняет ваш цикл для блокнота 7.
#
# <details><summary>Подсказка 1</summary>
#
# Все три остановки завершают запуск. Что должен узнать из ошибки тот, кто её прочтёт?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Посмотрите на ячейку про отказ выше: она печатает `refused.stop_details`. Последние три ветки `what_to_do`
# показывают, что нужно каждой из этих остановок. В `case other` само значение лежит в переменной `other`.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Что ячейка про отказ напечатала в `refused.stop_details` и где это увидит тот, кто прочтёт ваше исключение? Ветка
# для контекстного окна устроена как ветка `max_tokens` на шаге 1: ошибка, и ни один инструмент не выполняется.
# </details>

# %%
from course_selfcheck.loop_exercises import check_exercise_6

check_exercise_6(review_every_stop)

# %% [markdown] lang="en"
# A spoiler, when you want it: the cell below shows the reference solution, folded (it passes the same check;
# after it, `print(solution_code(6))` prints it too).

# %% [markdown] lang="ru"
# Если захотите подсмотреть ответ, ячейка ниже покажет эталонное решение в свёрнутом виде (оно проходит ту же
# проверку; когда ячейка ниже выполнится, его напечатает и `print(solution_code(6))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(6)

# %% [markdown] lang="en"
# ## Check yourself
#
# 1. What do you send after `pause_turn`?
#
# <details><summary>Answer</summary>
#
# The conversation with the paused response appended, and no new user message.
# </details>
#
# 2. `max_tokens` cut a `tool_use` in the middle. Run it?
#
# <details><summary>Answer</summary>
#
# Never: its input is incomplete. Raise a clear error, or ask again with a larger `max_tokens`.
# </details>
#
# 3. Your loop stops at `model_context_window_exceeded`. Would a larger `max_tokens` help?
#
# <details><summary>Answer</summary>
#
# No: the history and the answer together no longer fit in the context window, and a larger budget for the answer
# does not make the history shorter. The run ends with an error; a new run needs a shorter history.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 4. A response came back with `stop_reason: "refusal"`. What does your loop do?
#    - (a) sends the same request to the same model, once more
#    - (b) stops, with an error that carries `response.stop_details`
#    - (c) sends the same messages plus a user message "please continue"
#
# <details><summary>Answer</summary>
#
# (b). The same model usually refuses the same request again; and a nudge is still the same request to the same model.
# </details>
#
# 5. A response ended with `stop_reason: "stop_sequence"`. What is in `response.stop_sequence`?
#    - (a) the stop sequence that matched; the text stops right before it
#    - (b) the whole text of the answer
#    - (c) `None`
#
# <details><summary>Answer</summary>
#
# (a). The text is in `content`; `stop_sequence` is `None` only when something else ended the response.
# </details>

# %% [markdown] lang="ru"
# ## Проверьте себя
#
# 1. Что отправить после `pause_turn`?
#
# <details><summary>Ответ</summary>
#
# Диалог с добавленным приостановленным ответом и без нового сообщения от user.
# </details>
#
# 2. `max_tokens` обрезал `tool_use` посередине. Выполнять его?
#
# <details><summary>Ответ</summary>
#
# Никогда: входные данные неполные. Выбросьте исключение с понятным сообщением или повторите запрос с бо́льшим `max_tokens`.
# </details>
#
# 3. Ваш цикл остановился на `model_context_window_exceeded`. Поможет ли бо́льший `max_tokens`?
#
# <details><summary>Ответ</summary>
#
# Нет: история вместе с ответом больше не помещается в контекстное окно, а больший бюджет на ответ историю не
# сокращает. Запуск завершается ошибкой; новому запуску нужна история покороче.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 4. Ответ пришёл с `stop_reason: "refusal"`. Что делает ваш цикл?
#    - (а) отправляет тот же запрос той же модели ещё раз
#    - (б) останавливается с ошибкой, в которой есть `response.stop_details`
#    - (в) отправляет те же сообщения плюс сообщение от user «продолжай, пожалуйста»
#
# <details><summary>Ответ</summary>
#
# (б). Та же модель обычно снова ответит отказом на тот же запрос; а уговоры — это всё тот же запрос к той же модели.
# </details>
#
# 5. Ответ закончился с `stop_reason: "stop_sequence"`. Что в `response.stop_sequence`?
#    - (а) сработавшая стоп-последовательность; текст обрывается прямо перед ней
#    - (б) весь текст ответа
#    - (в) `None`
#
# <details><summary>Ответ</summary>
#
# (а). Сам текст лежит в `content`, а `None` в `stop_sequence` бывает, только когда ответ остановило что-то другое.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# | stop_reason | what your loop does |
# | --- | --- |
# | `end_turn` | return the text |
# | `tool_use` | run every tool, append response and all results, continue |
# | `max_tokens` | error: increase `max_tokens`; never run a cut tool call |
# | `stop_sequence` | your stop sequence: use the text so far |
# | `pause_turn` | append the response, call again without a new user message |
# | `refusal` | error with `stop_details`; never the same request to the same model again (optional: a fallback model once) |
# | `model_context_window_exceeded` | error: the answer filled the context window; shorten the history |
# | any other value | error that names it: a stop reason your loop does not know yet |
#
# On a first pass, stop here: the optional part below is needed by nothing later. Go on to "Take it home" at the end.

# %% [markdown] lang="ru"
# ## Итоги
#
# | stop_reason | что делает ваш цикл |
# | --- | --- |
# | `end_turn` | вернуть текст |
# | `tool_use` | выполнить все инструменты, добавить в историю ответ и все результаты, продолжить |
# | `max_tokens` | ошибка: увеличить `max_tokens`; обрезанный вызов инструмента не выполнять никогда |
# | `stop_sequence` | ваша стоп-последовательность: использовать уже полученный текст |
# | `pause_turn` | добавить ответ в историю и отправить запрос снова без нового сообщения от user |
# | `refusal` | ошибка со `stop_details`; тот же запрос той же модели не повторять (по желанию: один раз — запасной модели) |
# | `model_context_window_exceeded` | ошибка: ответ упёрся в конец контекстного окна; сократить историю |
# | любое другое значение | ошибка, в которой оно названо: эту причину остановки ваш цикл ещё не знает |
#
# При первом прохождении необязательную часть ниже можно пропустить: дальше в курсе она не понадобится. Переходите
# сразу к разделу «Возьмите с собой» в конце.

# %% [markdown] lang="en"
# ## Go deeper (optional): a refusal answered by a fallback model
#
# A refusal is not always about a harmful request: a cautious model sometimes declines legitimate work, and another
# Claude model often answers it. Asking that other model is a fallback: a decision of your code, not a retry (a retry
# sends the same request to the same model, and gets the same refusal). The course names its fallback model with
# `fallback_model()`. Change the refusal branch of your `review_every_stop` above (with
# `from course_agent.config import fallback_model` at the top of its cell), and run the exercise cell again:
#
# - after a `refusal`, send the same request **once** to `fallback_model()`: the same messages (the refused response
#   does not go into the history: the fallback model answers the same question), the same tools and system prompt.
#   If your loop appends every response before the `match` (exercise 5's shape), take the refused one out again
#   first, `messages.pop()`, or append a response only once its `case` has decided to keep it;
# - once the fallback model has answered, the rest of the run stays with it (the model becomes a variable of the run);
# - if the fallback model refuses too, stop with an error that carries `stop_details`.
#
# The check below runs the whole exercise again with a refusal at the start and in the middle of a review (once, then
# twice in a row); when it all passes, it keeps this loop for notebook 7 instead. Notebook 11 shows two ways to have
# this done for you: on the server (`fallbacks`) or in the SDK.
#
# <details><summary>Hint</summary>
#
# What changes in the next request after a refusal, and how does the loop know it has already tried once?
# </details>

# %% [markdown] lang="ru"
# ## Глубже (по желанию): на отказ отвечает запасная модель
#
# Не каждый отказ связан с вредным запросом: осторожная модель иногда отказывается и от вполне законной работы, а
# другая модель Claude часто за неё берётся. Обратиться к другой модели — это переход на запасную модель: решение
# вашего кода, а не повтор (повтор отправил бы тот же запрос той же модели и получил бы тот же отказ). Запасную модель
# курса называет `fallback_model()`. Измените ветку отказа в своём `review_every_stop` выше (добавив в начало его ячейки
# `from course_agent.config import fallback_model`) и снова выполните ячейку упражнения:
#
# - после `refusal` отправьте тот же запрос **один раз** модели `fallback_model()`: те же сообщения (ответ с отказом в
#   историю не попадает: запасная модель отвечает на тот же вопрос), те же инструменты и системный промпт. Если ваш
#   цикл добавляет каждый ответ в историю ещё до `match` (как в упражнении 5), сначала уберите ответ с отказом обратно
#   (`messages.pop()`) или добавляйте ответ в историю только тогда, когда его `case` решил его оставить;
# - когда запасная модель ответила, весь оставшийся запуск идёт с ней (модель запоминается в переменной и остаётся той же до конца
#   запуска);
# - если отказом ответит и запасная модель, выбросьте исключение со `stop_details`.
#
# Проверка ниже снова запускает ваш цикл во всех ситуациях упражнения, а отказ случается в начале и в середине ревью
# (один раз, потом дважды подряд); когда всё выполнено, она сохраняет для блокнота 7 уже этот цикл. В блокноте 11
# показаны два способа поручить это другим: серверу (`fallbacks`) или SDK.
#
# <details><summary>Подсказка</summary>
#
# Что меняется в следующем запросе после отказа и откуда цикл знает, что одна попытка уже была?
# </details>

# %%
from course_selfcheck.loop_exercises import check_fallback

check_fallback(review_every_stop)

# %% [markdown] lang="en"
# The reference solution of this part, folded (exercise 6's, with the refusal's branch changed):

# %% [markdown] lang="ru"
# Эталонное решение этой части в свёрнутом виде (решение упражнения 6, в котором изменилась ветка отказа):

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(6, optional=True)

# %% [markdown] lang="en"
# ## Take it home
#
# The reviewer as this notebook leaves it (every stop reason handled, a refusal ending the run with its `stop_details`),
# whole, is in the cell below and in `examples/en/review_after_06.py`. As with notebook 3's "Take it home" (what it
# needs, how to run it): run it last, since it defines its own client, tools and loop.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# Весь ревьюер в том виде, к которому пришёл этот блокнот (каждая причина остановки обработана, отказ завершает запуск
# ошибкой со `stop_details`), — в ячейке ниже и в `examples/ru/review_after_06.py`. Всё как в разделе «Возьмите с собой»
# блокнота 3 (что ему нужно и как его запустить): выполняйте эту ячейку последней, ведь в ней свои клиент, инструменты и
# цикл.

# %% use="take_home_setup"

# %% use="take_home_6"
