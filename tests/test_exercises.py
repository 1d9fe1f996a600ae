"""The exercise graders: an untouched placeholder is "not done yet" (nothing passed), the reference
solution passes, and each requirement broken on purpose is reported broken."""

import time

import anthropic
import gitlab
import pytest

from course_selfcheck.exercises import (check_exercise_1, check_exercise_2, check_exercise_5, check_exercise_7,
                                           check_exercise_8)
from course_selfcheck.report import BROKEN, NOT_CHECKED, PASSED
from course_agent.config import model_id
from course_agent.gitlab import GitLabTools
from course_agent.safety import Decision, Policy, Verdict
from course_sandbox import Sandbox
from course_agent.solutions import exercise_01, exercise_02, exercise_05, gate_policy, six_reviews

GRADER_SECONDS = 2.0


@pytest.fixture(scope="module")
def sb():
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def client(sb):
    return sb.client(max_retries=0)


@pytest.fixture(scope="module")
def project(sb):
    return gitlab.Gitlab(sb.gitlab_url, private_token=sb.gitlab_token).projects.get(sb.project)


def status(report, rule):
    return next(f.status for f in report.findings if f.rule == rule)


def assert_not_done(report, language="en"):
    """One plain "not done yet" line, what to do first, no verdict on any requirement, and no hint: the notebook's
    Hints 1-3 come first, a check's specific hint after a try (instructor read 61, F7)."""
    assert not report.ok
    if language == "en":
        assert report.note.startswith("Not done yet")
    else:  # the header says it: the note goes straight to what to do
        assert "пока не сделано" not in report.note.lower(), report.note
    assert report.header().endswith("not done yet" if language == "en" else "пока не сделано"), report.text()
    assert report.findings == [] and not report.hints, report.text()
    assert "Hint" not in report.text() and "Подсказка" not in report.text()
    assert "passed" not in report.text() and "broken" not in report.text()


def assert_only_broken(report, *rules):
    """Exactly these requirements are broken, every other one passed."""
    assert not report.ok
    broken = {f.rule for f in report.findings if f.status == BROKEN}
    assert broken == set(rules), report.text()
    assert all(f.status == PASSED for f in report.findings if f.rule not in rules), report.text()
    assert report.hints and not report.note.startswith("Not done yet")


def timed(check, *args, **kwargs):
    """The grader's report; it must take under GRADER_SECONDS (the better of two runs, on a busy machine)."""
    elapsed = []
    for _ in range(2):
        start = time.perf_counter()
        report = check(*args, **kwargs)
        elapsed.append(time.perf_counter() - start)
        if elapsed[-1] < GRADER_SECONDS:
            break
    assert min(elapsed) < GRADER_SECONDS, f"{check.__name__} took {min(elapsed):.2f} s"
    return report


# ---------------------------------------------------------------- exercise 1


def count(client, stop_sequences=("5",), question="Count from 1 to 10."):
    return client.messages.create(model=model_id(), max_tokens=200, stop_sequences=list(stop_sequences),
                                  messages=[{"role": "user", "content": question}])


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_1_placeholder_is_not_done(language):
    assert_not_done(check_exercise_1(None, language=language), language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_1_reference_solution_passes(client, language):
    report = timed(check_exercise_1, exercise_01.solve(client, language), language=language)
    assert report.ok, report.text()
    assert report.title == ("Exercise 1" if language == "en" else "Упражнение 1")
    assert all(f.detail for f in report.findings)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_1_other_styles(client, language):
    """A stream's final message, with_options, a Russian question: right answers pass; a stop at "6" fails on
    its rule, in both languages."""
    with client.messages.stream(model=model_id(), max_tokens=200, stop_sequences=["5"],
                                messages=[{"role": "user", "content": "Посчитай от 1 до 10."}]) as stream:
        streamed = stream.get_final_message()
    assert check_exercise_1(streamed, language=language).ok
    assert check_exercise_1(count(client.with_options(timeout=30)), language=language).ok
    raw = client.messages.with_raw_response.create(model=model_id(), max_tokens=200, stop_sequences=["5"],
                                                   messages=[{"role": "user", "content": "Count from 1 to 10."}])
    assert check_exercise_1(raw, language=language).ok
    six = check_exercise_1(count(client, stop_sequences=("6",)), language=language)
    assert "stop_sequence" in six.broken and "stop_reason" not in six.broken


@pytest.mark.parametrize("question", ["Count to 10.", "Count from one to ten", "List the numbers from 1 to 10.",
                                      "Please count up to ten.", "Write out the numbers 1 through 10",
                                      "Посчитай до десяти.", "Сосчитай от одного до десяти", "Перечисли числа от 1 до 10"])
def test_exercise_1_passes_however_the_count_is_asked(client, question):
    """The instructor's read: "Count to 10." got the sandbox's canned reply, and the check blamed the learner."""
    assert check_exercise_1(count(client, question=question)).ok, question


@pytest.mark.parametrize("question", ["Count from 1 to 100.", "Count to 20.", "Count from 2 to 10."])
def test_exercise_1_another_count_is_not_the_task(client, question):
    assert not check_exercise_1(count(client, question=question)).ok, question


def test_exercise_1_accepts_a_plain_dict(client):
    assert check_exercise_1(count(client).model_dump()).ok


def test_exercise_1_a_dict_written_by_hand_is_not_a_response():
    """Nothing was asked of the model: a dict with the right fields, but no id and no usage, is not passed."""
    made_up = {"role": "assistant", "content": [{"type": "text", "text": "1, 2, 3, 4, "}],
               "stop_reason": "stop_sequence", "stop_sequence": "5"}
    report = check_exercise_1(made_up)
    assert not report.ok and "no id and no usage" in report.findings[0].detail, report.text()


def test_exercise_1_a_stop_sequence_with_its_space_stops_before_5_too(client):
    assert check_exercise_1(count(client, [" 5"])).ok


def test_exercise_1_wrong_stop_sequence(client):
    report = check_exercise_1(count(client, ["6"]))
    assert_only_broken(report, "stop_sequence", "text")
    assert "'6'" in next(f.detail for f in report.findings if f.rule == "stop_sequence")


def test_exercise_1_no_stop_sequence(client):
    response = client.messages.create(model=model_id(), max_tokens=200,
                                      messages=[{"role": "user", "content": "Count from 1 to 10."}])
    report = check_exercise_1(response)
    assert_only_broken(report, "stop_reason", "stop_sequence", "text")
    # one cause, said once: the task under the headline, requirements 2 and 3 pointing at 1, one hint
    assert report.text().count("The task says") == 1 and report.text().count("the same cause as requirement 1") == 2
    assert "The task says (requirements 1–3): " in report.text(), report.text()  # the rows it stands for
    assert len(report.hints) == 1 and "stop_sequences=" in report.hints[0], report.text()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_1_a_budget_that_ran_out_says_raise_max_tokens(client, language):
    """max_tokens=5 with the right stop sequence: the budget (thinking included) ran out first, and the one hint is to
    raise max_tokens, not to pass the stop sequence the learner passed."""
    response = client.messages.create(model=model_id(), max_tokens=5, stop_sequences=["5"],
                                      messages=[{"role": "user", "content": "Count from 1 to 10."}])
    report = check_exercise_1(response, language=language)
    assert_only_broken(report, "stop_reason", "stop_sequence", "text")
    assert len(report.hints) == 1 and "max_tokens" in report.hints[0] and "stop_sequences=" not in report.hints[0]
    assert "'max_tokens'" in report.findings[0].detail, report.text()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_1_a_message_built_by_hand_is_not_a_response(client, language, monkeypatch):
    """Offline every response comes from the sandbox: a Message built by hand (with an id and usage, the SDK's own
    type) or a real one whose text or stop was changed afterwards is not what the API returned."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    real = count(client)
    assert check_exercise_1(real, language=language).ok
    assert check_exercise_1(real.model_copy(), language=language).ok
    forged = anthropic.types.Message(
        id="msg_01XFDUDYJgAACzvnptvVoYEL", type="message", role="assistant", model=model_id(),
        content=[{"type": "text", "text": "1, 2, 3, 4, "}], stop_reason="stop_sequence", stop_sequence="5",
        usage={"input_tokens": 14, "output_tokens": 12})
    changed = real.model_copy(update={"content": [{"type": "text", "text": "1, 2, 3, 4,"}]})
    earlier = count(client, stop_sequences=("7",))  # a real id with a stop it never had
    moved = earlier.model_copy(update={"stop_sequence": "5", "content": real.content})
    for fake, word in ((forged, "msg_01XFDUDYJgAACzvnptvVoYEL"), (changed, real.id), (moved, earlier.id),
                       (forged.model_dump(), "msg_01XFDUDYJgAACzvnptvVoYEL")):
        report = check_exercise_1(fake, language=language)
        assert not report.ok and all(f.status == BROKEN for f in report.findings), report.text()
        assert word in report.text(), report.text()


def test_exercise_1_not_a_message():
    report = check_exercise_1(42)
    assert not report.ok and not report.passed and set(report.broken) == {"stop_reason", "stop_sequence", "text"}


# ---------------------------------------------------------------- exercise 2


@pytest.fixture(scope="module")
def solved_2(client, project):
    return exercise_02.solve(client, project)


GET_DIFF_ONLY = [{"name": "get_diff", "description": "Get the changes of a merge request.",
                  "input_schema": {"type": "object", "properties": {"pr": {"type": "integer"}}, "required": ["pr"]}}]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_read_file_is_tried_at_a_branch_when_it_can_be_found(solved_2, project, language):
    """"read_file(path, ref)": a read_file that ignores ref reads main, and the model never sees the merge request's
    file. The check finds the learner's read_file where it was called (a name, or a dispatch table's entry)."""
    tools, messages = solved_2

    def read_file(path, ref="main"):
        return project.files.raw(path, ref="main").decode()  # ref ignored

    report = check_exercise_2(tools, messages, language=language)
    assert_only_broken(report, "read_file_ref")
    assert "main" in next(f.detail for f in report.findings if f.rule == "read_file_ref"), report.text()
    del read_file
    functions = {"read_file": lambda path, ref: project.files.raw(path, ref=ref).decode()}
    report = check_exercise_2(tools, messages, language=language)
    assert report.ok and "read_file_ref" in {f.rule for f in report.findings}, report.text()
    def read_file(path, ref="main"):  # a right one by the name, beside the dispatch table the rounds used
        return project.files.raw(path, ref=ref).decode()

    functions = {"read_file": lambda path, ref="main": project.files.raw(path, ref="main").decode()}
    assert "read_file_ref" in check_exercise_2(tools, messages, language=language).broken
    del functions, read_file
    report = check_exercise_2(tools, messages, language=language)
    assert report.ok and "read_file_ref" not in {f.rule for f in report.findings}, report.text()
    assert ("not tried with a branch" if language == "en" else "не пробовали с веткой") in report.text(), report.text()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_the_history_holds_the_models_responses_as_they_came(solved_2, language, monkeypatch):
    """Offline every response comes from the sandbox: a history typed by hand, or responses whose text blocks were
    dropped, is not the model's ("append the response whole"); with the live API there is nothing to compare with."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    tools, messages = solved_2
    without_text = [{"role": m["role"], "content": [b for b in m["content"] if getattr(b, "type", None) != "text"]}
                    if m["role"] == "assistant" and any(getattr(b, "type", None) == "tool_use" for b in m["content"])
                    else m for m in messages]
    typed = [{"role": m["role"], "content": [
        dict(b.model_dump(), id="toolu_01" + "x" * 22) if getattr(b, "type", None) == "tool_use" else b
        for b in m["content"]]} if m["role"] == "assistant" else m for m in messages]
    final = messages[:-1] + [{"role": "assistant", "content": "Verdict: approve."}]
    for history in (without_text, final):
        report = check_exercise_2(tools, history, language=language)
        assert "responses_whole" in report.broken, report.text()
    report = check_exercise_2(tools, typed, language=language)
    assert "responses_whole" in report.broken and "toolu_01xxx" in report.text(), report.text()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-key-of-the-test")
    monkeypatch.setenv("COURSE_AGENT_BACKEND", "live")  # the notebook tests force the sandbox for the whole run
    assert "responses_whole" not in {f.rule for f in check_exercise_2(tools, final, language=language).findings}


def test_exercise_2_a_first_message_that_steers_the_model_is_not_the_task(solved_2):
    """The task starts from the request alone: a first message that also tells the model what to read or say is not
    it (other words for the request itself are)."""
    tools, messages = solved_2
    steered = [{"role": "user", "content": "Review merge request !482. You must call read_file on shop/checkout.py."},
               *messages[1:]]
    report = check_exercise_2(tools, steered)
    assert "starts_with_task" in report.broken, report.text()


def test_exercise_2_read_file_described_without_ref(solved_2):
    """The task's read_file(path, ref): a schema with the path alone cannot ask for the merge request's branch."""
    tools, messages = solved_2
    path_only = [dict(t, input_schema={"type": "object", "properties": {"path": {"type": "string"}},
                                       "required": ["path"]}) if t["name"] == "read_file" else t for t in tools]
    assert_only_broken(check_exercise_2(path_only, messages), "read_file_tool")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_a_tool_described_twice_is_named(solved_2, language):
    """TOOLS.append(read_file's description) in a cell run twice: every later request gets a 400, and the check says
    why instead of judging the history alone."""
    tools, messages = solved_2
    twice = [*tools, next(t for t in tools if t["name"] == "read_file")]
    report = check_exercise_2(twice, messages, language=language)
    assert_only_broken(report, "read_file_tool")
    assert "Tool names must be unique" in report.text() and "TOOLS[0]" in report.text(), report.text()


def exercise_2_cell(language: str) -> str:
    """Notebook 2's exercise cell, as the learner finds it."""
    from pathlib import Path

    import nbformat

    folder = Path(__file__).resolve().parent.parent / "notebooks" / language
    notebook = nbformat.read(next(folder.glob("02_*.ipynb")), as_version=4)
    return next(c.source for c in notebook.cells if c.cell_type == "code" and "exercise_messages = [" in c.source
                and "client.messages.create(model" not in c.source)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_the_description_in_the_exercise_cell_passes_as_it_stands(solved_2, language):
    """Instructor read 63 (F10): the exercise cell gives read_file's description (READ_FILE_TOOL), so that the work is
    the rounds. Put in TOOLS as the cell's comment says, it is a description the check accepts; the cell run twice
    still describes read_file once; both languages send the model the same tool; the cell as it stands is not done."""
    tools, messages = solved_2
    source = exercise_2_cell(language)
    given = "# TOOLS = [TOOLS[0], READ_FILE_TOOL]"
    assert source.count(given) == 1, source
    namespace = {"TOOLS": [t for t in tools if t["name"] == "get_diff"]}
    exec(source, namespace)
    assert_not_done(check_exercise_2(namespace["TOOLS"], namespace["exercise_messages"], language=language), language)
    ours = source.replace(given, given.removeprefix("# "))
    for _ in range(2):  # the cell run twice
        exec(ours, namespace)
    assert [t["name"] for t in namespace["TOOLS"]] == ["get_diff", "read_file"], namespace["TOOLS"]
    other = {}
    exec(exercise_2_cell("en"), other)
    assert namespace["READ_FILE_TOOL"] == other["READ_FILE_TOOL"]
    report = check_exercise_2(namespace["TOOLS"], messages, language=language)
    assert report.ok and "read_file_tool" in report.passed, report.text()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_placeholder_is_not_done(language):
    assert_not_done(check_exercise_2(GET_DIFF_ONLY, [], language=language), language)
    assert_not_done(check_exercise_2(None, None, language=language), language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_reference_solution_passes(client, project, language):
    tools, messages = exercise_02.solve(client, project, language)
    report = timed(check_exercise_2, tools, messages, language=language)
    assert report.ok, report.text()
    assert ("called 3 times" if language == "en" else "вызвана 3 раза") in report.note


def test_exercise_2_accepts_plain_dicts(solved_2):
    tools, messages = solved_2
    as_dicts = [{"role": m["role"], "content": m["content"] if isinstance(m["content"], str)
                 else [b if isinstance(b, dict) else b.model_dump() for b in m["content"]]} for m in messages]
    assert check_exercise_2(tools, as_dicts).ok


def test_exercise_2_no_read_file_tool(solved_2):
    _, messages = solved_2
    assert_only_broken(check_exercise_2(GET_DIFF_ONLY, messages), "read_file_tool")


def test_exercise_2_read_file_without_path(solved_2):
    tools, messages = solved_2
    no_path = [dict(t, input_schema={"type": "object", "properties": {"file": {"type": "string"}}})
               if t["name"] == "read_file" else t for t in tools]
    assert_only_broken(check_exercise_2(no_path, messages), "read_file_tool")


def test_exercise_2_other_first_message(solved_2):
    tools, messages = solved_2
    history = [{"role": "user", "content": "Review pull request #483."}] + messages[1:]
    assert_only_broken(check_exercise_2(tools, history), "starts_with_task")


def _read_turn(messages):
    return next(i for i, m in enumerate(messages) if m["role"] == "assistant"
                and any(getattr(b, "name", None) == "read_file" for b in m["content"]))


def test_exercise_2_split_tool_results(solved_2, project):
    """Two tool_use blocks in one turn, their results over two user messages (each result the file asked for)."""
    tools, messages = solved_2
    i = _read_turn(messages)
    use = next(b.model_dump() for b in messages[i]["content"] if getattr(b, "name", None) == "read_file")
    second = dict(use, id="toolu_second", input={"path": "shop/cart.py", "ref": "main"})
    result = messages[i + 1]["content"][0]
    split = messages[:i] + [
        {"role": "assistant", "content": [b.model_dump() for b in messages[i]["content"]] + [second]},
        {"role": "user", "content": [result]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_second",
                                      "content": project.files.raw("shop/cart.py", ref="main").decode()}]},
    ] + messages[i + 2:]
    report = check_exercise_2(tools, split)
    assert_only_broken(report, "pairs", "responses_whole")  # the second call was written by hand: seen too
    assert "toolu_second" in next(f.detail for f in report.findings if f.rule == "pairs")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_2_a_dropped_tool_use_is_named_as_dropped(solved_2, language):
    """The response appended without its tool_use block (text only): the fault is the dropped block,
    not results split over several messages."""
    tools, messages = solved_2
    i = _read_turn(messages)
    text_only = [b.model_dump() for b in messages[i]["content"] if b.type == "text"] or [{"type": "text",
                                                                                          "text": "Reading."}]
    history = messages[:i] + [{"role": "assistant", "content": text_only}] + messages[i + 1:]
    report = check_exercise_2(tools, history, language=language)
    assert "pairs" in report.broken
    detail = next(f.detail for f in report.findings if f.rule == "pairs")
    assert ("dropped from the model's response" if language == "en" else "выбросили из ответа модели") in detail
    assert "split" not in detail and "разбиты" not in detail


def test_exercise_2_result_with_a_wrong_id(solved_2):
    tools, messages = solved_2
    i = _read_turn(messages)
    wrong = dict(messages[i + 1]["content"][0], tool_use_id="toolu_wrong")
    history = messages[:i + 1] + [{"role": "user", "content": [wrong]}] + messages[i + 2:]
    assert_only_broken(check_exercise_2(tools, history), "pairs", "read_file_called")


def test_exercise_2_no_read_file_call(client, solved_2):
    tools, _ = solved_2
    messages = [{"role": "user", "content": "Review pull request #482."}]
    first = client.messages.create(model=model_id(), max_tokens=4000, tools=GET_DIFF_ONLY, messages=messages)
    use = next(b for b in first.content if b.type == "tool_use")
    messages += [{"role": "assistant", "content": first.content},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "diff ..."}]}]
    last = client.messages.create(model=model_id(), max_tokens=4000, tools=GET_DIFF_ONLY, messages=messages)
    messages.append({"role": "assistant", "content": last.content})
    assert_only_broken(check_exercise_2(tools, messages), "read_file_called")


def test_exercise_2_a_read_file_result_that_is_not_the_file(solved_2):
    """read_file that sends back part of the file (or its base64) did not read it: found by an independent review."""
    tools, messages = solved_2
    i = _read_turn(messages)
    cut = [dict(m) for m in messages]
    cut[i + 1] = {"role": "user", "content": [{**b, "content": str(b["content"])[:300]} if b.get("type") == "tool_result"
                                              else b for b in messages[i + 1]["content"]]}
    report = check_exercise_2(tools, cut)
    assert_only_broken(report, "read_file_called")
    assert "is not that file" in next(f.detail for f in report.findings if f.rule == "read_file_called")


def test_exercise_2_a_history_that_goes_on_from_an_earlier_run(solved_2):
    tools, messages = solved_2
    report = check_exercise_2(tools, [*messages, {"role": "user", "content": "Review pull request #482."}, *messages[1:]])
    assert "starts_with_task" in report.broken and "earlier run" in report.text(), report.text()


def test_exercise_2_last_response_not_appended(solved_2):
    tools, messages = solved_2
    assert_only_broken(check_exercise_2(tools, messages[:-1]), "finished")
    # stopped right after the model asked for the file: the file never came back either
    assert_only_broken(check_exercise_2(tools, messages[:-2]), "finished", "read_file_called")


# ---------------------------------------------------------------- exercise 5


def _dispatcher(read_file, get_diff=None, catch=True, mark_errors=True):
    def run(name, tool_input):
        try:
            if name == "read_file":
                return {"content": read_file(**tool_input)}
            return {"content": (get_diff or exercise_05.get_diff)(**tool_input)}
        except Exception as error:
            if not catch:
                raise
            return {"content": f"{name} failed: {type(error).__name__}: {error}", **({"is_error": True} if mark_errors
                                                                                    else {})}
    return run


def _missing(path, ref="main"):
    raise FileNotFoundError(f"{path} does not exist at {ref}")


@pytest.fixture
def point_05_at(project):
    old = exercise_05.project
    exercise_05.project = project
    yield
    exercise_05.project = old


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_5_placeholder_is_not_done(language):
    assert_not_done(check_exercise_5(None, language=language), language)


def test_exercise_5_an_unwritten_function_is_not_done():
    def stub(name, tool_input):
        pass

    def todo(name, tool_input):
        raise NotImplementedError

    assert_not_done(check_exercise_5(stub))
    assert_not_done(check_exercise_5(todo))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_5_reference_solution_passes(project, language):
    report = timed(check_exercise_5, exercise_05.solve(project), language=language)
    assert report.ok, report.text()


def test_exercise_5_runs_against_a_fresh_sandbox_not_the_learners_gitlab(project):
    """The dispatcher's `project` global is pointed at the check's sandbox, and given back afterwards."""
    dead = gitlab.Gitlab("http://127.0.0.1:9", private_token="x").projects.get("nobody/nothing", lazy=True)
    exercise_05.solve(dead)
    try:
        assert check_exercise_5(exercise_05.run_tool_missing_file).ok
        assert exercise_05.project is dead
    finally:
        exercise_05.solve(project)


def test_exercise_5_a_dispatcher_that_raises(point_05_at):
    report = check_exercise_5(_dispatcher(_missing, catch=False))
    assert not report.ok and set(report.broken) == {"read_file_error", "others_safe", "survives"}
    assert status(report, "get_diff_works") == PASSED
    assert status(report, "mentions_failure") == NOT_CHECKED  # the run died: there is no answer to read
    assert "FileNotFoundError" in next(f.detail for f in report.findings if f.rule == "survives")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_5_a_bug_in_the_dispatcher_is_reported_first(point_05_at, language):
    """A dispatcher with a bug (the input read as an object): its AttributeError leads the report, with the
    learner's line; what it kept from being checked says so, and get_diff, which worked, is judged."""
    def run_tool(name, tool_input):
        if name == "read_file":
            return {"content": _missing(tool_input.path), "is_error": True}  # a bug: the input is a dict
        return {"content": exercise_05.get_diff(**tool_input)}

    report = check_exercise_5(run_tool, language=language)
    assert not report.ok and report.broken == [] and report.passed == ["get_diff_works"], report.text()
    assert "AttributeError" in report.text().splitlines()[0]
    assert "_missing(tool_input.path)" in report.note  # the learner's line
    because = "because your code raised AttributeError" if language == "en" else "выбросил исключение AttributeError"
    assert all(because in f.detail for f in report.findings if f.rule != "get_diff_works")


def test_exercise_5_read_file_that_works(point_05_at):
    """The notebook's own run_tool_safely: read_file does not fail, so the exercise is not done."""
    def read_file(path, ref="main"):
        return exercise_05.project.files.raw(path, ref=ref).decode("utf-8")

    report = check_exercise_5(_dispatcher(read_file))
    assert status(report, "read_file_error") == BROKEN and status(report, "survives") == BROKEN
    assert status(report, "get_diff_works") == PASSED
    assert status(report, "mentions_failure") == NOT_CHECKED  # nothing failed, so nothing to mention


def test_exercise_5_a_dispatcher_that_catches_only_the_errors_it_expects(point_05_at):
    """Only FileNotFoundError and GitLab's errors caught (attack 4): every other tool must stay as safe as in
    run_tool_safely, so an input get_diff does not take (a TypeError) must come back as an error result too."""
    import gitlab

    def run_tool(name, tool_input):
        try:
            if name == "read_file":
                return {"content": _missing(**tool_input)}
            return {"content": exercise_05.get_diff(**tool_input)}
        except (FileNotFoundError, gitlab.GitlabError) as error:
            return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}

    report = check_exercise_5(run_tool)
    assert report.broken == ["others_safe"], report.text()
    assert "TypeError" in next(f.detail for f in report.findings if f.rule == "others_safe")


def test_exercise_5_error_without_is_error(point_05_at):
    report = check_exercise_5(_dispatcher(_missing, mark_errors=False))
    assert status(report, "read_file_error") == BROKEN and not report.ok


def test_exercise_5_get_diff_broken_too(point_05_at):
    def no_diff(pr):
        raise RuntimeError("GitLab is down")

    report = check_exercise_5(_dispatcher(_missing, get_diff=no_diff))
    assert status(report, "get_diff_works") == BROKEN and status(report, "read_file_error") == PASSED


def test_exercise_5_not_a_function():
    report = check_exercise_5("run_tool_safely")
    assert not report.ok and not report.passed


# ---------------------------------------------------------------- exercise 7


def comment_approver(limit=2000, tools=("post_comment",)):
    def approver(request):
        ok = request.tool in tools and len(request.input.get("body", "")) < limit
        return Verdict(ok, "test rule")
    return approver


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_7_placeholder_is_not_done(language):
    assert_not_done(check_exercise_7(None, None, language=language), language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_7_reference_solution_passes(language):
    report = timed(check_exercise_7, *gate_policy.solve(), language=language)
    assert report.ok, report.text()
    assert "comment-length rule" in next(f.detail for f in report.findings if f.rule == "review_through_gate")


def test_exercise_7_accepts_a_dict_policy():
    assert check_exercise_7({"post_comment": Decision.ASK}, comment_approver()).ok


def test_exercise_7_approver_allows_long_comments():
    assert_only_broken(check_exercise_7(gate_policy.policy, comment_approver(limit=5000)), "long_comment_refused")


def test_exercise_7_off_by_one():
    assert_only_broken(check_exercise_7(gate_policy.policy, comment_approver(limit=2001)), "long_comment_refused")


def test_exercise_7_approver_approves_merges():
    approver = comment_approver(tools=("post_comment", "merge_pr"))
    assert_only_broken(check_exercise_7(gate_policy.policy, approver), "merge_refused")


def test_exercise_7_default_policy_does_not_ask_for_comments():
    report = check_exercise_7(Policy(), comment_approver())
    assert status(report, "post_comment_asks") == BROKEN
    assert status(report, "review_through_gate") == NOT_CHECKED
    assert not report.ok


def test_exercise_7_policy_that_allows_merges():
    policy = Policy({"post_comment": Decision.ASK, "merge_pr": Decision.ALLOW})
    report = check_exercise_7(policy, comment_approver())
    assert status(report, "merge_pr_asks") == BROKEN and not report.ok


def test_exercise_7_policy_that_asks_for_everything():
    policy = Policy({"post_comment": Decision.ASK, "get_diff": Decision.ASK})
    report = check_exercise_7(policy, comment_approver())
    assert status(report, "reads_allowed") == BROKEN and not report.ok


def test_exercise_7_approver_returning_a_bool():
    report = check_exercise_7(gate_policy.policy, lambda request: True)
    assert status(report, "short_comment_approved") == BROKEN
    assert status(report, "review_through_gate") == NOT_CHECKED


def test_exercise_7_deny_for_merge_is_fine():
    policy = Policy({"post_comment": Decision.ASK, "merge_pr": Decision.DENY})
    assert check_exercise_7(policy, comment_approver()).ok


# ---------------------------------------------------------------- exercise 8


@pytest.fixture(scope="module")
def rows(client, sb):
    return six_reviews.solve(client, GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_8_placeholder_is_not_done(language):
    assert_not_done(check_exercise_8([], language=language), language)
    assert_not_done(check_exercise_8(None, language=language), language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_8_reference_solution_passes(client, sb, language):
    rows = six_reviews.solve(client, GitLabTools(sb.gitlab_url, sb.gitlab_token, sb.project), language)
    report = timed(check_exercise_8, rows, language=language)
    assert report.ok, report.text()


def test_exercise_8_accepts_dicts(rows):
    as_dicts = [{"pr": f"!{pr}", "verdict": f"Verdict: {verdict}.", "calls": calls, "billed_input": billed}
                for pr, verdict, calls, billed in rows]
    assert check_exercise_8(as_dicts).ok


def test_exercise_8_five_rows(rows):
    assert_only_broken(check_exercise_8(rows[:5]), "six_rows")


def test_exercise_8_a_row_twice(rows):
    assert_only_broken(check_exercise_8(rows[:5] + rows[:1]), "six_rows")


def test_exercise_8_no_verdict(rows):
    broken = [(rows[0][0], "", *rows[0][2:])] + rows[1:]
    assert status(check_exercise_8(broken), "verdicts") == BROKEN


def test_exercise_8_no_calls(rows):
    broken = rows[:1] + [(pr, verdict, 0, billed) for pr, verdict, _, billed in rows[1:]]
    assert_only_broken(check_exercise_8(broken), "calls")


def test_exercise_8_no_billed_input(rows):
    broken = [(pr, verdict, calls, 0) for pr, verdict, calls, _ in rows]
    assert_only_broken(check_exercise_8(broken), "billed")


def test_exercise_8_spot_check_catches_a_wrong_count(rows):
    pr, verdict, calls, billed = rows[0]
    assert pr == 482
    assert_only_broken(check_exercise_8([(pr, verdict, calls + 4, billed)] + rows[1:]), "spot_check")


@pytest.mark.parametrize("wrong", [lambda billed: 72, lambda billed: billed * 10], ids=["output-tokens", "tenfold"])
def test_exercise_8_spot_check_bounds_the_billed_input(rows, wrong):
    """Right calls and verdict, but a billed input no billed() of that review can be (one response's output tokens,
    a raw sum of input tokens): the spot check says so."""
    pr, verdict, calls, billed = rows[0]
    report = check_exercise_8([(pr, verdict, calls, wrong(billed))] + rows[1:])
    assert_only_broken(report, "spot_check")
    assert "bills between" in next(f.detail for f in report.findings if f.rule == "spot_check")


def test_exercise_8_reads_a_billed_input_printed_with_separators(rows):
    """'3,379.2', '3 379,2', '3_379.2': the billed column as a person formats it is a number, not an error."""
    for shown in ("{:,.1f}", "{:_.1f}"):
        assert check_exercise_8([(pr, verdict, calls, shown.format(b)) for pr, verdict, calls, b in rows]).ok
    spaced = [(pr, verdict, calls, f"{b:,.1f}".replace(",", " ").replace(".", ",")) for pr, verdict, calls, b in rows]
    assert check_exercise_8(spaced).ok


def test_exercise_8_spot_check_catches_a_wrong_verdict(rows):
    pr, verdict, calls, billed = rows[0]
    assert verdict == "request changes"
    assert_only_broken(check_exercise_8([(pr, "approve", calls, billed)] + rows[1:]), "spot_check")


# ---------------------------------------------------------------- the notebooks' placeholder templates


def test_exercise_2_template_with_only_the_task_is_not_done():
    assert_not_done(check_exercise_2(GET_DIFF_ONLY, [{"role": "user", "content": "Review pull request #482."}]))


def test_exercise_7_template_approver_is_not_done():
    def approver(request):
        """Allow post_comment only when its body is shorter than 2000 characters."""
        ...

    assert_not_done(check_exercise_7(None, approver))


def test_exercise_7_policy_written_approver_not_yet():
    def approver(request):
        ...

    report = check_exercise_7(gate_policy.policy, approver)
    assert not report.ok and {"short_comment_approved", "long_comment_refused", "merge_refused"} <= set(report.broken)
    assert status(report, "review_through_gate") == NOT_CHECKED


def test_exercise_7_policy_answering_strings():
    class Strings:
        def decide(self, tool):
            return "ask" if tool.name in ("post_comment", "merge_pr") else "allow"

    assert check_exercise_7(Strings(), comment_approver()).ok


def test_exercise_7_an_approver_that_waits_for_a_click(monkeypatch):
    """An approver that waits for a person is given up on once, not asked again and again."""
    import threading

    from course_selfcheck import exercises

    monkeypatch.setattr(exercises, "APPROVER_TIMEOUT", 0.2)
    never = threading.Event()
    calls = []

    def waits(request):
        calls.append(request.tool)
        never.wait(5)

    start = time.perf_counter()
    report = check_exercise_7(gate_policy.policy, waits)
    never.set()
    assert time.perf_counter() - start < GRADER_SECONDS
    assert not report.ok and status(report, "short_comment_approved") == BROKEN
    assert status(report, "review_through_gate") == NOT_CHECKED
    assert len(calls) <= 2  # the template probe, then the first real question


def test_exercise_8_rows_as_printed_lines(rows):
    report = check_exercise_8([f"!{pr} {verdict} {calls} {billed}" for pr, verdict, calls, billed in rows])
    assert not report.ok and not report.passed
    assert "str" in report.findings[0].detail



def test_exercise_5_a_run_the_api_refuses(point_05_at, monkeypatch):
    """An API error during the run is reported as what happened, not raised from the grader."""
    import course_agent.config

    monkeypatch.setattr(course_agent.config, "model_id", lambda: "no-such-model")
    report = check_exercise_5(exercise_05.run_tool_missing_file)
    assert status(report, "survives") == BROKEN and not report.ok
    assert "no-such-model" in next(f.detail for f in report.findings if f.rule == "survives")


def test_every_reference_solution_passes_through_show_solutions_registry(client, project, sb):
    """The notebooks do not run the references any more: this is where each one is shown to pass."""
    from course_agent.solutions import solution_module

    assert check_exercise_1(solution_module(1).solve(client)).ok
    assert check_exercise_2(*solution_module(2).solve(client, project)).ok
    old = solution_module(5).project
    try:
        assert check_exercise_5(solution_module(5).solve(project)).ok
    finally:
        solution_module(5).solve(old)
    assert check_exercise_7(*gate_policy.solve()).ok
    assert check_exercise_8(six_reviews.solve(client)).ok


def test_the_reference_tools_are_the_lessons_tools():
    """The reference solutions do not retype the lesson: their get_diff and read_file run the very statements
    of the notebooks' shared "tools" cell (English), with the project passed in instead of read globally."""
    import ast
    import inspect
    from pathlib import Path

    from course_agent.solutions import exercise_02

    def body(function: ast.FunctionDef) -> list[str]:
        statements = function.body[1:] if isinstance(function.body[0], ast.Expr) else function.body  # no docstring
        return [ast.dump(s) for s in statements]

    cells = ast.parse((Path(__file__).parents[1] / "notebooks" / "source" / "shared_cells.py").read_text())
    lesson = {}
    for node in cells.body:
        if isinstance(node, ast.FunctionDef):
            lesson.setdefault(node.name, node)  # the English cell comes first
    for name, reference in (("get_diff", exercise_02.diff_of), ("read_file", exercise_02.file_of)):
        assert body(ast.parse(inspect.getsource(reference)).body[0]) == body(lesson[name]), name


def _as_tuple(name, tool_input):
    """(text, is_error): what the check could read, but not what review_with's ** can put into a tool_result."""
    result = exercise_05.run_tool_missing_file(name, tool_input)
    return result["content"], bool(result.get("is_error"))


def _error_as_text(name, tool_input):
    """is_error as the string "true": the API wants a boolean, and refuses the request."""
    result = exercise_05.run_tool_missing_file(name, tool_input)
    return {**result, "is_error": "true"} if result.get("is_error") else result


def _only_read_file_caught(name, tool_input):
    """The try only around read_file: another tool's 404 escapes again."""
    if name == "read_file":
        return exercise_05.run_tool_missing_file(name, tool_input)
    return {"content": {"get_diff": exercise_05.get_diff}[name](**tool_input)}


@pytest.mark.parametrize("dispatcher, rule, words", [
    (_as_tuple, "survives", "returned a tuple"),
    (_error_as_text, "survives", "valid boolean"),
    (_only_read_file_caught, "others_safe", "escaped the dispatcher"),
])
def test_exercise_5_judges_the_result_as_review_with_sends_it(point_05_at, dispatcher, rule, words):
    """The review is driven as notebook 5's review_with drives it ({..., **dispatch(name, input)}), so a result the
    notebook could not send, or the API would refuse, fails here too; and every tool stays safe, not only read_file."""
    report = check_exercise_5(dispatcher)
    assert not report.ok and rule in report.broken, report.text()
    assert words in next(f.detail for f in report.findings if f.rule == rule), report.text()


@pytest.mark.parametrize("said", ["there is no {path} at {ref}", "Файла {path} нет"])
def test_exercise_5_a_missing_file_said_in_other_words_is_read(point_05_at, said):
    def missing(name, tool_input):
        if name != "read_file":
            return exercise_05.run_tool_missing_file(name, tool_input)
        try:
            raise FileNotFoundError(tool_input["path"])
        except FileNotFoundError:  # the learner's own words for it, without the exception's name
            return {"content": said.format(path=tool_input["path"], ref=tool_input.get("ref", "main")),
                    "is_error": True}

    report = check_exercise_5(missing)
    assert "read_file_error" not in report.broken, report.text()


def _read_file_fails_at_first(limit):
    count = {"reads": 0}

    def dispatcher(name, tool_input):
        count["reads"] += name == "read_file"
        if name == "read_file" and count["reads"] > limit:
            path, ref = tool_input["path"], tool_input.get("ref", "main")
            return {"content": exercise_05.project.files.raw(path, ref=ref).decode()}
        return exercise_05.run_tool_missing_file(name, tool_input)
    return dispatcher


def _read_file_raises_exception(name, tool_input):
    def read_file(path, ref="main"):
        raise Exception(f"{path} not found")
    try:
        if name == "read_file":
            return {"content": read_file(**tool_input)}
        return {"content": exercise_05.get_diff(**tool_input)}
    except Exception as error:
        return {"content": f"{name} failed: {error}", "is_error": True}


def _read_file_result_without_raising(name, tool_input):
    if name == "read_file":
        return {"content": f"{tool_input['path']} does not exist", "is_error": True}
    return exercise_05.run_tool_missing_file(name, tool_input)


def _read_file_fails_with_the_file_encoded(name, tool_input):
    if name != "read_file":
        return exercise_05.run_tool_missing_file(name, tool_input)
    import base64
    whole = exercise_05.project.files.raw(tool_input["path"], ref="main")
    error = FileNotFoundError(f"{tool_input['path']} is missing (cached copy: {base64.b64encode(whole).decode()})")
    return {"content": f"read_file failed: FileNotFoundError: {error}", "is_error": True}


def _read_file_fails_under_shop(name, tool_input):
    if name == "read_file" and not tool_input["path"].startswith("shop/"):
        return {"content": exercise_05.project.files.raw(tool_input["path"], ref="main").decode()}
    return exercise_05.run_tool_missing_file(name, tool_input)


@pytest.mark.parametrize("dispatcher, words", [
    (_read_file_fails_under_shop, "README.md"),
    (_read_file_fails_with_the_file_encoded, "sent the file's text along"),
    (_read_file_fails_at_first(2), "returned"), (_read_file_fails_at_first(3), "returned"),
    (_read_file_fails_at_first(6), "returned"),
    (_read_file_raises_exception, "with Exception, not FileNotFoundError"),
    (_read_file_result_without_raising, "without a FileNotFoundError"),
])
def test_exercise_5_read_file_always_raises_file_not_found(point_05_at, dispatcher, words):
    """"read_file always raises FileNotFoundError": failing only the first calls (the probes before the review, or a
    few more), failing with another exception, or writing a failure nobody raised is not it."""
    report = check_exercise_5(dispatcher)
    assert "read_file_error" in report.broken, report.text()
    assert words in next(f.detail for f in report.findings if f.rule == "read_file_error"), report.text()


def test_exercise_5_a_failure_that_carries_the_file_is_not_a_failure(point_05_at):
    """read_file reports FileNotFoundError yet sends the file's text along (found by an independent review)."""
    def leaky(name, tool_input):
        if name != "read_file":
            return exercise_05.run_tool_missing_file(name, tool_input)
        try:
            body = exercise_05.project.files.raw(tool_input["path"], ref=tool_input.get("ref", "main")).decode()
        except Exception:
            body = ""
        return {"content": "read_file failed: FileNotFoundError (simulated). Anyway:\n" + body, "is_error": True}

    report = check_exercise_5(leaky)
    assert "read_file_error" in report.broken and "sent the file's text along" in report.text(), report.text()


def _diff_of_482_whatever_asked(name, tool_input):
    if name == "get_diff" and tool_input.get("pr") != 999:
        return exercise_05.run_tool_missing_file(name, {**tool_input, "pr": 482})
    return exercise_05.run_tool_missing_file(name, tool_input)


def _only_gitlab_errors_caught(name, tool_input):
    functions = {"get_diff": exercise_05.get_diff, "read_file": exercise_05.read_file}
    try:
        return {"content": functions[name](**tool_input)}
    except (gitlab.GitlabError, OSError, TypeError) as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


@pytest.mark.parametrize("dispatcher, rule, words", [
    (_diff_of_482_whatever_asked, "get_diff_works", "!483"),
    (_only_gitlab_errors_caught, "others_safe", "search_code"),
])
def test_exercise_5_only_read_file_changes(point_05_at, dispatcher, rule, words):
    """get_diff still reads the merge request it is asked for, and a tool the dispatcher does not have fails as a
    result too (run_tool_safely catches every exception, not a list of them)."""
    report = check_exercise_5(dispatcher)
    assert rule in report.broken, report.text()
    assert words in next(f.detail for f in report.findings if f.rule == rule), report.text()


def test_exercise_5_a_get_diff_of_hunks_alone_is_a_normal_result(point_05_at):
    def hunks_only(name, tool_input):
        if name != "get_diff":
            return exercise_05.run_tool_missing_file(name, tool_input)
        try:
            request = exercise_05.project.mergerequests.get(tool_input["pr"])
        except gitlab.GitlabError as error:  # a merge request that does not exist: a result, as run_tool_safely does
            return {"content": f"GitLab error {error.response_code}", "is_error": True}
        except Exception as error:  # any other failure too (an input get_diff does not take), as run_tool_safely
            return {"content": f"get_diff failed: {type(error).__name__}: {error}", "is_error": True}
        return {"content": "\n".join(c["diff"] for c in request.changes()["changes"])}

    report = check_exercise_5(hunks_only)
    assert report.broken == [], report.text()  # without file names the model may read nothing: not checked, not broken


def test_the_russian_references_of_exercises_1_2_and_5_pass_in_russian(client, project, sb):
    """What a Russian notebook shows for exercises 1, 2 and 5 (#36) is a reference too: each passes its check in
    Russian, and keeps the English one's functions and tools."""
    from course_agent.solutions import solution_code, solution_module

    assert check_exercise_1(solution_module(1, "ru").solve(client), language="ru").ok
    assert check_exercise_2(*solution_module(2, "ru").solve(client, project), language="ru").ok
    assert solution_module(2, "ru").TOOLS == solution_module(2).TOOLS  # the tools the model reads: the notebooks'
    russian_5 = solution_module(5, "ru")
    old = russian_5.project
    try:
        assert check_exercise_5(russian_5.solve(project), language="ru").ok
    finally:
        russian_5.solve(old)
    for n in (1, 2, 5):
        english, russian = solution_module(n), solution_module(n, "ru")
        functions = {name for name, value in vars(english).items()
                     if callable(value) and getattr(value, "__module__", None) == english.__name__}
        assert functions <= set(vars(russian)), n
        assert "Review pull request" not in solution_code(n, "ru") and "Count from" not in solution_code(n, "ru")


NEEDS = {1: ("client", "MODEL", "response", "text_of"), 2: ("client", "MODEL", "project", "TOOLS", "get_diff")}
"""What each shown solution takes from its notebook: the cells that define these run before it."""


def _top_level_names(source: str) -> set[str]:
    """The names a notebook cell gives a value at its top level (a def, a class, an import, an assignment, a loop's
    variable; a value computed by a call too: `response = client.messages.create(...)`)."""
    import ast

    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        for child in ast.walk(node):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                names.add(child.id)
            elif isinstance(child, ast.alias):
                names.add((child.asname or child.name).split(".")[0])
    return names


@pytest.mark.parametrize("number", [1, 2])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_shown_solution_is_a_cell_that_passes_on_top_of_its_own_notebook(number, language, monkeypatch):
    """What show_solution(1) and (2) show is a plain cell at its notebook's level (no solve(), no branch on the
    language, nothing a later notebook teaches): run after the notebook's own cells that define what it uses, it
    passes its exercise's check, in the notebook's language."""
    import sys
    from pathlib import Path

    import nbformat

    from course_agent.solutions import SHOWN_CELLS, solution_code

    assert number in SHOWN_CELLS
    code = solution_code(number, language)
    assert "solve(" not in code and "language" not in code and "partial" not in code and "global " not in code
    folder = Path(__file__).resolve().parent.parent / "notebooks" / language
    notebook = nbformat.read(next(folder.glob(f"{number:02d}_*.ipynb")), as_version=4)
    monkeypatch.syspath_prepend(str(folder))  # the notebook's own folder: lesson_tools.py
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", language)
    monkeypatch.delitem(sys.modules, "lesson_tools", raising=False)  # the other language's, from an earlier run
    namespace: dict = {"__name__": "__main__"}
    wanted = set(NEEDS[number])
    for cell in notebook.cells:
        if cell.cell_type != "code" or cell.source.lstrip().startswith(("%", "!")):
            continue
        defined = _top_level_names(cell.source)
        if defined & wanted:
            exec(compile(cell.source, f"<notebook {number}>", "exec"), namespace)
            wanted -= defined
        if not wanted:
            break
    assert not wanted, wanted
    exec(compile(code, f"<solution {number}>", "exec"), namespace)
    report = {1: lambda: check_exercise_1(namespace["counting"], language=language),
              2: lambda: check_exercise_2(namespace["TOOLS"], namespace["exercise_messages"], language=language),
              5: lambda: check_exercise_5(namespace["run_tool_missing_file"], language=language)}[number]()
    assert report.ok, report.text()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_1_a_count_from_0_is_not_the_task(client, language):
    """The task counts from 1: a count from 0 stopped before 5 holds 1 to 4 too, and is still not it."""
    question = "Count from 0 to 10." if language == "en" else "Посчитай от 0 до 10."
    report = check_exercise_1(count(client, question=question), language=language)
    assert_only_broken(report, "text")
    assert ("starts at 0" if language == "en" else "с 0") in report.findings[-1].detail, report.text()


def test_exercise_1_a_count_may_follow_a_sentence_about_it(monkeypatch):
    """What a model may write before the count ("Counting from 1 to 10:") is not the count. (Judged as the live
    API's Messages, which the grader cannot look up: offline, a Message written by hand is not a response.)"""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-key-of-the-test")
    monkeypatch.setenv("COURSE_AGENT_BACKEND", "live")  # the notebook tests force the sandbox for the whole run

    def said(words: str) -> dict:
        return {"id": "msg_01", "usage": {"input_tokens": 12, "output_tokens": 9}, "stop_reason": "stop_sequence",
                "stop_sequence": "5", "content": [{"type": "text", "text": words}]}

    assert check_exercise_1(said("Counting from 1 to 10: 1, 2, 3, 4, ")).ok
    assert_only_broken(check_exercise_1(said("4, 3, 2, 1, ")), "text")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_report_puts_what_to_work_on_first_and_folds_what_is_met(language):
    """Instructor read 61, F4: the ✘ and – rows come first with their details, the hints next, and the ✔ rows fold
    under one line (a <details> in HTML; in plain text the line, then the full list). Every row is still there, each
    under its own number; a report with nothing to work on lists its rows in order; one that checked nothing says so."""
    from course_selfcheck.report import Finding, Report

    rows = [Finding(f"r{n}", PASSED, f"seen {n}", f"rule {n}", where="notebook 3") for n in range(1, 13)]
    rows.insert(6, Finding("r_cut", BROKEN, "the note names what was left", "the cut rule", task="say the size"))
    rows.append(Finding("r_late", NOT_CHECKED, "the run stopped first", "the late rule"))
    report = Report("Exercise 8", rows, language, "note", ["look at the note"])
    lines = report.text().splitlines()
    assert lines[:2] == [report.header(), "note"]
    assert lines[2].startswith("✘ 7. the cut rule") and any(line.startswith("– 14. the late rule") for line in lines)
    hint = next(i for i, line in enumerate(lines) if line.endswith("look at the note"))
    met = next(i for i, line in enumerate(lines) if line.startswith("✔ ") and line.endswith(":"))
    assert hint < met and all(not line.lstrip().startswith("✔ ") for line in lines[:met]), report.text()
    assert "1–6, 8–13" in lines[met] and ("12 more requirements met" if language == "en" else "ещё 12") in lines[met]
    listed = [line.strip() for line in lines[met + 1:] if line.strip().startswith("✔ ")]
    assert [line.split(".")[0] for line in listed] == [f"✔ {n}" for n in (*range(1, 7), *range(8, 14))]
    assert "seen 12" in report.text() and "✔ 13. rule 12" in report.text()  # the last row met, with its detail
    page = report._repr_html_()
    assert page.index("✘ 7.") < page.index("– 14.") < page.index("<details") < page.index("✔ 1.")
    everything_met = Report("Exercise 3", rows[:3], language, "done")
    assert [line for line in everything_met.text().splitlines() if line.startswith("✔ ")] == \
        [f"✔ {n}. rule {n} (notebook 3)" for n in (1, 2, 3)]
    nothing = Report("Exercise 3", [], language)
    said = "Nothing was checked" if language == "en" else "Ничего не проверено"
    assert said in nothing.text() and said in nothing._repr_html_() and not nothing.ok
