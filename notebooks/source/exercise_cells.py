"""Exercise sections of notebooks 1, 2, 5, 7 and 8: the task, a placeholder the grader reads, the
grading cell (on the learner's own work) and the reference solution's run (a spoiler)."""

from cells import code, md


def check_md(what_en, what_ru, hint_en, hint_ru):
    return md(f"""
### Check your exercise

{what_en} While the cell above is unchanged, it says "not done yet".

<details><summary>Hint</summary>

{hint_en}
</details>
""", f"""
### Проверьте упражнение

{what_ru} Пока ячейка выше не изменена, она ответит «пока не сделано».

<details><summary>Подсказка</summary>

{hint_ru}
</details>
""")


def spoiler_md(n):
    return md(f"""
The reference solution passes the same check (a spoiler: `show_solution({n})` prints its code).
""", f"""
Эталонное решение проходит ту же проверку (спойлер: `show_solution({n})` покажет его код).
""")


EXERCISE_01 = [
    md("""
## Exercise

Ask the model to count from 1 to 10, and make it stop right before it writes `5`, using the
`stop_sequences` parameter. Keep the response in `counting`, and print `stop_reason`, `stop_sequence`
and the text. What is in the text, and what is not?
""", """
## Упражнение

Попросите модель посчитать от 1 до 10 и с помощью параметра `stop_sequences` заставьте её остановиться
прямо перед тем, как она напишет `5`. Сохраните ответ в `counting` и выведите `stop_reason`, `stop_sequence`
и текст. Что попало в текст, а что нет?
"""),
    code('''# Count from 1 to 10 and stop right before 5: client.messages.create(..., stop_sequences=...)
counting = None  # replace None with your call: the Message it returns

# then print counting.stop_reason, counting.stop_sequence and the text''',
         '''# Посчитать от 1 до 10 и остановиться прямо перед 5: client.messages.create(..., stop_sequences=...)
counting = None  # замените None своим вызовом: Message, который он возвращает

# затем выведите counting.stop_reason, counting.stop_sequence и текст'''),
    check_md("The cell below reads `counting`: its `stop_reason`, its `stop_sequence` and its text.",
             "Ячейка ниже читает `counting`: его `stop_reason`, `stop_sequence` и текст.",
             "`stop_sequences` is a list of strings. The model stops as soon as it would write one of them, and "
             "that string is not part of the text.",
             "`stop_sequences` — список строк. Модель останавливается, как только должна написать одну из них, и "
             "эта строка в текст не попадает."),
    code('''from course_agent.checks.exercises import check_exercise_1

check_exercise_1(counting)'''),
    spoiler_md(1),
    code('''from course_agent.solutions import exercise_01
from course_agent.solutions import show_solution

check_exercise_1(exercise_01.solve(client))'''),
]

EXERCISE_02 = [
    md("""
## Exercise

Add a second tool, `read_file(path, ref)`, that returns a whole file (`project.files.raw(path, ref=ref)`).
Describe it in `TOOLS`, start again from `"Review pull request #482."` in a new list, `exercise_messages`,
and repeat steps 1 to 4 by hand until `stop_reason` is `end_turn`, appending every message to
`exercise_messages` (the model's last answer too). How many times did you call the model? Which file did it
read, and why?
""", """
## Упражнение

Добавьте второй инструмент, `read_file(path, ref)`, который возвращает файл целиком (`project.files.raw(path, ref=ref)`).
Опишите его в `TOOLS`, начните заново с `"Проверь pull request #482."` в новом списке `exercise_messages`
и повторяйте шаги 1–4 вручную, пока `stop_reason` не станет `end_turn`, добавляя в `exercise_messages` каждое
сообщение (и последний ответ модели тоже). Сколько раз вы вызвали модель? Какой файл она прочитала и почему?
"""),
    code('''# 1. read_file(path, ref): the function, and its description added to TOOLS
# 2. steps 1 to 4 on exercise_messages, again and again until stop_reason is end_turn;
#    append every message to it, the model's last answer too
exercise_messages = [{"role": "user", "content": "Review pull request #482."}]

# your code here''', '''# 1. read_file(path, ref): сама функция и её описание в TOOLS
# 2. шаги 1–4 на exercise_messages, снова и снова, пока stop_reason не станет end_turn;
#    добавляйте в список каждое сообщение, и последний ответ модели тоже
exercise_messages = [{"role": "user", "content": "Проверь pull request #482."}]

# ваш код'''),
    check_md("The cell below reads `TOOLS` and `exercise_messages`: the read_file tool, the pairs of "
             "`tool_use` and `tool_result`, and the model's last answer.",
             "Ячейка ниже читает `TOOLS` и `exercise_messages`: инструмент read_file, пары `tool_use` и "
             "`tool_result` и последний ответ модели.",
             "Each round is step 1 (`messages.create` with `tools=TOOLS`), step 3 (append the response whole, then "
             "one user message with a `tool_result` for every `tool_use`, running `read_file` or `get_diff` by "
             "`block.name`), and again, until `stop_reason` is `end_turn`.",
             "Каждый круг — это шаг 1 (`messages.create` с `tools=TOOLS`), шаг 3 (добавить ответ целиком, затем "
             "одно сообщение user с `tool_result` на каждый `tool_use`, запуская `read_file` или `get_diff` по "
             "`block.name`) и снова, пока `stop_reason` не станет `end_turn`."),
    code('''from course_agent.checks.exercises import check_exercise_2

check_exercise_2(TOOLS, exercise_messages)'''),
    spoiler_md(2),
    code('''from course_agent.solutions import exercise_02
from course_agent.solutions import show_solution

solution_tools, solution_messages = exercise_02.solve(client, project)
check_exercise_2(solution_tools, solution_messages)'''),
]

EXERCISE_05 = [
    md("""
## Exercise

`read_file` fails for a file that does not exist. Write `run_tool_missing_file`: a `run_tool_safely` in
which `read_file` always raises `FileNotFoundError`, and review !482 with it
(`review(482, run_tool_missing_file)`). What does the model write, and what does it not do?
""", """
## Упражнение

`read_file` завершается ошибкой, если файла не существует. Напишите `run_tool_missing_file` — такую
`run_tool_safely`, в которой `read_file` всегда выбрасывает `FileNotFoundError`, и проведите с ней ревью !482
(`review(482, run_tool_missing_file)`). Что напишет модель и чего она делать не станет?
"""),
    code('''def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, except that read_file always raises FileNotFoundError."""
    ...  # your code here


# print(review(482, run_tool_missing_file))''', '''def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, только read_file всегда выбрасывает FileNotFoundError."""
    ...  # ваш код


# print(review(482, run_tool_missing_file))'''),
    check_md("The cell below calls **your** `run_tool_missing_file` for `read_file` and `get_diff`, then runs "
             "this notebook's review loop with it on !482 against a fresh sandbox and reads the answer.",
             "Ячейка ниже вызывает **вашу** `run_tool_missing_file` для `read_file` и `get_diff`, затем запускает "
             "с ней цикл ревью из этого блокнота на !482 в свежей песочнице и читает ответ.",
             "Start from `run_tool_safely` above: when `name` is `\"read_file\"`, raise `FileNotFoundError` inside "
             "the `try`, so that the `except` turns it into a result with `is_error`.",
             "Начните с `run_tool_safely` выше: если `name` равно `\"read_file\"`, выбросьте `FileNotFoundError` "
             "внутри `try`, чтобы `except` превратил его в результат с `is_error`."),
    code('''from course_agent.checks.exercises import check_exercise_5

check_exercise_5(run_tool_missing_file)'''),
    spoiler_md(5),
    code('''from course_agent.solutions import exercise_05
from course_agent.solutions import show_solution

check_exercise_5(exercise_05.solve(project))'''),
]

EXERCISE_07 = [
    md("""
## Exercise

Write a `policy` in which `post_comment` asks too, and an `approver` (a plain function returning
`Verdict`) that allows comments only when their body is shorter than 2000 characters. Run the review of
!482 with "Post your review as a comment." through `SafetyGate(policy, approver, audit)` and read the audit log.
(`comment_on_line`, a comment on one line of the diff, writes too: the exercise leaves it to its risk, but you
may make it ask as well.)
""", """
## Упражнение

Напишите политику `policy`, в которой `post_comment` тоже требует подтверждения, и `approver` (обычную функцию,
возвращающую `Verdict`), который разрешает комментарии, только если их текст короче 2000 символов. Запустите
ревью !482 с заданием «Опубликуй ревью комментарием.» через `SafetyGate(policy, approver, audit)` и прочитайте
журнал аудита. (`comment_on_line`, комментарий к одной строке diff, тоже пишет: упражнение оставляет его на
усмотрение уровня риска, но можно потребовать подтверждения и для него.)
"""),
    code('''from course_agent.safety import ApprovalRequest, Decision, Policy, Verdict

policy = None  # a Policy in which post_comment asks too


def approver(request: ApprovalRequest) -> Verdict:
    """Allow post_comment only when its body is shorter than 2000 characters."""
    ...  # your code here


# then: the review of !482, "Post your review as a comment.", through SafetyGate(policy, approver, audit)''',
         '''from course_agent.safety import ApprovalRequest, Decision, Policy, Verdict

policy = None  # Policy, в которой post_comment тоже требует подтверждения


def approver(request: ApprovalRequest) -> Verdict:
    """Разрешить post_comment, только если текст короче 2000 символов."""
    ...  # ваш код


# затем: ревью !482, «Опубликуй ревью комментарием.», через SafetyGate(policy, approver, audit)'''),
    check_md("The cell below asks **your** `policy` about each tool and **your** `approver` about a short "
             "comment, a long one and a merge, then runs the review of !482 that posts its comment through your "
             "gate against a fresh sandbox and reads the audit log.",
             "Ячейка ниже спрашивает **вашу** `policy` о каждом инструменте, а **ваш** `approver` — о коротком "
             "комментарии, о длинном и о слиянии, затем проводит через ваш шлюз ревью !482 с публикацией "
             "комментария в свежей песочнице и читает журнал аудита.",
             "`Policy({\"post_comment\": Decision.ASK})` leaves every other tool to its risk. The approver gets an "
             "`ApprovalRequest`: `request.tool` is the tool's name, `request.input[\"body\"]` the comment.",
             "`Policy({\"post_comment\": Decision.ASK})` оставляет остальные инструменты на усмотрение их уровня "
             "риска. Approver получает `ApprovalRequest`: `request.tool` — имя инструмента, "
             "`request.input[\"body\"]` — текст комментария."),
    code('''from course_agent.checks.exercises import check_exercise_7

check_exercise_7(policy, approver)'''),
    spoiler_md(7),
    code('''from course_agent.solutions import exercise_07
from course_agent.solutions import show_solution

exercise_07.post_review(client)  # the review of !482, posted through the gate, and the audit log
check_exercise_7(*exercise_07.solve())''', '''from course_agent.solutions import exercise_07
from course_agent.solutions import show_solution

exercise_07.post_review(client)  # ревью !482, опубликованное через шлюз, и журнал аудита
check_exercise_7(*exercise_07.solve())'''),
]

EXERCISE_08 = [
    md("""
## Exercise

Review all six demo merge requests (482 to 487) with caching on. Put one row per merge request in `rows`,
`(pr, verdict, model calls, billed input tokens)`, and print one line per row. Which one costs most, and why?
""", """
## Упражнение

Проведите ревью всех шести демонстрационных merge request (с 482 по 487) с включённым кэшированием. Сложите
в `rows` по строке на каждый: `(pr, вердикт, число вызовов модели, входные токены по тарифу)` — и выведите
по строке на каждый. Какой из них обходится дороже всего и почему?
"""),
    code('''rows = []  # one (pr, verdict, model calls, billed input tokens) per merge request, 482 to 487

# your code here: review(pr, client=client, cache=True) for each; result.iterations, result.text, billed(result.usage)''',
         '''rows = []  # по строке (pr, вердикт, вызовы модели, входные токены по тарифу) на каждый merge request, 482–487

# ваш код: review(pr, client=client, cache=True) для каждого; result.iterations, result.text, billed(result.usage)'''),
    check_md("The cell below reads `rows`, then reviews !482 again with the course's reviewer against a fresh "
             "sandbox and compares the number of model calls and the verdict with your row.",
             "Ячейка ниже читает `rows`, затем заново проводит ревью !482 ревьюером курса в свежей песочнице и "
             "сравнивает число вызовов модели и вердикт с вашей строкой.",
             "`review` returns an `AgentResult`: `result.iterations` is the number of model calls, the last line of "
             "`result.text` is the verdict, and `billed(result.usage)` (above) the billed input.",
             "`review` возвращает `AgentResult`: `result.iterations` — число вызовов модели, последняя строка "
             "`result.text` — вердикт, а `billed(result.usage)` (выше) — входные токены по тарифу."),
    code('''from course_agent.checks.exercises import check_exercise_8

check_exercise_8(rows)'''),
    spoiler_md(8),
    code('''from course_agent.solutions import exercise_08
from course_agent.solutions import show_solution

check_exercise_8(exercise_08.solve(client))'''),
]
