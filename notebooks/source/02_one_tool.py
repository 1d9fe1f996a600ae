# %% [markdown] lang="en"
# # 2. One tool
#
# **You will learn**
# - how to describe a tool to the model (name, description, JSON Schema of its input);
# - what a `tool_use` block is, and that *your code* runs the tool;
# - how to send the result back as a `tool_result`, and what the `messages` list looks like after each step;
# - how one dispatcher runs whichever tool the model names;
# - (optional, "Go deeper" after the Recap) what the API answers when a `tool_result` has no `tool_use` before it,
#   and what it checks in a thinking block.
#
# *About 55 minutes, plus 10 for the optional part. Builds on notebook 1.*

# %% [markdown] lang="ru"
# # 2. Один инструмент
#
# **Вы узнаете**
# - как описать инструмент для модели (имя, описание, JSON Schema его входных данных);
# - что такое блок `tool_use` и что инструмент запускает *ваш код*, а не модель;
# - как вернуть результат в виде `tool_result` и как выглядит список `messages` после каждого шага;
# - как один диспетчер запускает любой инструмент, который назовёт модель;
# - (по желанию, раздел «Глубже» после итогов) что отвечает API, если перед `tool_result` нет его `tool_use`, и что он
#   проверяет в блоке рассуждения.
#
# *Около 55 минут и ещё 10 на необязательную часть. Опирается на блокнот 1.*

# %% use="setup"

# %% [markdown] lang="en"
# ## The tool: get the diff of a merge request
#
# A tool is an ordinary function. This one calls GitLab with the real `python-gitlab` client (here the
# sandbox's demo GitLab; with `GITLAB_URL`, `GITLAB_TOKEN` and `GITLAB_PROJECT` set, any GitLab). `mr.changes()`
# gives every file's diff in one request, which is all a first tool needs.

# %% [markdown] lang="ru"
# ## Инструмент: получить diff merge request
#
# Инструмент — это обычная функция. Наша обращается к GitLab через настоящий клиент `python-gitlab` (здесь —
# к демо-GitLab песочницы; если заданы `GITLAB_URL`, `GITLAB_TOKEN` и `GITLAB_PROJECT`, —
# к любому GitLab). `mr.changes()` одним запросом отдаёт diff каждого файла, а первому инструменту больше и не нужно.

# %% use="gitlab"

# %% lang="en"
def get_diff(pr: int) -> str:
    """The changes of merge request !pr: title, source branch and the diff of every file."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show)")
    return "\n".join(parts)


print(get_diff(482)[:700])

# %% lang="ru"
def get_diff(pr: int) -> str:
    """Изменения merge request !pr: заголовок, исходная ветка и diff каждого файла."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff слишком большой, не показан)")
    return "\n".join(parts)


print(get_diff(482)[:700])

# %% [markdown] lang="en"
# <!-- fact: tool-definition-visible -->
# <!-- fact: tool-description-matters -->
# ## Describing it to the model
#
# The model never sees your function. It sees a name, a description and a JSON Schema of the input.
# JSON Schema is a standard way to describe data: `type` says what kind of value it is (here `object`, a dict),
# `properties` names its fields, each with its own type and description, and `required` lists the fields that must be
# there. The description is the only documentation the model gets, so write it for a reader who knows nothing else.
#
# Anthropic's docs call a detailed description by far the most important factor in how well the model uses a tool.
# Say what the tool does, when to use it (and when not to), what each parameter means, and what it returns. Compare:
#
# - vague: `"Gets a diff."` (of what? when is it worth a call? what comes back?)
# - clear: `"Get the changes of a merge request: its title, its source branch and the diff of every file, as text.
#   Call it first when asked to review a merge request."`, with `pr` described as `"The merge request number, e.g.
#   482."`
#
# The definition below says what the tool does and what it returns; with a single tool there is no choice to explain,
# so it says nothing of when.

# %% [markdown] lang="ru"
# <!-- fact: tool-definition-visible -->
# <!-- fact: tool-description-matters -->
# ## Описываем инструмент для модели
#
# Модель никогда не видит вашу функцию. Она видит имя, описание и JSON Schema входных данных.
# JSON Schema — стандартный способ описать данные: `type` говорит, что это за значение (здесь `object`, то есть
# словарь), `properties` перечисляет его поля, у каждого свой тип и описание, а `required` — поля, без которых
# обойтись нельзя. Описание — единственная документация, которую получает модель, поэтому пишите его так, будто читатель
# ничего больше об инструменте не знает.
#
# Документация Anthropic прямо говорит: больше всего на то, насколько хорошо модель пользуется инструментом, влияет
# подробное описание. Напишите, что инструмент делает, когда его вызывать (и когда не стоит), что значит каждый
# параметр и что инструмент возвращает. Сравните:
#
# - расплывчато: `"Возвращает diff."` (чего? когда его стоит запрашивать? что придёт в ответ?)
# - понятно: `"Изменения merge request: заголовок, исходная ветка и diff каждого файла, текстом. Вызывай первым,
#   когда просят проверить merge request."`, а у параметра `pr` описание `"Номер merge request, например 482."`
#
# Определение ниже говорит, что инструмент делает и что возвращает. О том, когда его вызывать, в нём ни слова:
# инструмент один, и модели не из чего выбирать. Описания в коде курса английские: русская и английская версии блокнота
# отправляют модели одни и те же инструменты (см. словарь терминов курса, docs/glossary.ru.md). Свои описания пишите
# на том языке, на котором пишете промпт.

# %%
TOOLS = [
    {
        "name": "get_diff",
        "description": "Get the changes of a merge request: title, source branch and the diff of every file.",
        "input_schema": {
            "type": "object",
            "properties": {"pr": {"type": "integer", "description": "The merge request number, e.g. 482."}},
            "required": ["pr"],
        },
    }
]


# %% [markdown] lang="en"
# <!-- fact: tool-use-stop-reason -->
# ## Step 1: the model asks for the tool
#
# With `tools=` in the request, the model can answer with a `tool_use` block instead of prose. Then
# `stop_reason` is `tool_use`: the model is waiting for a result. Whether it calls a tool is the model's choice;
# `tool_choice` can also require some tool, or a given one (optional notebook 10 shows it, and why some newer models
# refuse to be forced).
#
# **Predict, then run.** Before you run the cell: which blocks will `response.content` hold, and will the diff be
# in any of them? Write your guess down, then run it.

# %% [markdown] lang="ru"
# <!-- fact: tool-use-stop-reason -->
# ## Шаг 1: модель запрашивает инструмент
#
# Если в запросе есть `tools=`, модель может ответить не текстом, а блоком `tool_use`. Тогда
# `stop_reason` равен `tool_use`: модель ждёт результат. Вызывать ли инструмент, решает модель; параметр `tool_choice`
# может и обязать её вызвать инструмент — любой или заданный (это показывает необязательный блокнот 10 — и
# объясняет, почему некоторые новые модели принудительный вызов не допускают).
#
# **Сначала предположите, потом запустите:** какие блоки окажутся в `response.content` и будет ли в каком-нибудь из
# них сам diff? Запишите догадку и только потом запустите ячейку.

# %% lang="en"
messages = [{"role": "user", "content": "Review merge request !482."}]
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)

print("stop_reason:", response.stop_reason)
for block in response.content:
    print(block)

# %% lang="ru"
messages = [{"role": "user", "content": "Проверь merge request !482."}]
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)

print("stop_reason:", response.stop_reason)
for block in response.content:
    print(block)

# %% [markdown] lang="en"
# <!-- fact: tool-use-block-fields -->
# ## Step 2: your code runs the tool
#
# The block carries an `id`, the tool's `name` and its `input`, already filled according to your schema.
# Running it is plain Python. Pick the `tool_use` block by its type, as notebook 1 picked the text. Then
# `get_diff(**tool_use.input)` passes the input dict as keyword arguments: `{"pr": 482}` becomes `get_diff(pr=482)`.

# %% [markdown] lang="ru"
# <!-- fact: tool-use-block-fields -->
# ## Шаг 2: ваш код запускает инструмент
#
# В блоке есть `id`, имя инструмента `name` и его `input`, уже заполненный по вашей схеме.
# Запуск — обычный Python. Блок `tool_use` выбираем по типу, как в блокноте 1 выбирали текст. Затем
# `get_diff(**tool_use.input)` передаёт словарь входных данных как именованные аргументы: `{"pr": 482}` превращается
# в `get_diff(pr=482)`.

# %% lang="en"
tool_use = [block for block in response.content if block.type == "tool_use"][0]  # the first (here the only) one
diff = get_diff(**tool_use.input)
print(tool_use.id, tool_use.name, tool_use.input, "->", len(diff), "characters")

# %% lang="ru"
tool_use = [block for block in response.content if block.type == "tool_use"][0]  # первый (здесь единственный)
diff = get_diff(**tool_use.input)
print(tool_use.id, tool_use.name, tool_use.input, "->", len(diff), "симв.")

# %% [markdown] lang="en"
# <!-- fact: tool-result-pairing -->
# <!-- fact: first-rule-every-response -->
# ## Step 3: two messages go into the history
#
# First the model's response, **as it is, whole**; then a `user` message with a `tool_result` that
# names the `tool_use_id` it answers. The pair is held together by that id, nothing else.
#
# *Whole* means every block, the thinking block of notebook 1 included: its `signature` is a seal the API checks
# (the optional section after the Recap says what it refuses).
#
# When notebook 3 puts these steps in a loop, this becomes the first rule on the loop's card. It holds for every
# response, whatever blocks it has: send back what came, no more and no less.
#
# ```mermaid
# flowchart TB
#     m1["1 · user<br/>text: Review merge request !482."]
#     m2["2 · assistant (the whole response)<br/>thinking · text · tool_use id=toolu_01 name=get_diff input={pr: 482}"]
#     m3["3 · user<br/>tool_result tool_use_id=toolu_01 content=the diff"]
#     m1 --> m2 --> m3
#     m2 -. "the same id" .-> m3
# ```
#
# **Predict, then run:** how many messages will the history hold after this cell, and whose is each? (The cell shows
# the list with the course's `MessagesView`: a card per message, with its role and its blocks; in notebook 3 you
# watch it grow while the loop runs.)

# %% [markdown] lang="ru"
# <!-- fact: tool-result-pairing -->
# <!-- fact: first-rule-every-response -->
# ## Шаг 3: история пополняется двумя сообщениями
#
# Сначала ответ модели — **как есть, целиком**; затем сообщение от `user` с `tool_result`, в котором
# указан `tool_use_id` того вызова, на который он отвечает. Пару связывает только этот id.
#
# *Целиком* — это со всеми блоками, включая блок рассуждения из блокнота 1: его поле `signature` — подпись, которую
# проверяет API (что он при этом отклоняет, сказано в необязательном разделе после итогов).
#
# Когда в блокноте 3 эти шаги превратятся в цикл, это правило станет первым в карточке правил цикла. Оно действует для
# любого ответа, какие бы блоки в нём ни были: возвращайте то, что пришло, — ни больше, ни меньше.
#
# ```mermaid
# flowchart TB
#     m1["1 · user<br/>текст: Проверь merge request !482."]
#     m2["2 · assistant (ответ целиком)
# рассуждение (thinking) · текст · tool_use id=toolu_01 name=get_diff input={pr: 482}"]
#     m3["3 · user<br/>tool_result tool_use_id=toolu_01 content=diff"]
#     m1 --> m2 --> m3
#     m2 -. "тот же id" .-> m3
# ```
#
# **Сначала предположите, потом запустите:** сколько сообщений будет в истории после этой ячейки и от кого каждое?
# (Ячейка показывает список через `MessagesView` из курса: по карточке на сообщение, с его ролью и блоками; в блокноте 3
# вы увидите, как он растёт прямо во время работы цикла.)

# %% lang="en"
from course_agent.widgets import MessagesView

messages.append({"role": "assistant", "content": response.content})
messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": tool_use.id, "content": diff},
]})
MessagesView(messages)  # one card per message: its role and its blocks

# %% lang="ru"
from course_agent.widgets import MessagesView

messages.append({"role": "assistant", "content": response.content})
messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": tool_use.id, "content": diff},
]})
MessagesView(messages)  # по карточке на сообщение: его роль и блоки

# %% [markdown] lang="en"
# <!-- fact: end-turn-done -->
# ## Step 4: send it again
#
# The request now carries the whole history: three messages. With only a diff tool, the model has all
# it can get and writes its review: `stop_reason` is `end_turn`.

# %% [markdown] lang="ru"
# <!-- fact: end-turn-done -->
# ## Шаг 4: отправляем снова
#
# Теперь в запросе вся история: три сообщения. У модели есть только инструмент для diff, так что
# она уже получила всё, что могла, и пишет ревью: `stop_reason` равен `end_turn`.

# %%
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)
print("stop_reason:", response.stop_reason)
print("\n".join([block.text for block in response.content if block.type == "text"]))

# %% [markdown] lang="en"
# ## Before the exercise: pick the function by the tool's name
#
# Step 2 called `get_diff` directly, because it was the only tool. The exercise adds a second tool, so your code must
# choose. The `tool_use` block names the tool it wants: `block.name`. A dictionary maps each name to its function, and
# one line runs it: `functions[block.name](**block.input)`. Such a piece of code is called a *dispatcher*.
#
# Why write it? One loop then serves any number of tools: a new tool is one more entry in the dictionary.

# %% [markdown] lang="ru"
# ## Перед упражнением: функция по имени инструмента
#
# На шаге 2 мы вызвали `get_diff` напрямую: других инструментов не было. В упражнении появится второй, и коду придётся
# выбирать. Какой инструмент нужен модели, написано в блоке `tool_use`, в поле `block.name`. Словарь сопоставляет
# каждому имени функцию, а запускает её одна строка: `functions[block.name](**block.input)`. Такой код называют
# *диспетчером*.
#
# Зачем он нужен? С ним один цикл обслуживает сколько угодно инструментов: новый инструмент — это ещё одна запись
# в словаре.

# %% lang="en"
functions = {"get_diff": get_diff}  # each tool's name, as in TOOLS -> the Python function that runs it


def run_tool(name: str, tool_input: dict) -> str:
    """Run the tool the model named, with the input the model wrote."""
    return functions[name](**tool_input)


print(run_tool(tool_use.name, tool_use.input).splitlines()[0])  # the block of step 2: get_diff, {"pr": 482}

# %% lang="ru"
functions = {"get_diff": get_diff}  # имя инструмента, как в TOOLS -> функция Python, которая его выполняет


def run_tool(name: str, tool_input: dict) -> str:
    """Выполнить инструмент, который назвала модель, с входными данными от модели."""
    return functions[name](**tool_input)


print(run_tool(tool_use.name, tool_use.input).splitlines()[0])  # блок из шага 2: get_diff с {"pr": 482}

# %% [markdown] lang="en"
# <!-- fact: gitlab-files-raw-bytes -->
# ## Exercise
#
# Add a second tool, `read_file(path, ref)`. It returns a whole file as text:
# `project.files.raw(path, ref=ref).decode("utf-8")` (`raw` gives bytes, and a tool result is text).
# Add it to `functions`. Its description is written for you in the exercise cell, `READ_FILE_TOOL` (reword it if you
# like: what a good description holds is above); put it in `TOOLS` next to `get_diff`'s. The work of this exercise is
# the rounds.
#
# Then start again from `"Review merge request !482."` in a new list, `exercise_messages`. Repeat steps 1 to 4 by
# hand, round after round, until `stop_reason` is `end_turn`. There is no loop yet, so copy the lines of a round
# (notebook 3 rolls the rounds into one loop). Append every message to `exercise_messages`, the model's last answer too.
#
# How many times did you call the model? Which file did it read, and why? (The check looks for that read: a
# `read_file` call your code ran, and its result sent back.)

# %% [markdown] lang="ru"
# <!-- fact: gitlab-files-raw-bytes -->
# ## Упражнение
#
# Добавьте второй инструмент, `read_file(path, ref)`. Он возвращает файл целиком, текстом:
# `project.files.raw(path, ref=ref).decode("utf-8")` (`raw` отдаёт байты, а результат инструмента — текст).
# Добавьте его в `functions`. Описание уже написано — это `READ_FILE_TOOL` в ячейке упражнения (если хотите,
# переформулируйте его: что должно быть в хорошем описании, сказано выше); поставьте его в `TOOLS` рядом с описанием
# `get_diff`. Главное в этом упражнении — пройти круги вручную.
#
# Затем начните заново с `"Проверь merge request !482."` в новом списке `exercise_messages`. Повторяйте шаги 1–4
# вручную, круг за кругом, пока `stop_reason` не станет `end_turn`. Цикла пока нет, так что строки одного круга просто
# скопируйте (в блокноте 3 круги свернутся в цикл). Каждое сообщение, в том числе последний ответ модели, добавляйте
# в `exercise_messages`.
#
# Сколько раз вы вызвали модель? Какой файл она прочитала и почему? (Проверка ищет в истории вызов `read_file`,
# который выполнил ваш код, и его результат, отправленный модели.)

# %% lang="en"
# read_file's description for TOOLS, written for you (reword it if you like):
READ_FILE_TOOL = {
    "name": "read_file",
    "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the code that "
                   "calls a function the merge request changes.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
            "ref": {"type": "string", "description": "Branch or commit, e.g. the merge request's source branch."},
        },
        "required": ["path"],
    },
}

# 1. read_file(path, ref): the function and its entry in functions. Then TOOLS built again as a new list, get_diff's
#    description and read_file's (a new list: safe to run this cell again):
# TOOLS = [TOOLS[0], READ_FILE_TOOL]
# 2. steps 1 to 4 on exercise_messages, round after round (copy the lines), until stop_reason is end_turn;
#    append every message to it, the model's last answer too
exercise_messages = [{"role": "user", "content": "Review merge request !482."}]

# your code here. Round 1:
#   response = client.messages.create(...)          step 1
#   run each tool_use it asked for with run_tool    step 2
#   append the response, then the tool_results      step 3
# Round 2 sends exercise_messages again (step 4): copy the lines.

# %% lang="ru"
# Описание read_file для TOOLS уже написано (слова, если хотите, поменяйте; описания — на английском, как у get_diff):
READ_FILE_TOOL = {
    "name": "read_file",
    "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the code that "
                   "calls a function the merge request changes.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
            "ref": {"type": "string", "description": "Branch or commit, e.g. the merge request's source branch."},
        },
        "required": ["path"],
    },
}

# 1. read_file(path, ref): сама функция и её запись в functions. Затем TOOLS заново, новым списком: описание
#    get_diff и описание read_file (новый список: ячейку можно запускать снова):
# TOOLS = [TOOLS[0], READ_FILE_TOOL]
# 2. шаги 1–4 на exercise_messages, круг за кругом (копируя строки), пока stop_reason не станет end_turn;
#    добавляйте в список каждое сообщение, и последний ответ модели тоже
exercise_messages = [{"role": "user", "content": "Проверь merge request !482."}]

# ваш код. Круг 1:
#   response = client.messages.create(...)          шаг 1
#   выполнить каждый запрошенный tool_use: run_tool шаг 2
#   добавить ответ, затем результаты tool_result    шаг 3
# Круг 2 снова отправляет exercise_messages (шаг 4): скопируйте строки.

# %% [markdown] lang="en"
# ### Check your exercise
#
# The cell below reads `TOOLS` and `exercise_messages`: the read_file tool, the pairs of `tool_use` and `tool_result`,
# and the model's last answer. While the cell above is unchanged, it says "not done yet".
#
# <details><summary>Hint 1</summary>
#
# What did steps 1 to 4 above do, one after another? Which of them changes now that there are two tools, and which
# stay the same?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look at step 2: it runs `get_diff` because that is the only tool. With two, your code picks the function by
# `block.name`: see "Before the exercise" above, and give `functions` its `read_file` entry.
#
# And look at the commented `TOOLS = [TOOLS[0], READ_FILE_TOOL]` line in the exercise cell: the new description goes
# next to `get_diff`'s in a new list, not appended to the old one (a cell run twice would describe `read_file` twice,
# and the API refuses a request with two tools of the same name).
# </details>
#
# <details><summary>Hint 3</summary>
#
# Each round is steps 1–4 above, with `exercise_messages` in place of `messages`. Write round 1 and run it: what
# does `stop_reason` say, and which tool did the model ask for? Then write the next round the same way, until
# `stop_reason` is `end_turn`.
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Ячейка ниже читает `TOOLS` и `exercise_messages`: инструмент `read_file`, пары `tool_use` и `tool_result` и последний
# ответ модели. Пока вы не изменили ячейку выше, проверка отвечает «пока не сделано».
#
# <details><summary>Подсказка 1</summary>
#
# Что делали шаги 1–4 выше, один за другим? Какой из них меняется теперь, когда инструментов два, а какие остаются
# прежними?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Посмотрите на шаг 2: он запускает `get_diff`, потому что других инструментов нет. Когда их два, функцию выбирают
# по `block.name`: см. раздел «Перед упражнением» выше, и не забудьте добавить `read_file` в `functions`.
#
# И посмотрите на закомментированную строку `TOOLS = [TOOLS[0], READ_FILE_TOOL]` в ячейке упражнения: новое описание
# встаёт рядом с описанием `get_diff` в новом списке, а не добавляется в старый. Ячейка, запущенная дважды, описала бы
# `read_file` два раза, а запрос с двумя одноимёнными инструментами API отклоняет.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Каждый круг — это шаги 1–4 выше, только вместо `messages` — `exercise_messages`. Напишите круг 1 и запустите: что
# говорит `stop_reason` и какой инструмент запросила модель? Затем так же напишите следующий круг — и так далее, пока
# `stop_reason` не станет `end_turn`.
# </details>

# %%
from course_selfcheck.exercises import check_exercise_2

check_exercise_2(TOOLS, exercise_messages)

# %% [markdown] lang="en"
# <details><summary>Answer to the exercise's questions (how many calls, which file, why)</summary>
#
# With the sandbox's model, three calls. The first asks for the diff (`get_diff`). The second reads
# `shop/checkout.py` at the merge request's branch: the diff changes the signature of `calculate_total`, and a comment
# in `shop/pricing.py`, shown in the diff, names `shop/checkout.py` as one of its callers. The third is the review,
# with `end_turn`: `shop/checkout.py` still calls `calculate_total` the old way. A live model may choose its steps
# differently.
# </details>
#
# The reference solution, folded (a spoiler: open it once you have tried yours; after it, `print(solution_code(2))`
# prints it too).

# %% [markdown] lang="ru"
# <details><summary>Ответ на вопросы упражнения (сколько вызовов, какой файл и почему)</summary>
#
# С моделью песочницы — три вызова. В первом модель запрашивает diff (`get_diff`). Во втором читает `shop/checkout.py`
# в ветке merge request: diff меняет сигнатуру `calculate_total`, а комментарий в `shop/pricing.py`, попавший в diff,
# называет `shop/checkout.py` среди мест, откуда её вызывают. Третий вызов — само ревью, с `end_turn`:
# `shop/checkout.py` по-прежнему вызывает `calculate_total` по-старому. Настоящая модель может выбрать шаги иначе.
# </details>
#
# Ниже — эталонное решение в свёрнутом виде: откройте его, когда попробуете решить сами (когда ячейка ниже
# выполнится, его напечатает и `print(solution_code(2))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(2)

# %% [markdown] lang="en"
# <!-- fact: server-tools-run-at-anthropic -->
# ## Check yourself
#
# 1. What does the model see of a tool?
#
# <details><summary>Answer</summary>
#
# Only its name, description and `input_schema`; never your function's code.
# </details>
#
# 2. Which id links a `tool_result` to its call?
#
# <details><summary>Answer</summary>
#
# `tool_use_id`, equal to the `id` of the `tool_use` block it answers.
# </details>
#
# 3. By how many messages does the history grow per tool turn?
#
# <details><summary>Answer</summary>
#
# Two: the assistant's response, then one user message with the results.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 4. Who runs `get_diff`?
#    - (a) the model, on Anthropic's servers
#    - (b) your code: the model only asks for it, with a `tool_use` block
#    - (c) the SDK, automatically, because `tools=` was passed
#
# <details><summary>Answer</summary>
#
# (b). Your tools run where your code runs (only the few tools that Anthropic itself provides run on its side);
# `messages.create` never runs a tool of yours: it returns the request for one.
# </details>
#
# 5. A response asks for a tool. What goes into the history before your `tool_result`?
#    - (a) only its `tool_use` block: that is what the result answers
#    - (b) the whole response: every block, the thinking block included
#    - (c) its text and `tool_use` blocks: the thinking block is only the model's notes, safe to drop
#
# <details><summary>Answer</summary>
#
# (b). Send back what came, no more and no less. (a) drops the model's own words and its thinking. (c) feels like
# tidying up, but the thinking block is part of the response: Anthropic's docs say it goes back complete and
# unmodified, and the API refuses one that was dropped or edited (an edit shows in its `signature`).
# </details>

# %% [markdown] lang="ru"
# <!-- fact: server-tools-run-at-anthropic -->
# ## Проверьте себя
#
# 1. Что модель знает о вашем инструменте?
#
# <details><summary>Ответ</summary>
#
# Только имя, описание и `input_schema`; код вашей функции — никогда.
# </details>
#
# 2. Какой id связывает `tool_result` с вызовом?
#
# <details><summary>Ответ</summary>
#
# `tool_use_id`, равный `id` блока `tool_use`, на который он отвечает.
# </details>
#
# 3. На сколько сообщений растёт история за один ход с инструментом?
#
# <details><summary>Ответ</summary>
#
# На два: ответ от assistant, затем одно сообщение от user с результатами.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 4. Кто выполняет `get_diff`?
#    - (а) модель, на серверах Anthropic
#    - (б) ваш код: модель только просит об этом блоком `tool_use`
#    - (в) SDK, автоматически, раз передан `tools=`
#
# <details><summary>Ответ</summary>
#
# (б). Ваши инструменты выполняются там же, где ваш код (на стороне Anthropic работают только немногие
# инструменты, которые предоставляет сама Anthropic); `messages.create` никогда не выполняет ваш инструмент — он
# возвращает просьбу его выполнить.
# </details>
#
# 5. В ответе модель запрашивает инструмент. Что попадает в историю перед вашим `tool_result`?
#    - (а) только блок `tool_use`: ведь результат отвечает именно на него
#    - (б) весь ответ: все блоки, включая блок рассуждения
#    - (в) блоки текста и `tool_use`; блок рассуждения — лишь черновик модели, его можно выбросить
#
# <details><summary>Ответ</summary>
#
# (б). Возвращайте то, что пришло, — ни больше, ни меньше. В (а) пропадают и слова модели, и её рассуждение.
# (в) выглядит как наведение порядка, но блок рассуждения — часть ответа: документация Anthropic требует возвращать его
# целым и без изменений, а выброшенный или изменённый блок API отклоняет (изменение выдаёт `signature`).
# </details>

# %% [markdown] lang="en"
# <!-- fact: thinking-back-unchanged -->
# ## Recap
#
# - A tool is a function plus a description; the model sees only the description.
# - `tool_use` means "run this for me"; your code runs it and answers with a `tool_result` of the same id.
# - The history grows by two messages per tool turn: the assistant's response, then the results.
# - The response goes into the history whole, thinking blocks included: they go back whole and unchanged.
#
# On a first pass, stop here: the rest of this notebook is optional, and nothing later needs it.

# %% [markdown] lang="ru"
# <!-- fact: thinking-back-unchanged -->
# ## Итоги
#
# - Инструмент — это функция плюс описание; модель видит только описание.
# - `tool_use` означает «запусти это за меня»; ваш код запускает инструмент и отвечает блоком `tool_result` с тем же id.
# - За каждый ход с инструментом история растёт на два сообщения: ответ от assistant, затем результаты.
# - Ответ модели добавляется в историю целиком, вместе с блоками рассуждения: их возвращают без изменений.
#
# При первом прохождении на этом можно остановиться: дальше идут необязательные разделы, и они не понадобятся ни в одном
# следующем блокноте.

# %% [markdown] lang="en"
# <!-- fact: orphan-tool-result-400 -->
# ## Go deeper (optional): the API checks the pair
#
# Nothing later in the course needs this section.
#
# ### Break it, then fix it: a result with no request
#
# The API checks the pairing. Send a `tool_result` without the assistant message that holds its
# `tool_use`, and it answers 400 with the exact reason. The SDK raises it as `anthropic.BadRequestError`; the cell
# catches it and prints the one line that matters, the API's own message (`error.body` is the JSON the API sent):

# %% [markdown] lang="ru"
# <!-- fact: orphan-tool-result-400 -->
# ## Глубже (по желанию): API проверяет пару
#
# Дальше в курсе этот раздел не понадобится.
#
# ### Сломаем и починим: результат без запроса
#
# API проверяет, что у каждого результата есть свой вызов. Отправьте `tool_result` без сообщения от assistant, в котором
# лежит его `tool_use`, — и API ответит ошибкой 400 с точной причиной. SDK превращает её в исключение
# `anthropic.BadRequestError`; ячейка перехватывает его и печатает единственную важную строку — сообщение самого API
# (`error.body` — это JSON, который прислал API):

# %% lang="en"
broken = [
    {"role": "user", "content": "Review merge request !482."},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": diff}]},
]
try:
    client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=broken)
except anthropic.BadRequestError as error:
    print(f"{error.status_code} {error.body['error']['message']}")  # one line: the status, the API's message

# %% lang="ru"
broken = [
    {"role": "user", "content": "Проверь merge request !482."},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": diff}]},
]
try:
    client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=broken)
except anthropic.BadRequestError as error:
    print(f"{error.status_code} {error.body['error']['message']}")  # одной строкой: статус и сообщение API

# %% [markdown] lang="en"
# The fix is the order of step 3: the assistant message with the `tool_use` first, then its result.

# %% [markdown] lang="ru"
# Исправление — порядок из шага 3: сначала сообщение от assistant с `tool_use`, затем его результат.

# %%
fixed = broken[:1] + messages[1:3]
print([message["role"] for message in fixed])
print(client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=fixed).stop_reason)

# %% [markdown] lang="en"
# <!-- fact: thinking-block-checks -->
# ### What the API checks in a thinking block
#
# Anthropic's docs say the thinking blocks of a tool-use turn go back with its results complete and unmodified. What
# you can see of that:
#
# - an edited block (its text or its `signature` changed) is refused with a 400:
#   `thinking or redacted_thinking blocks in the latest assistant message cannot be modified` (optional notebook 12
#   shows it);
# - a tool-use turn sent back with its thinking block dropped, or moved behind the other blocks, is refused too:
#   `Expected thinking or redacted_thinking, but found tool_use` (the docs: "edited, reordered, or partially dropped
#   thinking blocks" are a 400). Under adaptive thinking a turn may have had no thinking block at all: that turn goes
#   back as it is;
# - the self-check of your loop (from notebook 3 on, the first rule on the card) names the block that did not go back
#   as it came.
#
# So the rule stays simple: send back what came.

# %% [markdown] lang="ru"
# <!-- fact: thinking-block-checks -->
# ### Что API проверяет в блоке рассуждения
#
# Документация Anthropic требует, чтобы блоки рассуждения из хода с вызовом инструмента возвращались вместе с его
# результатами целыми и без изменений. Вот что из этого можно увидеть:
#
# - изменённый блок (его текст или `signature`) API отклоняет с ошибкой 400:
#   `thinking or redacted_thinking blocks in the latest assistant message cannot be modified` (это показывает
#   необязательный блокнот 12);
# - отклоняется и ход с вызовом инструмента, из которого блок рассуждения выбросили или переставили за другие блоки:
#   `Expected thinking or redacted_thinking, but found tool_use` (в документации: изменённые, переставленные и
#   частично выброшенные блоки рассуждения — это ошибка 400). При адаптивном рассуждении в ходе может вовсе не быть
#   блока рассуждения: такой ход возвращается как есть;
# - самопроверка вашего цикла (с блокнота 3, первое правило в карточке) называет блок, который вернулся не в том
#   виде, в каком пришёл.
#
# Так что правило остаётся простым: возвращайте то, что пришло.

# %% [markdown] lang="en"
# <!-- fact: gitlab-changes-deprecated -->
# ### About `mr.changes()`
#
# `get_diff` reads GitLab's `/merge_requests/:iid/changes` endpoint, deprecated since GitLab 15.7 in favour of
# `/diffs` but still served: one request gives every file's diff, which is all a first tool needs.

# %% [markdown] lang="ru"
# <!-- fact: gitlab-changes-deprecated -->
# ### Об `mr.changes()`
#
# `get_diff` обращается к эндпоинту (методу API) GitLab `/merge_requests/:iid/changes` — в GitLab 15.7 его объявили
# устаревшим в пользу `/diffs`, но он по-прежнему работает, и для первого инструмента его хватает.
