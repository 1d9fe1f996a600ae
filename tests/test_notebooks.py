"""The notebooks: both languages in step, clean outputs, no secrets, the model id from one place."""

import io
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = sorted(p.name for p in (NOTEBOOKS / "en").glob("*.ipynb"))
PAIRS = [(NOTEBOOKS / "en" / name, NOTEBOOKS / "ru" / name) for name in NAMES]
ALL = [path for pair in PAIRS for path in pair]


def read(path):
    return nbformat.read(path, as_version=4)


def code_shape(source: str) -> list[str]:
    """The code without comments, with every string literal replaced: what must match across languages."""
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or token.type in (tokenize.NL, tokenize.NEWLINE):
            continue
        if token.type == tokenize.STRING or token.type in (getattr(tokenize, "FSTRING_START", -1),):
            tokens.append("<str>")
        else:
            tokens.append(token.string)
    return tokens


GO_DEEPER = {"10_shaping_requests.ipynb", "11_long_runs.ipynb", "12_thinking.ipynb"}
"""Optional notebooks that go deeper into notebooks 2-8's subjects: no exercise builds on them, so none is graded."""


def test_twelve_notebooks_in_each_language():
    """Nine lessons and three optional go-deeper notebooks (10, 11, 12), the same names in both languages."""
    assert len(NAMES) == 12
    assert sorted(p.name for p in (NOTEBOOKS / "ru").glob("*.ipynb")) == NAMES


@pytest.mark.parametrize("en, ru", PAIRS, ids=NAMES)
def test_code_cells_match_one_to_one(en, ru):
    en_cells, ru_cells = read(en).cells, read(ru).cells
    assert [c.cell_type for c in en_cells] == [c.cell_type for c in ru_cells]
    for number, (a, b) in enumerate(zip(en_cells, ru_cells)):
        if a.cell_type == "code":
            assert code_shape(a.source) == code_shape(b.source), f"code cell {number} differs beyond strings/comments"
            assert a.metadata.get("tags", []) == b.metadata.get("tags", [])
        else:
            assert b.source.strip(), f"markdown cell {number} of {ru.name} is not translated"
            assert a.source.strip() != b.source.strip() or a.source.strip().startswith("|")


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.name}" for p in ALL])
def test_hygiene(path):
    nb = read(path)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), "executed in order from 1"
    for cell in code:
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if errors:
            assert "raises-exception" in cell.metadata.get("tags", []), f"unexpected error: {errors[0].ename}"
        if "take-home" in cell.metadata.get("tags", []):  # needs no course: the model id is visible (#38); the same
            # COURSE_AGENT_MODEL as everywhere changes it
            from course_agent import config
            assert f'MODEL = os.environ.get("COURSE_AGENT_MODEL", "{config.DEFAULT_MODEL}")' in cell.source
            assert set(re.findall(r'"(claude-[a-z0-9-]+)"', cell.source)) <= {config.DEFAULT_MODEL,
                                                                                config.FALLBACK_MODEL}
        else:
            assert not re.search(r"claude-[a-z]", cell.source), "the model id comes from course_agent.config only"
        text = "".join(str(o) for o in cell.outputs) + cell.source
        # no key or token at all, the sandbox's included: each sandbox has a random one of its own (#41)
        assert not re.search(r"sk-ant-[A-Za-z0-9_-]{6,}", text)
        assert not re.search(r"glpat-[A-Za-z0-9_-]{6,}", text)
        assert "Traceback (most recent call last)" not in "".join(
            o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    first = nb.cells[0].source
    assert first.startswith("# ") and ("You will learn" in first or "Вы узнаете" in first or "узнаете" in first)
    headings = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert re.search(r"## (Recap|Итоги)", headings) and re.search(r"## (Check yourself|Проверьте себя)", headings)
    if path.name not in GO_DEEPER:  # a lesson ends with a graded exercise; a go-deeper notebook with its questions
        assert re.search(r"## (Exercise|Упражнение)", headings)
    else:
        assert "(optional)" in first or "(по желанию)" in first
    assert re.search(r"(Break it|Сломаем)", headings), "every notebook breaks a rule, then fixes it"


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.name}" for p in ALL])
def test_a_lessons_optional_parts_come_after_its_recap(path):
    """#39, instructor read 60: a first-pass learner reads a lesson down to its Recap and stops there. So every
    "Go deeper (optional)" section of notebooks 1-9 comes after the Recap, and the Recap tells a first pass to stop
    there or skip it (notebook 9's running it in CI: instructor read 62)."""
    if int(path.name[:2]) > 9:
        return
    headings = [(number, cell.source) for number, cell in enumerate(read(path).cells)
                if cell.cell_type == "markdown"]
    recap = next(number for number, text in headings if re.search(r"^## (Recap|Итоги)$", text, re.M))
    deeper = [number for number, text in headings if re.search(r"^## (Go deeper|Глубже) \((optional|по желанию)\)",
                                                               text, re.M)]
    assert all(number > recap for number in deeper), (recap, deeper)
    said = dict(headings)[recap]
    if deeper:
        assert "On a first pass" in said or "При первом прохождении" in said, said


@pytest.mark.parametrize("language", ["en", "ru"])
def test_notebook_3_points_at_its_take_home_cell(language):
    """03's header promises the loop in one piece under "Take it home": that heading is there, and the cell under it
    (after the one that points the variables at the sandbox) is the take-home cell (tests/test_take_home.py runs it
    without the course)."""
    cells = read(NOTEBOOKS / language / "03_the_loop.ipynb").cells
    heading = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith(
        ("## Take it home", "## Возьмите с собой")))
    assert ("Take it home" if language == "en" else "Возьмите с собой") in cells[0].source
    assert "take_home_variables" in cells[heading + 1].source
    assert "take-home" in cells[heading + 2].metadata.get("tags", [])


@pytest.mark.parametrize("path", [p for p in ALL if p.name[:2] != "01"], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_check_yourself_leans_only_on_what_was_taught(path):
    """A quiz of notebook N names no notebook after N: its options and answers use what has been taught by then
    (notebook 1's quiz names notebook 8 only to say what prompt caching is not, a pointer, not an answer)."""
    number = int(path.name[:2])
    for cell in read(path).cells:
        if cell.cell_type == "markdown" and ("## Check yourself" in cell.source or "## Проверьте себя" in cell.source):
            cited = {int(n) for n in re.findall(r"(?:notebook|блокнот[а-я]*) (\d+)", cell.source)}
            assert not {n for n in cited if n > number}, (path.name, sorted(cited))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_notebook_3s_card_says_where_the_first_rule_was_met(language):
    """Notebook 2 sends the response back whole and says notebook 3's loop puts that rule first on its card; notebook
    3's card marks it new as a rule of the loop, met in notebook 2, not simply "new here"."""
    card = read(NOTEBOOKS / language / "03_the_loop.ipynb").cells[0].source
    first = next(line for line in card.split("</summary>", 1)[1].splitlines() if line.startswith("- "))
    assert ("met in notebook 2" if language == "en" else "встречалось в блокноте 2") in first, first
    two = " ".join(c.source for c in read(NOTEBOOKS / language / "02_one_tool.ipynb").cells if c.cell_type == "markdown")
    assert ("first rule on the loop's card" if language == "en" else "станет первым в карточке правил цикла") in " ".join(
        two.split()), "notebook 2 says where the rule comes back"


def _build_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("notebook_build", NOTEBOOKS / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_notebooks_are_built_from_their_sources():
    """Every committed cell (id, type, source, tags) is what notebooks/source/ builds: nobody edits a notebook, and
    ids come from the text, so a rebuild's diff shows only the cells that changed."""
    build = _build_module()
    lessons = build.sources()
    assert [f"{name}.ipynb" for name, _ in lessons] == NAMES
    for name, cells in lessons:
        for language in ("en", "ru"):
            built = build.notebook(cells, language).cells
            committed = read(NOTEBOOKS / language / f"{name}.ipynb").cells
            assert [(c.id, c.cell_type, c.source, c.metadata.get("tags", []), c.metadata.get("jupyter", {}))
                    for c in committed] == \
                   [(c.id, c.cell_type, c.source, c.metadata.get("tags", []), c.metadata.get("jupyter", {}))
                    for c in built], f"{language}/{name}"


def test_a_shared_cell_is_shown_where_it_first_appears_and_folded_where_it_comes_back():
    """A shared cell that comes back (the gate tools, the runner tools) is shown folded after the first time (one
    click opens one), so each notebook opens on what is new in it; the setup cell and the one-line lesson_tools
    import stay open."""
    build = _build_module()
    seen, folded = set(), 0
    for name, cells in build.sources():
        for cell in (c for c in cells if c.name):
            assert cell.hidden == (cell.name not in ("setup", "lesson_tools") and cell.name in seen), (name, cell.name)
            seen.add(cell.name)
            folded += cell.hidden
    assert folded >= 4


def test_a_source_with_a_missing_twin_or_shared_cell_is_refused(tmp_path):
    build = _build_module()
    lone = tmp_path / "09_x.py"
    lone.write_text('# %% [markdown] lang="en"\n# Hello\n\n# %%\nx = 1\n', encoding="utf-8")
    with pytest.raises(ValueError, match='no lang="ru" twin'):
        build.lesson(lone, {})
    unknown = tmp_path / "10_y.py"
    unknown.write_text('# %% use="nothing"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="no cell named 'nothing'"):
        build.lesson(unknown, {})
    untagged = tmp_path / "11_z.py"
    untagged.write_text("# %% [markdown]\n# Hello\n", encoding="utf-8")
    with pytest.raises(ValueError, match="written for one language"):
        build.lesson(untagged, {})


def test_ruff_finds_nothing_in_the_package_the_sources_and_the_notebooks():
    """The notebook sources are real Python, linted like the package; the built notebooks too (ruff reads
    .ipynb), where every cell, the shared ones included, is in place to check names."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."],
                          cwd=NOTEBOOKS.parent, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All checks passed" in done.stdout


def test_a_built_kernel_keeps_the_machine_environment_and_drops_the_course_variables(monkeypatch, tmp_path):
    """The build clears the environment for its kernels: PATH, HOME and PYTHONPATH must survive (a worktree
    build imports its own course_agent), the API key and course settings must not."""
    build = _build_module()
    monkeypatch.setenv("PYTHONPATH", "/somewhere/else")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-for-kernels")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import os; print(sorted(k for k in ('PATH', 'HOME', 'PYTHONPATH', 'ANTHROPIC_API_KEY') if k in os.environ))")])
    build.execute(nb, tmp_path)
    assert nb.cells[0].outputs[0]["text"].strip() == "['HOME', 'PATH', 'PYTHONPATH']"


def test_the_minutes_in_each_header_are_the_instructor_guides():
    """A notebook's header ("About 35 minutes", «Около 35 минут») and docs/instructor.md's timing table agree."""
    guide = (NOTEBOOKS.parent / "docs" / "instructor.md").read_text()
    table = {int(n): int(m) for n, m in re.findall(r"\| (\d+) [^|]+\| (\d+) \|", guide)}
    assert sorted(table) == list(range(1, len(NAMES) + 1)), table
    for number, name in enumerate(NAMES, 1):
        for language, said in (("en", r"\*About (\d+) minutes"), ("ru", r"\*Около (\d+) минут")):
            header = read(NOTEBOOKS / language / name).cells[0].source
            found = re.search(said, header)
            assert found and int(found.group(1)) == table[number], (language, name, table[number])
    readme = (NOTEBOOKS.parent / "README.ru.md").read_text()  # the Russian README's table of notebooks has minutes too
    listed = {int(n): int(m) for n, m in re.findall(r"^\| (\d+) \| `\d\d_\w+` \|.*\| (\d+) мин \|$", readme, re.M)}
    assert listed == table, listed


def test_lesson_tools_is_notebook_3s_cells_as_the_build_writes_them():
    """notebooks/<language>/lesson_tools.py, which notebooks 4-12 import notebook 3's project, tools and rules from,
    is those three cells of shared_cells.py unchanged but for the gitlab cell's print, so that importing it prints
    nothing (the build writes it; nobody edits it), and every later notebook imports it instead of pasting the cells
    again."""
    build = _build_module()
    for language in ("en", "ru"):
        committed = (NOTEBOOKS / language / "lesson_tools.py").read_text(encoding="utf-8")
        assert committed == build.lesson_tools(language), f"{language}/lesson_tools.py: run python notebooks/build.py"
        assert "print(" not in committed and "__name__" not in committed, language
    for name, cells in build.sources():
        names = [cell.name for cell in cells if cell.name]
        if int(name[:2]) > 3:
            assert "tools" not in names and ("lesson_tools" in names or int(name[:2]) < 4), name


def _tools_of(source: str) -> list[tuple]:
    """(name, its parameters, the required ones) of each tool in the TOOLS = [...] literal of a cell."""
    import ast

    assigned = next(node.value for node in ast.parse(source).body if isinstance(node, ast.Assign)
                    and any(getattr(target, "id", None) == "TOOLS" for target in node.targets))
    return [(tool["name"], sorted(tool["input_schema"]["properties"]), tool["input_schema"]["required"])
            for tool in ast.literal_eval(assigned)]


def test_the_take_home_cells_have_the_tools_the_notebooks_built():
    """Each take-home cell offers the tools its notebook built (notebook 3's get_diff and read_file, notebook 7's
    merge_pr, notebook 8's `start`), with the same parameters: not an older copy."""
    build = _build_module()
    named = {c.name: c for cells in dict(build.sources()).values() for c in cells if c.name}
    for language in ("en", "ru"):
        lesson = _tools_of(getattr(named["tools"], language))
        for stage in range(3, 9):
            tools = _tools_of(getattr(named[f"take_home_{stage}"], language))
            wanted = [*lesson, ("merge_pr", ["pr"], ["pr"])] if stage >= 7 else lesson
            if stage == 8:
                wanted = [(n, sorted([*p, "start"]) if n == "read_file" else p, r) for n, p, r in wanted]
            assert tools == wanted, (language, stage)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_demo_cell_of_notebook_5_redefines_a_function_the_exercise_loop_calls(language):
    """The instructor's read 63 (F9): "Break it" defined a global tool_result with no try, and the exercise's loop
    calls the global tool_result. Run again after the exercise passed, it took the guard out of review_safely, with
    no word. The demo cells (all but the exercise cell and the take-home script, a program of its own after the Recap)
    define no function of the references that the exercise cell brings (exercise 4's) or grows into (exercise 5's)."""
    import ast

    solutions = Path(__file__).resolve().parent.parent / "course_agent" / "solutions" / "cells"
    folder = solutions if language == "en" else solutions / "ru"
    carried = {node.name for number in ("04", "05")
               for node in ast.parse((folder / f"exercise_{number}.py").read_text(encoding="utf-8")).body
               if isinstance(node, ast.FunctionDef)}
    assert {"tool_result", "run_all", "review_safely"} <= carried, carried
    five = read(NOTEBOOKS / language / next(name for name in NAMES if name.startswith("05")))
    demos = [c.source for c in five.cells if c.cell_type == "code" and "start_from(4" not in c.source
             and "anthropic.Anthropic()" not in c.source]
    assert len(demos) >= 5 and any("def review(" in source for source in demos), demos
    for source in demos:
        defined = {node.name for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
        assert not defined & carried, (defined & carried, source[:300])
