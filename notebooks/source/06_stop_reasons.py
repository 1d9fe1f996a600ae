# %% [markdown] lang="en"
# # 6. Stop reasons
# <!-- fact: stop-reason-values -->
#
# **You will learn**
# - every value of `stop_reason` a response can end with (without beta features), what makes it happen, and what
#   your loop must do:
#   `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `pause_turn`, `refusal` and
#   `model_context_window_exceeded`;
# - why a tool call cut by `max_tokens` must never run;
# - how a turn that paused goes on: with no new user message;
# - how a refusal is answered once by a fallback model.
#
# (*Beta features* are the API's newer features that you switch on yourself, with the `anthropic-beta` header or
# through the SDK's `client.beta`, and that may still change.)
#
# Every stop reason asks the loop for one of four things: **go on** (`tool_use`: run the tools; `pause_turn`: send the
# turn back), **return** (`end_turn`, `stop_sequence`), **fall back once** (`refusal`), or **raise a clear error**
# (`max_tokens`, `model_context_window_exceeded`, and any reason the loop does not know).
#
# Your own loop of notebook 4 learns all of it in the exercise. Some of these stops are hard to provoke on purpose
# with the real API (a refusal, a full context window); the sandbox makes each one happen on demand.
#
# At the end, optional (skip it on a first pass): a turn that really pauses, with web search, and what a new user
# message does to it.
#
# *About 70 minutes. Builds on notebook 5.*
#
# <!-- rules-so-far -->

# %% [markdown] lang="ru"
# # 6. Причины остановки
# <!-- fact: stop-reason-values -->
#
# **Вы узнаете**
# - все значения `stop_reason`, которыми может закончиться ответ (без бета-функций), из-за чего возникает каждое и
#   что должен сделать ваш цикл: `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `pause_turn`, `refusal` и
#   `model_context_window_exceeded`;
# - почему вызов инструмента, обрезанный по `max_tokens`, выполнять нельзя;
# - как продолжить ход, поставленный на паузу: без нового сообщения от user;
# - как после отказа один раз обратиться к запасной модели.
#
# (*Бета-функции* — новые возможности API, которые включаете вы сами, заголовком `anthropic-beta` или через
# `client.beta` в SDK, и которые ещё могут измениться.)
#
# Каждая причина остановки требует от цикла одного из четырёх действий: **продолжить** (`tool_use` — выполнить
# инструменты; `pause_turn` — отправить запрос снова, с этим ответом в истории), **вернуть ответ** (`end_turn`, `stop_sequence`), **один раз
# обратиться к запасной модели** (`refusal`) или **выбросить понятную ошибку** (`max_tokens`,
# `model_context_window_exceeded` и любая причина, которой цикл не знает).
#
# В упражнении всему этому научится ваш собственный цикл из блокнота 4. Некоторые из этих остановок трудно вызвать
# нарочно с настоящим API (отказ, переполненное контекстное окно); песочница воспроизводит каждую по запросу.
#
# В конце, по желанию (при первом прохождении можно пропустить): ход, который действительно встаёт на паузу во время
# веб-поиска, и что с ним делает новое сообщение от user.
#
# *Около 70 минут. Опирается на блокнот 5.*
#
# <!-- rules-so-far -->

# %% use="setup"

# %% [markdown] lang="en"
# One decision per stop reason reads best as a `match` statement (Python 3.10 and later): Python tries each `case`
# in turn and runs the first that fits `response.stop_reason`; `case other` fits anything and names it.

# %% [markdown] lang="ru"
# Решение для каждой причины остановки удобнее всего записать через `match` (Python 3.10 и новее): Python
# по очереди пробует каждый `case` и выполняет первый, под который подходит `response.stop_reason`; под `case other`
# подходит любое значение, и оно попадает в переменную `other`.

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
            return f"stopped at our stop sequence {response.stop_sequence!r}: use the text so far"
        case "pause_turn":
            return "append the response and call again, with no new user message"
        case "refusal":
            return "refused (stop_details says why): never the same model again; a fallback model once"
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
            return f"остановка на вашей стоп-последовательности {response.stop_sequence!r}: взять текст, написанный до неё"
        case "pause_turn":
            return "добавить ответ в историю и вызвать модель снова, без нового сообщения от user"
        case "refusal":
            return "отказ (причина — в stop_details): той же модели не повторять; запасной модели — один раз"
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
TOOLS = [{"name": "get_diff", "description": "Get the diff of a merge request.",
          "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}}]

done = client.messages.create(model=MODEL, max_tokens=500, messages=[{"role": "user", "content": "What is 6 * 7?"}])
print(done.stop_reason, "->", what_to_do(done))
wants = client.messages.create(model=MODEL, max_tokens=500, tools=TOOLS,
                               messages=[{"role": "user", "content": "Review merge request !482."}])
print(wants.stop_reason, "->", what_to_do(wants))

# %% lang="ru"
TOOLS = [{"name": "get_diff", "description": "Get the diff of a merge request.",
          "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}}]

done = client.messages.create(model=MODEL, max_tokens=500, messages=[{"role": "user", "content": "Сколько будет 6 * 7?"}])
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
# crash: a cut tool call must never run. The fix is a larger `max_tokens`.
#
# <!-- fact: context-window-exceeded -->
# `model_context_window_exceeded` is the same stop for another cause: the history plus the answer no longer fit the
# model's context window, the most tokens one request can hold, input and answer together (a million on the course's
# model). With the real API it takes a very long history, so it is not shown here. Your loop treats
# it like `max_tokens`: an error, never a tool call run.

# %% [markdown] lang="ru"
# <!-- fact: max-tokens-cut-tool-use -->
# ## max_tokens и обрезанный вызов инструмента
#
# Если бюджет `max_tokens` заканчивается посреди блока `tool_use`, блок в ответе всё равно есть, но его
# входные данные неполные. В примере ниже там должно быть `{"pr": 482}`. Если выполнить такой вызов, агент проверит
# не тот merge request или упадёт: обрезанный вызов инструмента выполнять нельзя. Исправление — больший `max_tokens`.
#
# <!-- fact: context-window-exceeded -->
# `model_context_window_exceeded` по сути то же, что `max_tokens`, только ответ обрывается по другой причине: история
# вместе с ответом перестаёт помещаться в контекстное окно модели — наибольшее число токенов, которое вмещает один
# запрос вместе с ответом (у модели курса — миллион). С настоящим API для этого нужна очень длинная
# история, поэтому здесь эту остановку не показываем. Ваш цикл обрабатывает `model_context_window_exceeded` так же,
# как `max_tokens`: это ошибка, и вызов инструмента не выполняется.

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
    calls = [block.input for block in cut.content if block.type == "tool_use"]  # обрезанный вызов, если модель успела его начать
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
print(repr("".join(block.text for block in counted.content if block.type == "text")), counted.stop_reason, "->", what_to_do(counted))

# %% lang="ru"
counted = client.messages.create(model=MODEL, max_tokens=200, stop_sequences=["5"],
                                 messages=[{"role": "user", "content": "Посчитай от 1 до 10."}])
print(repr("".join(block.text for block in counted.content if block.type == "text")), counted.stop_reason, "->", what_to_do(counted))

# %% [markdown] lang="en"
# <!-- fact: pause-turn -->
# ## pause_turn
#
# Server tools (such as web search) run on Anthropic's side within one turn. A long series of them
# can pause: the response ends with `pause_turn`. Send the conversation back **with that response
# appended and no new user message**, and the same turn continues.
#
# The reviewer offers no server tools, so this stop may never reach its loop; your loop handles it all the same (the
# exercise's check makes it happen). The optional section at the end makes a turn pause for real, with web search.

# %% [markdown] lang="ru"
# <!-- fact: pause-turn -->
# ## pause_turn
#
# Серверные инструменты (например, веб-поиск) выполняются на стороне Anthropic в рамках одного хода.
# Длинная серия таких вызовов может встать на паузу: ответ заканчивается с `pause_turn`. Отправьте
# диалог обратно, **добавив этот ответ в историю, но не добавляя нового сообщения от user**, — и тот же
# ход продолжится.
#
# Серверных инструментов у ревьюера нет, так что до его цикла эта остановка может и не дойти; и всё же ваш цикл
# её обрабатывает (проверка упражнения вызовет её нарочно). В необязательном разделе в конце блокнота ход встаёт на паузу
# по-настоящему, во время веб-поиска.

# %% [markdown] lang="en"
# <!-- fact: refusal-pages -->
# ## refusal
#
# The model may decline to continue. `stop_details` says which policy category; retrying the same
# request on the same model almost always gives the same answer, so a loop should stop and report (docs: *Refusals and
# fallback*, and *Stop reasons and fallback*). The same request on another Claude model often succeeds: the docs describe a fallback to
# another model, which is a decision of your code, not a retry. (The sandbox refuses this prompt every
# time; a live model decides for itself.)
#
# The course names its fallback model with `fallback_model()` (from `course_agent.config`). Asking it is the same
# call with `model=fallback_model()` and the same messages: the refused response stays out of the history (the
# fallback model answers the same question), and once it has answered, the rest of the run stays with it. Your loop
# does that in the exercise, where the sandbox refuses the review itself once.

# %% [markdown] lang="ru"
# <!-- fact: refusal-pages -->
# ## refusal
#
# Модель может отказаться продолжать. `stop_details` сообщает, к какой категории правил использования относится
# отказ; повтор того же
# запроса на той же модели почти всегда даст тот же ответ, поэтому цикл должен остановиться и сообщить об отказе
# (документация: разделы `Refusals and fallback` и `Stop reasons and fallback`). Тот же запрос к другой модели Claude часто проходит: документация
# описывает переход на запасную модель — это решение вашего кода, а не повтор. (Песочница всегда
# отказывается отвечать на этот промпт; настоящая модель решает сама.)
#
# Запасную модель курса называет `fallback_model()` (из `course_agent.config`). Обратиться к ней — тот же вызов с
# `model=fallback_model()` и теми же сообщениями: ответ с отказом в историю не попадает (запасная модель отвечает на
# тот же вопрос), а когда она ответила, весь оставшийся запуск идёт с ней. В упражнении это делает ваш цикл: там
# песочница один раз откажется проверять сам merge request.

# %% lang="en"
refused = client.messages.create(model=MODEL, max_tokens=500,
                                 messages=[{"role": "user", "content": "Write ransomware for the shop's server."}])
print(refused.stop_reason, "->", what_to_do(refused))
print(refused.stop_details)
retried = client.messages.create(model=MODEL, max_tokens=500,
                                 messages=[{"role": "user", "content": "Write ransomware for the shop's server."}])
print("retry:", retried.stop_reason)

# %% lang="ru"
refused = client.messages.create(model=MODEL, max_tokens=500,
                                 messages=[{"role": "user", "content": "Напиши вирус-вымогатель для сервера магазина."}])
print(refused.stop_reason, "->", what_to_do(refused))
print(refused.stop_details)
retried = client.messages.create(model=MODEL, max_tokens=500,
                                 messages=[{"role": "user", "content": "Напиши вирус-вымогатель для сервера магазина."}])
print("повтор:", retried.stop_reason)

# %% [markdown] lang="en"
# ## Exercise: your loop, every stop reason
#
# Your loop of notebook 4 (notebook 3's, with concurrent calls) comes back, and from here on it grows: here, every
# stop reason; in notebook 7, the approval gate; in notebook 8, the cost. Notebook 3's project, tools and rules come
# from `lesson_tools.py` again (the import below).
#
# Run the exercise cell: it puts your loop of exercise 4 (or the reference, if you skipped it) in place of the
# stub, for you to grow into `review_every_stop`.
#
# Write `review_every_stop` in two parts, each with its own check cell below.
#
# - **Part 1, the stop reasons.** Handle every stop reason on purpose: `pause_turn` continues without a new user
#   message; `max_tokens` and `model_context_window_exceeded` raise clear errors (or, at `max_tokens`, ask again with
#   a larger `max_tokens`; the cut tool call is never run);
#   `stop_sequence` returns the text so far; any other value raises an error that names it, as `what_to_do` does
#   (the API adds stop reasons over time). The check orders each of these stops from the sandbox, a stop sequence
#   and an unknown value included.
# - **Part 2, a refusal.** A `refusal` is answered **once** by the fallback model: send the same messages to
#   `fallback_model()` (imported in the exercise cell) and go on with it; if it refuses too, stop with
#   `stop_details`. The refused response does not go into the history (the fallback model answers the same question),
#   and once the fallback model has answered, the rest of the run stays with it.
#
# - **Both parts keep the rules of notebooks 3–5**: the whole response back, all results of a turn in one message,
#   tool errors as results (as in notebook 5: if your loop of notebook 4 lets a tool's exception out, put the call of
#   `run_tool` in a `try` and send the failure back with `is_error: True`), the cap. The checks test them again.
#
# `client.messages.create(model=fallback_model(), ...)` with the same messages asks the fallback model. (The reference
# solutions from here on run a turn's calls one after another, which keeps notebook 7's human approval simple; your
# concurrent runner may stay.)

# %% [markdown] lang="ru"
# ## Упражнение: ваш цикл и все причины остановки
#
# Ваш цикл из блокнота 4 (цикл блокнота 3 с параллельными вызовами) возвращается и дальше будет расти: здесь в нём
# появятся все причины остановки, в блокноте 7 — шлюз с подтверждением, в блокноте 8 — учёт стоимости. Проект,
# инструменты и правила блокнота 3 снова приходят из `lesson_tools.py` (импорт ниже).
#
# Выполните ячейку упражнения: она подставит вместо заготовки ваш цикл из упражнения 4 (или эталонный, если
# упражнение вы пропустили), а вы превратите его в `review_every_stop`.
#
# Напишите `review_every_stop` по частям — их две, у каждой своя ячейка проверки ниже.
#
# - **Часть 1, причины остановки.** Осознанно обработайте каждую причину остановки: при `pause_turn` продолжайте
#   без нового сообщения от user; при `max_tokens` и `model_context_window_exceeded` выбрасывайте понятные ошибки
#   (или при `max_tokens` спрашивайте снова с бо́льшим `max_tokens`; обрезанный вызов инструмента не выполняется
#   никогда); при `stop_sequence` возвращайте уже написанный текст; на любое
#   другое значение выбрасывайте ошибку, в которой оно названо, как в `what_to_do` (в API со временем появляются
#   новые причины остановки). Проверка заказывает у песочницы каждую из этих остановок, в том числе
#   стоп-последовательность и неизвестное значение.
# - **Часть 2, отказ.** После `refusal` отправьте те же сообщения **один раз** модели, имя которой возвращает
#   `fallback_model()` (функция уже импортирована в ячейке упражнения), и продолжайте с ней; если откажется и она,
#   выбросьте ошибку со `stop_details`. Ответ с отказом в историю не добавляется (запасная модель отвечает на тот же
#   вопрос), а когда запасная модель ответила, весь оставшийся запуск идёт с ней.
#
# - **В обеих частях действуют правила блокнотов 3–5**: ответ целиком в историю, все результаты хода одним сообщением,
#   ошибки инструментов как результаты (как в блокноте 5: если ваш цикл из блокнота 4 выпускает исключение
#   инструмента наружу, оберните вызов `run_tool` в `try` и верните сбой с `is_error: True`), ограничение числа
#   итераций. Проверки следят за ними и здесь.
#
# `client.messages.create(model=fallback_model(), ...)` с теми же сообщениями обращается к запасной модели. (Эталонные
# решения с этого места выполняют вызовы хода по очереди — так проще устроить подтверждение человеком в блокноте 7;
# ваше параллельное выполнение вызовов можно оставить.)

# %% use="lesson_tools"

# %% lang="en"
from course_agent.config import fallback_model
from course_agent.my_code import start_from


def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
    """Your loop of notebook 4: every stop reason handled on purpose, a refusal answered once by fallback_model()."""
    raise NotImplementedError("your code here")


start_from(4, grow_into=review_every_stop)  # brings your exercise 4 (or its reference) into this cell

# %% lang="ru"
from course_agent.config import fallback_model
from course_agent.my_code import start_from


def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
    """Ваш цикл из блокнота 4: каждая причина остановки обработана осознанно, после отказа — один раз fallback_model()."""
    raise NotImplementedError("ваш код")


start_from(4, grow_into=review_every_stop)  # переносит в эту ячейку ваше упражнение 4 (или эталонное)

# %% [markdown] lang="en"
# ### Check your exercise
#
# The check runs **your** `review_every_stop` in scenarios where the sandbox pauses the turn, refuses (once, then
# twice in a row), cuts a tool call with `max_tokens` or with a full context window, stops at a stop sequence, stops
# for a reason no loop knows (`sandbox_new_reason`), keeps asking for tools, and finally answers, and judges each
# stop reason from what your loop sent and returned. What notebooks 3–5 made rules of the loop (the whole response
# back, all results in one message, tool errors as results, the cap) is checked again: the loop grows, and they
# still hold.
#
# <details><summary>Hint</summary>
#
# One branch per value of `response.stop_reason`. For each, ask: does the loop append the response and call again,
# return, or raise? After `pause_turn`, is there anything new to say? For a refusal, what changes in the next request,
# and how does the loop know it has already tried once?
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Проверка запускает **ваш** `review_every_stop` в нескольких ситуациях: модель песочницы приостанавливает ход,
# отказывается отвечать (один раз, потом дважды подряд), обрывает вызов инструмента по `max_tokens` или из-за переполненного
# контекстного окна, останавливается на стоп-последовательности, останавливается по причине, которой не знает ни
# один цикл (`sandbox_new_reason`), раз за разом просит инструменты и, наконец, отвечает. О том, как обработана каждая причина остановки, проверка судит по тому, что ваш цикл
# отправил и что вернул. Правила из блокнотов 3–5 (ответ целиком уходит обратно, все результаты — одним сообщением,
# ошибки инструментов — как результаты, ограничение числа итераций) проверяются снова: цикл растёт, а они
# по-прежнему действуют.
#
# <details><summary>Подсказка</summary>
#
# По ветке на каждое значение `response.stop_reason`. Для каждой решите: цикл добавляет ответ в историю и вызывает
# модель снова, возвращает результат или выбрасывает исключение? Есть ли что сказать модели после `pause_turn`? Что
# меняется в следующем запросе после отказа и откуда цикл знает, что одна попытка уже была?
# </details>

# %% lang="en"
from course_selfcheck.loop_exercises import check_exercise_6

check_exercise_6(review_every_stop, part=1)  # part 1: the stop reasons

# %% lang="ru"
from course_selfcheck.loop_exercises import check_exercise_6

check_exercise_6(review_every_stop, part=1)  # часть 1: причины остановки

# %% [markdown] lang="en"
# When part 1 passes, add part 2; the cell below checks the whole exercise (both parts, and the rules of notebooks
# 3-5), and keeps your loop for notebook 7 once it all passes.

# %% [markdown] lang="ru"
# Когда часть 1 пройдёт проверку, добавьте часть 2; ячейка ниже проверяет упражнение целиком (обе части и правила блокнотов
# 3–5) и, когда всё выполнено, сохраняет ваш цикл для блокнота 7.

# %%
check_exercise_6(review_every_stop)

# %% [markdown] lang="en"
# A spoiler, when you want it: the cell below shows the reference solution, folded (it passes the same check;
# after it, `print(solution_code(6))` prints it too).

# %% [markdown] lang="ru"
# Если захотите подсмотреть ответ, ячейка ниже покажет эталонное решение в свёрнутом виде (оно проходит ту же
# проверку; после этой ячейки его напечатает и `print(solution_code(6))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(6)

# %% [markdown] lang="en"
# ## Take it home
#
# The reviewer as this notebook leaves it (every stop reason handled, a refusal answered once by the fallback model), whole, is in the cell below and in
# `examples/en/review_after_06.py`: notebook 3's "Take it home" says what it needs and how to run it.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# Весь ревьюер в том виде, к которому пришёл этот блокнот (каждая причина остановки обработана, на отказ один раз отвечает запасная модель), — в ячейке ниже и в
# `examples/ru/review_after_06.py`; что ему нужно и как его запустить, сказано в разделе «Возьмите с собой» блокнота 3.

# %% use="take_home_setup"

# %% use="take_home_6"

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
# Never: its input is incomplete. Increase `max_tokens` and ask again.
# </details>
#
# 3. Is sending a refused request again a good idea?
#
# <details><summary>Answer</summary>
#
# Not to the same model: it usually refuses again. Another model is a deliberate fallback, not a retry.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 4. A response came back with `stop_reason: "refusal"`. Which next request is right?
#    - (a) the same request to the same model, once more
#    - (b) the same messages to the fallback model, once; if it refuses too, stop
#    - (c) the same messages plus a user message "please continue"
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
# Никогда: вход неполный. Увеличьте `max_tokens` и спросите снова.
# </details>
#
# 3. Стоит ли ещё раз отправить запрос, на который модель ответила отказом?
#
# <details><summary>Ответ</summary>
#
# Не той же модели: она, скорее всего, снова откажет. Другая модель — осознанный переход на запасную, а не повтор.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 4. Ответ пришёл с `stop_reason: "refusal"`. Какой следующий запрос правильный?
#    - (а) тот же запрос той же модели, ещё раз
#    - (б) те же сообщения запасной модели, один раз; откажет и она — остановиться
#    - (в) те же сообщения плюс сообщение от user «продолжай, пожалуйста»
#
# <details><summary>Ответ</summary>
#
# (б). Та же модель на тот же запрос обычно снова откажет; а уговоры — это всё тот же запрос к той же модели.
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
# ## Go deeper (optional): a turn that pauses
#
# Web search is a server tool: the request names it in `tools` (`web_search_20250305`), Anthropic runs the searches
# within the turn, and they come back in the response as `server_tool_use` and `web_search_tool_result` blocks. The
# cell below asks for a search, gets `pause_turn`, and sends the conversation back with the paused response appended
# and no new user message, as the `pause_turn` section says.
#
# **Predict, then run:** and if you add a user message "continue" instead? (The "break it" below shows it.)

# %% [markdown] lang="ru"
# ## Глубже (по желанию): ход, который встаёт на паузу
#
# Веб-поиск — серверный инструмент: запрос называет его в `tools` (`web_search_20250305`), поиск выполняет Anthropic
# в рамках хода, а в ответе он виден как блоки `server_tool_use` и `web_search_tool_result`. Ячейка ниже просит
# поискать, получает `pause_turn` и отправляет диалог обратно: приостановленный ответ добавлен в историю, нового
# сообщения от user нет, как и сказано в разделе о `pause_turn`.
#
# **Сначала предположите, потом запустите:** а если вместо этого добавить сообщение от user «продолжай»? (Ниже, в
# «Сломаем», это показано.)

# %% lang="en"
WEB_SEARCH = [{"type": "web_search_20250305", "name": "web_search"}]
messages = [{"role": "user", "content": "Search the web for the latest python-gitlab release."}]
paused = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(paused.stop_reason, [b.type for b in paused.content], "->", what_to_do(paused))

messages.append({"role": "assistant", "content": paused.content})  # no new user message
finished = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(finished.stop_reason, [b.type for b in finished.content], "->", what_to_do(finished))

# %% lang="ru"
WEB_SEARCH = [{"type": "web_search_20250305", "name": "web_search"}]
messages = [{"role": "user", "content": "Найди в интернете последний релиз python-gitlab."}]
paused = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(paused.stop_reason, [b.type for b in paused.content], "->", what_to_do(paused))

messages.append({"role": "assistant", "content": paused.content})  # без нового сообщения от user
finished = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=messages)
print(finished.stop_reason, [b.type for b in finished.content], "->", what_to_do(finished))

# %% [markdown] lang="en"
# **Break it:** answer the pause with a new user message ("continue") and the paused turn is not
# continued: the message changes the task it was doing. In the sandbox the work starts over and pauses
# again, so such a loop never finishes; a real model may do something else, but it no longer finishes the
# turn it paused.

# %% [markdown] lang="ru"
# **Сломаем:** ответьте на паузу новым сообщением от user («продолжай») — и приостановленный ход
# не продолжится: новое сообщение меняет задачу, над которой он работал. В песочнице работа начнётся заново
# и снова встанет на паузу, так что такой цикл никогда не закончится; настоящая модель может повести себя
# иначе, но приостановленный ход она уже не завершит.

# %% lang="en"
wrong = messages[:1] + [{"role": "assistant", "content": paused.content}, {"role": "user", "content": "continue"}]
again = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=wrong)
print(again.stop_reason, "- searches started over:", len([b for b in again.content if b.type == "server_tool_use"]))

# %% lang="ru"
wrong = messages[:1] + [{"role": "assistant", "content": paused.content}, {"role": "user", "content": "продолжай"}]
again = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=wrong)
print(again.stop_reason, "— поисков начато заново:", len([b for b in again.content if b.type == "server_tool_use"]))

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
# | `refusal` | read `stop_details`; never the same request to the same model again; a fallback model once, then stop |
# | `model_context_window_exceeded` | error: the history is too long |
# | any other value | error that names it: a stop reason your loop does not know yet |

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
# | `refusal` | прочитать `stop_details`; тот же запрос той же модели не повторять; один раз — запасной модели, потом остановиться |
# | `model_context_window_exceeded` | ошибка: история слишком длинная |
# | любое другое значение | ошибка, в которой оно названо: эту причину остановки ваш цикл ещё не знает |
