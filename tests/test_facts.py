"""Every API fact a lesson marks (`<!-- fact: ID -->` in a markdown cell) has its row in docs/facts.md with its
source, both languages mark it, and the marked cell still says the row's phrase: a fact cannot be changed in one
place and left stale in another, nor stated without its source."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"<!--\s*fact:\s*([\w-]+)\s*-->")
ROW = re.compile(r"^\|\s*([\w-]+)\s*\|(.*)\|\s*$")


def rows() -> dict[str, dict]:
    """docs/facts.md's rows by id: notebook, the phrases (en, ru), the source."""
    found = {}
    for line in (ROOT / "docs" / "facts.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if not match or match.group(1) in ("id",) or set(match.group(1)) <= {"-"}:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        fact, claim, notebook, says, source, checked = cells
        en, ru = (re.sub(r"^`+\s?|\s?`+$", "", part.strip()) for part in says.split(" / "))
        found[fact] = {"claim": claim, "notebook": notebook, "en": en, "ru": ru, "source": source, "checked": checked}
    return found


def marked() -> dict[tuple[str, str], list[tuple[str, int, str]]]:
    """(fact, language) -> (notebook number, cell number from 1, the cell's text) of every marked cell."""
    found: dict[tuple[str, str], list] = {}
    for language in ("en", "ru"):
        for path in sorted((ROOT / "notebooks" / language).glob("*.ipynb")):
            for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
                if cell.cell_type == "markdown":
                    for fact in MARKER.findall(cell.source):
                        text = " ".join(cell.source.split())  # the phrase may run across a line break
                        found.setdefault((fact, language), []).append((path.name[:2], number, text))
    return found


def test_every_marked_fact_has_its_row_with_a_source():
    table, marks = rows(), marked()
    assert len(table) >= 8 and marks
    missing = sorted({fact for fact, _ in marks} - set(table))
    assert not missing, f"facts marked in a notebook without a row in docs/facts.md: {missing}"
    assert all(re.search(r"http|SDK|python-gitlab", row["source"]) for row in table.values())
    assert all(re.match(r"\d{4}-\d{2}", row["checked"]) for row in table.values())


def said_in_file(row: dict, language: str) -> str | None:
    """The text of the README or doc a row names, in a language (README.ru.md is README.md's Russian twin); None
    when the row says the file has no twin in that language (a dash)."""
    if row[language] in ("—", "-"):
        return None
    name = "README.ru.md" if (row["notebook"], language) == ("README.md", "ru") else row["notebook"]
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())


@pytest.mark.parametrize("fact", sorted(rows()))
def test_each_row_points_at_cells_that_still_say_it(fact):
    row, marks = rows()[fact], marked()
    if not re.fullmatch(r"\d\d", row["notebook"]):  # a fact the README or a doc states: that file still says it
        texts = {language: said_in_file(row, language) for language in ("en", "ru")}
        assert any(text is not None for text in texts.values()), f"{fact}: no phrase in either language"
        for language, text in texts.items():
            assert text is None or " ".join(row[language].split()) in text, \
                f"{fact}: {row['notebook']} no longer says {row[language]!r}"
        return
    for language in ("en", "ru"):
        cells = marks.get((fact, language), [])
        assert cells, f"{fact}: no {language} cell is marked"
        assert all(notebook == row["notebook"] for notebook, _, _ in cells), f"{fact}: marked in another notebook"
        assert any(row[language] in text for _, _, text in cells), \
            f"{fact}: the marked {language} cell no longer says {row[language]!r}"


def test_a_stale_cell_is_caught():
    """The phrase check can fail: a row whose phrase the cell does not say is reported."""
    row = dict(rows()["cache-prices"], en="0.1x for every model")
    cells = marked()[("cache-prices", "en")]
    assert not any(row["en"] in text for _, _, text in cells)


def test_the_models_table_is_the_sandboxs_rows():
    """docs/models.md, where the notebooks send a learner for other models than the course's: each row says what
    the sandbox's profile of that model does (thinking by default, forced tool use, cache minimum), and every
    model the sandbox knows (but dated aliases) has its row."""
    from course_sandbox.model_profiles import PROFILES

    text = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2, 3, 4) for m in re.finditer(
        r"^\| `([a-z0-9-]+)` \| ([^|]+?) \| ([^|]+?) \| ([\d,]+) \|$", text, re.M)}
    named = {model for model in PROFILES if not model[-8:].isdigit()}
    assert set(rows) == named, set(rows) ^ named
    for model, (thinking, forced, minimum) in rows.items():
        profile = PROFILES[model]
        assert thinking == {"on": "adaptive, on by default", "always": "always on", "off": "only when asked"}[
            profile.thinking], model
        assert forced == ("yes" if profile.forced_tools else "no: 400"), model
        assert int(minimum.replace(",", "")) == profile.min_cacheable_tokens, model
