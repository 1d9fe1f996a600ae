# %% [markdown] lang="en"
# # 5. Errors
#
# **You will learn**
# - that a tool error is a **result** (`is_error: true` plus a message), not an exception that kills the loop;
# - what the API answers when the history keeps only the text of a response;
# - which API errors are transient, and that the SDK already retries them.
#
# *About 40 minutes. Builds on notebook 4.*

# %% [markdown] lang="ru"
# # 5. Ошибки
#
# **Вы узнаете**
# - что ошибка инструмента — это **результат** (`is_error: true` и сообщение), а не исключение, которое обрывает цикл;
# - что ответит API, если в истории оставить только текст ответа модели;
# - какие ошибки API временные — и что SDK уже сам повторяет такие запросы.
#
# *Около 40 минут. Опирается на блокнот 4.*

# %% use="setup"

# %% use="gitlab"

# %% use="tools"

# %% use="review_rules"

# %% [markdown] lang="en"
# ## A tool error is a result
#
# Merge request !999 does not exist: GitLab answers 404. The runner below turns any failure into a
# `tool_result` with `is_error: true` and a message, and the loop goes on. The model reads the message
# and tells you plainly that there is no such merge request.

# %% [markdown] lang="ru"
# ## Ошибка инструмента — тоже результат
#
# Merge request !999 не существует: GitLab отвечает 404. Функция запуска инструментов ниже превращает
# любой сбой в `tool_result` с `is_error: true` и сообщением, и цикл продолжается. Модель читает
# сообщение и прямо пишет, что такого merge request нет.

# %% lang="en"
def run_tool_safely(name: str, tool_input: dict) -> dict:
    """Run a tool; a failure becomes a result the model can read (is_error), never an exception."""
    try:
        return {"content": run_tool(name, tool_input)}
    except gitlab.GitlabError as error:
        return {"content": f"GitLab error {error.response_code}: {error.error_message}", "is_error": True}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


def review(pr_number: int, tool_runner, keep="all", max_iterations: int = 20) -> str:
    """The loop of notebook 3, with the tool runner and what to keep of each response as parameters."""
    messages = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        content = response.content if keep == "all" else [b for b in response.content if b.type == "text"]
        messages.append({"role": "assistant", "content": content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": block.id, **tool_runner(block.name, block.input)}
            for block in response.content if block.type == "tool_use"
        ]})
    raise RuntimeError("Too many iterations")

# %% lang="ru"
def run_tool_safely(name: str, tool_input: dict) -> dict:
    """Выполнить инструмент; сбой становится результатом для модели (is_error), а не исключением."""
    try:
        return {"content": run_tool(name, tool_input)}
    except gitlab.GitlabError as error:
        return {"content": f"ошибка GitLab {error.response_code}: {error.error_message}", "is_error": True}
    except Exception as error:
        return {"content": f"{name} завершился ошибкой: {type(error).__name__}: {error}", "is_error": True}


def review(pr_number: int, tool_runner, keep="all", max_iterations: int = 20) -> str:
    """Цикл из блокнота 3; параметры: как запускать инструменты и что оставлять от ответа."""
    messages = [{"role": "user", "content": f"Проверь pull request #{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        if response.stop_reason == "end_turn":
            return "\n".join(block.text for block in response.content if block.type == "text")
        content = response.content if keep == "all" else [b for b in response.content if b.type == "text"]
        messages.append({"role": "assistant", "content": content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": block.id, **tool_runner(block.name, block.input)}
            for block in response.content if block.type == "tool_use"
        ]})
    raise RuntimeError("Слишком много итераций")

# %%
print(review(999, run_tool_safely))

# %% [markdown] lang="en"
# ## Break it: let the exception out
#
# With the plain `run_tool` of notebook 3 the 404 becomes an exception, and the whole run dies: no
# answer, and the model never learns what happened.

# %% [markdown] lang="ru"
# ## Сломаем: выпустим исключение наружу
#
# С обычной `run_tool` из блокнота 3 ответ 404 превращается в исключение, и весь запуск падает: ответа
# нет, а модель так и не узнаёт, что произошло.

# %% tags=["raises-exception"]
review(999, lambda name, tool_input: {"content": run_tool(name, tool_input)})

# %% [markdown] lang="en"
# ## Break it: keep only the text
#
# The model's response must go into the history whole. Keep only its text, and the next request holds
# a `tool_result` whose `tool_use_id` appears nowhere before it. The API refuses with 400 and says why:

# %% [markdown] lang="ru"
# ## Сломаем: оставим только текст
#
# Ответ модели должен попадать в историю целиком. Если оставить только его текст, в следующем запросе
# окажется `tool_result`, чей `tool_use_id` раньше нигде не встречался. API отклоняет запрос с ошибкой
# 400 и объясняет причину:

# %% tags=["raises-exception"]
review(482, run_tool_safely, keep="text")

# %% [markdown] lang="en"
# Fixed: keep everything (`keep="all"`, the default), and the same review goes through.

# %% [markdown] lang="ru"
# Исправляем: сохраняем всё (`keep="all"`, значение по умолчанию) — и то же ревью проходит.

# %%
print(review(482, run_tool_safely, keep="all"))

# %% [markdown] lang="en"
# <!-- fact: effort-defaults -->
# ## Go deeper (optional): thinking, with effort and display
#
# *You can skip this part on a first pass, down to "Transient API errors": the rule you need is the one above,
# send the response back whole. No exercise depends on what follows.*
#
# On today's models you do not switch thinking on: it is on by default, and you tune it.
#
# - `thinking={"type": "adaptive"}` (the default here): the model decides per request whether and how much to think.
# - `output_config={"effort": ...}`: `low`, `medium`, `high`, `xhigh` or `max`. More effort, more thinking, more
#   output tokens billed (the default differs by model: `high` on Opus 5, `medium` on Opus 5.5).
# - `thinking.display`: `"omitted"` (the default: an empty `thinking` text, the reasoning sealed in the
#   `signature`) or `"summarized"` (a summary you can read).
#
# Whatever you choose, a thinking block belongs to the response like the `tool_use` after it: it goes into
# the history whole and unchanged, and the API checks its signature. Sometimes the reasoning comes as
# `redacted_thinking`, an encrypted `data` field: it goes back the same way. The live view below shows the
# thinking block folded, before the call.

# %% [markdown] lang="ru"
# <!-- fact: effort-defaults -->
# ## Глубже (по желанию): рассуждение, `effort` и `display`
#
# *При первом прохождении эту часть можно пропустить вплоть до раздела «Временные ошибки API»: нужное правило —
# выше, ответ возвращается целиком. Ни одно упражнение на то, что ниже, не опирается.*
#
# У современных моделей рассуждение не нужно включать: оно включено по умолчанию, и его настраивают.
#
# - `thinking={"type": "adaptive"}` (здесь это значение по умолчанию): модель сама решает для каждого запроса,
#   рассуждать ли и сколько.
# - `output_config={"effort": ...}`: `low`, `medium`, `high`, `xhigh` или `max`. Чем выше effort, тем больше
#   рассуждения и тем больше выходных токенов в счёте (значение по умолчанию у моделей разное: `high` у Opus 5,
#   `medium` у Opus 5.5).
# - `thinking.display`: `"omitted"` (по умолчанию: пустой текст `thinking`, рассуждение запечатано в
#   `signature`) или `"summarized"` (краткое изложение, которое можно прочитать).
#
# Что бы вы ни выбрали, блок рассуждения — такая же часть ответа, как `tool_use` после него: он попадает в
# историю целиком и без изменений, а API проверяет его подпись. Иногда рассуждение приходит как
# `redacted_thinking` — зашифрованное поле `data`; его возвращают точно так же. Живой просмотр ниже
# показывает свёрнутый блок рассуждения перед вызовом инструмента.

# %% lang="en"
from course_agent.widgets import MessagesView

THINKING = {"type": "adaptive", "display": "summarized"}  # let the model decide; show a summary of its reasoning
thinking_view = MessagesView(client=client)
thinking_view.messages.append({"role": "user", "content": "Review pull request #482."})
try:
    first = client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES,
                                   tools=TOOLS, messages=list(thinking_view.messages))
except anthropic.BadRequestError:  # an older model (Haiku 4.5, Opus 4.5) thinks only with a token budget
    THINKING = {"type": "enabled", "budget_tokens": 2000}
    first = client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES,
                                   tools=TOOLS, messages=list(thinking_view.messages))
thinking_view.messages.append({"role": "assistant", "content": first.content})
print([block.type for block in first.content])
thinking_view

# %% lang="ru"
from course_agent.widgets import MessagesView

THINKING = {"type": "adaptive", "display": "summarized"}  # модель решает сама; показать краткое рассуждение
thinking_view = MessagesView(client=client)
thinking_view.messages.append({"role": "user", "content": "Проверь pull request #482."})
try:
    first = client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES,
                                   tools=TOOLS, messages=list(thinking_view.messages))
except anthropic.BadRequestError:  # старая модель (Haiku 4.5, Opus 4.5) рассуждает только с бюджетом токенов
    THINKING = {"type": "enabled", "budget_tokens": 2000}
    first = client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES,
                                   tools=TOOLS, messages=list(thinking_view.messages))
thinking_view.messages.append({"role": "assistant", "content": first.content})
print([block.type for block in first.content])
thinking_view

# %% [markdown] lang="en"
# Effort is what you pay for thinking. The same first step of the review, at three levels:

# %% [markdown] lang="ru"
# От effort зависит, сколько вы заплатите за рассуждение. Тот же первый шаг ревью на трёх уровнях:

# %% lang="en"
for effort in ("low", "high", "max"):
    step = client.messages.create(model=MODEL, max_tokens=16000, output_config={"effort": effort},
                                  system=REVIEW_RULES, tools=TOOLS, messages=[thinking_view.messages[0]])
    print(f"{effort:>4}: {step.usage.output_tokens} output tokens, blocks {[block.type for block in step.content]}")

# %% lang="ru"
for effort in ("low", "high", "max"):
    step = client.messages.create(model=MODEL, max_tokens=16000, output_config={"effort": effort},
                                  system=REVIEW_RULES, tools=TOOLS, messages=[thinking_view.messages[0]])
    print(f"{effort:>4}: выходных токенов {step.usage.output_tokens}, блоки {[block.type for block in step.content]}")

# %% [markdown] lang="en"
# Break it: older material (and older models) turned thinking on with a token budget,
# `{"type": "enabled", "budget_tokens": ...}`. Every model from Opus 4.7 on refuses it, and the error says
# what to use instead:

# %% [markdown] lang="ru"
# Сломаем: в старых материалах (и на старых моделях) рассуждение включали с бюджетом токенов,
# `{"type": "enabled", "budget_tokens": ...}`. Все модели начиная с Opus 4.7 такой запрос отклоняют, а
# ошибка подсказывает, чем его заменить:

# %% tags=["raises-exception"]
client.messages.create(model=MODEL, max_tokens=16000, thinking={"type": "enabled", "budget_tokens": 2000},
                       messages=[thinking_view.messages[0]])

# %% [markdown] lang="en"
# <!-- fact: dropped-thinking-400 -->
# Break it: answer the tool call, but edit the thinking block on its way back (here a few words added to its
# text, as a program that "tidies up" the history might). The signature no longer matches, and the API says the block
# cannot be modified. Dropping it is no way out: the API rejects thinking blocks of the latest assistant turn
# that were edited, reordered or partly dropped, with the same 400 (docs: thinking troubleshooting names a
# dropped `redacted_thinking` block as its most common cause), and on the newest models every later thinking
# block is bound to a history that no longer exists (the last demo of this section).

# %% [markdown] lang="ru"
# <!-- fact: dropped-thinking-400 -->
# Сломаем: ответим на вызов инструмента, но по дороге изменим блок рассуждения (здесь допишем к его тексту
# пару слов, как могла бы сделать программа, которая «подчищает» историю). Подпись перестаёт совпадать, и API отвечает, что
# блок изменять нельзя. Выбросить блок — тоже не выход: блоки рассуждения последнего хода ассистента, которые
# изменили, переставили или частично выбросили, API отклоняет с той же ошибкой 400 (в документации по
# устранению неполадок с рассуждением самой частой её причиной названа выброшенная `redacted_thinking`), а у
# новейших моделей каждый следующий блок рассуждения привязан к истории, которой больше нет (последний пример
# этого раздела).

# %% lang="en" tags=["raises-exception"]
results = [{"type": "tool_result", "tool_use_id": block.id, **run_tool_safely(block.name, block.input)}
           for block in first.content if block.type == "tool_use"]
edited = [block.model_copy(update={"thinking": block.thinking + " (shortened)"}) if block.type == "thinking"
          else block for block in first.content]
client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                       messages=[thinking_view.messages[0], {"role": "assistant", "content": edited},
                                 {"role": "user", "content": results}])

# %% lang="ru" tags=["raises-exception"]
results = [{"type": "tool_result", "tool_use_id": block.id, **run_tool_safely(block.name, block.input)}
           for block in first.content if block.type == "tool_use"]
edited = [block.model_copy(update={"thinking": block.thinking + " (сокращено)"}) if block.type == "thinking"
          else block for block in first.content]
client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                       messages=[thinking_view.messages[0], {"role": "assistant", "content": edited},
                                 {"role": "user", "content": results}])

# %% [markdown] lang="en"
# Fixed: the response whole, as it came. The same loop code as before works, thinking or not.

# %% [markdown] lang="ru"
# Исправляем: ответ целиком, в том виде, в каком он пришёл. Тот же код цикла, что и раньше, работает
# с рассуждением и без него.

# %%
thinking_view.messages.append({"role": "user", "content": results})
second = client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES,
                                tools=TOOLS, messages=list(thinking_view.messages))
thinking_view.messages.append({"role": "assistant", "content": second.content})
print(second.stop_reason, [block.type for block in second.content])

# %% [markdown] lang="en"
# <!-- fact: prefix-check-by-model -->
# **The history is append-only.** Newer models go further (docs: *Preserved thinking*): a thinking block is
# bound to everything before it — `system`, `tools` and the earlier messages. Change any of that (edit an old
# message, trim the history, rebuild the system prompt with today's date) and every thinking block after the
# change is invalid. Whether that is a 400, "The block is bound to a different conversation", depends on the
# model and, for some, on the account (Fable 5.1 enforces it for accounts created on or after 2026-08-31; Fable and
# Mythos 5.2 for every account; docs: *Prefix checks on thinking blocks*: handle both outcomes); the sandbox's newer
# model answers 400. Without the `thinking-binding-controls-2026-08-01` beta header the message adds that the setting it
# names needs that header. So never edit, trim or reorder what you already sent; put every update in a new
# message at the end.

# %% [markdown] lang="ru"
# <!-- fact: prefix-check-by-model -->
# **Историю можно только дополнять.** Новые модели идут дальше (документация: *Preserved thinking*): блок
# рассуждения привязан ко всему, что было до него, — к `system`, `tools` и предыдущим сообщениям. Измените
# что-то из этого (отредактируйте старое сообщение, обрежьте историю, пересоберите системный промпт с
# сегодняшней датой) — и все блоки рассуждения после изменения станут недействительными. Ответит ли API
# ошибкой 400 («`The block is bound to a different conversation`»), зависит от модели, а у некоторых — и от
# аккаунта (Fable 5.1 проверяет префикс у аккаунтов, созданных 31 августа 2026 года или позже; Fable и Mythos 5.2 — у
# всех; документация: «Проверка префикса для блоков размышлений» советует обрабатывать оба исхода); более новая модель
# песочницы отвечает 400. Если в запросе нет бета-заголовка `thinking-binding-controls-2026-08-01`, сообщение добавляет, что
# упомянутой в нём настройке этот заголовок нужен. Поэтому никогда не редактируйте, не обрезайте и не
# переставляйте то, что уже отправили; любое обновление — новым сообщением в конце.

# %% lang="en" tags=["raises-exception"]
from course_agent.config import preserved_thinking_model

NEWER = preserved_thinking_model()  # a model that checks what came before each thinking block
history = [{"role": "user", "content": "Review pull request #482."}]
turn = client.messages.create(model=NEWER, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                              messages=history)
history += [{"role": "assistant", "content": turn.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": block.id,
                                          **run_tool_safely(block.name, block.input)}
                                         for block in turn.content if block.type == "tool_use"]}]
history[0] = {"role": "user", "content": "Review pull request #482. Be brief."}  # editing the past
client.messages.create(model=NEWER, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                       messages=history)

# %% lang="ru" tags=["raises-exception"]
from course_agent.config import preserved_thinking_model

NEWER = preserved_thinking_model()  # модель, которая проверяет всё, что было до каждого блока рассуждения
history = [{"role": "user", "content": "Проверь pull request #482."}]
turn = client.messages.create(model=NEWER, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                              messages=history)
history += [{"role": "assistant", "content": turn.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": block.id,
                                          **run_tool_safely(block.name, block.input)}
                                         for block in turn.content if block.type == "tool_use"]}]
history[0] = {"role": "user", "content": "Проверь pull request #482. Коротко."}  # правим прошлое
client.messages.create(model=NEWER, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                       messages=history)

# %% [markdown] lang="en"
# ## Transient API errors and the SDK's retries
#
# Some failures pass by themselves: 429 (rate limit), 500, 529 (overloaded), a dropped connection.
# The SDK retries them with backoff (2 retries by default) and honours `retry-after`. The sandbox can
# inject such faults on demand. These cells need the sandbox: with the real API, faults cannot be
# ordered.
#
# **Predict, then run:** the sandbox answers 529 twice, then normally. How many requests leave your process, and
# does your code see an exception?

# %% [markdown] lang="ru"
# ## Временные ошибки API и повторы в SDK
#
# Некоторые сбои проходят сами: 429 (превышен лимит запросов), 500, 529 (API перегружен), обрыв
# соединения. SDK повторяет такие запросы с нарастающей задержкой (по умолчанию 2 повтора) и учитывает
# `retry-after`. Песочница умеет устраивать такие сбои по запросу. Этим ячейкам нужна песочница: с
# настоящим API сбой не закажешь.
#
# **Сначала предположите, потом запустите:** песочница дважды отвечает 529, а потом нормально. Сколько запросов уйдёт
# из вашего процесса и увидит ли ваш код исключение?

# %% lang="en"
from course_agent.client import shared_sandbox, using_sandbox

if using_sandbox():
    sandbox = shared_sandbox()
    sandbox.faults.overloaded(times=2)  # the next two requests get 529
    reply = client.messages.create(model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Hello"}])
    print("after two 529s and two retries:", reply.stop_reason)
else:
    print("Skipped: faults can be ordered only from the offline sandbox, not from the live API.")

# %% lang="ru"
from course_agent.client import shared_sandbox, using_sandbox

if using_sandbox():
    sandbox = shared_sandbox()
    sandbox.faults.overloaded(times=2)  # следующие два запроса получат 529
    reply = client.messages.create(model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Привет"}])
    print("после двух ответов 529 и двух повторов:", reply.stop_reason)
else:
    print("Пропущено: заказать сбой можно только у офлайн-песочницы, не у настоящего API.")

# %% [markdown] lang="en"
# With retries switched off, the same fault reaches your code as `anthropic.OverloadedError`. An error
# that survives the retries is a real failure of the run: stop, keep the history, report.

# %% [markdown] lang="ru"
# Если отключить повторы, тот же сбой дойдёт до вашего кода как `anthropic.OverloadedError`. Если ошибка
# не ушла и после всех повторов, это настоящий сбой запуска: остановитесь, сохраните историю и сообщите
# об ошибке.

# %% lang="en" tags=["raises-exception"]
if using_sandbox():
    sandbox.faults.overloaded(times=1)
    client.with_options(max_retries=0).messages.create(
        model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Hello"}])
else:
    print("Skipped: faults can be ordered only from the offline sandbox, not from the live API.")

# %% lang="ru" tags=["raises-exception"]
if using_sandbox():
    sandbox.faults.overloaded(times=1)
    client.with_options(max_retries=0).messages.create(
        model=MODEL, max_tokens=200, messages=[{"role": "user", "content": "Привет"}])
else:
    print("Пропущено: заказать сбой можно только у офлайн-песочницы, не у настоящего API.")

# %% [markdown] lang="en"
# ## Exercise
#
# `read_file` fails for a file that does not exist. Write `run_tool_missing_file`: a `run_tool_safely` in
# which `read_file` always raises `FileNotFoundError`, and review !482 with it
# (`review(482, run_tool_missing_file)`). What does the model write, and what does it not do?

# %% [markdown] lang="ru"
# ## Упражнение
#
# `read_file` завершается ошибкой, если файла не существует. Напишите `run_tool_missing_file` — вариант
# `run_tool_safely`, в котором `read_file` всегда выбрасывает `FileNotFoundError`, и проведите с ней ревью !482
# (`review(482, run_tool_missing_file)`). Что напишет модель и чего она делать не станет?

# %% lang="en"
def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, except that read_file always raises FileNotFoundError."""
    ...  # your code here


# print(review(482, run_tool_missing_file))

# %% lang="ru"
def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, только read_file всегда выбрасывает FileNotFoundError."""
    ...  # ваш код


# print(review(482, run_tool_missing_file))

# %% [markdown] lang="en"
# ### Check your exercise
#
# The cell below calls **your** `run_tool_missing_file` for `read_file` and `get_diff`, then runs this notebook's review loop with it on !482 against a fresh sandbox and reads the answer. While the cell above is unchanged, it says "not done yet".
#
# <details><summary>Hint</summary>
#
# Start from `run_tool_safely` above: when `name` is `"read_file"`, raise `FileNotFoundError` inside the `try`, so that the `except` turns it into a result with `is_error`.
# </details>

# %% [markdown] lang="ru"
# ### Проверьте упражнение
#
# Ячейка ниже вызывает **вашу** `run_tool_missing_file` для `read_file` и `get_diff`, затем запускает с ней цикл ревью из этого блокнота на !482 в свежей песочнице и читает ответ. Пока вы не изменили ячейку выше, проверка отвечает «пока не сделано».
#
# <details><summary>Подсказка</summary>
#
# Начните с `run_tool_safely` выше: если `name` равно `"read_file"`, выбросьте `FileNotFoundError` внутри `try`, чтобы `except` превратил его в результат с `is_error`.
# </details>

# %%
from course_selfcheck.exercises import check_exercise_5

check_exercise_5(run_tool_missing_file)

# %% [markdown] lang="en"
# The reference solution, folded (a spoiler: open it once you have tried yours; `print(solution_code(5))` prints it).

# %% [markdown] lang="ru"
# Эталонное решение, в свёрнутом виде (спойлер: откройте его, когда попробуете своё; `print(solution_code(5))` его напечатает).

# %%
from course_agent.solutions import show_solution, solution_code

show_solution(5)

# %% [markdown] lang="en"
# ### Self-check
#
# `check_loop` calls a loop with the merge request number only; this notebook's `review` also takes the tool
# runner, so wrap it in a `lambda`. It runs the loop in scenarios built to expose each rule and judges what
# it sees on the wire: here, the two rules of this notebook.

# %% [markdown] lang="ru"
# ### Самопроверка
#
# `check_loop` вызывает цикл, передавая только номер merge request, а `review` из этого блокнота принимает ещё и
# функцию запуска инструментов, поэтому оберните вызов `review` в `lambda`. Проверка запускает цикл в сценариях, которые
# выявляют нарушение каждого правила, и судит по тому, что уходит по сети: здесь — по двум правилам этого блокнота.

# %%
from course_selfcheck import check_loop

check_loop(lambda pr: review(pr, run_tool_safely), rules=["whole_response", "errors_are_results"])

# %% [markdown] lang="en"
# ## Check yourself
#
# 1. GitLab answers 404 to a tool. What goes back to the model?
#
# <details><summary>Answer</summary>
#
# A `tool_result` with `is_error: true` and the error's text; the loop goes on.
# </details>
#
# 2. With thinking on, which blocks of a response go back into the history?
#
# <details><summary>Answer</summary>
#
# All of them, unchanged: thinking (with its signature), text and tool_use.
# </details>
#
# 3. (Go deeper) Can you edit an earlier message of a conversation that carries thinking blocks?
#
# <details><summary>Answer</summary>
#
# No: the history is append-only; put every update in a new message at the end.
# </details>
#
# **Choose one** (each answer says why the other two are wrong):
#
# 4. `read_file` raised `FileNotFoundError` inside your loop. What is the best next step?
#    - (a) let the exception end the run
#    - (b) send a `tool_result` with `is_error: true` that says what failed, and go on
#    - (c) drop that `tool_use` from the history and call the model again
#
# <details><summary>Answer</summary>
#
# (b). Ending the run loses the whole review over one file; editing what the model said breaks the pair (and, with
# thinking on, the API rejects a changed history). The model can read the error and try another way.
# </details>
#
# 5. The API answered `529 overloaded`. What does the SDK do?
#    - (a) raises at once
#    - (b) retries with a growing pause (twice, by default) before it raises
#    - (c) switches to another model
#
# <details><summary>Answer</summary>
#
# (b). Overloads and rate limits are retried for you (`max_retries`); switching models is a decision the SDK
# leaves to you (notebook 6's fallback).
# </details>

# %% [markdown] lang="ru"
# ## Проверьте себя
#
# 1. GitLab ответил инструменту 404. Что уходит модели?
#
# <details><summary>Ответ</summary>
#
# `tool_result` с `is_error: true` и текстом ошибки; цикл продолжается.
# </details>
#
# 2. Какие блоки ответа возвращаются в историю, если включено рассуждение?
#
# <details><summary>Ответ</summary>
#
# Все, без изменений: thinking (с подписью), text и tool_use.
# </details>
#
# 3. (Глубже) Можно ли править раннее сообщение в диалоге с блоками рассуждения?
#
# <details><summary>Ответ</summary>
#
# Нет: историю можно только дополнять; любое обновление — новым сообщением в конце.
# </details>
#
# **Выберите один ответ** (в каждом ответе сказано, почему два других неверны):
#
# 4. `read_file` выбросил `FileNotFoundError` внутри вашего цикла. Что лучше всего сделать?
#    - (а) дать исключению завершить прогон
#    - (б) отправить `tool_result` с `is_error: true`, где сказано, что не получилось, и продолжить
#    - (в) убрать этот `tool_use` из истории и снова вызвать модель
#
# <details><summary>Ответ</summary>
#
# (б). Завершив прогон, вы потеряете всё ревью из-за одного файла; правка того, что сказала модель, разрывает пару
# (а при включённом рассуждении API отклоняет изменённую историю). Ошибку модель прочитает и попробует другой
# путь.
# </details>
#
# 5. API ответил `529 overloaded`. Что делает SDK?
#    - (а) сразу выбрасывает исключение
#    - (б) повторяет запрос с растущей паузой (по умолчанию дважды) и только потом выбрасывает исключение
#    - (в) переключается на другую модель
#
# <details><summary>Ответ</summary>
#
# (б). Перегрузку и превышение лимитов SDK повторяет за вас (`max_retries`); переход на другую модель SDK
# оставляет вам (запасная модель из блокнота 6).
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - Tool failures go back to the model as `tool_result` with `is_error: true`; the loop survives.
# - The whole response goes into the history, or the next request is a 400.
# - 429, 5xx, 529 and dropped connections are retried by the SDK; what survives the retries is yours to handle.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Сбои инструментов возвращаются модели как `tool_result` с `is_error: true`; цикл продолжает работу.
# - Ответ модели добавляется в историю целиком, иначе следующий запрос получит 400.
# - 429, 5xx, 529 и обрывы соединения SDK повторяет сам; то, что пережило повторы, обрабатываете вы.
