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
# Notebook 3's project, tools and rules come in one line: `from lesson_tools import ...` below. The file
# `lesson_tools.py` sits next to this notebook. It holds the code of those three cells, unchanged. Open it from the
# file browser to read it.
#
# <!-- rules-so-far -->
#
# One more thing this notebook asks for is a practice, not a rule of the API: the calls of a turn run at once. The
# API only asks that every call gets its result right after the response, whatever way you ran the calls; the checks
# of notebooks 4 and 5 ask for concurrency too, and from notebook 6 on they no longer do.

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
# Проект, инструменты и правила блокнота 3 приходят одной строкой: `from lesson_tools import ...` ниже. Рядом с этим
# блокнотом лежит файл `lesson_tools.py`. В нём код тех трёх ячеек без изменений. Чтобы его прочитать, откройте файл
# на панели файлов JupyterLab.
#
# <!-- rules-so-far -->
#
# Ещё одно требование этого блокнота — не правило API, а хорошая практика: вызовы хода выполняются одновременно.
# API требует только, чтобы у каждого вызова был свой результат сразу после ответа модели, а как вы выполняли вызовы,
# ему всё равно. Проверки блокнотов 4 и 5 требуют одновременности, а начиная с блокнота 6 — уже нет.

# %% use="setup"

# %% use="lesson_tools"

# %% [markdown] lang="en"
# <!-- fact: parallel-tool-calls -->
# ## Several tool calls in one response
#
# In !484 the function `tax_for` changes. The diff shows two files that call it, and the merge request does not touch
# them. (It shows them because the demo diff names its callers in a comment, `# Called from shop/checkout.py, ...`; a
# real diff seldom does, and notebook 3 says what a real reviewer uses instead: a search of the code.) After reading
# the diff, the model asks for both files in the same response:

# %% [markdown] lang="ru"
# <!-- fact: parallel-tool-calls -->
# ## Несколько вызовов инструментов в одном ответе
#
# В !484 меняется функция `tax_for`. По diff видно, что её вызывают два файла, которых merge request не касается.
# (Это видно потому, что демонстрационный diff сам называет вызывающие файлы в комментарии:
# `# Called from shop/checkout.py, ...`. В настоящем diff такой подсказки обычно нет, и ревьюеру нужен поиск по коду —
# о нём сказано в блокноте 3.) Прочитав diff, модель запрашивает оба файла в одном и том же ответе:

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
# The calls of one turn are meant to be independent: Claude asks for a call that needs another's result in a later
# turn. So there is no reason to wait for one before you start the next. (If one does turn out to depend on another
# and fails, its error result tells the model, which asks again: notebook 5.) A thread pool runs them together:
#
# - `pool.map(tool_result, calls)` calls `tool_result` on every call, each in a thread of its own;
# - it gives the results back in the order of the calls;
# - `with` closes the pool when its block ends.
#
# This suits reads like these. A tool that changes something is better run one call at a time. So is a tool that asks
# a person first. Here each tool is slowed down to 0.3 s, so that you can see the difference:
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
# Вызовы одного хода задуманы независимыми: вызов, которому нужен результат другого, Claude запрашивает в одном из
# следующих ходов. Поэтому незачем ждать, пока закончится один, чтобы запустить следующий. (Если вызов всё же окажется
# зависимым от другого и не удастся, модель узнает об этом из результата с ошибкой и запросит его снова — блокнот 5.)
# Пул потоков выполняет их одновременно:
#
# - `pool.map(tool_result, calls)` вызывает `tool_result` для каждого вызова из `calls`, каждый раз в отдельном потоке;
# - результаты он возвращает в порядке вызовов;
# - `with` закрывает пул, когда заканчивается его блок.
#
# Для чтения, как здесь, это подходит. А инструмент, который что-то меняет, лучше выполнять по одному, последовательно.
# Это касается и инструмента, который сначала спрашивает человека. Здесь каждый инструмент замедлен до 0,3 с, чтобы
# разница была заметна:
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


def run_all(calls, answer=None):
    """A tool_result for every call: the calls run at once, the results come in the order of the calls."""
    answer = answer or tool_result
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


def run_all(calls, answer=None):
    """tool_result для каждого вызова: вызовы выполняются одновременно, результаты идут в порядке вызовов."""
    answer = answer or tool_result
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(answer, calls))


started = time.perf_counter()
results = run_all(calls, answer=slow_tool_result)  # медленный инструмент, только для этого примера
elapsed = time.perf_counter() - started
print("результаты в порядке вызовов:", [r["tool_use_id"] for r in results] == [c.id for c in calls])
print("два вызова заняли около", "0,3 с: одновременно" if elapsed < 0.5 else "0,6 с: по очереди")

# %% [markdown] lang="en"
# <!-- fact: all-results-one-message -->
# <!-- fact: tool-results-first -->
# ## All results in one message
#
# Both results go back in a single user message, and the model writes its review.
#
# Two rules are at work here:
#
# - **The API's rule.** Every `tool_use` needs its own `tool_result` in the next request, right after the response.
#   In that user message the `tool_result` blocks come first; any text goes after them. Leave a result out, or put
#   text before the results, and the API refuses that request with a 400:
#   `tool_use ids were found without tool_result blocks immediately after`, with the id.
# - **The loop's rule** (on the card above). Put all results of a turn in **one** user message. The next section
#   shows why.
#
# ```mermaid
# flowchart TB
#     subgraph A["assistant: the whole response"]
#         c1["tool_use id=toolu_A<br/>read_file shop/invoices.py"]
#         c2["tool_use id=toolu_B<br/>read_file shop/reports.py"]
#     end
#     subgraph U["user: one message in the next request, the results first"]
#         r1["tool_result<br/>tool_use_id=toolu_A"]
#         r2["tool_result<br/>tool_use_id=toolu_B"]
#     end
#     c1 -. "the same id" .-> r1
#     c2 -. "the same id" .-> r2
# ```
#
# The API pairs a result with its call by `tool_use_id` alone, so the order of the results is the course's choice:
# in the calls' order, the history reads the way the model asked.

# %% [markdown] lang="ru"
# <!-- fact: all-results-one-message -->
# <!-- fact: tool-results-first -->
# ## Все результаты одним сообщением
#
# Оба результата возвращаются одним сообщением от user, и модель пишет ревью.
#
# Здесь действуют два правила:
#
# - **Правило API.** У каждого `tool_use` должен быть свой `tool_result` в следующем запросе, сразу после ответа
#   модели. В этом сообщении от user блоки `tool_result` идут первыми, а текст, если он нужен, — после них. Пропустите
#   хотя бы один результат или поставьте текст перед результатами — и API отклонит запрос с ошибкой 400:
#   `tool_use ids were found without tool_result blocks immediately after` и id вызова.
# - **Правило цикла** (оно в карточке выше). Все результаты одного хода кладите в **одно** сообщение от user. Зачем,
#   покажет следующий раздел.
#
# ```mermaid
# flowchart TB
#     subgraph A["assistant: ответ целиком"]
#         c1["tool_use id=toolu_A<br/>read_file shop/invoices.py"]
#         c2["tool_use id=toolu_B<br/>read_file shop/reports.py"]
#     end
#     subgraph U["user: одно сообщение в следующем запросе, результаты первыми"]
#         r1["tool_result<br/>tool_use_id=toolu_A"]
#         r2["tool_result<br/>tool_use_id=toolu_B"]
#     end
#     c1 -. "тот же id" .-> r1
#     c2 -. "тот же id" .-> r2
# ```
#
# API связывает результат с вызовом только по `tool_use_id`, так что порядок результатов курс выбирает сам: в порядке
# вызовов история читается так, как модель их запрашивала.

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
# What if each result goes in a user message of its own? The API accepts results split over several consecutive user
# messages: it merges them into one. They only have to come right after the response, all in the same request. So
# the API's rule holds, and no request fails.
#
# But the model reads the history. It sees that its parallel calls get answered one by one, and it makes them less
# often: the docs (*Parallel tool use*, its advice on the message history) warn that results sent in separate messages
# make parallel calls less likely. The sandbox's model is scripted to show this plainly, in one short run; a live
# model may drift more slowly. The loop below splits the results. Then it asks for the same review again, in the same
# conversation. Predict first: will the second review's reads still come in one response?

# %% [markdown] lang="ru"
# <!-- fact: split-results-merged -->
# ## Сломаем: разобьём результаты на части
#
# А если отправить каждый результат отдельным сообщением от user? API принимает результаты, разбитые на несколько
# идущих подряд сообщений от user: он объединяет их в одно. Нужно лишь, чтобы все они шли сразу после ответа, в одном
# запросе. Значит, правило API соблюдено, и ни один запрос не падает.
#
# Но модель читает историю. Она видит, что на её параллельные вызовы отвечают по одному, и делает их реже: в
# документации (раздел *Parallel tool use*, советы об истории сообщений) сказано, что результаты, разнесённые по
# отдельным сообщениям, делают параллельные вызовы менее вероятными. Модель песочницы запрограммирована показать это
# наглядно, за один короткий запуск; у настоящей модели эффект может проявляться медленнее. Цикл ниже разбивает
# результаты, а затем в том же диалоге просит сделать то же ревью ещё раз. Сначала предположите: запросит ли модель во
# втором ревью файлы по-прежнему в одном ответе?

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
        print("  tool calls in one response:", len(calls), "->",
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
        print("  вызовов инструментов в одном ответе:", len(calls), "->",
              [c.input.get("path", c.input.get("pr")) for c in calls])
        results = [tool_result(c) for c in calls]
        if split:
            for result in results:  # ошибка: по сообщению от user на каждый результат
                messages.append({"role": "user", "content": [result]})
        else:
            messages.append({"role": "user", "content": results})
    # ограничение: недоделанный запуск не выдаётся за готовый
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations})")


history = [{"role": "user", "content": "Проверь merge request !484."}]
print("первое ревью, результаты разнесены по сообщениям:")
loop(history, split=True)
history.append({"role": "user", "content": "Проверь merge request !484 ещё раз, пожалуйста."})
print("второе ревью в том же диалоге:")
loop(history, split=True)

# %% [markdown] lang="en"
# The second time, the model reads the files one per response. That means more round trips, more tokens and a slower
# agent. The fix is the loop's rule: all results of one turn in one user message.
#
# A live model may drift more slowly, or not at all in a run this short; the rule holds either way.
#
# Here are the same two reviews, with all results of a turn in one message:

# %% [markdown] lang="ru"
# Во второй раз модель читает файлы по одному за ответ. Это больше обращений к API, больше токенов и более медленный
# агент. Исправление — правило цикла: все результаты одного хода одним сообщением от user.
#
# С настоящей моделью эффект может проявиться позже, а в таком коротком запуске — не проявиться вовсе; правило
# действует в любом случае.
#
# Вот те же два ревью, но теперь все результаты хода идут одним сообщением:

# %% lang="en"
history = [{"role": "user", "content": "Review merge request !484."}]
print("first review, all results in one message:")
loop(history, split=False)
history.append({"role": "user", "content": "Review merge request !484 once more, please."})
print("second review in the same conversation:")
loop(history, split=False)

# %% lang="ru"
history = [{"role": "user", "content": "Проверь merge request !484."}]
print("первое ревью, все результаты одним сообщением:")
loop(history, split=False)
history.append({"role": "user", "content": "Проверь merge request !484 ещё раз, пожалуйста."})
print("второе ревью в том же диалоге:")
loop(history, split=False)

# %% [markdown] lang="en"
# ## Exercise
#
# Rewrite the loop of notebook 3 so that it:
#
# - runs the calls of a turn concurrently (with `run_all`);
# - keeps their order;
# - still returns all results in one message.
#
# **Predict first:** on !484, how many model calls will your grown loop make? Keep your guess: once your loop passes
# its check, run `review_concurrently(484)` in a cell of your own if you like, and then open the answer under the check.
#
# You do not copy your old loop: the exercise cell brings it. If your exercise 3 passed its check, the check kept it
# in `my_code/exercise_3.py`, next to this notebook. Run the exercise cell: it defines that loop here and puts its
# code into the cell, in place of the stub. Then grow it into `review_concurrently`. If you skipped exercise 3, the
# cell brings its reference solution instead, and says so.
#
# `review_concurrently` starts a history of its own. So the old `messages=None` parameter can go, with the lines that
# handle it.
#
# Exercise 3's message at the cap (how many tool calls, and which) is yours to keep. The later checks judge only that
# the loop stops at the cap, not what its error says.

# %% [markdown] lang="ru"
# ## Упражнение
#
# Перепишите цикл из блокнота 3 так, чтобы он:
#
# - выполнял вызовы одного хода параллельно (с помощью `run_all`);
# - сохранял их порядок;
# - по-прежнему возвращал все результаты одним сообщением.
#
# **Сначала предположите:** сколько вызовов модели сделает ваш доработанный цикл на !484? Запомните ответ. Когда цикл
# пройдёт проверку, запустите `review_concurrently(484)` в своей ячейке, а затем откройте ответ под проверкой.
#
# Старый цикл копировать не нужно: его подставит ячейка упражнения. Если ваше решение упражнения 3 прошло проверку,
# она сохранила его в `my_code/exercise_3.py`, рядом с этим блокнотом. Запустите ячейку упражнения: она выполнит
# этот цикл здесь и вставит его код на место заготовки. Дальше превратите его в `review_concurrently`. Если упражнение 3
# вы пропустили, ячейка подставит эталонное решение и скажет об этом.
#
# `review_concurrently` сам начинает новую историю. Поэтому прежний параметр `messages=None` и строки, которые его
# обрабатывают, можно убрать.
#
# Сообщение об ошибке из упражнения 3 (сколько было вызовов инструментов и каких) можно оставить как есть: дальнейшие
# проверки смотрят только на то, что цикл останавливается на ограничении, а текст ошибки не проверяют.

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


start_from(3, grow_into=review_concurrently)  # переносит в эту ячейку ваше решение упражнения 3 (или эталонное)

# %% [markdown] lang="en"
# ### Check your exercise
#
# The check runs **your** `review_concurrently` on !484 against a fresh sandbox. There each file read takes a second.
# The check watches how many reads are in flight at once: one after another, never more than one; at the same time,
# two. It does not time the run, so a busy machine does not matter. It also checks that the results keep the calls'
# order and go back in one message.
#
# Once it all passes, the check keeps your loop for notebook 5. Until you change the loop you brought, the check judges
# it as it is: the earlier rules pass, and this notebook's rows fail.
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
# gives the results in the order of `calls`. Which function above takes a turn's calls and gives back their results
# in order? Which lines of your loop would it replace?
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Проверка запускает **ваш** `review_concurrently` на !484 в свежей песочнице. Там каждое чтение файла занимает
# секунду. Проверка следит, сколько чтений идёт одновременно: по очереди — не больше одного, параллельно — два. Время
# она не измеряет, так что загруженная машина не мешает. Ещё она проверяет, что результаты идут в порядке вызовов
# и возвращаются одним сообщением.
#
# Когда всё пройдёт, проверка сохранит ваш цикл для блокнота 5. Пока вы не изменили цикл, перенесённый из прошлого
# блокнота, проверка оценивает его в том виде, в каком он пришёл: прежние правила выполнены, а требования этого
# блокнота — нет.
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
# результаты в порядке `calls`. Какая функция выше принимает вызовы хода и возвращает их результаты по порядку? Какие
# строки вашего цикла она заменит?
# </details>

# %%
from course_selfcheck.loop_exercises import check_exercise_4

check_exercise_4(review_concurrently)

# %% [markdown] lang="en"
# How many model calls did you predict for !484?
#
# <details><summary>Answer</summary>
#
# Three, like `first`, `second` and `third` at the top of this notebook: the first response asks for the diff, the
# second for both files at once (two `read_file` calls, which `run_all` runs together), and the third is the review,
# at `end_turn`. Running the calls concurrently saves waiting, not model calls: notebook 3's loop also needs three.
# </details>
#
# The reference solution, folded (a spoiler: open it once you have tried yours; after it, `print(solution_code(4))`
# prints it too).

# %% [markdown] lang="ru"
# Сколько вызовов модели на !484 вы предположили?
#
# <details><summary>Ответ</summary>
#
# Три, как `first`, `second` и `third` в начале блокнота: первый ответ запрашивает diff, второй — сразу оба файла (два
# вызова `read_file`, которые `run_all` выполняет одновременно), третий — само ревью, с `end_turn`. Параллельные
# вызовы экономят время ожидания, а не вызовы модели: циклу из блокнота 3 их тоже нужно три.
# </details>
#
# Ниже — эталонное решение в свёрнутом виде: откройте его, когда попробуете решить сами (когда ячейка ниже
# выполнится, его напечатает и `print(solution_code(4))`).

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
# To call tools in parallel less often. That means more round trips and more tokens. (So the docs warn; the sandbox
# shows it at its strongest.)
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 3. The model asked for three tools in one response. Your loop puts the three results in three user messages, one
#    each, and sends them all in the next request. What happens?
#    - (a) a 400: the API refuses split results
#    - (b) nothing fails, but the model asks for tools in parallel less often
#    - (c) the model gets only the first result
#
# <details><summary>Answer</summary>
#
# (b). All three results come right after the response, in the same request, so the API's rule holds. The API merges
# consecutive user messages, so nothing is refused (a) or lost (c). What changes is the model's behaviour, as the
# "Break it" cell showed.
# </details>
#
# 4. Your loop runs three calls of a turn at once. Two finish quickly, the third is slow. The loop sends a request
#    with the two results it has, so that the model can start on them. The third result is to follow in a later
#    request. What happens?
#    - (a) the model reads the two results and waits for the third
#    - (b) the request is refused: every `tool_use` needs its `tool_result` in that same request, right after the
#      response
#    - (c) nothing fails, as long as the third result follows in the next request
#
# <details><summary>Answer</summary>
#
# (b). This request breaks the API's rule: the API answers 400 and names the id left without a result. Split results
# are accepted only inside one request, as in question 3. The request is refused before the model sees it, so nobody
# waits (a). And a later request cannot bring the missing result (c). Wait for all three (`pool.map` does) and send
# them together, in one user message.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: every-tool-use-needs-result -->
# ## Проверьте себя
#
# 1. Модель запросила три файла в одном ответе. В скольких сообщениях от user вернутся результаты?
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
# Реже вызывать инструменты параллельно. А это больше запросов и больше токенов. (Так предупреждает документация;
# песочница показывает это в самом сильном виде.)
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 3. Модель запросила три инструмента в одном ответе. Ваш цикл кладёт три результата в три сообщения от user, по
#    одному в каждое, и отправляет их все в следующем запросе. Что произойдёт?
#    - (а) ошибка 400: API не принимает разбитые результаты
#    - (б) ничего не упадёт, но модель станет реже запрашивать инструменты параллельно
#    - (в) модель получит только первый результат
#
# <details><summary>Ответ</summary>
#
# (б). Все три результата идут сразу после ответа, в одном запросе, так что правило API соблюдено. Идущие подряд
# сообщения от user API объединяет, поэтому ничего не отклоняется (а) и не теряется (в). Меняется поведение модели —
# это показала ячейка «Сломаем».
# </details>
#
# 4. Ваш цикл выполняет три вызова одного хода одновременно. Два заканчиваются быстро, третий медленный. Цикл
#    отправляет запрос с двумя готовыми результатами, чтобы модель начала с ними работать. Третий результат он
#    собирается отправить следующим запросом. Что произойдёт?
#    - (а) модель прочитает два результата и подождёт третий
#    - (б) запрос отклонят: у каждого `tool_use` должен быть свой `tool_result` в этом же запросе, сразу после ответа
#    - (в) ничего не упадёт, если третий результат придёт следующим запросом
#
# <details><summary>Ответ</summary>
#
# (б). Такой запрос нарушает правило API: API ответит ошибкой 400 и назовёт id, оставшийся без результата.
# Разбитые результаты принимаются, только если все они в одном запросе, как в вопросе 3. Запрос отклоняется раньше,
# чем его увидит модель, поэтому ждать некому (а). А следующий запрос недостающий результат уже не доставит (в).
# Дождитесь всех трёх (`pool.map` так и делает) и отправьте их вместе, одним сообщением от user.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - One response may hold several `tool_use` blocks: run them all.
# - Run them concurrently; keep the results in the order of the calls.
# - Every `tool_use` needs its `tool_result` in the next request, right after the response, or the API answers 400.
# - Return all results of a turn in ONE user message. Split, they are accepted, but the model calls in parallel less
#   often.

# %% [markdown] lang="ru"
# ## Итоги
#
# - В одном ответе может быть несколько блоков `tool_use`: выполните их все.
# - Выполняйте их параллельно; сохраняйте результаты в порядке вызовов.
# - У каждого `tool_use` должен быть свой `tool_result` в следующем запросе, сразу после ответа, иначе API ответит
#   ошибкой 400.
# - Возвращайте все результаты одного хода ОДНИМ сообщением от user. Разбитые на части, они будут приняты, но модель
#   станет реже делать параллельные вызовы.

# %% [markdown] lang="en"
# ## Take it home
#
# The reviewer as this notebook leaves it (the calls of a turn run at once), whole, is in the cell below and in
# `examples/en/review_after_04.py`. As with notebook 3's "Take it home" (what it needs, how to run it): run it last,
# since it defines its own client, tools and loop.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# Весь ревьюер в том виде, к которому пришёл этот блокнот (вызовы одного хода выполняются одновременно), — в ячейке ниже
# и в `examples/ru/review_after_04.py`. Всё как в разделе «Возьмите с собой» блокнота 3 (что ему нужно и как его
# запустить): выполняйте эту ячейку последней, ведь в ней свои клиент, инструменты и цикл.

# %% use="take_home_setup"

# %% use="take_home_4"
