"""What a check found, as a notebook shows it: rich HTML in JupyterLab, plain text for nbval
and terminals. Every finding is passed, broken or not checked; nothing is passed unseen."""

import html
import re
from dataclasses import dataclass, field

from course_agent.i18n import ntr, tr

PASSED, BROKEN, NOT_CHECKED = "passed", "broken", "not_checked"
_MARKS = {PASSED: "✔", BROKEN: "✘", NOT_CHECKED: "–"}
_COLOURS = {PASSED: "var(--jp-success-color1, #2e7d32)", BROKEN: "var(--jp-error-color1, #c62828)",
            NOT_CHECKED: "var(--jp-ui-font-color2, #757575)"}


@dataclass
class Finding:
    """One rule (or one requirement of an exercise) and what the check saw of it."""

    rule: str
    status: str
    detail: str = ""
    """What happened, in the report's language (for passed findings: how it was seen, if worth saying)."""
    title: str = ""
    why: str = ""
    """Why the rule matters; shown when it is broken."""
    where: str = ""
    """Where the course teaches it, e.g. "notebook 6"."""
    task: str = ""
    """The sentence of the exercise's task this requirement comes from; shown when it is broken."""


@dataclass
class Report:
    """The findings of one check, with an optional paragraph that comes before them."""

    title: str
    findings: list[Finding]
    language: str
    note: str = ""
    hints: list[str] = field(default_factory=list)
    raised: BaseException | None = None
    """The learner's exception that kept rules from being checked: the header names it (crash.py)."""

    def rules(self, status: str) -> list[str]:
        """The rules of the findings with this status, in order."""
        return [f.rule for f in self.findings if f.status == status]

    broken = property(lambda self: self.rules(BROKEN))
    passed = property(lambda self: self.rules(PASSED))
    not_checked = property(lambda self: self.rules(NOT_CHECKED))

    @property
    def ok(self) -> bool:
        """True only when every finding was observed and right."""
        return bool(self.findings) and all(f.status == PASSED for f in self.findings)

    def header(self) -> str:
        if self.raised is not None:
            return tr("{title}: your code raised {error}", self.language, title=self.title,
                      error=type(self.raised).__name__)
        return tr("{title}: {passed} passed, {broken} broken, {unchecked} not checked", self.language,
                  title=self.title, passed=len(self.passed), broken=len(self.broken),
                  unchecked=len(self.not_checked))

    def shared_task(self) -> str:
        """The task's sentence when every broken row quotes the same one, and more than one row does: said once,
        under the headline, not under each row ('' otherwise)."""
        tasks = [f.task for f in self.findings if f.status == BROKEN and f.task]
        return tasks[0] if len(tasks) >= 2 and len(set(tasks)) == 1 else ""

    def _task_line(self, task: str) -> str:
        # Russian words it as the task's requirement, not a quote: «Требование задания: при …»
        return tr("The task says: {task}", self.language, task=task, lowered=_lowered(task))

    def _shared_task_line(self) -> str:
        """The shared task's line, naming the rows it stands for: above every row it reads as a stray line
        otherwise (instructor read 63, F15)."""
        task = self.shared_task()
        numbers = _ranges([n for n, f in enumerate(self.findings, start=1) if f.status == BROKEN and f.task])
        return tr("The task says (requirements {numbers}): {task}", self.language, numbers=numbers, task=task,
                  lowered=_lowered(task))

    def _same_cause(self) -> dict[int, int]:
        """For a broken row whose "what happened" is word for word an earlier broken row's: that row's number."""
        first: dict[str, int] = {}
        same = {}
        for number, finding in enumerate(self.findings, start=1):
            if finding.status == BROKEN and finding.detail:
                same[number] = first.setdefault(finding.detail, number)
        return {number: earlier for number, earlier in same.items() if earlier != number}

    def _lines(self, finding: Finding, number: int) -> list[tuple[str, str]]:
        lang = self.language
        where = f" ({finding.where})" if finding.where else ""
        lines = [("title", f"{_MARKS[finding.status]} {number}. {finding.title or finding.rule}{where}")]
        if finding.status == BROKEN:
            earlier = self._same_cause().get(number)
            detail = tr("the same cause as requirement {number}", lang, number=earlier) if earlier else finding.detail
            lines.append(("detail", tr("What happened: ", lang) + _unstopped(collapsed(detail))))
            if finding.task and finding.task != self.shared_task():
                lines.append(("detail", self._task_line(finding.task)))
            if finding.why:
                lines.append(("detail", tr("Why it matters: ", lang) + finding.why))
        elif finding.status == NOT_CHECKED:
            lines.append(("detail", tr("Not checked: ", lang) + _unstopped(collapsed(finding.detail))))
        elif finding.detail:
            lines.append(("detail", _unstopped(collapsed(finding.detail))))
        return lines

    def _split(self) -> tuple[list[tuple[int, Finding]], list[tuple[int, Finding]]]:
        """The rows to work on (broken, not checked) and the rows met, each under its number. Both lists are shown
        apart only when both have rows: an exercise's report carries the earlier notebooks' rules, mostly met, and
        the one ✘ must not sit among them (instructor read 61, F4)."""
        numbered = list(enumerate(self.findings, start=1))
        passed = [(n, f) for n, f in numbered if f.status == PASSED]
        rest = [(n, f) for n, f in numbered if f.status != PASSED]
        return (rest, passed) if rest and passed else (numbered, [])

    def _met(self, passed: list[tuple[int, Finding]]) -> str:
        """The one line the rows met fold into: "✔ 12 more requirements met (1–12)"."""
        return ntr("✔ {n} more requirement met ({numbers})", "✔ {n} more requirements met ({numbers})",
                   len(passed), self.language, numbers=_ranges([n for n, _ in passed]))

    def _nothing(self) -> str:
        """Said by a report that judged no requirement and has no note of its own to say why."""
        return tr("Nothing was checked: no requirement was judged.", self.language) \
            if not self.findings and not self.note else ""

    def text(self) -> str:
        """Plain text: the rows to work on first, with their details, then the hints, then the rows met under one
        line (the full list, as plain text cannot fold)."""
        out = [self.header()]
        out.extend(line for line in (self.note, self._nothing()) if line)
        if self.shared_task():
            out.append(self._shared_task_line())
        first, met = self._split()
        for number, finding in first:
            for kind, line in self._lines(finding, number):
                out.append(line if kind == "title" else "     " + line)
        out.extend(tr("Hint: ", self.language) + hint for hint in self.hints)
        if met:
            out.append(self._met(met) + ":")
            for number, finding in met:
                for kind, line in self._lines(finding, number):
                    out.append("  " + line if kind == "title" else "       " + line)
        return "\n".join(out)

    __str__ = __repr__ = text

    def _html_items(self, numbered: list[tuple[int, Finding]]) -> str:
        parts = ["<ol style='margin: 0; padding-left: 0; list-style: none'>"]
        for number, finding in numbered:
            lines = self._lines(finding, number)
            parts.append(f"<li style='margin: 3px 0'><span style='color: {_COLOURS[finding.status]}; "
                         f"font-weight: 600'>{_html(lines[0][1])}</span>")
            for _, line in lines[1:]:
                parts.append(f"<div style='margin-left: 1.6em; color: var(--jp-ui-font-color1, inherit)'>"
                             f"{_html(line)}</div>")
            parts.append("</li>")
        parts.append("</ol>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        """In a notebook: the requirements not met first, those met folded under one line (an exercise's report
        carries the earlier notebooks' rules, mostly met: the rows to work on stand out)."""
        esc = html.escape
        parts = ['<div class="course-agent-report" style="font-family: var(--jp-ui-font-family, sans-serif); '
                 'color: var(--jp-ui-font-color1, inherit); line-height: 1.45">',
                 f"<div style='font-weight: 600; margin-bottom: 4px'>{esc(self.header())}</div>"]
        if self.note:
            parts.append(f"<div style='margin: 4px 0 6px; padding: 6px 8px; border-left: 3px solid "
                         f"var(--jp-warn-color1, #f9a825)'>{_html(self.note)}</div>")
        if self.shared_task():
            parts.append(f"<div style='margin: 4px 0 6px'>{_html(self._shared_task_line())}</div>")
        if self._nothing():
            parts.append(f"<div style='margin: 4px 0 6px'>{esc(self._nothing())}</div>")
        first, met = self._split()
        parts.append(self._html_items(first))
        if met:  # what to work on first; the rows already met folded below, under their numbers
            parts.append(f"<details style='margin-top: 4px'><summary style='color: {_COLOURS[PASSED]}'>"
                         f"{esc(self._met(met))}</summary>{self._html_items(met)}</details>")
        for hint in self.hints:
            parts.append(f"<details style='margin-top: 4px'><summary>{esc(tr('Hint', self.language))}</summary>"
                         f"<div style='margin-left: 1.2em'>{_html(_capitalised(hint))}</div></details>")
        parts.append("</div>")
        return "".join(parts)


_WORD = re.compile(r"[a-zа-яё]+(?![\w.(])")
_CAPITALISED = re.compile(r"[A-ZА-ЯЁ][a-zа-яё]+(?![\w.(])")


def _ranges(numbers: list[int]) -> str:
    """Row numbers with their runs joined: 1, 2, 3, 4, 9 → "1–4, 9"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}, {r[1]}" if len(r) == 2 else f"{r[0]}–{r[-1]}"
                     for r in runs)


def _capitalised(text: str) -> str:
    """A sentence's first letter in capitals, unless it starts with code (`result.iterations`, `approve(...)`)."""
    return text[:1].upper() + text[1:] if _WORD.match(text) else text


def _lowered(text: str) -> str:
    """A sentence's first letter in lower case after a colon, unless its first word is a name or code."""
    return text[:1].lower() + text[1:] if _CAPITALISED.match(text) else text


_CODE = re.compile(r"`([^`\n]+)`")
_RUN = re.compile(r"(?<![\w.])([A-Za-z_]\w+)((?:, \1(?!\w)){2,})(, \w*…|, \w*\.\.\.)?")


def _html(text: str) -> str:
    """A line of the report in HTML: escaped, with `code` in backticks shown as code, not as backticks."""
    return _CODE.sub(r"<code>\1</code>", html.escape(text))


def _unstopped(text: str) -> str:
    """A row's detail without a final full stop, as every row prints it (some checks' details end a sentence, most
    do not); an ellipsis ("...") stays."""
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def collapsed(text: str) -> str:
    """A quoted list that repeats one name (a cap error's "20 tool calls (get_diff, get_diff, …)") said once with its
    count: "get_diff ×20"; when the quote was cut inside the run, its first three and "…", as the count is not known."""
    def one(match: re.Match) -> str:
        name, run, cut = match.group(1), match.group(2), match.group(3)
        if cut:
            return f"{name}, {name}, {name}, …"
        return f"{name} ×{run.count(', ') + 1}"
    return _RUN.sub(one, text)
