"""Exercise 8 (notebook 8): the learner's loop of notebook 7, grown in two steps, each with its own check: step 1 cuts
an oversized tool result and says so (check_exercise_8(loop, step=1): the cut, with every earlier rule kept); step 2
caches every request and prints the bill (check_exercise_8(loop), the default: the whole exercise).

Its older form, which notebook 9's exercise still uses (check_rows): `rows` holds one (pr, verdict, calls,
billed_input) per demo merge request (482-487), the table a team would look at before trusting the reviewer with a
budget. !482 is reviewed again by the course's reviewer in a fresh sandbox, as a spot check of the learner's figures."""

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from course_agent.i18n import N_, ntr, tr

from ..crash import error_text
from ..later_rules import billed
from ..report import Finding, Report
from .exercise_6 import RULES as STOP_RULES
from .exercise_7_gate import gate_grade
from .grading import DEMO_MRS, Grade, Requirement, Seen, is_placeholder
from .loops import EARLIER, grade_loop, row_hint_alone
from .reading import get, kind, short

_VERDICT_LINE = re.compile(r"(?:verdict|вердикт)\s*:?\s*(.+)", re.I)
_CHANGES = re.compile(r"request(?:ed)?[ _-]changes|changes[ _-]requested|нужны исправления|"
                      r"требуются исправления|исправлени|доработ", re.I)
_APPROVE = re.compile(r"approve|одобр|можно вливать|lgtm", re.I)
_FAILED = re.compile(r"error|fail|refus|denied|exception|ошибк|сбой|отказ|отклон|запрещ|исключени", re.I)
_ROW_KEYS = {
    "pr": ("pr", "mr", "number", "iid", "merge_request", "pull_request", "id"),
    "verdict": ("verdict", "result", "outcome", "decision"),
    "calls": ("calls", "model_calls", "iterations", "n_calls", "requests"),
    "billed": ("billed_input", "billed", "billed_input_tokens", "input_tokens", "billed_tokens", "tokens", "cost"),
}


def _row(row: Any) -> dict | None:
    """A row as {pr, verdict, calls, billed}: a tuple in that order, a dict, or an object with such fields."""
    if isinstance(row, (list, tuple)):
        return dict(zip(("pr", "verdict", "calls", "billed"), row, strict=False)) if len(row) >= 4 else None
    if isinstance(row, dict):  # keys as a person writes them: "Billed input", "billed-input", "MR"
        row = {re.sub(r"[\s-]+", "_", str(key).strip().lower()): value for key, value in row.items()}
    fields = {}
    for name, names in _ROW_KEYS.items():
        for key in names:
            value = get(row, key, None)
            if value is not None:
                fields[name] = value
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
    if isinstance(value, str):  # as printed: 3379.2, 3,379.2, 3 379,2, 3_379.2
        digits = re.sub(r"[\s\u00a0\u202f_']", "", value)
        if "," in digits and "." in digits or re.fullmatch(r"\d{1,3}(,\d{3})+", digits):
            digits = digits.replace(",", "")
        try:
            return float(digits.replace(",", "."))
        except ValueError:
            return None
    return None


def _verdict_kind(value: Any) -> str | None:
    """'approve', 'request changes' or 'error' for a verdict as written (a word, a last line, a whole review)."""
    if not isinstance(value, str) or not value.strip():
        return None
    lines = [m.group(1) for m in map(_VERDICT_LINE.search, value.splitlines()) if m]
    said = lines[-1] if lines else value
    if _CHANGES.search(said):
        return "request changes"
    if _FAILED.search(said):
        return "error"
    if _APPROVE.search(said):
        return "approve"
    return None


def _kind_name(verdict: str | None, lang: str) -> str:
    names = {"approve": tr("approve", lang), "request changes": tr("request changes", lang),
             "error": tr("an error", lang)}
    return names.get(verdict or "", "?")


@dataclass(frozen=True)
class Table:
    """The learner's rows read as dicts (None for a row that could not be read), with their numbers."""

    rows: list[dict]
    lang: str

    @property
    def prs(self) -> list[int | None]:
        return [_as_int(row.get("pr")) for row in self.rows]

    def label(self, index: int) -> str:
        pr = _as_int(self.rows[index].get("pr"))
        return f"!{pr}" if pr is not None else tr("row {number}", self.lang, number=index + 1)

    def labelled(self, show: Callable[[dict], object]) -> str:
        return ", ".join(f"{self.label(i)} {show(row)}" for i, row in enumerate(self.rows))

    def bad(self, test: Callable[[dict], bool], show: Callable[[dict], str]) -> str:
        """'' when every row passes the test, else the rows that do not, each as the report shows it."""
        return "; ".join(f"{self.label(i)}: {show(row)}" for i, row in enumerate(self.rows) if not test(row))


def _six_rows(table: Table, lang: str) -> Seen:
    prs, wanted = table.prs, list(DEMO_MRS)
    missing = [n for n in wanted if n not in prs]
    extra = [table.label(i) for i, pr in enumerate(prs) if pr not in wanted or prs.count(pr) > 1]
    detail = ntr("{n} row: {prs}.", "{n} rows: {prs}.", len(table.rows), lang,
                 prs=", ".join(table.label(i) for i in range(len(table.rows))))
    if missing:
        detail += " " + tr("Missing: {missing}.", lang, missing=", ".join(f"!{n}" for n in missing))
    if extra:
        detail += " " + tr("Not one of the six, or twice: {extra}.", lang, extra=", ".join(extra))
    return Seen(not missing and not extra and len(table.rows) == 6, detail)


def _verdicts(table: Table, lang: str) -> Seen:
    bad = table.bad(lambda r: _verdict_kind(r.get("verdict")) is not None, lambda r: short(r.get("verdict"), 60))
    if bad:
        return Seen(False, tr("no verdict recognised in {rows}.", lang, rows=bad))
    return Seen(True, tr("every verdict is readable: {verdicts}.", lang, verdicts=table.labelled(
        lambda r: _kind_name(_verdict_kind(r.get("verdict")), lang))))


def _calls(table: Table, lang: str) -> Seen:
    bad = table.bad(lambda r: (_as_int(r.get("calls")) or 0) >= 1, lambda r: short(r.get("calls"), 40))
    if bad:
        return Seen(False, tr("not a number of calls of at least 1: {rows}.", lang, rows=bad))
    return Seen(True, tr("calls: {calls}.", lang, calls=table.labelled(lambda r: r.get("calls"))))


def _billed(table: Table, lang: str) -> Seen:
    bad = table.bad(lambda r: (_as_number(r.get("billed")) or 0) > 0, lambda r: short(r.get("billed"), 40))
    if bad:
        return Seen(False, tr("not a positive number of tokens: {rows}.", lang, rows=bad))
    return Seen(True, tr("billed input: {billed}.", lang,
                         billed=table.labelled(lambda r: f"{_as_number(r.get('billed')):.0f}")))


def _spot_check(table: Table, lang: str) -> Seen:
    """Every demo merge request's row against the course's reviewer run again, each in a fresh sandbox (its cache
    cold: the highest bill the review can have, whatever order the learner ran them in): the same model calls, the
    same verdict, and a bill that billed() of that run's usage can give. A row copied from another merge request, or
    a verdict carried over, shows here."""
    paired = zip(table.rows, table.prs, strict=False)
    rows = sorted(((pr, row) for row, pr in paired if pr in DEMO_MRS), key=lambda pair: pair[0])
    if not rows:
        return Seen(None, tr("no row for a demo merge request to run again.", lang))
    checked = []
    for pr, target in rows:
        try:
            again = reviewed_afresh(pr, lang)
        except Exception as error:
            return Seen(None, tr("the course's reviewer failed on !{pr}: {error}", lang, pr=pr,
                                 error=short(error_text(error), 160)))
        wrong = _row_against(pr, target, again, lang)
        if wrong is not None:
            return wrong
        checked.append(pr)
    return Seen(True, tr("run again, !{prs} took the model calls and gave the verdicts your rows say, and billed() of "
                         "their usage can give your figures.", lang, prs=", !".join(str(pr) for pr in checked)))


def reviewed_afresh(pr: int, lang: str) -> Any:
    """The course's reviewer on demo merge request !pr in a fresh sandbox (its cache cold), in `lang`: the
    AgentResult, read only. What it is is fixed by the language, the model and the demo data, so it is run once per
    process for each of them (_review_in_a_fresh_sandbox), never kept as figures that could drift."""
    from course_agent.config import model_id

    return _review_in_a_fresh_sandbox(pr, lang, model_id(), demo_data_version())


@functools.cache
def _review_in_a_fresh_sandbox(pr: int, lang: str, model: str, demo_data: str) -> Any:
    """reviewed_afresh's run, keyed by what determines it (`model` and `demo_data` are read by the review itself: they
    are arguments so that a change of either runs it afresh). A review that raises is not kept."""
    from course_agent.gitlab import GitLabTools
    from course_agent.review import review, reviewer_toolbox
    from course_agent.safety import Verdict
    from course_sandbox import Sandbox

    with Sandbox() as sb:
        toolbox = reviewer_toolbox(GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project),
                                   approver=lambda request: Verdict(False, "exercise check", "a check never merges"))
        return review(pr, client=sb.client(), toolbox=toolbox, cache=True, language=lang)


def demo_data_version() -> str:
    """A digest of the demo GitLab's project (its merge requests, their branches and files): the data every review
    run again reads. Hashed once per process, and again only when a file's name, size or mtime changes (a grading
    asks for it once per review: a stat of each file, not a read)."""
    import course_sandbox.demo_gitlab

    root = Path(course_sandbox.demo_gitlab.__file__).parent / "project"
    files = {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}
    stamp = tuple((name, (st := path.stat()).st_size, st.st_mtime_ns) for name, path in files.items())
    if _DATA_VERSION.get("stamp") != stamp:
        digest = hashlib.sha256()
        for name, path in files.items():
            digest.update(name.encode() + b"\0" + path.read_bytes())
        _DATA_VERSION.update(stamp=stamp, version=digest.hexdigest())
    return _DATA_VERSION["version"]


_DATA_VERSION: dict = {}
"""demo_data_version's last digest, and the files' names, sizes and mtimes it was made from."""


def _row_against(pr: int, target: dict, again: Any, lang: str) -> Seen | None:
    """What is wrong with one row, against the same review run again; None when the row agrees."""
    calls, verdict = _as_int(target.get("calls")), _verdict_kind(target.get("verdict"))
    expected = _verdict_kind(again.text)
    if calls is None or calls < 1 or verdict is None:
        return None  # a count or a verdict that cannot be read: its own requirement says so, once
    if calls != again.iterations or verdict != expected:
        return Seen(False, tr("!{pr}: your row has {calls} model calls and \"{verdict}\"; run again: {again} model "
                              "calls and \"{expected}\".", lang, pr=pr, calls=target.get("calls"),
                              verdict=_kind_name(verdict, lang), again=again.iterations,
                              expected=_kind_name(expected, lang)))
    mine, (low, high) = _as_number(target.get("billed")), _billed_range(again.usage)
    if mine is None or mine <= 0:
        return None  # the billed column's own requirement says so
    if not low <= mine <= high:
        return Seen(False, tr("!{pr}: your row bills {mine} input tokens; the same review run again bills between "
                              "{low:.0f} (all of it read from the cache) and {high:.0f}: billed() of every response's "
                              "usage.", lang, pr=pr, mine=target.get("billed"), low=low, high=high))
    wrong = _wrong_formula(mine, again.usage)
    if wrong is not None:
        return Seen(False, tr("!{pr}: your row bills {mine} input tokens: the same review's usage summed with "
                              "{formula}; billed() weighs cache writes at 1.25 and cache reads at 0.1 of the input "
                              "price: {right:.0f}.", lang, pr=pr, mine=target.get("billed"),
                              formula=tr(wrong[0], lang), right=wrong[1]))
    return None


WRONG_FORMULAS = {
    N_("every input token at full price"): (1.0, 1.0, 1.0),
    N_("cache writes at full price"): (1.0, 1.0, 0.1),
    N_("cache reads at full price"): (1.0, 1.25, 1.0),
    N_("cache reads free"): (1.0, 1.25, 0.0),
    N_("the Batches API's half price, which does not compare"): (0.5, 0.625, 0.05),
}
"""Sums of a review's usage with the wrong weights (input, cache write, cache read), as a learner may write them."""


USAGE_FIELDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
"""The usage fields a bill weighs, in the order of WRONG_FORMULAS' weights."""


def _usage_rows(usage: list) -> list[dict]:
    """Each response's usage (an SDK object) as the dict billed() reads, a missing count as 0."""
    return [{name: getattr(u, name, None) or 0 for name in USAGE_FIELDS} for u in usage]


def _wrong_formula(mine: float, usage: list) -> tuple[str, float] | None:
    """(the wrong formula, billed()) when `mine` is what a wrong formula gives for the fresh run's usage, within 0.5%,
    and not what billed() gives: the fresh run is the exercise's own case (each merge request reviewed once)."""
    rows = _usage_rows(usage)
    right = billed(rows)
    if abs(mine - right) <= 0.005 * right:
        return None
    for name, weights in WRONG_FORMULAS.items():
        wrong = sum(w * row[field] for row in rows for w, field in zip(weights, USAGE_FIELDS, strict=True))
        if wrong != right and abs(mine - wrong) <= 0.005 * wrong:
            return name, right
    return None


def _billed_range(usage: list) -> tuple[float, float]:
    """What billed() of one review can be: at most as run in a fresh sandbox (everything written to the cache once),
    at least every input token read from the cache at 0.1x (the same review run again within the cache's lifetime);
    1% either way. A raw sum of input tokens, or one response's output, falls outside."""
    rows = _usage_rows(usage)
    sent = sum(sum(row.values()) for row in rows)
    return 0.1 * sent * 0.99, billed(rows) * 1.01


REQUIREMENTS = (
    Requirement("six_rows", N_("One row for each of !482 to !487"), _six_rows,
                N_("Loop over range(482, 488) and append one row per merge request, with its number first.")),
    Requirement("verdicts", N_("Every row has a verdict (approve, request changes, or the error named)"), _verdicts,
                N_("Take the verdict from the review's last line (\"Verdict: approve.\" or \"Verdict: request "
                   "changes.\"); when a review fails, name the error instead.")),
    Requirement("calls", N_("Every row counts at least one model call"), _calls,
                N_("result.iterations is how many times the loop called the model.")),
    Requirement("billed", N_("Every row has the billed input tokens (more than 0)"), _billed,
                N_("Sum over result.usage: input_tokens + 1.25 x cache_creation_input_tokens + 0.1 x "
                   "cache_read_input_tokens (the billed() function of this notebook).")),
    Requirement("spot_check", N_("Spot check: the same review run again in a fresh sandbox takes as many calls"),
                _spot_check,
                N_("Use the course's reviewer as it is, review(pr, client=client), and take calls from "
                   "result.iterations and the verdict from result.text of the same run.")),
)


def _costliest(table: Table) -> str:
    """The note of a table that passed: which review cost the most, and where to look."""
    billed, pr = max(((_as_number(r.get("billed")) or 0, _as_int(r.get("pr"))) for r in table.rows if r),
                     key=lambda c: c[0])
    return tr("Six reviews, each with its verdict, calls and billed input. The most expensive is !{pr}, with "
              "{billed} billed input tokens: compare its result.usage with the others' (what it read, and "
              "what it wrote to the cache at 1.25x).", table.lang, pr=pr, billed=f"{billed:.0f}")

WHAT = N_("`rows` is still empty. Take !482's row from result (its review above), review !483 to !487 with "
          "review(pr, client=client), append (pr, verdict, calls, billed input) for each, and run this cell again.")


KEPT = N_("Your loop keeps what notebooks 6 and 7 added: every stop reason handled on purpose (a refusal stops the "
          "run, saying why), and the gate before merge_pr.")
LOOP_RULES = [*[rule for rule in STOP_RULES if rule != "returns_answer"], "cut_result", "cached", "bill",
              "returns_answer"]
"""The loop of notebook 8, judged as its task says, with what earlier notebooks made a rule: notebooks 3-5's (the
cap included) and notebook 6's stop reasons; notebook 7's gate is judged with the grader's approvers (_the_gate)."""
LOOP_TASKS = {**{rule: KEPT for rule in STOP_RULES if rule not in EARLIER and rule != "returns_answer"},
    "cut_result": N_("Cut any tool result longer than LIMIT characters to its first LIMIT. Add a line that says it "
                     "was cut, which characters of the whole file it holds, and how to read the rest."),
    "cached": N_("Send cache_control={\"type\": \"ephemeral\"} with every request (the cache then follows the "
                 "growing conversation)."),
    "bill": N_("Collect every response.usage, and print billed(usage) however the run ends: with the answer, at the "
               "cap, or on an error."),
    "cap": N_("def review_with_cost(pr_number, approve=ask_human, max_iterations=20): your loop of notebook 7."),
}
BILL_HINT = N_("Where does every way out of your loop pass: the answer, the cap, an error? Print the bill there (the "
               "finally: of a try around the loop), from the usage of this run's responses only.")
BILL_ROW_HINT = ({"bill"}, BILL_HINT)
"""The bill's own hint, in place of step 2's general one (the cut and caching) when the bill alone is broken."""
STEP_1_RULES = [rule for rule in LOOP_RULES if rule not in ("cached", "bill")]
"""Step 1: the cut, with every rule the loop already keeps (notebooks 3-6's, and notebook 7's gate); caching and the
bill are step 2's, so a loop that does not cache or print a bill yet is not failed for them here."""


def check_exercise_8(rows: Any, language: str | None = None, *, step: int = 2) -> Report:
    """Notebook 8: your loop with the result cut and caching, check_exercise_8(review_with_cost), judged by the
    self-check's rules; or, the older form, `rows` with one (pr, verdict, calls, billed_input) per demo merge
    request (482-487), !482 reviewed again by the course's reviewer in a fresh sandbox as a spot check.

    step=1 checks the notebook's first step only (STEP_1_RULES: the cut, every earlier rule and the gate kept), and
    never keeps the loop; step=2, the default, checks the whole exercise (the cut, caching and the bill) and keeps a
    loop that passes. Any other step is an error, never a lighter check."""
    if step not in (1, 2):
        raise ValueError(f"step must be 1 or 2 (2, the default, checks the whole exercise), got {step!r}")
    if step == 1:
        if not callable(rows) and not is_placeholder(rows):
            raise ValueError("step=1 checks your loop: check_exercise_8(review_with_cost, step=1)")
        return grade_loop(8, None if is_placeholder(rows) else rows, language, STEP_1_RULES,
                          N_("Not done yet: cut oversized results and say so (see the rules marked ✘ or – below)."),
                          N_("Where does a tool's text come back in your loop? Cut it there to its first LIMIT "
                             "characters, and add a line that says it was cut, out of how many characters, and the "
                             "start that reads on."), tasks=LOOP_TASKS, title=N_("Exercise 8, step 1"),
                          more=_the_gate, keeps=False)
    if callable(rows):
        report = grade_loop(8, rows, language, LOOP_RULES,
                            N_("Not done yet: cut oversized results and say so, and cache the requests (see the rules "
                               "marked ✘ or – below)."),
                            N_("Cut a result longer than 20,000 characters to its first 20,000 and add a line saying "
                               "it was cut and how to read the rest; send cache_control={\"type\": \"ephemeral\"} "
                               "with every request, so the growing conversation is cached."), tasks=LOOP_TASKS,
                            more=_the_gate)
        return row_hint_alone(report, (BILL_ROW_HINT,))
    return check_rows(8, rows, language)


def _the_gate(loop: Callable, lang: str) -> tuple[list[Finding], BaseException | None, list[str]]:
    """Notebook 7's gate, still in the loop: exercise 7's requirements (each with its sentence of exercise 7's text),
    on the same runs with the same approvers."""
    grade, _ = gate_grade(8, loop, lang)
    where = tr("notebook {n}", lang, n=7)
    kept = [replace(f, where=where) for f in grade.findings if f.rule != "returns_answer"]  # a rule of its own here
    return kept, grade.raised, grade.hints


def check_rows(number: int, rows: Any, language: str | None = None) -> Report:
    """Exercise `number`'s table: one (pr, verdict, calls, billed_input) per demo merge request (482-487), !482
    reviewed again by the course's reviewer in a fresh sandbox as a spot check (notebook 9's exercise, and
    notebook 8's older form)."""
    g = Grade(number, language, REQUIREMENTS)
    if is_placeholder(rows):
        return g.not_done(WHAT)
    read = [_row(r) for r in rows] if isinstance(rows, (list, tuple)) else []
    if not any(read):
        g.all_broken(REQUIREMENTS, tr("expected a list of rows, got {kind}.", g.lang, kind=kind(rows)) if not read
                     else tr("expected rows of (pr, verdict, calls, billed input), as tuples or dicts; got {kind}.",
                             g.lang, kind=kind(rows[0])))
        return g.report()
    table = Table([row or {} for row in read], g.lang)
    g.run(REQUIREMENTS, table)
    return g.report(lambda: _costliest(table))
