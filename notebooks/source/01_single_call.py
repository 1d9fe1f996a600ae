from cells import code, md
from quizzes import quiz
from exercise_cells import EXERCISE_01

SETUP = '''import os

import anthropic
from course_agent.client import make_client
from course_agent.config import model_id

os.environ["COURSE_AGENT_LANGUAGE"] = "en"  # the language of everything course_agent shows
client = make_client()  # a real anthropic.Anthropic: the offline sandbox, or the live API if ANTHROPIC_API_KEY is set
MODEL = model_id()      # the model id lives in one place (COURSE_AGENT_MODEL overrides it)
print(type(client).__name__, MODEL)'''

SETUP_RU = '''import os

import anthropic
from course_agent.client import make_client
from course_agent.config import model_id

os.environ["COURSE_AGENT_LANGUAGE"] = "ru"  # язык всего, что показывает course_agent
client = make_client()  # настоящий anthropic.Anthropic: офлайн-песочница или живой API, если задан ANTHROPIC_API_KEY
MODEL = model_id()      # id модели задан в одном месте (COURSE_AGENT_MODEL его переопределяет)
print(type(client).__name__, MODEL)'''

CELLS = [
    md("""
# 1. A single call

**You will learn**
- what one call to the Messages API sends and what comes back;
- what a response is made of: content blocks, `stop_reason`, `usage`;
- why "the model has no hands": it reads text and writes text, nothing else.

Everything in this course runs offline against a local sandbox that speaks the real API, so the code
below is the code you would ship. With `ANTHROPIC_API_KEY` set, the same cells talk to the real API.

*About 20 minutes. You need: Python, and how to run a cell in JupyterLab.*
""", """
# 1. Один вызов

**Вы узнаете**
- что отправляет один вызов Messages API и что приходит в ответ;
- из чего состоит ответ: блоки контента, `stop_reason`, `usage`;
- почему «у модели нет рук»: она читает текст и пишет текст, и больше ничего.

Весь курс работает офлайн с локальной песочницей, которая говорит на языке настоящего API, поэтому
код ниже — ровно тот код, который вы бы выпустили в прод. Если задан `ANTHROPIC_API_KEY`, те же ячейки
обращаются к настоящему API.

*Около 20 минут. Нужно: Python и умение запускать ячейки в JupyterLab.*
"""),
    code(SETUP, SETUP_RU),
    md("""
## One request, one response

A request names the model, a budget for the answer (`max_tokens`) and the conversation so far
(`messages`: a list of turns, each with a `role` and `content`).
""", """
## Один запрос — один ответ

В запросе указываются модель, бюджет на ответ (`max_tokens`) и весь разговор на данный момент
(`messages`: список реплик, у каждой есть `role` и `content`).
"""),
    code('''response = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "What is 6 * 7?"}],
)
print(response.content[0].text)''', '''response = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "Сколько будет 6 * 7?"}],
)
print(response.content[0].text)'''),
    md("""
## What a response is made of

The answer is not a string: `content` is a list of **blocks**, each with a `type`. Today there is one
`text` block; soon there will be `tool_use` blocks too. `stop_reason` says why the model stopped,
and `usage` counts the tokens you pay for.
""", """
## Из чего состоит ответ

Ответ — это не строка: `content` — список **блоков**, у каждого есть `type`. Сейчас здесь один блок
`text`; скоро появятся и блоки `tool_use`. `stop_reason` говорит, почему модель остановилась,
а `usage` считает токены, за которые вы платите.
"""),
    code('''print("id:         ", response.id)
print("role:       ", response.role)
print("blocks:     ", [block.type for block in response.content])
print("stop_reason:", response.stop_reason)
print("usage:      ", response.usage.input_tokens, "in,", response.usage.output_tokens, "out")'''),
    md("""
The SDK parsed JSON into its own types. This is the JSON itself, as it came over the wire:
""", """
SDK разобрал JSON в свои типы. А вот сам JSON — в том виде, в каком он пришёл по сети:
"""),
    code('''print(response.model_dump_json(indent=2, exclude_none=True))'''),
    md("""
## The model has no hands

The model cannot open a file, call GitLab or run a test. Ask it to review a merge request and
it can only tell you that: it has nothing but the text you sent. Giving it hands is your code's
job, and the rest of the course is about that code.
""", """
## Модель без рук

Модель не может открыть файл, обратиться к GitLab или запустить тест. Попросите её сделать ревью
merge request — и она сможет только сказать вам об этом: у неё нет ничего, кроме присланного вами
текста. Дать ей руки — задача вашего кода, и весь остальной курс посвящён этому коду.
"""),
    code('''response = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "Review pull request #482."}],
)
print(response.stop_reason)
print(response.content[0].text)''', '''response = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "Проверь pull request #482."}],
)
print(response.stop_reason)
print(response.content[0].text)'''),
    md("""
## Break it, then fix it: a budget too small

`max_tokens` caps the answer. Set it too low and the answer is cut in the middle, and
`stop_reason` says `max_tokens`. Nothing fails loudly: only `stop_reason` tells you.
""", """
## Сломаем и починим: слишком маленький бюджет

`max_tokens` ограничивает длину ответа. Задайте слишком маленькое значение — и ответ оборвётся
на середине, а `stop_reason` будет `max_tokens`. Исключения не будет — об обрыве скажет только `stop_reason`.
"""),
    code('''short = client.messages.create(
    model=MODEL,
    max_tokens=30,
    messages=[{"role": "user", "content": "Explain the agent loop in detail."}],
)
print(short.stop_reason)
print(short.content[0].text)''', '''short = client.messages.create(
    model=MODEL,
    max_tokens=30,
    messages=[{"role": "user", "content": "Объясни подробно, как работает агентный цикл."}],
)
print(short.stop_reason)
print(short.content[0].text)'''),
    md("""
The fix is to give the answer room (and, in an agent, to treat `max_tokens` as an error, never as a
finished answer):
""", """
Исправление — увеличить `max_tokens` (а в агенте — считать `max_tokens` ошибкой и никогда не принимать
обрезанный ответ за законченный):
"""),
    code('''full = client.messages.create(
    model=MODEL,
    max_tokens=2000,
    messages=[{"role": "user", "content": "Explain the agent loop in detail."}],
)
print(full.stop_reason, "-", full.usage.output_tokens, "output tokens")
print(full.content[0].text)''', '''full = client.messages.create(
    model=MODEL,
    max_tokens=2000,
    messages=[{"role": "user", "content": "Объясни подробно, как работает агентный цикл."}],
)
print(full.stop_reason, "-", full.usage.output_tokens, "output tokens")
print(full.content[0].text)'''),
    *EXERCISE_01,
    quiz(1),
    md("""
## Recap

- One call: model, `max_tokens`, `messages` in; a `Message` out.
- The answer is a list of content blocks; `stop_reason` says why it ended; `usage` is what you pay.
- The model only reads and writes text. Everything it "does" will be done by your code.
""", """
## Итоги

- Один вызов: на входе модель, `max_tokens`, `messages`; на выходе — `Message`.
- Ответ — это список блоков контента; `stop_reason` говорит, почему он закончился; `usage` — то, за что вы платите.
- Модель только читает и пишет текст. Всё, что она «делает», будет делать ваш код.
"""),
]
