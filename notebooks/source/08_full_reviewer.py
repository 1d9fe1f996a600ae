# %% [markdown] lang="en"
# # 8. The full reviewer
#
# **You will learn**
# - why a tool result is cut at 20,000 characters, and what the model must be told when it is;
# - what prompt caching saves over a review, and how to turn it on in your loop;
# - (optional, "Go deeper" after the Recap) that the SDK's beta `tool_runner` is this same loop, written for you;
#   the cache as a chart, and the smallest prompt a model caches.
#
# Shipping the reviewer is optional notebook 9's subject: posting the review on the merge request, several reviews at
# once, a real GitLab, a pipeline and batches.
#
# *About 95 minutes, plus 20 for the two optional parts. Builds on notebook 7.*
#
# <!-- rules-so-far -->

# %% [markdown] lang="ru"
# # 8. Полный ревьюер
#
# **Вы узнаете**
# - почему результат инструмента обрезают до 20 000 символов и что при этом нужно сказать модели;
# - сколько экономит кэширование промпта за одно ревью и как включить его в вашем цикле;
# - (по желанию, разделы «Глубже» после итогов) что бета-функция `tool_runner` из SDK — тот же самый цикл, только
#   написанный за вас; как выглядит кэш на графике и какой самый короткий промпт модель кэширует.
#
# Как ввести ревьюера в эксплуатацию, рассказывает необязательный блокнот 9: публикация ревью в merge request, несколько
# ревью одновременно, настоящий GitLab, пайплайн и пакетные ревью.
#
# *Около 95 минут и ещё 20 на две необязательные части. Опирается на блокнот 7.*
#
# <!-- rules-so-far -->

# %% use="setup"

# %% [markdown] lang="en"
# ## A result too big to send whole
#
# Merge request !486 refreshes `data/catalog.json`, a file of almost half a million characters, and a review of it
# reads that file. Sent whole, it would go into the history and be paid for again on every later call. So a loop cuts
# a long result: the course's own loop at 20,000 characters (`course_agent.tools.MAX_RESULT_CHARS`). A silent cut is
# worse than none: the model would take the file's first 20,000 characters for the whole of it. So the cut result
# ends with a line that says it was cut, out of how many characters, and how to get the rest.
#
# The cell below writes such a `cut` and tries it on that file, read with notebook 3's `read_file`. Its note can only
# say that the rest was not sent: notebook 3's `read_file` always reads a whole file. In the exercise your loop does
# better: its `read_file` takes a `start`.

# %% [markdown] lang="ru"
# ## Результат, слишком большой, чтобы отправить его целиком
#
# Merge request !486 обновляет `data/catalog.json` — файл почти в полмиллиона символов, и ревью этот файл читает.
# Отправленный целиком, он попал бы в историю, и за него пришлось бы платить снова на каждом следующем вызове.
# Поэтому цикл обрезает длинный результат: собственный цикл курса — до 20 000 символов
# (`course_agent.tools.MAX_RESULT_CHARS`). Молча обрезать хуже, чем не обрезать вовсе: модель примет начало файла за
# весь файл. Поэтому в конце обрезанного результата есть строка: что он обрезан, из скольких символов и как получить
# остальное.
#
# В ячейке ниже — такая функция `cut`, проверенная на этом файле (его читает `read_file` из блокнота 3). Пометка этой
# функции может сказать только, что остальное не отправлено: `read_file` из блокнота 3 всегда читает файл целиком.
# В упражнении ваш цикл справится лучше: там у `read_file` есть параметр `start`.

# %% lang="en"
from lesson_tools import REVIEW_RULES, TOOLS, read_file, run_tool  # notebook 3's cells

from course_agent.i18n import number  # a figure as the learner's language writes it

LIMIT = 20_000  # characters, as in the course's own loop


def cut(text: str, limit: int = LIMIT) -> str:
    """The first `limit` characters, then a line that tells the model the rest was cut."""
    if len(text) <= limit:
        return text
    return (text[:limit]
            + f"\n\n[cut: the first {limit} of {len(text)} characters; "
              "read_file cannot read the rest yet.]")


catalog = read_file("data/catalog.json", "data/catalog-refresh")
sent = cut(catalog)
note = sent[LIMIT:].strip()  # the line for the model
print(f"{number(len(catalog), 'en', 0)} characters in the file; {number(len(sent), 'en', 0)} sent to the model")
print(f"= {number(LIMIT, 'en', 0)} kept + 2 line breaks + this line of {len(note)} characters:\n{note}")

# %% lang="ru"
from lesson_tools import REVIEW_RULES, TOOLS, read_file, run_tool  # ячейки блокнота 3

from course_agent.i18n import number  # «484 915»: от пяти цифр разряды через неразрывный пробел

LIMIT = 20_000  # символов, как в собственном цикле курса


def cut(text: str, limit: int = LIMIT) -> str:
    """Первые `limit` символов и строка, которая говорит модели, что остальное обрезано."""
    if len(text) <= limit:
        return text
    return (text[:limit]
            + f"\n\n[обрезано: отправлены символы 0–{limit} из {len(text)}; "
              "прочитать остальное read_file пока не умеет.]")


catalog = read_file("data/catalog.json", "data/catalog-refresh")
sent = cut(catalog)
note = sent[LIMIT:].strip()  # строка для модели
print(f"символов в файле: {number(len(catalog), 'ru', 0)}; отправлено модели: {number(len(sent), 'ru', 0)}")
print(f"= {number(LIMIT, 'ru', 0)} первых символов + 2 перевода строки + пометка (символов: {len(note)}):\n{note}")

# %% [markdown] lang="en"
# <!-- fact: automatic-caching -->
# <!-- fact: cache-prices -->
# ## Break it, then fix it: paying for the same prompt again
#
# Every call of a review sends the rules, the tool definitions and the whole history again. Two words first:
#
# - the **prefix** is the part of the request that is the same as last time (rules, tools, the turns so far);
# - a **breakpoint** is a `cache_control` mark on a block of the request. It asks the API to cache everything up to
#   that block.
#
# With a breakpoint, the API stores the prefix. You pay for that in two ways:
#
# - the first call *writes* it: 1.25x the input price;
# - each later call *reads* it: 0.1x on Opus 5, the course's model.
#
# In your own loop, automatic caching is one argument of the request:
# `client.messages.create(..., cache_control={"type": "ephemeral"})`. It puts the breakpoint on the last block it can
# cache, so the breakpoint moves along as the conversation grows.
#
# <details><summary>Other models, and the cache's lifetime</summary>
#
# Other models' read rates are in `course_agent/prices.py`. `"ephemeral"` is the only type of cache there is: an entry
# lives 5 minutes unless you ask for an hour (`"ttl": "1h"`). A 1-hour write costs 2x the input price.
# </details>
#
# The cell below runs notebook 3's loop on !484 twice: without that argument, then with it. The loop is written short
# here, with the cut above. It returns every response, so that you can read their `usage`. Its results come from
# `demo_tool_result`, notebook 5's results with the cut. The input is then split three ways:
#
# - `input_tokens`: after the last breakpoint, billed in full;
# - `cache_creation_input_tokens`: written to the cache;
# - `cache_read_input_tokens`: read from it.
#
# *Python note:* a cache field may be `None` when nothing was written or read, and `u.cache_read_input_tokens or 0`
# then gives 0 (`or` gives its right side when the left one is false: `None` or 0).
#
# **Predict, then run:** a review of !484 takes a few calls. Will caching cut its billed input by about a tenth, by
# about two fifths, or by more than two thirds?

# %% [markdown] lang="ru"
# <!-- fact: automatic-caching -->
# <!-- fact: cache-prices -->
# ## Сломаем и починим: платим за тот же промпт снова
#
# Каждый вызов в ходе ревью заново отправляет правила, определения инструментов и всю историю сообщений. Сначала два
# понятия:
#
# - **префикс** — та часть запроса, которая не изменилась с прошлого раза (правила, инструменты, уже прошедшие ходы);
# - **контрольная точка кэша** — пометка `cache_control` на блоке запроса. Она просит API закэшировать всё до этого
#   блока включительно.
#
# Если в запросе есть контрольная точка, API сохраняет префикс. Платите вы за это по двум тарифам:
#
# - первый вызов префикс *записывает*: по 1,25 цены входного токена;
# - каждый следующий его *читает*: по 0,1 цены у Opus 5, модели курса.
#
# В вашем собственном цикле автоматическое кэширование — это один аргумент запроса:
# `client.messages.create(..., cache_control={"type": "ephemeral"})`. Он ставит контрольную точку кэша на последний
# блок, который можно кэшировать, так что она движется вместе с растущим диалогом.
#
# <details><summary>Другие модели и срок жизни кэша</summary>
#
# Тарифы чтения у других моделей — в `course_agent/prices.py`. `"ephemeral"` — единственный тип кэша: запись в нём
# живёт 5 минут, если не попросить час (`"ttl": "1h"`). Запись в кэш на час идёт по двойной цене входного токена.
# </details>
#
# Ячейка ниже дважды запускает цикл из блокнота 3 на !484: без этого аргумента и с ним. Цикл здесь записан коротко, с
# функцией `cut` из ячейки выше. Он возвращает все ответы, чтобы можно было прочитать их `usage`. Результаты для него
# делает `demo_tool_result` — результаты из блокнота 5, но с обрезкой. Входные токены в `usage` разложены по трём
# полям:
#
# - `input_tokens` — всё, что после последней контрольной точки, по полной цене;
# - `cache_creation_input_tokens` — записанное в кэш;
# - `cache_read_input_tokens` — прочитанное из кэша.
#
# *Заметка о Python:* поле кэша может быть `None`, если в кэш ничего не записано и из него ничего не прочитано, и
# тогда `u.cache_read_input_tokens or 0` даёт 0 (`or` возвращает правую часть, когда левая ложна: `None` или 0).
#
# **Сначала предположите, потом запустите:** ревью !484 занимает несколько вызовов. На сколько кэширование сократит
# оплачиваемый вход — примерно на десятую часть, примерно на две пятых или больше чем на две трети?

# %% lang="en"
def billed(usage):
    """Input tokens as billed on Opus 5: 5-minute cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def demo_tool_result(call) -> dict:
    """As in exercise 5, with the result cut: a failing tool gives an error result."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": cut(run_tool(call.name, call.input))}
    except Exception as error:  # any failure is the model's to read
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}


def responses_of(pr_number: int, cache: bool, max_iterations: int = 20) -> list:
    """Notebook 3's loop, short: every response of one review, with or without caching."""
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    responses = []
    for _ in range(max_iterations):  # the cap, as in notebook 3
        if cache:
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages, cache_control={"type": "ephemeral"})
        else:
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages)
        responses.append(response)
        if response.stop_reason == "end_turn":
            return responses
        if response.stop_reason != "tool_use":  # any other stop: an error (notebook 6 handles each)
            raise RuntimeError(f"Unexpected stop: {response.stop_reason}")
        messages.append({"role": "assistant", "content": response.content})
        calls = [block for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": [demo_tool_result(call) for call in calls]})  # in one message
    raise RuntimeError(f"No answer after {max_iterations} iterations")


plain = responses_of(484, cache=False)
cached = responses_of(484, cache=True)
for response in cached:
    u = response.usage
    print("in", u.input_tokens, "| cache write", u.cache_creation_input_tokens,
          "| cache read", u.cache_read_input_tokens)
before = billed([response.usage for response in plain])
after = billed([response.usage for response in cached])
print("billed input:", round(before), "without caching,", round(after), "with it:",
      f"{after / before:.0%}")

# %% lang="ru"
def billed(usage):
    """Входные токены по тарифу Opus 5: запись в кэш на 5 минут стоит 1,25 цены, чтение — 0,1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def demo_tool_result(call) -> dict:
    """Как в упражнении 5, с обрезкой результата: упавший инструмент даёт результат с ошибкой."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": cut(run_tool(call.name, call.input))}
    except Exception as error:  # любой сбой модель должна прочитать
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} завершился ошибкой: {type(error).__name__}: {error}"}


def responses_of(pr_number: int, cache: bool, max_iterations: int = 20) -> list:
    """Цикл из блокнота 3, коротко: все ответы одного ревью, с кэшированием или без него."""
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]
    responses = []
    for _ in range(max_iterations):  # ограничение, как в блокноте 3
        if cache:
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages, cache_control={"type": "ephemeral"})
        else:
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages)
        responses.append(response)
        if response.stop_reason == "end_turn":
            return responses
        if response.stop_reason != "tool_use":  # другая остановка — ошибка (каждую разбирал блокнот 6)
            raise RuntimeError(f"Неожиданная остановка: {response.stop_reason}")
        messages.append({"role": "assistant", "content": response.content})
        calls = [block for block in response.content if block.type == "tool_use"]
        messages.append({"role": "user", "content": [demo_tool_result(call) for call in calls]})  # одним сообщением
    raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations})")


plain = responses_of(484, cache=False)
cached = responses_of(484, cache=True)
for response in cached:
    u = response.usage
    print("вход", u.input_tokens, "| запись в кэш", u.cache_creation_input_tokens,
          "| чтение из кэша", u.cache_read_input_tokens)
before = billed([response.usage for response in plain])
after = billed([response.usage for response in cached])
print("оплачиваемый вход, токенов: без кэширования —", round(before), "| с кэшированием —", round(after),
      "| доля от суммы без кэширования:", f"{round(100 * after / before)}\u00a0%")

# %% [markdown] lang="en"
# Caching cut this review's billed input by about two fifths (by 39%, to 61%).
#
# - The first cached call wrote the rules, the tools and the task to the cache, and read nothing.
# - Each later call read everything before it from the cache, and wrote only its new turn.
# - The `in` column is 0 on every call. The breakpoint sits on the request's last block, so each input token was either
#   written to the cache or read from it.
#
# The first call costs more than without caching: a cache write is billed at 1.25x. The reads at 0.1x that follow make
# it back many times over.

# %% [markdown] lang="ru"
# Кэширование сократило оплачиваемый вход этого ревью примерно на две пятых (на 39 %, до 61 %).
#
# - Первый вызов с кэшированием записал в кэш правила, инструменты и задачу и ничего не прочитал.
# - Каждый следующий вызов прочитал из кэша всё, что было до него, и записал только свой новый ход.
# - В столбце «вход» везде 0. Контрольная точка кэша стоит на последнем блоке запроса, так что каждый входной токен
#   либо записан в кэш, либо прочитан из него.
#
# Первый вызов обходится дороже, чем без кэширования: запись в кэш стоит 1,25 цены входного токена. Но следующие
# чтения по 0,1 с лихвой это окупают.

# %% [markdown] lang="en"
# ## Exercise: what your loop costs
#
# Your loop of notebook 7 grows once more, with the two things of this notebook: the cut, then caching with the cost
# printed. Below come:
#
# - notebook 3's project, tools and rules (imported from `lesson_tools.py`), and notebook 7's gate tools;
# - a `read_file` that takes a `start`, the character to read from: the start a cut result names, so that the model
#   can read on after a cut;
# - `LIMIT`.
#
# Run the exercise cell: it puts your loop of exercise 7 (or the reference, if you skipped it) in place of the
# stub, for you to grow into `review_with_cost(pr_number, approve=ask_human, max_iterations=20)`.
#
# You grow it in two steps. Each step has its own check. Keep everything your loop already does in both: every stop
# reason, the gate before `merge_pr`.
#
# ### Step 1: cut what is too big
#
# Cut any tool result longer than `LIMIT` characters to its first `LIMIT`. Add a line that says it was cut, which
# characters of the whole file it holds, and how to read the rest. For `read_file`, the rest is read with a `start`:
# the note names the one to ask for next.
#
# An example with numbers. `read_file("data/catalog.json", ref, start=20000)` returns the file from character 20,000
# on: 464,915 characters. The whole file is 20,000 + 464,915 = 484,915 characters. Your loop sends the model characters
# 20,000 to 40,000 of them, and the next call to ask for is `read_file` with `start=40000`. Write the note that says
# so, in your own words: the model reads it, not a program.
#
# Then run the exercise cell again, and the check of step 1 below.

# %% [markdown] lang="ru"
# ## Упражнение: сколько стоит ваш цикл
#
# Ваш цикл из блокнота 7 снова расширится: в нём появятся две вещи из этого блокнота — сначала обрезка результатов,
# потом кэширование и печать стоимости запуска. Ниже:
#
# - проект, инструменты и правила блокнота 3 (импорт из `lesson_tools.py`) и инструменты шлюза из блокнота 7;
# - `read_file` с параметром `start` — символом, с которого читать: это тот `start`, который называет пометка
#   обрезанного результата, так что после обрезки модель может читать дальше;
# - `LIMIT`.
#
# Выполните ячейку упражнения: она подставит вместо заготовки ваш цикл из упражнения 7 (или эталонный, если
# упражнение вы пропустили), а вы превратите его в `review_with_cost(pr_number, approve=ask_human, max_iterations=20)`.
#
# Дорабатывать его вы будете в два шага, и у каждого шага своя проверка. На обоих шагах сохраните всё, что ваш цикл
# уже умеет: каждую причину остановки, шлюз перед `merge_pr`.
#
# ### Шаг 1: обрежьте слишком большое
#
# Любой результат инструмента длиннее `LIMIT` символов обрежьте до первых `LIMIT`. Добавьте строку: результат
# обрезан, какие символы файла в него попали и как прочитать остальное. Остальное `read_file` читает с параметром
# `start`: пометка называет, с какого `start` читать дальше.
#
# Пример с числами. `read_file("data/catalog.json", ref, start=20000)` возвращает файл начиная с символа 20 000 —
# это 464 915 символов. Весь файл — 20 000 + 464 915 = 484 915 символов. Ваш цикл отправит модели символы
# с 20 000 по 40 000, а читать дальше нужно вызовом `read_file` со `start=40000`. Напишите пометку, которая это
# скажет, своими словами: её читает модель, а не программа.
#
# Затем снова выполните ячейку упражнения, а после неё — проверку шага 1 ниже.

# %% use="lesson_tools"

# %% use="gate_tools"

# %% use="paged_read"

# %% lang="en"
LIMIT = 20_000


def billed(usage):  # as in the caching demo above
    """Input tokens as billed on Opus 5: 5-minute cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)

# %% lang="ru"
LIMIT = 20_000


def billed(usage):  # как в примере с кэшированием выше
    """Входные токены по тарифу Opus 5: запись в кэш на 5 минут стоит 1,25 цены, чтение — 0,1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)

# %% lang="en"
from course_agent.my_code import start_from


def review_with_cost(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    """Your loop of notebook 7, with every request cached, billed(usage) printed, and oversized results cut (and
    said so)."""
    raise NotImplementedError("your code here")


start_from(7, grow_into=review_with_cost)  # brings your exercise 7 (or its reference) into this cell

# %% lang="ru"
from course_agent.my_code import start_from


def review_with_cost(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    """Ваш цикл из блокнота 7: каждый запрос кэшируется, billed(usage) печатается, большие результаты обрезаются
    (с пометкой)."""
    raise NotImplementedError("напишите здесь свой код")


start_from(7, grow_into=review_with_cost)  # переносит в эту ячейку ваше решение упражнения 7 (или эталонное)

# %% [markdown] lang="en"
# ### Check step 1
#
# The check runs **your** `review_with_cost` against fresh sandboxes:
#
# - on !486, whose review reads a file of almost 500,000 characters, it reads what your loop sent back for that file:
#   the first `LIMIT` characters, and a note that says it was cut, out of how many characters of the whole file, and
#   the `start` that reads on;
# - it checks the rules of notebooks 3–7 again: the rules of notebooks 3–5 (the cap included), every stop reason of
#   notebook 6, and notebook 7's gate, with the same approvers as there.
#
# Caching and the bill are step 2's: this check does not look for them yet. Until you change the loop you brought,
# the earlier rules pass and the cut's row fails.
#
# <details><summary>Hint 1</summary>
#
# Where in your loop does a tool's text come back?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look at `cut` in "A result too big to send whole", above the exercise. Your note names a `start` instead of saying
# that the rest cannot be read.
# </details>
#
# <details><summary>Hint 3</summary>
#
# Cut the text where your loop makes it, before it goes into the `tool_result`. What must the note tell the model so
# that it neither takes the part for the whole nor gets stuck: that the text was cut, out of how many characters of the
# whole file, and which call reads the rest?
# </details>

# %% [markdown] lang="ru"
# ### Проверьте шаг 1
#
# Проверка запускает **ваш** `review_with_cost` в свежих песочницах:
#
# - на !486 ревью читает файл почти в 500 000 символов: проверка смотрит, что цикл отправил модели вместо этого файла —
#   первые `LIMIT` символов и пометку, что он обрезан, из скольких символов всего файла и с какого `start` читать
#   дальше;
# - она снова проверяет правила блокнотов 3–7: правила блокнотов 3–5 (включая ограничение на число итераций), каждую
#   причину остановки из блокнота 6 и шлюз из блокнота 7 — с теми же функциями подтверждения, что и там.
#
# Кэширование и счёт — это шаг 2, их проверка пока не ищет. Пока вы не изменили цикл, перенесённый из блокнота 7,
# прежние правила выполнены, а требование об обрезке — нет.
#
# <details><summary>Подсказка 1</summary>
#
# Где в вашем цикле возвращается текст инструмента?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Посмотрите на `cut` в разделе «Результат, слишком большой, чтобы отправить его целиком» перед упражнением. Только
# ваша пометка не говорит, что остальное прочитать нельзя, а называет `start`, с которого читать дальше.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Обрежьте текст там, где ваш цикл его получает, — до того как он попадёт в `tool_result`. Что должна сказать пометка,
# чтобы модель не приняла часть за целое и не застряла: что текст обрезан, из скольких символов всего файла и каким
# вызовом прочитать остальное?
# </details>

# %%
from course_selfcheck.exercises import check_exercise_8

check_exercise_8(review_with_cost, step=1)

# %% [markdown] lang="en"
# ### Step 2: cache it, and print what it cost
#
# Grow the same `review_with_cost`, in the exercise cell above:
#
# - send `cache_control={"type": "ephemeral"}` with every request. The cache then follows the growing conversation:
#   each turn reads every turn before it from the cache, not only the rules and tools;
# - collect every `response.usage`, and print `billed(usage)` however the run ends: with the answer, at the cap, or on
#   an error. The money is spent either way.
#
# *Python note:* code in the `finally:` of a `try:` runs however the `try` ends, with an answer or an error. Put the
# loop in a `try:` and print the bill in its `finally:`, as the reference does.
#
# Run the exercise cell again, then the check below.
#
# ### Check step 2: the whole exercise
#
# - The check runs step 1's scenarios again: the cut on !486, and the rules of notebooks 3–7.
# - On !482 it reads the `usage` of every response: do the cache reads grow from request to request, as the cache
#   follows the growing conversation?
# - It compares the bill your loop printed with `billed()` of all those responses, and checks that the loop still
#   returns the review.
#
# Once it all passes, it keeps your loop.
#
# <details><summary>Hint 1</summary>
#
# Two changes, each in one place of your loop: where does a request go out, and where does a run end?
# </details>
#
# <details><summary>Hint 2</summary>
#
# Look at `responses_of` and `billed` in "Break it, then fix it: paying for the same prompt again", above the exercise.
# </details>
#
# <details><summary>Hint 3</summary>
#
# Where does each `response.usage` appear, and where do you keep them all until the end? Which end: the answer, the
# cap, or an error? The `finally:` is the one place that all three pass through.
# </details>

# %% [markdown] lang="ru"
# ### Шаг 2: кэшируйте и печатайте стоимость
#
# Доработайте тот же `review_with_cost` в ячейке упражнения выше:
#
# - передавайте `cache_control={"type": "ephemeral"}` в каждом запросе. Тогда кэш следует за растущим диалогом:
#   каждый ход читает из кэша все предыдущие ходы, а не только правила и инструменты;
# - соберите все `response.usage` и напечатайте `billed(usage)`, чем бы ни закончился запуск: ответом, ограничением
#   на число итераций или ошибкой. Деньги потрачены в любом случае.
#
# *Заметка о Python:* код в `finally:` после `try:` выполняется, чем бы ни закончился `try`, — ответом или ошибкой.
# Поместите цикл в `try:`, а счёт печатайте в его `finally:`, как в эталонном решении.
#
# Снова выполните ячейку упражнения, а затем проверку ниже.
#
# ### Проверьте шаг 2: всё упражнение
#
# - Проверка снова запускает ситуации шага 1: обрезку на !486 и правила блокнотов 3–7.
# - На !482 она читает `usage` каждого ответа: растёт ли от запроса к запросу то, что читается из кэша, то есть дошёл
#   ли кэш до растущего диалога?
# - Она сверяет напечатанный циклом счёт с `billed()` по всем этим ответам и проверяет, что цикл по-прежнему
#   возвращает ревью.
#
# Когда всё выполнено, она сохраняет ваш цикл.
#
# <details><summary>Подсказка 1</summary>
#
# Два изменения, каждое в одном месте вашего цикла: где уходит запрос и где заканчивается запуск?
# </details>
#
# <details><summary>Подсказка 2</summary>
#
# Посмотрите на `responses_of` и `billed` в разделе «Сломаем и починим: платим за тот же промпт снова» перед
# упражнением.
# </details>
#
# <details><summary>Подсказка 3</summary>
#
# Где появляется каждый `response.usage` и где хранить их все до конца? И какого конца: ответа, ограничения на число
# итераций или ошибки? Через `finally:` проходят все три.
# </details>

# %%
from course_selfcheck.exercises import check_exercise_8

check_exercise_8(review_with_cost)

# %% [markdown] lang="en"
# A spoiler, when you want it: the cell below shows the reference solution, folded (it passes the same check;
# after it, `print(solution_code(8))` prints it too).

# %% [markdown] lang="ru"
# Если захотите подсмотреть ответ, ячейка ниже покажет эталонное решение в свёрнутом виде (оно проходит ту же
# проверку; когда ячейка ниже выполнится, его напечатает и `print(solution_code(8))`).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(8)

# %% [markdown] lang="en"
# <!-- fact: cache-reuses-prefix -->
# ## Check yourself
#
# 1. What does a cache read cost compared with a plain input token?
#
# <details><summary>Answer</summary>
#
# On Opus 5, the course's model, a tenth (0.1x); a 5-minute cache write costs 1.25x (a 1-hour one 2x). Other
# models' rates differ: `course_agent/prices.py` has each model's, from the pricing page.
# </details>
#
# 2. Your `review_with_cost` prints the bill in the `finally:` of a `try` around its loop. The review reaches the cap
#    and raises. Is the bill printed?
#
# <details><summary>Answer</summary>
#
# Yes, and then the error goes on up to the caller: the code in `finally:` runs however the `try` ends, with a
# `return` or with an exception. A `print` put before one `return` would miss the other ways out, and every error.
# </details>
#
# 3. Where is the whole state of an agent run?
#
# <details><summary>Answer</summary>
#
# In its `messages` list: the model keeps nothing between two calls (notebook 1), so everything it knows of the run is
# in the list you send. A saved list can be read later, or sent again to go on from where the run stopped.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 4. What can prompt caching reuse across the requests of one review?
#    - (a) only the system prompt
#    - (b) the prefix that repeats: tools, system prompt and the conversation so far
#    - (c) the model's earlier answers, so it writes less
#
# <details><summary>Answer</summary>
#
# (b). In a loop the conversation so far repeats on every request too. So caching the system prompt alone leaves most of
# the input at full price, and a short one may be below the model's minimum and not cached at all. And caching reuses
# input: it never saves output.
# </details>
#
# 5. A `read_file` result is 80,000 characters long. What do you send?
#    - (a) all of it: the model needs the whole file
#    - (b) the first 20,000 characters and a line that says it was cut, out of how many, and how to read the rest
#    - (c) the first 20,000 characters, nothing more
#
# <details><summary>Answer</summary>
#
# (b). The whole file fills the window and is billed again on every later request; cut silently, the part looks
# like the whole to the model.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: cache-reuses-prefix -->
# ## Проверьте себя
#
# 1. Сколько стоит чтение из кэша по сравнению с обычным входным токеном?
#
# <details><summary>Ответ</summary>
#
# У Opus 5, модели курса, — десятую часть (0,1); запись в кэш на 5 минут — 1,25 (на час — 2, двойная цена). У других
# моделей тарифы свои: цены каждой модели — в `course_agent/prices.py` (взяты со страницы тарифов).
# </details>
#
# 2. Ваш `review_with_cost` печатает счёт в `finally:` у `try`, внутри которого идёт цикл. Запуск упирается в
#    ограничение на число итераций, и цикл выбрасывает исключение. Напечатается ли счёт?
#
# <details><summary>Ответ</summary>
#
# Да, а исключение затем уйдёт дальше, к вызывающему коду: код в `finally:` выполняется, как бы ни закончился `try` —
# возвратом через `return` или исключением. `print` перед одним из `return` пропустил бы остальные выходы из цикла
# и любую ошибку.
# </details>
#
# 3. Где хранится всё состояние запуска агента?
#
# <details><summary>Ответ</summary>
#
# В списке `messages`: между двумя вызовами модель ничего не помнит (блокнот 1), поэтому всё, что она знает о запуске,
# — в списке, который вы отправляете. Сохранённый список можно потом прочитать или отправить снова и продолжить с того
# места, где запуск остановился.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 4. Что кэширование промпта может повторно использовать между запросами одного ревью?
#    - (а) только системный промпт
#    - (б) повторяющийся префикс: инструменты, системный промпт и уже накопленный диалог
#    - (в) прежние ответы модели, чтобы она меньше писала
#
# <details><summary>Ответ</summary>
#
# (б). В цикле с каждым запросом повторяется и весь диалог до него. Поэтому кэш одного системного промпта оставляет
# большую часть входа по полной цене, а короткий промпт может оказаться короче минимума модели и не кэшироваться
# вовсе. К тому же кэш экономит вход, а не выход.
# </details>
#
# 5. Результат `read_file` — 80 000 символов. Что отправить?
#    - (а) всё: модели нужен файл целиком
#    - (б) первые 20 000 символов и строку о том, что результат обрезан, из скольких символов и как прочитать
#      остальное
#    - (в) первые 20 000 символов, и больше ничего
#
# <details><summary>Ответ</summary>
#
# (б). Весь файл заполняет контекстное окно и оплачивается заново с каждым следующим запросом; молча обрезанную часть
# модель примет за целый файл.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - The finished reviewer is your loop: notebook 3's, with all results in one message (4), errors as results (5), every
#   stop reason (6) and the gate (7), and now the cut and caching:
#
# ```mermaid
# flowchart LR
#     M["messages<br/>(cached)"] --> C["client.messages.create"]
#     C -- "tool_use" --> G{"safety gate"}
#     G -- "read-only: runs" --> T["GitLab tools"]
#     G -- "merge_pr: a human says yes or no" --> T
#     T -- "results cut to size, errors as is_error" --> M
#     C -- "end_turn" --> R["the review (posted, if asked: notebook 9)"]
#     C -- "other stop reasons, the cap" --> E["a clear error, history kept"]
# ```
#
# - Caching the growing history cuts a review's billed input markedly: by about two fifths in this short one (to 61%
#   of it without caching), and more in longer ones.
# - A result too big to send is cut, and says so: silently cut, the model takes the part for the whole.
# - (Optional section, below) The SDK's `tool_runner` is the same loop; the responsibility for what may run stays with
#   you.
# - Notebook 9 (optional) ships it: a real GitLab and the real API (only the environment changes), several reviews at
#   once, a merge-request pipeline, batches at half price.
#
# On a first pass, stop here: the rest of this notebook is optional, and nothing later needs it.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Готовый ревьюер — это ваш цикл: цикл блокнота 3, все результаты одним сообщением (4), ошибки как результаты (5),
#   все причины остановки (6) и шлюз (7), а теперь ещё обрезка и кэширование:
#
# ```mermaid
# flowchart LR
#     M["messages<br/>(в кэше)"] --> C["client.messages.create"]
#     C -- "tool_use" --> G{"шлюз безопасности"}
#     G -- "только чтение: выполняется" --> T["инструменты GitLab"]
#     G -- "merge_pr: человек отвечает «да» или «нет»" --> T
#     T -- "результаты (длинные — обрезаны); ошибки — с is_error" --> M
#     C -- "end_turn" --> R["ревью (публикуется, если попросить: блокнот 9)"]
#     C -- "другие причины остановки, ограничение" --> E["понятная ошибка, история сохранена"]
# ```
#
# - Кэширование растущей истории заметно сокращает оплачиваемые входные токены: в этом коротком ревью — примерно на
#   две пятых (до 61 % от суммы без кэширования), в длинных — ещё сильнее.
# - Слишком большой результат обрезают и говорят об этом: молча обрезанную часть модель примет за целое.
# - (Необязательный раздел ниже) `tool_runner` из SDK — тот же цикл; ответственность за то, что можно запускать,
#   остаётся на вас.
# - Блокнот 9 (необязательный) вводит ревьюера в эксплуатацию: настоящий GitLab и настоящий API (меняется только
#   окружение), несколько ревью одновременно, пайплайн merge request, пакеты за полцены.
#
# При первом прохождении на этом можно остановиться: дальше идут необязательные разделы, и они не понадобятся ни в одном
# следующем блокноте.

# %% [markdown] lang="en"
# <!-- fact: tool-runner -->
# ## Go deeper (optional): the SDK writes this loop for you
#
# The exercise above did not need this section, and the rest of the notebook does not either. The SDK ships this loop
# too: `client.beta.messages.tool_runner` takes Python functions decorated with `@beta_tool`, derives their schemas from
# the signatures, and runs the loop you wrote by hand: call, run every requested tool, send all results back, stop at
# the end.
#
# - It keeps six of the loop's rules for you: the whole response back, every tool run, a tool's error as a result,
#   all results in one message, a paused turn (`pause_turn`) sent back with no new message, and no tool call of a
#   turn cut or refused (`max_tokens`, a full context window, `refusal`) ever run.
# - It does not raise where your loop would. Without `max_iterations` it runs for as long as the model keeps asking.
# - At the cap, on `max_tokens` or on a refusal it simply stops and gives you the last message. (An API error still
#   raises.)
# - It has no safety gate either: that is still your job.
#
# So give it a cap, as your own loop has, and read the last message's `stop_reason` yourself. Below, `tool_use` at the
# cap means "not finished".
#
# A decorator is the `@name` line above a `def`: Python passes the function defined below it to `name` and keeps what
# comes back. `@beta_tool` gives back a tool object that still calls like the function. It carries the function's
# description (the name, the docstring, a schema from the type hints), which the runner sends to the model.

# %% [markdown] lang="ru"
# <!-- fact: tool-runner -->
# ## Глубже (по желанию): SDK пишет этот цикл за вас
#
# Для упражнения выше этот раздел не был нужен, и остальной части блокнота он тоже не нужен. В SDK этот цикл тоже есть:
# `client.beta.messages.tool_runner` (дальше — исполнитель) принимает Python-функции с декоратором `@beta_tool`, выводит
# их схемы из сигнатур и выполняет тот цикл, который вы писали вручную: вызов модели, выполнение каждого запрошенного
# инструмента, отправка всех результатов обратно, остановка в конце.
#
# - Шесть правил цикла он соблюдает за вас: ответ целиком в историю, каждый инструмент выполнен, ошибка
#   инструмента — результат, все результаты одним сообщением, приостановленный ход (`pause_turn`) уходит обратно без
#   нового сообщения от user, а вызовы инструментов из обрезанного хода или хода с отказом (`max_tokens`,
#   переполненное контекстное окно, `refusal`) не выполняются никогда.
# - Исключений там, где их выбросил бы ваш цикл, он не выбрасывает. Без `max_iterations` он работает, пока модель
#   запрашивает инструменты.
# - При достижении ограничения, при `max_tokens` или при отказе он просто останавливается и отдаёт последнее
#   сообщение. (При ошибке API исключение по-прежнему выбрасывается.)
# - Шлюза безопасности в нём тоже нет: это по-прежнему ваша забота.
#
# Поэтому задайте ограничение, как в своём цикле, и сами проверяйте `stop_reason` последнего сообщения. В ячейках
# ниже `stop_reason` `tool_use` после достижения ограничения означает «не закончено».
#
# Декоратор — это строка `@имя` над `def`: Python передаёт функцию, определённую под ней, в `имя` и сохраняет под именем
# функции то, что вернёт `имя`. `@beta_tool` возвращает объект-инструмент, который можно вызывать как саму функцию. В
# нём хранится её описание (имя, строка документации, схема по аннотациям типов); его исполнитель и отправляет модели.

# %% lang="en"
import lesson_tools
from anthropic import beta_tool


# the docstring is the tool's description for the model, like description in TOOLS
@beta_tool
def get_diff(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return lesson_tools.get_diff(pr)


@beta_tool
def read_file(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return lesson_tools.read_file(path, ref)

# %% lang="ru"
import lesson_tools
from anthropic import beta_tool


# строка документации — это описание инструмента для модели, поэтому она английская, как description в TOOLS
@beta_tool
def get_diff(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return lesson_tools.get_diff(pr)


@beta_tool
def read_file(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return lesson_tools.read_file(path, ref)

# %% lang="en"
runner_task = [{"role": "user", "content": "Review merge request !482."}]
runner = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file],  # the rules, as in your loop
    max_iterations=20, messages=runner_task,  # the cap, as in notebook 3
)
for message in runner:
    print(message.stop_reason, [block.type for block in message.content])
print("\n".join(block.text for block in message.content if block.type == "text").splitlines()[-1])

# %% lang="ru"
runner_task = [{"role": "user", "content": "Проверь merge request !482."}]
runner = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file],  # правила, как в вашем цикле
    max_iterations=20, messages=runner_task,  # ограничение, как в блокноте 3
)
for message in runner:
    print(message.stop_reason, [block.type for block in message.content])
print("\n".join(block.text for block in message.content if block.type == "text").splitlines()[-1])

# %% [markdown] lang="en"
# <!-- fact: runner-until-done -->
# Iterating shows every turn. When only the end matters, `runner.until_done()` runs the loop and returns the last
# message. `max_iterations` is still the cap: with 2, the runner stops after two turns even though the model still
# asks for a tool.

# %% [markdown] lang="ru"
# <!-- fact: runner-until-done -->
# Цикл `for` по исполнителю показывает каждый ход. Когда важен только итог, `runner.until_done()` проводит цикл до конца
# и возвращает последнее сообщение. `max_iterations` по-прежнему ограничивает цикл: при `max_iterations=2`
# исполнитель останавливается после двух ходов, даже если модель всё ещё запрашивает инструмент.

# %%
ask_review = dict(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file], messages=runner_task)
last = client.beta.messages.tool_runner(**ask_review, max_iterations=20).until_done()
capped = client.beta.messages.tool_runner(**ask_review, max_iterations=2).until_done()

# %% lang="en"
print("until_done:", last.stop_reason, "|", [b.text for b in last.content if b.type == "text"][-1].splitlines()[-1])
print("max_iterations=2:", capped.stop_reason)

# %% lang="ru"
print("until_done:", last.stop_reason, "|", [b.text for b in last.content if b.type == "text"][-1].splitlines()[-1])
print("max_iterations=2:", capped.stop_reason)

# %% [markdown] lang="en"
# ## Go deeper (optional): the cache as a chart, and its minimum
#
# The caching run above as a chart. Each request's input is split into what was read from the cache, written to it or
# sent plain. The chart also shows the billed input so far, with caching (as it happened) and without it.

# %% [markdown] lang="ru"
# ## Глубже (по желанию): кэш на графике и его минимальный размер
#
# Запуск с кэшированием из начала блокнота в виде графика. Вход каждого запроса разложен на то, что прочитано из кэша,
# что записано в него и что ушло без кэширования. Ещё график показывает, сколько входных токенов оплачено к этому
# моменту, с кэшированием (как на самом деле) и без него.

# %%
from course_agent.usage_chart import usage_chart

usage_chart(cached)

# %% [markdown] lang="en"
# <!-- fact: cache-minimum-by-model -->
# A prompt below the model's minimum is silently not cached, and the minimum is the model's own: 512 tokens
# on Opus 5, the course's model, up to 4,096 on older ones (docs: *Prompt caching*, "Cache limitations"). With the
# breakpoint right after rules shorter than that, nothing is cached, and the rules cost full price on every call.

# %% [markdown] lang="ru"
# <!-- fact: cache-minimum-by-model -->
# Промпт короче минимального размера молча не кэшируется, а минимум у каждой модели свой: 512 токенов у Opus 5, модели
# курса, и до 4096 у более старых (документация: *Prompt caching*, раздел «Cache limitations»). Если контрольная точка
# кэша стоит сразу после правил, а они короче минимума, в кэш не попадает ничего, и правила оплачиваются полностью при
# каждом вызове.

# %% [markdown] lang="en"
# ## Take it home
#
# The reviewer as this notebook leaves it (results cut with a way to read on, every request cached, the bill printed),
# whole, is in the cell below and in `examples/en/review_after_08.py`. As with notebook 3's "Take it home" (what it
# needs, how to run it): run it last, since it defines its own client, tools and loop.

# %% [markdown] lang="ru"
# ## Возьмите с собой
#
# Весь ревьюер в том виде, к которому пришёл этот блокнот (результаты обрезаются с возможностью читать дальше, каждый
# запрос кэшируется, счёт печатается), — в ячейке ниже и в `examples/ru/review_after_08.py`. Всё как в разделе «Возьмите
# с собой» блокнота 3 (что ему нужно и как его запустить): выполняйте эту ячейку последней, ведь в ней свои клиент,
# инструменты и цикл.

# %% use="take_home_setup"

# %% use="take_home_8"
