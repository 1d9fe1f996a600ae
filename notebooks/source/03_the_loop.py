# %% [markdown] lang="en"
# # 3. The loop
#
# **You will learn**
# - that an agent is `messages.create` called in a loop, with your code running tools in between;
# - that every iteration sends the whole history again, so each costs more than the one before;
# - why nobody knows in advance how many iterations a task takes (agent versus workflow);
# - why the loop needs a cap on iterations.
#
# The cell under "Take it home" holds the whole loop in one piece, with its client and tools. It needs only
# `anthropic` and `python-gitlab`. Copy it into a notebook or a `.py` file of your own.
#
# *About 45 minutes. Builds on notebook 2.*
#
# <!-- rules-so-far -->

# %% [markdown] lang="ru"
# # 3. Цикл
#
# **Вы узнаете**
# - что агент — это `messages.create`, вызываемый в цикле, а между вызовами ваш код выполняет инструменты;
# - что каждая итерация заново отправляет всю историю, поэтому каждая следующая дороже предыдущей;
# - почему никто заранее не знает, сколько итераций займёт задача, и чем агент отличается от жёсткого сценария
#   (workflow);
# - зачем циклу ограничение на число итераций.
#
# В ячейке под заголовком «Возьмите с собой» — весь цикл одним куском, вместе с клиентом и инструментами. Ей нужны
# только `anthropic` и `python-gitlab`. Скопируйте её в свой блокнот или `.py`-файл.
#
# *Около 45 минут. Опирается на блокнот 2.*
#
# <!-- rules-so-far -->

# %% use="setup"

# %% use="gitlab"

# %% [markdown] lang="en"
# Two tools, as in notebook 2's exercise: `get_diff` for the changes and `read_file` for context. A dispatcher,
# `run_tool`, picks the function by name, as in notebook 2. Its table is now `FUNCTIONS`, in capitals: from here on it
# is a module-level table that the loop only reads, as `TOOLS` is. `get_diff` now also gives the merge request's
# description. Those are the author's words, and the model should read them too.

# %% [markdown] lang="ru"
# Два инструмента, как в упражнении блокнота 2: `get_diff` для изменений и `read_file` для контекста. Диспетчер
# `run_tool` выбирает функцию по имени, как в блокноте 2. Его таблица теперь называется `FUNCTIONS`, заглавными
# буквами: дальше это таблица уровня модуля, которую цикл только читает, как и `TOOLS`. Теперь `get_diff` отдаёт и
# описание merge request. Это слова автора, и модели их тоже стоит прочесть.

# %% use="tools"

# %% [markdown] lang="en"
# <!-- fact: system-prompt -->
# The reviewer's standing instructions go in `system=`, the system prompt. It is sent with every request, apart from the
# messages, and the model reads it before them. Ours says where to start, when to read more, and how to end.
#
# `REVIEW_RULES` holds the reviewer's rules, for the model. The loop's rules in the card above are different: they are
# rules for your code.

# %% [markdown] lang="ru"
# <!-- fact: system-prompt -->
# Постоянные указания ревьюеру передаются в `system=` — это системный промпт: он уходит с каждым запросом отдельно от
# сообщений, и модель читает его раньше них. Наш промпт говорит, с чего начать, когда читать дальше и чем закончить.
#
# В `REVIEW_RULES` — правила ревьюера, для модели. Правила цикла в карточке выше — другие: это правила для вашего
# кода.

# %% use="review_rules"

# %% [markdown] lang="en"
# ## The loop
#
# It reads like a skeleton of what an agent is: the rounds you wrote by hand in exercise 2, rolled into one loop.
# One iteration is one request to the model. When the model asks for tools:
#
# 1. the response goes into the history whole;
# 2. every requested tool runs;
# 3. the results go back in a user message.
#
# The loop ends in one of three ways:
#
# - at `end_turn` it returns the answer;
# - at any other stop reason it raises an error;
# - at the cap on iterations it raises an error too.
#
# *Python note:* `"\n".join(block.text for block in ...)` is a generator expression: a list comprehension without the
# list. It gives its items one at a time to `join`, which reads them once. Inside a call's parentheses it needs no
# brackets of its own. The course writes it so from here on.
#
# ```mermaid
# flowchart LR
#     M["messages"] --> C["client.messages.create"]
#     C -- "stop_reason: tool_use" --> T["append the response whole,<br/>run every tool"]
#     T -- "the tool_results in a user message" --> M
#     C -- "end_turn" --> A["return the text"]
#     C -- "max_tokens or another stop reason" --> E["stop with a clear error"]
#     M -- "more iterations than the cap" --> E
# ```

# %% [markdown] lang="ru"
# ## Цикл
#
# В нём виден скелет любого агента: круги, которые вы писали вручную в упражнении 2, свёрнутые в один цикл.
# Одна итерация — это один запрос к модели. Когда модель запрашивает инструменты:
#
# 1. ответ модели добавляется в историю целиком;
# 2. выполняется каждый запрошенный инструмент;
# 3. результаты возвращаются сообщением от user.
#
# Заканчивается цикл одним из трёх способов:
#
# - при `end_turn` он возвращает ответ;
# - при любой другой причине остановки выбрасывает исключение;
# - при достижении ограничения на число итераций тоже выбрасывает исключение.
#
# *Заметка о Python:* `"\n".join(block.text for block in ...)` — это генераторное выражение: то же, что генератор
# списка, только без самого списка. Оно отдаёт элементы по одному, а `join` читает их один раз. Внутри круглых скобок
# вызова собственные скобки ему не нужны. Дальше в курсе оно записано именно так.
#
# ```mermaid
# flowchart LR
#     M["messages"] --> C["client.messages.create"]
#     C -- "stop_reason: tool_use" --> T["ответ — в историю целиком,<br/>выполнить все инструменты"]
#     T -- "tool_result в сообщении от user" --> M
#     C -- "end_turn" --> A["вернуть текст"]
#     E["остановиться с понятной ошибкой"]
#     C -- "max_tokens или другая причина остановки" --> E
#     M -- "итераций больше ограничения" --> E
# ```

# %% lang="en"
def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    """The loop: call the model, run what it asks for, repeat until it is done."""
    if messages is None:  # no history given: start a new one
        messages = []
    messages.append({"role": "user", "content": f"Review merge request !{pr_number}."})

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )

        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})  # keep the answer in the history
            return "\n".join(block.text for block in response.content if block.type == "text")

        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")

        # 1. The model's response goes into the history whole
        messages.append({"role": "assistant", "content": response.content})

        # 2. Run every tool it asked for
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": run_tool(block.name, block.input),
            })

        # 3. The results go back in a user message
        messages.append({"role": "user", "content": results})

    raise RuntimeError(f"No answer after {max_iterations} iterations")

# %% lang="ru"
def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    """Цикл: вызвать модель, запустить инструменты, которые она запросила, повторять до конца."""
    if messages is None:  # историю не передали: начинаем новую
        messages = []
    messages.append({"role": "user", "content": f"Проверь merge request !{pr_number}."})

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )

        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})  # ответ тоже сохраняем в истории
            return "\n".join(block.text for block in response.content if block.type == "text")

        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")

        # 1. Ответ модели добавляем в историю целиком
        messages.append({"role": "assistant", "content": response.content})

        # 2. Выполняем все запрошенные инструменты
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": run_tool(block.name, block.input),
            })

        # 3. Результаты — сообщением от user
        messages.append({"role": "user", "content": results})

    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations})")

# %% [markdown] lang="en"
# ## Watch the messages list grow
#
# `MessagesView` shows the list as cards while the loop runs. Your loop appends to `view.messages` as to any list.
# Passing the client is optional: with it, the view labels each response with its stop reason and token counts.
# A `tool_use` and its `tool_result` share a colour and an id.
#
# **Predict, then run.** !482 changes a function that another file calls. How many messages will the list hold when
# the review is done, and how many requests will the loop have sent? Guess before you run the two cells.

# %% [markdown] lang="ru"
# ## Посмотрите, как растёт список сообщений
#
# `MessagesView` показывает список в виде карточек прямо во время работы цикла. Ваш цикл добавляет элементы
# в `view.messages`, как в любой список. Передавать клиент необязательно: с ним виджет подписывает каждый ответ
# причиной остановки и количеством токенов. У блока `tool_use` и его `tool_result` общий цвет и общий id.
#
# **Сначала предположите, потом запустите:** !482 меняет функцию, которую вызывает другой файл. Сколько сообщений
# окажется в списке, когда ревью закончится, и сколько запросов отправит цикл? Ответьте до запуска двух ячеек.

# %%
from course_agent.widgets import MessagesView

view = MessagesView(client=client)
view

# %%
review = review_pull_request(482, messages=view.messages)
print(review)

# %% [markdown] lang="en"
# <!-- fact: whole-history-every-request -->
# ## Every iteration sends the whole history again
#
# Each request carries everything before it: the rules, the tools and every message so far. So the input of each
# iteration is larger than the one before. What a run costs is the sum of all of them. Here are the input tokens of
# each request of the run above:

# %% [markdown] lang="ru"
# <!-- fact: whole-history-every-request -->
# ## Каждая итерация заново отправляет всю историю
#
# В каждом запросе — всё, что было до него: правила, инструменты и все сообщения. Поэтому вход каждой итерации больше
# предыдущего. А стоимость запуска — сумма по всем итерациям. Вот входные токены каждого запроса из запуска выше:

# %% lang="en"
from course_agent.usage_chart import usage_rows

for row in usage_rows(view):  # one row per request of the run
    print(f"request {row.iteration}: {row.sent} input tokens")

# %% lang="ru"
from course_agent.usage_chart import usage_rows

for row in usage_rows(view):  # по строке на каждый запрос запуска
    print(f"запрос {row.iteration}, входных токенов: {row.sent}")

# %% [markdown] lang="en"
# The model asked for the diff. It saw that `calculate_total` changed its signature. The diff says another file calls
# that function, so the model read that file and found the stale caller. That took three calls. Nobody wrote "first
# the diff, then the caller" in code: the model chose the steps.
#
# <details><summary>A real reviewer needs a search</summary>
#
# To be fair, the demo diff made that step easy: it names its callers itself, in a comment (`# Used by shop/cart.py
# and shop/checkout.py.`). A real diff seldom says who calls a function. A reviewer on a real repository needs a tool
# that searches the code: with python-gitlab, `project.search("blobs", "calculate_total(")`, which is GitLab's REST
# `GET /projects/:id/search?scope=blobs&search=...`. The capstone of optional notebook 9 gives your loop such a tool,
# on the demo project.
# </details>
#
# ## Agent or workflow?
#
# A workflow is a fixed sequence of steps that your code decides. In an agent, the model decides the next step. So the
# number of iterations depends on what it finds. Count them over four merge requests: where the model needs no other
# file, it stops sooner.

# %% [markdown] lang="ru"
# Модель запросила diff и увидела, что у `calculate_total` изменилась сигнатура. Судя по diff, эту функцию вызывает
# другой файл. Модель прочитала его и нашла вызов, который забыли обновить. На это ушло три вызова. Никто не писал
# в коде «сначала diff, потом вызывающий код»: шаги выбрала модель.
#
# <details><summary>Настоящему ревьюеру нужен поиск</summary>
#
# Справедливости ради: демонстрационный diff облегчил модели этот шаг. Кто вызывает функцию, сказано в нём самом, в
# комментарии (`# Used by shop/cart.py and shop/checkout.py.`). В настоящем diff такой подсказки обычно нет, и
# ревьюеру в настоящем репозитории нужен инструмент поиска по коду: в `python-gitlab` это
# `project.search("blobs", "calculate_total(")`, а в REST API GitLab —
# `GET /projects/:id/search?scope=blobs&search=...`. В итоговом проекте необязательного блокнота 9 ваш цикл получит
# такой инструмент — на демонстрационном проекте.
# </details>
#
# ## Агент или жёсткий сценарий?
#
# Жёсткий сценарий — это неизменная последовательность шагов, которую задаёт ваш код. В агенте следующий шаг выбирает
# модель. Поэтому число итераций зависит от того, что она находит. Посчитайте их для четырёх merge request: где модели
# не нужен другой файл, она останавливается раньше.

# %% lang="en"
for pr in (483, 482, 484, 486):
    history = []
    review_pull_request(pr, messages=history)
    calls = len([message for message in history if message["role"] == "assistant"])
    print(f"!{pr}: {calls} model calls, {len(history)} messages")

# %% lang="ru"
for pr in (483, 482, 484, 486):
    history = []
    review_pull_request(pr, messages=history)
    calls = len([message for message in history if message["role"] == "assistant"])
    print(f"!{pr}: вызовов модели — {calls}, сообщений — {len(history)}")

# %% [markdown] lang="en"
# ## Break it, then fix it: the cap
#
# Say a tool keeps returning something useless. Without a cap, the loop then runs until the money runs out. With a cap
# that is too small for the task, the loop stops before the answer. Here the cap is two iterations, one fewer than
# !482 took above:

# %% [markdown] lang="ru"
# ## Сломаем и починим: ограничение на число итераций
#
# Допустим, инструмент раз за разом возвращает что-то бесполезное. Без ограничения цикл будет крутиться, пока не
# кончатся деньги. Если же ограничение слишком жёсткое для задачи, цикл остановится раньше, чем появится ответ. Здесь
# ограничение — две итерации, на одну меньше, чем понадобилось выше для !482:

# %% lang="en"
try:
    review_pull_request(482, max_iterations=2)
except RuntimeError as error:  # caught here so that Run All goes on; your own code would let it out
    print("stopped: RuntimeError", error)

# %% lang="ru"
try:
    review_pull_request(482, max_iterations=2)
except RuntimeError as error:
    # исключение перехвачено здесь, чтобы команда «Выполнить все ячейки» (Run All) не остановилась;
    # ваш код пропустил бы его наружу
    print("остановлено: RuntimeError", error)

# %% [markdown] lang="en"
# Twenty is a sensible cap for a review (this course's choice); pick your own for other tasks.
#
# ## Exercise
#
# Change `review_pull_request` so that, when it reaches the cap, the error says how many tool calls it made and which
# tools they were. Read them from `messages`. Then run it on !484 with `max_iterations=2`.
#
# The exercise cell starts from a copy of the loop above: make your change there.

# %% [markdown] lang="ru"
# Двадцать — разумное ограничение для ревью (так выбрано в этом курсе); для других задач подберите своё.
#
# ## Упражнение
#
# Измените `review_pull_request` так, чтобы при достижении ограничения ошибка сообщала, сколько было вызовов
# инструментов и какие это были инструменты. Возьмите их из `messages`. Затем запустите функцию на !484
# с `max_iterations=2`.
#
# Ячейка упражнения начинается с копии цикла выше: изменения вносите в неё.

# %% lang="en"
# Your starting point: the loop above, as it is. Change the error at the cap (its last line) so that it says how many
# tool calls were made and which tools they were, then run the cell and the check below.
def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    """The loop: call the model, run what it asks for, repeat until it is done."""
    if messages is None:  # no history given: start a new one
        messages = []
    messages.append({"role": "user", "content": f"Review merge request !{pr_number}."})

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )

        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})  # keep the answer in the history
            return "\n".join(block.text for block in response.content if block.type == "text")

        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")

        # 1. The model's response goes into the history whole
        messages.append({"role": "assistant", "content": response.content})

        # 2. Run every tool it asked for
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": run_tool(block.name, block.input),
            })

        # 3. The results go back in a user message
        messages.append({"role": "user", "content": results})

    raise RuntimeError(f"No answer after {max_iterations} iterations")  # your change goes here

# %% lang="ru"
# Отправная точка — цикл выше, как он есть. Измените ошибку при достижении ограничения (его последнюю строку), чтобы
# она сообщала, сколько было вызовов инструментов и какие это были инструменты, затем запустите ячейку и проверку ниже.
def review_pull_request(pr_number: int, messages=None, max_iterations: int = 20) -> str:
    """Цикл: вызвать модель, запустить инструменты, которые она запросила, повторять до конца."""
    if messages is None:  # историю не передали: начинаем новую
        messages = []
    messages.append({"role": "user", "content": f"Проверь merge request !{pr_number}."})

    for _ in range(max_iterations):
        response = client.messages.create(
            model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS, messages=messages,
        )

        if response.stop_reason == "end_turn":
            messages.append({"role": "assistant", "content": response.content})  # ответ тоже сохраняем в истории
            return "\n".join(block.text for block in response.content if block.type == "text")

        if response.stop_reason != "tool_use":
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")

        # 1. Ответ модели добавляем в историю целиком
        messages.append({"role": "assistant", "content": response.content})

        # 2. Выполняем все запрошенные инструменты
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": run_tool(block.name, block.input),
            })

        # 3. Результаты — сообщением от user
        messages.append({"role": "user", "content": results})

    # измените строку ниже
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations})")

# %% [markdown] lang="en"
# ### Check your exercise
#
# The cell below runs **your** `review_pull_request` on !484 with `max_iterations=2`, against a fresh sandbox. It reads
# the error your loop raises. While the loop in the exercise cell is unchanged, it says "not done yet".
#
# In the check's sandbox the model asks for a call twice. That catches a cap that counts tool calls instead of model
# calls. So the numbers in its report need not match your own run of !484.
#
# Once it all passes, the check keeps your loop for notebook 4.
#
# <details><summary>Hint 1</summary>
#
# When the loop reaches its last line, what does it still hold that remembers every tool the model asked for?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look at step 1 of the loop: each response goes into `messages` whole, `tool_use` blocks included. "Watch the messages
# list grow" above shows where they sit.
# </details>
#
# <details><summary>Hint 3</summary>
#
# Just before `raise`, walk through `messages`. Every assistant message whose content holds `tool_use` blocks is one
# model turn. Count the blocks and collect their `name`s (`block.type`, `block.name`).
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Ячейка ниже запускает **ваш** `review_pull_request` на !484 с `max_iterations=2` в свежей песочнице. Она читает
# исключение, которое выбрасывает ваш цикл. Пока цикл в ячейке упражнения не изменён, проверка отвечает «пока не
# сделано».
#
# В песочнице проверки модель дважды запрашивает один и тот же вызов. Так проверка отличает ограничение, которое
# считает вызовы инструментов, от ограничения на вызовы модели. Поэтому числа в её отчёте могут не совпасть с тем, что
# показывает ваш собственный запуск на !484.
#
# Когда всё пройдёт, проверка сохранит ваш цикл для блокнота 4.
#
# <details><summary>Подсказка 1</summary>
#
# Когда цикл доходит до последней строки, что у него есть под рукой? Где там записан каждый инструмент, который
# запросила модель?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Посмотрите на шаг 1 цикла: каждый ответ попадает в `messages` целиком, вместе с блоками `tool_use`. Где они лежат,
# видно в разделе «Посмотрите, как растёт список сообщений» выше.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Прямо перед `raise` пройдите по `messages`. Каждое сообщение от assistant с блоками `tool_use` — это один ход модели.
# Посчитайте эти блоки и соберите их `name` (`block.type`, `block.name`).
# </details>

# %%
from course_selfcheck.loop_exercises import check_exercise_3

check_exercise_3(review_pull_request)

# %% [markdown] lang="en"
# The reference solution, folded (a spoiler: open it once you have tried yours; after it, `print(solution_code(3))`
# prints it too).

# %% [markdown] lang="ru"
# Ниже — эталонное решение в свёрнутом виде: откройте его, когда попробуете решить сами (когда ячейка ниже
# выполнится, его напечатает и `print(solution_code(3))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(3)

# %% [markdown] lang="en"
# ### Self-check
#
# `check_loop` runs a loop against the sandbox, in scenarios built to expose each rule of the course. It judges what
# it sees on the wire. Here it checks the rules of this notebook on `review_pull_request` as it is now: your exercise
# version, if you ran the exercise cell. Pass another function to check that one. Rules the run could not show are
# marked "not checked", never passed.

# %% [markdown] lang="ru"
# ### Самопроверка
#
# `check_loop` запускает цикл в песочнице в ситуациях, подобранных так, чтобы нарушение любого правила курса стало
# заметно. Судит он по тому, что уходит по сети. Здесь он проверяет правила этого блокнота на `review_pull_request`
# в его нынешнем виде — на вашей версии из упражнения, если вы выполнили его ячейку. Чтобы проверить другую функцию,
# передайте её. Правила, которые запуск не смог проверить, помечены «не проверено», а не «выполнено».

# %%
from course_selfcheck import check_loop

check_loop(review_pull_request, rules=["whole_response", "cap", "returns_answer"])

# %% [markdown] lang="en"
# <!-- fact: no-api-conversation-limit -->
# ## Check yourself
#
# 1. What separates an agent from a workflow?
#
# <details><summary>Answer</summary>
#
# Who picks the next step: in an agent the model does, so the number of iterations is not known in advance.
# </details>
#
# 2. Why does every iteration cost more than the one before?
#
# <details><summary>Answer</summary>
#
# Each request sends the whole history again, and the history grows.
# </details>
#
# 3. The loop reached its cap while the model still asked for tools. Is what it has an answer?
#
# <details><summary>Answer</summary>
#
# No: the review is not finished, so the loop raises an error that says so (`RuntimeError`). Returning the last text
# would pass a half-done review off as a done one.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 4. The model answered with `stop_reason: "end_turn"`. What does your loop do?
#    - (a) run the tools in the response
#    - (b) return the text: the model is done
#    - (c) append the response and send "continue", so that the model goes on checking
#
# <details><summary>Answer</summary>
#
# (b). An `end_turn` response has no `tool_use` to run (a). `end_turn` means the model has finished: "continue" (c)
# costs another request, with the whole history, and invites the model to add to a review that was already done.
# </details>
#
# 5. Why does the loop have a cap on iterations?
#    - (a) the API refuses more than 20 requests in one conversation
#    - (b) a model that keeps asking for tools would otherwise run, and be billed, without end
#    - (c) it does not need one: `max_tokens` already limits the loop
#
# <details><summary>Answer</summary>
#
# (b). The API has no such limit (20 is this course's choice). `max_tokens` (c) limits one response, not the number
# of requests: every iteration gets its own `max_tokens`, so short responses asking for tools can go on without end.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: no-api-conversation-limit -->
# ## Проверьте себя
#
# 1. Чем агент отличается от жёсткого сценария (workflow)?
#
# <details><summary>Ответ</summary>
#
# Тем, кто выбирает следующий шаг: в агенте — модель, поэтому число итераций заранее неизвестно.
# </details>
#
# 2. Почему каждая итерация дороже предыдущей?
#
# <details><summary>Ответ</summary>
#
# Каждый запрос заново отправляет всю историю, а она растёт.
# </details>
#
# 3. Цикл дошёл до ограничения, а модель всё ещё запрашивает инструменты. Есть ли у него ответ?
#
# <details><summary>Ответ</summary>
#
# Нет: ревью не закончено, поэтому цикл выбрасывает исключение и прямо говорит об этом (`RuntimeError`). Вернуть
# последний текст значило бы выдать недоделанное ревью за готовое.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 4. Модель ответила с `stop_reason: "end_turn"`. Что делает ваш цикл?
#    - (а) выполняет инструменты из ответа
#    - (б) возвращает текст: модель закончила
#    - (в) добавляет ответ в историю и отправляет «продолжай», чтобы модель проверила ещё что-нибудь
#
# <details><summary>Ответ</summary>
#
# (б). В ответе с `end_turn` нет `tool_use`, который нужно выполнить (а). `end_turn` значит, что модель закончила:
# «продолжай» (в) стоит ещё одного запроса со всей историей и подталкивает модель дописывать уже готовое ревью.
# </details>
#
# 5. Зачем циклу ограничение на число итераций?
#    - (а) API не принимает больше 20 запросов в одном диалоге
#    - (б) иначе модель, которая всё запрашивает и запрашивает инструменты, работала бы (и оплачивалась) бесконечно
#    - (в) оно не нужно: цикл и так ограничен параметром `max_tokens`
#
# <details><summary>Ответ</summary>
#
# (б). Такого ограничения у API нет (20 выбрано в этом курсе). `max_tokens` (в) ограничивает длину одного ответа, а не
# число запросов: у каждой итерации свой `max_tokens`, и короткие ответы с запросами инструментов могут идти без конца.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - The loop: request; on `tool_use` append the response, run every tool, append all results; repeat.
# - On `end_turn` return the text. Any other stop reason is a decision for your code.
# - The model picks the steps, so the number of iterations is unknown: always cap it.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Цикл: запрос; при `tool_use` добавить ответ в историю, выполнить все инструменты, добавить все
#   результаты; повторить.
# - При `end_turn` вернуть текст. Любая другая причина остановки — решение за вашим кодом.
# - Шаги выбирает модель, поэтому сколько будет итераций, заранее неизвестно: всегда ограничивайте их.

# %% [markdown] lang="en"
# ## Take it home
#
# The cell below is the reviewer as this notebook leaves it, whole. Paste it into a notebook or a `.py` file of your
# own project (it is also `examples/en/review_after_03.py`). It needs only `anthropic` and `python-gitlab`. It reads
# its settings from the environment:
#
# - `ANTHROPIC_API_KEY` (and `ANTHROPIC_BASE_URL`, when set) for the model;
# - `GITLAB_URL`, `GITLAB_TOKEN` and `GITLAB_PROJECT` for the repository.
#
# The cell just before it points those variables at the sandbox, unless you have set your own. Outside the course,
# `course-agent sandbox` prints them.
#
# The cell defines its own `client`, tools and loop. They replace this notebook's names of the same name. So this
# section comes last: run it after everything above.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# В ячейке ниже — весь ревьюер в том виде, к которому пришёл этот блокнот. Вставьте её в блокнот или `.py`-файл
# своего проекта (она же лежит в `examples/ru/review_after_03.py`). Ей нужны только `anthropic` и `python-gitlab`.
# Настройки она берёт из окружения:
#
# - `ANTHROPIC_API_KEY` (и `ANTHROPIC_BASE_URL`, если задан) — для модели;
# - `GITLAB_URL`, `GITLAB_TOKEN` и `GITLAB_PROJECT` — для репозитория.
#
# Если вы не задали эти переменные сами, ячейка прямо перед ней настроит их на песочницу. Вне курса те же значения
# печатает `course-agent sandbox`.
#
# Эта ячейка определяет собственные `client`, инструменты и цикл. Они заменяют всё, что в этом блокноте называется
# так же. Поэтому раздел стоит последним: запускайте ячейку после всего остального.

# %% use="take_home_setup"

# %% use="take_home_3"
