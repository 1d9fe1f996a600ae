# %% [markdown] lang="en"
# # 1. A single call
#
# **You will learn**
# - what one call to the Messages API sends and what comes back;
# - what a response is made of: content blocks (select them by `type`), `stop_reason`, `usage`;
# - why "the model has no hands": it reads text and writes text, nothing else;
# - how `stop_sequences` ends an answer where you choose (the exercise);
# - (optional, "Go deeper" after the Recap) what is inside a thinking block, and what a `max_tokens` too small for
#   the answer does.
#
# Everything in this course runs offline, against a local sandbox that speaks the real API. So the code below is the
# code you would ship. With `ANTHROPIC_API_KEY` set, the same cells talk to the real API.
#
# The sandbox's model is simulated. It answers the course's tasks as a careful model would, and the same way on every
# run. So the saved outputs are what you will see. A live model's words and choices vary.
#
# <!-- fact: course-model-legacy -->
# The course pins one model, Claude Opus 5 (`claude-opus-5`), which Anthropic's docs now list as legacy (still
# available); the README says how to run the course with another one.
#
# *About 30 minutes, plus 10 for the optional part.*
#
# You need Python 3.10 or later, and these parts of Python:
#
# - functions (passing a function to another one included);
# - lists and dicts, list comprehensions;
# - f-strings (`f"!{pr}"`; `{value!r}` gives the value as Python writes it);
# - `for` loops, `try`/`except Exception as error`, and `raise` to raise an exception.
#
# You also need to know how to run a cell in JupyterLab. Type hints (`pr: int`) are notes for the reader: Python does
# not check them. The lessons explain what they add (a thread pool, `with`, `match`, `try`/`finally`) where it first
# appears. Decorators and `await` appear only in optional sections, each with a short note. The take-home cells are
# written for engineers and use a few idioms more.
#
# The course's diagrams are Mermaid, drawn by JupyterLab 4.1 or later (the course installs 4.6 or later; see
# `pyproject.toml`). Other viewers, such as VS Code or Colab, may show their source text instead.

# %% [markdown] lang="ru"
# # 1. Один вызов
#
# **Вы узнаете**
# - что отправляет один вызов Messages API и что приходит в ответ;
# - из чего состоит ответ: блоки контента (выбирайте их по `type`), `stop_reason`, `usage`;
# - почему «у модели нет рук»: она читает текст и пишет текст, и больше ничего;
# - как `stop_sequences` обрывает ответ там, где вы решили (это упражнение);
# - (по желанию, раздел «Глубже» после итогов) что внутри блока рассуждения и что бывает, когда `max_tokens`
#   не хватает на ответ.
#
# Весь курс работает офлайн, с локальной песочницей. Она отвечает по тому же протоколу, что и настоящий API. Поэтому
# код ниже — ровно тот, что вы запустили бы в рабочем проекте. Если задан `ANTHROPIC_API_KEY`, те же ячейки
# обращаются к настоящему API.
#
# Модель в песочнице — имитация. Она отвечает на задачи курса так, как ответила бы добросовестная модель, и при каждом
# запуске одинаково. Поэтому сохранённые выводы — ровно то, что вы увидите. У настоящей модели слова и решения будут
# другими.
#
# <!-- fact: course-model-legacy -->
# Курс закрепляет одну модель — Claude Opus 5 (`claude-opus-5`); в документации Anthropic она теперь значится как
# устаревшая (но по-прежнему доступна). Как пройти курс с другой моделью, сказано в README.
#
# *Около 30 минут и ещё 10 на необязательную часть.*
#
# Понадобятся Python 3.10 или новее и знание таких основ Python:
#
# - функции (в том числе передача функции в другую функцию);
# - списки и словари, генераторы списков;
# - f-строки (`f"!{pr}"`; `{value!r}` даёт значение так, как его записывает Python);
# - циклы `for`, `try`/`except Exception as error` и `raise`, чтобы выбросить исключение.
#
# Ещё нужно уметь запускать ячейки в JupyterLab. Аннотации типов (`pr: int`) — подсказки для читателя: Python их не
# проверяет. То, что добавляют уроки (пул потоков, `with`, `match`, `try`/`finally`), объясняется там, где встречается
# впервые. Декораторы и `await` встречаются только в необязательных разделах, и к каждому есть короткое пояснение.
# В ячейках «Возьмите с собой», написанных для инженеров, есть и ещё несколько приёмов.
#
# Схемы в курсе написаны на Mermaid, и рисует их JupyterLab 4.1 или новее (курс ставит 4.6 или новее, см.
# `pyproject.toml`). В других программах, например в VS Code или Colab, вместо схемы будет виден её исходный текст.

# %% lang="en"
import os

import anthropic

from course_agent.client import make_client
from course_agent.config import model_id

os.environ["COURSE_AGENT_LANGUAGE"] = "en"  # the language of everything course_agent shows
client = make_client()  # a real anthropic.Anthropic: the offline sandbox, or the live API if ANTHROPIC_API_KEY is set
MODEL = model_id()      # the model id lives in one place (COURSE_AGENT_MODEL overrides it)
print(type(client).__name__, MODEL)

# %% lang="ru"
import os

import anthropic

from course_agent.client import make_client
from course_agent.config import model_id

os.environ["COURSE_AGENT_LANGUAGE"] = "ru"  # язык всего, что показывает course_agent
# настоящий anthropic.Anthropic: офлайн-песочница или настоящий API, если задан ANTHROPIC_API_KEY
client = make_client()
MODEL = model_id()      # id модели задан в одном месте (COURSE_AGENT_MODEL его переопределяет)
print(type(client).__name__, MODEL)

# %% [markdown] lang="en"
# <!-- fact: request-shape -->
# ## One request, one response
#
# A request names three things:
#
# - the model;
# - a budget for the answer (`max_tokens`);
# - the conversation so far (`messages`: a list of turns, each with a `role` and `content`).
#
# The budget is counted in tokens. A token is a piece of text of a few characters, often a short word or a part of
# one. A model reads and writes in tokens, and you are billed in tokens.
#
# Each call stands alone: the API does not remember your earlier calls. "The conversation so far" is whatever you put
# in `messages`. So in an agent, your code keeps that list and sends it, whole, every time.

# %% [markdown] lang="ru"
# <!-- fact: request-shape -->
# ## Один запрос — один ответ
#
# В запросе указываются три вещи:
#
# - модель;
# - бюджет на ответ (`max_tokens`);
# - весь диалог до этого момента (`messages`: список реплик, у каждой есть `role` и `content`).
#
# Бюджет считается в токенах. Токен — это кусочек текста в несколько символов, часто короткое слово или его часть.
# Модель читает и пишет токенами, и оплата тоже считается в токенах.
#
# Каждый вызов сам по себе: прежних вызовов API не помнит. «Весь диалог до этого момента» — это то, что вы положили
# в `messages`. Поэтому в агенте этот список хранит ваш код и каждый раз отправляет целиком.

# %% lang="en"
response = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "What is 6 * 7? Show how you got it."}],
)
print([block.type for block in response.content])
print("\n".join([block.text for block in response.content if block.type == "text"]))

# %% lang="ru"
response = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "Сколько будет 6 * 7? Покажи, как считал."}],
)
print([block.type for block in response.content])
print("\n".join([block.text for block in response.content if block.type == "text"]))

# %% [markdown] lang="en"
# <!-- fact: response-blocks -->
# ## What a response is made of
#
# The answer is not a string. `content` is a list of **blocks**, each with a `type`. Here there are two: `thinking`,
# then `text`. Later you will meet a third type, `tool_use`.
#
# Two more fields matter. `stop_reason` says why the model stopped. `usage` counts the tokens you pay for.

# %% [markdown] lang="ru"
# <!-- fact: response-blocks -->
# ## Из чего состоит ответ
#
# Ответ — это не строка. `content` — список **блоков**, у каждого есть `type`. Здесь их два: `thinking`, а за ним
# `text`. Позже появится и третий тип — `tool_use`.
#
# Важны ещё два поля. `stop_reason` говорит, почему модель остановилась. `usage` считает токены, за которые вы
# платите.

# %% lang="en"
print("blocks:     ", [block.type for block in response.content])
print("stop_reason:", response.stop_reason)
print("usage:      ", response.usage.input_tokens, "in,", response.usage.output_tokens, "out")

# %% lang="ru"
print("блоки:      ", [block.type for block in response.content])
print("stop_reason:", response.stop_reason)
print("usage:      ", response.usage.input_tokens, "ток. на входе,", response.usage.output_tokens, "ток. на выходе")

# %% [markdown] lang="en"
# ## The thinking block comes first
#
# On today's models thinking is on by default (adaptive thinking). Before it answers anything worth thinking about,
# the model thinks. So the response **starts** with a `thinking` block.
#
# One habit follows, for every cell of this course and for your own code: **select blocks by `type`**, never by
# position. `response.content[0]` is often the thinking block, and `.text` on it fails.
#
# The function below does this for you in the rest of this notebook. It joins the text of every text block, whatever
# comes before them.

# %% [markdown] lang="ru"
# ## Первым идёт блок рассуждения
#
# У современных моделей рассуждение включено по умолчанию (адаптивное рассуждение). Прежде чем ответить на вопрос,
# над которым стоит подумать, модель рассуждает. Поэтому ответ **начинается** с блока `thinking`.
#
# Отсюда привычка — для каждой ячейки курса и для вашего собственного кода: **выбирайте блоки по `type`**, а не по
# позиции. `response.content[0]` часто оказывается блоком рассуждения. У такого блока нет `.text`, и обращение к этому
# атрибуту выбросит исключение.
#
# До конца этого блокнота это делает за вас функция ниже. Она склеивает текст всех текстовых блоков, что бы ни стояло
# перед ними.

# %% lang="en"
def text_of(message) -> str:
    """The answer's text: every text block, whatever blocks come before them."""
    return "\n".join([block.text for block in message.content if block.type == "text"])


print(text_of(response))

# %% lang="ru"
def text_of(message) -> str:
    """Текст ответа: все текстовые блоки, какие бы блоки ни стояли перед ними."""
    return "\n".join([block.text for block in message.content if block.type == "text"])


print(text_of(response))

# %% [markdown] lang="en"
# ## The model has no hands
#
# The model cannot open a file, call GitLab or run a test. It has nothing but the text you sent. Giving it hands is
# your code's job. The rest of the course is about that code.
#
# *Merge request or pull request?* The same thing. GitLab says **merge request** (numbered `!482`); GitHub says
# **pull request** (`#482`). The course works with GitLab, so its prompts say `"Review merge request !482."`.
#
# **Predict, then run:** the cell below asks the model, with no tools, to review merge request !482. What will it
# answer? Write your guess down, then run the cell.

# %% [markdown] lang="ru"
# ## Модель без рук
#
# Модель не может открыть файл, обратиться к GitLab или запустить тест. У неё нет ничего, кроме присланного вами
# текста. Дать ей руки — задача вашего кода. Весь остальной курс посвящён этому коду.
#
# *Merge request или pull request?* Это одно и то же. В GitLab это **merge request** (с номером `!482`), в GitHub —
# **pull request** (`#482`). Курс работает с GitLab, поэтому в его запросах — `"Проверь merge request !482."`.
#
# **Сначала предположите, потом запустите:** ячейка ниже просит модель без инструментов проверить merge request !482.
# Что она ответит? Запишите свою догадку и только потом запустите ячейку.

# %% lang="en"
no_hands = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "Review merge request !482."}],
)
print(no_hands.stop_reason)
print(text_of(no_hands))

# %% lang="ru"
no_hands = client.messages.create(
    model=MODEL,
    max_tokens=1000,
    messages=[{"role": "user", "content": "Проверь merge request !482."}],
)
print(no_hands.stop_reason)
print(text_of(no_hands))

# %% [markdown] lang="en"
# The model says so itself: it cannot open the merge request. `stop_reason` is `end_turn`: for the API this is a
# normal, finished answer. Nothing failed; the model simply had no way to act.

# %% [markdown] lang="ru"
# Модель сама это говорит: открыть merge request она не может. `stop_reason` равен `end_turn`: для API это обычный
# законченный ответ. Ничего не сломалось — просто у модели не было способа действовать.

# %% [markdown] lang="en"
# ## Exercise
#
# Ask the model to count from 1 to 10. Make it stop right before it writes `5`, with the `stop_sequences` parameter.
# Keep the response in `counting`. Print `stop_reason`, `stop_sequence` and the text. What is in the text, and what is
# not?

# %% [markdown] lang="ru"
# ## Упражнение
#
# Попросите модель посчитать от 1 до 10. С помощью параметра `stop_sequences` заставьте её остановиться прямо перед
# тем, как она напишет `5`. Сохраните ответ в `counting`. Выведите `stop_reason`, `stop_sequence` и текст. Что попало
# в текст, а что нет?

# %% lang="en"
# Count from 1 to 10 and stop right before 5: client.messages.create(..., stop_sequences=...)
counting = None  # replace None with your call: the Message it returns

# then print counting.stop_reason, counting.stop_sequence and the text

# %% lang="ru"
# Посчитать от 1 до 10 и остановиться прямо перед 5: client.messages.create(..., stop_sequences=...)
counting = None  # замените None своим вызовом (он возвращает Message)

# затем выведите counting.stop_reason, counting.stop_sequence и текст

# %% [markdown] lang="en"
# <!-- fact: stop-sequences-param -->
# ### Check your exercise
#
# The cell below reads `counting`: its `stop_reason`, its `stop_sequence` and its text. While the cell above is
# unchanged, it says "not done yet".
#
# <details><summary>Hint</summary>
#
# `stop_sequences` is a list of strings. The model stops as soon as it would write one of them, and that string is not
# part of the text.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: stop-sequences-param -->
# ### Проверьте упражнение
#
# Ячейка ниже читает `counting`: его `stop_reason`, `stop_sequence` и текст. Пока вы не изменили ячейку выше, проверка
# отвечает «пока не сделано».
#
# <details><summary>Подсказка</summary>
#
# `stop_sequences` — список строк. Модель останавливается, как только должна написать одну из них, и эта строка в текст
# не попадает.
# </details>

# %%
from course_selfcheck.exercises import check_exercise_1

check_exercise_1(counting)

# %% [markdown] lang="en"
# The reference solution, folded (a spoiler: open it once you have tried yours; after it, `print(solution_code(1))`
# prints it too).

# %% [markdown] lang="ru"
# Ниже — эталонное решение в свёрнутом виде: откройте его, когда попробуете решить сами (когда ячейка ниже
# выполнится, его напечатает и `print(solution_code(1))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(1)

# %% [markdown] lang="en"
# <!-- fact: content-list-several-types -->
# <!-- fact: usage-input-output -->
# ## Check yourself
#
# 1. Asked to review !482 with no tools, what can the model do?
#
# <details><summary>Answer</summary>
#
# Only write text: it cannot open GitLab. Everything an agent "does" is done by your code.
# </details>
#
# 2. What does `usage` tell you?
#
# <details><summary>Answer</summary>
#
# How many input and output tokens the call used: what you pay for.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 3. The response's `content` is a list. Why a list, not one string?
#    - (a) so that the answer can be streamed
#    - (b) one response can hold several blocks of different types: thinking, text, tool_use
#    - (c) each item is one sentence of the answer
#
# <details><summary>Answer</summary>
#
# (b). Streaming is another way to receive the same response, not why it is a list; and a text block holds a stretch
# of text of any length, not one sentence.
# </details>
#
# 4. You call `messages.create` twice with the same question. Does the second call remember the first?
#    - (a) yes: the API keeps a session for each API key
#    - (b) no: each call stands alone; the model sees only what you send in `messages`
#    - (c) for a few minutes: the API caches recent answers
#
# <details><summary>Answer</summary>
#
# (b). There is no session per key: the history is the list you send. And no cache remembers for you: prompt caching
# (notebook 8) saves the cost of a repeated beginning, but it is not memory.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: content-list-several-types -->
# <!-- fact: usage-input-output -->
# ## Проверьте себя
#
# 1. Что может модель, если попросить её проверить !482 без инструментов?
#
# <details><summary>Ответ</summary>
#
# Только написать текст: открыть GitLab она не может. Всё, что агент «делает», делает ваш код.
# </details>
#
# 2. Что сообщает `usage`?
#
# <details><summary>Ответ</summary>
#
# Сколько входных и выходных токенов ушло на вызов, то есть за что вы платите.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 3. `content` ответа — это список. Почему список, а не одна строка?
#    - (а) чтобы ответ можно было получать потоком
#    - (б) в одном ответе может быть несколько блоков разных типов: рассуждение, текст, tool_use
#    - (в) каждый элемент — одно предложение ответа
#
# <details><summary>Ответ</summary>
#
# (б). Поток — лишь другой способ получить тот же ответ, и почему это список, он не объясняет. А текстовый блок
# содержит связный текст любой длины, а не одно предложение.
# </details>
#
# 4. Вы дважды вызываете `messages.create` с одним и тем же вопросом. Помнит ли второй вызов первый?
#    - (а) да: API хранит сеанс для каждого ключа
#    - (б) нет: каждый вызов сам по себе; модель видит только то, что вы отправили в `messages`
#    - (в) несколько минут помнит: API кэширует недавние ответы
#
# <details><summary>Ответ</summary>
#
# (б). Сеанса для ключа нет: история — это список, который вы отправляете. И кэш за вас ничего не помнит: кэширование
# промпта (блокнот 8) экономит на повторяющемся начале запроса, но это не память.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - One call: model, `max_tokens`, `messages` in; a `Message` out.
# - The answer is a list of content blocks, often starting with thinking: select them by `type`.
# - `stop_reason` says why it ended; `usage` is what you pay.
# - The model only reads and writes text. Everything it "does" will be done by your code.
#
# On a first pass, stop here: the rest of this notebook is optional, and nothing later needs it.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Один вызов: на входе модель, `max_tokens`, `messages`; на выходе — `Message`.
# - Ответ — это список блоков контента, и часто первым идёт рассуждение: выбирайте блоки по `type`.
# - `stop_reason` говорит, почему ответ закончился; `usage` — то, за что вы платите.
# - Модель только читает и пишет текст. Всё, что она «делает», будет делать ваш код.
#
# При первом прохождении на этом можно остановиться: дальше идёт необязательный раздел, и он не понадобится ни в одном
# следующем блокноте.

# %% [markdown] lang="en"
# <!-- fact: thinking-display-omitted -->
# <!-- fact: sdk-parses-json -->
# ## Go deeper (optional): inside a response
#
# The exercise above did not need this section, and the rest of the course does not either. The section looks inside
# the thinking block of the first response (6 * 7). Then it tries a budget too small for the answer.
#
# **What is inside a thinking block?** By default (`thinking.display` is `"omitted"`) you are not sent the reasoning
# itself. `thinking` is an empty string, and `signature` carries the reasoning, sealed. You still pay for it: it is
# counted in `output_tokens`. (Optional notebook 12 shows the reasoning and tunes how much the model thinks.)
#
# The SDK parsed JSON into its own types. So each field is an attribute, `block.signature`, not a dict key.

# %% [markdown] lang="ru"
# <!-- fact: thinking-display-omitted -->
# <!-- fact: sdk-parses-json -->
# ## Глубже (по желанию): что внутри ответа
#
# Для упражнения выше этот раздел не был нужен, и дальше в курсе он тоже не понадобится. Здесь мы заглянем внутрь
# блока рассуждения из первого ответа (6 * 7). А потом посмотрим, что бывает, когда бюджета не хватает на ответ.
#
# **Что внутри блока рассуждения?** По умолчанию (`thinking.display` равно `"omitted"`) само рассуждение вам не
# присылают. `thinking` — пустая строка, а само рассуждение в зашифрованном виде лежит в `signature`. Платите вы за
# него всё равно: оно входит в `output_tokens`. (Необязательный блокнот 12 показывает само рассуждение и то, как
# настроить его объём.)
#
# SDK превращает полученный JSON в объекты Python. Поэтому каждое поле — атрибут, например `block.signature`, а не
# ключ словаря.

# %% lang="en"
for block in response.content:
    if block.type == "thinking":
        print(f"thinking: {len(block.thinking)} characters, signature: {len(block.signature)} characters")
    elif block.type == "text":
        print(f"text: {block.text}")

# %% lang="ru"
for block in response.content:
    if block.type == "thinking":
        print(f"thinking: {len(block.thinking)} симв., signature: {len(block.signature)} симв.")
    elif block.type == "text":
        print(f"text: {block.text}")

# %% [markdown] lang="en"
# A simple message may get no thinking block at all: the model decides per request.

# %% [markdown] lang="ru"
# На простое сообщение модель может не рассуждать вовсе: она решает это для каждого запроса.

# %% lang="en"
hello = client.messages.create(model=MODEL, max_tokens=1000, messages=[{"role": "user", "content": "Hello!"}])
print([block.type for block in hello.content], text_of(hello))

# %% lang="ru"
hello = client.messages.create(model=MODEL, max_tokens=1000, messages=[{"role": "user", "content": "Привет!"}])
print([block.type for block in hello.content], text_of(hello))

# %% [markdown] lang="en"
# <!-- fact: max-tokens-includes-thinking -->
# ### Break it, then fix it: a budget too small
#
# `max_tokens` caps everything the model writes, **thinking included**. The model thinks first, and the answer gets
# what is left.
#
# **Predict, then run:** the cell below allows 30 tokens for a long explanation. Will the call raise an exception?
# What will `stop_reason` say, and how much text will come back?

# %% [markdown] lang="ru"
# <!-- fact: max-tokens-includes-thinking -->
# ### Сломаем и починим: слишком маленький бюджет
#
# `max_tokens` ограничивает всё, что пишет модель, **включая рассуждение**. Сначала модель рассуждает, а ответу
# достаётся то, что осталось.
#
# **Сначала предположите, потом запустите:** ячейка ниже даёт 30 токенов на подробное объяснение. Выбросит ли вызов
# исключение? Что покажет `stop_reason` и сколько текста придёт?

# %% lang="en"
short = client.messages.create(
    model=MODEL,
    max_tokens=30,
    messages=[{"role": "user", "content": "Explain the agent loop in detail."}],
)
print(short.stop_reason, short.usage.output_tokens)
print([block.type for block in short.content], "text,", len(text_of(short)), "characters:", text_of(short))

# %% lang="ru"
short = client.messages.create(
    model=MODEL,
    max_tokens=30,
    messages=[{"role": "user", "content": "Объясни подробно, как работает агентный цикл."}],
)
print(short.stop_reason, short.usage.output_tokens)
print([block.type for block in short.content], "текст,", len(text_of(short)), "симв.:", text_of(short))

# %% [markdown] lang="en"
# No exception, and no text. The 30 tokens went to thinking, so the answer never started. (A larger budget cuts it in
# the middle instead.) Only `stop_reason`, `max_tokens`, says so.
#
# The fix is to give the answer room. And in an agent, treat `max_tokens` as an error, never as a finished answer:

# %% [markdown] lang="ru"
# Исключения нет. Почти все 30 токенов ушли на рассуждение, и ответ оборвался на первом же слове. (При другом вопросе
# он может и вовсе не начаться.) Об этом говорит только `stop_reason`: он равен `max_tokens`.
#
# Исправление — увеличить `max_tokens`. А в агенте считайте `max_tokens` ошибкой и никогда не принимайте обрезанный
# ответ за законченный:

# %% lang="en"
full = client.messages.create(
    model=MODEL,
    max_tokens=2000,
    messages=[{"role": "user", "content": "Explain the agent loop in detail."}],
)
print(full.stop_reason, "-", full.usage.output_tokens, "output tokens")
print(text_of(full))

# %% lang="ru"
full = client.messages.create(
    model=MODEL,
    max_tokens=2000,
    messages=[{"role": "user", "content": "Объясни подробно, как работает агентный цикл."}],
)
print(full.stop_reason, "— на выходе", full.usage.output_tokens, "ток.")
print(text_of(full))

# %% [markdown] lang="en"
# **A question on this section.** With 30 tokens the text above came back empty. Give the model a little more room,
# and the text may stop at the end of a sentence. Then it reads like a finished answer. How does your code tell that
# it was cut?
#
# <details><summary>Answer</summary>
#
# Not by the text: by `stop_reason`. `max_tokens` means the budget ran out, however the text ends. Only `end_turn`
# means the model finished. So check `stop_reason` before you use the text (and in an agent, treat `max_tokens` as an
# error).
# </details>

# %% [markdown] lang="ru"
# **Вопрос к этому разделу.** С 30 токенами ответ выше оборвался на первом слове. Дайте модели чуть больше места —
# и текст может оборваться в конце предложения. Тогда он выглядит как законченный ответ. Как ваш код поймёт, что
# ответ обрезан?
#
# <details><summary>Ответ</summary>
#
# Не по тексту, а по `stop_reason`. `max_tokens` значит, что бюджет кончился, чем бы ни заканчивался текст. Модель
# закончила, только если там `end_turn`. Поэтому проверяйте `stop_reason`, прежде чем брать текст (а в агенте считайте
# `max_tokens` ошибкой).
# </details>
