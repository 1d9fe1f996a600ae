# %% [markdown] lang="en"
# # 5. Errors
#
# **You will learn**
# - that a tool error is a **result** (`is_error: true` plus a message), not an exception that kills the loop;
# - how to make your own loop of notebook 4 survive a failing tool;
# - which API errors are transient, and that the SDK already retries them.
#
# *About 40 minutes. Builds on notebook 4.*
#
# <!-- rules-so-far -->

# %% [markdown] lang="ru"
# # 5. Ошибки
#
# **Вы узнаете**
# - что ошибка инструмента — это **результат** (`is_error: true` и сообщение), а не исключение, которое обрывает цикл;
# - как научить свой цикл из блокнота 4 переживать сбой инструмента;
# - какие ошибки API временные — и что SDK уже сам повторяет такие запросы.
#
# *Около 40 минут. Опирается на блокнот 4.*
#
# <!-- rules-so-far -->

# %% use="setup"

# %% use="lesson_tools"

# %% [markdown] lang="en"
# ## Break it: a tool that fails
#
# Merge request !999 does not exist: GitLab answers 404. Below is notebook 4's loop: the calls of a turn run at once
# (`pool.map(answer, calls)`), and all their results go back in one message. Its function for one call,
# `plain_tool_result`, runs the tool and nothing more, as notebook 4's `tool_result` does. (Demo functions get names
# of their own, so that the functions of your exercise stay yours.)
#
# **Predict, then run:** the model asks for the diff of !999, and `run_tool` raises on the 404. What does
# `review(999)` give you: the model's answer, or something else?

# %% [markdown] lang="ru"
# ## Сломаем: инструмент, который падает
#
# Merge request !999 не существует: GitLab отвечает 404. Ниже — цикл из блокнота 4: вызовы хода выполняются
# одновременно (`pool.map(answer, calls)`), а все их результаты уходят одним сообщением. Функция, которая отвечает
# на один вызов, здесь называется `plain_tool_result`: как и `tool_result` в блокноте 4, она только выполняет
# инструмент — и ничего больше. (У функций из примеров свои имена, чтобы функции вашего упражнения оставались
# вашими.)
#
# **Сначала предположите, потом запустите:** модель запрашивает diff для !999, а `run_tool` в ответ на 404 выбрасывает
# исключение. Что вернёт `review(999)`: ответ модели или что-то другое?

# %% lang="en"
from concurrent.futures import ThreadPoolExecutor


def plain_tool_result(call) -> dict:
    """The tool_result block that answers one call, as in notebook 4: no try, so a failing tool raises."""
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def review(pr_number: int, max_iterations: int = 20, answer=plain_tool_result) -> str:
    """Notebook 4's loop: each call of a turn answered by `answer` (plain_tool_result unless you pass another)."""
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        messages.append({"role": "assistant", "content": response.content})  # the whole response, every time
        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        if response.stop_reason != "tool_use":  # as in notebook 3: any other stop is an error (notebook 6)
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")
        calls = [block for block in response.content if block.type == "tool_use"]
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(answer, calls))  # at once, in the calls' order
        messages.append({"role": "user", "content": results})  # all results in one message
    raise RuntimeError(f"No answer after {max_iterations} iterations")


try:
    review(999)
except Exception as error:
    print("the run is over:", type(error).__name__, error)

# %% lang="ru"
from concurrent.futures import ThreadPoolExecutor


def plain_tool_result(call) -> dict:
    """Блок tool_result, который отвечает на один вызов, как в блокноте 4: без try, так что упавший инструмент
    выбрасывает исключение."""
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def review(pr_number: int, max_iterations: int = 20, answer=plain_tool_result) -> str:
    """Цикл из блокнота 4: на каждый вызов хода отвечает функция `answer` (plain_tool_result, если не передать
    другую)."""
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        messages.append({"role": "assistant", "content": response.content})  # весь ответ, каждый раз
        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        if response.stop_reason != "tool_use":  # как в блокноте 3: другая остановка — ошибка (подробно — в блокноте 6)
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")
        calls = [block for block in response.content if block.type == "tool_use"]
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(answer, calls))  # одновременно, в порядке вызовов
        messages.append({"role": "user", "content": results})  # все результаты одним сообщением
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations})")


try:
    review(999)
except Exception as error:
    print("запуск оборвался:", type(error).__name__, error)

# %% [markdown] lang="en"
# ## Exercise: your loop survives a failing tool
#
# Your loop of notebook 4 comes back, and from here on it grows in every notebook: notebook 6 adds every stop reason,
# notebook 7 the human's approval, notebook 8 the cost. In it a tool's exception still ends the whole run, as in
# "Break it" above: the exception leaves the pool, then the loop, and the model never learns what happened. The rule
# this notebook adds is that **a tool error is a result**. Grow your loop so that a failing tool never ends the run:
#
# - where a tool runs, catch whatever it raises (a call of a tool that does not exist too);
# - send that back as the call's `tool_result`, with `"is_error": True` and what went wrong (the error's type and
#   message) as its `content`.
#
# Then review !999 with it: what does the model write?
#
# Run the exercise cell: it puts your exercise 4 (or its reference solution, if you skipped it, and it says so) in
# place of the stub, renamed `review_safely`, for you to grow.

# %% [markdown] lang="ru"
# ## Упражнение: ваш цикл переживает сбой инструмента
#
# Возвращается ваш цикл из блокнота 4, и дальше он будет расти в каждом блокноте: в блокноте 6 к нему добавятся все
# причины остановки, в блокноте 7 — подтверждение человеком, в блокноте 8 — учёт стоимости. Сейчас исключение
# инструмента в нём обрывает весь запуск, как в разделе «Сломаем» выше: исключение выходит из пула потоков, потом из
# цикла, и модель так и не узнаёт, что произошло. Правило этого блокнота: **ошибка инструмента — тоже результат**.
# Доработайте цикл так, чтобы сбой инструмента никогда не обрывал запуск:
#
# - там, где выполняется инструмент, перехватите всё, что он выбрасывает (и вызов несуществующего инструмента тоже);
# - отправьте это обратно как `tool_result` этого вызова — с `"is_error": True` и описанием того, что пошло не так
#   (тип ошибки и её текст), в `content`.
#
# Затем проведите с ним ревью !999: что напишет модель?
#
# Выполните ячейку упражнения: она подставит на место заготовки ваше решение упражнения 4 (или эталонное, если вы
# упражнение пропустили, — и скажет об этом) под именем `review_safely`, а вы его доработаете.

# %% lang="en"
from course_agent.my_code import start_from


def review_safely(pr_number: int, max_iterations: int = 20) -> str:
    """Your loop of notebook 4, in which a failing tool goes back to the model as a result with is_error."""
    raise NotImplementedError("your code here")


start_from(4, grow_into=review_safely)  # brings your exercise 4 (or its reference) into this cell

# %% lang="ru"
from course_agent.my_code import start_from


def review_safely(pr_number: int, max_iterations: int = 20) -> str:
    """Ваш цикл из блокнота 4, в котором сбой инструмента возвращается модели как результат с is_error."""
    raise NotImplementedError("напишите здесь свой код")


start_from(4, grow_into=review_safely)  # переносит в эту ячейку ваше решение упражнения 4 (или эталонное)

# %% [markdown] lang="en"
# ### Check your exercise
#
# The check runs **your** `review_safely` against fresh sandboxes:
#
# - on !999, which does not exist (GitLab answers 404);
# - on a review in which the model calls a tool without its arguments (a `TypeError`, not an error of GitLab's);
# - on a review in which the model asks for a tool your loop does not offer (`search_code`);
# - each failure must go back to the model as a `tool_result` with `is_error`, and the run must go on to the model's
#   answer; a call that worked goes back as it is, without `is_error`;
# - the rules of notebooks 3 and 4 are checked again on the same loop.
#
# Once it all passes, the check keeps your loop for notebook 6. Until you change the loop you brought, the check judges
# it as it is: the earlier rules pass, and this notebook's rows fail.
#
# <details><summary>Hint 1</summary>
#
# Where in your loop does a tool run? What happens there when the tool raises: who catches the exception, and what
# does the model get for that call?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Find the function your loop runs once per call, each in a thread of the pool (in the reference of exercise 4 it is
# `tool_result(call)`). Python's `try:` runs a block, and `except Exception as error:` catches whatever that block
# raised: put the call of the tool in the `try`, and make the `except` branch return a result instead of letting
# the error go.
# </details>
#
# <details><summary>Hint 3</summary>
#
# The pool calls one function per call. What happens to the other calls of the turn if the `try` sits around the
# pool instead of inside that function? And what must the block your `except` returns hold, so that the model can
# tell which call failed, that it failed, and why?
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Проверка запускает **ваш** `review_safely` в свежих песочницах:
#
# - на !999, которого не существует (GitLab отвечает 404);
# - на ревью, в котором модель вызывает инструмент без аргументов (это `TypeError`, а не ошибка GitLab);
# - на ревью, в котором модель запрашивает инструмент, которого ваш цикл не предлагает (`search_code`).
#
# Каждый сбой должен вернуться модели как `tool_result` с `is_error`, а запуск — дойти до ответа модели; удачный
# вызов возвращается как есть, без `is_error`. Правила
# блокнотов 3 и 4 проверяются на том же цикле ещё раз.
#
# Когда всё пройдёт, проверка сохранит ваш цикл для блокнота 6. Пока вы не изменили цикл, перенесённый из прошлого
# блокнота, проверка оценивает его в том виде, в каком он пришёл: прежние правила выполнены, а требования этого
# блокнота — нет.
#
# <details><summary>Подсказка 1</summary>
#
# Где в вашем цикле выполняется инструмент? Что там происходит, когда он выбрасывает исключение: кто его перехватывает
# и что модель получает в ответ на этот вызов?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Найдите функцию, которую ваш цикл выполняет по разу на вызов, каждый раз в отдельном потоке пула (в эталонном
# решении упражнения 4 это `tool_result(call)`). В Python `try:` выполняет блок кода, а `except Exception as error:`
# перехватывает всё, что этот блок выбросил. Поместите вызов инструмента в `try`, а в ветке `except` верните
# результат, а не выпускайте исключение наружу.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Пул вызывает одну функцию на каждый вызов инструмента. Что станет с остальными вызовами хода, если `try` окружает
# весь пул, а не стоит внутри этой функции? И что должно быть в блоке, который возвращает ваш `except`, чтобы модель
# поняла, какой вызов упал, что он упал и почему?
# </details>

# %%
from course_selfcheck.loop_exercises import check_exercise_5

check_exercise_5(review_safely)

# %% [markdown] lang="en"
# The reference solution, folded (a spoiler: open it once you have tried yours; after it, `print(solution_code(5))`
# prints it too).

# %% [markdown] lang="ru"
# Ниже — эталонное решение в свёрнутом виде: откройте его, когда попробуете решить сами (когда ячейка ниже
# выполнится, его напечатает и `print(solution_code(5))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(5)


# %% [markdown] lang="en"
# <!-- fact: tool-error-is-error -->
# ## A tool error is a result
#
# Here is the fix, as in the reference above, in a function of its own, `safe_tool_result`: the tool runs inside a
# `try`, and any failure becomes a `tool_result` with `is_error: true` and a message. Nothing escapes, so the loop goes
# on. The model reads the message and tells you plainly that there is no such merge request. `review` is unchanged: it
# is given the safe function with `answer=`, as notebook 4's `run_all` was given the slow one.

# %% [markdown] lang="ru"
# <!-- fact: tool-error-is-error -->
# ## Ошибка инструмента — тоже результат
#
# Вот исправление, как в эталонном решении выше, — в отдельной функции `safe_tool_result`: инструмент выполняется
# внутри `try`, а любой сбой превращается в `tool_result` с `is_error: true` и сообщением. Наружу ничего не выходит,
# и цикл продолжается. Модель читает сообщение и прямо пишет, что такого merge request нет. `review` не менялся:
# безопасную функцию ему передают через `answer=` — так же, как в блокноте 4 в `run_all` передавали медленную.

# %% lang="en"
def safe_tool_result(call) -> dict:
    """The tool_result block that answers one call: a failure too, with is_error, never an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:  # GitLab's 404, a missing file, a bug in the tool: all of them
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


print(review(999, answer=safe_tool_result))

# %% lang="ru"
def safe_tool_result(call) -> dict:
    """Блок tool_result, который отвечает на один вызов: и на сбой тоже, с is_error, а не исключением."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:  # 404 от GitLab, отсутствующий файл, ошибка в самом инструменте — любой сбой
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} завершился ошибкой: {type(error).__name__}: {error}"}


print(review(999, answer=safe_tool_result))

# %% [markdown] lang="en"
# <!-- fact: sdk-retries -->
# ## Transient API errors and the SDK's retries
#
# Some failures pass by themselves: 429 (rate limit), 500, 529 (overloaded), a dropped connection. The SDK retries
# them for you:
#
# - 2 retries by default (`max_retries`);
# - with backoff: it waits longer before each new try;
# - honouring `retry-after`, the header in which the server says how many seconds to wait.
#
# The sandbox can inject such faults on demand. These cells need the sandbox: with the real API, faults cannot be
# ordered. `sandbox.faults.pending()` lists the faults the sandbox has not served yet.
#
# **Predict, then run:** the sandbox answers 529 twice, then normally. How many requests leave your process, and
# does your code see an exception?

# %% [markdown] lang="ru"
# <!-- fact: sdk-retries -->
# ## Временные ошибки API и повторы в SDK
#
# Некоторые сбои проходят сами: 429 (превышено ограничение частоты запросов), 500, 529 (API перегружен), обрыв
# соединения. SDK сам повторяет такие запросы:
#
# - по умолчанию 2 повтора (`max_retries`);
# - с нарастающей задержкой: перед каждой новой попыткой ждёт дольше;
# - с учётом `retry-after` — заголовка ответа, в котором сервер сообщает, через сколько секунд повторить запрос.
#
# Песочница умеет устраивать такие сбои по запросу. Этим ячейкам нужна песочница: у настоящего API сбой не заказать.
# `sandbox.faults.pending()` — список сбоев, которые песочница ещё не устроила.
#
# **Сначала предположите, потом запустите:** песочница дважды отвечает 529, а потом нормально. Сколько запросов уйдёт
# из вашего процесса и увидит ли ваш код исключение?

# %% lang="en"
from course_agent.client import shared_sandbox, using_sandbox

if using_sandbox():
    sandbox = shared_sandbox()
    sandbox.faults.overloaded(times=2)  # the next two requests get 529
    reply = client.messages.create(model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Hello"}])
    print("529s not served yet:", len(sandbox.faults.pending()), "| exception seen by your code: none |",
          "stop_reason:", reply.stop_reason)
else:
    print("Skipped: faults can be ordered only from the offline sandbox, not from the live API.")

# %% lang="ru"
from course_agent.client import shared_sandbox, using_sandbox

if using_sandbox():
    sandbox = shared_sandbox()
    sandbox.faults.overloaded(times=2)  # следующие два запроса получат 529
    reply = client.messages.create(model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Привет"}])
    print("сбоев 529 в очереди песочницы:", len(sandbox.faults.pending()), "| исключений в вашем коде: нет |",
          "stop_reason:", reply.stop_reason)
else:
    print("Пропущено: заказать сбой можно только у офлайн-песочницы, не у настоящего API.")

# %% [markdown] lang="en"
# <!-- fact: overloaded-error -->
# Both 529s were served, and your code saw no exception: the SDK sent the request three times, and the third got the
# answer.
#
# With retries switched off (`client.with_options(max_retries=0)` is a copy of the client with that one setting
# changed), the same fault reaches your code as `anthropic.OverloadedError`. An error that survives the retries is a
# real failure of the run: stop, keep the history, report.

# %% [markdown] lang="ru"
# <!-- fact: overloaded-error -->
# Оба сбоя 529 случились, а ваш код исключения не увидел: SDK отправил запрос трижды, и на третий пришёл ответ.
#
# Если отключить повторы (`client.with_options(max_retries=0)` — копия клиента, у которой изменена только эта
# настройка), тот же сбой дойдёт до вашего кода как `anthropic.OverloadedError`. Если ошибка осталась и после всех
# повторов, это настоящий сбой запуска: остановитесь, сохраните историю и сообщите об ошибке.

# %% lang="en"
if using_sandbox():
    sandbox.faults.overloaded(times=1)
    try:
        client.with_options(max_retries=0).messages.create(
            model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Hello"}])
    except anthropic.OverloadedError as error:
        print(type(error).__name__, error.status_code, error.body["error"]["message"])
else:
    print("Skipped: faults can be ordered only from the offline sandbox, not from the live API.")

# %% lang="ru"
if using_sandbox():
    sandbox.faults.overloaded(times=1)
    try:
        client.with_options(max_retries=0).messages.create(
            model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Привет"}])
    except anthropic.OverloadedError as error:
        print(type(error).__name__, error.status_code, error.body["error"]["message"])
else:
    print("Пропущено: заказать сбой можно только у офлайн-песочницы, не у настоящего API.")

# %% [markdown] lang="en"
# ## Check yourself
#
# 1. Your loop catches a tool's exception and sends back
#    `{"type": "tool_result", "tool_use_id": call.id, "content": "not found"}`, with no `is_error`. What does the
#    model miss?
#
# <details><summary>Answer</summary>
#
# That the call failed: without `is_error: true`, "not found" reads like what the tool returned when it worked (a
# search that found nothing, say). Set `is_error: true`, and say what failed.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 2. `read_file` raised `FileNotFoundError` inside your loop. What is the best next step?
#    - (a) let the exception end the run
#    - (b) send a `tool_result` with `is_error: true` that says what failed, and go on
#    - (c) drop that `tool_use` from the history and call the model again
#
# <details><summary>Answer</summary>
#
# (b). Ending the run loses the whole review over one file. Dropping the `tool_use` breaks the loop's first rule (the
# response goes into the history whole) and hides the failure: the model never learns that the file is missing, so it
# is likely to ask for it again. With (b) the model reads the error and can try another way.
# </details>
#
# 3. The API answered `529 overloaded`. What does the SDK do?
#    - (a) retries it, as it retries every failed request, 400s included
#    - (b) retries with a growing pause (twice, by default) before it raises; a 400 it raises at once
#    - (c) hands the 529 to your loop as a `tool_result` with `is_error: true`, for the model to read
#
# <details><summary>Answer</summary>
#
# (b). Overloads and rate limits are retried for you (`max_retries`, 2 by default), with a pause that grows; your code
# gets an exception (`OverloadedError`) only when the retries run out. (c) mixes up two kinds of failure: `is_error` is
# what your loop sends when a tool fails, while a 529 is the API's answer to the request itself, and no tool ran.
# (a) goes too far: a 400 says the request itself is wrong, and the same request would get the same 400, so the SDK
# raises it at once. What the SDK retries (anthropic 2.16, read in its source): 408 (the request timed out), 409 (a
# lock timed out), 429 (rate limit), every 5xx (529 included), a timeout on your side and a dropped connection; and a
# server can say either way itself, with an `x-should-retry: true` or `false` header. Anything else it raises at once.
# </details>
#
# 4. Your loop runs three calls of a turn at once (notebook 4), and the second one raises. What does the next user
#    message hold?
#    - (a) the two results that succeeded
#    - (b) three `tool_result` blocks, the failed one with `is_error: true` and what went wrong
#    - (c) a text that says one call failed and asks the model to try again
#
# <details><summary>Answer</summary>
#
# (b). Every `tool_use` needs its `tool_result` in the next message (notebook 4): with (a) or (c) the API answers 400
# and names the id left without a result. The failed call's result says what went wrong, and the model decides what to
# do about it.
# </details>

# %% [markdown] lang="ru"
# ## Проверьте себя
#
# 1. Ваш цикл перехватывает исключение инструмента и возвращает
#    `{"type": "tool_result", "tool_use_id": call.id, "content": "не найдено"}` без `is_error`. Чего не узнает
#    модель?
#
# <details><summary>Ответ</summary>
#
# Что вызов не удался: без `is_error: true` «не найдено» выглядит как то, что инструмент вернул, когда сработал
# (скажем, поиск, который ничего не нашёл). Поставьте `is_error: true` и скажите, что именно не получилось.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 2. `read_file` выбросил `FileNotFoundError` внутри вашего цикла. Что лучше всего сделать?
#    - (а) дать исключению завершить запуск
#    - (б) отправить `tool_result` с `is_error: true`, где сказано, что не получилось, и продолжить
#    - (в) убрать этот `tool_use` из истории и снова вызвать модель
#
# <details><summary>Ответ</summary>
#
# (б). Завершив запуск, вы потеряете всё ревью из-за одного файла. А если убрать `tool_use` из истории, нарушится
# первое правило цикла (ответ модели добавляется в историю целиком) и сбой останется скрыт: модель так и не узнает,
# что файла нет, и, скорее всего, запросит его снова. При (б) модель прочитает ошибку и сможет пойти другим путём.
# </details>
#
# 3. API ответил `529 overloaded`. Что делает SDK?
#    - (а) повторяет запрос — как и любой другой неудавшийся запрос, в том числе с ошибкой 400
#    - (б) повторяет запрос с нарастающей задержкой (по умолчанию дважды) и только потом выбрасывает исключение;
#      при ошибке 400 исключение выбрасывается сразу
#    - (в) передаёт ошибку 529 вашему циклу как `tool_result` с `is_error: true`, чтобы её прочитала модель
#
# <details><summary>Ответ</summary>
#
# (б). Запросы, на которые API ответил перегрузкой или превышением ограничения частоты, SDK повторяет за вас
# (`max_retries`, по умолчанию 2), и пауза между попытками растёт; исключение (`OverloadedError`) ваш код получит,
# только когда попытки кончатся. В (в) смешаны два разных сбоя: `is_error` ваш цикл отправляет, когда не сработал
# инструмент, а 529 — это ответ API на сам запрос, и никакой инструмент при этом не выполнялся. В (а) правило растянуто
# слишком широко: ошибка 400 значит, что неверен сам запрос, и тот же запрос снова получит 400, поэтому при ней SDK
# сразу выбрасывает исключение. Что именно повторяет SDK (версия 2.16, по её исходному коду): 408 (истекло время
# ожидания запроса), 409 (истекло время ожидания блокировки), 429 (превышено ограничение частоты запросов), любую ошибку
# 5xx (и 529 тоже), а ещё истёкший тайм-аут на вашей стороне и оборванное соединение. Кроме того, сервер может сам
# указать, повторять ли запрос: заголовком `x-should-retry: true` или `false`. Всё остальное SDK сразу
# выбрасывает как исключение.
# </details>
#
# 4. Ваш цикл выполняет три вызова одного хода одновременно (блокнот 4), и второй выбрасывает исключение. Что будет в
#    следующем сообщении от user?
#    - (а) два результата, которые получились
#    - (б) три блока `tool_result`, причём в неудавшемся стоит `is_error: true` и сказано, что пошло не так
#    - (в) текст о том, что один вызов не удался, с просьбой к модели попробовать ещё раз
#
# <details><summary>Ответ</summary>
#
# (б). На каждый `tool_use` нужен свой `tool_result` в следующем сообщении (блокнот 4): при (а) и (в) API ответит
# ошибкой 400 и назовёт id, оставшийся без результата. Результат неудавшегося вызова сообщает, что пошло не
# так, а что с этим делать, решает модель.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - Tool failures go back to the model as `tool_result` with `is_error: true`; the loop survives.
# - 429, 5xx, 529 and dropped connections are retried by the SDK; what survives the retries is yours to handle.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Сбои инструментов возвращаются модели как `tool_result` с `is_error: true`; цикл продолжает работу.
# - 429, 5xx, 529 и обрывы соединения SDK повторяет сам; ошибку, которая осталась и после повторов, обрабатываете вы.

# %% [markdown] lang="en"
# ## Take it home
#
# The reviewer as this notebook leaves it (a tool's failure goes back as a result), whole, is in the cell below and in
# `examples/en/review_after_05.py`. As with notebook 3's "Take it home" (what it needs, how to run it): run it last,
# since it defines its own client, tools and loop.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# Весь ревьюер в том виде, к которому пришёл этот блокнот (сбой инструмента возвращается как результат), — в ячейке ниже
# и в `examples/ru/review_after_05.py`. Всё как в разделе «Возьмите с собой» блокнота 3 (что ему нужно и как его
# запустить): выполняйте эту ячейку последней, ведь в ней свои клиент, инструменты и цикл.

# %% use="take_home_setup"

# %% use="take_home_5"
