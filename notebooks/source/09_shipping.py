# %% [markdown] lang="en"
# # 9. Shipping the reviewer (optional)
#
# **You will learn**
# - how to point the reviewer at a real GitLab and the real API, and what it costs over every merge request, measured
#   before you trust it with a budget (the exercise, right after that);
# - how `AsyncAnthropic` runs several reviews at once;
# - how the reviewer reviews every open merge request at half price, in batches.
#
# Nothing here changes the loop: this notebook is about running it for a team. Skip it on a first pass through
# the course and come back when you ship your own agent. After the Recap, optional sections post the review to GitLab,
# with comments on the changed lines, and run the reviewer in CI: a re-run that updates its own review, and the
# merge-request pipeline job. What to do when a long review fills
# the context window (context editing and compaction) is in optional notebook 11.
#
# *About 80 minutes (+15 for its optional part), not counting the open-ended capstone at the end: give it the time you
# want. Builds on notebook 8.*
#
# <!-- rules-so-far -->

# %% [markdown] lang="ru"
# # 9. Ревьюер в работе (необязательный блокнот)
#
# **Вы узнаете**
# - как направить ревьюера на настоящий GitLab и настоящий API и сколько стоит проверка всех merge request: это нужно
#   измерить до того, как доверить ему бюджет (этому посвящено упражнение, оно идёт сразу следом);
# - как `AsyncAnthropic` проводит несколько ревью одновременно;
# - как ревьюер проверяет все открытые merge request пакетами за полцены.
#
# Сам цикл здесь не меняется: этот блокнот о том, как запускать его для команды. При первом прохождении курса блокнот
# можно пропустить и вернуться к нему, когда соберётесь поручить своему агенту настоящую работу. После итогов идут
# необязательные разделы: ревьюер публикует ревью в GitLab, с комментариями прямо к изменённым строкам, и работает в
# CI — повторный запуск обновляет его же ревью, а задание работает в пайплайне merge request. Что делать, когда
# длинное ревью заполняет контекстное окно (редактирование контекста и сжатие), рассказывает необязательный блокнот 11.
#
# *Около 80 минут (и ещё 15 на необязательный раздел), не считая итогового проекта в конце: у него нет заданного
# объёма, уделите ему столько времени, сколько захотите. Опирается на блокнот 8.*
#
# <!-- rules-so-far -->

# %% use="setup"

# %% [markdown] lang="en"
# The course's own reviewer, `review(pr)`: your loop as notebook 8 leaves it (every stop reason, the gate, the cut and
# caching), packaged in `course_agent/review.py`: the same loop, with a gate and logging you need not read. Then its
# GitLab tools and `billed`:

# %% [markdown] lang="ru"
# Готовый ревьюер курса, `review(pr)`, — это ваш цикл в том виде, в каком его оставил блокнот 8 (все причины остановки,
# шлюз, обрезка и кэширование), оформленный как модуль `course_agent/review.py`: это тот же цикл; код его шлюза и
# журнала аудита читать необязательно. Ниже определены также его инструменты GitLab и `billed`:

# %% lang="en"
from course_agent.gitlab import GitLabTools
from course_agent.review import review

tools = GitLabTools()
mr = tools.project.mergerequests.get(482)  # !482: the re-run below counts its notes


def billed(usage):
    """Input tokens as billed on Opus 5: 5-minute cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)

# %% lang="ru"
from course_agent.gitlab import GitLabTools
from course_agent.review import review

tools = GitLabTools()
mr = tools.project.mergerequests.get(482)  # !482: повторный запуск ниже считает его комментарии


def billed(usage):
    """Входные токены по тарифу Opus 5: запись в кэш на 5 минут стоит 1,25 цены, чтение — 0,1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)

# %% [markdown] lang="en"
# <!-- fact: gitlab-token-api-scope -->
# ## Real GitLab, real API
#
# The code of notebooks 1–8 runs unchanged on the real API and your GitLab; only the outputs differ. Before starting
# JupyterLab:
#
# ```bash
# export ANTHROPIC_API_KEY=sk-ant-...            # the real Messages API
# export GITLAB_URL=https://gitlab.com           # your GitLab
# export GITLAB_TOKEN=glpat-...                  # a token with the api scope
# export GITLAB_PROJECT=group/project            # the project to review
# export COURSE_AGENT_MODEL=claude-opus-5        # optional: another model id
# ```
#
# Then `make_client()` returns a client for the live API, and `GitLabTools()` talks to your project. From
# a terminal: `course-agent review 482 --post`. Outputs will differ from the saved ones (a real model
# writes its own review), and the cells that inject faults (notebook 5) or reset the demo GitLab (notebook 7) need the
# sandbox.

# %% [markdown] lang="ru"
# <!-- fact: gitlab-token-api-scope -->
# ## Настоящий GitLab, настоящий API
#
# Код блокнотов 1–8 без изменений работает с настоящим API и вашим GitLab; отличаются только выводы. Перед запуском
# JupyterLab:
#
# ```bash
# export ANTHROPIC_API_KEY=sk-ant-...            # настоящий Messages API
# export GITLAB_URL=https://gitlab.com           # ваш GitLab
# export GITLAB_TOKEN=glpat-...                  # токен с областью доступа (scope) api
# export GITLAB_PROJECT=group/project            # проект для ревью
# export COURSE_AGENT_MODEL=claude-opus-5        # необязательно: другой id модели
# ```
#
# После этого `make_client()` возвращает клиент для настоящего API, а `GitLabTools()` работает с вашим проектом. Из
# терминала: `course-agent review 482 --post`. Выводы будут отличаться от сохранённых (настоящая модель
# пишет своё ревью), а ячейкам, которые устраивают сбои (блокнот 5) или возвращают демо-GitLab в исходное состояние
# (блокнот 7), нужна песочница.

# %% [markdown] lang="en"
# ## One review, and what it returns
#
# `review(pr, client=client, language="en")` runs a whole review and returns its result: `result.text` is the review
# (its last line the verdict), `result.iterations` the number of model calls, and `result.usage` the `usage` of each
# response, one per call, from which `billed` gives the billed input. The exercise below needs all three. The review's
# prompt stays in the cache for a few minutes, so reviewing !482 again soon after reads much of it from there, and bills
# less.

# %% [markdown] lang="ru"
# ## Одно ревью и что оно возвращает
#
# `review(pr, client=client, language="ru")` проводит ревью целиком (и пишет его по-русски) и возвращает результат:
# `result.text` — текст ревью (в последней строке вердикт), `result.iterations` — число вызовов модели, а `result.usage`
# — `usage` каждого ответа, по одному на вызов; из них `billed` считает оплачиваемый вход. В упражнении ниже понадобятся
# все три. Промпт этого ревью ещё несколько минут хранится в кэше, поэтому повторное ревью !482 вскоре после этой ячейки
# прочитает оттуда большую его часть и обойдётся дешевле.

# %% lang="en"
result = review(482, client=client, language="en")  # the course's reviewer, cached by default
print(result.text)
print("model calls (result.iterations):", result.iterations)
for n, usage in enumerate(result.usage, 1):  # result.usage: one usage per model call
    print(f"call {n}: input {usage.input_tokens}, cache write {usage.cache_creation_input_tokens}, "
          f"cache read {usage.cache_read_input_tokens}")
print("billed input, billed(result.usage):", round(billed(result.usage)), "tokens")

# %% lang="ru"
result = review(482, client=client, language="ru")  # ревьюер курса, с кэшированием по умолчанию; ревью по-русски
print(result.text)
print("вызовов модели (result.iterations):", result.iterations)
for n, usage in enumerate(result.usage, 1):  # result.usage: по одному usage на вызов модели
    print(f"вызов {n}: вход {usage.input_tokens}, запись в кэш {usage.cache_creation_input_tokens}, "
          f"чтение из кэша {usage.cache_read_input_tokens}")
print("оплачиваемый вход, billed(result.usage):", round(billed(result.usage)), "ток.")

# %% [markdown] lang="en"
# ## Exercise: what the reviewer costs over every merge request
#
# Before a team trusts the reviewer with a budget, it looks at a table. Put one row per demo merge request, !482 to
# !487, in `rows`: `(pr, verdict, calls, billed input)`, the verdict from the review's last line, the calls from
# `result.iterations`, the billed input from `billed(result.usage)`. Review !483 to !487 with the course's reviewer,
# cached (`review(pr, client=client, language="en")`, as above); !482's row comes from `result`, its review above.
# A budget counts each merge request reviewed once, and !482 reviewed again now would read its whole conversation
# from the cache and bill a fraction of a first review.
#
# Why the course's `review()` and not your loop of notebook 8? A table needs each review's figures back as values:
# `review()` returns a result object with the `usage` of every call and `result.iterations`, while your
# `review_with_cost` prints its bill and returns only the review's text. It is the same loop, packaged; the capstone
# at the end of this notebook runs your own.
#
# To read the table right, know what the cache does to the others too: the first review of a session writes the
# rules (the system prompt and the tools, the same in every review) to the cache at 1.25x, and each review after it
# reads them at 0.1x while they stay there (five minutes from their last use). Which review cost the most, and why?

# %% [markdown] lang="ru"
# ## Упражнение: сколько стоит проверка всех merge request
#
# Прежде чем доверить ревьюеру бюджет, команда смотрит на таблицу. Положите в `rows` по строке на каждый merge request
# демо-проекта, с !482 по !487: `(pr, вердикт, вызовы, оплачиваемый вход)`, где вердикт — последняя строка ревью,
# вызовы — `result.iterations`, оплачиваемый вход — `billed(result.usage)`. Merge request с !483 по !487 проверьте
# ревьюером курса с кэшированием (`review(pr, client=client, language="ru")`, как выше), а строку !482 возьмите из
# `result` — его ревью выше. В бюджете каждый merge request проверяется один раз, а если проверить !482 ещё раз
# сейчас, весь его диалог прочитается из кэша, и ревью обойдётся в малую долю первого.
#
# Почему ревьюер курса `review()`, а не ваш цикл из блокнота 8? Для таблицы цифры каждого ревью нужны как значения:
# `review()` возвращает объект результата, в котором есть `usage` каждого вызова и `result.iterations`, а ваш
# `review_with_cost` свой счёт печатает и возвращает только текст ревью. Цикл тот же самый, только оформленный как
# модуль; а ваш собственный цикл понадобится в итоговом проекте в конце блокнота.
#
# Чтобы правильно прочитать таблицу, учтите, как кэш влияет и на остальные ревью: первое ревью за сеанс записывает
# в кэш правила (системный промпт и инструменты, одинаковые во всех ревью) по цене 1,25, а каждое следующее читает их по
# цене 0,1, пока они в кэше (пять минут с последнего обращения). Какое ревью оказалось самым дорогим и почему?

# %% lang="en"
rows = []  # your code here: one (pr, verdict, calls, billed input) per merge request, !482 to !487 (!482's: result)

# %% lang="ru"
rows = []  # ваш код: по строке (pr, вердикт, вызовы, оплачиваемый вход) на !482–!487; строка !482 — из result

# %% [markdown] lang="en"
# ### Check your exercise
#
# The check reads your rows, then reviews each merge request again with the course's reviewer, each in a fresh sandbox
# (its cache empty: the most that review can bill), and compares the calls, the verdict and the bill with your row's.

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Проверка читает ваши строки, а затем ещё раз проверяет каждый merge request ревьюером курса, каждый в свежей
# песочнице (кэш в ней пуст, так что это самый высокий счёт за такое ревью), и сравнивает вызовы, вердикт и счёт
# с вашей строкой.

# %%
from course_selfcheck.exercises import check_exercise_9

check_exercise_9(rows)

# %% [markdown] lang="en"
# A spoiler, when you want it: the cell below shows the reference solution, folded (it passes the same check;
# after it, `print(solution_code(9))` prints it too).
#
# <details><summary>Answer: which review cost the most, and why</summary>
#
# With the sandbox's model, !486, by far: about 10,500 billed input tokens, against 700–1,700 for most of the others.
# Its third call sends the cut `data/catalog.json` (20,000 characters), and that request writes about 7,650 new tokens
# to the cache at 1.25x. Second comes !482, about 3,400: it was the first review, so it wrote the rules (about 1,550
# tokens) to the cache at 1.25x, where every review after it read them at 0.1x. The cost of a review follows what it
# reads, not how many calls it makes: !486 made three calls, as !484 and !485 did.
# </details>
#
# The sections after it stand each on its own: read the ones your team needs, in any order.

# %% [markdown] lang="ru"
# Если захотите подсмотреть ответ, ячейка ниже покажет эталонное решение в свёрнутом виде (оно проходит ту же
# проверку; когда ячейка ниже выполнится, его напечатает и `print(solution_code(9))`).
#
# <details><summary>Ответ: какое ревью обошлось дороже всех и почему</summary>
#
# С моделью песочницы — !486, с большим отрывом: оплачиваемый вход — около 10 500 токенов, тогда как у большинства
# остальных — от 700 до 1700. Его третий вызов отправляет обрезанный `data/catalog.json` (20 000 символов), и этот
# запрос записывает в кэш около 7650 новых токенов по 1,25 цены входного токена. Второе место — !482, около 3400: это
# было первое ревью, и оно записало в кэш правила (около 1550 токенов) по 1,25 цены, а все следующие ревью читали их
# по 0,1.
# Стоимость ревью определяется тем, что оно читает, а не числом вызовов: у !486 их три, как у !484 и !485.
# </details>
#
# Следующие разделы независимы друг от друга: читайте те, что нужны вашей команде, в любом порядке.

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(9)

# %% [markdown] lang="en"
# <!-- fact: async-client -->
# ## Several reviews at once: AsyncAnthropic
#
# A review spends its time waiting for the model. `AsyncAnthropic` is the same client with `async` methods (same
# key, same base URL), and `asyncio.gather` waits for several calls at once: three reviews take about as long as
# the slowest one, not the sum. The SDK's runner has an async form too, with tools written as `async def` and
# `@beta_async_tool`; the GitLab calls, which block, go to a thread with `asyncio.to_thread`.
#
# *Python note:* `async def` makes a coroutine function: calling it gives a coroutine, which runs only when awaited.
# `await x` pauses this coroutine until `x` is done, and lets others run meanwhile. `asyncio.gather(a, b, c)` awaits
# them together. A notebook allows `await` at the top level; a script uses `asyncio.run(main())`.

# %% [markdown] lang="ru"
# <!-- fact: async-client -->
# ## Несколько ревью сразу: AsyncAnthropic
#
# Почти всё время ревью ждёт ответа модели. `AsyncAnthropic` — тот же клиент с `async`-методами (тот же ключ, тот же
# адрес API), а `asyncio.gather` ждёт несколько вызовов одновременно: три ревью занимают примерно столько же времени,
# сколько самое долгое из них, а не столько, сколько все три вместе. У исполнителя SDK есть и асинхронный вариант — с
# инструментами, написанными как `async def` с `@beta_async_tool`; блокирующие вызовы GitLab уходят в поток через
# `asyncio.to_thread`.
#
# *Заметка о Python:* `async def` объявляет функцию-корутину: её вызов только создаёт корутину, а выполняться она
# начинает, когда её дожидаются через `await`. `await x` приостанавливает текущую корутину до завершения `x` и тем
# временем даёт поработать другим. `asyncio.gather(a, b, c)` дожидается их всех вместе. В блокноте `await` можно
# писать прямо на верхнем уровне ячейки, а в скрипте точку входа запускают через `asyncio.run(main())`.

# %%
import asyncio

from anthropic import AsyncAnthropic, beta_async_tool

from course_agent.review import REVIEW_RULES

async_client = AsyncAnthropic(api_key=client.api_key, base_url=client.base_url)


@beta_async_tool
async def get_diff_async(pr: int) -> str:
    """Get the changes of a merge request: title, source branch and the diff of every file."""
    return await asyncio.to_thread(tools.get_diff, pr)


@beta_async_tool
async def read_file_async(path: str, ref: str = "main") -> str:
    """Read a whole file from the repository at a branch, for context."""
    return await asyncio.to_thread(tools.read_file, path, ref)


# %% lang="en"
async def review_async(pr: int):
    return await async_client.beta.messages.tool_runner(
        model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff_async, read_file_async],
        max_iterations=20,
        messages=[{"role": "user", "content": f"Review merge request !{pr}."}]).until_done()


reviews = await asyncio.gather(*(review_async(pr) for pr in (482, 483, 484)))  # all three wait together
for pr, answer in zip((482, 483, 484), reviews, strict=True):
    print(f"!{pr}:", [b.text for b in answer.content if b.type == "text"][-1].splitlines()[-1])

# %% lang="ru"
async def review_async(pr: int):
    return await async_client.beta.messages.tool_runner(
        model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff_async, read_file_async],
        max_iterations=20,
        messages=[{"role": "user", "content": f"Проверь merge request !{pr}."}]).until_done()


reviews = await asyncio.gather(*(review_async(pr) for pr in (482, 483, 484)))  # все три ждут одновременно
for pr, answer in zip((482, 483, 484), reviews, strict=True):
    print(f"!{pr}:", [b.text for b in answer.content if b.type == "text"][-1].splitlines()[-1])

# %% [markdown] lang="en"
# <!-- fact: batches-half-price -->
# ## Every open merge request at half price
#
# A review waits for the model, not the other way round: nothing in the loop needs an answer within seconds. The
# [Message Batches API](https://platform.claude.com/docs/en/build-with-claude/batch-processing) takes many requests at
# once, answers them within 24 hours (usually much sooner) and bills them at half price. The loop still needs one
# answer before its next request, so `course_agent.batch_review` runs the reviews in rounds: each round sends ONE
# batch with the next request of every unfinished review, runs the tools of every answer (same rules: the whole
# response appended, all results in one message, errors as `is_error`, the cap, merges never approved), and goes on
# until every loop has ended. Between two rounds a loop is nothing but its `messages` list, saved to its transcript
# after every step: `course-agent review --all-open --batch --resume DIR` picks unfinished reviews up from there,
# even after the process was stopped. Below, every open merge request reviewed both ways, with the billed tokens.

# %% [markdown] lang="ru"
# <!-- fact: batches-half-price -->
# ## Все открытые merge request за полцены
#
# Ревью может подождать — спешить некуда: ничто в цикле не требует ответа за секунды.
# [Message Batches API](https://platform.claude.com/docs/en/build-with-claude/batch-processing) принимает много запросов
# сразу, отвечает на них в течение 24 часов (обычно гораздо быстрее) и берёт за них половину цены. Но цикл не может
# отправить следующий запрос, пока не получит ответ на предыдущий, поэтому `course_agent.batch_review` ведёт ревью
# раундами: каждый раунд отправляет **один** пакет (batch) со следующим запросом каждого незавершённого ревью, выполняет
# инструменты каждого ответа (правила те же: ответ добавляется целиком, все результаты — одним сообщением, ошибки — с
# `is_error`, ограничение на число итераций, слияния никогда не подтверждаются) и продолжает, пока не закончатся все
# циклы. Между раундами цикл — это только его список `messages`, который после каждого шага сохраняется в транскрипт:
# `course-agent review --all-open --batch --resume DIR` подхватывает незавершённые ревью оттуда, даже если процесс был
# остановлен. Ниже все открытые merge request проверены обоими способами, а в конце — оплаченные токены каждого способа.

# %% lang="en"
import tempfile
from pathlib import Path

from course_agent import batch_review  # its billed(usage, batch) stays batch_review.billed: billed() is ours
from course_agent.batch_review import run_batches, start_loops
from course_agent.i18n import number  # a figure as the learner's language writes it
from course_agent.review import reviewer_toolbox

open_mrs = sorted(m.iid for m in GitLabTools().project.mergerequests.list(state="opened", get_all=True))
one_by_one = [review(pr, client=client, language="en") for pr in open_mrs]
batch_runs = Path(tempfile.mkdtemp(prefix="course-agent-batch-"))  # review-<MR>.jsonl each: resumable
loops = run_batches(client, start_loops(open_mrs, batch_runs, post=False, language="en"),
                    reviewer_toolbox(nobody_to_ask="batch mode"), progress=print)
for pr, alone, loop in zip(open_mrs, one_by_one, loops, strict=True):
    print(f"!{pr}: {alone.text.splitlines()[-1]:<27} | batch: {loop.result.text.splitlines()[-1]}")
for name, usage, batch in (("one request at a time", [u for r in one_by_one for u in r.usage], False),
                           ("in batches", [u for loop in loops for u in loop.usage], True)):
    tokens_in, tokens_out = batch_review.billed(usage, batch)
    print(f"{name:>22}: billed input tokens {number(tokens_in, 'en', 0)}, "
          f"output tokens {number(tokens_out, 'en', 0)}")

# %% lang="ru"
import tempfile
from pathlib import Path

# его billed(usage, batch) вызываем как batch_review.billed: имя billed() занято нашей функцией
from course_agent import batch_review
from course_agent.batch_review import run_batches, start_loops
from course_agent.i18n import number  # «12 345»: от пяти цифр разряды через неразрывный пробел
from course_agent.review import reviewer_toolbox

open_mrs = sorted(m.iid for m in GitLabTools().project.mergerequests.list(state="opened", get_all=True))
one_by_one = [review(pr, client=client, language="ru") for pr in open_mrs]
batch_runs = Path(tempfile.mkdtemp(prefix="course-agent-batch-"))  # по review-<MR>.jsonl на каждый: можно продолжить
loops = run_batches(client, start_loops(open_mrs, batch_runs, post=False, language="ru"),
                    reviewer_toolbox(nobody_to_ask="пакетный режим"), progress=print)
for pr, alone, loop in zip(open_mrs, one_by_one, loops, strict=True):
    print(f"!{pr}: {alone.text.splitlines()[-1]:<27} | пакетом: {loop.result.text.splitlines()[-1]}")
for name, usage, batch in (("по одному запросу", [u for r in one_by_one for u in r.usage], False),
                           ("пакетами", [u for loop in loops for u in loop.usage], True)):
    tokens_in, tokens_out = batch_review.billed(usage, batch)
    print(f"{name:>17}: оплачено входных токенов — {number(tokens_in, 'ru', 0)}, "
          f"выходных — {number(tokens_out, 'ru', 0)}")

# %% [markdown] lang="en"
# <!-- fact: batch-cache-half -->
# Same verdicts. The output tokens show the batch discount plainly: half the price per token. The input falls by far
# more than half because the batch came second: its requests read the cache that the reviews one at a time had just
# written (paying 1.25x for the writes), and a batch pays half for cache reads too. The simulated model answers a
# batch at once; the real API within 24 hours.

# %% [markdown] lang="ru"
# <!-- fact: batch-cache-half -->
# Вердикты те же. Скидку за пакет ясно видно по выходным токенам: каждый вдвое дешевле. Входные же подешевели намного
# больше, чем вдвое, потому что пакет шёл вторым: его запросы читали кэш, который только что записали ревью по одному
# (заплатив за запись 1,25 цены), а чтение из кэша в пакете тоже стоит вдвое меньше. Модель песочницы отвечает на
# пакет сразу, настоящий API — в течение 24 часов.

# %% [markdown] lang="en"
# <!-- fact: gitlab-search-pipelines -->
# ## Capstone (open-ended): your loop, a tool of your own, another repository
#
# No check tells you what to build here. Take your loop of exercise 8 (the `start_from(8, ...)` cell below brings it,
# or the reference solution) and:
#
# 1. give it one tool of your own choice, described in `TOOLS` and run by `run_tool`: a list of the files changed
#    with their sizes, a search in the repository (`project.search("blobs", ...)`, tried below), the merge request's
#    pipeline status (`project.mergerequests.get(pr).pipelines.list()`), whatever would make a review better;
# 2. point it at another repository: your own GitLab, by setting `GITLAB_URL`, `GITLAB_TOKEN` and `GITLAB_PROJECT`
#    (and `ANTHROPIC_API_KEY` for the real model) before starting JupyterLab, as the start of this notebook shows;
# 3. judge it with `check_loop(review_my_way)`: the nine rules `check_loop` knows (exercises 6–8 check the others), in
#    fresh sandboxes, whatever your loop talks to otherwise; a rule that the run could not show says "not checked",
#    never "passed". It judges your loop's rules, not your tool: the loop you bring passes before you change
#    anything, and stays passing only if your changes keep the rules. Your tool you judge by the reviews it makes.
#    (Step 2 needs a GitLab of your own: the offline sandbox serves one project.)

# %% [markdown] lang="ru"
# <!-- fact: gitlab-search-pipelines -->
# ## Итоговый проект (тема на ваш выбор): ваш цикл, ваш инструмент, другой репозиторий
#
# Здесь никакая проверка не скажет, что именно строить. Возьмите свой цикл из упражнения 8 (ячейка `start_from(8, ...)`
# ниже подставит его или эталонное решение) и:
#
# 1. дайте ему один инструмент на ваш выбор — опишите его в `TOOLS` и выполняйте через `run_tool`: список изменённых
#    файлов с размерами, поиск по репозиторию (`project.search("blobs", ...)`, его можно попробовать ниже), состояние
#    пайплайна merge request (`project.mergerequests.get(pr).pipelines.list()`) — всё, что сделает ревью лучше;
# 2. направьте его на другой репозиторий: на ваш собственный GitLab — задайте `GITLAB_URL`, `GITLAB_TOKEN` и
#    `GITLAB_PROJECT` (и `ANTHROPIC_API_KEY` для настоящей модели) до запуска JupyterLab, как показано в начале этого
#    блокнота;
# 3. оцените его через `check_loop(review_my_way)`: `check_loop` проверит девять правил, которые знает (остальные
#    проверяют упражнения 6–8), в свежих песочницах, с чем бы ваш цикл ни работал в остальное время; правило, которое
#    запуск не смог проверить, отмечается «не проверено», а не «выполнено». Проверяет он правила цикла, а не ваш
#    инструмент: принесённый цикл проходит эту проверку ещё до ваших изменений и проходит её и дальше, только если
#    ваши изменения не нарушили ни одного правила. Инструмент же оценивайте по ревью, которые с ним получаются. (Для
#    шага 2 нужен ваш собственный GitLab: офлайн-песочница обслуживает один проект.)

# %% use="lesson_tools"

# %% use="gate_tools"

# %% use="paged_read"

# %% [markdown] lang="en"
# **A first tool to try (optional):** a search of the code, so that the model finds a function's callers where the diff
# does not name them (notebook 3 said why a real reviewer needs one). It calls GitLab's
# `GET /projects/:id/search?scope=blobs` through python-gitlab's `project.search("blobs", text)`; the demo GitLab
# answers it too. Each hit has the file's `path`, the lines around the match (`data`, two lines of context either
# side) and the number of their first line (`startline`). The cell below makes it a tool and tries it. To give it to
# the model, add `SEARCH` to the `TOOLS` your loop sends; `run_tool` already knows it.

# %% [markdown] lang="ru"
# **Первый инструмент, который стоит попробовать (по желанию):** поиск по коду, чтобы модель находила вызовы функции
# там, где diff их не называет (зачем он нужен настоящему ревьюеру, сказано в блокноте 3). Он обращается к
# `GET /projects/:id/search?scope=blobs` из REST API GitLab через `project.search("blobs", text)` из `python-gitlab`;
# демонстрационный GitLab тоже отвечает на этот запрос. В каждой находке есть путь к файлу (`path`), строки вокруг
# совпадения (`data`, по две строки контекста с каждой стороны) и номер первой из них (`startline`). Ячейка ниже
# делает из поиска инструмент и пробует его. Чтобы дать его модели, добавьте `SEARCH` в `TOOLS`, которые отправляет
# ваш цикл; `run_tool` его уже знает.

# %%
SEARCH = {"name": "search_code",
          "description": "Search the repository's code at a branch for a text (case-insensitive, taken literally): "
                         "where a function is called or defined. Each hit: the file, and the lines around the match.",
          "input_schema": {"type": "object", "required": ["text"], "properties": {
              "text": {"type": "string", "description": "The text to find, e.g. a function's name and its '('."},
              "ref": {"type": "string", "description": "The branch or commit (default main)."}}}}

# %% lang="en"
def search_code(text: str, ref: str = "main") -> str:
    """Every place the text occurs at `ref`: the file, the first line shown, and the lines around the match."""
    hits = project.search("blobs", text, ref=ref, get_all=True)  # GET /projects/:id/search?scope=blobs
    return "\n".join(f"{hit['path']}, from line {hit['startline']}:\n{hit['data']}" for hit in hits) or "no match"


FUNCTIONS["search_code"] = search_code  # run_tool finds it by name; SEARCH goes into the TOOLS you send
print(search_code("calculate_total("))

# %% lang="ru"
def search_code(text: str, ref: str = "main") -> str:
    """Все места, где текст встречается в `ref`: файл, первая показанная строка и строки вокруг совпадения."""
    hits = project.search("blobs", text, ref=ref, get_all=True)  # запрос GET /projects/:id/search?scope=blobs
    return "\n".join(f"{hit['path']}, со строки {hit['startline']}:\n{hit['data']}" for hit in hits) or "нет совпадений"


FUNCTIONS["search_code"] = search_code  # run_tool найдёт его по имени; SEARCH добавьте в TOOLS, которые отправляете
print(search_code("calculate_total("))

# %% lang="en"
LIMIT = 20_000


def billed(usage):  # as in notebook 8: the reference's bill needs it, and this section stands on its own
    """Input tokens as billed on Opus 5: 5-minute cache writes cost 1.25x, cache reads 0.1x."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)

# %% lang="ru"
LIMIT = 20_000


def billed(usage):  # как в блокноте 8: он нужен счёту эталонного решения, а этот раздел не зависит от остальных
    """Входные токены по тарифу Opus 5: запись в кэш на 5 минут стоит 1,25 цены, чтение — 0,1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)

# %% lang="en"
from course_agent.my_code import start_from


def review_my_way(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    """Your loop of notebook 8, with a tool of your own."""
    raise NotImplementedError("your code here")


start_from(8, grow_into=review_my_way)  # brings your exercise 8 (or its reference) into this cell

# %% lang="ru"
from course_agent.my_code import start_from


def review_my_way(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    """Ваш цикл из блокнота 8 с вашим собственным инструментом."""
    raise NotImplementedError("напишите здесь свой код")


start_from(8, grow_into=review_my_way)  # переносит в эту ячейку ваше решение упражнения 8 (или эталонное)

# %%
from course_selfcheck import check_loop

check_loop(review_my_way)

# %% [markdown] lang="en"
# <!-- fact: batch-same-params -->
# ## Check yourself
#
# 1. Why can a batch take up to a day without breaking the loop?
#
# <details><summary>Answer</summary>
#
# Between two calls a loop is only its `messages` list: it waits, and goes on when the batch's answer arrives.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 2. Three reviews run with `asyncio.gather`, one of them twice as long as the others. About how long do they take?
#    - (a) the sum of the three: one client sends one request at a time
#    - (b) about as long as the slowest of the three
#    - (c) about a third of the sum
#
# <details><summary>Answer</summary>
#
# (b). Each review spends its time waiting for the model, and the waits overlap: the client does not wait for one
# answer before it sends the next request, so (a) is wrong. They end together only when the slowest ends, so it is
# not a third of the sum: (c) would need three reviews of the same length.
# </details>
#
# 3. Batches cost half as much per token. What do you give up?
#    - (a) nothing
#    - (b) time: a batch's answers come when it is done (within a day), not at once
#    - (c) tools: a batched request cannot offer any
#
# <details><summary>Answer</summary>
#
# (b). A batched request takes the same parameters as any other, tools included (a few server-side extras, such as
# `fallbacks`, excepted): each turn of the loop is one batched request, answered when the batch ends.
# </details>

# %% [markdown] lang="ru"
# <!-- fact: batch-same-params -->
# ## Проверьте себя
#
# 1. Почему пакет может готовиться до суток и цикл от этого не ломается?
#
# <details><summary>Ответ</summary>
#
# Между двумя вызовами цикл — это только его список `messages`: он ждёт и продолжает, когда придёт ответ пакета.
# </details>
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 2. Три ревью запущены через `asyncio.gather`; одно из них вдвое дольше двух других. Сколько времени они займут?
#    - (а) сумму всех трёх: клиент отправляет запросы по одному
#    - (б) примерно столько же, сколько самое долгое из трёх
#    - (в) примерно треть суммы
#
# <details><summary>Ответ</summary>
#
# (б). Почти всё время каждое ревью ждёт модель, и эти ожидания перекрываются: клиент не ждёт ответа на один запрос,
# прежде чем отправить следующий, поэтому (а) неверно. Закончатся все три, только когда закончится самое долгое, так
# что треть суммы (в) получилась бы лишь у трёх ревью одинаковой длины.
# </details>
#
# 3. Пакеты вдвое дешевле за токен. Чем за это приходится платить?
#    - (а) ничем
#    - (б) временем: ответы пакета приходят, когда он готов (в течение суток), а не сразу
#    - (в) инструментами: в пакетном запросе их не предложить
#
# <details><summary>Ответ</summary>
#
# (б). Пакетный запрос принимает те же параметры, что и обычный, инструменты тоже (кроме немногих серверных
# дополнений, например `fallbacks`): каждый ход цикла — один запрос в пакете, ответ на который приходит, когда пакет
# готов.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - `AsyncAnthropic` and `asyncio.gather` run several reviews in about the time of the slowest.
# - The reviewer reviews every open merge request in batches at half price: between two calls a loop is only its
#   `messages` list, so it can wait as long as the batch takes.
# - Measure the cost per merge request before you trust the reviewer with a budget.
#
# On a first pass, stop here: the sections below (posting the review, the reviewer in CI) are optional, and nothing
# later needs them.

# %% [markdown] lang="ru"
# ## Итоги
#
# - `AsyncAnthropic` и `asyncio.gather` проводят несколько ревью примерно за время самого долгого.
# - Ревьюер проверяет все открытые merge request пакетами за полцены: между двумя вызовами цикл — это только его
#   список `messages`, поэтому он может ждать сколько угодно долго, пока готовится пакет.
# - Прежде чем доверить ревьюеру бюджет, измерьте стоимость одного merge request.
#
# При первом прохождении на этом можно остановиться: разделы ниже (публикация ревью, ревьюер в CI) необязательные, и
# они не понадобятся ни в одном следующем блокноте.

# %% [markdown] lang="en"
# <!-- fact: gitlab-diffnote-position -->
# ## Go deeper (optional): posting the review, with inline comments
#
# The part above does not need this section; the reviewer in CI, after it, builds on it.
#
# With `post=True`, the course's reviewer (`course_agent.review`) is asked to post its review: `comment_on_line` puts a
# finding on the changed line it is about (GitLab shows it in the diff, as a thread), `post_comment` the summary. Both
# are writing tools: the reviewer's policy (`ReviewPolicy`) allows them only when the review is to be posted, and logs
# them. Below, the merge request's threads as GitLab lists them (`mr.discussions.list()`): an inline comment is a
# `DiffNote` with a `position` (path, line and the three commits of the diff), the summary a plain note.

# %% [markdown] lang="ru"
# <!-- fact: gitlab-diffnote-position -->
# ## Глубже (по желанию): публикация ревью и комментарии к строкам
#
# Всему, что выше, этот раздел не нужен; на нём строится следующий раздел, о ревьюере в CI.
#
# С `post=True` ревьюер курса (`course_agent.review`) получает в запросе указание опубликовать ревью:
# `comment_on_line` оставляет замечание прямо на той изменённой строке, к которой оно относится (GitLab показывает его
# в diff как обсуждение), а `post_comment` — итоговый комментарий. Оба инструмента вносят изменения (уровень риска
# «запись»): политика ревьюера (`ReviewPolicy`) разрешает их, только если ревью нужно опубликовать, и записывает в
# журнал. Ниже — обсуждения merge request в том виде, в каком их отдаёт GitLab (`mr.discussions.list()`): комментарий
# к строке — это `DiffNote` с `position` (путь, строка и три коммита diff), итоговое ревью — обычный комментарий
# (`Note`).

# %% lang="en"
from course_agent.gitlab import GitLabTools

posted = review(482, client=client, post=True, language="en")
print(posted.text.splitlines()[0])
mr = GitLabTools().project.mergerequests.get(482)
for discussion in mr.discussions.list(get_all=True):
    note = discussion.attributes["notes"][0]
    place = note.get("position") or {}
    where = f'{place["new_path"]}:{place["new_line"]}' if place else "the merge request"
    print(f'{note["type"] or "Note"} by {note["author"]["username"]} on {where}: '
          f'{note["body"].splitlines()[0][:60]}')

# %% lang="ru"
from course_agent.gitlab import GitLabTools

posted = review(482, client=client, post=True, language="ru")
print(posted.text.splitlines()[0])
mr = GitLabTools().project.mergerequests.get(482)
for discussion in mr.discussions.list(get_all=True):
    note = discussion.attributes["notes"][0]
    place = note.get("position") or {}
    where = f'{place["new_path"]}:{place["new_line"]}' if place else "весь merge request"
    print(f'{"Комментарий к строке" if note["type"] == "DiffNote" else "Комментарий"} от {note["author"]["username"]}, '
          f'{where}: {note["body"].splitlines()[0][:60]}')

# %% [markdown] lang="en"
# ## Go deeper (optional): running it in CI
#
# Nothing above needs this section: it is for the team that will run the reviewer in its merge-request pipelines.
# First, what becomes of a review posted again after every new commit, then the job itself.
#
# ### Break it, then fix it: run it again, and get one review, updated
#
# `review(pr, post=True)` posts a new review every time it runs: run it twice on the same merge
# request, and the authors read two reviews, with every finding twice.

# %% [markdown] lang="ru"
# ## Глубже (по желанию): ревьюер в CI
#
# Всему, что выше, этот раздел не нужен: он для команды, которая будет запускать ревьюера в пайплайнах merge
# request. Сначала — что станет с ревью, если публиковать его после каждого нового коммита, затем само задание.
#
# ### Сломаем и починим: повторный запуск обновляет то же ревью
#
# `review(pr, post=True)` при каждом запуске публикует новое ревью: запустите его дважды на одном
# merge request — и авторы прочитают два ревью, каждое замечание дважды.

# %% lang="en"
before = len(mr.notes.list(get_all=True))
for _ in (1, 2):
    review(482, client=client, post=True, language="en")
print(f"notes on !482: {before} before, {len(mr.notes.list(get_all=True))} after two runs of review(post=True)")

# %% lang="ru"
before = len(mr.notes.list(get_all=True))
for _ in (1, 2):
    review(482, client=client, post=True, language="ru")
print(f"комментариев в !482: до — {before}, после двух запусков review(post=True) — {len(mr.notes.list(get_all=True))}")

# %% [markdown] lang="en"
# `course-agent review 482 --post` (the command line, what a pipeline runs) posts the same way, but marks each note
# it writes with a hidden HTML comment (`<!-- course-agent-review -->`, and one per inline comment with its
# `path:line`). Run again, it finds its own notes by those markers and edits them instead of adding a second review;
# its inline comments that the new review no longer makes are removed (resolved, if someone replied). Notes
# written by people, or without a marker, are never touched. Below, the command runs twice in this kernel (against
# the same sandbox) and the merge request's notes are counted after each run.

# %% [markdown] lang="ru"
# `course-agent review 482 --post` (командная строка — то, что запускает пайплайн) публикует так же, но помечает каждый
# свой комментарий скрытой HTML-меткой (`<!-- course-agent-review -->`, а у комментария к строке — ещё и его
# `путь:строка`). При повторном запуске он находит свои комментарии по этим меткам и редактирует их, а не добавляет
# второе ревью; те свои комментарии к строкам, которых новое ревью уже не повторяет, удаляет (или отмечает обсуждения
# как решённые, если на них уже ответили). Комментарии, написанные людьми или без метки, он не трогает никогда. Ниже
# команда запускается дважды прямо в этом ядре (с той же песочницей), и после каждого запуска мы считаем комментарии
# merge request.

# %% lang="en"
import contextlib
import io
import tempfile

from course_agent.cli import main

runs = tempfile.mkdtemp(prefix="course-agent-runs-")
for attempt in (1, 2):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["review", "482", "--post", "--language", "en", "--transcript", f"{runs}/review-{attempt}.jsonl"])
    notes = mr.notes.list(get_all=True)
    ours = [n for n in notes if "<!-- course-agent-review" in n.body]
    print(f"run {attempt}: exit code {code}; notes on !482: {len(notes)}, "
          f"of them the command's own: {len(ours)} "
          f"({sum(n.type == 'DiffNote' for n in ours)} inline, {sum(n.type != 'DiffNote' for n in ours)} summary)")

# %% lang="ru"
import contextlib
import io
import tempfile

from course_agent.cli import main

runs = tempfile.mkdtemp(prefix="course-agent-runs-")
for attempt in (1, 2):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["review", "482", "--post", "--language", "ru", "--transcript", f"{runs}/review-{attempt}.jsonl"])
    notes = mr.notes.list(get_all=True)
    ours = [n for n in notes if "<!-- course-agent-review" in n.body]
    print(f"запуск {attempt}: код выхода {code}; комментариев в !482: {len(notes)}, "
          f"из них от course-agent: {len(ours)} (к строкам: {sum(n.type == 'DiffNote' for n in ours)}, "
          f"итоговых: {sum(n.type != 'DiffNote' for n in ours)})")

# %% [markdown] lang="en"
# <!-- fact: gitlab-ci-predefined-vars -->
# The notes `review()` posted above have no marker: the command leaves them as they are, as it does with people's.
#
# ### In a merge-request pipeline
#
# `templates/review.yml` in this repository is a CI/CD component, a job to include in your project's
# `.gitlab-ci.yml`; it runs `course-agent review "$CI_MERGE_REQUEST_IID" --post` in merge-request pipelines, on
# GitLab's runners. With this repository on your GitLab, tagged:
#
# ```yaml
# include:
#   - component: $CI_SERVER_FQDN/tools/agent-loop-course/review@v0.1.0   # the component, at a tag
#     inputs:
#       package: "git+https://gitlab.example.com/tools/agent-loop-course.git@v0.1.0"   # the same tag
# ```
#
# It needs two masked CI/CD variables, `COURSE_AGENT_GITLAB_TOKEN` (a token with the `api` scope) and
# `ANTHROPIC_API_KEY`; the GitLab URL, the project and the merge request come from GitLab CI's predefined variables
# (`CI_SERVER_URL`, `CI_MERGE_REQUEST_PROJECT_ID`, `CI_MERGE_REQUEST_IID`). In CI nobody can answer an approval prompt,
# so `merge_pr` is always refused. Exit codes become job results: 0 passes; 5 (the iteration cap) and 6 (a refusal) are
# allowed failures, a warning rather than a red pipeline; the rest fail the job.
# [docs/gitlab-ci.md](../../docs/gitlab-ci.md) has the details.

# %% [markdown] lang="ru"
# <!-- fact: gitlab-ci-predefined-vars -->
# У комментариев, которые выше опубликовал `review()`, метки нет: course-agent их не трогает, как и комментарии людей.
#
# ### В пайплайне merge request
#
# `templates/review.yml` в этом репозитории — компонент CI/CD, задание (job), которое подключается в `.gitlab-ci.yml`
# вашего проекта; оно запускает `course-agent review "$CI_MERGE_REQUEST_IID" --post` в пайплайнах merge request, на
# раннерах GitLab. Если этот репозиторий лежит в вашем GitLab и у него есть тег:
#
# ```yaml
# include:
#   - component: $CI_SERVER_FQDN/tools/agent-loop-course/review@v0.1.0   # компонент, закреплённый тегом
#     inputs:
#       package: "git+https://gitlab.example.com/tools/agent-loop-course.git@v0.1.0"   # тот же тег
# ```
#
# Нужны две маскированные переменные CI/CD: `COURSE_AGENT_GITLAB_TOKEN` (токен с областью доступа (scope) `api`) и
# `ANTHROPIC_API_KEY`; адрес GitLab, проект и номер merge request берутся из предопределённых переменных GitLab CI
# (`CI_SERVER_URL`, `CI_MERGE_REQUEST_PROJECT_ID`, `CI_MERGE_REQUEST_IID`). В CI некому ответить на запрос
# подтверждения, поэтому `merge_pr` там всегда отклоняется. Коды выхода становятся результатами задания: 0 — успех; 5
# (достигнуто ограничение на число итераций) и 6 (отказ) — допустимые неудачи: задание завершается с предупреждением,
# и пайплайн не помечается как упавший; при остальных кодах задание падает. Подробности — в
# [docs/gitlab-ci.ru.md](../../docs/gitlab-ci.ru.md).
