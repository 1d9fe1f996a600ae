"""Ревьюер в том виде, к которому пришёл блокнот 8: ячейка «Возьмите с собой» из
notebooks/ru/08_full_reviewer.ipynb.

Этот файл создаёт notebooks/build.py из notebooks/source/take_home.ru.py.in: правьте шаблон, а не этот файл.
Офлайн: запустите `course-agent sandbox` в другом терминале и выполните в этом терминале строки `export`,
которые он напечатает; для настоящих сервисов задайте вместо них ANTHROPIC_API_KEY, GITLAB_URL, GITLAB_TOKEN
и GITLAB_PROJECT. Затем: python examples/ru/review_after_08.py
"""

# Весь ревьюер в том виде, к которому пришёл блокнот 8; из зависимостей нужны только anthropic и python-gitlab:
# вставьте его в свой блокнот или файл .py. Он читает из окружения ANTHROPIC_API_KEY (и ANTHROPIC_BASE_URL, если
# задан), GITLAB_URL, GITLAB_TOKEN и GITLAB_PROJECT: свои — для настоящих сервисов или те, что печатает команда
# песочницы `course-agent sandbox`.
import os
from concurrent.futures import ThreadPoolExecutor

import anthropic
import gitlab

# модель курса, если COURSE_AGENT_MODEL не называет другую
MODEL = os.environ.get("COURSE_AGENT_MODEL", "claude-opus-5")
LIMIT = 20_000  # наибольшая длина результата инструмента, который получает модель, в символах

client = anthropic.Anthropic()  # ключ (и адрес, если задан) — из окружения
project = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"]).projects.get(
    os.environ["GITLAB_PROJECT"])


def get_diff(pr: int) -> str:
    """Изменения merge request !pr: заголовок, исходная ветка, описание и diff каждого файла."""
    mr = project.mergerequests.get(pr)
    parts = [f"Title: {mr.title}", f"source_branch: {mr.source_branch}", f"Description: {mr.description}", ""]
    for change in mr.changes()["changes"]:
        parts.append(f"diff --git a/{change['old_path']} b/{change['new_path']}")
        parts.append(change["diff"] or "(diff слишком большой, не показан: прочитай файл)")
    return "\n".join(parts)


def read_file(path: str, ref: str = "main", start: int = 0) -> str:
    """Файл репозитория из ветки или коммита, начиная с символа `start`."""
    return project.files.raw(path, ref=ref).decode("utf-8")[start:]


def merge_pr(pr: int) -> str:
    """Влить merge request !pr в main: никогда без «да» человека."""
    project.mergerequests.get(pr).merge()
    return f"merged !{pr}"


TOOLS = [
    {"name": "get_diff", "description": "Get the changes of a merge request: title, source branch and the diff of "
                                        "every file.",
     "input_schema": {"type": "object", "required": ["pr"], "properties": {
         "pr": {"type": "integer", "description": "The merge request number, e.g. 482."}}}},
    {"name": "read_file", "description": "Read a file from the repository at a branch (default main), from "
                                         "character `start` on (default 0, the beginning): the code around a "
                                         "change, or the callers of a function the change alters.",
     "input_schema": {"type": "object", "required": ["path"], "properties": {
         "path": {"type": "string", "description": "The file's path from the repository root."},
         "ref": {"type": "string", "description": "The branch or commit; the diff's source_branch has the change."},
         "start": {"type": "integer", "description": "The character to read from: the start a cut result names."}}}},
    {"name": "merge_pr", "description": "Merge a merge request into main.",
     "input_schema": {"type": "object", "required": ["pr"], "properties": {
         "pr": {"type": "integer", "description": "The number of the merge request to merge, e.g. 482."}}}},
]
FUNCTIONS = {"get_diff": get_diff, "read_file": read_file, "merge_pr": merge_pr}
DANGEROUS = ["merge_pr"]  # инструменты, которые выполняются только после «да» человека

REVIEW_RULES = """Ты проверяешь merge request в GitLab. Начни с get_diff. Если изменение затрагивает функцию,
которая используется в других местах, прочитай эти файлы через read_file. Ссылайся на path:line.
Закончи строкой "Вердикт: можно вливать." или "Вердикт: нужны исправления."
"""


def ask_human(name: str, tool_input: dict) -> bool:
    """Спросить человека в терминале; всё, кроме «да», — это «нет», как и отсутствие терминала."""
    try:
        return input(f"{name} {tool_input}: подтвердить? [да/нет] ").strip().lower() == "да"
    except Exception:
        return False


def run_tool(name: str, tool_input: dict) -> str:
    """Диспетчер: имя инструмента выбирает функцию."""
    text = FUNCTIONS[name](**tool_input)
    if len(text) <= LIMIT:
        return text
    if name == "read_file":  # только этот инструмент умеет читать дальше
        start = tool_input.get("start", 0)
        return (f"{text[:LIMIT]}\n\n[обрезано: отправлены символы {start}–{start + LIMIT} из "
                f"{start + len(text)}. Чтобы прочитать остальное, вызови read_file с start={start + LIMIT}.]")
    return f"{text[:LIMIT]}\n\n[обрезано: отправлены символы 0–{LIMIT} из {len(text)}; файлы читай через read_file.]"


def tool_result(call) -> dict:
    """Результат одного блока tool_use; упавший инструмент даёт результат с ошибкой, а не исключение."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} завершился ошибкой: {type(error).__name__}: {error}"}


def approved(approve, name: str, tool_input: dict) -> bool:
    """Подтверждение — только явное True; если спросить не удалось, это «нет»."""
    try:
        return approve(name, tool_input) is True
    except Exception:
        return False


def denied(call) -> dict:
    """Результат опасного вызова без подтверждения: ошибка, которую прочтёт модель; ничего не выполнено."""
    return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
            "content": f"Человек отклонил этот вызов: {call.name} не выполнен. "
                       "Не пытайся добиться того же другим путём — просто сообщи об этом."}


def run_all(calls: list, approve) -> list[dict]:
    """Сначала шлюз, по одному вопросу (человек отвечает на вопросы по очереди); затем разрешённые вызовы
    хода — одновременно, как в блокноте 4, результаты в порядке вызовов."""
    results = {}  # результат каждого вызова по его tool_use_id
    allowed = []
    for call in calls:
        if call.name in DANGEROUS and not approved(approve, call.name, call.input):
            results[call.id] = denied(call)  # не выполняется: модель прочитает почему
        else:
            allowed.append(call)
    with ThreadPoolExecutor(max_workers=8) as pool:
        for result in pool.map(tool_result, allowed):
            results[result["tool_use_id"]] = result
    return [results[call.id] for call in calls]  # в порядке вызовов


def billed(usage: list) -> float:
    """Входные токены по тарифу MODEL: запись в кэш стоит 1,25 цены входного токена, чтение из кэша — 0,1."""
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def review(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:
    """Цикл: каждый запрос кэшируется, а в конце печатается, сколько стоил весь запуск."""
    messages = [{"role": "user", "content": f"Проверь merge request !{pr_number}."}]
    usage = []
    try:
        for _ in range(max_iterations):
            response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                              messages=messages, cache_control={"type": "ephemeral"})
            usage.append(response.usage)
            match response.stop_reason:
                case "end_turn" | "stop_sequence":
                    messages.append({"role": "assistant", "content": response.content})  # ответ тоже сохраняем
                    return "\n".join(block.text for block in response.content if block.type == "text")
                case "pause_turn":  # тот же ход продолжается: без нового сообщения от user
                    messages.append({"role": "assistant", "content": response.content})
                case "refusal":  # тот же запрос той же модели не повторяют: остановиться и сказать почему
                    raise RuntimeError(f"Модель отказалась отвечать: {response.stop_details}")
                case "max_tokens":  # обрезанный вызов инструмента не выполняется
                    raise RuntimeError("Ответ обрезан (max_tokens): вызов инструмента, если был, не выполнен")
                case "model_context_window_exceeded":  # и здесь тоже
                    raise RuntimeError("Контекстное окно заполнено: начните заново с более короткой историей")
                case "tool_use":
                    messages.append({"role": "assistant", "content": response.content})  # ответ целиком
                    calls = [block for block in response.content if block.type == "tool_use"]
                    # сначала шлюз, затем разрешённые вызовы — одновременно
                    messages.append({"role": "user", "content": run_all(calls, approve)})
                case other:
                    raise RuntimeError(f"Неожиданная остановка: {other}")
        raise RuntimeError(f"Ответа нет: достигнуто ограничение итераций (max_iterations={max_iterations})")
    finally:  # чем бы ни закончился запуск
        print(f"оплачиваемый вход, токенов: {billed(usage):.0f}; вызовов модели: {len(usage)}")


if __name__ == "__main__":  # верно при запуске как скрипта (python review.py) и в ячейке блокнота, но не при импорте
    print(review(482))
