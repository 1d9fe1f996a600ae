"""Graders of the notebooks' exercises: one function per exercise, each returning a Report.

    from course_agent.checks.exercises import check_exercise_1
    check_exercise_1(counting)              # the Message of your call

Each grader judges what the learner produced (a Message, a history, a function, a policy, a
table), one Finding per requirement of the exercise. Where behaviour has to be seen, the
grader runs the learner's function against a fresh Sandbox (never the learner's own GitLab
or the live API). An untouched placeholder (None, an empty list) gives a report whose note
starts with "Not done yet" and in which nothing is passed: a requirement is passed only when
it was observed and right.
"""

import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ..i18n import language as _language, ntr, tr
from .report import BROKEN, NOT_CHECKED, PASSED, Finding, Report

TOOL_TIMEOUT = 10.0
"""Seconds a learner's tool dispatcher may take for one call before the grader gives up on it."""
APPROVER_TIMEOUT = 5.0
"""An approver is a rule here: one that waits for a click (or input()) is given up on after this."""
MAX_ITERATIONS = 10
REVIEWED = 482
DEMO_MRS = tuple(range(482, 488))

_NOT_FOUND = re.compile(r"FileNotFound|not found|no such file|does not exist|doesn't exist|missing|"
                        r"не найден|не существует|нет такого файла|отсутствует", re.I)
_FAILURE_MENTIONED = re.compile(r"FileNotFound|could not read|couldn't read|cannot read|can't read|unable to read|"
                                r"not found|does not exist|failed|не удалось прочитать|не удалось|не найден|"
                                r"не существует|ошибк", re.I)
_VERDICT_LINE = re.compile(r"(?:verdict|вердикт)\s*:?\s*(.+)", re.I)
_CHANGES = re.compile(r"request(?:ed)?[ _-]changes|changes[ _-]requested|нужны исправления|"
                      r"требуются исправления|исправлени|доработ", re.I)
_APPROVE = re.compile(r"approve|одобр|можно вливать|lgtm", re.I)
_FAILED = re.compile(r"error|fail|refus|denied|exception|ошибк|сбой|отказ|отклон|запрещ|исключени", re.I)


# ---------------------------------------------------------------- reading learner objects


def _get(obj: Any, name: str, default: Any = None) -> Any:
    """A field of a dict or an attribute of an object (SDK types, dataclasses)."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _block(block: Any) -> dict:
    """A content block as a plain dict, whether it is an SDK object, a dict or a bare string."""
    if isinstance(block, str):
        return {"type": "text", "text": block}
    if isinstance(block, Mapping):
        return dict(block)
    if hasattr(block, "model_dump"):
        try:
            return block.model_dump()
        except Exception:  # pragma: no cover - an odd object; fall back to its attributes
            pass
    return {key: getattr(block, key) for key in ("type", "text", "id", "name", "input", "tool_use_id",
                                                 "content", "is_error") if hasattr(block, key)}


def _blocks(content: Any) -> list[dict]:
    if content is None:
        return []
    if isinstance(content, (str, Mapping)) or not isinstance(content, (list, tuple)):
        return [_block(content)]
    return [_block(block) for block in content]


def _text(content: Any) -> str:
    """The text of a message's content, or of a tool_result's content (a string or text blocks)."""
    if isinstance(content, bytes):
        return content.decode("utf-8", errors="replace")
    if isinstance(content, str):
        return content
    parts = []
    for block in _blocks(content):
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
    return "\n".join(parts)


def _message(message: Any) -> tuple[str, list[dict]]:
    """(role, blocks) of a message: a dict, an SDK MessageParam, or an SDK Message."""
    return str(_get(message, "role", "") or ""), _blocks(_get(message, "content"))


def _of_type(blocks: list[dict], kind: str) -> list[dict]:
    return [b for b in blocks if b.get("type") == kind]


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kind(value: Any) -> str:
    return type(value).__name__


def _call(function: Callable, *args: Any, timeout: float = TOOL_TIMEOUT) -> tuple[Any, BaseException | None, bool]:
    """Call a learner's function: (value, exception, timed_out), never raising, never hanging the grader."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # the learner's code may raise anything, even SystemExit
            outcome["error"] = error

    worker = threading.Thread(target=run, name="course-agent-exercise", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return None, None, True
    return outcome.get("value"), outcome.get("error"), False


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


# ---------------------------------------------------------------- building a report


class _Grade:
    """The findings of one exercise as they are made, then the Report."""

    def __init__(self, number: int, language: str | None) -> None:
        self.lang = _language(language)
        self.number = number
        self.findings: list[Finding] = []
        self.hints: list[str] = []

    def check(self, rule: str, title: str, ok: bool, detail: str, hint: str = "", where: str = "") -> bool:
        self.findings.append(Finding(rule, PASSED if ok else BROKEN, detail, title, where=where))
        if not ok and hint:
            self.hints.append(hint)
        return ok

    def skip(self, rule: str, title: str, detail: str, where: str = "") -> None:
        self.findings.append(Finding(rule, NOT_CHECKED, detail, title, where=where))

    def title(self) -> str:
        return tr("Exercise {number}", self.lang, number=self.number)

    def not_done(self, requirements: list[tuple[str, str]], what: str, hints: list[str]) -> Report:
        nothing = tr("nothing to check yet.", self.lang)
        findings = [Finding(rule, NOT_CHECKED, nothing, title) for rule, title in requirements]
        return Report(self.title(), findings, self.lang, tr("Not done yet: {what}", self.lang, what=what), hints)

    def report(self, done: str) -> Report:
        broken = [f for f in self.findings if f.status == BROKEN]
        unchecked = [f for f in self.findings if f.status == NOT_CHECKED]
        if broken:
            note = ntr("{n} requirement is not met yet; what the check saw is under each one, and the hints "
                       "below say where to look.",
                       "{n} requirements are not met yet; what the check saw is under each one, and the hints "
                       "below say where to look.", len(broken), self.lang)
        elif unchecked:
            note = ntr("Nothing is wrong so far, but {n} requirement could not be checked: see why below.",
                       "Nothing is wrong so far, but {n} requirements could not be checked: see why below.",
                       len(unchecked), self.lang)
        else:
            note = tr("Done: every requirement was checked and met.", self.lang) + " " + done
        return Report(self.title(), self.findings, self.lang, note, self.hints)


def _is_placeholder(value: Any) -> bool:
    return value is None or value is Ellipsis or (isinstance(value, (list, tuple, dict, str)) and not value)


# ---------------------------------------------------------------- exercise 1 (notebook 1)


def check_exercise_1(counting: Any, language: str | None = None) -> Report:
    """Notebook 1: `counting` is the Message of a call that counts from 1 to 10 and stops right before 5."""
    g = _Grade(1, language)
    lang = g.lang
    t_reason = tr("stop_reason is \"stop_sequence\"", lang)
    t_sequence = tr("stop_sequence is \"5\"", lang)
    t_text = tr("The text holds 1 to 4, and no 5", lang)
    if _is_placeholder(counting):
        return g.not_done(
            [("stop_reason", t_reason), ("stop_sequence", t_sequence), ("text", t_text)],
            tr("`counting` is still empty. Put the Message that client.messages.create returns into it and "
               "run this cell again.", lang),
            [tr("Ask the model to count from 1 to 10 and pass stop_sequences=[\"5\"] to messages.create.", lang)])
    if isinstance(counting, (list, tuple)) and counting and _get(counting[0], "role") is None:
        content = counting  # the response's content instead of the response
        stop_reason = stop_sequence = None
    else:
        content = _get(counting, "content")
        stop_reason, stop_sequence = _get(counting, "stop_reason"), _get(counting, "stop_sequence")
    if content is None and stop_reason is None:
        detail = tr("expected the Message that client.messages.create returns, got {kind}.", lang,
                    kind=_kind(counting))
        hint = tr("Keep the whole response: counting = client.messages.create(...), not a part of it.", lang)
        for rule, title in (("stop_reason", t_reason), ("stop_sequence", t_sequence), ("text", t_text)):
            g.check(rule, title, False, detail, hint if rule == "stop_reason" else "")
        return g.report("")

    g.check("stop_reason", t_reason, stop_reason == "stop_sequence",
            tr("stop_reason is {value}.", lang, value=_short(stop_reason)),
            tr("Pass stop_sequences=[\"5\"] to messages.create: the model stops as soon as it would write one of "
               "them, and stop_reason says \"stop_sequence\". \"end_turn\" means it was never met.", lang))
    g.check("stop_sequence", t_sequence, stop_sequence == "5",
            tr("stop_sequence is {value}.", lang, value=_short(stop_sequence)),
            tr("stop_sequence names which of your stop sequences was met. To stop right before 5, the stop "
               "sequence is exactly \"5\".", lang))
    text = _text(content)
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    holds = all(n in numbers for n in (1, 2, 3, 4)) and 5 not in numbers
    g.check("text", t_text, holds, tr("the text is {value}.", lang, value=_short(text)),
            tr("Ask the model to count from 1 to 10, e.g. \"Count from 1 to 10.\": the text should end just "
               "before 5, and the stop sequence itself is never part of the text.", lang))
    return g.report(tr("The stop sequence \"5\" is not in the text: the model stopped before writing it.", lang))


# ---------------------------------------------------------------- exercise 2 (notebook 2)


def _tool_definitions(tools: Any) -> list[dict]:
    found = []
    for tool in tools if isinstance(tools, (list, tuple)) else []:
        if not isinstance(tool, Mapping) and hasattr(tool, "to_param"):
            tool = tool.to_param()  # a course_agent.tools.Tool
        elif not isinstance(tool, Mapping) and hasattr(tool, "to_dict"):
            tool = tool.to_dict()  # the SDK's @beta_tool functions
        found.append({"name": _get(tool, "name"), "input_schema": _get(tool, "input_schema")})
    return found


def _pairing_problem(history: list[tuple[str, list[dict]]], lang: str) -> str:
    """The first broken tool_use / tool_result pairing of a history, or '' when every pair is right."""
    for index, (role, blocks) in enumerate(history):
        number = index + 1
        if role == "assistant":
            asked = [b.get("id") for b in _of_type(blocks, "tool_use")]
            if not asked or index + 1 == len(history):
                continue
            next_role, next_blocks = history[index + 1]
            answered = [b.get("tool_use_id") for b in _of_type(next_blocks, "tool_result")]
            missing = [i for i in asked if i not in answered]
            if next_role != "user" or missing:
                return tr("message {number} asks for {ids}, but message {next} does not answer {missing} with a "
                          "tool_result.", lang, number=number, ids=", ".join(map(str, asked)), next=number + 1,
                          missing=", ".join(map(str, missing or asked)))
        results = _of_type(blocks, "tool_result")
        if results:
            before = history[index - 1] if index else ("", [])
            asked = {b.get("id") for b in _of_type(before[1], "tool_use")} if before[0] == "assistant" else set()
            stray = [b.get("tool_use_id") for b in results if b.get("tool_use_id") not in asked]
            if role != "user" or stray:
                return tr("message {number} holds a tool_result for {ids}, but message {previous} is not the "
                          "assistant message with that tool_use (results split over several messages, or out of "
                          "order).", lang, number=number, ids=", ".join(map(str, stray or [""])),
                          previous=index or 1)
    return ""


def check_exercise_2(tools: Any, messages: Any, language: str | None = None) -> Report:
    """Notebook 2: `TOOLS` with a read_file tool, and the history of the review of #482 run step by step."""
    g = _Grade(2, language)
    lang = g.lang
    t_tool = tr("TOOLS describes read_file, with a path in its input_schema", lang)
    t_start = tr("The history starts with the review request for #482", lang)
    t_pairs = tr("Every tool_use is answered in the next message by a tool_result with its id", lang)
    t_read = tr("The model read a file with read_file", lang)
    t_end = tr("The history ends with the model's final answer (no tool_use)", lang)
    requirements = [("read_file_tool", t_tool), ("starts_with_task", t_start), ("pairs", t_pairs),
                    ("read_file_called", t_read), ("finished", t_end)]
    started = isinstance(messages, (list, tuple)) and any(_message(m)[0] == "assistant" for m in messages)
    if _is_placeholder(messages) or (isinstance(messages, (list, tuple)) and not started):
        return g.not_done(
            requirements,
            tr("`exercise_messages` holds no answer of the model. Add read_file to TOOLS, then append every message "
               "of your step-by-step run to it, the model's last answer included, and run this cell again.", lang),
            [tr("Start from exercise_messages = [{\"role\": \"user\", \"content\": \"Review pull request #482.\"}] "
                "and repeat steps 1 to 4 of this notebook on it until stop_reason is end_turn.", lang)])

    definitions = _tool_definitions(tools)
    names = [str(d["name"]) for d in definitions]
    read_tool = next((d for d in definitions if d["name"] == "read_file"), None)
    if read_tool is None:
        g.check("read_file_tool", t_tool, False,
                tr("the tools are {names}; none is called read_file.", lang, names=_short(names)),
                tr("Add a dict to TOOLS with \"name\": \"read_file\", a description, and an input_schema whose "
                   "properties are path (a string) and ref (a string).", lang))
    else:
        schema = read_tool["input_schema"] if isinstance(read_tool["input_schema"], Mapping) else {}
        properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
        g.check("read_file_tool", t_tool, "path" in properties,
                tr("read_file's input properties are {properties}.", lang, properties=_short(sorted(properties))),
                tr("read_file's input_schema needs a \"path\" property (a string), so that the model can say which "
                   "file to read; add \"ref\" for the branch.", lang))

    history = [_message(m) for m in messages] if isinstance(messages, (list, tuple)) else []
    if not history:
        detail = tr("expected a list of messages, got {kind}.", lang, kind=_kind(messages))
        for rule, title in requirements[1:]:
            g.check(rule, title, False, detail)
        return g.report("")
    calls = sum(1 for role, _ in history if role == "assistant")

    first_role, first_blocks = history[0]
    first_text = _text(first_blocks)
    g.check("starts_with_task", t_start, first_role == "user" and "482" in first_text,
            tr("message 1 is from {role}: {text}", lang, role=first_role or "?", text=_short(first_text, 80)),
            tr("Start again from a new list: the first message is the user's \"Review pull request #482.\".", lang))

    problem = _pairing_problem(history, lang)
    uses = [b for role, blocks in history if role == "assistant" for b in _of_type(blocks, "tool_use")]
    g.check("pairs", t_pairs, not problem and bool(uses),
            problem or (ntr("{n} tool call, each answered right after it.", "{n} tool calls, each answered right "
                            "after it.", len(uses), lang) if uses else tr("no tool_use in the history.", lang)),
            tr("After each response with tool_use, append the response whole, then ONE user message with a "
               "tool_result for every tool_use of it (same tool_use_id).", lang), where=tr("notebook 2, step 3", lang))

    results = {b.get("tool_use_id"): b for _, blocks in history for b in _of_type(blocks, "tool_result")}
    reads = [b for b in uses if b.get("name") == "read_file"]
    read_ok = [b for b in reads if b.get("id") in results and not results[b.get("id")].get("is_error")
               and _text(results[b.get("id")].get("content")).strip()]
    paths = [str((b.get("input") or {}).get("path", "?")) for b in reads]
    if read_ok:
        detail = tr("read_file was called for {paths}.", lang, paths=", ".join(paths))
    elif reads:
        detail = tr("read_file was called for {paths}, but no call got the file back (an error or an empty "
                    "result).", lang, paths=", ".join(paths))
    else:
        detail = tr("no read_file call in the history (tools called: {names}).", lang,
                    names=", ".join(sorted({str(b.get("name")) for b in uses})) or "-")
    g.check("read_file_called", t_read, bool(read_ok), detail,
            tr("Send TOOLS with read_file to the model in every call; when it asks for read_file, run "
               "project.files.raw(path, ref=ref).decode() and send the file back as the tool_result.", lang))

    last_role, last_blocks = history[-1]
    finished = last_role == "assistant" and not _of_type(last_blocks, "tool_use") and bool(_text(last_blocks).strip())
    if finished:
        detail = tr("the last message is the model's answer: {text}", lang,
                    text=_short(_text(last_blocks).strip().splitlines()[-1], 80))
    elif last_role == "assistant":
        detail = tr("the last message still asks for a tool: the model was not finished.", lang)
    else:
        detail = tr("the last message is from {role}: the model's last response is not in the history.", lang,
                    role=last_role or "?")
    g.check("finished", t_end, finished, detail,
            tr("Keep going until stop_reason is end_turn, and append that last response to exercise_messages "
               "too.", lang))
    files = ", ".join(dict.fromkeys(paths)) or "-"
    return g.report(ntr("The model was called {n} time and read {files}.",
                        "The model was called {n} times and read {files}.", calls, lang, files=files))


# ---------------------------------------------------------------- exercise 5 (notebook 5)


def _is_project(value: Any) -> bool:
    return hasattr(value, "mergerequests") and hasattr(value, "files")


@contextmanager
def _pointed_at(function: Callable, project: Any) -> Iterator[None]:
    """For the duration, the `project` the learner's function reaches (a global of its module, a closure
    cell) is the sandbox's project: the grader never reads the learner's own GitLab."""
    restore: list[Callable[[], None]] = []
    namespace = getattr(function, "__globals__", None)
    if isinstance(namespace, dict) and "project" in namespace and (
            namespace["project"] is None or _is_project(namespace["project"])):
        old = namespace["project"]
        namespace["project"] = project
        restore.append(lambda: namespace.__setitem__("project", old))
    for cell in getattr(function, "__closure__", None) or ():
        try:
            held = cell.cell_contents
        except ValueError:
            continue
        if _is_project(held):
            cell.cell_contents = project
            restore.append(lambda cell=cell, held=held: setattr(cell, "cell_contents", held))
    try:
        yield
    finally:
        for undo in reversed(restore):
            undo()


def _as_result(value: Any) -> tuple[str, bool]:
    """(text, is_error) of what a dispatcher returned: {"content", "is_error"}, a tool_result block, or text."""
    if isinstance(value, Mapping) or (hasattr(value, "get") and not isinstance(value, (str, bytes))):
        return _text(value.get("content")), bool(value.get("is_error"))
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bool):
        return _text(value[0]), value[1]
    return _text(value) if isinstance(value, (str, bytes, list)) else ("" if value is None else str(value)), False


_TOOLS_5 = [
    {"name": "get_diff", "description": "Get the changes of a merge request: title, source branch and the diff of "
                                        "every file.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
    {"name": "read_file", "description": "Read a whole file from the repository at a branch (default main), for "
                                         "context.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
                      "required": ["path"]}},
]


def _review_with(dispatcher: Callable, client: Any, task: str) -> dict:
    """Notebook 5's review loop, with the learner's dispatcher: what happened, never an exception."""
    from ..config import model_id
    from ..review import REVIEW_RULES

    messages: list[dict] = [{"role": "user", "content": task}]
    seen: dict[str, Any] = {"calls": 0, "reads": [], "answer": None, "raised": None, "hung": None, "stop": None,
                            "refused": None}
    for _ in range(MAX_ITERATIONS):
        try:
            response = client.messages.create(model=model_id(), max_tokens=16000, system=REVIEW_RULES,
                                              tools=_TOOLS_5, messages=messages)
        except Exception as error:  # e.g. a 400 for a result the API does not accept
            seen["refused"] = error
            return seen
        seen["calls"] += 1
        seen["stop"] = response.stop_reason
        if response.stop_reason != "tool_use":
            seen["answer"] = "\n".join(b.text for b in response.content if b.type == "text")
            return seen
        messages.append({"role": "assistant", "content": response.content})
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            value, error, hung = _call(dispatcher, block.name, dict(block.input))
            if hung:
                seen["hung"] = block.name
                return seen
            if error is not None:
                seen["raised"] = (block.name, error)
                return seen
            text, is_error = _as_result(value)
            if block.name == "read_file":
                seen["reads"].append((block.input.get("path", "?"), text, is_error))
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text or "(empty)",
                            **({"is_error": True} if is_error else {})})
        messages.append({"role": "user", "content": results})
    return seen


def check_exercise_5(run_tool: Any, language: str | None = None) -> Report:
    """Notebook 5: `run_tool` is a run_tool_safely(name, tool_input) in which read_file always raises
    FileNotFoundError. It is called for each tool and drives a review of !482 in a fresh sandbox."""
    g = _Grade(5, language)
    lang = g.lang
    t_error = tr("read_file's FileNotFoundError comes back as an error result, not an exception", lang)
    t_diff = tr("get_diff still gives a normal result", lang)
    t_survives = tr("The review of !482 runs to the end", lang)
    t_mentions = tr("The final answer says that a file could not be read", lang)
    requirements = [("read_file_error", t_error), ("get_diff_works", t_diff), ("survives", t_survives),
                    ("mentions_failure", t_mentions)]
    what = tr("`run_tool_missing_file` is not written yet. Write a run_tool_safely(name, tool_input) in which "
              "read_file always raises FileNotFoundError, assign it, and run this cell again.", lang)
    start_hint = tr("Copy run_tool_safely from this notebook and make read_file raise FileNotFoundError before "
                    "anything else; the except branch turns it into {\"content\": ..., \"is_error\": True}.", lang)
    if _is_placeholder(run_tool):
        return g.not_done(requirements, what, [start_hint])
    if not callable(run_tool):
        detail = tr("expected a function run_tool(name, tool_input), got {kind}.", lang, kind=_kind(run_tool))
        for rule, title in requirements:
            g.check(rule, title, False, detail, start_hint if rule == "read_file_error" else "")
        return g.report("")

    import gitlab

    from course_sandbox import Sandbox

    with Sandbox() as sb:
        project = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project)
        with _pointed_at(run_tool, project):
            probes = {
                "exists": _call(run_tool, "read_file", {"path": "shop/checkout.py", "ref": "main"}),
                "missing": _call(run_tool, "read_file", {"path": "shop/no_such_module.py", "ref": "main"}),
                "diff": _call(run_tool, "get_diff", {"pr": REVIEWED}),
            }
            unwritten = all(
                (error is not None and isinstance(error, NotImplementedError)) or (error is None and value is None
                                                                                    and not hung)
                for value, error, hung in probes.values())
            if unwritten:
                return g.not_done(requirements, what, [start_hint])
            run = _review_with(run_tool, sb.client(), tr("Review pull request #{pr}.", lang, pr=REVIEWED))

    def describe(probe: tuple[Any, BaseException | None, bool], call: str) -> tuple[str, bool, str]:
        value, error, hung = probe
        if hung:
            return "", False, tr("{call} did not return within {seconds} s.", lang, call=call,
                                 seconds=int(TOOL_TIMEOUT))
        if error is not None:
            return "", False, tr("{call} raised {error}: the exception escaped the dispatcher.", lang, call=call,
                                 error=_short(_error_text(error), 160))
        text, is_error = _as_result(value)
        flag = tr("is_error", lang) if is_error else tr("no is_error", lang)
        return text, is_error, tr("{call} returned {flag}: {text}", lang, call=call, flag=flag,
                                  text=_short(text, 120))

    read_calls = []
    for key, path in (("exists", "shop/checkout.py"), ("missing", "shop/no_such_module.py")):
        call = f"run_tool(\"read_file\", {{\"path\": \"{path}\", \"ref\": \"main\"}})"
        text, is_error, detail = describe(probes[key], call)
        read_calls.append((is_error and bool(_NOT_FOUND.search(text)), detail))
    error_ok = all(ok for ok, _ in read_calls)
    g.check("read_file_error", t_error, error_ok, "; ".join(d.rstrip(".") for _, d in read_calls) + ".",
            tr("read_file must fail for every path, even one that exists, and the failure must come back as "
               "{\"content\": \"read_file failed: FileNotFoundError: ...\", \"is_error\": True}: catch the "
               "exception inside run_tool and name it in the content.", lang))

    text, is_error, detail = describe(probes["diff"], f"run_tool(\"get_diff\", {{\"pr\": {REVIEWED}}})")
    g.check("get_diff_works", t_diff, not is_error and "diff" in text and bool(text.strip()), detail,
            tr("Only read_file should fail: get_diff must still return the diff of the merge request, with "
               "no is_error.", lang))

    reads = run["reads"]
    if run["raised"] is not None:
        name, error = run["raised"]
        detail = tr("the run died: run_tool raised {error} for {tool}.", lang, error=_short(_error_text(error), 160),
                    tool=name)
    elif run["refused"] is not None:
        detail = tr("the API refused a request of the run: {error}", lang,
                    error=_short(_error_text(run["refused"]), 200))
    elif run["hung"] is not None:
        detail = tr("the run stopped: run_tool did not return for {tool} within {seconds} s.", lang,
                    tool=run["hung"], seconds=int(TOOL_TIMEOUT))
    elif run["answer"] is None:
        detail = ntr("no final answer after {n} model call.", "no final answer after {n} model calls.",
                     run["calls"], lang)
    else:
        detail = ntr("the model answered after {n} call; failed read_file calls on the way: {reads}.",
                     "the model answered after {n} calls; failed read_file calls on the way: {reads}.",
                     run["calls"], lang, reads=sum(1 for _, _, error in reads if error))
    survived = run["answer"] is not None and any(error for _, _, error in reads)
    if run["answer"] is not None and not survived:
        detail = tr("the model answered, but no read_file call failed on the way: read_file must fail.", lang)
    g.check("survives", t_survives, survived, detail,
            tr("Catch every exception in run_tool and return it as a result: the loop then sends it to the model "
               "and goes on.", lang))

    answer = run["answer"] or ""
    paths = [path for path, _, error in reads if error]
    mentions = bool(answer) and bool(_FAILURE_MENTIONED.search(answer) or any(p in answer for p in paths))
    if not answer:
        g.skip("mentions_failure", t_mentions, tr("there is no final answer to read.", lang))
    elif not paths:
        g.skip("mentions_failure", t_mentions,
               tr("no read_file call failed during the run, so there was no failure to mention.", lang))
    else:
        line = next((ln for ln in answer.splitlines() if _FAILURE_MENTIONED.search(ln)), answer.splitlines()[-1])
        g.check("mentions_failure", t_mentions, mentions and survived,
                tr("the answer says: {line}", lang, line=_short(line.strip(), 160)),
                tr("Put the error's type and message in the result's content (\"read_file failed: "
                   "FileNotFoundError: ...\"): the model can only report what it reads.", lang))
    return g.report(tr("The model read the error, said what it could not check, and did not pretend to have "
                       "read the file.", lang))


# ---------------------------------------------------------------- exercise 7 (notebook 7)


def _decision(policy: Any, tool: Any) -> tuple[str | None, str]:
    """('allow' | 'ask' | 'deny' | None, what was seen) of a policy for one tool."""
    try:
        value = policy.decide(tool)
    except Exception as error:
        return None, _error_text(error)
    raw = getattr(value, "value", value)
    text = str(raw).strip().lower() if raw is not None else ""
    return (text if text in ("allow", "ask", "deny") else None), str(raw)


def _verdict(approver: Callable, request: Any, lang: str) -> tuple[bool | None, str, Any, bool]:
    """(approved, what was seen, the verdict, hung) of an approver for one request; approved is None when
    the approver failed, hung or did not answer with a Verdict."""
    value, error, hung = _call(approver, request, timeout=APPROVER_TIMEOUT)
    if hung:
        return None, tr("no answer within {seconds} s", lang, seconds=int(APPROVER_TIMEOUT)), None, True
    if error is not None:
        return None, tr("raised {error}", lang, error=_short(_error_text(error), 100)), None, False
    approved = getattr(value, "approved", None)
    if not isinstance(approved, bool) or not hasattr(value, "by"):
        return None, tr("returned {value}, not a Verdict", lang, value=_short(value, 60)), value, False
    return approved, tr("approved", lang) if approved else tr("refused", lang), value, False


class _AsDecisions:
    """The learner's policy for a SafetyGate: whatever its decide() returns ("ask", Decision.ASK), a Decision."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def decide(self, tool: Any) -> Any:
        from ..safety import Decision

        found, seen = _decision(self.policy, tool)
        if found is None:
            raise ValueError(f"the policy's decision for {tool.name} is {seen}")
        return Decision(found)


def _unwritten(function: Any, *probe: Any) -> bool:
    """A function left as its template (`...`, `pass`, `raise NotImplementedError`): it answers nothing."""
    if not callable(function):
        return False
    value, error, hung = _call(function, *probe, timeout=APPROVER_TIMEOUT)
    return not hung and ((error is None and value is None) or isinstance(error, NotImplementedError))


def check_exercise_7(policy: Any, approver: Any, language: str | None = None) -> Report:
    """Notebook 7: a `policy` in which post_comment asks too, and an `approver` (ApprovalRequest -> Verdict)
    that approves comments shorter than 2000 characters only. Both are also run on a review of !482 that
    posts a comment, through a SafetyGate, in a fresh sandbox."""
    from ..safety import ApprovalRequest, AuditLog, Decision, Policy, SafetyGate, Verdict
    from ..tools import Risk

    g = _Grade(7, language)
    lang = g.lang
    t_comment = tr("The policy asks before post_comment", lang)
    t_merge = tr("The policy still asks (or denies) before merge_pr", lang)
    t_reads = tr("The policy lets get_diff and read_file run without asking", lang)
    t_short = tr("The approver approves a comment shorter than 2000 characters", lang)
    t_long = tr("The approver refuses a comment of 2000 characters or more", lang)
    t_refuse_merge = tr("The approver refuses merge_pr", lang)
    t_run = tr("A review of !482 that posts its comment goes through your gate", lang)
    requirements = [("post_comment_asks", t_comment), ("merge_pr_asks", t_merge), ("reads_allowed", t_reads),
                    ("short_comment_approved", t_short), ("long_comment_refused", t_long),
                    ("merge_refused", t_refuse_merge), ("review_through_gate", t_run)]
    probe = ApprovalRequest("post_comment", {"pr": REVIEWED, "body": "Looks good."}, Risk.WRITES)
    if _is_placeholder(policy) and (_is_placeholder(approver) or _unwritten(approver, probe)):
        return g.not_done(
            requirements,
            tr("`policy` and `approver` are not written yet. Write both and run this cell again.", lang),
            [tr("policy = Policy({\"post_comment\": Decision.ASK}) keeps the other tools' defaults (merge_pr asks "
                "by its risk).", lang),
             tr("An approver is a plain function: def approver(request): ... return Verdict(approved, by=\"...\", "
                "reason=\"...\"); request.tool is the tool's name and request.input its input.", lang)])
    if isinstance(policy, Mapping):  # {"post_comment": Decision.ASK}: the overrides of a Policy
        policy = Policy({name: Decision(getattr(d, "value", d)) for name, d in policy.items()})

    from ..gitlab import GitLabTools
    from ..loop import run_agent
    from ..review import REVIEW_RULES, review_task
    from course_sandbox import Sandbox
    from ..tools import Toolbox

    with Sandbox() as sb:
        tools = {t.name: t for t in GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project).tools()}

        # The policy, tool by tool.
        policy_hint = tr("Start from Policy({\"post_comment\": Decision.ASK}): a tool not named keeps the decision "
                         "of its risk (read-only and writing tools run, dangerous ones ask).", lang)
        if policy is None or not hasattr(policy, "decide"):
            detail = tr("expected a Policy (something with decide(tool)), got {kind}.", lang, kind=_kind(policy))
            for rule, title in requirements[:3]:
                g.check(rule, title, False, detail, policy_hint if rule == "post_comment_asks" else "")
            policy_works = False
        else:
            comment, seen = _decision(policy, tools["post_comment"])
            g.check("post_comment_asks", t_comment, comment == "ask",
                    tr("decide(post_comment) gives {value}.", lang, value=seen), policy_hint)
            merge, seen = _decision(policy, tools["merge_pr"])
            g.check("merge_pr_asks", t_merge, merge in ("ask", "deny"),
                    tr("decide(merge_pr) gives {value}.", lang, value=seen),
                    tr("Asking for post_comment must not open merge_pr: keep it ASK (its default) or DENY.", lang))
            reads = {name: _decision(policy, tools[name]) for name in ("get_diff", "read_file")}
            g.check("reads_allowed", t_reads, all(d == "allow" for d, _ in reads.values()),
                    ", ".join(tr("decide({tool}) gives {value}", lang, tool=name, value=seen)
                              for name, (_, seen) in reads.items()) + ".",
                    tr("Reading is harmless: asking a human before every get_diff or read_file only teaches them to "
                       "click yes without looking.", lang))
            policy_works = comment == "ask" and merge in ("ask", "deny")

        # The approver, request by request.
        approver_hint = tr("def approver(request): return Verdict(request.tool == \"post_comment\" and "
                           "len(request.input.get(\"body\", \"\")) < 2000, by=\"comment-length rule\")", lang)
        if not callable(approver):
            detail = tr("expected a function approver(request) -> Verdict, got {kind}.", lang, kind=_kind(approver))
            for rule, title in requirements[3:6]:
                g.check(rule, title, False, detail, approver_hint if rule == "short_comment_approved" else "")
            approver_works = False
        else:
            def comment_of(length: int) -> Any:
                return ApprovalRequest("post_comment", {"pr": REVIEWED, "body": "x" * length}, Risk.WRITES)

            gave_up: list[bool] = []

            def verdict_for(request: Any) -> tuple[bool | None, str, Any, bool]:
                if gave_up:  # an approver that waits for a person is not asked five times
                    return None, tr("not asked: the approver did not answer before", lang), None, True
                found = _verdict(approver, request, lang)
                if found[3]:
                    gave_up.append(True)
                return found

            short = {n: verdict_for(comment_of(n)) for n in (100, 1999)}
            long = {n: verdict_for(comment_of(n)) for n in (2000, 2500)}
            merge_verdict = verdict_for(ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS))

            def seen(verdicts: dict) -> str:
                return ", ".join(ntr("{n} character: {seen}", "{n} characters: {seen}", n, lang, seen=s)
                                 for n, (_, s, _, _) in verdicts.items())

            g.check("short_comment_approved", t_short, all(v[0] is True for v in short.values()),
                    seen(short) + ".",
                    tr("The approver must answer with Verdict(True, by=...) for a post_comment whose "
                       "request.input[\"body\"] is shorter than 2000 characters.", lang))
            g.check("long_comment_refused", t_long, all(v[0] is False for v in long.values()),
                    seen(long) + ".",
                    tr("\"Shorter than 2000\" means len(body) < 2000: a body of exactly 2000 characters is refused "
                       "too, with Verdict(False, ...).", lang))
            g.check("merge_refused", t_refuse_merge, merge_verdict[0] is False,
                    tr("merge_pr of !485: {seen}.", lang, seen=merge_verdict[1]),
                    tr("The approver is asked for every tool the policy marks ASK, merge_pr included: approve only "
                       "what you mean to (check request.tool), refuse the rest.", lang))
            approver_works = all(v[0] is not None for v in (*short.values(), *long.values(), merge_verdict))

        # The two together, on a real review that posts its comment.
        if not (policy_works and approver_works):
            g.skip("review_through_gate", t_run,
                   tr("needs a policy that asks for post_comment and an approver that answers with a Verdict.", lang))
        else:
            audit = AuditLog()

            def asked(request: Any) -> Any:
                value, error, hung = _call(approver, request, timeout=APPROVER_TIMEOUT)
                if hung:
                    return Verdict(False, "timeout", f"no answer within {int(APPROVER_TIMEOUT)} s")
                if error is not None:
                    raise error
                return value

            toolbox = Toolbox(list(tools.values()), gate=SafetyGate(_AsDecisions(policy), asked, audit))
            task = review_task(REVIEWED, post=True, language=lang)
            try:
                result = run_agent(sb.client(), task, toolbox, system=REVIEW_RULES, max_iterations=MAX_ITERATIONS)
                failure = ""
            except Exception as error:
                result, failure = None, _error_text(error)
            entries = [e for e in audit.entries if e["tool"] == "post_comment"]
            deciders = {getattr(v[2], "by", None) for v in (*short.values(), *long.values(), merge_verdict)}
            body = str(entries[-1]["input"].get("body", "")) if entries else ""
            if failure:
                ok, detail = False, tr("the review failed: {error}", lang, error=_short(failure, 160))
            elif not entries:
                ok, detail = False, tr("the model did not call post_comment, so the gate was never asked.", lang)
            else:
                entry = entries[-1]
                right = entry["decision"] == ("approved" if len(body) < 2000 else "refused")
                ok = right and entry["by"] in deciders
                detail = tr("the audit log has post_comment ({length} characters): {decision} by {by}.", lang,
                            length=len(body), decision=entry["decision"], by=entry["by"])
            g.check("review_through_gate", t_run, ok and result is not None, detail,
                    tr("Build the toolbox as in this notebook: Toolbox(gitlab_tools.tools(), gate=SafetyGate(policy, "
                       "approver, audit)), and give every Verdict a `by` that names your approver.", lang))
    return g.report(tr("Comments now wait for your rule, merges still wait for a human, and the audit log says who "
                       "decided.", lang))


# ---------------------------------------------------------------- exercise 8 (notebook 8)

_ROW_KEYS = {
    "pr": ("pr", "mr", "number", "iid", "merge_request", "pull_request", "id"),
    "verdict": ("verdict", "result", "outcome", "decision"),
    "calls": ("calls", "model_calls", "iterations", "n_calls", "requests"),
    "billed": ("billed_input", "billed", "billed_input_tokens", "input_tokens", "billed_tokens", "tokens", "cost"),
}


def _row(row: Any) -> dict | None:
    """A row as {pr, verdict, calls, billed}: a tuple in that order, a dict, or an object with such fields."""
    if isinstance(row, (list, tuple)):
        return dict(zip(("pr", "verdict", "calls", "billed"), row)) if len(row) >= 4 else None
    fields = {}
    for field, names in _ROW_KEYS.items():
        for name in names:
            value = _get(row, name, None)
            if value is not None:
                fields[field] = value
                break
    return fields if fields else None


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        found = re.fullmatch(r"\s*[!#]?\s*(\d+)\s*", value)
        return int(found.group(1)) if found else None
    return None


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", ".").replace(" ", ""))
        except ValueError:
            return None
    return None


def _verdict_kind(value: Any) -> str | None:
    """'approve', 'request changes' or 'error' for a verdict as written (a word, a last line, a whole review)."""
    if not isinstance(value, str) or not value.strip():
        return None
    lines = [m.group(1) for m in map(_VERDICT_LINE.search, value.splitlines()) if m]
    text = lines[-1] if lines else value
    if _CHANGES.search(text):
        return "request changes"
    if _FAILED.search(text):
        return "error"
    if _APPROVE.search(text):
        return "approve"
    return None


def _kind_name(kind: str | None, lang: str) -> str:
    names = {"approve": tr("approve", lang), "request changes": tr("request changes", lang),
             "error": tr("an error", lang)}
    return names.get(kind or "", "?")


def check_exercise_8(rows: Any, language: str | None = None) -> Report:
    """Notebook 8: `rows` holds one (pr, verdict, calls, billed_input) per demo merge request (482-487).
    !482 is reviewed again by the course's reviewer in a fresh sandbox, as a spot check."""
    g = _Grade(8, language)
    lang = g.lang
    t_rows = tr("One row for each of !482 to !487", lang)
    t_verdicts = tr("Every row has a verdict (approve, request changes, or the error named)", lang)
    t_calls = tr("Every row counts at least one model call", lang)
    t_billed = tr("Every row has the billed input tokens (more than 0)", lang)
    t_spot = tr("Spot check: the same review run again in a fresh sandbox takes as many calls", lang)
    requirements = [("six_rows", t_rows), ("verdicts", t_verdicts), ("calls", t_calls), ("billed", t_billed),
                    ("spot_check", t_spot)]
    if _is_placeholder(rows):
        return g.not_done(
            requirements,
            tr("`rows` is still empty. Review !482 to !487 with review(pr, client=client, cache=True), append "
               "(pr, verdict, calls, billed input) for each, and run this cell again.", lang),
            [tr("result.iterations is the number of model calls, result.text ends with the verdict line, and "
                "billed(result.usage) from this notebook gives the billed input.", lang)])
    table = [_row(r) for r in rows] if isinstance(rows, (list, tuple)) else []
    if not any(table):
        detail = (tr("expected a list of rows, got {kind}.", lang, kind=_kind(rows)) if not table else
                  tr("expected rows of (pr, verdict, calls, billed input), as tuples or dicts; got {kind}.", lang,
                     kind=_kind(rows[0])))
        for rule, title in requirements:
            g.check(rule, title, False, detail)
        return g.report("")

    def label(index: int, row: dict | None) -> str:
        pr = _as_int((row or {}).get("pr"))
        return f"!{pr}" if pr is not None else tr("row {number}", lang, number=index + 1)

    prs = [_as_int((row or {}).get("pr")) for row in table]
    wanted = list(DEMO_MRS)
    missing = [n for n in wanted if n not in prs]
    extra = [label(i, r) for i, (r, pr) in enumerate(zip(table, prs)) if pr not in wanted or prs.count(pr) > 1]
    detail = ntr("{n} row: {prs}.", "{n} rows: {prs}.", len(table), lang,
                 prs=", ".join(label(i, r) for i, r in enumerate(table)))
    if missing:
        detail += " " + tr("Missing: {missing}.", lang, missing=", ".join(f"!{n}" for n in missing))
    if extra:
        detail += " " + tr("Not one of the six, or twice: {extra}.", lang, extra=", ".join(extra))
    g.check("six_rows", t_rows, not missing and not extra and len(table) == 6, detail,
            tr("Loop over range(482, 488) and append one row per merge request, with its number first.", lang))

    def per_row(test: Callable[[dict], bool], show: Callable[[dict], str]) -> tuple[bool, str]:
        bad = [f"{label(i, r)}: {show(r or {})}" for i, r in enumerate(table) if not test(r or {})]
        return not bad, "; ".join(bad)

    ok, bad = per_row(lambda r: _verdict_kind(r.get("verdict")) is not None, lambda r: _short(r.get("verdict"), 60))
    g.check("verdicts", t_verdicts, ok,
            tr("every verdict is readable: {verdicts}.", lang, verdicts=", ".join(
                f"{label(i, r)} {_kind_name(_verdict_kind((r or {}).get('verdict')), lang)}"
                for i, r in enumerate(table)))
            if ok else tr("no verdict recognised in {rows}.", lang, rows=bad),
            tr("Take the verdict from the review's last line (\"Verdict: approve.\" or \"Verdict: request "
               "changes.\"); when a review fails, name the error instead.", lang))
    ok, bad = per_row(lambda r: (_as_int(r.get("calls")) or 0) >= 1, lambda r: _short(r.get("calls"), 40))
    g.check("calls", t_calls, ok,
            tr("calls: {calls}.", lang, calls=", ".join(f"{label(i, r)} {(r or {}).get('calls')}"
                                                        for i, r in enumerate(table))) if ok
            else tr("not a number of calls of at least 1: {rows}.", lang, rows=bad),
            tr("result.iterations is how many times the loop called the model.", lang))
    ok, bad = per_row(lambda r: (_as_number(r.get("billed")) or 0) > 0, lambda r: _short(r.get("billed"), 40))
    g.check("billed", t_billed, ok,
            tr("billed input: {billed}.", lang, billed=", ".join(
                f"{label(i, r)} {_as_number((r or {}).get('billed')):.0f}" for i, r in enumerate(table))) if ok
            else tr("not a positive number of tokens: {rows}.", lang, rows=bad),
            tr("Sum over result.usage: input_tokens + 1.25 x cache_creation_input_tokens + 0.1 x "
               "cache_read_input_tokens (the billed() function of this notebook).", lang))

    target = next((r for r, pr in zip(table, prs) if pr == REVIEWED), None) or \
        next((r for r, pr in zip(table, prs) if pr in wanted), None)
    if target is None:
        g.skip("spot_check", t_spot, tr("no row for a demo merge request to run again.", lang))
        return g.report("")
    pr = _as_int(target.get("pr"))
    from ..gitlab import GitLabTools
    from ..review import review, reviewer_toolbox
    from ..safety import Verdict
    from course_sandbox import Sandbox

    with Sandbox() as sb:
        toolbox = reviewer_toolbox(GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project),
                                   approver=lambda request: Verdict(False, "exercise check", "a check never merges"))
        try:
            again = review(pr, client=sb.client(), toolbox=toolbox, cache=True, language=lang)
        except Exception as error:
            g.skip("spot_check", t_spot, tr("the course's reviewer failed on !{pr}: {error}", lang, pr=pr,
                                            error=_short(_error_text(error), 160)))
            return g.report("")
    calls, kind = _as_int(target.get("calls")), _verdict_kind(target.get("verdict"))
    expected_kind = _verdict_kind(again.text)
    same = calls == again.iterations and kind == expected_kind
    g.check("spot_check", t_spot, same,
            tr("!{pr}: your row has {calls} model calls and \"{verdict}\"; run again: {again} model calls and "
               "\"{expected}\".", lang, pr=pr, calls=target.get("calls"), verdict=_kind_name(kind, lang),
               again=again.iterations, expected=_kind_name(expected_kind, lang)),
            tr("Use the course's reviewer as it is, review(pr, client=client, cache=True), and take calls from "
               "result.iterations and the verdict from result.text of the same run.", lang))
    costs = [(_as_number(r.get("billed")) or 0, _as_int(r.get("pr"))) for r in table if r]
    billed, costliest = max(costs, key=lambda c: c[0])
    return g.report(tr("Six reviews, each with its verdict, calls and billed input. The most expensive is !{pr}, with "
                       "{billed} billed input tokens: compare its result.usage with the others' (what it read, and "
                       "what it wrote to the cache at 1.25x).", lang, pr=costliest, billed=f"{billed:.0f}"))

