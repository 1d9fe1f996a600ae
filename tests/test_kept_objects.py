"""as_kept (my_code) compares what a later cell may have changed through an object too (attack 19's H4): a
functools.partial by its function, arguments and keywords, an instance by its class and attributes; a value neither
side can show is judged as kept. Cells simulated as IPython makes them (a __main__ namespace, the text in
linecache); the values drawn by hypothesis."""

import linecache

import pytest
from hypothesis import given, settings, strategies as st

from course_agent import my_code

_serial = iter(range(10**9))
WORDS = st.text(alphabet="abcdefgh .", min_size=0, max_size=12)
VALUES = st.one_of(st.integers(-5, 5), WORDS, st.lists(st.integers(0, 3), max_size=3), st.none())


def cell(text: str, namespace: dict) -> dict:
    name = f"<ipython-input-{next(_serial)}>"
    linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
    exec(compile(text, name, "exec"), namespace)
    return namespace


@pytest.fixture(autouse=True)
def kept_apart(tmp_path, monkeypatch):
    monkeypatch.setenv(my_code.FOLDER_VARIABLE, str(tmp_path / "my_code"))


INSTANCE = '''
class Denier:
    def __init__(self, text, extra):
        self.text, self.extra = text, extra

    def say(self, name):
        return self.text.format(name=name)


denier = Denier({first!r}, {extra!r})


def loop(name):
    return denier.say(name)
'''


@settings(max_examples=25, deadline=None)
@given(first=WORDS, later=WORDS, extra=VALUES, extra_later=VALUES)
def test_an_instance_changed_by_a_later_cell_is_judged_as_kept(first, later, extra, extra_later):
    ns = cell(INSTANCE.format(first=first, extra=extra), {"__name__": "__main__"})
    cell(f"denier.text = {later!r}\ndenier.extra = {extra_later!r}\n", ns)
    judged, drifted = my_code.as_kept(7, ns["loop"])
    if (first, extra) == (later, extra_later):
        assert drifted == [] and judged is ns["loop"]
    else:
        assert drifted == ["denier"] and judged is not ns["loop"]
        assert judged("x") == first.replace("{name}", "x")  # the kept one: what the next notebook runs


PARTIAL = '''
import functools


def denial(name, who, *rest):
    return {template!r}.format(who=who, name=name, rest=rest)


denied = functools.partial(denial, who={who!r})


def loop(name):
    return denied(name)
'''


@settings(max_examples=25, deadline=None)
@given(template=st.sampled_from(["{who} denied {name}", "{name} is not available. Try it again.", "{rest}"]),
       template_later=st.sampled_from(["{who} denied {name}", "{name} is not available. Try it again."]),
       who=WORDS, who_later=WORDS)
def test_a_partial_rebuilt_by_a_later_cell_is_compared_by_its_function_and_arguments(template, template_later, who,
                                                                                      who_later):
    ns = cell(PARTIAL.format(template=template, who=who), {"__name__": "__main__"})
    later = PARTIAL.format(template=template_later, who=who_later).split("def loop")[0]  # the helper and the partial
    cell(later, ns)
    judged, drifted = my_code.as_kept(7, ns["loop"])
    if (template, who) == (template_later, who_later):
        assert drifted == [] and judged is ns["loop"]
    else:
        assert drifted == ["denied"], drifted
        assert judged("m") == template.format(who=who, name="m", rest=())


def test_an_object_neither_side_can_show_is_judged_as_kept_without_a_note():
    ns = cell("import threading\n\nLOCK = threading.Lock()\n\n\ndef loop(name):\n    with LOCK:\n        return name\n",
              {"__name__": "__main__"})
    judged, drifted = my_code.as_kept(7, ns["loop"])
    assert drifted == [] and judged is not ns["loop"] and judged("y") == "y"  # the kept one, nothing said


def test_compare_reads_a_partial_an_instance_and_a_container_item_by_item():
    import functools

    class Box:
        def __init__(self, value):
            self.value = value

    def f(a, b=1):
        return a, b

    assert my_code._compare(functools.partial(f, 1, b=2), functools.partial(f, 1, b=2)) is False
    assert my_code._compare(functools.partial(f, 1, b=2), functools.partial(f, 1, b=3)) is True
    assert my_code._compare(functools.partial(f, 1), f) is True
    assert my_code._compare(Box(1), Box(1)) is False and my_code._compare(Box(1), Box(2)) is True
    assert my_code._compare([Box(1), "a"], [Box(1), "a"]) is False and my_code._compare({"k": Box(1)}, {"k": Box(3)})
    assert my_code._compare(object(), object()) is None


class _Reviewer:
    """A loop written as a callable instance (attack 19's F3)."""

    def __call__(self, pr_number, max_iterations=20):
        return f"review of !{pr_number}"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_callable_instance_that_passed_is_said_not_kept(language, tmp_path, monkeypatch):
    from course_selfcheck.exercises.loops import keep_passed
    from course_selfcheck.report import PASSED, Finding, Report

    loop = _Reviewer()
    monkeypatch.setattr(__import__("__main__"), "review_every_stop", loop, raising=False)
    report = keep_passed(6, loop, Report("Exercise 6", [Finding("cap", PASSED)], language))
    assert report.ok and not (tmp_path / "my_code" / "exercise_6.py").exists()
    said = "Passed, but not kept" if language == "en" else "Проверка пройдена, но код не сохранён"
    assert said in report.note and "review_every_stop" in report.note and "def review_every_stop(" in report.note


def test_a_function_that_passed_is_kept_and_not_said_otherwise(tmp_path):
    from course_selfcheck.exercises.loops import keep_passed
    from course_selfcheck.report import PASSED, Finding, Report

    ns = cell("def review_every_stop(pr_number, max_iterations=20):\n    return pr_number\n", {"__name__": "__main__"})
    report = keep_passed(6, ns["review_every_stop"], Report("Exercise 6", [Finding("cap", PASSED)], "en"))
    assert "Kept in" in report.note and "not kept" not in report.note
    assert (tmp_path / "my_code" / "exercise_6.py").exists()


PYDANTIC_STYLE = '''
from anthropic.types import TextBlock, ToolUseBlock


def loop(blocks):
    return [b for b in blocks if isinstance(b, ToolUseBlock)], [b for b in blocks if isinstance(b, TextBlock)]
'''


def test_a_loop_that_reads_the_sdks_pydantic_classes_is_judged_without_a_crash():
    """Attack 20's F1: reading a pydantic model class's attributes adds to them; the walk over them crashed the
    check ("dictionary changed size during iteration") for the SDK's own isinstance style."""
    ns = cell(PYDANTIC_STYLE, {"__name__": "__main__"})
    judged, drifted = my_code.as_kept(6, ns["loop"])
    assert drifted == [] and judged is ns["loop"]


ENUM = '''
import enum


class Decision(enum.Enum):
    RUN = {run!r}
    DENY = {deny!r}

    def opens(self):
        return self is Decision.RUN


def loop(answer):
    return (Decision.RUN if answer is True else Decision.DENY).opens()
'''


@settings(max_examples=15, deadline=None)
@given(run=st.sampled_from(["run", "go", 1]), deny=st.sampled_from(["deny", "stop", 0]),
       run_later=st.sampled_from(["run", "go", 1]), opens_later=st.booleans())
def test_an_enum_the_loop_reads_is_compared_by_its_members_and_methods(run, deny, run_later, opens_later):
    """Attack 20's F1: each member of an Enum is an instance of the class itself; comparing a class by its attributes
    never ended (RecursionError). Members by name and value, and the methods, as for any class."""
    ns = cell(ENUM.format(run=run, deny=deny), {"__name__": "__main__"})
    later = ENUM.format(run=run_later, deny=deny)
    if opens_later:
        later = later.replace("return self is Decision.RUN", "return True")
    cell(later.split("\n\ndef loop")[0], ns)  # a later cell redefines the class only
    judged, drifted = my_code.as_kept(7, ns["loop"])
    same = run == run_later and not opens_later
    assert drifted == ([] if same else ["Decision"]), (run, run_later, opens_later)
    assert judged(True) is True and judged(False) is False  # the kept class, whichever is judged


def test_a_comparison_that_raises_judges_the_live_loop(monkeypatch):
    """A style the comparison cannot read never ends the check: the notebook's own loop is judged, as before
    as_kept."""
    ns = cell(INSTANCE.format(first="a", extra=1), {"__name__": "__main__"})
    cell("denier.text = 'b'\n", ns)

    def broken(*_args, **_kwargs):
        raise RuntimeError("dictionary changed size during iteration")

    monkeypatch.setattr(my_code, "_compare", broken)
    assert my_code.as_kept(7, ns["loop"]) == (ns["loop"], [])
