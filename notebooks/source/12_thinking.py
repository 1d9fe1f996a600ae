# %% [markdown] lang="en"
# # 12. Thinking in depth (optional)
#
# *Go deeper: nothing in notebooks 1–9, their exercises or their checks needs this notebook. The one rule you need
# about thinking is notebook 2's: the response goes back whole.*
#
# **You will learn**
# - how to tune thinking on today's models: `thinking` (adaptive), `effort`, `display`;
# - what the API answers to the old way of switching it on (a token budget), and to a thinking block edited on its way
#   back;
# - why, on the newest models, the history is append-only: each thinking block is bound to everything before it.
#
# *About 30 minutes. Builds on notebooks 2 and 5 (and uses notebook 3's tools).*

# %% [markdown] lang="ru"
# # 12. Рассуждение подробно (по желанию)
#
# *Для тех, кто хочет разобраться глубже: ни блокнотам 1–9, ни их упражнениям и проверкам этот блокнот не нужен.
# Единственное правило о рассуждении, которое вам нужно, — из блокнота 2: ответ возвращается целиком.*
#
# **Вы узнаете**
# - как настраивать рассуждение у современных моделей: `thinking` (адаптивное), `effort`, `display`;
# - что API отвечает на старый способ включить рассуждение (бюджет токенов) и на блок рассуждения, изменённый по
#   дороге обратно;
# - почему у новейших моделей историю можно только дополнять: каждый блок рассуждения привязан ко всему, что было
#   до него.
#
# *Около 30 минут. Опирается на блокноты 2 и 5 (и пользуется инструментами из блокнота 3).*

# %% use="setup"

# %% use="lesson_tools"

# %% [markdown] lang="en"
# The same guard as notebook 5's `safe_tool_result`, as a function of a tool's name and input: a failing tool becomes
# a result, not an exception.

# %% [markdown] lang="ru"
# Та же защита, что в `safe_tool_result` из блокнота 5, в виде функции от имени и входных данных: сбой инструмента
# становится результатом, а не исключением.

# %% lang="en"
def run_tool_safely(name: str, tool_input: dict) -> dict:
    """Run a tool; a failure becomes a result the model can read (is_error), never an exception."""
    try:
        return {"content": run_tool(name, tool_input)}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}

# %% lang="ru"
def run_tool_safely(name: str, tool_input: dict) -> dict:
    """Выполнить инструмент; сбой становится результатом для модели (is_error), а не исключением."""
    try:
        return {"content": run_tool(name, tool_input)}
    except Exception as error:
        return {"content": f"{name} завершился ошибкой: {type(error).__name__}: {error}", "is_error": True}

# %% [markdown] lang="en"
# <!-- fact: thinking-display-redacted -->
# <!-- fact: effort-defaults -->
# ## Thinking, with effort and display
#
# On today's models you do not switch thinking on: it is on by default, and you tune it.
#
# - `thinking={"type": "adaptive"}` (the default here): the model decides per request whether and how much to think.
# - `output_config={"effort": ...}`: `low`, `medium`, `high`, `xhigh` or `max`. More effort, more thinking, more
#   output tokens billed (the default differs by model: `high` on Opus 5, `medium` on Opus 5.5).
# - `thinking.display`: `"omitted"` (the default: an empty `thinking` text, the reasoning sealed in the
#   `signature`) or `"summarized"` (a summary you can read); the beta client also takes `"updates"`, with its beta
#   header (only the short notes between tool calls come back, in the thinking blocks).
#
# Whatever you choose, a thinking block belongs to the response like the `tool_use` after it. It goes into the history
# whole and unchanged, and the API checks its signature. Sometimes the reasoning comes as `redacted_thinking`, an
# encrypted `data` field: it goes back the same way. In the live view below, the thinking block is the folded line
# just above the tool call.

# %% [markdown] lang="ru"
# <!-- fact: thinking-display-redacted -->
# <!-- fact: effort-defaults -->
# ## Рассуждение, `effort` и `display`
#
# У современных моделей рассуждение не нужно включать: оно включено по умолчанию, и его настраивают.
#
# - `thinking={"type": "adaptive"}` (здесь это значение по умолчанию): модель сама решает для каждого запроса,
#   рассуждать ли и сколько.
# - `output_config={"effort": ...}`: `low`, `medium`, `high`, `xhigh` или `max`. Чем выше `effort`, тем больше
#   рассуждения и тем больше выходных токенов в счёте (значение по умолчанию у моделей разное: `high` у Opus 5,
#   `medium` у Opus 5.5).
# - `thinking.display`: `"omitted"` (по умолчанию: пустой текст `thinking`, рассуждение — в зашифрованном виде в
#   `signature`) или `"summarized"` (краткое изложение, которое можно прочитать); бета-клиент принимает ещё и
#   `"updates"` со своим бета-заголовком (приходят только короткие заметки между вызовами инструментов, в блоках
#   рассуждения).
#
# Что бы вы ни выбрали, блок рассуждения — такая же часть ответа, как `tool_use` после него. Он попадает в историю
# целиком и без изменений, а API проверяет его подпись. Иногда рассуждение приходит блоком `redacted_thinking`
# с зашифрованным полем `data`; его возвращают точно так же. В живом просмотре ниже блок рассуждения —
# свёрнутая строка прямо над вызовом инструмента.

# %% lang="en"
from course_agent.widgets import MessagesView

THINKING = {"type": "adaptive", "display": "summarized"}  # let the model decide; show a summary of its reasoning
thinking_view = MessagesView(client=client)
thinking_view.messages.append({"role": "user", "content": "Review merge request !482."})
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
thinking_view.messages.append({"role": "user", "content": "Проверь merge request !482."})
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
# Effort is what you pay for thinking. The cell below runs the same first step of the review at three levels.
#
# **Predict, then run:** which level will bill the most output tokens? Will the blocks of the response differ from
# level to level?

# %% [markdown] lang="ru"
# От уровня `effort` зависит, сколько вы заплатите за рассуждение. Ячейка ниже выполняет тот же первый шаг ревью
# на трёх уровнях.
#
# **Сначала предположите, потом запустите:** на каком уровне в счёт попадёт больше всего выходных токенов? Будут ли
# блоки ответа разными на разных уровнях?

# %% lang="en"
for effort in ("low", "high", "max"):
    step = client.messages.create(model=MODEL, max_tokens=16000, output_config={"effort": effort},
                                  system=REVIEW_RULES, tools=TOOLS, messages=[thinking_view.messages[0]])
    print(f"{effort:>4}: {step.usage.output_tokens} output tokens, blocks {[block.type for block in step.content]}")

# %% lang="ru"
for effort in ("low", "high", "max"):
    step = client.messages.create(model=MODEL, max_tokens=16000, output_config={"effort": effort},
                                  system=REVIEW_RULES, tools=TOOLS, messages=[thinking_view.messages[0]])
    print(f"{effort:>4}: выходных токенов: {step.usage.output_tokens}, блоки: {[block.type for block in step.content]}")

# %% [markdown] lang="en"
# <!-- fact: budget-tokens-refused -->
# More effort, more thinking, more output tokens billed: `max` cost the most. Here the blocks are the same at every
# level. Effort changed how much the model thought, not what the response held.
#
# Break it: older material (and older models) turned thinking on with a token budget,
# `{"type": "enabled", "budget_tokens": ...}`. Every model from Opus 4.7 on refuses it, and the error says
# what to use instead:

# %% [markdown] lang="ru"
# <!-- fact: budget-tokens-refused -->
# Чем выше `effort`, тем больше рассуждения и тем больше выходных токенов в счёте: дороже всех обошёлся `max`. Блоки
# здесь на всех уровнях одни и те же. Уровень `effort` изменил то, сколько модель рассуждала, а не то, из чего
# состоит ответ.
#
# Сломаем: в старых материалах (и на старых моделях) рассуждение включали с бюджетом токенов,
# `{"type": "enabled", "budget_tokens": ...}`. Все модели, начиная с Opus 4.7, такой запрос отклоняют, а
# ошибка подсказывает замену — `thinking.type.adaptive` и `output_config.effort`:

# %%
try:
    client.messages.create(model=MODEL, max_tokens=16000, thinking={"type": "enabled", "budget_tokens": 2000},
                           messages=[thinking_view.messages[0]])
except anthropic.BadRequestError as error:
    print(error.status_code, error.body["error"]["message"])

# %% [markdown] lang="en"
# Break it: answer the tool call, but edit the thinking block on its way back. Here one word, `" (shortened)"`, is
# appended to its text: the mark a program that "tidies up" the history might leave on a block it shortened.
#
# **Predict, then run:** the edit is one word at the end. Will the API notice? If so, what will it say?

# %% [markdown] lang="ru"
# Сломаем: ответим на вызов инструмента, но по дороге изменим блок рассуждения. Здесь к его тексту дописано одно
# слово, `" (сокращено)"`, — такую пометку могла бы оставить на сокращённом блоке программа, которая «подчищает»
# историю.
#
# **Сначала предположите, потом запустите:** правка — одно слово в конце. Заметит ли её API? И если заметит, что
# ответит?

# %% lang="en"
results = [{"type": "tool_result", "tool_use_id": block.id, **run_tool_safely(block.name, block.input)}
           for block in first.content if block.type == "tool_use"]
edited = [block.model_copy(update={"thinking": block.thinking + " (shortened)"}) if block.type == "thinking"
          else block for block in first.content]
try:
    client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                           messages=[thinking_view.messages[0], {"role": "assistant", "content": edited},
                                     {"role": "user", "content": results}])
except anthropic.BadRequestError as error:
    print(error.status_code, error.body["error"]["message"])

# %% lang="ru"
results = [{"type": "tool_result", "tool_use_id": block.id, **run_tool_safely(block.name, block.input)}
           for block in first.content if block.type == "tool_use"]
edited = [block.model_copy(update={"thinking": block.thinking + " (сокращено)"}) if block.type == "thinking"
          else block for block in first.content]
try:
    client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES, tools=TOOLS,
                           messages=[thinking_view.messages[0], {"role": "assistant", "content": edited},
                                     {"role": "user", "content": results}])
except anthropic.BadRequestError as error:
    print(error.status_code, error.body["error"]["message"])

# %% [markdown] lang="en"
# <!-- fact: dropped-thinking-400 -->
# It noticed. The signature no longer matches, and the API says the block cannot be modified.
#
# Dropping the block is no way out either. The API rejects thinking blocks of the latest assistant turn that were
# edited, reordered or partly dropped, with the same 400. (The docs' thinking troubleshooting names a dropped
# `redacted_thinking` block as its most common cause.) And on the newest models each thinking block is bound to the
# whole history before it: change that history, and the block is no longer valid (the last demo of this notebook shows
# it).
#
# Fixed: the response whole, as it came. The same loop code as before works, thinking or not.

# %% [markdown] lang="ru"
# <!-- fact: dropped-thinking-400 -->
# Заметил. Подпись перестала совпадать, и API отвечает, что блок изменять нельзя.
#
# Выбросить блок — тоже не выход. Блоки рассуждения в последнем сообщении от assistant, которые изменили, переставили
# или частично выбросили, API отклоняет с той же ошибкой 400. (В документации по устранению неполадок с рассуждением
# самой частой её причиной назван выброшенный блок `redacted_thinking`.) А у новейших моделей каждый блок рассуждения
# привязан ко всей истории до него: стоит её изменить, и блок становится недействительным (это покажет последний пример
# блокнота).
#
# Исправляем: ответ целиком, в том виде, в каком он пришёл. Тот же код цикла, что и раньше, работает
# с рассуждением и без него.

# %%
thinking_view.messages.append({"role": "user", "content": results})
second = client.messages.create(model=MODEL, max_tokens=16000, thinking=THINKING, system=REVIEW_RULES,
                                tools=TOOLS, messages=list(thinking_view.messages))
thinking_view.messages.append({"role": "assistant", "content": second.content})
print(second.stop_reason, [block.type for block in second.content])

# %% [markdown] lang="en"
# **The history is append-only.** Newer models go further (docs: *Preserved thinking*). A thinking block is bound to
# everything before it: `system`, `tools` and the earlier messages.
#
# The cell below runs one turn on such a model. Then it edits the first user message, as a program might, adding
# "Be brief." to the task, and sends the history again. The thinking block itself is untouched.
#
# **Predict, then run:** will the request go through?

# %% [markdown] lang="ru"
# **Историю можно только дополнять.** Новые модели идут дальше (документация: *Preserved thinking*). Блок рассуждения
# привязан ко всему, что было до него: к `system`, `tools` и предыдущим сообщениям.
#
# Ячейка ниже проводит один ход на такой модели. Затем она правит первое сообщение от user, как могла бы сделать
# программа: дописывает к задаче «Коротко.» — и снова отправляет историю. Сам блок рассуждения не тронут.
#
# **Сначала предположите, потом запустите:** пройдёт ли запрос?

# %% lang="en"
from course_agent.config import preserved_thinking_model

NEWER = preserved_thinking_model()  # a model that checks what came before each thinking block
history = [{"role": "user", "content": "Review merge request !482."}]
turn = client.messages.create(model=NEWER, max_tokens=16000, thinking={"type": "adaptive"}, system=REVIEW_RULES,
                              tools=TOOLS, messages=history)
history += [{"role": "assistant", "content": turn.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": block.id,
                                          **run_tool_safely(block.name, block.input)}
                                         for block in turn.content if block.type == "tool_use"]}]
history[0] = {"role": "user", "content": "Review merge request !482. Be brief."}  # editing the past
try:
    client.messages.create(model=NEWER, max_tokens=16000, thinking={"type": "adaptive"}, system=REVIEW_RULES,
                           tools=TOOLS, messages=history)
except anthropic.BadRequestError as error:
    print(error.status_code, error.body["error"]["message"])

# %% lang="ru"
from course_agent.config import preserved_thinking_model

NEWER = preserved_thinking_model()  # модель, которая проверяет всё, что было до каждого блока рассуждения
history = [{"role": "user", "content": "Проверь merge request !482."}]
turn = client.messages.create(model=NEWER, max_tokens=16000, thinking={"type": "adaptive"}, system=REVIEW_RULES,
                              tools=TOOLS, messages=history)
history += [{"role": "assistant", "content": turn.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": block.id,
                                          **run_tool_safely(block.name, block.input)}
                                         for block in turn.content if block.type == "tool_use"]}]
history[0] = {"role": "user", "content": "Проверь merge request !482. Коротко."}  # правим прошлое
try:
    client.messages.create(model=NEWER, max_tokens=16000, thinking={"type": "adaptive"}, system=REVIEW_RULES,
                           tools=TOOLS, messages=history)
except anthropic.BadRequestError as error:
    print(error.status_code, error.body["error"]["message"])

# %% [markdown] lang="en"
# <!-- fact: prefix-check-by-model -->
# In the sandbox, no: its newer model answers 400, "The block is bound to a different conversation". Change anything
# before a thinking block (edit an old message, trim the history, rebuild the system prompt with today's date), and
# every thinking block after the change is invalid.
#
# Whether that is a 400 depends on the model and, for some, on the account:
#
# - Fable 5.1, Opus 5.5, Sonnet 5.5 and Haiku 5.5 enforce it for accounts created on or after 2026-08-31;
# - Mythos 5.1 and the 5.2 models enforce it for every account.
#
# The docs (*Prefix checks on thinking blocks*) say to handle both outcomes. Without the
# `thinking-binding-controls-2026-08-01` beta header, the message adds that the setting it names needs that header.
#
# So never edit, trim or reorder what you already sent. Put every update in a new message at the end.

# %% [markdown] lang="ru"
# <!-- fact: prefix-check-by-model -->
# В песочнице — нет. Её более новая модель отвечает ошибкой 400: блок привязан к другому диалогу
# («`The block is bound to a different conversation`»), и его нужно удалить или включить `drop_block`.
# Измените что-то из того, что было до блока рассуждения (отредактируйте старое сообщение, обрежьте историю,
# пересоберите системный промпт с сегодняшней датой), — и все блоки рассуждения после изменения станут
# недействительными.
#
# Ответит ли API ошибкой 400, зависит от модели, а у некоторых — и от аккаунта:
#
# - Fable 5.1, Opus 5.5, Sonnet 5.5 и Haiku 5.5 проверяют префикс у аккаунтов, созданных 31 августа 2026 года
#   или позже;
# - Mythos 5.1 и модели 5.2 — у всех аккаунтов.
#
# Документация (раздел `Prefix checks on thinking blocks`) советует обрабатывать оба исхода. Без бета-заголовка
# `thinking-binding-controls-2026-08-01` текст ошибки ещё и напоминает, что настройка, которую он предлагает, требует
# этого заголовка.
#
# Поэтому никогда не редактируйте, не обрезайте и не переставляйте то, что уже отправили. Любое обновление — новым
# сообщением в конце.

# %% [markdown] lang="en"
# ## Check yourself
#
# **Choose one** (each answer says why the other two are wrong):
#
# 1. Your loop "tidies" each response before it goes into the history: it trims the thinking text to save tokens.
#    What happens on the next request?
#    - (a) it costs less: fewer input tokens
#    - (b) a 400: the thinking block of the latest assistant turn cannot be modified
#    - (c) nothing visible; the model just thinks less
#
# <details><summary>Answer</summary>
#
# (b). The API checks each thinking block against its `signature`, so an edited one is refused before anything is
# generated (and thinking blocks are not where the input cost is: those are the results your tools return).
# </details>
#
# 2. On a model with preserved thinking, you want to tell the agent something new halfway through a review. Where does
#    it go?
#    - (a) into the first user message, edited
#    - (b) into the system prompt, rebuilt for this request
#    - (c) a new message at the end of the history
#
# <details><summary>Answer</summary>
#
# (c). Every thinking block is bound to everything before it: editing the first message or the system prompt
# changes that. Where the check is enforced the API answers 400 ("bound to a different conversation"), unless you asked
# it to drop such blocks (`drop_block`); where it is not, the blocks are kept and only reported. The history is
# append-only.
# </details>

# %% [markdown] lang="ru"
# ## Проверьте себя
#
# **Выберите один ответ** (в разборе под «Ответ» сказано, почему два других варианта неверны):
#
# 1. Ваш цикл «прибирает» каждый ответ перед тем, как положить его в историю: сокращает текст рассуждения, чтобы
#    сэкономить токены. Что будет при следующем запросе?
#    - (а) он обойдётся дешевле: входных токенов меньше
#    - (б) ошибка 400: блок рассуждения в последнем сообщении от assistant изменять нельзя
#    - (в) ничего заметного, модель просто меньше рассуждает
#
# <details><summary>Ответ</summary>
#
# (б). API сверяет каждый блок рассуждения с его подписью (`signature`), поэтому изменённый блок отклоняется ещё
# до того, как модель начнёт отвечать (да и входные токены уходят не на рассуждение, а на результаты ваших
# инструментов).
# </details>
#
# 2. Вы работаете с моделью, которая сохраняет рассуждение (preserved thinking), и посреди ревью хотите сообщить агенту
#    что-то новое. Куда это поместить?
#    - (а) в первое сообщение от user, отредактировав его
#    - (б) в системный промпт, пересобрав его для этого запроса
#    - (в) в новое сообщение в конце истории
#
# <details><summary>Ответ</summary>
#
# (в). Каждый блок рассуждения привязан ко всему, что было до него: правка первого сообщения или системного промпта
# это меняет. Там, где проверка действует, API отвечает ошибкой 400 («`bound to a different conversation`»), если вы не
# попросили выбрасывать такие блоки (`drop_block`); там, где проверка не действует, блоки сохраняются, а API лишь
# сообщает о несовпадении. Историю можно только дополнять.
# </details>

# %% [markdown] lang="en"
# ## Recap
#
# - Thinking is on by default and adaptive; `effort` sets how much (and what you pay), `display` whether you can read
#   it.
# - A token budget (`"enabled"`, `budget_tokens`) is refused by the models from Opus 4.7 on (an older one, such as
#   Haiku 4.5, still needs it).
# - Thinking blocks go back whole and unchanged: an edited, reordered or partly dropped block is a 400.
# - On models with preserved thinking the history is append-only: every update is a new message at the end.

# %% [markdown] lang="ru"
# ## Итоги
#
# - Рассуждение включено по умолчанию и адаптивно; `effort` задаёт, сколько рассуждать (и сколько платить), `display` —
#   можно ли его прочитать.
# - Модели, начиная с Opus 4.7, отклоняют бюджет токенов (`"enabled"`, `budget_tokens`); старой модели, например
#   Haiku 4.5, он по-прежнему нужен.
# - Блоки рассуждения возвращаются целиком и без изменений: изменённый, переставленный или частично выброшенный блок —
#   ошибка 400.
# - У моделей, которые сохраняют рассуждение, историю можно только дополнять: любое обновление — новым сообщением в
#   конце.
