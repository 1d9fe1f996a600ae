"""A check judges the code it keeps: when a cell run after the exercise cell gives a name the loop reads another
value (notebook 5's reveal defines a safe tool_result after the exercise cell), "Done" must not stand for a loop
whose kept file (what start_from brings to the next notebook) does something else. The instructor's read 60 passed
an unchanged exercise 5 that way, and notebook 6 then failed the loop it brought.

A notebook cell is simulated as IPython makes one: a __main__ namespace, the cell's text in linecache."""

import linecache

import pytest
from hypothesis import given, settings, strategies as st

from course_agent import my_code
from course_agent.solutions import given_code, solution_code
from course_selfcheck.loop_exercises import check_exercise_5, check_exercise_6

UNSAFE = solution_code(4).replace("def review_concurrently(", "def review_safely(")
"""Exercise 5's cell as start_from brings reference 4, unchanged: its tool_result has no try, and run_all looks
tool_result up when it runs."""
SAFE = '''def tool_result(call) -> dict:
    """The tool_result block that answers one call: a failure too, with is_error, never an exception."""
    try:
        return {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.input)}
    except Exception as error:
        return {"type": "tool_result", "tool_use_id": call.id, "is_error": True,
                "content": f"{call.name} failed: {type(error).__name__}: {error}"}
'''
"""Notebook 5's reveal, as it stood when the instructor read it: a safe tool_result under the same name."""
_serial = iter(range(10**9))


def cell(text: str, namespace: dict) -> dict:
    name = f"<ipython-input-{next(_serial)}>"
    linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
    exec(compile(text, name, "exec"), namespace)
    return namespace


def notebook(number: int) -> dict:
    """A notebook's namespace when its exercise starts (its shared cells run), as IPython has it."""
    return cell(given_code(number), {"__name__": "__main__"})


@pytest.fixture(autouse=True)
def kept_apart(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path / "my_code"))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_unchanged_exercise_5_does_not_pass_on_the_reveals_tool_result(language, tmp_path):
    ns = cell(UNSAFE, notebook(5))
    cell(SAFE + "\n\nprint(review_safely(999))\n", ns)  # the reveal runs a review too
    report = check_exercise_5(ns["review_safely"], language=language)
    assert not report.ok, report.text()
    assert "errors_are_results" in report.broken, report.text()
    said = "Judged as your exercise cell defines it" if language == "en" else "Проверен код в том виде"
    assert report.note.startswith(said) and "tool_result" in report.note.split("\n")[0], report.note
    assert not (tmp_path / "my_code" / "exercise_5.py").exists()  # nothing kept: notebook 6 gets the reference


def test_the_safe_tool_result_in_the_exercise_cell_passes_and_is_kept(tmp_path):
    ns = cell(UNSAFE.replace(UNSAFE[UNSAFE.index("def tool_result"):UNSAFE.index("def run_all")], SAFE + "\n\n"),
              notebook(5))
    report = check_exercise_5(ns["review_safely"])
    assert report.ok, report.text()
    assert "Judged as" not in report.note
    kept = (tmp_path / "my_code" / "exercise_5.py").read_text()
    assert "except Exception as error" in kept


def test_a_later_unsafe_tool_result_does_not_fail_the_cell_that_is_right(tmp_path):
    """The other way round: the exercise cell is right, a later cell (a learner's experiment) put the unsafe one
    back. The check judges what it keeps, which is right; it says so."""
    safe_cell = UNSAFE.replace(UNSAFE[UNSAFE.index("def tool_result"):UNSAFE.index("def run_all")], SAFE + "\n\n")
    ns = cell(safe_cell, notebook(5))
    cell(UNSAFE[UNSAFE.index("def tool_result"):UNSAFE.index("def run_all")], ns)
    report = check_exercise_5(ns["review_safely"])
    assert report.ok, report.text()
    assert "Judged as your exercise cell defines it" in report.note, report.note
    assert "except Exception as error" in (tmp_path / "my_code" / "exercise_5.py").read_text()


def test_a_helper_in_a_cell_of_its_own_is_carried_not_called_redefined():
    """tool_result written in a cell of its own, then edited and run again: the kept file carries its current
    source, so the live loop is the kept one and nothing is said."""
    ns = notebook(5)
    cell(UNSAFE[UNSAFE.index("def tool_result"):UNSAFE.index("def run_all")], ns)
    cell(SAFE, ns)  # the learner's fix, in the helper's own cell
    cell(UNSAFE[:UNSAFE.index("def tool_result")] + UNSAFE[UNSAFE.index("def run_all"):], ns)
    loop = ns["review_safely"]
    assert my_code.as_kept(5, loop) == (loop, [])
    report = check_exercise_5(loop)
    assert report.ok and "Judged as" not in report.note, report.text()


def test_a_loop_from_a_module_or_a_reference_namespace_is_judged_as_it_is():
    from course_agent.solutions import reference

    loop = reference(5)["review_safely"]
    assert my_code.as_kept(5, loop) == (loop, [])
    assert my_code.as_kept(5, len) == (len, [])


def test_a_cell_that_cannot_run_alone_is_judged_live():
    """Its kept text raises when run again (a decorator of the notebook that registers a name once): the next
    notebook's start_from says so and brings the reference; the check judges the live loop as before."""
    ns = cell("REGISTRY = set()\n\n\ndef register(f):\n    if f.__name__ in REGISTRY:\n"
              "        raise ValueError('registered twice')\n    REGISTRY.add(f.__name__)\n    return f\n",
              {"__name__": "__main__"})
    cell("@register\ndef review_every_stop(pr):\n    return pr\n", ns)
    loop = ns["review_every_stop"]
    assert my_code.as_kept(6, loop) == (loop, [])


NAMES = st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta", "LIMIT", "WORDS"]), unique=True, max_size=6)


@settings(max_examples=60, deadline=None)
@given(read=NAMES, redefined=NAMES, same_again=NAMES)
def test_redefined_is_exactly_what_the_loop_reads_and_a_later_cell_changed(read, redefined, same_again):
    """Helpers and constants in the exercise cell; the loop reads some of them (through a helper too); a later cell
    redefines some with other values and some with the same ones. as_kept names exactly the ones the loop reads and
    that now differ, and the function it gives reads the cell's values."""
    def defined(name: str, value: int) -> str:
        return f"{name} = {value}\n" if name.isupper() else f"def {name}():\n    return {value}\n"

    def read_it(name: str) -> str:
        return name if name.isupper() else f"{name}()"

    text = "".join(defined(n, 1) for n in ["alpha", "beta", "gamma", "delta", "LIMIT", "WORDS"])
    first, rest = (read[0], read[1:]) if read else (None, [])
    via = f"def via():\n    return [{', '.join(map(read_it, rest))}]\n" if rest else ""
    body = ", ".join([*([read_it(first)] if first else []), *(["*via()"] if rest else [])])
    text += via + f"def loop(pr):\n    return [{body}]\n"
    ns = cell(text, {"__name__": "__main__"})
    later = "".join(defined(n, 2) for n in redefined) + "".join(defined(n, 1) for n in same_again
                                                               if n not in redefined)
    if later:
        cell(later, ns)
    judged, said = my_code.as_kept(6, ns["loop"])
    assert said == sorted(set(read) & set(redefined))
    assert judged(1) == [1] * len(read)
    if not said:
        assert judged is ns["loop"]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_exercise_6_judges_its_kept_loop_too(language):
    """Notebook 6's reference written in a cell of the notebook: nothing redefined, judged and kept as it is."""
    text = solution_code(6)
    ns = cell(text, notebook(6))
    assert check_exercise_6(ns["review_every_stop"], language=language).ok
    assert my_code.as_kept(6, ns["review_every_stop"]) == (ns["review_every_stop"], [])


def test_a_passing_loop_has_its_kept_text_read_once(tmp_path, monkeypatch):
    """grade_loop reads kept_text once and passes it on: as_kept judges that text and keep() writes it (it was read
    twice, once by each). The file kept is still what kept_text gives."""
    from course_selfcheck.exercises import loops

    ns = cell(solution_code(5), notebook(5))
    real, read = my_code.kept_text, []

    def counted(*args):
        read.append(args[0])
        return real(*args)

    monkeypatch.setattr(my_code, "kept_text", counted)
    monkeypatch.setattr(loops, "kept_text", counted)
    report = check_exercise_5(ns["review_safely"])
    assert report.ok, report.text()
    assert read == [5], read
    assert (tmp_path / "my_code" / "exercise_5.py").read_text() == real(5, ns["review_safely"])


CLASS_CELL = '''class Denial:
    @staticmethod
    def of(name: str) -> str:
        return f"{name} is not available right now. Try it again."


def loop(pr):
    return Denial.of("merge_pr")
'''
"""Attack 18's H5: the exercise cell's loop reads a class of the same cell."""


@pytest.mark.parametrize("later, drifts", [
    ('class Denial:\n    @staticmethod\n    def of(name: str) -> str:\n        return f"A human denied {name}."\n', True),
    ("class Denial:\n    WHO = 'a human'\n\n    @staticmethod\n    def of(name: str) -> str:\n"
     "        return f\"{name} is not available right now. Try it again.\"\n", True),
    ("class Denial(Exception):\n    pass\n", True),
    ("Denial = 'a string now'\n", True),
    ("class Denial:\n    @staticmethod\n    def of(name: str) -> str:\n"
     "        return f\"{name} is not available right now. Try it again.\"\n", False),  # the same class again
])
def test_a_class_redefined_after_the_exercise_cell_is_judged_as_kept(later, drifts):
    """A class is compared as a function is (its methods' source, its constants, its bases): a class redefined after
    the exercise cell with other code is judged as the exercise cell defines it, and said so."""
    ns = cell(CLASS_CELL, {"__name__": "__main__"})
    cell(later, ns)
    judged, said = my_code.as_kept(6, ns["loop"])
    assert said == (["Denial"] if drifts else []), said
    assert judged(1) == "merge_pr is not available right now. Try it again."


def test_a_helper_made_by_a_call_is_kept_with_the_loop(tmp_path):
    """Attack 18's F2: `denied = functools.partial(...)` in the exercise cell, read by the loop, is kept (the loop
    raised NameError in the next notebook); a test run nothing reads stays behind."""
    text = ("import functools\n\n\ndef denial(name, who):\n    return f'{who} denied {name}.'\n\n\n"
            "denied = functools.partial(denial, who='A human')\nsuffix = str.upper('!')\n\n\n"
            "def loop(pr):\n    return denied('merge_pr') + suffix\n\n\nresult = loop(485)\nprint(result)\n")
    ns = cell(text, {"__name__": "__main__"})
    kept = my_code.kept_text(7, ns["loop"])
    assert "denied = functools.partial(denial, who='A human')" in kept and "suffix = str.upper" in kept, kept
    assert "result = loop(485)" not in kept and "print(result)" not in kept, kept
    fresh: dict = {"__name__": "kept"}
    exec(compile(kept, "<kept>", "exec"), fresh)
    assert fresh["loop"](1) == "A human denied merge_pr.!"
