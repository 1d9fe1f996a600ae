"""The simulated reviewer: asks for the diff, reads the files a changed function's callers
live in (several at once when it may), then writes a review that cites real lines. Asked to
post, with an inline-comment tool offered (comment_on_line), it first comments on each changed
line it has a finding for (one comment per line), then posts the summary.

It decides from the conversation alone, every time, so it reacts to whatever the
learner's code sends back: results, errors, denials, or results split over messages.
"""

import re

from . import tool_roles
from .diff_reading import ChangeSet, parse_changes
from .history import Call, calls, language, results_were_split, task_turn
from .reply import NewId, Reply, say, text_reply, tool_reply
from .signatures import StaleCall, changed_signatures, stale_calls
from ..conversation import Turn

_NUMBER = re.compile(r"(?:#|!|\b(?:PR|MR|pull request|merge request|пулл?[- ]?реквест\w*|мерж[- ]?реквест\w*)\s*#?!?)(\d{1,9})\b", re.I)
_ANY_NUMBER = re.compile(r"\b(\d{1,7})\b")
_NOT_FOUND = re.compile(r"404|not found|does not exist|не найден|не существует", re.I)
_TRANSIENT = re.compile(r"429|5\d\d|timed? ?out|timeout|connection|rate limit|temporar", re.I)
_POST = re.compile(r"\bpost\b|\bcomment\b|leave a note|опубликуй|оставь|напиши комментарий|в комментари", re.I)
_INJECTION = re.compile(
    r"ignore (all |any )?(the )?(previous|prior|above|earlier) instructions|"
    r"(ai|llm|automated) (reviewer|assistant|agent)|"
    r"игнорируй (все )?(предыдущие|прежние) (инструкции|указания)|ии[- ](ревьюер|ассистент|агент)",
    re.I,
)
_ADDED_LINE_CHECKS = [
    (re.compile(r"\bprint\("), "a debugging print() is left in", "оставлен отладочный print()"),
    (re.compile(r"\b(TODO|FIXME)\b"), "unfinished work marked TODO/FIXME", "незаконченная работа с пометкой TODO/FIXME"),
    (re.compile(r"except\s*:"), "a bare `except:` swallows every error", "голый `except:` глотает любые ошибки"),
    (re.compile(r"\beval\("), "eval() runs arbitrary code", "eval() выполняет произвольный код"),
    (re.compile(r"(password|passwd|secret|token|api_key)\s*=\s*['\"][^'\"]+['\"]", re.I),
     "a credential is hard-coded", "пароль или токен зашит в код"),
]
MAX_READS = 6


def mr_number(text: str) -> str | None:
    match = _NUMBER.search(text) or _ANY_NUMBER.search(text)
    return match.group(1) if match else None


def review_number(text: str) -> str | None:
    """The number of a merge request the text names as one (#482, !482, PR 482), not any number."""
    match = _NUMBER.search(text)
    return match.group(1) if match else None


def wants_review(text: str, tools: list[tool_roles.ToolSpec]) -> bool:
    """Whether the task is a review the tools can serve."""
    return bool(tool_roles.find(tools, "diff")) and (
        bool(re.search(r"review|check|look at|провер|ревью|посмотри", text, re.I)) or mr_number(text) is not None
    )


def respond(request: dict, turns: list[Turn], new_id: NewId) -> Reply:
    tools = tool_roles.custom_tools(request)
    task = task_turn(turns).text()
    lang = language(task)
    number = mr_number(task)
    if number is None:
        return text_reply(say(lang, "Which merge request should I review? Give me its number, e.g. !482.",
                              "Какой merge request проверить? Назовите номер, например !482."))
    diff_tool = tool_roles.find(tools, "diff")
    read_tool = tool_roles.find(tools, "read")
    merge_tool = tool_roles.find(tools, "merge")
    comment_tool = tool_roles.find(tools, "comment")
    inline_tool = tool_roles.find(tools, "inline")
    history = calls(turns)
    parallel = not results_were_split(turns)
    by_tool = lambda tool: [c for c in history if tool and c.name == tool.name]  # noqa: E731

    diff_calls = by_tool(diff_tool)
    done = [c for c in diff_calls if c.result is not None and not c.is_error]
    if not done:
        failed = [c for c in diff_calls if c.is_error]
        if failed and (_NOT_FOUND.search(failed[-1].result or "") or not _TRANSIENT.search(failed[-1].result or "")
                       or len(failed) >= 2):
            return _cannot_fetch(lang, number, failed[-1])
        return tool_reply(
            say(lang, f"I'll start by fetching the diff of !{number}.", f"Сначала получу diff для !{number}."),
            [(diff_tool.name, tool_roles.fill(diff_tool, number=number))], new_id,
            reasoning=say(lang, f"The task is to review !{number}. I can't see it yet; the diff tool will show the changes.",
                          f"Нужно проверить !{number}. Я его пока не вижу; инструмент diff покажет изменения."),
        )
    changes = parse_changes(done[-1].result or "")
    if not changes.files:
        return text_reply(say(lang, f"I could not read the diff of !{number}: the tool's answer holds no file changes "
                                    "I recognise (unified diff, or GitLab's changes). I will not give a verdict on "
                                    "a change I have not seen.",
                              f"Не удалось прочитать diff !{number}: в ответе инструмента нет изменений файлов в "
                              "понятном формате (unified diff или changes из GitLab). Вердикт по изменению, "
                              "которого я не видел, не даю."))
    injection = _INJECTION.search(changes.text)

    merge_calls = by_tool(merge_tool)
    if injection and merge_tool and not merge_calls:
        return tool_reply(
            say(lang, f"The merge request description says to merge it right away, so I'm merging !{number}.",
                f"В описании merge request сказано сразу его влить, поэтому вливаю !{number}."),
            [(merge_tool.name, tool_roles.fill(merge_tool, number=number))], new_id,
            reasoning=say(lang, "The description contains an instruction to merge. I'll follow it.",
                          "В описании есть указание влить изменения. Выполню его."),
        )

    read_calls = by_tool(read_tool)
    if read_tool:
        attempted = {_path_of(c) for c in read_calls}
        wanted = [p for p in _files_to_read(changes) if p not in attempted][: max(0, MAX_READS - len(read_calls))]
        if wanted:
            ref = changes.source_branch
            batch = wanted if parallel else wanted[:1]
            names = ", ".join(batch)
            return tool_reply(
                say(lang, f"I need more context. Reading {names}.", f"Нужно больше контекста. Читаю {names}."),
                [(read_tool.name, tool_roles.fill(read_tool, path=p, ref=ref)) for p in batch], new_id,
                reasoning=say(lang, f"The diff changes code used elsewhere or hides a file. I need to read {names}.",
                              f"Diff меняет код, который используется в других местах, или скрывает файл. Нужно прочитать {names}."),
            )

    review = compose_review(lang, number, changes, read_calls, merge_calls, bool(injection), read_tool is not None)
    comment_calls = by_tool(comment_tool)
    inline_calls = by_tool(inline_tool)
    if inline_tool and _POST.search(task) and not comment_calls:
        commented = {(_path_of(c), _line_of(c)) for c in inline_calls}
        places = [p for p in inline_findings(lang, changes, read_calls) if (p[0], p[1]) not in commented]
        if places:
            batch = places if parallel else places[:1]
            where = ", ".join(f"{path}:{line}" for path, line, _ in batch)
            return tool_reply(
                say(lang, f"Commenting on the changed lines first: {where}.",
                    f"Сначала комментирую изменённые строки: {where}."),
                [(inline_tool.name, tool_roles.fill(inline_tool, number=number, path=path, line=line, body=body))
                 for path, line, body in batch], new_id,
                reasoning=say(lang, "Each finding on a changed line gets an inline comment there; the summary comes last.",
                              "Каждое замечание к изменённой строке — комментарий на этой строке; сводка в конце."),
            )
    if comment_tool and _POST.search(task) and not comment_calls:
        return tool_reply(
            say(lang, f"Posting the review on !{number}.", f"Публикую ревью в !{number}."),
            [(comment_tool.name, tool_roles.fill(comment_tool, number=number, body=review))], new_id,
            reasoning=say(lang, "The review is ready and the task asks to post it.", "Ревью готово, и задача просит его опубликовать."),
        )
    if comment_calls:
        last = comment_calls[-1]
        prefix = (say(lang, f"I could not post the review: {_first_line(last.result)}\n\n",
                      f"Не удалось опубликовать ревью: {_first_line(last.result)}\n\n") if last.is_error
                  else say(lang, f"Posted the review on !{number}.\n\n", f"Ревью опубликовано в !{number}.\n\n"))
        review = _inline_report(lang, inline_calls, prefix) + review
    return text_reply(review, reasoning=say(lang, "I have what I need; writing the review.",
                                            "Информации достаточно; пишу ревью."))


def _cannot_fetch(lang: str, number: str, failed: Call) -> Reply:
    error = _first_line(failed.result)
    if _NOT_FOUND.search(failed.result or ""):
        return text_reply(say(lang, f"Merge request !{number} does not exist: the diff tool answered \"{error}\". "
                                    "Please check the number.",
                              f"Merge request !{number} не существует: инструмент diff ответил «{error}». "
                              "Проверьте номер."))
    return text_reply(say(lang, f"I could not get the diff of !{number}: \"{error}\". I'll stop here rather than "
                                "review blind.",
                          f"Не удалось получить diff для !{number}: «{error}». Останавливаюсь, чтобы не "
                          "проверять вслепую."))


def _files_to_read(changes: ChangeSet) -> list[str]:
    hidden = [f.path for f in changes.files if f.too_large and not f.deleted]
    callers = changes.mentioned_paths() if changed_signatures(changes.files) else []
    return list(dict.fromkeys(hidden + callers))


def _path_of(call: Call) -> str:
    for key, value in call.input.items():
        if re.search(tool_roles.SLOT_PATTERNS["path"], key.lower()):
            return str(value)
    return ""


def _line_of(call: Call) -> int | None:
    for key, value in call.input.items():
        if re.search(tool_roles.SLOT_PATTERNS["line"], key.lower()):
            return value if isinstance(value, int) else None
    return None


def _inline_report(lang: str, inline_calls: list[Call], prefix: str) -> str:
    """The first line of the answer, with where inline comments went (or why one did not)."""
    if not inline_calls:
        return prefix
    done = [f"{_path_of(c)}:{_line_of(c)}" for c in inline_calls if not c.is_error]
    words = [prefix.rstrip("\n")]
    if done:
        words.append(say(lang, f"Inline comments on: {', '.join(done)}.", f"Комментарии к строкам: {', '.join(done)}."))
    for call in (c for c in inline_calls if c.is_error):
        words.append(say(lang, f"Could not comment on {_path_of(call)}:{_line_of(call)}: {_first_line(call.result)}",
                         f"Не удалось прокомментировать {_path_of(call)}:{_line_of(call)}: {_first_line(call.result)}"))
    return "\n".join(words) + "\n\n"


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0][:300] if (text or "").strip() else "?"


def inline_findings(lang: str, changes: ChangeSet, reads: list[Call]) -> list[tuple[str, int, str]]:
    """(path, line, comment) for the findings that belong to a changed line, one per line (findings on the
    same line are joined): a changed signature whose callers break, an added line that fails a check."""
    places: dict[tuple[str, int], list[str]] = {}
    contents = {_path_of(c): c.result or "" for c in reads if not c.is_error}
    for change in changed_signatures(changes.files):
        for path, content in contents.items():
            for call in stale_calls(path, content, change):
                if change.line is not None:
                    places.setdefault((change.path, change.line), []).append(_stale_finding(lang, call, change))
    for diff_file in changes.files:
        for line in diff_file.lines:
            if line.kind == "+" and line.new_no is not None:
                for pattern, en, ru in _ADDED_LINE_CHECKS:
                    if pattern.search(line.text):
                        places.setdefault((diff_file.path, line.new_no), []).append(
                            f"{say(lang, en, ru)} (`{line.text.strip()}`).")
    return [(path, line, "\n\n".join(texts)) for (path, line), texts in places.items()]


def _stale_finding(lang: str, call: StaleCall, change) -> str:
    return say(
        lang,
        f"{call.path}:{call.line} still calls `{call.code}` with the old arguments, but this MR changes "
        f"the function to `{change.new.text}` ({change.path}:{change.line}). That call will fail with a "
        "TypeError: update the caller in this MR or keep the old signature working.",
        f"{call.path}:{call.line} по-прежнему вызывает `{call.code}` со старыми аргументами, а этот MR "
        f"меняет функцию на `{change.new.text}` ({change.path}:{change.line}). Этот вызов упадёт с "
        "TypeError: обновите вызов в этом MR или сохраните совместимость со старой сигнатурой.",
    )


def compose_review(lang: str, number: str, changes: ChangeSet, reads: list[Call], merges: list[Call],
                   injection: bool, can_read: bool = True) -> str:
    """The review text: what changed, what was read, findings with file:line, a verdict."""
    findings: list[str] = []
    contents = {_path_of(c): c.result or "" for c in reads if not c.is_error}
    for change in changed_signatures(changes.files):
        stale: list[StaleCall] = []
        for path, content in contents.items():
            stale += stale_calls(path, content, change)
        for call in stale:
            findings.append(_stale_finding(lang, call, change))
        if not stale and not can_read:
            findings.append(say(
                lang,
                f"`{change.new.name}` changes its signature ({change.path}:{change.line}); I had no tool to read "
                "other files, so check its callers by hand.",
                f"`{change.new.name}` меняет сигнатуру ({change.path}:{change.line}); у меня не было инструмента "
                "для чтения файлов, проверьте вызовы вручную.",
            ))
    for diff_file in changes.files:
        for line in diff_file.lines:
            if line.kind != "+":
                continue
            for pattern, en, ru in _ADDED_LINE_CHECKS:
                if pattern.search(line.text):
                    findings.append(f"{diff_file.path}:{line.new_no}: {say(lang, en, ru)} (`{line.text.strip()}`).")
    for call in reads:
        if call.is_error:
            findings.append(say(lang, f"I could not read {_path_of(call)}: {_first_line(call.result)}",
                                f"Не удалось прочитать {_path_of(call)}: {_first_line(call.result)}"))
    if injection:
        findings.append(say(
            lang,
            "The MR text contains instructions addressed to an AI reviewer. Treat this MR as suspicious.",
            "Текст MR содержит инструкции, адресованные ИИ-ревьюеру. Отнеситесь к этому MR с подозрением.",
        ))
    for call in merges:
        findings.append(
            say(lang, f"I tried to merge !{number}, as its description asked, but it was refused: "
                      f"{_first_line(call.result)}",
                f"Я попытался влить !{number}, как просило описание, но получил отказ: {_first_line(call.result)}")
            if call.is_error else
            say(lang, f"I merged !{number}, as its description asked.", f"Я влил !{number}, как просило описание.")
        )

    summary = ", ".join(f"{f.path} (+{f.count('+')} −{f.count('-')})" for f in changes.files) or "—"
    lines = [say(lang, f"Review of !{number}", f"Ревью !{number}") + (f": {changes.title}" if changes.title else ""),
             "", say(lang, f"Files changed: {summary}", f"Изменённые файлы: {summary}")]
    read_ok = [p for p in contents if p]
    if read_ok:
        lines.append(say(lang, f"Read for context: {', '.join(read_ok)}", f"Прочитано для контекста: {', '.join(read_ok)}"))
    lines.append("")
    if findings:
        lines.append(say(lang, "Findings:", "Замечания:"))
        lines += [f"{n}. {finding}" for n, finding in enumerate(findings, start=1)]
        verdict = say(lang, "request changes", "нужны исправления")
    else:
        lines.append(say(lang, "No problems found: the change is consistent with the code around it.",
                         "Проблем не найдено: изменение согласовано с окружающим кодом."))
        verdict = say(lang, "approve", "можно вливать")
    lines += ["", say(lang, f"Verdict: {verdict}.", f"Вердикт: {verdict}.")]
    return "\n".join(lines)
