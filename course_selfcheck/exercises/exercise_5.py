"""Exercise 5 (notebook 5): a run_tool_safely(name, tool_input) in which read_file always raises
FileNotFoundError. The error must reach the model as a result, so that the review goes on and says
what it could not read; the grader drives a review of !482 with it in a fresh sandbox."""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from course_agent.i18n import N_, ntr, tr

from ..crash import error_text
from ..report import Report
from .exercise_5_loop import check_loop_5, takes_a_merge_request
from .grading import MAX_ITERATIONS, REVIEWED, Grade, Seen, call, is_placeholder, requirement, setting
from .learner_project import project_pointed_at
from .reading import kind, short, text

NOT_FOUND = re.compile(r"FileNotFound|not found|no such file|does not exist|doesn't exist|missing|there is no|"
                       r"there's no|is not there|isn't there|не найден|не существует|нет такого файла|отсутствует|"
                       r"\bнет\b", re.I)
FAILURE_MENTIONED = re.compile(r"FileNotFound|could not read|couldn't read|cannot read|can't read|unable to read|"
                               r"not found|does not exist|failed|не удалось прочитать|не удалось|не найден|"
                               r"не существует|ошибк", re.I)
EXISTING, MISSING, ANOTHER = "shop/checkout.py", "shop/no_such_module.py", "README.md"
READ_PROBES = {"exists": EXISTING, "missing": MISSING, "another": ANOTHER, "exists_again": EXISTING}
"""The read_file calls made outside the review, by probe name: the last two after it ("always" is not "at first")."""
LATE_READS = 10
"""How many times the first file is read again after the review: the one judged is the first that did not fail."""
OTHER_MR, OTHER_FILE = 483, "shop/money.py"
"""Another merge request, and a file only it changes: get_diff must give that merge request's diff, not !482's."""
UNKNOWN_TOOL = "search_code"
"""A tool the dispatcher does not have: run_tool_safely turns its KeyError into a result like any failure."""
NO_SUCH_MR = 999
"""A merge request the demo GitLab does not have: get_diff fails with a 404, which must come back as a result."""

TOOLS = [
    {"name": "get_diff", "description": "Get the changes of a merge request: title, source branch and the diff of "
                                        "every file.",
     "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}},
    {"name": "read_file", "description": "Read a whole file from the repository at a branch (default main), for "
                                         "context.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
                      "required": ["path"]}},
]
"""Notebook 5's tools, as the review loop below sends them."""

Probe = tuple[Any, BaseException | None, bool]


@dataclass
class Review:
    """What happened in the review driven by the learner's dispatcher; the grader never raises."""

    calls: int = 0
    reads: list[tuple[str, str, bool]] = field(default_factory=list)
    answer: str | None = None
    raised: tuple[str, BaseException] | None = None
    hung: str | None = None
    refused: BaseException | None = None
    shape: str | None = None
    """What the dispatcher returned when it was not a dict, which review_with's ** cannot take (its kind)."""

    @property
    def failed_paths(self) -> list[str]:
        return [path for path, _, error in self.reads if error]

    @property
    def survived(self) -> bool:
        return self.answer is not None and any(error for _, _, error in self.reads)


@dataclass(frozen=True)
class Seen5:
    """The dispatcher called alone (the probes, by name) and the review it drove."""

    probes: dict[str, Probe]
    review: Review
    files: dict[str, str] = field(default_factory=dict)
    """The text of each existing file the probes read (a read_file "failure" must not carry it to the model), and
    under "!483" that merge request's diff (what get_diff must give for it)."""
    raised: dict[str, list[BaseException]] = field(default_factory=dict)
    """What each read_file probe raised inside the dispatcher, caught there or not."""
    fetched: dict[str, bool] = field(default_factory=dict)
    """Whether a read_file probe got the file from GitLab: a "failure" that read the file may carry it, encoded."""


def _as_result(value: Any) -> tuple[str, bool]:
    """(text, is_error) of what a dispatcher returned: {"content", "is_error"}, a tool_result block, or text."""
    if isinstance(value, Mapping) or (hasattr(value, "get") and not isinstance(value, (str, bytes))):
        return text(value.get("content")), bool(value.get("is_error"))
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bool):
        return text(value[0]), value[1]
    return text(value) if isinstance(value, (str, bytes, list)) else ("" if value is None else str(value)), False


def _review_with(dispatcher: Callable, client: Any, task: str) -> Review:
    """Notebook 5's review loop, with the learner's dispatcher: what happened, never an exception."""
    from course_agent.config import model_id
    from course_agent.review import REVIEW_RULES

    messages: list[dict] = [{"role": "user", "content": task}]
    seen = Review()
    for _ in range(MAX_ITERATIONS):
        try:
            response = client.messages.create(model=model_id(), max_tokens=16000, system=REVIEW_RULES,
                                              tools=TOOLS, messages=messages)
        except Exception as error:  # e.g. a 400 for a result the API does not accept
            seen.refused = error
            return seen
        seen.calls += 1
        if response.stop_reason != "tool_use":
            seen.answer = "\n".join(b.text for b in response.content if b.type == "text")
            return seen
        messages.append({"role": "assistant", "content": response.content})
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            value, error, hung = call(dispatcher, block.name, dict(block.input))
            if hung:
                seen.hung = block.name
                return seen
            if error is not None:
                seen.raised = (block.name, error)
                return seen
            if not isinstance(value, Mapping):  # review_with's {"type": "tool_result", ..., **dispatch(...)}
                seen.shape = kind(value)
                return seen
            result, is_error = _as_result(value)
            if block.name == "read_file":
                seen.reads.append((block.input.get("path", "?"), result, is_error))
            results.append({"type": "tool_result", "tool_use_id": block.id, **value})  # as review_with sends it
        messages.append({"role": "user", "content": results})
    return seen


def _describe(probe: Probe, what: str, lang: str) -> tuple[str, bool, str]:
    """(text, is_error, what the report says) of one call of the dispatcher."""
    value, error, hung = probe
    if hung:
        return "", False, tr("{call} did not return within {seconds} s.", lang, call=what,
                             seconds=int(setting("TOOL_TIMEOUT")))
    if error is not None:
        return "", False, tr("{call} raised {error}: the exception escaped the dispatcher.", lang, call=what,
                             error=short(error_text(error), 160))
    result, is_error = _as_result(value)
    flag = tr("is_error", lang) if is_error else tr("no is_error", lang)
    return result, is_error, tr("{call} returned {flag}: {text}", lang, call=what, flag=flag, text=short(result, 120))


TASK = N_("Write run_tool_missing_file: a run_tool_safely in which read_file always raises FileNotFoundError.")


@requirement("read_file_error", N_("read_file's FileNotFoundError comes back as an error result, not an exception"),
             N_("read_file must fail for every path, even one that exists, and the failure must come back as "
                "{\"content\": \"read_file failed: FileNotFoundError: ...\", \"is_error\": True}: catch the "
                "exception inside run_tool and name it in the content."),
             task=TASK)
def _read_file_error(seen: Seen5, lang: str) -> Seen:
    escaped = [seen.probes[key][1] for key in READ_PROBES]
    if all(error is not None for error in escaped):  # one mistake, said once rather than for each path
        return Seen(False, tr("run_tool(\"read_file\", ...) raised {error} for every path it was given ({paths}): the "
                              "exception escaped the dispatcher.", lang,
                              error=", ".join(dict.fromkeys(type(e).__name__ for e in escaped if e is not None)),
                              paths=", ".join(dict.fromkeys(READ_PROBES.values()))))
    read_calls = []
    for key, path in READ_PROBES.items():
        what = f"run_tool(\"read_file\", {{\"path\": \"{path}\", \"ref\": \"main\"}})"
        result, is_error, detail = _describe(seen.probes[key], what, lang)
        ok = is_error and bool(NOT_FOUND.search(result))
        whole = seen.files.get(path, "")
        if ok and (_carries(result, whole) or (seen.fetched.get(key) and len(result) >= len(whole) // 2 > 0)):
            ok, detail = False, tr("{what} reported FileNotFoundError but sent the file's text along", lang, what=what)
        elif ok and not _names_file_not_found(result, seen.raised.get(key, [])):
            other = next((type(e).__name__ for e in seen.raised.get(key, []) if isinstance(e, Exception)), None)
            ok, detail = False, (tr("{what} failed with {error}, not FileNotFoundError", lang, what=what, error=other)
                                 if other else tr("{what} failed without a FileNotFoundError", lang, what=what))
        if key in ("another", "exists_again") and ok:
            continue  # the calls after the review are named only when they break the rule: the report stays short
        read_calls.append((ok, detail))
    served = [path for path, _, error in seen.review.reads if not error]
    if served:
        read_calls.append((False, tr("in the review, read_file returned {path} without an error: it must always "
                                     "fail", lang, path=served[0])))
    return Seen(all(ok for ok, _ in read_calls), "; ".join(d.rstrip(".") for _, d in read_calls) + ".")


def _names_file_not_found(result: str, raised: list[BaseException]) -> bool:
    """The failure is a FileNotFoundError: the result names it, or the dispatcher raised one (and said it in its own
    words)."""
    return "FileNotFoundError" in result or any(isinstance(e, FileNotFoundError) for e in raised)


def _carries(result: str, file: str) -> bool:
    """A result holds a file's text: any of its first lines that are long enough to tell."""
    lines = [line.strip() for line in file.splitlines() if len(line.strip()) >= 24][:5]
    return any(line in result for line in lines)


@requirement("get_diff_works", N_("get_diff still gives a normal result"),
             N_("Only read_file should fail: get_diff must still return the diff of the merge request, with "
                "no is_error."),
             task=TASK)
def _get_diff_works(seen: Seen5, lang: str) -> Seen:
    result, is_error, detail = _describe(seen.probes["diff"], f"run_tool(\"get_diff\", {{\"pr\": {REVIEWED}}})", lang)
    shows_changes = "diff" in result.lower() or "@@" in result  # a diff, or its hunks alone
    if not (not is_error and shows_changes and result.strip()):
        return Seen(False, detail)
    what = f"run_tool(\"get_diff\", {{\"pr\": {OTHER_MR}}})"
    other, other_error, other_detail = _describe(seen.probes["other_diff"], what, lang)
    changed = [line for line in seen.files.get(f"!{OTHER_MR}", "").splitlines() if len(line.strip()) >= 16]
    if other_error or other == result or not (OTHER_FILE in other or any(line in other for line in changed)):
        return Seen(False, tr("{what} did not give the diff of !{pr} ({file} is not in it): get_diff must still read "
                              "the merge request it is asked for.", lang, what=what, pr=OTHER_MR, file=OTHER_FILE)
                    + " " + other_detail)
    return Seen(True, detail)


@requirement("survives", N_("The review of !482 runs to the end"),
             N_("Catch every exception in run_tool and return it as a result: the loop then sends it to the model "
                "and goes on."),
             task=N_("Review !482 with it: review_with(482, run_tool_missing_file)."))
def _survives(seen: Seen5, lang: str) -> Seen:
    run = seen.review
    if run.raised is not None:
        name, error = run.raised
        detail = tr("the run died: run_tool raised {error} for {tool}.", lang, error=short(error_text(error), 160),
                    tool=name)
    elif run.refused is not None:
        detail = tr("the API refused a request of the run: {error}", lang, error=short(error_text(run.refused), 200))
    elif run.shape is not None:
        detail = tr("the run died: review_with puts what the function returns into the tool_result with **, and it "
                    "returned a {kind}; return a dict with content (and is_error), as run_tool_safely does.", lang,
                    kind=run.shape)
    elif run.hung is not None:
        detail = tr("the run stopped: run_tool did not return for {tool} within {seconds} s.", lang,
                    tool=run.hung, seconds=int(setting("TOOL_TIMEOUT")))
    elif run.answer is None:
        detail = ntr("no final answer after {n} model call.", "no final answer after {n} model calls.", run.calls, lang)
    else:
        detail = ntr("the model answered after {n} call; failed read_file calls on the way: {reads}.",
                     "the model answered after {n} calls; failed read_file calls on the way: {reads}.",
                     run.calls, lang, reads=len(run.failed_paths))
    if run.answer is not None and not run.reads:  # nothing to fail: the run did not show the rule
        return Seen(None, tr("the model answered without calling read_file, so no failure was met on the way.",
                             lang))
    if run.answer is not None and not run.survived:
        detail = tr("the model answered, but no read_file call failed on the way: read_file must fail.", lang)
    return Seen(run.survived, detail)


@requirement("mentions_failure", N_("The final answer says that a file could not be read"),
             N_("Put the error's type and message in the result's content (\"read_file failed: "
                "FileNotFoundError: ...\"): the model can only report what it reads."),
             task=N_("What does the model write, and what does it not do?"))
def _mentions_failure(seen: Seen5, lang: str) -> Seen:
    answer, paths = seen.review.answer or "", seen.review.failed_paths
    if not answer:
        return Seen(None, tr("there is no final answer to read.", lang))
    if not paths:
        return Seen(None, tr("no read_file call failed during the run, so there was no failure to mention.", lang))
    mentions = bool(FAILURE_MENTIONED.search(answer) or any(p in answer for p in paths))
    line = next((ln for ln in answer.splitlines() if FAILURE_MENTIONED.search(ln)), answer.splitlines()[-1])
    return Seen(mentions and seen.review.survived, tr("the answer says: {line}", lang, line=short(line.strip(), 160)))


@requirement("others_safe", N_("Another tool's error still comes back as a result"),
             N_("Keep run_tool_safely's try/except around every tool: only read_file changes."),
             task=TASK)
def _others_safe(seen: Seen5, lang: str) -> Seen:
    what = f"run_tool(\"get_diff\", {{\"pr\": {NO_SUCH_MR}}})"
    result, is_error, detail = _describe(seen.probes["no_such_mr"], what, lang)
    if not (is_error and result.strip()) or "bad_input" not in seen.probes:
        return Seen(is_error and bool(result.strip()), detail)
    what = f"run_tool(\"get_diff\", {{\"merge_request\": {REVIEWED}}})"
    result, is_error, other = _describe(seen.probes["bad_input"], what, lang)
    if not (is_error and result.strip()):
        return Seen(False, other)
    what = f"run_tool(\"{UNKNOWN_TOOL}\", {{\"query\": \"discount\"}})"
    result, is_error, unknown = _describe(seen.probes["unknown_tool"], what, lang)
    return Seen(is_error and bool(result.strip()), f"{detail} {other}" if is_error else unknown)


REQUIREMENTS = (_read_file_error, _get_diff_works, _others_safe, _survives, _mentions_failure)
WHAT = N_("`run_tool_missing_file` is not written yet. Write a run_tool_safely(name, tool_input) in which "
          "read_file always raises FileNotFoundError, assign it, and run this cell again.")
START_HINT = N_("Where in run_tool_safely does a failure become a result? Make read_file fail where that branch "
                "sees it.")


def _unwritten(probes: dict[str, Probe]) -> bool:
    """Every probe met the template (`raise NotImplementedError`, or a body that returns nothing)."""
    return all((error is not None and isinstance(error, NotImplementedError))
               or (error is None and value is None and not hung) for value, error, hung in probes.values())


def _crash(seen: Seen5) -> BaseException | None:
    """An exception of the learner's own code (a bug), as opposed to a tool's failure that escaped the
    dispatcher (FileNotFoundError, a GitLab error), which the requirements judge."""
    import gitlab

    raised = [error for name, (_, error, _) in seen.probes.items() if name not in ("bad_input", "unknown_tool")]
    raised.append(seen.review.raised[1] if seen.review.raised else None)
    return next((e for e in raised if e is not None and not isinstance(e, (OSError, gitlab.GitlabError))), None)


def check_exercise_5(run_tool: Any, language: str | None = None) -> Report:
    """Notebook 5: your loop of notebook 4, review_safely(pr_number), in which a failing tool goes back to the model
    as a result (exercise_5_loop.py); or, the older form, `run_tool` is a run_tool_safely(name, tool_input) in which
    read_file always raises FileNotFoundError, called for each tool and driving a review of !482 in a fresh
    sandbox."""
    if callable(run_tool) and takes_a_merge_request(run_tool):
        return check_loop_5(run_tool, language)
    g = Grade(5, language, REQUIREMENTS)
    if is_placeholder(run_tool):
        return g.not_done(WHAT)
    if not callable(run_tool):
        g.all_broken(REQUIREMENTS, tr("expected a function run_tool(name, tool_input), got {kind}.", g.lang,
                                      kind=kind(run_tool)), START_HINT)
        return g.report()

    import gitlab

    from course_sandbox import Sandbox

    from ..retarget import pointed_at

    with Sandbox(record=True) as sb:
        project = gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project)
        # every GitLab request of the process goes to the sandbox, whatever the learner's client is called and
        # wherever it points (as in check_loop); the learner's `project` is the sandbox's one too
        files = {path: project.files.raw(path, ref="main").decode() for path in (EXISTING, ANOTHER)}
        files[f"!{OTHER_MR}"] = "\n".join(c["diff"] for c in project.mergerequests.get(OTHER_MR).changes()["changes"])
        raised: dict[str, list[BaseException]] = {key: [] for key in READ_PROBES}

        def read(key: str) -> Probe:
            before = len(sb.exchanges or [])
            probe = call(run_tool, "read_file", {"path": READ_PROBES[key], "ref": "main"}, raised=raised[key])
            fetched[key] = fetched.get(key, False) or any(
                e.status == 200 and "/repository/files/" in e.path for e in (sb.exchanges or [])[before:])
            return probe

        fetched: dict[str, bool] = {}

        with pointed_at(sb), project_pointed_at(run_tool, project):
            probes = {
                "exists": read("exists"),
                "missing": read("missing"),
                "diff": call(run_tool, "get_diff", {"pr": REVIEWED}),
                "no_such_mr": call(run_tool, "get_diff", {"pr": NO_SUCH_MR}),
                # an input the tool does not take: a TypeError, which run_tool_safely's `except Exception` turns
                # into a result as it does a GitLab error (a dispatcher that catches only GitLab's errors lets it out)
                "bad_input": call(run_tool, "get_diff", {"merge_request": REVIEWED}),
                "other_diff": call(run_tool, "get_diff", {"pr": OTHER_MR}),
                # a tool the dispatcher does not have: a KeyError, a failure like any other
                "unknown_tool": call(run_tool, UNKNOWN_TOOL, {"query": "discount"}),
            }
            if _unwritten(probes):
                return g.not_done(WHAT)
            review = _review_with(run_tool, sb.client(), tr("Review merge request !{pr}.", g.lang, pr=REVIEWED))
            late = [read("exists_again") for _ in range(LATE_READS)]  # "always": a count of failures runs out
            probes.update(another=read("another"), exists_again=next(
                (p for p in late if p[1] is not None or p[2] or not _as_result(p[0])[1]), late[-1]))
    seen = Seen5(probes, review, files, raised, fetched)
    crash = _crash(seen)
    if crash is not None:
        for row in REQUIREMENTS:
            if row.rule == "get_diff_works" and probes["diff"][1] is None:
                g.record(row, row.check(seen, g.lang))
            else:
                g.stopped_by(crash, [row])
        return g.report()
    g.run(REQUIREMENTS, seen)
    return g.report(tr("The model read the error, said what it could not check, and did not pretend to have "
                       "read the file.", g.lang))
