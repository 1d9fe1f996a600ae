# %% [markdown] lang="en"
# # 4. Parallel tools
#
# **You will learn**
# - that one response can ask for several tools at once (several `tool_use` blocks);
# - to run them all, concurrently, and return **all** results in **one** user message;
# - what happens when you split the results over several messages: the model calls tools in parallel less often.
#
# *About 45 minutes. Builds on notebook 3.*
#
# Notebook 3's project, tools and rules come in one line: `from lesson_tools import ...` below. `lesson_tools.py`,
# next to this notebook, holds the code of those three cells, unchanged; open it from the file browser to read it.
#
# <!-- rules-so-far -->

# %% [markdown] lang="ru"
# # 4. Параллельные инструменты
#
# **Вы узнаете**
# - что в одном ответе модель может запросить сразу несколько инструментов (несколько блоков `tool_use`);
# - как выполнить их все параллельно и вернуть **все** результаты **одним** сообщением от user;
# - что будет, если разбить результаты на несколько сообщений: модель станет реже делать параллельные
#   вызовы.
#
# *Около 45 минут. Опирается на блокнот 3.*
#
# Проект, инструменты и правила блокнота 3 приходят одной строкой — `from lesson_tools import ...` ниже. В файле
# `lesson_tools.py` рядом с этим блокнотом лежит код тех трёх ячеек без изменений; откройте его на панели файлов
# JupyterLab, чтобы прочитать.
#
# <!-- rules-so-far -->

# %% use="setup"

# %% use="lesson_tools"

# %% [markdown] lang="en"
# <!-- fact: parallel-tool-calls -->
# ## Several tool calls in one response
#
# In !484 `tax_for` changes, and the diff says it is called from two files the merge request does not
# touch. After reading the diff, the model asks for both files in the same response:

# %% [markdown] lang="ru"
# <!-- fact: parallel-tool-calls -->
# ## Несколько вызовов инструментов в одном ответе
#
# В !484 меняется `tax_for`, и по diff видно, что она вызывается из двух файлов, которые merge request
# не затрагивает. Прочитав diff, модель запрашивает оба файла в одном и том же ответе:

# %% lang="en"
messages = [{"role": "user", "content": "Review merge request !484."}]
first = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=messages)
messages.append({"role": "assistant", "content": first.content})
messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": b.id, "content": run_tool(b.name, b.input)}
    for b in first.content if b.type == "tool_use"
]})

second = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=messages)
calls = [b for b in second.content if b.type == "tool_use"]
for call in calls:
    print(call.id, call.name, call.input)

# %% lang="ru"
messages = [{"role": "user", "content": "Проверь merge request !484."}]
first = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=messages)
messages.append({"role": "assistant", "content": first.content})
messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": b.id, "content": run_tool(b.name, b.input)}
    for b in first.content if b.type == "tool_use"
]})

second = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=messages)
calls = [b for b in second.content if b.type == "tool_use"]
for call in calls:
    print(call.id, call.name, call.input)

# %% [markdown] lang="en"
# <!-- fact: parallel-calls-independent -->
# ## Run them concurrently
#
# The calls of one turn are independent, so there is no reason to wait for one before starting the
# next. A thread pool runs them together: `pool.map(tool_result, calls)` calls `tool_result` on every call, each in a
# thread of its own, and gives the results back in the order of the calls (`with` closes the pool when its block
# ends). That suits reads like these; a tool that changes something, or that asks a person first (notebook 7), is
# better run one call at a time. Here each tool is slowed down to 0.3 s to make the difference visible:
#
# ```mermaid
# gantt
#     title Two calls of one turn, 0.3 s each
#     dateFormat x
#     axisFormat %L ms
#     section one after another
#     call 1            :0, 300
#     call 2            :300, 600
#     section at the same time
#     call 1            :0, 300
#     call 2            :0, 300
# ```
#
# **Predict, then run:** will the two calls in the pool take closer to 0.3 s or to 0.6 s, and in what order will the
# results come?

# %% [markdown] lang="ru"
# <!-- fact: parallel-calls-independent -->
# ## Выполните их параллельно
#
# Вызовы одного хода независимы, поэтому незачем ждать завершения одного, прежде чем запускать
# следующий. Пул потоков выполняет их одновременно: `pool.map(tool_result, calls)` вызывает `tool_result` для каждого
# вызова из `calls`, каждый раз в отдельном потоке, и возвращает результаты в порядке вызовов (`with` закрывает пул,
# когда заканчивается его блок). Для чтения, как здесь, это подходит; инструмент, который что-то меняет или сначала
# спрашивает человека (блокнот 7), лучше выполнять по очереди, по одному вызову за раз. Здесь каждый инструмент замедлен
# до 0,3 с, чтобы разница была заметна:
#
# ```mermaid
# gantt
#     title Два вызова одного хода, по 0,3 с каждый
#     dateFormat x
#     axisFormat %L мс
#     section по очереди
#     вызов 1           :0, 300
#     вызов 2           :300, 600
#     section одновременно
#     вызов 1           :0, 300
#     вызов 2           :0, 300
# ```
#
# **Сначала предположите, потом запустите:** сколько займут два вызова в пуле — ближе к 0,3 с или к 0,6 с — и в
# каком порядке придут результаты?

# %% lang="en"
import time
from concurrent.futures import ThreadPoolExecutor


def tool_result(call):
    """The tool_result block that answers one call."""
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def slow_tool_result(call):
    time.sleep(0.3)  # pretend GitLab is far away
    return tool_result(call)


def run_all(calls, answer=tool_result):
    """A tool_result for every call: the calls run at once, the results come in the order of the calls."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(answer, calls))


started = time.perf_counter()
results = run_all(calls, answer=slow_tool_result)  # the slow tool, for this demo only
elapsed = time.perf_counter() - started
print("results in the order of the calls:", [r["tool_use_id"] for r in results] == [c.id for c in calls])
print("the two calls took about", "0.3 s: at once" if elapsed < 0.5 else "0.6 s: one after another")

# %% lang="ru"
import time
from concurrent.futures import ThreadPoolExecutor


def tool_result(call):
    """Блок tool_result, который отвечает на один вызов."""
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def slow_tool_result(call):
    time.sleep(0.3)  # как будто GitLab далеко
    return tool_result(call)


def run_all(calls, answer=tool_result):
    """tool_result для каждого вызова: вызовы выполняются одновременно, результаты идут в порядке вызовов."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(answer, calls))


started = time.perf_counter()
results = run_all(calls, answer=slow_tool_result)  # медленный инструмент, только для этого примера
elapsed = time.perf_counter() - started
print("результаты в порядке вызовов:", [r["tool_use_id"] for r in results] == [c.id for c in calls])
print("два вызова заняли около", "0,3 с: одновременно" if elapsed < 0.5 else "0,6 с: по очереди")

# %% [markdown] lang="en"
# <!-- fact: all-results-one-message -->
# ## All results in one message
#
# Both results go back in a single user message, and the model writes its review. The rule: every `tool_use` needs its
# own `tool_result` in the very next user message, sent with the next request; leave one out, and that request is
# refused with a 400 that names the id left without one.

# %% [markdown] lang="ru"
# <!-- fact: all-results-one-message -->
# ## Все результаты одним сообщением
#
# Оба результата возвращаются одним сообщением от user, и модель пишет ревью. Правило такое: у каждого `tool_use`
# должен быть свой `tool_result` в следующем же сообщении от user, отправленном со следующим запросом; если пропустить
# хотя бы один, этот запрос отклоняется с ошибкой 400, в которой назван id, оставшийся без результата.

# %%
messages.append({"role": "assistant", "content": second.content})
messages.append({"role": "user", "content": run_all(calls)})
third = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS, messages=messages)
print(third.stop_reason)
print("\n".join(block.text for block in third.content if block.type == "text"))

# %% [markdown] lang="en"
# <!-- fact: split-results-merged -->
# ## Break it: split the results
#
# The API accepts results split over several consecutive user messages right after the response, as long as they are
# all in the same request: the loop below sends each result in a message of its own, and no request fails. But the
# model learns from the history that its parallel calls get answered one by one, and
# makes them less often. Here is a loop that splits, then asks for the same review again in the same
# conversation:

# %% [markdown] lang="ru"
# <!-- fact: split-results-merged -->
# ## Сломаем: разобьём результаты на части
#
# API принимает результаты, разбитые на несколько идущих подряд сообщений от user сразу после ответа, если все они
# уходят в одном запросе: цикл ниже отправляет каждый результат отдельным сообщением, и ни один запрос не падает. Но
# модель усваивает из истории, что на её параллельные вызовы отвечают по
# одному, и делает их реже. Вот цикл, который разбивает результаты, а затем в том же диалоге
# просит сделать то же ревью ещё раз:

# %% lang="en"
def loop(messages, split, max_iterations=10):
    for _ in range(max_iterations):  # a cap, as in notebook 3
        response = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        calls = [b for b in response.content if b.type == "tool_use"]
        if response.stop_reason == "end_turn":
            return
        if response.stop_reason != "tool_use":  # as in notebook 3: any other stop is an error
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")
        print("  tools asked for in one response:", len(calls), "->",
              [c.input.get("path", c.input.get("pr")) for c in calls])
        results = [tool_result(c) for c in calls]
        if split:
            for result in results:  # the mistake: one user message per result
                messages.append({"role": "user", "content": [result]})
        else:
            messages.append({"role": "user", "content": results})
    # the cap: never a half-done run passed off as done
    raise RuntimeError(f"No answer after {max_iterations} iterations")


history = [{"role": "user", "content": "Review merge request !484."}]
print("first review, results split:")
loop(history, split=True)
history.append({"role": "user", "content": "Review merge request !484 once more, please."})
print("second review in the same conversation:")
loop(history, split=True)

# %% lang="ru"
def loop(messages, split, max_iterations=10):
    for _ in range(max_iterations):  # ограничение, как в блокноте 3
        response = client.messages.create(model=MODEL, max_tokens=4000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        calls = [b for b in response.content if b.type == "tool_use"]
        if response.stop_reason == "end_turn":
            return
        if response.stop_reason != "tool_use":  # как в блокноте 3: любая другая остановка — ошибка
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")
        print("  инструментов запрошено в одном ответе:", len(calls), "->",
              [c.input.get("path", c.input.get("pr")) for c in calls])
        results = [tool_result(c) for c in calls]
        if split:
            for result in results:  # ошибка: по сообщению от user на каждый результат
                messages.append({"role": "user", "content": [result]})
        else:
            messages.append({"role": "user", "content": results})
    # ограничение: недоделанный запуск не выдаётся за готовый
    raise RuntimeError(f"Ответа нет: ограничение итераций исчерпано (max_iterations={max_iterations})")


history = [{"role": "user", "content": "Проверь merge request !484."}]
print("первое ревью, результаты разнесены по сообщениям:")
loop(history, split=True)
history.append({"role": "user", "content": "Проверь merge request !484 ещё раз, пожалуйста."})
print("второе ревью в том же диалоге:")
loop(history, split=True)

# %% [markdown] lang="en"
# The second time the model reads the files one per response: more round trips, more tokens, a slower agent. The fix
# is the rule: all results of one turn in one user message.
#
# What you saw is the sandbox's model, scripted to show what the docs warn of (docs: *Parallel tool use*, its
# message-history guidance: results sent in separate messages make parallel calls less likely). A live model may
# drift more slowly, or not at all in a run this short; the rule holds either way.

# %% [markdown] lang="ru"
# Во второй раз модель читает файлы по одному за ответ: больше обращений к API, больше токенов,
# агент работает медленнее. Исправление — само правило: все результаты одного хода одним
# сообщением от user.
#
# Вы видели модель песочницы: она запрограммирована показывать то, о чём предупреждает документация (раздел
# *Parallel tool use*, советы об истории сообщений: если результаты разнесены по отдельным сообщениям, параллельных
# вызовов становится меньше). Настоящая модель может отвыкать медленнее или в таком коротком запуске не измениться
# вовсе; правило действует в любом случае.

# %% lang="en"
history = [{"role": "user", "content": "Review merge request !484."}]
loop(history, split=False)
history.append({"role": "user", "content": "Review merge request !484 once more, please."})
loop(history, split=False)

# %% lang="ru"
history = [{"role": "user", "content": "Проверь merge request !484."}]
loop(history, split=False)
history.append({"role": "user", "content": "Проверь merge request !484 ещё раз, пожалуйста."})
loop(history, split=False)

# %% [markdown] lang="en"
# ## Exercise
#
# Rewrite the loop of notebook 3 so that it runs the calls of a turn concurrently (with `run_all`), keeps
# their order, and still returns all results in one message. Check it on !484: how many model calls?
#
# You do not copy your old loop: the exercise cell brings it. When your exercise 3 passed its check, the check kept
# it (in `my_code/exercise_3.py`, next to this notebook); running the exercise cell defines it here and puts its
# code into the cell, in place of the stub, for you to grow into `review_concurrently`. If you skipped exercise 3,
# the cell brings its reference solution instead, and says so. `review_concurrently` starts a history of its own, so
# the old `messages=None` parameter, and the lines that handle it, can go.

# %% [markdown] lang="ru"
# ## Упражнение
#
# Перепишите цикл из блокнота 3 так, чтобы он выполнял вызовы одного хода параллельно (с помощью
# `run_all`), сохранял их порядок и по-прежнему возвращал все результаты одним сообщением. Проверьте
# на !484: сколько получилось вызовов модели?
#
# Старый цикл копировать не нужно: ячейка упражнения подставит его сама. Если ваше упражнение 3 прошло проверку, оно
# сохранено в `my_code/exercise_3.py`, рядом с этим блокнотом; при запуске ячейка упражнения выполнит его здесь и
# вставит его код на место заготовки, а вы превратите его в `review_concurrently`. Если упражнение 3 вы пропустили,
# ячейка подставит эталонное решение и скажет об этом. `review_concurrently` сам начинает новую историю, поэтому прежний
# параметр `messages=None` и строки, которые его обрабатывают, можно убрать.

# %% lang="en"
from course_agent.my_code import start_from


def review_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    """Your loop: the calls of a turn run at the same time, results in the calls' order, in one message."""
    raise NotImplementedError("your code here")


start_from(3, grow_into=review_concurrently)  # brings your exercise 3 (or its reference) into this cell

# %% lang="ru"
from course_agent.my_code import start_from


def review_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    """Ваш цикл: вызовы одного хода выполняются одновременно, результаты — в порядке вызовов, одним сообщением."""
    raise NotImplementedError("напишите здесь свой код")


start_from(3, grow_into=review_concurrently)  # переносит в эту ячейку ваше упражнение 3 (или эталонное)

# %% [markdown] lang="en"
# ### Check your exercise
#
# The check runs **your** `review_concurrently` on !484 against a fresh sandbox in which each file read takes
# a second, and watches how many reads are in flight at once: one after another, never more than one; at the
# same time, two. (Time on the clock is not judged, so a busy machine does not matter.)
# It also checks that the results keep the calls' order and go back in one message.
#
# <details><summary>Hint 1</summary>
#
# Where in your loop do the calls of a turn run one after another? What has to stay the same when they run at once?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look at "Run them concurrently" above: one of its functions takes the calls of a turn and gives back their results.
# </details>
#
# <details><summary>Hint 3</summary>
#
# `pool.map(function, calls)` of a `concurrent.futures.ThreadPoolExecutor` runs the calls in threads and
# gives the results in the order of `calls`; `run_all` above does exactly that.
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Проверка запускает **ваш** `review_concurrently` на !484 в свежей песочнице, где каждое чтение файла
# занимает секунду, и следит, сколько чтений идёт одновременно: по очереди — не больше одного, параллельно —
# два. (Время проверка не измеряет, так что загруженная машина не
# мешает.) Ещё она проверяет, что результаты идут в порядке вызовов и возвращаются одним сообщением.
#
# <details><summary>Подсказка 1</summary>
#
# Где в вашем цикле вызовы одного хода выполняются по очереди? Что должно остаться прежним, когда они пойдут
# одновременно?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Посмотрите на раздел «Выполните их параллельно» выше: одна из его функций принимает вызовы хода и возвращает их
# результаты.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# `pool.map(function, calls)` у `concurrent.futures.ThreadPoolExecutor` выполняет вызовы в потоках и отдаёт
# результаты в порядке `calls`; `run_all` выше делает именно это.
# </details>

# %%
from course_selfcheck.loop_exercises import check_exercise_4

check_exercise_4(review_concurrently)

# %% [markdown] lang="en"
# The reference solution, folded (a spoiler: open it once you have tried yours; after it, `print(solution_code(4))`
# prints it too).

# %% [markdown] lang="ru"
# Ниже — эталонное решение в свёрнутом виде: откройте его, когда попробуете решить сами (после этой ячейки его
# напечатает и `print(solution_code(4))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(4)

# %% [markdown] lang="en"
# <!-- fact: every-tool-use-needs-result -->
# ## Check yourself
#
# 1. The model asked for three files in one response. How many user messages carry the results?
#
# <details><summary>Answer</summary>
#
# One, with all three `tool_result` blocks.
# </details>
#
# 2. What does the model learn from results split over several messages?
#
# <details><summary>Answer</summary>
#
# To call tools in parallel less often (the docs' guidance; the sandbox shows it at its strongest): more round trips,
# more tokens.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 3. The model asked for three tools in one response, and your loop sends three user messages, one result each.
#    What happens?
#    - (a) a 400: the API refuses split results
#    - (b) nothing fails, but the model learns to stop asking in parallel
#    - (c) the model gets only the first result
#
# <details><summary>Answer</summary>
#
# (b). The API accepts results split over consecutive user messages right after the response, so nothing is refused
# or lost; what changes is the model's behaviour, as the "Break it" cell showed.
# </details>
#
# 4. Your loop runs three calls of a turn at once. Two finish quickly, the third is slow, and the loop sends the two
#    results it has so that the model can start on them. What happens?
#    - (a) the model reads the two results and waits for the third
#    - (b) the request is refused: every `tool_use` needs its `tool_result` in the very next user message
#    - (c) nothing fails, as long as the third result follows in the next message
#
# <details><summary>Answer</summary>
#
# (b). Every `tool_use` needs its `tool_result` in the next user message: the API answers 400 and names the id left
# without a result. The request is refused before the model sees it, so nobody waits (a), and there is no next
# message to carry the third result (c). Wait for all three (`pool.map` does) and send them together.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: every-tool-use-needs-result -->
# ## Проверьте себя
#
# 1. Модель запросила три файла в одном ответе. В скольких сообщениях user вернутся результаты?
#
# <details><summary>Ответ</summary>
#
# В одном, со всеми тремя блоками `tool_result`.
# </details>
#
# 2. Чему учат модель результаты, разбитые на несколько сообщений?
#
# <details><summary>Ответ</summary>
#
# Реже вызывать инструменты параллельно (так говорит документация; песочница показывает это в самом сильном
# виде): больше запросов, больше токенов.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 3. Модель запросила три инструмента в одном ответе, а ваш цикл отправляет три сообщения от user, по результату в
#    каждом. Что произойдёт?
#    - (а) ошибка 400: API не принимает разбитые результаты
#    - (б) ничего не упадёт, но модель отучится запрашивать инструменты параллельно
#    - (в) модель получит только первый результат
#
# <details><summary>Ответ</summary>
#
# (б). API принимает результаты, разбитые на идущие подряд сообщения от user сразу после ответа, так что ничего не
# отклоняется и не теряется; меняется поведение модели — это показала ячейка «Сломаем».
# </details>
#
# 4. Ваш цикл выполняет три вызова одного хода одновременно. Два заканчиваются быстро, третий медленный, и цикл
#    отправляет два готовых результата, чтобы модель начала с ними работать. Что произойдёт?
#    - (а) модель прочитает два результата и подождёт третий
#    - (б) запрос отклонят: у каждого `tool_use` должен быть свой `tool_result` в следующем же сообщении от user
#    - (в) ничего не упадёт, если третий результат придёт следующим сообщением
#
# <details><summary>Ответ</summary>
#
# (б). На каждый `tool_use` нужен свой `tool_result` в следующем сообщении от user: API ответит ошибкой 400 и назовёт
# идентификатор, оставшийся без результата. Запрос отклоняется раньше, чем его увидит модель, поэтому ждать некому (а),
# а следующего сообщения, в котором пришёл бы третий результат, не будет (в). Дождитесь всех трёх (`pool.map` так и
# делает) и отправьте их вместе.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - One response may hold several `tool_use` blocks: run them all.
# - Run them concurrently; keep the results in the order of the calls.
# - Return all results of a turn in ONE user message, or the model calls in parallel less often.

# %% [markdown] lang="ru"
# ## Итоги
#
# - В одном ответе может быть несколько блоков `tool_use`: выполните их все.
# - Выполняйте их параллельно; сохраняйте результаты в порядке вызовов.
# - Возвращайте все результаты одного хода ОДНИМ сообщением от user, иначе модель станет реже делать
#   параллельные вызовы.

# %% [markdown] lang="en"
# ## Take it home
#
# The reviewer as this notebook leaves it (the calls of a turn run at once), whole, is in the cell below and in
# `examples/en/review_after_04.py`: notebook 3's "Take it home" says what it needs and how to run it.
#
# It defines its own `client`, tools and loop, so this section comes last: run it after everything above, because it
# replaces this notebook's names of the same name.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# Весь ревьюер в том виде, к которому пришёл этот блокнот (вызовы одного хода выполняются одновременно), — в ячейке ниже
# и в `examples/ru/review_after_04.py`; что ему нужно и как его запустить, сказано в разделе «Возьмите с собой»
# блокнота 3.
#
# Эта ячейка определяет собственные `client`, инструменты и цикл, поэтому раздел стоит последним: запускайте её после
# всего остального, ведь она заменяет всё, что в этом блокноте называется так же.

# %% use="take_home_setup"

# %% use="take_home_4"
