"""Reading the notebook sources: one jupytext percent file per lesson, both languages in it.

A source is real Python: code cells are code (ruff lints them), markdown cells are comments. A cell's
header says which language it belongs to; nothing else differs between the two notebooks:

    # %% [markdown] lang="en"        prose, written for each language: the Russian twin follows
    # %% [markdown] lang="ru"
    # %%                             a code cell both notebooks share
    # %% lang="en"                   a code cell whose comments or prompts differ by language, and its
    # %% lang="ru"                   Russian twin (tests/test_notebooks.py: only words may differ)
    # %% use="setup"                 the cell `# %% name="setup"` of shared_cells.py (cells that several
                                     lessons begin with)
    # %% tags=["raises-exception"]   a "break it" cell, meant to fail (nbval allows its error)
"""

from dataclasses import dataclass, field
from pathlib import Path

import jupytext

LANGUAGES = ("en", "ru")


@dataclass
class Cell:
    kind: str  # "markdown" or "code"
    en: str
    ru: str
    tags: list[str] = field(default_factory=list)
    use: str | None = None  # the name of a shared cell standing here
    name: str | None = None  # a shared cell's own name
    hidden: bool = False  # shown folded in JupyterLab: a shared cell an earlier notebook already showed


def _cells(path: Path) -> list[Cell]:
    """The cells of one percent file, each language's twin folded into one Cell."""
    out: list[Cell] = []
    for number, raw in enumerate(jupytext.read(path, fmt="py:percent").cells, 1):
        meta = raw.metadata
        kind = "markdown" if raw.cell_type == "markdown" else "code"
        lang = meta.get("lang")
        where = f"{path.name}, cell {number}"
        twin_waits = bool(out) and out[-1].ru is None
        if lang == "ru":
            if not twin_waits or out[-1].kind != kind:
                raise ValueError(f'{where}: a lang="ru" cell must follow its lang="en" twin')
            out[-1].ru = raw.source
            continue
        if twin_waits:
            raise ValueError(f'{where}: the lang="en" cell before it has no lang="ru" twin')
        if lang not in (None, "en"):
            raise ValueError(f"{where}: unknown language {lang!r} (en or ru)")
        if kind == "markdown" and lang is None:
            raise ValueError(f'{where}: a markdown cell is written for one language: lang="en" or lang="ru"')
        out.append(Cell(kind, raw.source, None if lang == "en" else raw.source, list(meta.get("tags", [])),
                        meta.get("use"), meta.get("name")))
    if out and out[-1].ru is None:
        raise ValueError(f'{path.name}: the last lang="en" cell has no lang="ru" twin')
    return out


def shared(path: Path) -> dict[str, Cell]:
    """The named cells of shared_cells.py."""
    named = {}
    for cell in _cells(path):
        if not cell.name:
            raise ValueError(f'{path.name}: every cell needs a name="..."')
        named[cell.name] = cell
    return named


def lesson(path: Path, named: dict[str, Cell]) -> list[Cell]:
    """The cells of one lesson's source, each `use=` cell replaced by the shared cell it names."""
    cells = []
    for cell in _cells(path):
        if cell.use and cell.use not in named:
            raise ValueError(f"{path.name}: no cell named {cell.use!r} in shared_cells.py")
        cells.append(named[cell.use] if cell.use else cell)
    return cells
