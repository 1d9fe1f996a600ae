"""notebooks/README.md maps each rule of the lesson to a cell: the cells exist in both languages, and
the demos that depend on token counts or the sandbox show what the table says, in English and Russian."""

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = {p.name[:2]: p.name for p in (NOTEBOOKS / "en").glob("*.ipynb")}


def cell(language: str, notebook: str, number: int):
    return nbformat.read(NOTEBOOKS / language / NAMES[notebook], as_version=4).cells[number - 1]


def shown(c) -> str:
    return "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) + str(o.get("evalue", ""))
                   + str(o.get("ename", ""))
                   for o in c.outputs)


def test_every_cell_the_table_names_is_a_code_cell_with_output_in_both_languages():
    table = (NOTEBOOKS / "README.md").read_text(encoding="utf-8")
    references = []
    for notebook, cells in re.findall(r"(\d\d), cells? ([\d, and]+)", table):
        references += [(notebook, int(n)) for n in re.findall(r"\d+", cells)]
    assert len(references) > 25
    for language in ("en", "ru"):
        for notebook, number in references:
            c = cell(language, notebook, number)
            assert c.cell_type == "code", f"{language} {notebook} cell {number} is not code"
            assert c.outputs or number == 27, f"{language} {notebook} cell {number} shows nothing"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_token_dependent_and_thinking_demos_show_what_the_table_says(language):
    assert all(s in shown(cell(language, "06", 8)) for s in ("{}", "{'pr': 4}", "{'pr': 48}"))
    assert "['thinking', 'text']" in shown(cell(language, "01", 4))  # today's default model thinks first
    signature = {"en": "signature: 72 characters", "ru": "signature: 72 симв."}[language]
    assert signature in shown(cell(language, "01", 21))
    assert shown(cell(language, "01", 23)).startswith("['text']")  # a greeting: no thinking
    assert "max_tokens 30" in shown(cell(language, "01", 25))
    assert 'tool_choice: type "tool" and "any" are not supported' in shown(cell(language, "10", 7))
    assert "thinking" in shown(cell(language, "12", 7))
    billed = [int(n) for n in re.findall(r"(\d+)", shown(cell(language, "12", 9)))]
    assert len(billed) == 3 and billed == sorted(set(billed)), billed  # low < high < max
    assert '"thinking.type.enabled" is not supported for this model' in shown(cell(language, "12", 11))
    assert "cannot be modified" in shown(cell(language, "12", 13))
    assert "bound to a different conversation" in shown(cell(language, "12", 17))
    assert "'1, 2, 3, 4, '" in shown(cell(language, "06", 10))
    paused = shown(cell(language, "11", 17))  # the pause, continued with no new user message: it ends
    assert paused.startswith("pause_turn") and "end_turn" in paused, paused
    assert "category='cyber'" in shown(cell(language, "06", 13))
    fallback = {"en": "fallback", "ru": "запасная модель"}[language]
    assert f"{fallback}: claude-opus-5 -> claude-opus-4-8 (cyber)" in shown(cell(language, "11", 22))
    assert "['fallback', 'text']" in shown(cell(language, "11", 24))
    assert "OverloadedError" in shown(cell(language, "05", 17))
    assert "RuntimeError" in shown(cell(language, "03", 18))
    whole = cell(language, "03", 31).source  # the take-home cell: a client of its own, no course_agent
    assert "anthropic.Anthropic()" in whole and "def review" in whole and "def run_tool" in whole
    assert "course_agent" not in whole
