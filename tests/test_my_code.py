"""The learner's own loop travels: exercise 6, written once in notebook 6, is what exercises 7 and 8 grow
(course_agent.my_code), driven here through the real notebooks, in real kernels, in both languages."""

import ast
import importlib.util
import inspect
import linecache
import re
import textwrap
import types
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings, strategies as st
from nbclient import NotebookClient

from course_agent import my_code
from course_agent.solutions import solution_code

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("course_notebooks_build_for_my_code", ROOT / "notebooks" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

# A learner's exercise 6, in a style of its own: a helper in a cell of its own (streamed calls), an aliased
# module and an aliased import, a while loop, and a bare expression at the end of the cell.
HELPER = '''import json as j


def call_model(history, model):
    with client.messages.stream(model=model, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                messages=history) as stream:
        return stream.get_final_message()
'''
EXERCISE_6 = '''from course_agent.config import fallback_model as backup


def review_every_stop(pr_number, max_iterations=20):
    history = [{"role": "user", "content": f"Review pull request #{pr_number}."}]
    model, turns = MODEL, 0
    while turns < max_iterations:
        turns += 1
        reply = call_model(history, model)
        why = reply.stop_reason
        if why in ("end_turn", "stop_sequence"):
            return "".join(b.text for b in reply.content if b.type == "text")
        if why == "pause_turn":
            history.append({"role": "assistant", "content": reply.content})
            continue
        if why == "refusal":
            if model == backup():
                raise RuntimeError(f"refused twice: {reply.stop_details}")
            model = backup()
            continue
        if why in ("max_tokens", "model_context_window_exceeded"):
            raise RuntimeError(f"cut short: {why}")
        if why != "tool_use":
            raise RuntimeError(f"what is {why}?")
        history.append({"role": "assistant", "content": reply.content})
        outcome = []
        for call in [b for b in reply.content if b.type == "tool_use"]:
            try:
                outcome.append({"type": "tool_result", "tool_use_id": call.id,
                                "content": run_tool(call.name, call.input)})
            except Exception as e:
                outcome.append({"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                                "content": j.dumps({"error": str(e)})})
        history.append({"role": "user", "content": outcome})
    raise RuntimeError(f"gave up after {max_iterations} turns")


review_every_stop
'''
GATE = '''        for call in [b for b in reply.content if b.type == "tool_use"]:
            if call.name in DANGEROUS:
                try:
                    yes = approve(call.name, call.input) is True
                except Exception:
                    yes = False
                if not yes:
                    outcome.append({"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                                    "content": "a human said no: it did not run"})
                    continue
'''
CUT = '''def cut_text(text, name):
    if len(text) <= LIMIT:
        return text
    return text[:LIMIT] + f"\\n[cut: {LIMIT} of {len(text)} characters; ask {name} for a narrower part to read the rest]"


'''


def grow_into_7(carried: str) -> str:
    """What the learner types into the cell exercise 7's start_from filled: a new name, an approver, the gate."""
    assert "call_model" in carried and "j.dumps" in carried, carried  # their code, not the reference
    assert "def review_every_stop" not in carried  # start_from renamed it
    # and gave it the stub's def line: the learner does not lose `approve` (instructor read 62, F1)
    assert "\ndef review_with_gate(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str:\n" in carried
    assert "def review_with_gate(pr_number, max_iterations=20)" not in carried
    return carried.replace('        for call in [b for b in reply.content if b.type == "tool_use"]:\n', GATE)


def grow_into_8(carried: str) -> str:
    """Exercise 8 on the learner's exercise 7: cached requests, the bill printed, long results cut."""
    assert "a human said no" in carried and "call_model" in carried, carried
    assert "def review_with_gate" not in carried  # start_from renamed it
    grown = (carried.replace("def review_with_cost(", CUT + "def review_with_cost(")
             .replace("messages=history) as stream:", 'messages=history, cache_control={"type": "ephemeral"}) as stream:')
             .replace("    model, turns = MODEL, 0\n", "    model, turns, spent = MODEL, 0, []\n")
             .replace("        reply = call_model(history, model)\n",
                      "        reply = call_model(history, model)\n        spent.append(reply.usage)\n")
             .replace('"content": run_tool(call.name, call.input)})', '"content": cut_text(run_tool(call.name, call.input), call.name)})'))
    # the bill printed however the run ends (the answer, the cap, an error): the loop's body in a try, the print in
    # its finally, as the notebook's Python note says
    start, cap = "    model, turns, spent = MODEL, 0, []\n", '    raise RuntimeError(f"gave up after {max_iterations} turns")\n'
    head, rest = grown.split(start)
    body, tail = rest.split(cap)
    grown = (head + start + "    try:\n" + textwrap.indent(body + cap, "    ")
             + '    finally:\n        print(f"billed input: {billed(spent):.0f} tokens")\n' + tail)
    assert grown.count("cut_text(") == 2 and "spent.append" in grown and "cache_control" in grown
    compile(grown, "<exercise 8 grown>", "exec")
    return grown


def run(nb: nbformat.NotebookNode, folder: Path, kept: Path) -> list[dict]:
    """Execute `nb` as the build does (offline, approvals denied), keeping exercises in `kept`; the
    execute_reply of each code cell, by cell index (IPython's set_next_input payload is in there)."""
    replies: dict[int, dict] = {}
    env = {**build.clean_env(), "COURSE_AGENT_MY_CODE": str(kept)}
    saved = dict(build.os.environ)
    build.os.environ.clear()
    build.os.environ.update(env)
    try:
        client = NotebookClient(nb, timeout=build.TIMEOUT, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}}, allow_errors=False,
                                on_cell_executed=lambda cell, cell_index, execute_reply: replies.update(
                                    {cell_index: execute_reply}))
        client.execute()
    finally:
        build.os.environ.clear()
        build.os.environ.update(saved)
    return replies


def index_of(nb: nbformat.NotebookNode, text: str) -> int:
    found = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and text in cell.source]
    assert len(found) == 1, (text, found)
    return found[0]


def output_of(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)


def passed(cell: nbformat.NotebookNode) -> bool:
    """The check cell's report: every requirement met, none unchecked (in either language)."""
    return re.search(r"(?<!\d)0 broken, 0 not checked|нарушено — 0, не проверено — 0", output_of(cell)) is not None


def filled(reply: dict) -> str:
    """The text start_from put in place of its cell (the payload JupyterLab acts on, as for %load)."""
    payloads = [p for p in reply["content"].get("payload", []) if p.get("source") == "set_next_input"]
    assert len(payloads) == 1 and payloads[0]["replace"] is True, reply["content"].get("payload")
    return payloads[0]["text"]


def notebook(language: str, name: str) -> nbformat.NotebookNode:
    cells = dict(build.sources())[name]
    return build.notebook(cells, language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_6_written_once_is_what_exercises_7_and_8_grow(language, tmp_path):
    kept = tmp_path / "my_code"
    folder = ROOT / "notebooks" / language

    six = notebook(language, "06_stop_reasons")
    at = index_of(six, "start_from(5, grow_into=review_every_stop)")
    six.cells[at:at + 1] = [nbformat.v4.new_code_cell(HELPER), nbformat.v4.new_code_cell(EXERCISE_6)]
    run(six, folder, kept)
    check = six.cells[index_of(six, "check_exercise_6(review_every_stop)")]
    assert passed(check), output_of(check)
    assert "exercise_6.py" in output_of(check)  # the report says where it was kept
    text = (kept / "exercise_6.py").read_text()
    assert "def call_model" in text and "import json as j" in text and "fallback_model as backup" in text
    assert "\nreview_every_stop\n" not in text  # the bare expression is not carried

    seven = notebook(language, "07_safety")
    at = index_of(seven, "start_from(6, grow_into=review_with_gate)")
    replies = run(seven, folder, kept)
    demo = index_of(seven, "start_from(6)  #")  # the "break it" demo runs the learner's loop, and leaves its cell be
    assert "exercise_6.py" in output_of(seven.cells[demo]) and "review_every_stop" in output_of(seven.cells[demo])
    assert not [p for p in replies[demo]["content"].get("payload", []) if p.get("source") == "set_next_input"]
    unguarded = output_of(seven.cells[index_of(seven, "print(review_every_stop(485))")])
    assert ("main moved: True" if language == "en" else "ветка main сдвинулась: True") in unguarded, unguarded
    said = output_of(seven.cells[at])
    assert "exercise_6.py" in said and "review_with_gate" in said, said
    assert ("takes approve as well" if language == "en" else "принимает ещё и approve") in said, said
    carried = filled(replies[at])
    assert "review_with_gate(pr_number: int, approve=ask_human, max_iterations: int = 20) -> str" in carried
    seven.cells[at].source = grow_into_7(carried)  # the learner grows what the cell now holds, and runs it again
    run(seven, folder, kept)
    check = seven.cells[index_of(seven, "check_exercise_7(review_with_gate)")]
    assert passed(check), output_of(check)
    payoff = output_of(seven.cells[index_of(seven, "review_with_gate(485, approve=")])  # the learner's gate, at work
    assert ("main moved: False" if language == "en" else "ветка main сдвинулась: False") in payoff, payoff
    assert "review_with_gate" not in payoff, payoff  # it ran the learner's loop, which passed: not the reference's

    eight = notebook(language, "08_full_reviewer")
    at = index_of(eight, "start_from(7, grow_into=review_with_cost)")
    replies = run(eight, folder, kept)
    carried = filled(replies[at])
    assert "exercise_7.py" in output_of(eight.cells[at])
    eight.cells[at].source = grow_into_8(carried)
    run(eight, folder, kept)
    check = eight.cells[index_of(eight, "check_exercise_8(review_with_cost)")]
    assert passed(check), output_of(check)
    assert (kept / "exercise_8.py").is_file()


EXERCISE_4 = '''def tool_result(call):
    return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}


def run_all(calls, answer=tool_result):
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(answer, calls))


def review_concurrently(pr_number, max_iterations=20):
    messages = [{"role": "user", "content": f"Review merge request !{pr_number}."}]
    for _ in range(max_iterations):
        response = client.messages.create(model=MODEL, max_tokens=16000, system=REVIEW_RULES, tools=TOOLS,
                                          messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "end_turn":
            return "".join(block.text for block in response.content if block.type == "text")
        results = run_all([block for block in response.content if block.type == "tool_use"])
        messages.append({"role": "user", "content": results})
    raise RuntimeError(f"no answer after {max_iterations} iterations")
'''
SAFE = '''def tool_result(call):
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "content": repr(error), "is_error": True}
'''


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_4_as_notebook_4_writes_run_all_is_what_exercise_5_grows(language, tmp_path):
    """The instructor's read: an exercise 4 that calls notebook 4's run_all(calls, answer=tool_result) was lost on its
    way to the next notebook (the helper named only in a default argument was not carried). Kept by its check in
    notebook 4's kernel, it is what notebook 5's exercise cell brings; grown there (tool_result catches), it passes
    exercise 5 and is kept for notebook 6."""
    kept = tmp_path / "my_code"
    folder = ROOT / "notebooks" / language
    four = notebook(language, "04_parallel_tools")
    at = index_of(four, "start_from(3, grow_into=review_concurrently)")
    four.cells[at:at + 1] = [nbformat.v4.new_code_cell(EXERCISE_4)]
    run(four, folder, kept)
    check = four.cells[index_of(four, "check_exercise_4(review_concurrently)")]
    assert passed(check), output_of(check)
    text = (kept / "exercise_4.py").read_text()
    assert "def tool_result(call)" in text.split("def run_all")[0], text  # what run_all's default names comes first

    five = notebook(language, "05_errors")
    at = index_of(five, "start_from(4, grow_into=review_safely)")
    replies = run(five, folder, kept)
    said = output_of(five.cells[at])
    assert "exercise_4.py" in said and "did not run" not in said and "не запустилось" not in said, said
    carried = filled(replies[at])
    assert "def review_safely(pr_number: int, max_iterations: int = 20) -> str:" in carried, carried  # the stub's
    assert "def review_safely(pr_number, max_iterations=20)" not in carried and "answer=tool_result" in carried, carried
    five.cells[at].source = carried.replace(EXERCISE_4.split("\n\n\n")[0] + "\n", SAFE)
    assert five.cells[at].source != carried
    run(five, folder, kept)
    check = five.cells[index_of(five, "check_exercise_5(review_safely)")]
    assert passed(check), output_of(check)
    assert (kept / "exercise_5.py").is_file()


# Unit tests: a notebook cell is simulated as IPython makes one (a __main__ namespace, its text in linecache).

def cell(text: str, namespace: dict | None = None, name: str = "<cell 1>") -> dict:
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
    exec(compile(text, name, "exec"), namespace)
    return namespace


def test_a_function_from_a_module_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    assert my_code.keep(6, ast.parse) is None
    assert list(tmp_path.iterdir()) == []


def test_kept_text_carries_helpers_imports_and_names_left_to_the_notebook(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    ns = cell("import textwrap as tw\nfrom pathlib import Path as P\nLIMIT, TOOLS, client = 3, [], None\n\n"
              "def helper(x):\n    return tw.indent(x, '>') + P('a').name * LIMIT\n", name="<cell 1>")
    cell("def loop(pr):\n    return [helper(t) for t in TOOLS] + [client]\n\nprint(loop)\nloop(1)\n", ns, "<cell 2>")
    path = my_code.keep(6, ns["loop"])
    text = path.read_text()
    assert "def helper(x)" in text and "import textwrap as tw" in text and "from pathlib import Path as P" in text
    assert "print(loop)" not in text and "loop(1)" not in text
    uses = next(line for line in text.splitlines() if line.startswith("# It uses"))
    assert {"LIMIT", "TOOLS", "client"} <= set(uses.replace(",", " ").rstrip(".").split())
    fresh = {"__name__": "__main__", "TOOLS": ["abcdef"], "client": "c", "LIMIT": 5}
    exec(compile(text, str(path), "exec"), fresh)
    assert fresh["loop"](1) == [">abcdefaaaaa", "c"]


def test_start_from_runs_yours_or_the_reference_and_says_which(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    given: dict = {}
    my_code.start_from(6, namespace=given)
    assert "no exercise 6 that passed" in capsys.readouterr().out
    assert "review_every_stop" in given and "tool_result" in given

    (tmp_path / "exercise_6.py").write_text("def review_every_stop(pr):\n    return 'mine'\n")
    mine: dict = {}
    my_code.start_from(6, namespace=mine)
    assert "kept in" in capsys.readouterr().out and mine["review_every_stop"](1) == "mine"

    (tmp_path / "exercise_6.py").write_text("raise ValueError('half written')\n")
    broken: dict = {}
    my_code.start_from(6, namespace=broken)
    out = capsys.readouterr().out
    assert "did not run here (ValueError: half written)" in out and "defined here instead" in out
    assert "no exercise 6 that passed" not in out  # it did pass: it only did not run here
    assert broken["review_every_stop"].__code__.co_filename == "<reference solution of exercise 6>"


def test_the_reference_that_start_from_brings_is_the_shown_solution():
    for number in (3, 6, 7):
        assert "def review" in solution_code(number)
        assert "tr(" not in solution_code(number) and "course_agent.i18n" not in solution_code(number)


STATEMENTS = st.sampled_from(["x = 1", "def f():\n    return x", "print(x)", "f()", "import os", "'doc'",
                              "class C:\n    pass", "for i in range(2):\n    x += i", "y = [f() for _ in range(2)]",
                              "try:\n    f()\nexcept RuntimeError as error:\n    print(error)",
                              "if x:\n    f()", "answer: str = f()", "LIMIT: int = 20_000", "@staticmethod\ndef g():\n    pass"])
DEFINES = ("x = 1", "def f", "import os", "class C", "LIMIT: int", "@staticmethod")


@settings(max_examples=80, deadline=None)
@given(st.lists(STATEMENTS, min_size=1, max_size=8))
def test_definitions_keep_what_defines_and_drop_what_runs(statements):
    """A kept cell defines its loop, its helpers, imports and constants; a test run of the loop (a call, a print, a
    try around a review, a loop, a value computed by a call) is not kept: it would run again in a later notebook."""
    text = "\n".join(statements) + "\n"
    kept, names = my_code._definitions(text)
    tree = ast.parse(kept)
    assert len(tree.body) == sum(s.startswith(DEFINES) for s in statements), kept
    assert not any(isinstance(node, (ast.Expr, ast.Try, ast.If, ast.For)) for node in tree.body)
    assert ("f" in names) == any(s.startswith("def f") for s in statements)
    assert ("x" in names) == ("x = 1" in statements)


def test_a_method_of_a_class_written_in_a_cell_is_kept_with_its_cell(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    ns = cell("class Reviewer:\n    def review(self, pr):\n        return pr\n", name="<cell 3>")
    assert "class Reviewer" in my_code.keep(7, ns["Reviewer"]().review).read_text()
    assert my_code.keep(7, types.SimpleNamespace()) is None  # not a function: nothing to keep


def test_what_the_references_run_on_is_what_the_notebooks_define():
    """cells/given.py (the namespace a reference solution runs in) holds the statements of the notebooks' own
    tools, rules, gate-tools and paged read_file cells, English, and notebook 8's billed() and LIMIT."""
    import sys

    sys.path.insert(0, str(ROOT / "notebooks"))
    try:
        from cells import shared
    finally:
        sys.path.pop(0)
    from course_agent.solutions import given_code

    given = {ast.dump(node) for node in ast.parse(given_code(8)).body}
    named = shared(ROOT / "notebooks" / "source" / "shared_cells.py")
    for name in ("tools", "review_rules", "gate_tools", "paged_read"):
        for node in ast.parse(named[name].en).body:
            assert ast.dump(node) in given, (name, ast.unparse(node)[:80])
    lesson8 = (ROOT / "notebooks" / "source" / "08_full_reviewer.py").read_text()
    billed = next(node for node in ast.parse(lesson8).body if isinstance(node, ast.FunctionDef) and node.name == "billed")
    assert ast.dump(billed) in given and "LIMIT = 20_000" in lesson8 and "LIMIT = 20_000" in given_code(8)
    assert "merge_pr" not in given_code(6) and "def merge_pr" in given_code(7)
    assert "READ_FILE" not in given_code(7) and "READ_FILE" in given_code(8)


def test_a_folder_that_cannot_be_written_keeps_nothing_and_breaks_nothing(tmp_path, monkeypatch):
    """keep() after a passed check: a folder that cannot be made (a file is in its way) gives None, not an error."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(blocked / "my_code"))
    ns = cell("def loop(pr):\n    return pr\n", name="<cell 9>")
    assert my_code.keep(6, ns["loop"]) is None


STUB_4 = '''def review_concurrently(pr_number: int, max_iterations: int = 20) -> str:
    """Your loop."""
    raise NotImplementedError("your code here")
'''
MY_3 = '''import json


def tool_calls(messages):
    return []  # review_pull_request stays as it is in a comment


def review_pull_request(pr_number, messages=None, max_iterations=20):
    """Ревью: review_pull_request, in a string too."""
    if max_iterations < 0:
        return review_pull_request(pr_number, messages, 0)
    return "é" + json.dumps(pr_number)
'''


@pytest.mark.parametrize("language", ["en", "ru"])
def test_start_from_renames_the_carried_loop_to_the_stubs_name(language, tmp_path, monkeypatch, capsys):
    """Exercise 3's review_pull_request, put in place of exercise 4's stub, is review_concurrently there (its
    recursive use too), every other byte kept; the message says so; the loop runs under the stub's name at once (the
    old name is not defined: one copy of the loop), so the check right after judges the carried loop, not the stub;
    passed as it is, it is kept under the new name."""
    from course_selfcheck.loop_exercises import check_exercise_4

    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", language)
    (tmp_path / "exercise_3.py").write_text(MY_3, encoding="utf-8")
    pasted: list[str] = []
    monkeypatch.setattr(my_code, "_into_this_cell", lambda text, exercise, yours: pasted.append(text))
    ns = cell(STUB_4, name="<cell 4>")
    my_code.start_from(3, grow_into=ns["review_concurrently"], namespace=ns)
    out = capsys.readouterr().out
    said = ("review_pull_request is renamed review_concurrently" if language == "en"
            else "функция review_pull_request переименована в review_concurrently")
    assert said in out, out
    body = pasted[0].split("\n\n", 1)[1]
    assert body == MY_3.replace("def review_pull_request(", "def review_concurrently(").replace(
        "return review_pull_request(", "return review_concurrently(")
    assert ns["review_concurrently"](5) == "é5" and ns["review_concurrently"](5, max_iterations=-1) == "é5"
    assert "review_pull_request" not in ns
    checked = check_exercise_4(ns["review_concurrently"], language)
    report = str(checked)  # this loop sends nothing: the check says so, of the carried loop
    assert not checked.ok and ("no request" if language == "en" else "ни одного запроса") in report, report
    assert "NotImplementedError" not in report and "stub" not in report and "заготовк" not in report, report
    assert my_code.kept_text(4, ns["review_concurrently"]).endswith(body.split("\n\n\n", 1)[1]), \
        my_code.kept_text(4, ns["review_concurrently"])
    cell(body, ns, "<cell 4, grown>")  # the learner runs what the cell now holds
    assert ns["review_concurrently"](5) == "é5"


def test_the_reference_is_renamed_too_and_a_stub_of_the_same_name_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    pasted: list[str] = []
    monkeypatch.setattr(my_code, "_into_this_cell", lambda text, exercise, yours: pasted.append(text))
    ns = cell(STUB_4.replace("review_concurrently", "review_with_gate"), name="<cell 7>")
    stub = ns["review_with_gate"]
    my_code.start_from(6, grow_into=stub, namespace=ns)
    assert "def review_with_gate(" in pasted[0] and "def review_every_stop" not in pasted[0]
    assert pasted[0].split("\n\n", 1)[1] == my_code.renamed(solution_code(6), "review_every_stop", "review_with_gate")
    assert ns["review_with_gate"] is not stub and "review_every_stop" not in ns
    assert ns["review_with_gate"].__code__.co_name == "review_with_gate"
    same = cell(STUB_4.replace("review_concurrently", "review_every_stop"), name="<cell 6>")
    stub = same["review_every_stop"]
    my_code.start_from(6, grow_into=stub, namespace=same)
    assert pasted[1].split("\n\n", 1)[1] == solution_code(6)
    assert same["review_every_stop"] is not stub


def test_renamed_counts_lines_as_python_does():
    """A line separator or form feed inside a string is not a new line for ast: the rename still lands on the name."""
    text = 'def f(x):\n    """a\u2028b\x0cc"""\n    return f(x - 1) if x else "f"\n'
    assert my_code.renamed(text, "f", "grown") == text.replace("def f(", "def grown(").replace("return f(", "return grown(")


def test_a_helper_named_only_in_a_default_is_carried_and_an_attribute_name_is_not_a_global(tmp_path, monkeypatch):
    """Exercise 4 as notebook 4 suggests it (results = run_all(calls), run_all(calls, answer=tool_result)): the helper
    named only in a default argument travels too; `client.messages` does not make a notebook variable `messages`
    one the loop uses."""
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    ns = cell("messages = ['a demo history']\nclient = None\n\n"
              "def tool_result(call):\n    return {'id': call}\n\n\n"
              "def run_all(calls, answer=tool_result):\n    return [answer(c) for c in calls]\n", name="<cell 1>")
    cell("def loop(pr, *, shown=print):\n    client.messages\n    return run_all([pr])\n", ns, "<cell 2>")
    text = my_code.keep(4, ns["loop"]).read_text()
    assert "def tool_result(call)" in text and "def run_all(calls, answer=tool_result)" in text
    uses = next(line for line in text.splitlines() if line.startswith("# It uses"))
    assert "client" in uses and "messages" not in uses
    fresh = {"__name__": "__main__", "client": types.SimpleNamespace(messages=None)}
    exec(compile(text, "kept", "exec"), fresh)
    assert fresh["loop"](7) == [{"id": 7}]


def test_the_header_start_from_wrote_is_not_kept_again(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    ns = cell("# The reference solution of exercise 3: you have no exercise 3 that passed its check.\n"
              "# Grow it into this function, then run this cell:\n\n"
              "def loop(pr):\n    return pr\n", name="<cell 1>")
    text = my_code.keep(4, ns["loop"]).read_text()
    assert "exercise 3" not in text and text.count("# Your exercise 4") == 1


def test_yours_that_did_not_run_is_not_called_missing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    (tmp_path / "exercise_6.py").write_text("def review_every_stop(pr, answer=missing_helper):\n    return pr\n")
    given: dict = {}
    my_code.start_from(6, namespace=given)
    out = capsys.readouterr().out
    assert "did not run here (NameError" in out and "defined here instead" in out
    assert "no exercise 6 that passed" not in out


def test_what_a_function_of_the_same_cell_uses_is_carried_too(tmp_path, monkeypatch):
    """The loop and its helpers in one cell (as exercise 4 is often written): the helpers' own imports travel, from
    the module path the learner would write (concurrent.futures, not concurrent.futures.thread)."""
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    ns = cell("from concurrent.futures import ThreadPoolExecutor\nimport json\nrun_tool = None\n", name="<cell 1>")
    cell("def helper(calls):\n    with ThreadPoolExecutor(2) as pool:\n        return json.dumps(list(pool.map(str, calls)))"
         "\n\n\ndef loop(pr):\n    return helper([pr])\n", ns, "<cell 2>")
    text = my_code.keep(4, ns["loop"]).read_text()
    assert "from concurrent.futures import ThreadPoolExecutor" in text and "import json" in text, text
    fresh = {"__name__": "__main__"}
    exec(compile(text, "kept", "exec"), fresh)
    assert fresh["loop"](3) == '["3"]'


@pytest.mark.parametrize("language", ["en", "ru"])
def test_start_from_leaves_a_grown_function_alone(language, tmp_path, monkeypatch, capsys):
    """A learner who typed their loop into the stub and kept the start_from line (or whose editor did not replace the
    cell) keeps their loop: nothing runs, nothing is pasted, and start_from says so (instructor read 61, F5)."""
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", language)
    (tmp_path / "exercise_3.py").write_text(MY_3, encoding="utf-8")
    pasted: list[str] = []
    monkeypatch.setattr(my_code, "_into_this_cell", lambda text, exercise, yours: pasted.append(text))
    grown = STUB_4.replace('raise NotImplementedError("your code here")', 'return "mine"')
    ns = cell(grown, name="<cell 4, typed into>")
    mine = ns["review_concurrently"]
    my_code.start_from(3, grow_into=mine, namespace=ns)
    out = capsys.readouterr().out
    said = ("Your review_concurrently in this cell is used; start_from did nothing." if language == "en"
            else "Используется ваша функция review_concurrently из этой ячейки; start_from ничего не сделал.")
    assert out.strip() == said, out
    assert pasted == [] and ns["review_concurrently"] is mine and "tool_calls" not in ns
    assert my_code.is_stub(cell(STUB_4, name="<cell 4>")["review_concurrently"]) and not my_code.is_stub(mine)


def test_run_tool_of_lesson_tools_is_left_to_the_notebook_and_an_import_over_yours_is_said(tmp_path, monkeypatch,
                                                                                             capsys):
    """The loop's run_tool comes from lesson_tools, which every notebook imports: the kept file names it among what
    it uses from the notebook and imports nothing of it, so a learner's own run_tool is not put back by the course's;
    a file kept before that which still imports it says so when it does (F14)."""
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    lesson_tools = types.ModuleType("lesson_tools")
    exec("def run_tool(name, tool_input):\n    return {'content': 'the course'}\n", lesson_tools.__dict__)
    monkeypatch.setitem(__import__("sys").modules, "lesson_tools", lesson_tools)
    ns = cell("from lesson_tools import run_tool\n", name="<tools cell>")
    cell("def review_every_stop(pr_number):\n    return run_tool('get_diff', {'pr': pr_number})\n", ns, "<cell 6>")
    text = my_code.kept_text(6, ns["review_every_stop"])
    assert "import" not in text and "run_tool." in text.splitlines()[1], text
    (tmp_path / "exercise_6.py").write_text("from lesson_tools import run_tool\n\n\n" + text, encoding="utf-8")
    own = cell("def run_tool(name, tool_input):\n    return {'content': 'mine'}\n", ns, "<my tools>")["run_tool"]
    my_code.start_from(6, namespace=ns)
    out = capsys.readouterr().out
    assert "That code imports run_tool, over the one a cell of this notebook defined" in out, out
    assert ns["run_tool"] is not own
    (tmp_path / "exercise_6.py").write_text(text, encoding="utf-8")
    ns["run_tool"] = own
    my_code.start_from(6, namespace=ns)
    assert "imports" not in capsys.readouterr().out and ns["run_tool"] is own
    assert ns["review_every_stop"](3) == {"content": "mine"}


# Exercise 6 kept in a style of its own: other parameter names, a def line over two lines, a line that fails.
MINE_6 = '''import json


def review_every_stop(number,
                      limit=5):
    if number < 0:
        raise ValueError("a negative number")  # line 7
    return json.dumps([number, limit])
'''
# A stub in another style than the course's: a string annotation, a lambda default, a keyword-only parameter with a
# default, no return annotation, a comment after the colon.
STUB_OTHER = '''def grow_here(number: "int", ask=lambda name, tool_input: name == "yes", limit: int = 7, *, tag=TAG):  # mine
    """Grown in another style."""
    raise NotImplementedError
'''


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_carried_loop_takes_the_stubs_def_line(language, tmp_path, monkeypatch, capsys):
    """Instructor read 62, F1: exercise 7's stub takes `approve`, exercise 6's loop does not; brought into the stub's
    cell, the loop takes the stub's def line, as the stub's cell spells it (its names, defaults, annotations), while it
    runs at once and in the cell; the lines of the body stay where the kept file has them (a traceback still points at
    the right line); kept after its check, it is kept as it was judged: with the stub's def line."""
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", language)
    (tmp_path / "exercise_6.py").write_text(MINE_6, encoding="utf-8")
    pasted: list[str] = []
    monkeypatch.setattr(my_code, "_into_this_cell", lambda text, exercise, yours: pasted.append(text))
    ns = cell("TAG = 'x'\n", name="<cell 7, a constant>")
    cell(STUB_OTHER, ns, name="<cell 7, other style>")
    my_code.start_from(6, grow_into=ns["grow_here"], namespace=ns)
    out = capsys.readouterr().out
    said = ("Its def line is the stub's, so grow_here takes ask, tag as well." if language == "en"
            else "Заголовок функции (строка def) взят из заготовки, поэтому grow_here принимает ещё и ask, tag.")
    assert said in out, out
    header = STUB_OTHER.split("  # mine")[0]
    body = pasted[0].split("\n\n", 1)[1]
    assert body == MINE_6.replace("def review_every_stop(number,\n                      limit=5):", "\n" + header)
    grown = ns["grow_here"]
    assert list(inspect.signature(grown).parameters) == ["number", "ask", "limit", "tag"]
    assert grown(3) == "[3, 7]" and grown(3, None, 2, tag="y") == "[3, 2]"  # the stub's default, limit=7
    assert grown.__defaults__[0]("yes", {}) is True and grown.__annotations__ == {"number": "int", "limit": int}
    with pytest.raises(ValueError) as raised:
        grown(-1)
    assert raised.traceback[-1].lineno + 1 == 7 and str(raised.traceback[-1].path) == str(tmp_path / "exercise_6.py")
    kept = my_code.kept_text(7, grown)
    assert header + "\n" in kept and "def review_every_stop" not in kept and "limit=5" not in kept, kept
    assert "TAG" in kept.split("\n\n\n")[0], kept  # what the def line names is left to the notebook, and said
    again = cell(kept, {"__name__": "__main__", "TAG": "x"}, "<exercise 7 as kept>")["grow_here"]
    assert again(3) == "[3, 7]" and list(inspect.signature(again).parameters) == ["number", "ask", "limit", "tag"]
    cell(body, ns, "<cell 7, grown>")  # the learner runs what the cell now holds: the same function
    assert ns["grow_here"](4) == "[4, 7]" and ns["grow_here"].__kwdefaults__ == grown.__kwdefaults__ == {"tag": "x"}


def test_a_stub_def_line_longer_than_the_loops_is_written_on_one_line():
    """The lines stay where they were: a stub's def line over three lines, put over a loop's def line of one, is
    written on one line (its comments left out); a shorter one is preceded by blank lines (the test above)."""
    text = "import os\n\n\ndef old(a, b=1):\n    return (a, b)  # line 5\n"
    header = "def new(a: int,  # the first\n        b=2,\n        c=None) -> tuple:"
    got = my_code.grown(text, "old", "new", header)
    assert got == "import os\n\n\ndef new(a: int, b=2, c=None) -> tuple:\n    return (a, b)  # line 5\n", got
    assert my_code.grown(text, "old", "old", None) == text
    assert my_code.grown("def old(a): return old\n", "old", "new", "def new(a, b=0):") == "def new(a, b=0): return new\n"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_loop_whose_code_needs_its_own_parameter_keeps_its_def_line_and_says_what_to_change(
        language, tmp_path, monkeypatch, capsys):
    """Exercise 3's loop uses `messages`, which exercise 4's stub does not take: it keeps its own def line, which still
    runs; when the stub takes what the loop's def line does not (`ask` here), start_from says what to change."""
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path))
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", language)
    (tmp_path / "exercise_6.py").write_text("def review_every_stop(number, history=None):\n"
                                            "    return (history or []) + [number]\n", encoding="utf-8")
    pasted: list[str] = []
    monkeypatch.setattr(my_code, "_into_this_cell", lambda text, exercise, yours: pasted.append(text))
    ns = cell("TAG = 'x'\n" + STUB_OTHER, name="<cell 7, other style>")
    my_code.start_from(6, grow_into=ns["grow_here"], namespace=ns)
    out = capsys.readouterr().out
    said = ("Its def line is still that of exercise 6, since its code uses history, which the stub's def line does not "
            "take: change the def line to the stub's, so that grow_here takes ask, limit, tag as well."
            if language == "en" else
            "Заголовок функции (строка def) остался от упражнения 6: код функции использует history, а заголовок "
            "заготовки этого не принимает. Замените заголовок на тот, что в заготовке, чтобы функция grow_here принимала ещё и ask, limit, "
            "tag.")
    assert said in out, out
    assert "def grow_here(number, history=None):" in pasted[0] and ns["grow_here"](1, [0]) == [0, 1]
    assert my_code.def_line(MY_3, "review_pull_request", cell(STUB_4, name="<cell 4>")["review_concurrently"]) == \
        (None, [], ["messages"])  # notebook 4's case: nothing to add, nothing said
