# %% [markdown] lang="en"
# # 10. Shaping a request (optional)
#
# *Go deeper: nothing in notebooks 1–9, their exercises or their checks needs this notebook. Read a section when you
# need it; each stands on its own.*
#
# **You will learn**
# - to choose whether and which tool the model calls (`tool_choice`), and why forcing a tool is model by model;
# - what to ask for instead of forcing: the tool named in words, or an answer of a given shape (structured output);
# - why a long answer has to stream (`client.messages.stream`), and that the SDK's tool runner streams too;
# - how to count a request's tokens before you send it (`count_tokens`).
#
# What to do when a run grows long or hard (a full context window, a paused turn, a refusal) is optional notebook 11.
#
# *About 40 minutes. Builds on notebooks 4 and 8 (its tool runner).*

# %% [markdown] lang="ru"
# # 10. Как настроить запрос (по желанию)
#
# *Для тех, кто хочет разобраться глубже: ни блокнотам 1–9, ни их упражнениям и проверкам этот блокнот не нужен.
# Читайте раздел, когда он понадобится; каждый понятен сам по себе.*
#
# **Вы узнаете**
# - как выбрать, вызывать ли модели инструмент и какой (`tool_choice`), и почему принудительный вызов зависит от модели;
# - что делать вместо принудительного вызова: назвать нужный инструмент словами или запросить ответ заданной формы
#   (структурированный вывод);
# - почему длинный ответ нужно получать потоком (`client.messages.stream`) и что исполнитель SDK тоже умеет работать
#   потоком;
# - как посчитать токены запроса до отправки (`count_tokens`).
#
# Что делать, когда работа затягивается или идёт трудно (контекстное окно переполнено, ход приостановлен, модель
# отказывается отвечать), рассказывает необязательный блокнот 11.
#
# *Около 40 минут. Опирается на блокноты 4 и 8 (его `tool_runner`).*

# %% use="setup"

# %% use="lesson_tools"

# %% [markdown] lang="en"
# <!-- fact: tool-choice-options -->
# ## Choosing how the model uses tools: `tool_choice`
#
# `tool_choice` says whether the model must use a tool:
#
# - `{"type": "auto"}` (the default: it decides);
# - `{"type": "any"}` (some tool, it picks which);
# - `{"type": "tool", "name": ...}` (that one);
# - `{"type": "none"}` (no tools this time).
#
# With `"disable_parallel_tool_use": true` the model asks for at most one call per response. The same review then
# takes more round trips. The second half of the cell shows it: it answers the first call (the diff of !484) and asks
# again, once with parallel calls allowed and once without. (Docs: *Tool use*, "Forcing tool use" and "Parallel tool
# use".) Forcing depends on the model: more on that right below.
#
# **Predict, then run:** the task names no file. What will the forced `read_file` call put in `path`? And with
# parallel calls turned off, how many calls will the second reply hold?

# %% [markdown] lang="ru"
# <!-- fact: tool-choice-options -->
# ## Как управлять выбором инструмента: `tool_choice`
#
# `tool_choice` задаёт, обязана ли модель вызвать инструмент:
#
# - `{"type": "auto"}` (по умолчанию: решает сама);
# - `{"type": "any"}` (обязательно какой-то инструмент, какой — выбирает она);
# - `{"type": "tool", "name": ...}` (именно этот);
# - `{"type": "none"}` (на этот раз без инструментов).
#
# С `"disable_parallel_tool_use": true` модель запрашивает не больше одного вызова за ответ. Тогда то же ревью требует
# больше обращений к API. Это видно во второй половине ячейки: она отвечает на первый вызов (diff !484) и спрашивает
# снова — один раз с разрешёнными параллельными вызовами, другой раз без них. (Документация: *Tool use*, разделы
# «Forcing tool use» и «Parallel tool use».) Принудительный вызов зависит от модели — об этом чуть ниже.
#
# **Сначала предположите, потом запустите:** в задаче не назван ни один файл. Что принудительный вызов `read_file`
# подставит в `path`? И сколько вызовов будет во втором ответе, если запретить параллельные вызовы?

# %% lang="en"
task = [{"role": "user", "content": "Review merge request !484."}]
for choice in ({"type": "auto"}, {"type": "any"}, {"type": "tool", "name": "read_file"}, {"type": "none"}):
    try:
        reply = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                                       tool_choice=choice, messages=task)
    except anthropic.BadRequestError as error:  # a model that refuses forced tool use
        print(f"{str(choice):40} -> 400: {error.body['error']['message']}")
        continue
    print(f"{str(choice):40} -> {reply.stop_reason:9} "
          f"{[(b.name, b.input) for b in reply.content if b.type == 'tool_use']}")

first = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=task)
after_diff = task + [{"role": "assistant", "content": first.content}, {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": b.id, "content": run_tool(b.name, b.input)}
    for b in first.content if b.type == "tool_use"]}]
for parallel in (True, False):
    reply = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=after_diff,
                                   tool_choice={"type": "auto", "disable_parallel_tool_use": not parallel})
    print(f"parallel calls allowed: {parallel!s:5} -> "
          f"{[(b.name, b.input) for b in reply.content if b.type == 'tool_use']}")

# %% lang="ru"
task = [{"role": "user", "content": "Проверь merge request !484."}]
for choice in ({"type": "auto"}, {"type": "any"}, {"type": "tool", "name": "read_file"}, {"type": "none"}):
    try:
        reply = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                                       tool_choice=choice, messages=task)
    except anthropic.BadRequestError as error:  # модель, которая не допускает принудительного вызова
        print(f"{str(choice):40} -> 400: {error.body['error']['message']}")
        continue
    print(f"{str(choice):40} -> {reply.stop_reason:9} "
          f"{[(b.name, b.input) for b in reply.content if b.type == 'tool_use']}")

first = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=task)
after_diff = task + [{"role": "assistant", "content": first.content}, {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": b.id, "content": run_tool(b.name, b.input)}
    for b in first.content if b.type == "tool_use"]}]
for parallel in (True, False):
    reply = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=after_diff,
                                   tool_choice={"type": "auto", "disable_parallel_tool_use": not parallel})
    print(f"параллельные вызовы разрешены: {parallel!s:5} -> "
          f"{[(b.name, b.input) for b in reply.content if b.type == 'tool_use']}")

# %% [markdown] lang="en"
# <!-- fact: forced-tool-manual-thinking -->
# <!-- fact: forced-tool-models -->
# With parallel calls turned off, the second reply holds one `read_file` call instead of two. The other file waits for
# the next round trip.
#
# Now look at the forced `read_file` call. The task names no file, yet the model had to fill in `path`. So it made one
# up (`'example path'` in the sandbox; a real model guesses a plausible one). Forcing a tool gets you *a* call, not a
# sensible one. Your code still checks the input before it runs anything.
#
# ### Break it: a model that refuses forcing
#
# Forcing is per model: the course's Opus 5 and the models before it accept `any` and `tool` (but not together with
# manual extended thinking), and some newer ones answer 400. [docs/facts.md](../../docs/facts.md) lists which model
# does what. Here is the newer Opus:

# %% [markdown] lang="ru"
# <!-- fact: forced-tool-manual-thinking -->
# <!-- fact: forced-tool-models -->
# Без параллельных вызовов во втором ответе один вызов `read_file` вместо двух. Второй файл ждёт следующего обращения
# к API.
#
# Теперь посмотрите на принудительный вызов `read_file`. В задаче нет ни одного имени файла, а заполнить `path` модель
# была обязана. Поэтому она придумала путь сама (`'example path'` в песочнице; настоящая модель подставит
# правдоподобный путь). Принудительный вызов — это *какой-то* вызов, а не осмысленный. Ваш код всё равно проверяет
# входные данные, прежде чем что-то выполнять.
#
# ### Сломаем: модель, которая не допускает принудительного вызова
#
# Принудительный вызов зависит от модели: Opus 5, модель курса, и более ранние модели принимают `any` и `tool` (но не
# вместе с ручным расширенным рассуждением), а некоторые более новые отвечают ошибкой 400. Какая модель что допускает,
# перечислено в [docs/facts.md](../../docs/facts.md). Вот что отвечает более новый Opus (варианты `tool` и `any` эта
# модель не поддерживает):

# %%
from course_agent.config import newer_model

try:
    client.messages.create(model=newer_model(), max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                           tool_choice={"type": "any"}, messages=task)
except anthropic.BadRequestError as error:
    print(error.status_code, error.body["error"]["message"])

# %% [markdown] lang="en"
# <!-- fact: structured-output-format -->
# What to do instead: leave `tool_choice` at `auto` and say in the request which tool comes first. The model follows
# clear instructions. And when what you really want is an answer of a given shape, ask for structured output
# (`output_config={"format": ...}`) rather than forcing a tool.

# %% [markdown] lang="ru"
# <!-- fact: structured-output-format -->
# Что делать вместо этого: оставьте `tool_choice` равным `auto` и скажите в запросе, с какого инструмента начать.
# Ясным указаниям модель следует. А если на самом деле нужен ответ заданной формы, просите структурированный вывод
# (`output_config={"format": ...}`), а не принудительный вызов инструмента.

# %% lang="en"
asked = [{"role": "user", "content": "Review merge request !484. Start with get_diff."}]
reply = client.messages.create(model=newer_model(), max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=asked)
print(reply.stop_reason, [(block.name, block.input) for block in reply.content if block.type == "tool_use"])

# %% lang="ru"
asked = [{"role": "user", "content": "Проверь merge request !484. Начни с get_diff."}]
reply = client.messages.create(model=newer_model(), max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=asked)
print(reply.stop_reason, [(block.name, block.input) for block in reply.content if block.type == "tool_use"])

# %% [markdown] lang="en"
# ## Long answers stream
#
# A cut answer is fixed with a larger `max_tokens` (notebook 1's optional section). What if you raise it far, say to
# 64,000?
#
# **Predict, then run:** the cell below sends such a request twice: first with `client.messages.create`, then with
# `client.messages.stream`. Which of the two gets an answer?

# %% [markdown] lang="ru"
# ## Длинные ответы — потоком
#
# Обрезанный ответ исправляют, увеличив `max_tokens` (необязательный раздел блокнота 1). А что, если увеличить его
# намного — скажем, до 64 000?
#
# **Сначала предположите, потом запустите:** ячейка ниже отправляет такой запрос дважды: сначала через
# `client.messages.create`, затем через `client.messages.stream`. Какой из двух получит ответ?

# %% lang="en"
try:
    client.messages.create(model=MODEL, max_tokens=64000, tools=TOOLS, messages=task)
except ValueError as error:  # raised by the SDK itself: nothing was sent
    print("messages.create:", f"{type(error).__name__}: {error}")


def ask(messages: list, model: str = MODEL, **request):
    """One turn of the loop, streamed: the same Message as create(), for any max_tokens (and any model)."""
    with client.messages.stream(model=model, max_tokens=64000, tools=TOOLS, messages=messages, **request) as stream:
        return stream.get_final_message()


streamed = ask(task)
print("messages.stream:", streamed.stop_reason, [block.type for block in streamed.content],
      streamed.usage.output_tokens, "output tokens")

# %% lang="ru"
try:
    client.messages.create(model=MODEL, max_tokens=64000, tools=TOOLS, messages=task)
except ValueError as error:  # ошибку выбросил сам SDK: ничего не отправлено
    print("messages.create:",
          f"{type(error).__name__} — SDK требует потокового режима, если ответ может идти дольше 10 минут")


def ask(messages: list, model: str = MODEL, **request):
    """Один ход цикла в потоковом режиме: тот же Message, что у create(), при любом max_tokens (и любой модели)."""
    with client.messages.stream(model=model, max_tokens=64000, tools=TOOLS, messages=messages, **request) as stream:
        return stream.get_final_message()


streamed = ask(task)
print("messages.stream:", streamed.stop_reason, [block.type for block in streamed.content],
      streamed.usage.output_tokens, "ток. на выходе")

# %% [markdown] lang="en"
# <!-- fact: sdk-requires-streaming -->
# <!-- fact: runner-stream-type -->
# `create` never reached the API. Raise `max_tokens` that far, and the SDK refuses the request before sending it. An
# answer that long could take more than ten minutes. That is longer than an HTTP request should stay open without a
# word. The line is at 21,333: up to that `max_tokens`, with the client's default timeout, `create` sends the request;
# above it, the SDK asks for streaming. So a loop that asks again with a larger `max_tokens` after a cut answer can go
# up to 21,333 with `create`, and further only streamed.
#
# The same request streamed is fine. `client.messages.stream` receives the answer piece by piece. `get_final_message()`
# gives the same `Message` as `create` would, `stop_reason` and `usage` included. So the loop changes in one line: the
# call that gets the response.
#
# The SDK's tool runner of notebook 8 streams too. With `stream=True` each turn is a stream: a `BetaMessageStream`,
# what the `with` block of `client.beta.messages.stream` gives you. Iterate it for the events as they come;
# `get_final_message()` gives the turn's message.

# %% [markdown] lang="ru"
# <!-- fact: sdk-requires-streaming -->
# <!-- fact: runner-stream-type -->
# `create` до API так и не дошёл. Увеличьте `max_tokens` так сильно — и SDK не станет отправлять запрос: такой длинный
# ответ может идти дольше десяти минут, а так долго держать HTTP-запрос открытым без единого байта ответа не следует.
# Граница — 21 333: пока `max_tokens` не больше этого значения, `create` при тайм-ауте клиента по умолчанию
# отправляет запрос, а выше SDK требует потокового режима. Поэтому цикл, который после обрезанного ответа повторяет
# запрос с бо́льшим `max_tokens`, может дойти через `create` до 21 333, а дальше — только потоком.
#
# Тот же запрос в потоковом режиме проходит. `client.messages.stream` получает ответ по частям. `get_final_message()`
# отдаёт такой же `Message`, какой вернул бы `create`, вместе со `stop_reason` и `usage`. Поэтому в цикле меняется
# одна строка — та, что получает ответ.
#
# Исполнитель из SDK (`tool_runner`, блокнот 8) тоже умеет работать потоком. С `stream=True` каждый ход приходит
# потоком: это `BetaMessageStream`, то же, что даёт блок `with` у `client.beta.messages.stream`. Перебирайте его, чтобы
# получать события по мере прихода, а `get_final_message()` отдаст сообщение хода.

# %% use="runner_tools"

# %% lang="en"
runner_task = [{"role": "user", "content": "Review merge request !482."}]
for stream in client.beta.messages.tool_runner(model=MODEL, max_tokens=16000, tools=[get_diff, read_file],
                                               messages=runner_task, max_iterations=20, stream=True):
    events = [event.type for event in stream]  # each event as it arrives: text and tool input, piece by piece
    print(f"{type(stream).__name__}: {len(events)} events -> {stream.get_final_message().stop_reason}")

# %% lang="ru"
runner_task = [{"role": "user", "content": "Проверь merge request !482."}]
for stream in client.beta.messages.tool_runner(model=MODEL, max_tokens=16000, tools=[get_diff, read_file],
                                               messages=runner_task, max_iterations=20, stream=True):
    events = [event.type for event in stream]  # каждое событие по мере прихода: текст и входные данные по частям
    print(f"{type(stream).__name__} — событий: {len(events)} -> {stream.get_final_message().stop_reason}")

# %% [markdown] lang="en"
# <!-- fact: count-tokens -->
# ## Count before you send
#
# `client.messages.count_tokens` takes the same model, system, tools and messages as a request. It answers with
# `input_tokens`, without generating anything (it is free). So a loop can count before each call and stop in time,
# instead of meeting the end of the window (notebook 6's `model_context_window_exceeded`). It could also start afresh,
# or let the server trim the history (context editing and compaction: optional notebook 11).

# %% [markdown] lang="ru"
# <!-- fact: count-tokens -->
# ## Считайте до отправки
#
# `client.messages.count_tokens` принимает ту же модель, системный промпт (`system`), инструменты и сообщения, что
# и запрос. В ответ он возвращает `input_tokens`, ничего не генерируя (это бесплатно). Поэтому цикл может считать
# перед каждым вызовом и вовремя остановиться, а не упираться в конец контекстного окна (`model_context_window_exceeded`
# из блокнота 6). Ещё он может начать заново или поручить сокращение истории серверу (редактирование контекста и
# сжатие — в необязательном блокноте 11).

# %% lang="en"
size = client.messages.count_tokens(model=MODEL, tools=TOOLS, messages=task).input_tokens
print(f"{size} input tokens in the request; the history grows by every response and result appended to it")

# %% lang="ru"
size = client.messages.count_tokens(model=MODEL, tools=TOOLS, messages=task).input_tokens
print(f"входных токенов в запросе: {size} — история растёт с каждым добавленным ответом и результатом")

# %% [markdown] lang="en"
# <!-- fact: forced-call-no-text -->
# ## Check yourself
#
# **Choose one** (each answer says why the other two are wrong):
#
# 1. You force `{"type": "tool", "name": "read_file"}` on a task that names no file. What comes back?
#    - (a) a 400: the task gives no path
#    - (b) a `read_file` call with an input the model had to make up
#    - (c) a text answer asking which file you mean
#
# <details><summary>Answer</summary>
#
# (b) on a model that accepts forcing: it must call the tool, so it fills the required `path` with a guess; your
# code checks the input before running it. The API does not judge the input (no 400 for that; a model that refuses
# forcing answers 400 whatever the task), and a forced call leaves no room for a question in text.
# </details>
#
# 2. Your loop needs answers longer than the SDK allows with `create`. What changes?
#    - (a) nothing: increase `max_tokens` and wait
#    - (b) the call that gets the response: `client.messages.stream(...)` and `get_final_message()`
#    - (c) the whole loop, which now has to handle events
#
# <details><summary>Answer</summary>
#
# (b). With a large `max_tokens` the SDK refuses a non-streaming `create` before sending it; the stream's
# `get_final_message()` gives the same `Message`, so the rest of the loop does not change (events are there when you
# want to show progress, not required).
# </details>

# %% [markdown] lang="ru"
# <!-- fact: forced-call-no-text -->
# ## Проверьте себя
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 1. Вы задаёте `tool_choice={"type": "tool", "name": "read_file"}` в задаче, где не назван ни один файл. Что придёт в
#    ответ?
#    - (а) ошибка 400: в задаче нет пути
#    - (б) вызов `read_file` с входными данными, которые модели пришлось выдумать
#    - (в) текстовый ответ с вопросом, какой файл имеется в виду
#
# <details><summary>Ответ</summary>
#
# (б), если модель допускает принудительный вызов: она обязана вызвать инструмент и заполняет обязательный `path`
# догадкой; ваш код проверяет входные данные, прежде чем что-то запускать. Входные данные API не оценивает (ошибки 400
# из-за них не будет; если модель не допускает принудительного вызова, API отвечает 400 на любую задачу), а при
# принудительном вызове места для вопроса текстом не остаётся.
# </details>
#
# 2. Вашему циклу нужны ответы длиннее, чем SDK позволяет получить через `create`. Что меняется?
#    - (а) ничего: увеличьте `max_tokens` и ждите
#    - (б) вызов, который получает ответ: `client.messages.stream(...)` и `get_final_message()`
#    - (в) весь цикл: теперь он должен обрабатывать события
#
# <details><summary>Ответ</summary>
#
# (б). При большом `max_tokens` SDK отклоняет обычный `create` ещё до отправки; `get_final_message()` потока отдаёт
# такой же `Message`, поэтому остальной цикл не меняется (события пригодятся, чтобы показывать ход работы, но они
# необязательны).
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - `tool_choice`: `auto` (the default), `any`, `tool`, `none`; `disable_parallel_tool_use` asks for one call per
#   response. Forcing is per model: prefer asking for the tool in words, and structured output when you want an
#   answer of a given shape.
# - A long answer streams: `client.messages.stream(...).get_final_message()` is the same `Message` as `create`. The
#   SDK's tool runner streams each turn with `stream=True`.
# - `client.messages.count_tokens` counts a request for free, before you send it.

# %% [markdown] lang="ru"
# ## Итоги
#
# - `tool_choice`: `auto` (по умолчанию), `any`, `tool`, `none`; `disable_parallel_tool_use` ограничивает
#   ответ одним вызовом. Принудительный вызов зависит от модели: лучше словами написать в запросе,
#   какой инструмент нужен, а ответ заданной формы получать структурированным выводом.
# - Длинный ответ получают потоком: `client.messages.stream(...).get_final_message()` — тот же `Message`, что у
#   `create`. Исполнитель SDK с `stream=True` тоже получает каждый ход потоком.
# - `client.messages.count_tokens` бесплатно считает токены запроса до отправки.
