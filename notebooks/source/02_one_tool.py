from cells import code, md
from quizzes import quiz
from exercise_cells import EXERCISE_02
from common import GITLAB, GITLAB_RU, SETUP, SETUP_RU

CELLS = [
    md("""
# 2. One tool

**You will learn**
- how to describe a tool to the model (name, description, JSON Schema of its input);
- what a `tool_use` block is, and that *your code* runs the tool;
- how to send the result back as a `tool_result`, and what the `messages` list looks like after each step.

*About 30 minutes. Builds on notebook 1.*
""", """
# 2. Один инструмент

**Вы узнаете**
- как описать инструмент для модели (имя, описание, JSON Schema его входных данных);
- что такое блок `tool_use` и почему инструмент запускает *ваш код*;
- как вернуть результат в виде `tool_result` и как выглядит список `messages` после каждого шага.

*Около 30 минут. Опирается на блокнот 1.*
"""),
    code(SETUP, SETUP_RU),
    md("""
## The tool: get the diff of a merge request

A tool is an ordinary function. This one calls GitLab with the real `python-gitlab` client (here the
sandbox's demo GitLab; with `GITLAB_URL`, `GITLAB_TOKEN` and `GITLAB_PROJECT` set, any GitLab).
""", """
## Инструмент: получить diff merge request

Инструмент — это обычная функция. Эта обращается к GitLab через настоящий клиент `python-gitlab` (здесь —
к демонстрационному GitLab из песочницы; если заданы `GITLAB_URL`, `GITLAB_TOKEN` и `GITLAB_PROJECT`, —
к любому GitLab).
"""),
    code(GITLAB, GITLAB_RU),
    code('''def get_diff(pr: int) -> str:
    """The changes of merge request !pr: title, source branch and the diff of every file."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show)")
    return "\\n".join(parts)


print(get_diff(482)[:700])''', '''def get_diff(pr: int) -> str:
    """Изменения merge request !pr: заголовок, ветка-источник и diff каждого файла."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff too large to show)")
    return "\\n".join(parts)


print(get_diff(482)[:700])'''),
    md("""
## Describing it to the model

The model never sees your function. It sees a name, a description and a JSON Schema of the input.
The description is the only documentation it gets, so write it for a reader who knows nothing else.
""", """
## Описываем инструмент для модели

Модель никогда не видит вашу функцию. Она видит имя, описание и JSON Schema входных данных.
Описание — единственная документация, которую она получает, поэтому пишите его для читателя,
который больше ничего не знает.
"""),
    code('''TOOLS = [
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


def show(messages):
    """One line per message: its role and the types of its blocks."""
    for number, message in enumerate(messages, start=1):
        content = message["content"]
        kinds = ["text"] if isinstance(content, str) else [
            block["type"] if isinstance(block, dict) else block.type for block in content]
        print(number, message["role"], kinds)''', '''TOOLS = [
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


def show(messages):
    """По строке на сообщение: роль и типы его блоков."""
    for number, message in enumerate(messages, start=1):
        content = message["content"]
        kinds = ["text"] if isinstance(content, str) else [
            block["type"] if isinstance(block, dict) else block.type for block in content]
        print(number, message["role"], kinds)'''),
    md("""
## Step 1: the model asks for the tool

With `tools=` in the request, the model can answer with a `tool_use` block instead of prose. Then
`stop_reason` is `tool_use`: the model is waiting for a result.
""", """
## Шаг 1: модель просит инструмент

Если в запросе есть `tools=`, модель может ответить не текстом, а блоком `tool_use`. Тогда
`stop_reason` равен `tool_use`: модель ждёт результат.
"""),
    code('''messages = [{"role": "user", "content": "Review pull request #482."}]
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)

print("stop_reason:", response.stop_reason)
for block in response.content:
    print(block)''', '''messages = [{"role": "user", "content": "Проверь pull request #482."}]
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)

print("stop_reason:", response.stop_reason)
for block in response.content:
    print(block)'''),
    md("""
## Step 2: your code runs the tool

The block carries an `id`, the tool's `name` and its `input`, already filled according to your schema.
Running it is plain Python.
""", """
## Шаг 2: ваш код запускает инструмент

В блоке есть `id`, имя инструмента `name` и его `input`, уже заполненный по вашей схеме.
Запуск — обычный Python.
"""),
    code('''tool_use = next(block for block in response.content if block.type == "tool_use")
diff = get_diff(**tool_use.input)
print(tool_use.id, tool_use.name, tool_use.input, "->", len(diff), "characters")'''),
    md("""
## Step 3: two messages go into the history

First the model's response, **as it is, whole**; then a `user` message with a `tool_result` that
names the `tool_use_id` it answers.
""", """
## Шаг 3: в историю сообщений добавляются два сообщения

Сначала ответ модели — **как есть, целиком**; затем сообщение от `user` с `tool_result`, в котором
указан `tool_use_id` того вызова, на который он отвечает.
"""),
    code('''messages.append({"role": "assistant", "content": response.content})
messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": tool_use.id, "content": diff},
]})
show(messages)'''),
    md("""
## Step 4: send it again

The request now carries the whole history: three messages. With only a diff tool, the model has all
it can get and writes its review: `stop_reason` is `end_turn`.
""", """
## Шаг 4: отправляем снова

Теперь запрос несёт всю историю: три сообщения. У модели есть только инструмент для diff, так что
она уже получила всё, что могла, и пишет ревью: `stop_reason` равен `end_turn`.
"""),
    code('''response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=messages)
print("stop_reason:", response.stop_reason)
print(response.content[0].text)'''),
    md("""
## Break it, then fix it: a result with no request

The API checks the pairing. Send a `tool_result` without the assistant message that holds its
`tool_use`, and it answers 400 with the exact reason:
""", """
## Сломаем и починим: результат без запроса

API проверяет, что пары сходятся. Отправьте `tool_result` без сообщения assistant, в котором лежит
его `tool_use`, — и API ответит ошибкой 400 с точной причиной:
"""),
    code('''broken = [
    {"role": "user", "content": "Review pull request #482."},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": diff}]},
]
client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=broken)''', '''broken = [
    {"role": "user", "content": "Проверь pull request #482."},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": diff}]},
]
client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=broken)''', raises=True),
    md("""
The fix is the order of step 3: the assistant message with the `tool_use` first, then its result.
""", """
Исправление — порядок из шага 3: сначала сообщение assistant с `tool_use`, затем его результат.
"""),
    code('''fixed = broken[:1] + messages[1:3]
show(fixed)
print(client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=fixed).stop_reason)'''),
    *EXERCISE_02,
    quiz(2),
    md("""
## Recap

- A tool is a function plus a description; the model sees only the description.
- `tool_use` means "run this for me"; your code runs it and answers with a `tool_result` of the same id.
- The history grows by two messages per tool turn: the assistant's response, then the results.
""", """
## Итоги

- Инструмент — это функция плюс описание; модель видит только описание.
- `tool_use` означает «запусти это за меня»; ваш код запускает инструмент и отвечает блоком `tool_result` с тем же id.
- За каждый ход с инструментом история растёт на два сообщения: ответ assistant, затем результаты.
"""),
]
