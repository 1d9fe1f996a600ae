"""Exercise 2 (notebook 2): `TOOLS` with a read_file tool, and the history of the review of !482 run by
hand, step by step: the pairing of tool_use and tool_result is what the later loop automates."""

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from course_agent.client import using_sandbox
from course_agent.i18n import N_, ntr, tr
from course_sandbox import receipts

from ..report import Report
from .grading import Grade, Seen, call, is_placeholder, requirement, setting
from .learner_project import project_pointed_at
from .reading import get, kind, message, of_type, short, text

History = list[tuple[str, list[dict]]]


@dataclass(frozen=True)
class Run:
    """The learner's TOOLS and history as plain dicts."""

    tools: list[dict]
    history: History
    branch_read: Seen | None = None
    """What the learner's read_file gave for a file the merge request changes, at its branch (None: not tried)."""

    @property
    def uses(self) -> list[dict]:
        return [b for role, blocks in self.history if role == "assistant" for b in of_type(blocks, "tool_use")]

    @property
    def reads(self) -> list[dict]:
        return [b for b in self.uses if b.get("name") == "read_file"]

    @property
    def paths(self) -> list[str]:
        return [str((b.get("input") or {}).get("path", "?")) for b in self.reads]


def _tool_definitions(tools: Any) -> list[dict]:
    found = []
    for tool in tools if isinstance(tools, (list, tuple)) else []:
        if not isinstance(tool, Mapping) and hasattr(tool, "to_param"):
            tool = tool.to_param()  # a course_agent.tools.Tool
        elif not isinstance(tool, Mapping) and hasattr(tool, "to_dict"):
            tool = tool.to_dict()  # the SDK's @beta_tool functions
        found.append({"name": get(tool, "name"), "input_schema": get(tool, "input_schema")})
    return found


def _pairing_problem(history: History, lang: str) -> str:
    """The first broken tool_use / tool_result pairing of a history, or '' when every pair is right."""
    for index, (role, blocks) in enumerate(history):
        number = index + 1
        if role == "assistant":
            asked = [b.get("id") for b in of_type(blocks, "tool_use")]
            if not asked or index + 1 == len(history):
                continue
            next_role, next_blocks = history[index + 1]
            answered = [b.get("tool_use_id") for b in of_type(next_blocks, "tool_result")]
            missing = [i for i in asked if i not in answered]
            if next_role != "user" or missing:
                return tr("message {number} asks for {ids}, but message {next} does not answer {missing} with a "
                          "tool_result.", lang, number=number, ids=", ".join(map(str, asked)), next=number + 1,
                          missing=", ".join(map(str, missing or asked)))
        results = of_type(blocks, "tool_result")
        if results:
            before = history[index - 1] if index else ("", [])
            asked = {b.get("id") for b in of_type(before[1], "tool_use")} if before[0] == "assistant" else set()
            stray = [b.get("tool_use_id") for b in results if b.get("tool_use_id") not in asked]
            if role != "user" or stray:
                return _stray_result(history, number, stray, lang)
    return ""


def _stray_result(history: History, number: int, stray: list, lang: str) -> str:
    """Why message `number` (1-based) holds results the message before it did not ask for: the tool_use was
    never in the history (dropped from the response), or it was asked earlier (results split or out of order)."""
    ids = ", ".join(map(str, stray or [""]))
    asked_anywhere = {b.get("id") for role, blocks in history if role == "assistant"
                      for b in of_type(blocks, "tool_use")}
    if stray and not any(i in asked_anywhere for i in stray):
        return tr("message {number} holds a tool_result for {ids}, but no message of the history holds the tool_use "
                  "with that id: it was dropped from the model's response (append response.content whole).", lang,
                  number=number, ids=ids)
    return tr("message {number} holds a tool_result for {ids}, but message {previous} is not the assistant message "
              "with that tool_use (results split over several messages, or out of order).", lang, number=number,
              ids=ids, previous=max(number - 1, 1))


@requirement("read_file_tool", N_("TOOLS describes read_file, with a path in its input_schema"),
             N_("read_file's input_schema needs a \"path\" property (a string), so that the model can say which "
                "file to read; add \"ref\" for the branch."),
             task=N_("Add a second tool, read_file(path, ref), that returns a whole file, and describe it in TOOLS."))
def _read_file_tool(run: Run, lang: str) -> Seen:
    read_tool = next((d for d in run.tools if d["name"] == "read_file"), None)
    if read_tool is None:
        names = [str(d["name"]) for d in run.tools]
        return Seen(False, tr("the tools are {names}; none is called read_file.", lang, names=short(names)),
                    N_("Add a dict to TOOLS with \"name\": \"read_file\", a description, and an input_schema whose "
                       "properties are path (a string) and ref (a string)."))
    names = [str(d["name"]) for d in run.tools]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:  # TOOLS.append(...) in a cell run twice: every request that sends TOOLS now gets a 400
        return Seen(False, tr("TOOLS describes {names} more than once ({tools}): the API answers 400 (\"Tool names "
                              "must be unique\") to every request that sends it.", lang, names=", ".join(twice),
                              tools=short(names)),
                    N_("Build TOOLS as a new list, TOOLS = [TOOLS[0], {...}], rather than TOOLS.append(...): a cell "
                       "that appends adds read_file once more each time it runs."))
    schema = read_tool["input_schema"] if isinstance(read_tool["input_schema"], Mapping) else {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    return Seen("path" in properties and "ref" in properties,
                tr("read_file's input properties are {properties}.", lang, properties=short(sorted(properties))))


STEP_3 = N_("notebook 2, step 3")
ROUNDS = N_("Repeat steps 1 to 4 by hand until stop_reason is end_turn, appending every message to exercise_messages.")
"""The sentence of the task both the pairing and the whole responses come from."""

CHANGED, BRANCH = "shop/pricing.py", "feature/discount-object"
"""A file merge request !482 changes, and its branch: what read_file gives there is not what main holds."""


@requirement("read_file_ref", N_("read_file reads the file at the ref it is given"),
             N_("Pass ref on to GitLab, project.files.raw(path, ref=ref): a read_file that always reads main shows "
                "the model the file before the merge request, not the one it changes."),
             task=N_("Add a second tool, read_file(path, ref), that returns a whole file, and describe it in TOOLS."))
def _read_file_ref(run: Run, lang: str) -> Seen:
    assert run.branch_read is not None  # a row only when the learner's read_file was found and tried
    return run.branch_read


def _learners_read_files() -> list[Callable]:
    """The learner's read_file functions, looked up where the check was called (the notebook's names, or a calling
    function's): by name, and as the "read_file" entry of every dispatch table (the one the rounds used may not be the
    one named read_file)."""
    found: dict[int, Callable] = {}
    frame = sys._getframe(2)
    while frame is not None:
        for names in (frame.f_locals, frame.f_globals):
            candidates = [names.get("read_file")] + [value.get("read_file") for value in list(names.values())
                                                      if isinstance(value, Mapping)]
            found.update((id(c), c) for c in candidates if callable(c))
        frame = frame.f_back
    return list(found.values())[:MOST_TRIED]


MOST_TRIED = 4
"""read_file functions tried at most (each against a fresh sandbox)."""


def _branch_reads(read_files: list[Callable], lang: str) -> Seen | None:
    """The first read_file that does not read at the ref it is given, else the last one's good report; None: none."""
    seen = None
    for read_file in read_files:
        seen = _try_branch(read_file, lang)
        if seen.ok is not True:
            return seen
    return seen


def _try_branch(read_file: Callable, lang: str) -> Seen:
    """read_file(CHANGED, BRANCH) against a fresh sandbox: the branch's file, not main's."""
    import gitlab

    from course_sandbox import Sandbox

    from ..retarget import pointed_at

    what = f"read_file(\"{CHANGED}\", \"{BRANCH}\")"
    with Sandbox() as sb:
        project = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project)
        on_main, on_branch = (project.files.raw(CHANGED, ref=ref).decode().strip() for ref in ("main", BRANCH))
        with pointed_at(sb), project_pointed_at(read_file, project):
            value, error, hung = call(read_file, CHANGED, BRANCH)
    got = text(value) if isinstance(value, (str, bytes, list)) else ("" if value is None else str(value))
    if hung:  # not a failure: no answer at all
        return Seen(False, tr("{call} did not return within {seconds} s.", lang, call=what,
                              seconds=f"{setting('TOOL_TIMEOUT'):.0f}"))
    if error is not None:
        return Seen(False, tr("{call} failed: {error}", lang, call=what,
                              error=f"{type(error).__name__}: {short(str(error), 100)}"))
    if on_branch in got:
        return Seen(True, tr("{call} returned the file as the merge request's branch has it.", lang, call=what))
    if on_main in got:
        return Seen(False, tr("{call} returned the file as main has it: the ref was not passed on.", lang, call=what))
    return Seen(False, tr("{call} returned something else than the file: {got}", lang, call=what, got=short(got, 80)))


@requirement("starts_with_task", N_("The history starts with the review request for !482"),
             N_("Start again from a new list: the first message is the user's \"Review merge request !482.\"."),
             task=N_("Start again from \"Review merge request !482.\" in a new list, exercise_messages."))
def _starts_with_task(run: Run, lang: str) -> Seen:
    first_role, first_blocks = run.history[0]
    first_text = text(first_blocks)
    detail = tr("message 1 is from {role}: {text}", lang, role=first_role or "?", text=short(first_text, 80))
    earlier = next((n for n, (role, blocks) in enumerate(run.history[:-1], start=1)
                    if role == "assistant" and not of_type(blocks, "tool_use")), None)
    if earlier is not None:  # an earlier run's final answer in the middle: the old history was continued
        return Seen(False, detail + " " + tr("Message {n} is a final answer before the end: this history goes on "
                                             "from an earlier run instead of starting anew.", lang, n=earlier))
    steered = STEERING.search(first_text) or len(first_text) > 80
    if first_role == "user" and "482" in first_text and steered:
        return Seen(False, detail + " " + tr("It asks for more than the review: the task starts from the request "
                                             "alone, so that the model decides what to read.", lang))
    return Seen(first_role == "user" and "482" in first_text, detail)


STEERING = re.compile(r"read_file|get_diff|\bcall\b|\bmust\b|\btool|\bverdict|вызов|вызови|инструмент|должн|"
                      r"вердикт", re.I)
"""Words of a first message that tells the model how to review, not only what: the task starts from the request
alone ("Review merge request !482.", in any words), so that what the model reads is its own choice."""


@requirement("pairs", N_("Every tool_use is answered in the next message by a tool_result with its id"),
             N_("After each response with tool_use, append the response whole, then ONE user message with a "
                "tool_result for every tool_use of it (same tool_use_id)."),
             where=STEP_3, task=ROUNDS)
def _pairs(run: Run, lang: str) -> Seen:
    problem = _pairing_problem(run.history, lang)
    uses = run.uses
    return Seen(not problem and bool(uses),
                problem or (ntr("{n} tool call, each answered right after it.", "{n} tool calls, each answered right "
                                "after it.", len(uses), lang) if uses else tr("no tool_use in the history.", lang)))


@requirement("read_file_called", N_("The model read a file with read_file"),
             N_("Send TOOLS with read_file to the model in every call; when it asks for read_file, run "
                "project.files.raw(path, ref=ref).decode() and send the file back as the tool_result."),
             task=N_("Which file did it read, and why?"))
def _read_file_called(run: Run, lang: str) -> Seen:
    results = {b.get("tool_use_id"): b for _, blocks in run.history for b in of_type(blocks, "tool_result")}
    read_ok = [b for b in run.reads if b.get("id") in results and not results[b.get("id")].get("is_error")
               and text(results[b.get("id")].get("content")).strip()]
    wrong = _not_the_file([(b.get("input") or {}, text(results[b.get("id")].get("content"))) for b in read_ok])
    if wrong:
        tool_input, got = wrong[0]
        return Seen(False, tr("read_file was called for {path}, but its result is not that file: {got} (send the whole "
                              "file, project.files.raw(path, ref=ref).decode())", lang,
                              path=tool_input.get("path", "?"), got=short(got, 80)))
    if read_ok:
        detail = tr("read_file was called for {paths}.", lang, paths=", ".join(run.paths))
    elif run.reads:
        detail = tr("read_file was called for {paths}, but no call got the file back (an error or an empty "
                    "result).", lang, paths=", ".join(run.paths))
    else:
        detail = tr("no read_file call in the history (tools called: {names}).", lang,
                    names=", ".join(sorted({str(b.get("name")) for b in run.uses})) or "-")
    return Seen(bool(read_ok), detail)


def _not_the_file(reads: list[tuple[dict, str]]) -> list[tuple[dict, str]]:
    """The (input, result) pairs whose result does not hold the whole file the call asked for, as the demo GitLab
    has it (a header around it is fine); a file the demo GitLab does not have is not judged here. One sandbox
    answers every read."""
    import gitlab

    from course_sandbox import Sandbox

    if not reads:
        return []
    wrong = []
    with Sandbox() as sb:
        files = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project, lazy=True).files
        for tool_input, got in reads:
            try:
                whole = files.raw(str(tool_input.get("path", "")), ref=str(tool_input.get("ref") or "main")).decode()
            except Exception:  # no such file there: the learner's result is judged by the other checks
                continue
            if whole.strip() not in got:
                wrong.append((tool_input, got))
    return wrong


@requirement("finished", N_("The history ends with the model's final answer (no tool_use)"),
             N_("Keep going until stop_reason is end_turn, and append that last response to exercise_messages "
                "too."),
             task=N_("Append every message to exercise_messages, the model's last answer too."))
def _finished(run: Run, lang: str) -> Seen:
    last_role, last_blocks = run.history[-1]
    finished = last_role == "assistant" and not of_type(last_blocks, "tool_use") and bool(text(last_blocks).strip())
    if finished:
        detail = tr("the last message is the model's answer: {text}", lang,
                    text=short(text(last_blocks).strip().splitlines()[-1], 80))
    elif last_role == "assistant":
        detail = tr("the last message still asks for a tool: the model was not finished.", lang)
    else:
        detail = tr("the last message is from {role}: the model's last response is not in the history.", lang,
                    role=last_role or "?")
    return Seen(finished, detail)


@requirement("responses_whole", N_("Each assistant message is a response of the model, whole"),
             N_("Append response.content as it came, every block in order: exercise_messages.append({\"role\": "
                "\"assistant\", \"content\": response.content}); never write the model's part yourself."),
             where=STEP_3, task=ROUNDS)
def _responses_whole(run: Run, lang: str) -> Seen:
    for number, (role, blocks) in enumerate(run.history, start=1):
        if role != "assistant":
            continue
        texts = tuple(str(b.get("text")) for b in of_type(blocks, "text"))
        uses = tuple(str(b.get("id")) for b in of_type(blocks, "tool_use"))
        answer = receipts.answer_with_tool_use(uses[0]) if uses else None
        if uses and answer is None:
            return Seen(False, tr("message {number} holds a tool_use ({id}) that no response of the model had: it was "
                                  "written by hand.", lang, number=number, id=uses[0]))
        if answer is not None and (answer.tool_use_ids, answer.texts) != (uses, texts):
            return Seen(False, tr("message {number} is not the response as the model sent it (text blocks: {texts}, "
                                  "tool calls: {uses}); the history holds text blocks: {mine}, tool calls: "
                                  "{my_uses}.", lang,
                                  number=number, texts=len(answer.texts), uses=len(answer.tool_use_ids),
                                  mine=len(texts), my_uses=len(uses)))
        if not uses and not receipts.answers_with(texts):
            return Seen(False, tr("message {number}, an answer without a tool call, is not a response the model "
                                  "sent: {text}", lang, number=number, text=short(" ".join(texts), 80)))
    answered = sum(1 for role, _ in run.history if role == "assistant")
    return Seen(True, ntr("{n} response of the model, each whole.", "{n} responses of the model, each whole.",
                          answered, lang))


TOOL = (_read_file_tool, _read_file_ref)
HISTORY = (_starts_with_task, _pairs, _read_file_called, _finished)

WHAT = N_("`exercise_messages` holds no answer of the model. Add read_file to TOOLS, then append every message of "
          "your step-by-step run to it, the model's last answer included, and run this cell again.")


def check_exercise_2(tools: Any, messages: Any, language: str | None = None) -> Report:
    """Notebook 2: `TOOLS` with a read_file tool, and the history of the review of !482 run step by step."""
    read_files = _learners_read_files()
    tool_rows = TOOL if read_files else TOOL[:1]  # read_file not found: its ref is not judged, and so said
    # offline, every response comes from the sandbox, which kept them; the live API's are not kept here
    history_rows = (*HISTORY[:1], _responses_whole, *HISTORY[1:]) if using_sandbox() else HISTORY
    g = Grade(2, language, (*tool_rows, *history_rows))
    started = isinstance(messages, (list, tuple)) and any(message(m)[0] == "assistant" for m in messages)
    if is_placeholder(messages) or (isinstance(messages, (list, tuple)) and not started):
        return g.not_done(WHAT)
    history = [message(m) for m in messages] if isinstance(messages, (list, tuple)) else []
    run = Run(_tool_definitions(tools), history, _branch_reads(read_files, g.lang))
    g.run(tool_rows, run)
    if not history:
        g.all_broken(history_rows, tr("expected a list of messages, got {kind}.", g.lang, kind=kind(messages)))
        return g.report()
    g.run(history_rows, run)
    calls = sum(1 for role, _ in history if role == "assistant")
    files = ", ".join(dict.fromkeys(run.paths)) or "-"
    done = ntr("The model was called {n} time and read {files}.", "The model was called {n} times and read {files}.",
               calls, g.lang, files=files)
    if not read_files:
        done += " " + tr("(No function read_file was found where this check was called, so read_file was not tried "
                         "with a branch.)", g.lang)
    return g.report(done)
