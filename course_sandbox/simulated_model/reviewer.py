"""The simulated reviewer: asks for the diff, reads the files a changed function's callers
live in (several at once when it may), then writes a review that cites real lines. Asked to
post, with an inline-comment tool offered (comment_on_line), it first comments on each changed
line it has a finding for (one comment per line), then posts the summary.

It decides from the conversation alone, every time, so it reacts to whatever the
learner's code sends back: results, errors, denials, or results split over messages.
"""

import re

from ..conversation import Turn
from ..request import Request
from ..words import N_, words
from . import tool_roles
from .diff_reading import ChangeSet, parse_changes
from .history import Call, calls, language, results_were_split, task_turn
from .reply import NewId, Reply, text_reply, tool_reply
from .signatures import StaleCall, changed_signatures, stale_calls

_NUMBER = re.compile(r"(?:#|!|\b(?:PR|MR|pull request|merge request|пулл?[- ]?реквест\w*|мерж[- ]?реквест\w*)\s*#?!?)"
                     r"(\d{1,9})\b", re.I)
_ANY_NUMBER = re.compile(r"(?<![\d./:-])\b(\d{1,7})\b(?![./:-]\d)")
"""A bare number, never one inside a date, a time, a version or a path (2026-11-01 names no merge request)."""
_NOT_FOUND = re.compile(r"404|not found|does not exist|не найден|не существует", re.I)
_TRANSIENT = re.compile(r"429|5\d\d|timed? ?out|timeout|connection|rate limit|temporar", re.I)
_POST = re.compile(r"\bpost\b|\bcomment\b|leave a note|опубликуй|оставь|напиши комментарий|в комментари", re.I)
_NAMED_MR = re.compile(r"!(\d+)")
"""A merge request named in an injected instruction: an obedient model merges that one, not the one it reviews."""
_INJECTION = re.compile(
    r"ignore (all |any )?(the )?(previous|prior|above|earlier) instructions|"
    r"(ai|llm|automated) (reviewer|assistant|agent)|"
    r"игнорируй (все )?(предыдущие|прежние) (инструкции|указания)|ии[- ](ревьюер|ассистент|агент)",
    re.I,
)
_ADDED_LINE_CHECKS = [
    (re.compile(r"\bprint\("), N_("a debugging print() is left in")),
    (re.compile(r"\b(TODO|FIXME)\b"), N_("unfinished work marked TODO/FIXME")),
    (re.compile(r"except\s*:"), N_("a bare `except:` swallows every error")),
    (re.compile(r"\beval\("), N_("eval() runs arbitrary code")),
    (re.compile(r"(password|passwd|secret|token|api_key)\s*=\s*['\"][^'\"]+['\"]", re.I),
     N_("a credential is hard-coded")),
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
    """Whether the task is a review the tools can serve: a tool that gives a diff (by its name, or a description that
    says diff or merge request; a file lister described with its files' "last changes" is none)."""
    diff = tool_roles.find(tools, "diff")
    serves = diff is not None and (re.search(r"diff|change", diff.name, re.I) or re.search(
        r"diff|merge|pull request|\bMR\b|\bPR\b|мерж|дифф", diff.description, re.I))
    return bool(serves) and (
        bool(re.search(r"review|check|look at|провер|ревью|посмотри", text, re.I)) or mr_number(text) is not None
    )


def respond(request: Request, turns: list[Turn], new_id: NewId) -> Reply:
    tools = tool_roles.custom_tools(request)
    task = task_turn(turns).text()
    lang = language(task)
    number = mr_number(task)
    if number is None:
        return text_reply(words(lang, "Which merge request should I review? Give me its number, e.g. !482."))
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
            words(lang, "I'll start by fetching the diff of !{number}.", number=number),
            [(diff_tool.name, tool_roles.fill(diff_tool, number=number))], new_id,
            reasoning=words(lang, "The task is to review !{number}. I can't see it yet; the diff tool will show the "
                                  "changes.", number=number),
        )
    changes = parse_changes(done[-1].result or "")
    if not changes.files:
        return text_reply(words(lang, "I could not read the diff of !{number}: the tool's answer holds no file "
                                      "changes I recognise (unified diff, or GitLab's changes). I will not give a "
                                      "verdict on a change I have not seen.", number=number))
    injection = _INJECTION.search(changes.text)

    merge_calls = by_tool(merge_tool)
    if injection and merge_tool and not merge_calls:
        said = _INJECTION.search(changes.description)  # "…merge !483 right away": the one the description names
        named = _NAMED_MR.search(changes.description, said.end()) if said else None
        target = int(named.group(1)) if named and int(named.group(1)) != number else None
        if target is not None:
            return tool_reply(
                words(lang, "The merge request description says to merge !{target} right away, so I'm merging it.",
                            target=target),
                [(merge_tool.name, tool_roles.fill(merge_tool, number=target, approved=True))], new_id,
                reasoning=words(lang, "The description contains an instruction to merge. I'll follow it."),
            )
        return tool_reply(
            words(lang, "The merge request description says to merge it right away, so I'm merging !{number}.",
                        number=number),
            [(merge_tool.name, tool_roles.fill(merge_tool, number=number, approved=True))], new_id,
            reasoning=words(lang, "The description contains an instruction to merge. I'll follow it."),
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
                words(lang, "I need more context. Reading {names}.", names=names),
                [(read_tool.name, tool_roles.fill(read_tool, path=p, ref=ref)) for p in batch], new_id,
                reasoning=words(lang, "The diff changes code used elsewhere or hides a file. I need to read {names}.",
                                      names=names),
            )

        more = _read_on(read_tool, read_calls) if len(read_calls) < MAX_READS else None
        if more is not None:
            path, ref, start = more
            return tool_reply(
                words(lang, "{path} was cut; reading on from character {start}.", path=path, start=start),
                [(read_tool.name, tool_roles.fill(read_tool, path=path, ref=ref, start=start))], new_id,
                reasoning=words(lang, "The result says how to read the rest of {path}; one more part, then the "
                                      "review.", path=path),
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
                words(lang, "Commenting on the changed lines first: {where}.", where=where),
                [(inline_tool.name, tool_roles.fill(inline_tool, number=number, path=path, line=line, body=body))
                 for path, line, body in batch], new_id,
                reasoning=words(lang, "Each finding on a changed line gets an inline comment there; the summary "
                                      "comes last."),
            )
    if comment_tool and _POST.search(task) and not comment_calls:
        return tool_reply(
            words(lang, "Posting the review on !{number}.", number=number),
            [(comment_tool.name, tool_roles.fill(comment_tool, number=number, body=review))], new_id,
            reasoning=words(lang, "The review is ready and the task asks to post it."),
        )
    if comment_calls:
        last = comment_calls[-1]
        prefix = (words(lang, "I could not post the review: {error}\n\n",
                              error=_first_line(last.result)) if last.is_error
                  else words(lang, "Posted the review on !{number}.\n\n", number=number))
        review = _inline_report(lang, inline_calls, prefix) + review
    return text_reply(review, reasoning=words(lang, "I have what I need; writing the review."))


def _cannot_fetch(lang: str, number: str, failed: Call) -> Reply:
    error = _first_line(failed.result)
    if _NOT_FOUND.search(failed.result or ""):
        return text_reply(words(lang, "Merge request !{number} does not exist: the diff tool answered \"{error}\". "
                                      "Please check the number.", number=number, error=error))
    return text_reply(words(lang, "I could not get the diff of !{number}: \"{error}\". I'll stop here rather than "
                                  "review blind.", number=number, error=error))


def _files_to_read(changes: ChangeSet) -> list[str]:
    hidden = [f.path for f in changes.files if f.too_large and not f.deleted]
    callers = changes.mentioned_paths() if changed_signatures(changes.files) else []
    return list(dict.fromkeys(hidden + callers))


_READ_ON = re.compile(r"\b(?:start|offset)\b\W{0,3}(\d[\d_,]*)", re.I)
"""A cut result's note naming where to read on: "start=20000", "`start` 20000", "offset: 20,000"."""


def _read_on(read_tool: tool_roles.ToolSpec, read_calls: list[Call]) -> tuple[str, str | None, int] | None:
    """(path, ref, start) of a file whose first read was cut with a note naming where to read on, when the read tool
    takes a start and that part was not asked for yet: one more part per file, never a loop."""
    if not tool_roles.takes(read_tool, "start"):
        return None
    for call in read_calls:
        if call.is_error or not call.result or _start_of(call):
            continue
        path = _path_of(call)
        if any(_path_of(other) == path and _start_of(other) for other in read_calls):
            continue  # read on once already
        note = call.result[:300] + call.result[-400:] if len(call.result) > 2000 else ""  # a cut result is long
        found = _READ_ON.search(note)
        start = int(re.sub(r"[_,]", "", found.group(1))) if found else 0
        if start > 0:
            ref = tool_roles.slot_value(call.input, "ref")
            return path, None if ref is None else str(ref), start
    return None


def _start_of(call: Call) -> int:
    value = tool_roles.slot_value(call.input, "start")
    return value if isinstance(value, int) else 0


def _path_of(call: Call) -> str:
    value = tool_roles.slot_value(call.input, "path")
    return "" if value is None else str(value)


def _line_of(call: Call) -> int | None:
    value = tool_roles.slot_value(call.input, "line")
    return value if isinstance(value, int) else None


def _inline_report(lang: str, inline_calls: list[Call], prefix: str) -> str:
    """The first line of the answer, with where inline comments went (or why one did not)."""
    if not inline_calls:
        return prefix
    done = [f"{_path_of(c)}:{_line_of(c)}" for c in inline_calls if not c.is_error]
    lines = [prefix.rstrip("\n")]
    if done:
        lines.append(words(lang, "Inline comments on: {places}.", places=", ".join(done)))
    for call in (c for c in inline_calls if c.is_error):
        lines.append(words(lang, "Could not comment on {path}:{line}: {error}", path=_path_of(call),
                           line=_line_of(call), error=_first_line(call.result)))
    return "\n".join(lines) + "\n\n"


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0][:300] if (text or "").strip() else "?"


def _first_sentence(text: str | None) -> str:
    """What a tool result says happened, without what it then asks of the model ("Do not try ..."): a review quotes
    it to a human, to whom the model's own instructions are not addressed."""
    line = _first_line(text)
    end = re.search(r"(?<=[.!?])\s+(?=[A-ZА-ЯЁ])", line)
    return line[:end.start()] if end else line


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
                for pattern, finding in _ADDED_LINE_CHECKS:
                    if pattern.search(line.text):
                        places.setdefault((diff_file.path, line.new_no), []).append(
                            f"{words(lang, finding)} (`{line.text.strip()}`).")
    return [(path, line, "\n\n".join(texts)) for (path, line), texts in places.items()]


def _stale_finding(lang: str, call: StaleCall, change) -> str:
    return words(lang, "{path}:{line} still calls `{code}` with the old arguments, but this MR changes the function "
                       "to `{text}` ({changed_path}:{changed_line}). That call will fail with a TypeError: update the "
                       "caller in "
                       "this MR or keep the old signature working.",
                       path=call.path, line=call.line, code=call.code, text=change.new.text, changed_path=change.path,
                       changed_line=change.line)


def _merged_number(call: Call, number: str) -> str:
    """The merge request a merge call named (the one an injection asked for), else the one reviewed: the number
    slot as fill() gives it, by its name or, failing that, as the call's integer."""
    given = call.input if isinstance(call.input, dict) else {}
    value = tool_roles.slot_value(given, "number")
    if value is None:
        value = next((v for v in given.values() if isinstance(v, int) and not isinstance(v, bool)), None)
    return str(value).lstrip("!") if value is not None else number


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
            findings.append(words(lang, "`{name}` changes its signature ({path}:{line}); I had no tool to read "
                                        "other files, so check its callers by hand.",
                                        name=change.new.name, path=change.path, line=change.line))
    for diff_file in changes.files:
        for line in diff_file.lines:
            if line.kind != "+":
                continue
            for pattern, finding in _ADDED_LINE_CHECKS:
                if pattern.search(line.text):
                    findings.append(f"{diff_file.path}:{line.new_no}: {words(lang, finding)} (`{line.text.strip()}`).")
    for call in reads:
        if call.is_error:
            findings.append(words(lang, "I could not read {path}: {error}",
                                        path=_path_of(call), error=_first_line(call.result)))
    merged = [call for call in merges if not call.is_error]
    if injection and not merged:  # a model that followed the instruction took it at its word; a refusal woke it
        findings.append(words(lang, "The MR text contains instructions addressed to an AI reviewer. Treat this MR "
                                    "as suspicious."))
    for call in merges:
        if call.is_error:
            findings.append(words(lang, "I tried to merge !{number}, as its description asked, but it did not go "
                                        "through: {error}.", number=_merged_number(call, number),
                                  error=_first_sentence(call.result).rstrip(".")))  # the full stop after a quote

    summary = ", ".join(f"{f.path} (+{f.count('+')} −{f.count('-')})" for f in changes.files) or "—"
    lines = [words(lang, "Review of !{number}", number=number) + (f": {changes.title}" if changes.title else ""),
             "", words(lang, "Files changed: {summary}", summary=summary)]
    read_ok = [p for p in contents if p]
    if read_ok:
        lines.append(words(lang, "Read for context: {files}", files=', '.join(read_ok)))
    lines.append("")
    if findings:
        lines.append(words(lang, "Findings:"))
        lines += [f"{n}. {finding}" for n, finding in enumerate(findings, start=1)]
        verdict = words(lang, "request changes")
    else:
        lines.append(words(lang, "No problems found: the change is consistent with the code around it."))
        verdict = words(lang, "approve")
    if merged:
        lines += ["", words(lang, "I merged !{number}, as its description asked.",
                            number=_merged_number(merged[0], number))]
    lines += ["", words(lang, "Verdict: {verdict}.", verdict=verdict)]
    return "\n".join(lines)
