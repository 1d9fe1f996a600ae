from cells import code, md
from quizzes import quiz
from exercise_cells import EXERCISE_08
from common import SETUP, SETUP_RU

CELLS = [
    md("""
# 8. The full reviewer

**You will learn**
- to run the finished agent (`course_agent.review`) on several merge requests and post its review;
- what prompt caching saves over a review, and how to turn it on;
- that the SDK's beta `tool_runner` is this same loop, written for you;
- how to point everything at a real GitLab and the real API.

*About 35 minutes. Builds on notebook 7.*
""", """
# 8. Полный ревьюер

**Вы узнаете**
- как запустить готового агента (`course_agent.review`) на нескольких merge request и опубликовать его ревью;
- сколько экономит кэширование промптов за одно ревью и как его включить;
- что бета-функция `tool_runner` из SDK — это тот же самый цикл, только написанный за вас;
- как направить всё это на настоящий GitLab и настоящий API.

*Около 35 минут. Опирается на блокнот 7.*
"""),
    code(SETUP, SETUP_RU),
    md("""
## Several merge requests

`review(pr)` puts together everything of the previous notebooks: the reference loop, the GitLab tools,
the safety gate (merging asks a human). The progress printer is an observer of the loop.

```mermaid
flowchart LR
    M["messages<br/>(rules cached)"] --> C["client.messages.create"]
    C -- "tool_use" --> G{"safety gate"}
    G -- "read-only: at once" --> T["GitLab tools"]
    G -- "merge_pr: a human says yes or no" --> T
    T -- "results, errors as is_error" --> M
    C -- "end_turn" --> R["the review (posted as a note)"]
    C -- "other stop reasons, the cap" --> E["a clear error, history kept"]
```
""", """
## Несколько merge request

`review(pr)` собирает вместе всё из предыдущих блокнотов: эталонный цикл, инструменты GitLab,
шлюз безопасности (слияние требует подтверждения человека). Вывод прогресса — наблюдатель (observer) цикла.

```mermaid
flowchart LR
    M["messages<br/>(правила в кэше)"] --> C["client.messages.create"]
    C -- "tool_use" --> G{"шлюз безопасности"}
    G -- "только чтение: сразу" --> T["инструменты GitLab"]
    G -- "merge_pr: человек говорит да или нет" --> T
    T -- "результаты, ошибки с is_error" --> M
    C -- "end_turn" --> R["ревью (публикуется комментарием)"]
    C -- "другие причины остановки, ограничение" --> E["понятная ошибка, история сохранена"]
```
"""),
    code('''from course_agent.review import review
from course_agent.progress import ProgressPrinter
import sys

for pr in (483, 486, 482):
    result = review(pr, client=client, language="en", observers=[ProgressPrinter(sys.stdout)])
    print(result.text.splitlines()[0], "|", result.text.splitlines()[-1], f"| {result.iterations} calls")
    print()''', '''from course_agent.review import review
from course_agent.progress import ProgressPrinter
import sys

for pr in (483, 486, 482):
    result = review(pr, client=client, language="ru", observers=[ProgressPrinter(sys.stdout)])
    print(result.text.splitlines()[0], "|", result.text.splitlines()[-1], f"| {result.iterations} calls")
    print()'''),
    md("""
## Posting the review

With `post=True` the task asks the agent to post its review as a comment; `post_comment` is a writing
tool, allowed and logged by the default policy.
""", """
## Публикация ревью

С `post=True` задание просит агента опубликовать ревью комментарием; `post_comment` — пишущий
инструмент, который политика по умолчанию разрешает и логирует.
"""),
    code('''from course_agent.gitlab import GitLabTools

posted = review(482, client=client, post=True, language="en")
print(posted.text.splitlines()[0])
note = GitLabTools().project.mergerequests.get(482).notes.list(get_all=True)[-1]
print("note by", note.author["username"] + ":", note.body.splitlines()[0], "...", note.body.splitlines()[-1])''',
         '''from course_agent.gitlab import GitLabTools

posted = review(482, client=client, post=True, language="ru")
print(posted.text.splitlines()[0])
note = GitLabTools().project.mergerequests.get(482).notes.list(get_all=True)[-1]
print("note by", note.author["username"] + ":", note.body.splitlines()[0], "...", note.body.splitlines()[-1])'''),
    md("""
## Break it, then fix it: paying for the same prompt again

Every call of a review sends the rules, the tool definitions and the whole history again. With
`cache_control` breakpoints the API stores that prefix: the first time it is written (billed at
1.25x), later calls read it (0.1x). `review(cache=True)` sets one breakpoint after the rules, shared
by all reviews, and automatic caching for the growing conversation.
""", """
## Сломаем и починим: платим за тот же промпт снова

Каждый вызов в ходе ревью заново отправляет правила, определения инструментов и всю историю сообщений. Если
расставить точки кэширования `cache_control`, API сохраняет этот префикс: в первый раз он записывается (по тарифу
1,25 от цены входного токена), последующие вызовы читают его (0,1). `review(cache=True)` ставит одну точку после правил, общую
для всех ревью, и включает автоматическое кэширование для растущего диалога.
"""),
    code('''def billed(usage):
    """Input tokens as billed: cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


plain = review(484, client=client, cache=False)
cached = review(484, client=client, cache=True)
for u in cached.usage:
    print(f"in {u.input_tokens:5}  cache write {u.cache_creation_input_tokens:5}  cache read {u.cache_read_input_tokens:5}")
print(f"billed input: {billed(plain.usage):.0f} without caching, {billed(cached.usage):.0f} with "
      f"({billed(cached.usage) / billed(plain.usage):.0%})")''', '''def billed(usage):
    """Входные токены по тарифу: запись в кэш стоит 1,25 цены, чтение — 0,1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


plain = review(484, client=client, cache=False)
cached = review(484, client=client, cache=True)
for u in cached.usage:
    print(f"вход {u.input_tokens:5}  запись в кэш {u.cache_creation_input_tokens:5}  чтение из кэша {u.cache_read_input_tokens:5}")
print(f"входные токены по тарифу: {billed(plain.usage):.0f} без кэширования, {billed(cached.usage):.0f} с ним "
      f"({billed(cached.usage) / billed(plain.usage):.0%})")'''),
    md("""
The same run as a chart: each request's input, split into what was read from the cache, written to it or
sent plain, and the billed input so far with caching (as it happened) and without it.
""", """
Тот же прогон в виде графика: вход каждого запроса — что прочитано из кэша, что записано в него и что ушло
без кэширования, — а также сколько входных токенов оплачено к этому моменту с кэшированием (как было) и без него.
"""),
    code('''from course_agent.usage_chart import usage_chart

usage_chart(cached)'''),
    md("""
The first call of this review already read the rules from the cache (the reviews above wrote them).
A prompt below the model's minimum (1024 tokens for this model in the sandbox) is silently not cached.

## The same agent through the SDK's tool_runner

The SDK ships this loop too: `client.beta.messages.tool_runner` takes Python functions decorated
with `@beta_tool`, derives their schemas from the signatures, and runs the loop you wrote by hand:
call, run every requested tool, send all results back, stop at the end. (It has no safety gate: that
is still your job.)
""", """
Первый вызов этого ревью уже прочитал правила из кэша (их записали ревью выше). Промпт короче минимального
для модели размера (1024 токена для этой модели в песочнице) молча не кэшируется.

## Тот же агент через tool_runner из SDK

В SDK этот цикл тоже есть: `client.beta.messages.tool_runner` принимает Python-функции с декоратором
`@beta_tool`, выводит их схемы из сигнатур и выполняет тот цикл, который вы писали вручную: вызов модели,
выполнение каждого запрошенного инструмента, отправка всех результатов обратно, остановка в конце. (Шлюза
безопасности в нём нет: это по-прежнему ваша забота.)
"""),
    code('''from anthropic import beta_tool

tools = GitLabTools()


@beta_tool
def get_diff(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return tools.get_diff(pr)


@beta_tool
def read_file(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return tools.read_file(path, ref)


runner = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, tools=[get_diff, read_file],
    messages=[{"role": "user", "content": "Review merge request !482."}],
)
for message in runner:
    print(message.stop_reason, [block.type for block in message.content])
print(message.content[-1].text.splitlines()[-1])''', '''from anthropic import beta_tool

tools = GitLabTools()


@beta_tool
def get_diff(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return tools.get_diff(pr)


@beta_tool
def read_file(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return tools.read_file(path, ref)


runner = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, tools=[get_diff, read_file],
    messages=[{"role": "user", "content": "Проверь merge request !482."}],
)
for message in runner:
    print(message.stop_reason, [block.type for block in message.content])
print(message.content[-1].text.splitlines()[-1])'''),
    md("""
## Real GitLab, real API

Nothing above is specific to the sandbox except the outputs. Before starting JupyterLab:

```bash
export ANTHROPIC_API_KEY=sk-ant-...            # the real Messages API
export GITLAB_URL=https://gitlab.com           # your GitLab
export GITLAB_TOKEN=glpat-...                  # a token with the api scope
export GITLAB_PROJECT=group/project            # the project to review
export COURSE_AGENT_MODEL=claude-opus-5        # optional: another model id
```

Then `make_client()` returns a client for the live API, and `GitLabTools()` talks to your project. From
a terminal: `course-agent review 482 --post`. Outputs will differ from the saved ones (a real model
writes its own review), and the cells that inject faults or shrink the context window need the sandbox.
""", """
## Настоящий GitLab, настоящий API

Ничто выше не привязано к песочнице, кроме выводов. Перед запуском JupyterLab:

```bash
export ANTHROPIC_API_KEY=sk-ant-...            # настоящий Messages API
export GITLAB_URL=https://gitlab.com           # ваш GitLab
export GITLAB_TOKEN=glpat-...                  # токен со scope api
export GITLAB_PROJECT=group/project            # проект для ревью
export COURSE_AGENT_MODEL=claude-opus-5        # необязательно: другой id модели
```

После этого `make_client()` возвращает клиент для живого API, а `GitLabTools()` работает с вашим проектом. Из
терминала: `course-agent review 482 --post`. Выводы будут отличаться от сохранённых (настоящая модель
пишет своё ревью), а ячейкам, которые внедряют сбои или сжимают контекстное окно, нужна песочница.
"""),
    *EXERCISE_08,
    quiz(8),
    md("""
## Recap

- The finished reviewer is the loop of notebook 3, the error handling of 5, the stop reasons of 6 and the gate of 7.
- Caching the rules and the growing history cuts the billed input of a review several times.
- The SDK's `tool_runner` is the same loop; the responsibility for what may run stays with you.
""", """
## Итоги

- Готовый ревьюер — это цикл из блокнота 3, обработка ошибок из 5, причины остановки из 6 и шлюз из 7.
- Кэширование правил и растущей истории в несколько раз сокращает оплачиваемые входные токены ревью.
- `tool_runner` из SDK — тот же цикл; ответственность за то, что можно запускать, остаётся на вас.
"""),
]
