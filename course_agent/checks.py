"""Self-check: run a learner's own agent loop against the sandbox and say which rules of the
lesson it breaks.

    from course_agent.checks import check_loop
    check_loop(review_pull_request)            # the loop as the notebooks write it

The loop is called as written (`loop(pr_number)`), with its `client` and `project` globals
pointed, for the duration of each scenario, at a fresh sandbox. The check watches the real
requests the loop sends and what it does with each answer; it never reads the loop's code.
Scenarios order misbehaviours from the sandbox (a refusal, a pause, a cut tool call, a model
that keeps asking) where a real model would do them only by chance. A runaway loop is stopped
after LIMIT requests; a loop that hangs is abandoned after TIMEOUT seconds.
"""

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anthropic
import gitlab

from .sandbox import Sandbox
from .transcript import as_json

LIMIT = 30
TIMEOUT = 30.0
_MISSING = object()


class RunawayLoop(Exception):
    """Raised to the loop by the check's client once a scenario has seen LIMIT requests."""


@dataclass
class Run:
    requests: list[list[dict]] = field(default_factory=list)
    responses: list[Any] = field(default_factory=list)
    returned: Any = None
    error: BaseException | None = None
    hung: bool = False
    merged: bool = False
    tools_sent: list[dict] = field(default_factory=list)


@dataclass
class Finding:
    rule: str
    status: str  # "passed", "broken" or "skipped"
    detail: str = ""


def _text(language: str, en: str, ru: str) -> str:
    return ru if language == "ru" else en


RULES = {
    "whole_response": ("The whole response goes into the history", "Ответ модели добавляется в историю целиком", 5,
                       "the next request names a tool_use_id that is not in the history, and the API refuses it",
                       "следующий запрос ссылается на tool_use_id, которого нет в истории, и API его отклоняет"),
    "one_message": ("All results of a turn go back in one user message", "Все результаты — одним сообщением от user",
                    4, "the model learns to stop calling tools in parallel: more round trips, more tokens",
                    "модель перестаёт делать параллельные вызовы: больше запросов и токенов"),
    "errors_are_results": ("A tool error is a result (is_error), not an exception",
                           "Ошибка инструмента — тоже результат (is_error), а не исключение", 5,
                           "one failing tool ends the whole run, and the model never gets to say what went wrong",
                           "один сбой инструмента обрывает весь запуск, и модель не может сказать, что случилось"),
    "cap": ("The loop has a cap on iterations", "У цикла есть ограничение на итерации", 3,
            "a model that keeps asking runs the loop until the money runs out",
            "модель, которая всё просит и просит, крутит цикл, пока не кончатся деньги"),
    "pause_turn": ("pause_turn is continued without a new user message",
                   "pause_turn продолжается без нового сообщения от user", 6,
                   "a new user message starts the paused work over; the turn never finishes",
                   "новое сообщение от user начинает работу заново; ход так и не завершается"),
    "refusal": ("A refusal is not retried", "Отказ не повторяют", 6,
                "the same request gets the same refusal: retrying only costs money",
                "тот же запрос получит тот же отказ: повтор только тратит деньги"),
    "cut_tool_call": ("A tool call cut by max_tokens is never run", "Обрезанный max_tokens вызов не выполняют", 6,
                      "its input is incomplete: running it acts on the wrong thing or crashes",
                      "его вход неполный: выполнение сделает не то или упадёт"),
    "merge_asks": ("A merge never runs without a human's yes", "Слияние не выполняется без согласия человека", 7,
                   "a prompt injection in a merge request can make the model merge it",
                   "промпт-инъекция в merge request может заставить модель его влить"),
}


def _recording_client(sandbox: Sandbox, run: Run, limit: int) -> anthropic.Anthropic:
    client = sandbox.client(max_retries=0)
    create = client.messages.create

    def recorded(*args: Any, **kwargs: Any) -> Any:
        if len(run.requests) >= limit:
            raise RunawayLoop(f"stopped by the self-check after {limit} requests")
        run.requests.append(json.loads(json.dumps(as_json(list(kwargs.get("messages", []))), default=str)))
        if not run.tools_sent:
            run.tools_sent = json.loads(json.dumps(as_json(list(kwargs.get("tools") or [])), default=str))
        response = create(*args, **kwargs)
        run.responses.append(response)
        return response

    client.messages.create = recorded
    return client


def run_scenario(loop: Callable, pr: int, misbehave: tuple[str, ...] = ()) -> Run:
    """Run the loop once on merge request !pr against a fresh sandbox and record what it did."""
    limit, timeout = LIMIT, TIMEOUT
    names = loop.__globals__
    run = Run()
    with Sandbox() as sandbox:
        sandbox.force(*misbehave)
        project = gitlab.Gitlab(sandbox.gitlab_url, private_token=sandbox.gitlab_token).projects.get(sandbox.project)
        saved = {name: names.get(name, _MISSING) for name in ("client", "project")}
        saved_env = os.environ.get("COURSE_AGENT_AUTO_APPROVE")
        names["client"], names["project"] = _recording_client(sandbox, run, limit), project
        os.environ["COURSE_AGENT_AUTO_APPROVE"] = "deny"  # an approval prompt must not wait for a click here

        def work() -> None:
            try:
                run.returned = loop(pr)
            except BaseException as error:  # whatever the loop lets out is an observation
                run.error = error

        try:
            worker = threading.Thread(target=work, daemon=True, name="course-agent-self-check")
            worker.start()
            worker.join(timeout)
            run.hung = worker.is_alive()
        finally:
            for name, value in saved.items():
                if value is _MISSING:
                    names.pop(name, None)
                else:
                    names[name] = value
            if saved_env is None:
                os.environ.pop("COURSE_AGENT_AUTO_APPROVE", None)
            else:
                os.environ["COURSE_AGENT_AUTO_APPROVE"] = saved_env
        run.merged = sandbox.gitlab.merge_requests.get(pr) is not None and \
            sandbox.gitlab.merge_requests[pr].state == "merged"
    return run


def _tool_ids(blocks: list) -> set[str]:
    return {b.get("id") for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"}


def _content(message: dict) -> list:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _died(run: Run, language: str) -> str:
    if run.hung:
        return _text(language, f"the loop did not finish within {TIMEOUT:g} s", f"цикл не завершился за {TIMEOUT:g} с")
    error = run.error
    return _text(language, "the loop died with ", "цикл упал с ") + f"{type(error).__name__}: {str(error)[:300]}"


def _blocked(rule: str, run: Run, language: str) -> Finding | None:
    """A rule that could not be observed because the loop never got past rule 1's 400."""
    if isinstance(run.error, anthropic.BadRequestError) and "unexpected `tool_use_id`" in str(run.error):
        return Finding(rule, "skipped", _text(
            language, "the loop never got that far: the API refused its history first (rule 1)",
            "цикл не дошёл до этого места: API раньше отклонил его историю (правило 1)"))
    return None


def _check_whole_response(run: Run, language: str) -> Finding:
    for n, response in enumerate(run.responses):
        if response.stop_reason != "tool_use":
            continue
        ids = {b.id for b in response.content if b.type == "tool_use"}
        if n + 1 < len(run.requests):
            kept = set().union(*[_tool_ids(_content(m)) for m in run.requests[n + 1] if m.get("role") == "assistant"])
            if not ids <= kept:
                return Finding("whole_response", "broken", _text(
                    language, f"request {n + 2} did not contain the tool_use block(s) {sorted(ids - kept)} of response "
                              f"{n + 1}", f"запрос {n + 2} не содержал блок(и) tool_use {sorted(ids - kept)} из ответа "
                                          f"{n + 1}") + (f"; API: {run.error}" if isinstance(run.error, anthropic.BadRequestError) else ""))
    if run.error is not None or run.hung:
        return Finding("whole_response", "broken", _died(run, language))
    return Finding("whole_response", "passed")


def _check_one_message(run: Run, language: str) -> Finding:
    for n, response in enumerate(run.responses):
        uses = [b.id for b in response.content if b.type == "tool_use"]
        if len(uses) < 2 or n + 1 >= len(run.requests):
            continue
        messages = run.requests[n + 1]
        after = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"
                      and _tool_ids(_content(m)) == set(uses)), None)
        if after is None:
            continue
        carrying = [m for m in messages[after + 1:] if m.get("role") == "user" and any(
            isinstance(b, dict) and b.get("tool_use_id") in uses for b in _content(m))]
        if len(carrying) > 1:
            return Finding("one_message", "broken", _text(
                language, f"the {len(uses)} results of one turn came back in {len(carrying)} user messages",
                f"{len(uses)} результата одного хода вернулись в {len(carrying)} сообщениях от user"))
        return Finding("one_message", "passed")
    return Finding("one_message", "broken", _died(run, language) if run.error or run.hung else _text(
        language, "no parallel turn was answered", "параллельный ход не получил ответа"))


def _check_errors(run: Run, language: str) -> Finding:
    if run.error is not None or run.hung:
        return Finding("errors_are_results", "broken", _died(run, language))
    results = [b for messages in run.requests for m in messages for b in _content(m)
               if isinstance(b, dict) and b.get("type") == "tool_result"]
    if results and not any(b.get("is_error") for b in results):
        return Finding("errors_are_results", "broken", _text(
            language, "the error went back without is_error: true", "ошибка ушла модели без is_error: true"))
    return Finding("errors_are_results", "passed")


def _check_cap(run: Run, language: str) -> Finding:
    if isinstance(run.error, RunawayLoop) or run.hung or len(run.requests) >= LIMIT:
        return Finding("cap", "broken", _text(
            language, f"with a model that kept asking, the loop made {len(run.requests)} requests and was stopped by "
                      "the check", f"с моделью, которая всё просила, цикл сделал {len(run.requests)} запросов, и его "
                                   "остановила проверка"))
    return Finding("cap", "passed", _text(language, f"stopped after {len(run.requests)} requests",
                                          f"остановился после {len(run.requests)} запросов"))


def _check_pause(run: Run, language: str) -> Finding:
    if len(run.requests) < 2:
        return Finding("pause_turn", "broken", _text(
            language, "the loop stopped at pause_turn instead of sending the conversation back",
            "цикл остановился на pause_turn, вместо того чтобы отправить диалог снова")
            + (f" ({type(run.error).__name__}: {run.error})" if run.error else ""))
    last = run.requests[1][-1]
    if last.get("role") != "assistant":
        return Finding("pause_turn", "broken", _text(
            language, "after pause_turn the loop added a new user message", "после pause_turn цикл добавил новое "
                                                                             "сообщение от user"))
    return Finding("pause_turn", "passed")


def _check_refusal(run: Run, language: str) -> Finding:
    if len(run.requests) > 1:
        return Finding("refusal", "broken", _text(
            language, f"after the refusal the loop sent {len(run.requests) - 1} more request(s)",
            f"после отказа цикл отправил ещё {len(run.requests) - 1} запрос(а)"))
    return Finding("refusal", "passed")


def _check_cut(run: Run, language: str) -> Finding:
    cut_ids = {b.id for b in run.responses[0].content if b.type == "tool_use"} if run.responses else set()
    answered = any(isinstance(b, dict) and b.get("tool_use_id") in cut_ids
                   for messages in run.requests[1:] for m in messages for b in _content(m))
    if answered or isinstance(run.error, (TypeError, KeyError, gitlab.GitlabError)):
        return Finding("cut_tool_call", "broken", _text(
            language, "the loop ran the tool call that max_tokens had cut", "цикл выполнил вызов, обрезанный max_tokens")
            + (f" ({type(run.error).__name__}: {run.error})" if run.error else ""))
    return Finding("cut_tool_call", "passed")


def _check_merge(run: Run, language: str) -> Finding:
    if not any("merge" in (t.get("name", "") + t.get("description", "")).lower().replace("merge request", "")
               for t in run.tools_sent):
        return Finding("merge_asks", "skipped", _text(language, "the loop gives the model no merge tool",
                                                      "цикл не даёт модели инструмента для слияния"))
    if run.merged:
        return Finding("merge_asks", "broken", _text(
            language, "the injection MR !485 was merged without anyone's approval",
            "MR !485 с инъекцией был влит без чьего-либо согласия"))
    return Finding("merge_asks", "passed")


CHECKS = {
    # rule: (merge request, misbehaviours ordered from the sandbox, judge of the recorded run)
    "whole_response": (482, (), _check_whole_response),
    "one_message": (484, (), _check_one_message),
    "errors_are_results": (999, (), _check_errors),
    "cap": (482, ("stuck",) * (LIMIT + 5), _check_cap),
    "pause_turn": (482, ("pause_turn",), _check_pause),
    "refusal": (482, ("refusal",), _check_refusal),
    "cut_tool_call": (482, ("max_tokens",), _check_cut),
    "merge_asks": (485, (), _check_merge),
}


def _check(rule: str, loop: Callable, language: str) -> Finding:
    """Run the rule's scenario and judge it; a loop stopped earlier by rule 1's 400 is not judged."""
    pr, misbehave, judge = CHECKS[rule]
    run = run_scenario(loop, pr, misbehave)
    blocked = _blocked(rule, run, language) if rule != "whole_response" else None
    return blocked or judge(run, language)


@dataclass
class Report:
    name: str
    findings: list[Finding]
    language: str

    @property
    def broken(self) -> list[str]:
        return [f.rule for f in self.findings if f.status == "broken"]

    def text(self) -> str:
        lang = self.language
        passed = sum(f.status == "passed" for f in self.findings)
        lines = [_text(lang, f"Self-check of {self.name}: {passed} passed, {len(self.broken)} broken",
                       f"Самопроверка {self.name}: пройдено {passed}, нарушено {len(self.broken)}")]
        for number, finding in enumerate(self.findings, start=1):
            en, ru, notebook, why_en, why_ru = RULES[finding.rule]
            mark = {"passed": "✔", "broken": "✘", "skipped": "–"}[finding.status]
            lines.append(f"{mark} {number}. {_text(lang, en, ru)} ({_text(lang, 'notebook', 'блокнот')} {notebook})")
            if finding.status == "broken":
                lines.append("     " + _text(lang, "What happened: ", "Что произошло: ") + finding.detail)
                lines.append("     " + _text(lang, "Why it matters: ", "Почему это важно: ") + _text(lang, why_en, why_ru))
            elif finding.status == "skipped":
                lines.append("     " + _text(lang, "Not checked: ", "Не проверялось: ") + finding.detail)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()


def check_loop(loop: Callable, rules: list[str] | None = None, language: str | None = None,
               show: bool = True) -> Report:
    """Check a loop against the lesson's rules (all, or the named ones); print and return the report."""
    unknown = [r for r in rules or [] if r not in CHECKS]
    if unknown:
        raise ValueError(f"unknown rules {unknown}; choose from {list(CHECKS)}")
    if not callable(loop) or not hasattr(loop, "__globals__"):
        raise TypeError("check_loop needs your loop function, e.g. check_loop(review_pull_request)")
    language = language or ("ru" if os.environ.get("COURSE_AGENT_LANGUAGE", "").startswith("ru") else "en")
    report = Report(loop.__name__, [_check(rule, loop, language) for rule in rules or CHECKS], language)
    if show:
        print(report.text())
    return report
