"""Reference solutions of the notebooks' exercises (spoilers: try yours first), one module per exercise.

A notebook never runs them: its spoiler cell is `show_solution(N)`, which shows the code folded, and
`print(solution_code(N))` prints it. That each one passes its exercise's check is proven by the tests.
Each solution builds on the earlier ones instead of typing them again: exercise 2's tools are the ones
every later loop uses, exercise 3's loop is the one exercise 4 runs concurrently, and exercise 6's loop is the
one notebooks 7 and 8 grow.
"""

import html
import importlib
import inspect
from types import ModuleType

from ..i18n import tr
from .exercise_03 import FUNCTIONS, MODEL, REVIEW_RULES, TOOLS, client, project, review_pull_request, run_tool
from .exercise_04 import review_pull_request_concurrently

NOTEBOOKS = range(1, 9)

__all__ = ["FUNCTIONS", "MODEL", "REVIEW_RULES", "TOOLS", "Folded", "client", "project", "review_pull_request",
           "review_pull_request_concurrently", "run_tool", "show_solution", "solution_code", "solution_module"]


def solution_module(notebook: int) -> ModuleType:
    """The module of a notebook's reference solution."""
    if notebook not in NOTEBOOKS:
        raise ValueError(tr("there is no exercise solution for notebook {n}: choose 1 to 8", n=notebook))
    return importlib.import_module(f"{__name__}.exercise_{notebook:02d}")


def solution_code(notebook: int) -> str:
    """The code of a notebook's reference solution, as text (a spoiler: try yours first)."""
    return inspect.getsource(solution_module(notebook))


class Folded:
    """A reference solution shown folded: closed <details> in JupyterLab, a line saying how to see it in text."""

    def __init__(self, notebook: int) -> None:
        self.notebook = notebook
        self.code = solution_code(notebook)

    def _repr_html_(self) -> str:
        summary = tr("Reference solution (spoiler)")
        return (f"<details><summary>{html.escape(summary)}</summary>"
                f"<pre><code class='language-python'>{html.escape(self.code)}</code></pre></details>")

    def __repr__(self) -> str:
        return tr("Reference solution of exercise {n} (spoiler), folded: print(solution_code({n})) shows it.",
                  n=self.notebook)


def show_solution(notebook: int) -> Folded:
    """A notebook's reference solution, folded (a spoiler: open it after trying yours)."""
    return Folded(notebook)
