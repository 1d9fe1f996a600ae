"""The exercises that change the loop (notebooks 3, 4, 6) are graded on the learner's own loop:
the notebook's unchanged loop is "not done yet", the reference passes, nothing passes unseen."""

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import learner_loops
import learner_styles as styles
import pytest

from course_agent import solutions
from course_selfcheck import check_loop
from course_agent.solutions import CELLS, OPTIONAL, reference, show_solution, solution_code, solution_module
from course_selfcheck.loop_exercises import (check_exercise_3, check_exercise_4, check_exercise_5, check_exercise_6,
                                             check_fallback)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_3_the_lessons_loop_unchanged_is_not_done_yet(language):
    report = check_exercise_3(learner_loops.lesson_loop(language), language=language)
    assert not report.ok and report.findings == [], report
    assert report.note.startswith("Not done yet" if language == "en" else "Напишите решение"), report


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_crashing_loop_is_reported_first_and_plainly(language):
    """The learner's TypeError leads the report, with its line; no rule is passed or judged on a loop that
    cannot run: each says it was not checked because of the exception."""
    for check in (check_exercise_3, check_exercise_4):
        report = check(learner_loops.crashing_loop, language=language)
        text = report.text()
        assert not report.ok and report.passed == [] and report.broken == [], text
        assert "TypeError" in text.splitlines()[0] and "'Message' object is not subscriptable" in report.note
        assert 'response["stop_reason"]' in report.note  # the learner's own line
        because = "because your code raised TypeError" if language == "en" else "выбросил исключение TypeError"
        assert all(because in f.detail for f in report.findings), text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_4_placeholder_is_not_done_yet(language):
    report = check_exercise_4(learner_loops.placeholder_loop, language=language)
    assert not report.ok and report.findings == [], report
    assert report.note.startswith("Not done yet" if language == "en" else "Напишите решение")


def test_exercise_4_passes_notebook_4s_own_run_all():
    """notebook 4's run_all waits 0.3 s in every call on top of the sandbox's 1 s reads: overlap is judged,
    not the wall time, so it passes; the plural and the figures say what was measured."""
    report = check_exercise_4(learner_loops.notebook_4_loop)
    assert report.ok, report
    assert "2 files" in report.findings[0].detail and "2 reads were in flight at once" in report.findings[0].detail


def test_exercise_3_in_other_styles():
    """Dict blocks, a while loop, an exception of the learner's own: a right message passes; one without the
    tools' names fails on its rule; a cap one iteration early is judged on its message, not called a crash."""
    right = learner_loops.dict_style_loop(lambda names: f"gave up: {len(names)} tool calls ({', '.join(set(names))})")
    assert check_exercise_3(right).ok
    russian = check_exercise_3(right, language="ru")
    assert russian.ok and russian.header().startswith("Упражнение 3"), russian
    vague = check_exercise_3(learner_loops.dict_style_loop(lambda names: "gave up: too many turns"))
    assert vague.broken == ["cap_message"] and "CapReached" not in vague.text().splitlines()[0]
    early = check_exercise_3(learner_loops.dict_style_loop(lambda names: f"{len(names)} tool calls: {names}",
                                                           off_by_one=True))
    assert early.findings and early.findings[0].status != "not_checked", early


def test_exercise_3_wants_the_tool_calls_named_in_the_caps_error():
    assert check_exercise_3(solutions.review_pull_request).ok
    unchanged = check_exercise_3(learner_loops.make_loop())  # raises "too many iterations"
    assert not unchanged.ok and unchanged.note.startswith("Not done yet")
    assert unchanged.findings[0].status == "broken" and "get_diff" in unchanged.findings[0].detail


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_3s_printed_hint_starts_with_the_question_and_escalates(language, monkeypatch):
    """Instructor read 62, F9: the first failed check prints the gentlest hint (the notebook's Hint 1, a question), the
    next ones say more, and only the third says what to write (Hint 3); a passed check or "not done yet" is no failed
    try and prints none."""
    from course_selfcheck.exercises import exercise_3

    monkeypatch.setattr(exercise_3, "FAILED_CHECKS", [0])
    turns = learner_loops.dict_style_loop(lambda names: "gave up: 2 tool calls")  # counts turns, names no tool
    assert check_exercise_3(learner_loops.lesson_loop(language), language=language).hints == []
    printed = [check_exercise_3(turns, language=language).hints[0] for _ in range(4)]
    first, second, third = (("When the loop reaches `raise`", "Each response goes into `messages` whole",
                              "Count the tool_use blocks") if language == "en" else
                            ("когда цикл доходит до `raise`", "каждый ответ попадает в `messages` целиком",
                             "прямо перед raise посчитайте блоки tool_use"))
    assert printed[0].startswith(first) and "?" in printed[0] and "tool_use" not in printed[0], printed
    assert printed[1].startswith(second) and printed[2].startswith(third) and printed[3] == printed[2], printed
    right = learner_loops.dict_style_loop(lambda names: f"gave up: {len(names)} tool calls ({', '.join(set(names))})")
    assert check_exercise_3(right, language=language).ok and exercise_3.FAILED_CHECKS == [4]


def test_exercise_4_sees_whether_the_calls_ran_at_the_same_time():
    assert check_exercise_4(reference(4)["review_concurrently"]).ok
    assert check_exercise_4(styles.async_loop).ok  # asyncio.gather over threads counts too
    one_by_one = check_exercise_4(solutions.review_pull_request)
    assert not one_by_one.ok and one_by_one.broken == ["concurrent"]
    assert "no two reads were in flight at once (2 or more were expected)" in one_by_one.findings[0].detail
    russian = check_exercise_4(solutions.review_pull_request, language="ru")
    assert russian.broken == ["concurrent"] and "одно за другим" in russian.findings[0].detail


def test_every_reference_solution_is_shown_folded_and_never_run_by_the_notebook():
    """show_solution(N) shows the reference folded (closed <details>, text that says how to see it), for
    every exercise 1-9; its module (or its cell) is the one the tests below run."""
    for n in range(1, 10):
        shown = show_solution(n)
        assert shown._repr_html_().startswith("<details><summary>Reference solution (spoiler)</summary>")
        assert "open" not in shown._repr_html_().split(">")[0]
        assert f"print(solution_code({n}))" in repr(shown)
        if n in CELLS:  # a notebook cell: what a learner of that notebook writes, in their terms
            assert ("def review" in solution_code(n) or "rows.append" in solution_code(n))
            assert "course_agent.i18n" not in solution_code(n)
        else:  # 1, 2, 5: a plain cell at its notebook's level; the module beside it runs outside a notebook
            assert "solve(" not in solution_code(n) and "course_agent" not in solution_code(n)
            assert callable(solution_module(n).solve)
    with pytest.raises(ValueError):
        solution_code(10)


def test_the_folded_solution_speaks_russian(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    shown = show_solution(4)
    assert shown._repr_html_().startswith("<details><summary>Эталонное решение (спойлер)</summary>")
    assert repr(shown) == "Эталонное решение упражнения 4 (спойлер) свёрнуто: его покажет print(solution_code(4))."


def test_the_loop_references_pass_their_checks_through_the_registry():
    assert check_exercise_3(reference(3)["review_pull_request"]).ok
    assert check_exercise_6(reference(6)["review_every_stop"]).ok
    assert check_fallback(reference(6, optional=True)["review_every_stop"]).ok


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_5_grows_the_loop_of_exercise_4(language):
    """Exercise 5 is the learner's loop of exercise 4 grown: the reference passes; exercise 4's loop as it is (a tool's
    exception ends the run) is broken on notebook 5's rule alone; the carried stub not yet grown is "not done yet"."""
    assert check_exercise_5(reference(5, language)["review_safely"], language=language).ok
    carried = check_exercise_5(reference(4, language)["review_concurrently"], language=language)
    assert carried.broken == ["says_what_failed", "errors_are_results", "unknown_tool"] and not carried.ok, carried.text()
    assert "TypeError" in carried.findings[0].detail and "404" in carried.findings[3].detail, carried.text()
    empty = check_exercise_5(learner_loops.placeholder_loop, language=language)
    assert not empty.ok and empty.findings == [], empty.text()


def test_exercise_5_a_loop_that_catches_only_gitlabs_errors_is_seen():
    """A call without its arguments (a TypeError, not a GitLab error) must come back as a result too."""
    import gitlab

    namespace = reference(5)
    run_tool = namespace["run_tool"]

    def tool_result(call) -> dict:
        try:
            return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
        except gitlab.GitlabError as error:
            return {"type": "tool_result", "tool_use_id": call.id, "is_error": True, "content": str(error)}

    namespace["tool_result"] = tool_result
    report = check_exercise_5(namespace["review_safely"])
    assert report.broken == ["says_what_failed", "errors_are_results", "unknown_tool"], report.text()
    assert "without its arguments" in report.findings[3].detail


def _grown_5(result_of_failure) -> dict:
    """Reference 5 with its failure result written another way: result_of_failure(call, error, results_so_far)."""
    namespace = reference(5)
    run_tool = namespace["run_tool"]

    def run_all(calls):  # the turn's calls at once, as notebook 4's: one try around the whole turn
        try:
            with ThreadPoolExecutor() as pool:
                return list(pool.map(lambda call: {"type": "tool_result", "tool_use_id": call.id,
                                                   "content": run_tool(call.name, call.input)}, calls))
        except Exception as error:
            return result_of_failure(calls, error)

    namespace["run_all"] = run_all
    return namespace


def test_exercise_5_a_failure_says_its_type_and_message_and_stays_its_own():
    """Attack 11: a result that says only "the tool failed" (or only the message), and one try around the whole turn
    (every call of the turn sent back as that one error) pass notebook 5's rule, not exercise 5's text."""
    vague = _grown_5(lambda calls, error: [{"type": "tool_result", "tool_use_id": c.id, "is_error": True,
                                            "content": "The tool failed, try something else."} for c in calls])
    report = check_exercise_5(vague["review_safely"])
    assert "says_what_failed" in report.broken and "the error's type" in report.findings[0].detail, report.text()
    message_only = _grown_5(lambda calls, error: [{"type": "tool_result", "tool_use_id": c.id, "is_error": True,
                                                   "content": str(error)} for c in calls])
    assert "says_what_failed" in check_exercise_5(message_only["review_safely"]).broken
    whole_turn = _grown_5(lambda calls, error: [{"type": "tool_result", "tool_use_id": c.id, "is_error": True,
                                                 "content": f"{type(error).__name__}: {error}"} for c in calls])
    report = check_exercise_5(whole_turn["review_safely"])
    assert report.broken == ["says_what_failed", "errors_are_results"], report.text()
    assert "keep their results" in report.findings[0].detail, report.text()
    # the hint names this mistake, and the rule broken by the same cause says so instead of repeating it
    assert "inside the function each thread runs" in report.hints[0], report.text()
    assert "What happened: the same cause as requirement 1" in report.text(), report.text()
    assert report.text().count("The task says") == 1, report.text()


def test_exercise_4_an_order_failure_hints_at_as_completed():
    """Results gathered with as_completed come back in the order the calls finish: the hint says so, not the general
    "where do the calls run one after another"."""
    from concurrent.futures import as_completed

    namespace = reference(4)
    tool_result = namespace["tool_result"]

    def run_all(calls):
        with ThreadPoolExecutor() as pool:
            return [f.result() for f in as_completed([pool.submit(tool_result, c) for c in calls])]

    namespace["run_all"] = run_all
    report = check_exercise_4(namespace["review_concurrently"])
    assert report.broken == ["concurrent"], report.text()
    assert report.hints[0].startswith("Keep the results in the calls' order: as_completed"), report.text()


@pytest.mark.parametrize("number, loop", [(3, "review_pull_request"), (4, "review_concurrently"),
                                          (5, "review_safely")])
def test_a_passed_loop_exercise_says_done(number, loop):
    check = {3: check_exercise_3, 4: check_exercise_4, 5: check_exercise_5}[number]
    report = check(reference(number, "ru")[loop], language="ru")
    assert report.ok and report.note.startswith("Готово: все требования проверены и выполнены. "), report.text()


def test_a_history_shared_by_every_call_of_the_loop_is_seen():
    """Attack 11: `messages=[]` as a default argument (or a module-level list): each review goes on from the last."""
    namespace = reference(6)
    source = solution_code(6).replace("def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:\n"
                                      "    messages = [",
                                      "def review_every_stop(pr_number: int, max_iterations: int = 20, messages=[]) "
                                      "-> str:\n    messages += [")
    assert "messages=[]" in source
    exec(compile(source, "<shared history>", "exec"), namespace)
    report = check_exercise_6(namespace["review_every_stop"])
    assert "whole_response" in report.broken, report.text()
    assert "default argument" in next(f.detail for f in report.findings if f.rule == "whole_response")


def test_a_loop_that_returns_its_history_or_the_message_does_not_return_the_answer():
    for returned in ("messages", "response", "response.content"):
        namespace = reference(3)
        source = solution_code(3)
        last_return = source.rindex("return ")
        line_end = source.index("\n", last_return)
        exec(compile(source[:last_return] + f"return {returned}" + source[line_end:], "<returns>", "exec"), namespace)
        report = check_loop(namespace["review_pull_request"], rules="returns_answer")
        assert report.broken == ["returns_answer"], (returned, report.text())


def test_exercise_6_is_the_stop_reason_rules_and_a_placeholder_is_not_done():
    stops = check_exercise_6(solutions.review_pull_request)  # stops at the first refusal, saying why: no fallback
    assert stops.ok, stops
    empty = check_exercise_6(None, language="ru")
    assert not empty.ok and empty.passed == [] and empty.note.startswith("Напишите решение")
    broken = check_exercise_6(learner_loops.make_loop(breaks="pause_turn"))
    assert broken.broken == ["pause_turn"]


def test_a_client_the_loop_builds_on_its_first_call_is_pointed_at_every_later_scenario():
    """A loop that builds its client once, on its first call, and keeps it (a cached factory, a lazy
    global) builds it during the grader's first scenario; by the next ones it is an old object (the
    collection below makes sure), and must still be pointed at each scenario's own sandbox; after the
    check it is the loop's own client again, not one pointed at a stopped sandbox."""
    import gc

    import anthropic

    kept = {}

    def loop(pr):
        if "client" not in kept:
            kept["client"] = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=styles.DEAD, max_retries=0)
            gc.collect()  # now in the oldest generation, as a client kept for minutes would be
        history = [{"role": "user", "content": f"Please review MR !{pr}"}]
        for _ in range(15):
            response = kept["client"].messages.create(model=styles.MODEL, max_tokens=8000, system=styles.SYSTEM,
                                                      tools=styles.TOOL_SPECS, messages=history)
            state, text = styles._decide(response, history)
            if state == "done":
                return text
        raise RuntimeError("iteration limit")

    report = check_loop(loop, rules=["pause_turn", "refusal", "cut_tool_call", "returns_answer", "cap"])
    assert [f.status for f in report.findings].count("not_checked") == 0, report
    assert report.ok, report
    # once the check is over, the loop's own client talks where the loop built it to talk again
    assert (str(kept["client"].base_url).rstrip("/"), kept["client"].api_key) == (styles.DEAD, "sk-ant-not-a-key")
    kept.clear()
    report = check_exercise_3(lambda pr, max_iterations=20: loop(pr))
    assert all(f.status != "not_checked" for f in report.findings[1:]), report


def test_exercise_4_counts_reads_that_started_before_its_first_look():
    """The watcher counts the reads the sandbox holds right now: two reads that began before its first look
    (a fast loop, in-process) still count as two in flight."""
    import requests

    from course_selfcheck.exercises.exercise_4 import FILES, SLOW_READ, InFlight
    from course_selfcheck.scenario import Sandboxes

    with Sandboxes() as sandboxes:
        watch = InFlight(sandboxes)
        sandbox = watch.take()
        sandbox.faults.slow(SLOW_READ, times=2, path=f"/api/v4/projects/7{FILES}")
        url = f"{sandbox.env()['GITLAB_URL']}/api/v4/projects/7{FILES}README.md/raw?ref=main"
        reads = [threading.Thread(target=requests.get, args=(url,),
                                  kwargs={"headers": {"PRIVATE-TOKEN": sandbox.gitlab_token}, "timeout": 10})
                 for _ in range(2)]
        for read in reads:
            read.start()
        for read in reads:
            read.join()
        watch.give_back(sandbox)
    assert watch.most == 2


@pytest.mark.parametrize("language, words", [("en", "takes no such parameter"), ("ru", "такого параметра у него нет")])
def test_exercise_3_says_its_own_call_needs_max_iterations_instead_of_blaming_a_crash(language, words):
    def review(pr):  # a loop with its cap inside: right for check_loop, but exercise 3 sets the cap
        return styles.review_with(pr, styles.claude)

    report = check_exercise_3(review, language=language)
    assert report.raised is None and words in report.findings[0].detail, report.text()
    assert report.findings[0].status == "broken"


def test_the_fallback_is_exercise_6s_optional_part_with_a_check_of_its_own():
    """Exercise 6 asks a refusal to stop the run, saying why; the optional part (notebook 6's "Go deeper") asks the
    fallback model once, every other rule of exercise 6 kept. A loop without the fallback passes exercise 6 and
    fails the optional check only on the fallback; a loop with it passes both."""
    no_fallback = solutions.review_pull_request  # every stop reason handled, a refusal ends the run
    deeper = check_fallback(no_fallback, language="ru")
    assert deeper.broken == ["fallback"] and deeper.header().startswith("Упражнение 6, раздел «Глубже» (запасная модель)"), deeper
    with_it = reference(6, optional=True)["review_every_stop"]
    assert check_exercise_6(with_it).ok and check_fallback(with_it).ok
    silent = check_exercise_6(learner_loops.make_loop(breaks="refusal_said"))  # stops at a refusal without why
    assert silent.broken == ["refusal_said"], silent
    assert "fallback_model" in solution_code(6, optional=True) and "fallback_model" not in solution_code(6)
    with pytest.raises(ValueError):
        solution_code(8, optional=True)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_solution_7_is_the_plain_gate_and_the_concurrent_one_is_its_optional_part(language):
    """The task says a plain loop over the calls is fine: the reference is that loop, `for call in calls`, and so is
    solution 8 built on it; the gate before the thread pool (nb7's "Go further") is the optional part's solution.
    Each passes exercise 7's check (instructor read 61, F6)."""
    from course_selfcheck.exercises import check_exercise_7

    plain, further = solution_code(7, language), solution_code(7, language, optional=True)
    for code in (plain, solution_code(8, language)):
        assert "for call in [block for block in response.content" in code and "ThreadPoolExecutor" not in code
        assert "gate_then_run" not in code and "run_all" not in code
    assert "def gate_then_run(" in further and "ThreadPoolExecutor" in further
    assert check_exercise_7(reference(7, language)["review_with_gate"], language=language).ok
    assert check_exercise_7(reference(7, language, optional=True)["review_with_gate"], language=language).ok


def test_passed_names_the_loop_that_passed_in_this_kernel_and_no_other():
    """Notebook 7's "gate at work" runs the learner's loop only once it has passed the check (start_from gives exercise
    6's loop the stub's `approve`, so taking an approver says nothing); until then, and for a loop defined again, the
    reference's gate runs there (instructor read 62, F1)."""
    from course_selfcheck.exercises import check_exercise_7, passed

    ungated, gated = reference(6)["review_every_stop"], reference(7)["review_with_gate"]
    assert not passed(7, gated)
    assert not check_exercise_7(lambda pr_number, approve=None: ungated(pr_number), language="en").ok
    assert not passed(7, gated) and not passed(7, ungated)
    assert check_exercise_7(gated, language="en").ok
    assert passed(7, gated) and not passed(6, gated) and not passed(7, reference(7)["review_with_gate"])


# ---- the references a Russian learner reads (#36) ---------------------------------------------------------------

RUSSIAN_TERMS = {"pull", "request", "merge", "main", "user", "True", "GitLab", "MODEL", "TOOLS", "LIMIT", "DANGEROUS", "REVIEW_RULES"}
"""Latin words a Russian reference may keep in its prose: the merge request's own name, and the names of code."""


def _prose_of(code: str) -> list[str]:
    """The comments and string literals of a cell: what a learner reads as words, not as code."""
    import io
    import tokenize

    return [token.string for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type in (tokenize.COMMENT, tokenize.STRING)]


@pytest.mark.parametrize("n, optional", [*((n, False) for n in CELLS), *((n, True) for n in OPTIONAL)])
def test_the_russian_reference_is_the_same_code_with_russian_words(n, optional):
    """Shown in a Russian notebook (show_solution, start_from), a reference is its English twin token for token,
    with its comments, docstrings and messages in Russian."""
    from test_notebooks import code_shape

    english, russian = solution_code(n, "en", optional), solution_code(n, "ru", optional)
    assert russian != english and code_shape(russian) == code_shape(english)
    names = {token for token in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", english) if "_" in token or token.isupper()}
    shared = set(_prose_of(english))  # a literal both twins hold is code ("role", "tool_use"), not prose
    for piece in (piece for piece in _prose_of(russian) if piece not in shared):
        words = re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`|\{[^}]*\}|\b[A-Za-z_]+\([^)]*\)", " ", piece))
        english_words = [w for w in words if w not in RUSSIAN_TERMS and w not in names and not re.search(
            rf"\b{w}[_.(=]|[_.]{w}\b", piece)]
        assert not english_words, (n, piece, english_words)


def test_a_russian_notebook_shows_and_starts_from_the_russian_reference(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert "Проверь merge request" in show_solution(6).code and solution_code(6) == solution_code(6, "ru")
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    assert "Review merge request" in show_solution(6).code


@pytest.mark.parametrize("n, name, check, optional", [(3, "review_pull_request", check_exercise_3, False),
                                                      (4, "review_concurrently", check_exercise_4, False),
                                                      (5, "review_safely", check_exercise_5, False),
                                                      (6, "review_every_stop", check_exercise_6, False),
                                                      (6, "review_every_stop", check_fallback, True)])
def test_the_russian_references_pass_their_checks_in_russian(n, name, check, optional):
    report = check(reference(n, "ru", optional)[name], language="ru")
    assert report.ok, str(report)


@pytest.mark.parametrize("n, name", [(7, "review_with_gate"), (8, "review_with_cost")])
def test_the_russian_gate_and_cost_references_pass_in_russian(n, name, capsys):
    from course_selfcheck.exercises import check_exercise_7, check_exercise_8

    report = {7: check_exercise_7, 8: check_exercise_8}[n](reference(n, "ru")[name], language="ru")
    assert report.ok, str(report)


def test_exercise_5_a_tool_that_reads_its_input_its_own_way_names_its_own_error():
    """A run_tool that reads the path as tool_input["path"] fails with a KeyError, not a TypeError: its result names
    that type and message, which is what the task asks."""
    namespace = reference(5)
    original = namespace["run_tool"]

    def run_tool(name, tool_input):
        if name == "read_file":
            return namespace["read_file"](tool_input["path"], tool_input.get("ref", "main"))
        return original(name, tool_input)

    namespace["run_tool"] = run_tool
    report = check_exercise_5(namespace["review_safely"])
    assert report.ok, report.text()


# ---- exercise 6 in two steps: step 1 (pause_turn, stop_sequence, max_tokens), then step 2 (the whole check) ---------

def step_one_loop(breaks: str = ""):
    """review_every_stop as a learner leaves it after step 1: a branch for end_turn, tool_use, pause_turn,
    stop_sequence and max_tokens, and none yet for what step 2 adds (a refusal, a full context window, an unknown
    value: their text is passed off as the answer). `breaks` names the step-1 stop it gets wrong."""
    from course_agent.solutions import MODEL, REVIEW_RULES, TOOLS, complete_loop, run_tool

    def review_every_stop(pr_number: int, max_iterations: int = 20) -> str:
        complete_loop.project = learner_loops.project
        messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
        for _ in range(max_iterations):
            response = learner_loops.client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES,
                                                            tools=TOOLS, messages=messages)
            text = "\n".join(block.text for block in response.content if block.type == "text")
            stop = response.stop_reason
            if stop == "max_tokens" and breaks == "cut_tool_call":
                stop = "tool_use"  # the cut call runs as if it were whole
            if stop == "stop_sequence" and breaks == "stop_sequence":
                stop = "pause_turn"  # the text so far is not returned: the loop goes on asking
            match stop:
                case "end_turn" | "stop_sequence":
                    return text
                case "pause_turn":
                    messages.append({"role": "assistant", "content": response.content})
                    if breaks == "pause_turn":
                        messages.append({"role": "user", "content": "continue"})
                case "max_tokens":
                    raise RuntimeError("The answer was cut: increase max_tokens (the cut tool call was not run)")
                case "tool_use":
                    messages.append({"role": "assistant", "content": response.content})
                    calls = [block for block in response.content if block.type == "tool_use"]
                    with ThreadPoolExecutor() as pool:  # at once, in order (notebook 4)
                        results = list(pool.map(lambda block: run_tool(block.name, block.input), calls))
                    messages.append({"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": block.id, **result}
                        for block, result in zip(calls, results)]})
                case _:  # step 2 is not done yet
                    return text
        raise RuntimeError(f"No answer after {max_iterations} iterations")

    return review_every_stop


STEP_1 = ["whole_response", "one_message", "errors_are_results", "cap", "pause_turn", "cut_tool_call", "cut_answer",
          "stop_sequence", "returns_answer"]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_6_step_1_is_its_own_rules_and_the_reference_passes_it(language):
    report = check_exercise_6(reference(6, language)["review_every_stop"], language=language, step=1)
    assert report.ok and [f.rule for f in report.findings] == STEP_1, report.text()
    assert report.header().startswith("Exercise 6, step 1: 9 passed" if language == "en"
                                      else "Упражнение 6, шаг 1: выполнено — 9"), report.header()


def test_exercise_6_a_loop_grown_through_step_1_only_passes_step_1_and_not_the_whole_exercise():
    grown = step_one_loop()
    first = check_exercise_6(grown, step=1)
    assert first.ok, first.text()
    whole = check_exercise_6(grown)
    assert not whole.ok and set(whole.broken) == {"context_full", "refusal_said", "unknown_stop"}, whole.text()
    assert set(whole.passed) >= set(STEP_1), whole.text()


@pytest.mark.parametrize("loop, rule", [
    (step_one_loop("pause_turn"), "pause_turn"), (step_one_loop("stop_sequence"), "stop_sequence"),
    (step_one_loop("cut_tool_call"), "cut_tool_call"), (learner_loops.make_loop(breaks="pause_turn"), "pause_turn"),
    (learner_loops.make_loop(breaks="cut_tool_call"), "cut_tool_call")])
def test_exercise_6_step_1_fails_a_loop_that_breaks_a_step_1_stop_and_says_which(loop, rule):
    report = check_exercise_6(loop, step=1)
    assert not report.ok and rule in report.broken, report.text()
    assert report.note.startswith("Not done yet: handle pause_turn, stop_sequence and max_tokens"), report.text()
    broken = next(f for f in report.findings if f.rule == rule)
    assert broken.task, report.text()  # the sentence of step 1 the rule comes from
    said = check_exercise_6(loop, language="ru", step=1)
    assert said.note.startswith("Пока не сделано: обработайте pause_turn, stop_sequence и max_tokens"), said.text()
    assert next(f for f in said.findings if f.rule == rule).task.startswith("При "), said.text()


def test_exercise_6_step_1_keeps_nothing_for_notebook_7_and_the_whole_check_does(monkeypatch):
    """Notebook 7 grows the loop that passed the whole exercise: step 1 passed keeps nothing."""
    from course_selfcheck.exercises import loops

    kept = []
    monkeypatch.setattr(loops, "keep", lambda number, loop, text=None: kept.append(number))
    loop = reference(6)["review_every_stop"]
    assert check_exercise_6(loop, step=1).ok and kept == []
    assert check_exercise_6(loop).ok and kept == [6]


@pytest.mark.parametrize("language, title, note", [("en", "Exercise 6, step 1: not done yet", "Not done yet: write"),
                                                   ("ru", "Упражнение 6, шаг 1: пока не сделано", "Напишите решение")])
def test_exercise_6_step_1_untouched_is_not_done_yet(language, title, note):
    for loop in (None, learner_loops.placeholder_loop):
        report = check_exercise_6(loop, language=language, step=1)
        assert not report.ok and report.findings == [] and report.passed == [], report.text()
        assert report.text().startswith(title) and note in report.text(), report.text()
    with pytest.raises(ValueError):
        check_exercise_6(None, step=3)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_paused_response_appended_twice_is_seen(language):
    """Instructor read 63: a loop that appends every response before its match, and the paused one again in the
    pause_turn branch (as step 1's "append the response" read literally gives), sends it twice."""
    namespace = reference(6)
    source = solution_code(6)
    before_match = "        match response.stop_reason:\n"
    source = source.replace(before_match, '        messages.append({"role": "assistant", "content": response.content})\n'
                            + before_match)
    tool_branch = '                messages.append({"role": "assistant", "content": response.content})\n' \
                  '                calls = '
    assert source.count(before_match) == 1 and tool_branch in source
    source = source.replace(tool_branch, "                calls = ")
    exec(compile(source, "<paused twice>", "exec"), namespace)
    report = check_exercise_6(namespace["review_every_stop"], language=language)
    assert report.broken == ["pause_turn"], report.text()
    said = next(f.detail for f in report.findings if f.rule == "pause_turn")
    assert ("twice" if language == "en" else "дважды") in said, said
    assert report.hints and ("pause_turn" in report.hints[0] and ("once" if language == "en" else "один раз")
                             in report.hints[0]), report.hints  # the hint speaks of this row (native read 65, N2)
    once = reference(6)  # appended once, before the match: right
    exec(compile(source.replace('            case "pause_turn":  # the same turn goes on: append the response, and no '
                                'new user message\n                messages.append({"role": "assistant", "content": '
                                'response.content})\n',
                                '            case "pause_turn":\n                continue\n'), "<once>", "exec"), once)
    assert check_exercise_6(once["review_every_stop"], language=language).ok
