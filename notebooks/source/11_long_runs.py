# %% [markdown] lang="en"
# # 11. Long and difficult runs (optional)
#
# *Go deeper: nothing in notebooks 1–9, their exercises or their checks needs this notebook. Read a section when you
# need it; each stands on its own.*
#
# **You will learn**
# - what happens when history and answer no longer fit: a full context window (`model_context_window_exceeded`),
#   one of the two stops notebook 6 only named, made to happen;
# - what to do when a long review fills the window: context editing clears old tool results on the server,
#   compaction puts a summary in place of the earlier turns;
# - how to let a turn paused by a server tool go on (`pause_turn`, with web search): the other stop notebook 6 only
#   named;
# - how to have a refusal answered by another model for you: on the server (`fallbacks`) or in the SDK (a
#   middleware).
#
# *About 45 minutes. Builds on notebooks 6 and 8 (its tool runner).*

# %% [markdown] lang="ru"
# # 11. Долгая и трудная работа (по желанию)
#
# *Для тех, кто хочет разобраться глубже: ни блокнотам 1–9, ни их упражнениям и проверкам этот блокнот не нужен.
# Читайте раздел, когда он понадобится; каждый понятен сам по себе.*
#
# **Вы узнаете**
# - что происходит, когда история вместе с ответом перестаёт помещаться: переполненное контекстное окно
#   (`model_context_window_exceeded`) — одна из двух остановок, которые блокнот 6 только назвал, здесь вживую;
# - что делать, когда длинное ревью заполняет контекстное окно: редактирование контекста очищает старые результаты
#   инструментов на сервере, а сжатие ставит краткое содержание на место прежних ходов;
# - как продолжить ход, приостановленный серверным инструментом (`pause_turn`, на веб-поиске), — это вторая
#   остановка, которую блокнот 6 только назвал;
# - как сделать, чтобы после отказа запрос сам ушёл другой модели: на сервере (`fallbacks`) или в SDK (промежуточный
#   слой).
#
# *Около 45 минут. Опирается на блокноты 6 и 8 (его `tool_runner`).*

# %% use="setup"

# %% use="lesson_tools"

# %% use="runner_tools"

# %% [markdown] lang="en"
# <!-- fact: context-window-exceeded -->
# ## A full context window
#
# A model's context window is the most tokens one request can hold, input and answer together. On the course's model
# it is a million. When the history plus the answer no longer fit the model's context window, the answer stops with
# `model_context_window_exceeded`. With the real API that takes a very long history.
#
# The sandbox can shrink the window instead. The cell below counts the prompt (`count_tokens`, notebook 10) and leaves
# room for only 40 tokens of answer. Its `max_tokens` is still 2000.
#
# **Predict, then run:** will the call raise an error? What will `stop_reason` say, and after how many output tokens?

# %% [markdown] lang="ru"
# <!-- fact: context-window-exceeded -->
# ## Переполненное контекстное окно
#
# Контекстное окно модели — наибольшее число токенов, которое вмещает один запрос вместе с ответом. У модели курса это
# миллион. Когда история вместе с ответом перестаёт помещаться в контекстное окно модели, ответ обрывается с
# `model_context_window_exceeded`. С настоящим API для этого нужна очень длинная история.
#
# Песочница умеет вместо этого уменьшить контекстное окно. Ячейка ниже считает токены промпта (`count_tokens`,
# блокнот 10) и оставляет место только для 40 токенов ответа. При этом `max_tokens` по-прежнему 2000.
#
# **Сначала предположите, потом запустите:** выбросит ли вызов исключение? Что покажет `stop_reason` и после скольких
# токенов на выходе?

# %% lang="en"
from course_agent.client import shared_sandbox, using_sandbox

prompt = [{"role": "user", "content": "Explain the agent loop in detail."}]
if using_sandbox():
    needed = client.messages.count_tokens(model=MODEL, messages=prompt).input_tokens
    shared_sandbox().context_window = needed + 40  # room for 40 tokens of answer
    full = client.messages.create(model=MODEL, max_tokens=2000, messages=prompt)
    shared_sandbox().context_window = None
    print(needed, "input tokens;", full.stop_reason, "after", full.usage.output_tokens, "output tokens")
else:
    print("Skipped: only the offline sandbox can shrink a model's context window.")

# %% lang="ru"
from course_agent.client import shared_sandbox, using_sandbox

prompt = [{"role": "user", "content": "Объясни подробно, как работает агентный цикл."}]
if using_sandbox():
    needed = client.messages.count_tokens(model=MODEL, messages=prompt).input_tokens
    shared_sandbox().context_window = needed + 40  # место для 40 токенов ответа
    full = client.messages.create(model=MODEL, max_tokens=2000, messages=prompt)
    shared_sandbox().context_window = None
    print(needed, "— столько токенов на входе;", full.stop_reason, "после", full.usage.output_tokens, "ток. на выходе")
else:
    print("Пропущено: уменьшить контекстное окно модели умеет только офлайн-песочница.")

# %% [markdown] lang="en"
# No error: the answer stops after 40 output tokens, with `model_context_window_exceeded`. The window ran out before
# `max_tokens` did. Your loop treats this stop like `max_tokens`: as an error, never as a finished answer
# (notebook 6).

# %% [markdown] lang="ru"
# Ошибки нет: ответ обрывается после 40 токенов на выходе, с `model_context_window_exceeded`. Место в контекстном
# окне кончилось раньше, чем бюджет `max_tokens`. Ваш цикл обрабатывает эту остановку так же, как `max_tokens`: это
# ошибка, а не законченный ответ (блокнот 6).

# %% [markdown] lang="en"
# <!-- fact: compaction-block -->
# <!-- fact: context-editing -->
# ## A long review fills the window: context editing and compaction
#
# Every turn sends the whole conversation again. Each diff and file the model has read stays in `messages`, and is
# sent and billed on every later request, long after the model used it: a large merge request, or many reviews in one
# conversation, fill the context window with results nobody needs any more. The API has two answers on the server
# side, both beta:
#
# - **Context editing** (`context_management`, beta `context-management-2025-06-27`): once a request passes a trigger,
#   the API replaces the oldest tool results with a short placeholder before the model reads it, keeps the latest
#   (`keep`), and says what it cleared in the response's `context_management.applied_edits`. Your `messages` stay
#   whole: only the model's copy is edited.
# - **Compaction**: the model writes a summary of the conversation into a `compaction` block; sent back, the block
#   takes the place of every turn before it. The SDK's runner asks for one with `compact_before_next_turn()` (beta
#   `compact-2026-09-04`), and puts the block in place of the turns it summarizes. Compaction can also start by
#   itself once a request passes a threshold you set (docs: *Compaction*); that response you append as usual.
#
# Below, the runner reviews !484, which reads several files, with a trigger small enough to fire here: clear once
# the conversation has made 3 tool calls, and keep the last one.

# %% [markdown] lang="ru"
# <!-- fact: compaction-block -->
# <!-- fact: context-editing -->
# ## Длинное ревью заполняет контекстное окно: редактирование контекста и сжатие
#
# Каждый ход заново отправляет весь диалог. Каждый diff и каждый файл, которые прочитала модель, остаются в
# `messages`, уходят с каждым следующим запросом и оплачиваются, хотя модель давно ими воспользовалась: большой merge
# request или несколько ревью в одном диалоге заполняют контекстное окно результатами, которые больше никому не
# нужны. У API есть два средства на стороне сервера, оба пока в бета-версии:
#
# - **Редактирование контекста** (`context_management`, бета `context-management-2025-06-27`): когда запрос
#   превышает порог, API заменяет самые старые результаты инструментов коротким текстом-заглушкой, прежде чем модель
#   их прочтёт, оставляет последние (`keep`) и сообщает, что очистил, в поле ответа `context_management.applied_edits`.
#   Ваш список `messages` остаётся целым: правится только копия, которую читает модель.
# - **Сжатие** (compaction): модель пишет краткое содержание диалога в блок `compaction`; отправленный обратно, блок
#   заменяет все ходы до него. Исполнитель SDK запрашивает сжатие методом `compact_before_next_turn()` (бета
#   `compact-2026-09-04`) и ставит блок на место ходов, которые он пересказывает. Сжатие может начаться и само, когда
#   запрос превысит заданный вами порог (документация, раздел о сжатии); такой ответ добавляют в историю как обычно.
#
# Ниже исполнитель проверяет !484 (ревью читает несколько файлов) с таким низким порогом, что очистка срабатывает
# уже здесь: очищать, когда в диалоге набралось 3 вызова инструментов, и оставлять последний.

# %% lang="en"
long_task = [{"role": "user", "content": "Review merge request !484."}]

# %% lang="ru"
long_task = [{"role": "user", "content": "Проверь merge request !484."}]

# %% lang="en"
clearing = {"edits": [{"type": "clear_tool_uses_20250919",
                       "trigger": {"type": "tool_uses", "value": 3},  # small, so that it happens in this review
                       "keep": {"type": "tool_uses", "value": 1}}]}
edited_runner = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file], max_iterations=20,
    messages=long_task,
    betas=["context-management-2025-06-27"], context_management=clearing,
)
edited_turns = [(m.stop_reason, m.usage.input_tokens,
                 m.context_management.applied_edits if m.context_management else [])
                for m in edited_runner]

# %% lang="ru"
clearing = {"edits": [{"type": "clear_tool_uses_20250919",
                       # порог маленький, чтобы очистка сработала уже в этом ревью
                       "trigger": {"type": "tool_uses", "value": 3},
                       "keep": {"type": "tool_uses", "value": 1}}]}
edited_runner = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file], max_iterations=20,
    messages=long_task,
    betas=["context-management-2025-06-27"], context_management=clearing,
)
edited_turns = [(m.stop_reason, m.usage.input_tokens,
                 m.context_management.applied_edits if m.context_management else [])
                for m in edited_runner]

# %% lang="en"
for turn, (stop, tokens_in, edits) in enumerate(edited_turns, 1):
    cleared = "; ".join(f"{e.type}: {e.cleared_tool_uses} results, {e.cleared_input_tokens} tokens" for e in edits)
    print(f"turn {turn}: {stop:<8} input {tokens_in:>5} tokens | cleared: {cleared or 'nothing'}")

# %% lang="ru"
for turn, (stop, tokens_in, edits) in enumerate(edited_turns, 1):
    cleared = "; ".join(f"результатов — {e.cleared_tool_uses}, токенов — {e.cleared_input_tokens}" for e in edits)
    print(f"ход {turn}: {stop:<8} | токенов на входе: {tokens_in:>5} | очищено: {cleared or 'ничего'}")

# %% [markdown] lang="en"
# <!-- fact: runner-compaction-summarize -->
# Now compaction, asked for by the runner: after the first turn's tool call has run, `compact_before_next_turn()`
# makes the runner send the conversation with `compaction={"type": "summarize"}`. The response is the `compaction`
# block alone (`stop_reason` `"compaction"`), the runner puts it in place of the whole history, and goes on from the
# summary. Watch the input tokens of the turn after it.

# %% [markdown] lang="ru"
# <!-- fact: runner-compaction-summarize -->
# Теперь сжатие по просьбе исполнителя: после того как выполнен вызов инструмента из первого хода,
# `compact_before_next_turn()` заставляет исполнителя отправить диалог с `compaction={"type": "summarize"}`. Ответ
# состоит из одного блока `compaction` (`stop_reason` равен `"compaction"`); исполнитель ставит его на место всей
# истории и продолжает с краткого содержания. Посмотрите на входные токены хода после него.

# %% lang="en"
compacting = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file], max_iterations=20,
    messages=long_task,
    betas=["compact-2026-09-04"],
)
compacted_turns, summary = [], None
for message in compacting:
    if not compacted_turns:
        compacting.compact_before_next_turn()  # only schedules it: it runs once this turn's tools have run
    if message.stop_reason == "compaction":
        summary = next(block.content for block in message.content if block.type == "compaction")
    compacted_turns.append((message.stop_reason, message.usage.input_tokens))

# %% lang="ru"
compacting = client.beta.messages.tool_runner(
    model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=[get_diff, read_file], max_iterations=20,
    messages=long_task,
    betas=["compact-2026-09-04"],
)
compacted_turns, summary = [], None
for message in compacting:
    if not compacted_turns:
        # только назначает сжатие: оно произойдёт, когда выполнятся инструменты этого хода
        compacting.compact_before_next_turn()
    if message.stop_reason == "compaction":
        summary = next(block.content for block in message.content if block.type == "compaction")
    compacted_turns.append((message.stop_reason, message.usage.input_tokens))

# %% lang="en"
for turn, (stop, tokens_in) in enumerate(compacted_turns, 1):
    print(f"turn {turn}: {stop:<10} input {tokens_in:>5} tokens")
print("the summary starts:", *(summary or "(no summary)").splitlines()[:2], sep="\n  ")

# %% lang="ru"
for turn, (stop, tokens_in) in enumerate(compacted_turns, 1):
    print(f"ход {turn}: {stop:<10} | токенов на входе: {tokens_in:>5}")
print("краткое содержание начинается так:", *(summary or "(его нет)").splitlines()[:2], sep="\n  ")

# %% [markdown] lang="en"
# The compaction request itself read the whole conversation (its `usage`), and the turn after it starts from the
# short summary instead of the diff. A summary is lossy: here the model asks for the diff again, because the summary
# names the calls but not their results. Context editing keeps the turns and drops only old results; compaction
# keeps the gist and drops the turns. On the live API, the summary is the model's own prose.

# %% [markdown] lang="ru"
# Сам запрос на сжатие прочитал весь диалог (это видно по его `usage`), а следующий ход начинается уже не с diff, а с
# нескольких строк краткого содержания. Краткое содержание теряет подробности: здесь модель снова запрашивает diff,
# потому что в кратком содержании названы вызовы, но не их результаты. Редактирование контекста сохраняет ходы и
# убирает только старые результаты; сжатие сохраняет суть и убирает ходы. С настоящим API краткое содержание модель
# пишет своими словами.

# %% [markdown] lang="en"
# <!-- fact: pause-turn -->
# ## A turn paused by a server tool: `pause_turn`
#
# Server tools (such as web search) run on Anthropic's side within one turn. Your code never runs them. A long series
# of them can pause: the response ends with `pause_turn`. Send the conversation back **with that response appended
# and no new user message**, and the same turn continues.
#
# The request names web search in `tools` (`web_search_20250305`). Its searches come back in the response as
# `server_tool_use` and `web_search_tool_result` blocks. The cell below asks for a search, gets `pause_turn`, and sends
# the paused response back.

# %% [markdown] lang="ru"
# <!-- fact: pause-turn -->
# ## Ход, приостановленный серверным инструментом: `pause_turn`
#
# Серверные инструменты (например, веб-поиск) выполняются на стороне Anthropic в рамках одного хода. Ваш код их не
# запускает. Если таких вызовов много, ход может быть приостановлен: ответ заканчивается с `pause_turn`. Отправьте
# диалог обратно, **добавив этот ответ в историю, но не добавляя нового сообщения от user**, — и тот же ход
# продолжится.
#
# Веб-поиск указан в `tools` запроса (`web_search_20250305`). Поисковые запросы видны в ответе как блоки
# `server_tool_use` и `web_search_tool_result`. Ячейка ниже просит поискать, получает `pause_turn` и отправляет
# приостановленный ответ обратно.

# %% use="pause_turn_demo"

# %% [markdown] lang="en"
# **Break it, and predict first:** the cell below answers the pause with a new user message, "continue", instead of
# sending the paused turn back as it is. Will the searches the turn had made go on from where they paused? Run it, then
# read on.

# %% [markdown] lang="ru"
# **Сломаем, но сначала предположите:** ячейка ниже отвечает на паузу новым сообщением от user («продолжай») вместо
# того, чтобы отправить приостановленный ход обратно как есть. Продолжатся ли поиски, начатые в этом ходе, с того места,
# где он встал на паузу? Запустите ячейку, затем читайте дальше.

# %% lang="en"
wrong = messages[:1] + [{"role": "assistant", "content": paused.content}, {"role": "user", "content": "continue"}]
again = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=wrong)
print(again.stop_reason, "- searches started over:", len([b for b in again.content if b.type == "server_tool_use"]))

# %% lang="ru"
wrong = messages[:1] + [{"role": "assistant", "content": paused.content}, {"role": "user", "content": "продолжай"}]
again = client.messages.create(model=MODEL, max_tokens=2000, tools=WEB_SEARCH, messages=wrong)
print(again.stop_reason, "— новых поисков:", len([b for b in again.content if b.type == "server_tool_use"]))

# %% [markdown] lang="en"
# The paused turn was not continued: the new message changed the task it was doing. In the sandbox the work starts
# over and pauses again, so such a loop never finishes. A real model may do something else, but it no longer finishes
# the turn it paused.

# %% [markdown] lang="ru"
# Приостановленный ход не продолжился: новое сообщение изменило задачу, над которой он работал. В песочнице работа
# начинается заново и снова встаёт на паузу, так что такой цикл никогда не закончится. Настоящая модель может повести
# себя иначе, но приостановленный ход она уже не завершит.

# %% [markdown] lang="en"
# <!-- fact: fallbacks-param -->
# <!-- fact: fallback-block -->
# ## A refusal answered by another model, on the server or in the SDK
#
# *Notebook 6's optional exercise sends the same messages once to `fallback_model()` by hand. Here are two ways to
# have that done for you.*
#
# Not every refusal is about a harmful request. A cautious model also says no to legitimate work now and then, such as
# planning a security test of your own shop. Asking the same model again is pointless, but another Claude model
# usually answers.
#
# The API can do that for you. The `fallbacks` parameter (beta) lists the models to try next, or says `"default"` for
# the model's own chain. The cell below sends `"default"` with the beta header `server-side-fallback-2026-07-01`.
# What comes back:
#
# - A `fallback` block in the content marks where one model's output gives way to the next. It can follow partial
#   output of the model that declined. It is absent when no earlier model ran.
# - The sure sign that a fallback model answered is a `fallback_message` entry in `usage.iterations`. That list bills
#   each attempt.
#
# Haiku 5.5 has no server-side fallback. And a request like notebook 6's ransomware stays refused on every model.

# %% [markdown] lang="ru"
# <!-- fact: fallbacks-param -->
# <!-- fact: fallback-block -->
# ## На отказ отвечает другая модель — на сервере или в SDK
#
# *В необязательном упражнении блокнота 6 вы сами один раз отправляете те же сообщения модели `fallback_model()`.
# Здесь — два способа поручить это API или SDK.*
#
# Не каждый отказ связан с вредным запросом. Осторожная модель иногда отказывается и от вполне законной работы —
# например, составить план проверки безопасности вашего собственного магазина. Повторять запрос к той же модели
# бессмысленно, а другая модель Claude обычно отвечает.
#
# API умеет сделать это сам. Параметр `fallbacks` (бета) перечисляет модели, к которым перейти, или равен `"default"` —
# тогда API берёт цепочку запасных моделей, заданную для этой модели. Ячейка ниже отправляет `"default"`
# с бета-заголовком `server-side-fallback-2026-07-01`. Что приходит в ответ:
#
# - Блок `fallback` в содержимом ответа отмечает место, где вывод одной модели сменяется выводом следующей. Он может
#   стоять после частичного вывода отказавшей модели. Если перехода не было (ответила первая же модель), такого
#   блока нет.
# - Надёжный признак того, что ответила запасная модель, — запись `fallback_message` в `usage.iterations`. В этом
#   списке виден и расход на каждую попытку.
#
# У Haiku 5.5 такого перехода на стороне сервера нет. А на просьбу написать вирус-вымогатель, как в блокноте 6, любая
# модель ответит отказом.

# %% lang="en"
audit = [{"role": "user", "content": "Plan a penetration test of the shop's checkout."}]
first = client.messages.create(model=MODEL, max_tokens=1000, messages=audit)
print(first.stop_reason, first.stop_details)
served = client.beta.messages.create(model=MODEL, max_tokens=1000, messages=audit,
                                     fallbacks="default", betas=["server-side-fallback-2026-07-01"])
print(served.stop_reason, "from", served.model)
for block in served.content:
    if block.type == "fallback":
        print(f"fallback: {block.from_.model} -> {block.to.model} ({block.trigger.category})")
print([(attempt.type, attempt.model) for attempt in served.usage.iterations or []])

# %% lang="ru"
audit = [{"role": "user", "content": "Составь план теста на проникновение для оформления заказа в магазине."}]
first = client.messages.create(model=MODEL, max_tokens=1000, messages=audit)
print(first.stop_reason, first.stop_details)
served = client.beta.messages.create(model=MODEL, max_tokens=1000, messages=audit,
                                     fallbacks="default", betas=["server-side-fallback-2026-07-01"])
print(served.stop_reason, "— ответила", served.model)
for block in served.content:
    if block.type == "fallback":
        print(f"запасная модель: {block.from_.model} -> {block.to.model} ({block.trigger.category})")
print([(attempt.type, attempt.model) for attempt in served.usage.iterations or []])

# %% [markdown] lang="en"
# <!-- fact: sdk-fallback-middleware -->
# Where the server cannot fall back for you, the SDK does the same on your side. A middleware retries a refused beta
# request down a list of models. A `BetaFallbackState` keeps the rest of the conversation on the model that accepted.

# %% [markdown] lang="ru"
# <!-- fact: sdk-fallback-middleware -->
# Если сервер не может перейти на другую модель сам, то же самое на вашей стороне делает SDK. Промежуточный слой
# (middleware) повторяет бета-запрос, на который модель ответила отказом, перебирая модели из списка. А
# `BetaFallbackState` закрепляет оставшуюся часть диалога за моделью, которая не отказалась отвечать.

# %% lang="en"
from anthropic import BetaFallbackState, BetaRefusalFallbackMiddleware

from course_agent.config import fallback_model

careful = client.with_options(middleware=[BetaRefusalFallbackMiddleware([{"model": fallback_model()}])])
with BetaFallbackState():
    answer = careful.beta.messages.create(model=MODEL, max_tokens=1000, messages=audit)
print(answer.stop_reason, "from", answer.model, [block.type for block in answer.content])

# %% lang="ru"
from anthropic import BetaFallbackState, BetaRefusalFallbackMiddleware

from course_agent.config import fallback_model

careful = client.with_options(middleware=[BetaRefusalFallbackMiddleware([{"model": fallback_model()}])])
with BetaFallbackState():
    answer = careful.beta.messages.create(model=MODEL, max_tokens=1000, messages=audit)
print(answer.stop_reason, "— ответила", answer.model, [block.type for block in answer.content])

# %% [markdown] lang="en"
# ## Check yourself
#
# **Choose one** (each answer says why the other two are wrong):
#
# 1. Which one keeps the turns and removes only old tool results?
#    - (a) compaction
#    - (b) context editing
#    - (c) both
#
# <details><summary>Answer</summary>
#
# (b). Compaction puts a summary in place of the earlier turns themselves, so not (a), and not both (c). And what is
# left in *your* `messages` after context editing? Everything: the API edits the copy the model reads, and says what it
# cleared in `context_management.applied_edits`.
# </details>
#
# 2. A response ends with `pause_turn`. What does your loop send next?
#    - (a) the same request again, without the paused response
#    - (b) the messages with the paused response appended, and no new user message
#    - (c) the paused response appended, then a user message "continue"
#
# <details><summary>Answer</summary>
#
# (b). The paused turn goes on from where it stopped only when it comes back as the last message, as it is. Without
# it (a), the server knows nothing of the searches already made, and the turn starts from scratch. A new user message
# (c) changes the task, and the paused turn is never finished (the "Break it" cell above).
# </details>

# %% [markdown] lang="ru"
# ## Проверьте себя
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 1. Что сохраняет ходы и убирает только старые результаты инструментов?
#    - (а) сжатие
#    - (б) редактирование контекста
#    - (в) и то и другое
#
# <details><summary>Ответ</summary>
#
# (б). Сжатие ставит краткое содержание на место самих прежних ходов, так что не (а) и не (в). А что после
# редактирования контекста осталось в *вашем* `messages`? Всё: API редактирует копию, которую читает модель, и
# сообщает, что очистил, в `context_management.applied_edits`.
# </details>
#
# 2. Ответ закончился с `pause_turn`. Что ваш цикл отправит следующим?
#    - (а) тот же запрос ещё раз, без приостановленного ответа
#    - (б) сообщения с добавленным в конец приостановленным ответом и без нового сообщения от user
#    - (в) приостановленный ответ, а за ним сообщение от user «продолжай»
#
# <details><summary>Ответ</summary>
#
# (б). Приостановленный ход продолжается с того места, где остановился, только если вернуть его последним сообщением
# как есть. Без него (а) сервер ничего не знает об уже сделанных поисках, и ход начинается с нуля. Новое сообщение от
# user (в) меняет задачу, и приостановленный ход так и не завершается (ячейка «Сломаем» выше).
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - A full context window stops the answer with `model_context_window_exceeded`: your loop treats it like
#   `max_tokens`, as an error, never as a finished answer.
# - A long review fills the window with old results: context editing clears them on the server, compaction replaces
#   earlier turns with a summary (the block takes their place in the history you send on).
# - After `pause_turn`, send the paused response back with no new user message: the turn goes on.
# - A refusal can be answered by another model for you: `fallbacks` on the server (beta), or the SDK's middleware.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Переполненное контекстное окно обрывает ответ с `model_context_window_exceeded`: ваш цикл обрабатывает эту
#   остановку так же, как `max_tokens`, — как ошибку, а не как законченный ответ.
# - Длинное ревью заполняет контекстное окно старыми результатами: редактирование контекста очищает их на сервере,
#   сжатие заменяет прежние ходы кратким содержанием (блок встаёт на их место в истории, которую вы отправляете дальше).
# - После `pause_turn` приостановленный ответ отправляют обратно без нового сообщения от user, и ход продолжается.
# - После отказа запрос может сам уйти другой модели: `fallbacks` на сервере (бета) или промежуточный слой SDK.
