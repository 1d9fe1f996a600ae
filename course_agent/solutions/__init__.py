"""Reference solutions of the notebooks' exercises (spoilers: try yours first).

Every solution a notebook shows is a cell, in `cells/`: what a learner of that notebook writes in the exercise
cell, on top of what the notebook has already defined, and nothing a later notebook teaches. The loop exercises'
(3 to 8) and 9's run on `cells/given.py` (the client, MODEL, the tools, the rules): `reference(N)` runs one
in a namespace of its own, as the notebook would, and `start_from` (course_agent.my_code) runs it in a later
notebook for a learner who has no exercise of their own to carry. Exercises 1, 2 and 5 also have a module
(`exercise_01`, ...; `solution_module(N)`) that does the same outside a notebook, for the tests and scripts.

A notebook never runs them: its spoiler cell is `show_solution(N)`, which shows the code folded, and
`print(solution_code(N))` prints it. That each one passes its exercise's check is proven by the tests.
`complete_loop` is not a solution: it keeps every rule at once, the yardstick of the self-check's tests.
"""

import html
import importlib
import re
from importlib.resources import files
from types import ModuleType

from ..i18n import language as pick_language
from ..i18n import tr

NOTEBOOKS = range(1, 10)
CELLS = (3, 4, 5, 6, 7, 8, 9)
"""The exercises whose solution runs as a notebook cell on given.py: the loops, each grown by the next exercise, and
the table of 9."""
OPTIONAL_PARTS = {6: "fallback", 7: "concurrent"}
"""The exercises with an optional part whose solution is a cell of its own, `cells/exercise_NN_<part>.py`: exercise
6's fallback model ("Go deeper"), and exercise 7's gate before the thread pool ("Go further": the calls of a turn
still run at once; the reference itself is the plain loop the task asks for); `optional=True` names it."""
OPTIONAL = tuple(OPTIONAL_PARTS)
SHOWN_CELLS = (1, 2)
"""The exercises whose shown solution is a cell on top of their own notebook's cells, with a module besides."""
MODULES = (1, 2, 5)
"""The exercises with a module (`exercise_01`, ...; `solution_module(N)`): 1's and 2's, and exercise 5's older form,
the dispatcher run_tool_missing_file (its shown cell is `cells/exercise_05_dispatcher.py`)."""
GIVEN_FROM = re.compile(r"^# %% from notebook (\d+) on$", re.MULTILINE)

__all__ = ["CELLS", "MODULES", "OPTIONAL", "OPTIONAL_PARTS", "SHOWN_CELLS", "FUNCTIONS", "MODEL", "REVIEW_RULES",
           "TOOLS", "Folded", "client", "given_code", "project",
           "reference", "review_pull_request", "review_pull_request_concurrently", "run_tool", "show_solution",
           "solution_code", "solution_module"]


LOOP_NAMES = ("FUNCTIONS", "MODEL", "REVIEW_RULES", "TOOLS", "client", "project", "review_pull_request",
              "review_pull_request_concurrently", "run_tool")
"""complete_loop's names, imported from it on first use: showing a solution builds no client and no project (and so
prints nothing about GitLab in a notebook that has none)."""


def __getattr__(name: str) -> object:
    if name in LOOP_NAMES:
        from . import complete_loop

        return getattr(complete_loop, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _known(notebook: int) -> None:
    if notebook not in NOTEBOOKS:
        raise ValueError(tr("there is no exercise solution for notebook {n}: choose 1 to 9", n=notebook))


def solution_module(notebook: int, language: str = "en") -> ModuleType:
    """The module of exercise 1's, 2's or 5's reference solution (the loop exercises' are cells: reference());
    `language="ru"`: its Russian twin (`ru/`), the same code in the Russian learner's words."""
    _known(notebook)
    if notebook not in MODULES:
        raise ValueError(f"exercise {notebook}'s solution is a notebook cell: reference({notebook}) runs it")
    return importlib.import_module(f"{__name__}.{'ru.' if language == 'ru' else ''}exercise_{notebook:02d}")


def _cell(*path: str) -> str:
    return files(__name__).joinpath("cells", *path).read_text(encoding="utf-8")


def solution_code(notebook: int, language: str | None = None, optional: bool = False) -> str:
    """The code of a notebook's reference solution, as text (a spoiler: try yours first), in the learner's language:
    each reference has a Russian twin (`cells/ru/`, `ru/`), the same code with its comments, docstrings and messages
    in Russian, as a Russian learner writes it. `optional=True`: the solution of the notebook's optional part
    (OPTIONAL)."""
    _known(notebook)
    if optional and notebook not in OPTIONAL:
        raise ValueError(f"exercise {notebook} has no optional part")
    russian = pick_language(language) == "ru"
    name = f"exercise_{notebook:02d}{'_' + OPTIONAL_PARTS[notebook] if optional else ''}.py"
    return _cell("ru", name) if russian else _cell(name)


def given_code(notebook: int) -> str:
    """What notebook N has defined when its exercise starts, as code (cells/given.py up to that notebook)."""
    text = _cell("given.py")
    cut = next((m.start() for m in GIVEN_FROM.finditer(text) if int(m.group(1)) > notebook), len(text))
    return text[:cut]


def reference(notebook: int, language: str = "en", optional: bool = False) -> dict:
    """A namespace in which notebook N's exercise has been solved by its reference cell, as in the notebook:
    `reference(6)["review_every_stop"]` (`language="ru"`: its Russian twin; `optional=True`: its optional part's)."""
    if notebook not in CELLS:
        raise ValueError(f"reference() runs the loop exercises' cells: {', '.join(map(str, CELLS))}")
    namespace: dict = {"__name__": f"{__name__}.reference_{notebook}"}
    exec(compile(given_code(notebook), f"<notebook {notebook} before its exercise>", "exec"), namespace)
    exec(compile(solution_code(notebook, language, optional), f"<reference solution of exercise {notebook}>", "exec"),
         namespace)
    return namespace


class Folded:
    """A reference solution shown folded: closed <details> in JupyterLab, a line saying how to see it in text."""

    def __init__(self, notebook: int, optional: bool = False) -> None:
        self.notebook = notebook
        self.optional = optional
        self.code = solution_code(notebook, optional=optional)

    def _repr_html_(self) -> str:
        summary = tr("Reference solution (spoiler)")
        return (f"<details><summary>{html.escape(summary)}</summary>"
                f"<pre><code class='language-python'>{html.escape(self.code)}</code></pre></details>")

    def __repr__(self) -> str:
        if self.optional:
            return tr("Reference solution of exercise {n}'s optional part (spoiler), folded: "
                      "print(solution_code({n}, optional=True)) shows it.", n=self.notebook)
        return tr("Reference solution of exercise {n} (spoiler), folded: print(solution_code({n})) shows it.",
                  n=self.notebook)


def show_solution(notebook: int, optional: bool = False) -> Folded:
    """A notebook's reference solution, folded (a spoiler: open it after trying yours); `optional=True`: its optional
    part's."""
    return Folded(notebook, optional)
