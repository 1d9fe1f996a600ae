"""Write every notebook in both languages from notebooks/source/, and execute them to store
their outputs. Outputs come only from here; nobody edits them by hand.

    python notebooks/build.py            # all notebooks
    python notebooks/build.py 03 07      # only those whose name starts with 03 or 07
    python notebooks/build.py --no-execute

Execution uses the offline sandbox, whatever the environment says: no API key, no GitLab
variables, the sandbox forced, and approvals answered by COURSE_AGENT_AUTO_APPROVE (see
NOTEBOOK_ENV), the same settings the notebook tests use.
"""

import argparse
import atexit
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

sys.path.insert(0, str(Path(__file__).resolve().parent))
import take_home  # noqa: E402
from cells import LANGUAGES, Cell, lesson, shared  # noqa: E402

HERE = Path(__file__).resolve().parent
NOTEBOOK_ENV = {"COURSE_AGENT_BACKEND": "sandbox", "COURSE_AGENT_AUTO_APPROVE": "deny"}
"""What every executed notebook sees; secrets and GitLab settings are removed (see clean_env)."""
TIMEOUT = 300
KERNEL_DIED_AT_START = "Kernel died before replying to kernel_info"
T = TypeVar("T")


NOTHING_KEPT = tempfile.mkdtemp(prefix="course-agent-my-code-")
"""COURSE_AGENT_MY_CODE of every executed notebook: an empty folder, so that a later exercise always starts from
the reference solution (course_agent.my_code), whatever a developer solved in notebooks/en or notebooks/ru. Removed
when the process ends (each build or test session made one, and they piled up in /tmp)."""
atexit.register(shutil.rmtree, NOTHING_KEPT, ignore_errors=True)


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "GITLAB_", "COURSE_AGENT_"))}
    return {**env, **NOTEBOOK_ENV, "COURSE_AGENT_MY_CODE": NOTHING_KEPT}


def started_again_if_it_dies(start: Callable[..., T], attempts: int = 3) -> Callable[..., T]:
    """`start` (something that starts a kernel), tried up to `attempts` times when the kernel dies before it
    answers kernel_info. No cell has run then, so nothing a notebook does is retried: what dies is the start
    itself (two test workers start kernels and servers at once, and a port jupyter_client chose for the
    kernel can be taken before the kernel binds it; seen once in about ten full runs)."""

    def again(*args: object, **kwargs: object) -> T:
        for _ in range(attempts - 1):
            try:
                return start(*args, **kwargs)
            except RuntimeError as error:
                if KERNEL_DIED_AT_START not in str(error):
                    raise
        return start(*args, **kwargs)  # the last attempt: whatever it raises goes up

    return again


def sources() -> list[tuple[str, list[Cell]]]:
    """Every lesson's cells, from notebooks/source/NN_*.py (jupytext percent files; see cells.py)."""
    named = {**shared(HERE / "source" / "shared_cells.py"), **take_home.cells()}
    lessons, shown = [], set()
    for path in sorted((HERE / "source").glob("[0-9][0-9]_*.py")):
        cells = []
        for cell in lesson(path, named):
            if cell.name and cell.name not in ("setup", "lesson_tools"):  # folded where an earlier notebook showed it
                cell = replace(cell, hidden=cell.name in shown)
                shown.add(cell.name)
            if NEW_RULES_CARD in cell.en:
                number = int(path.stem[:2])
                cell = replace(cell, **{language: getattr(cell, language).replace(
                    NEW_RULES_CARD, rules_card(number, language, new_only=True)) for language in LANGUAGES})
            if RULES_CARD in cell.en:
                number = int(path.stem[:2])
                cell = replace(cell, **{language: getattr(cell, language).replace(
                    RULES_CARD, rules_card(number, language)) for language in LANGUAGES})
            cells.append(cell)
        lessons.append((path.stem, cells))
    return lessons


RULES_CARD = "<!-- rules-so-far -->"
"""Where a notebook's header shows the loop's rules so far (rules_card)."""
NEW_RULES_CARD = "<!-- rules-new-here -->"
"""Where a notebook's header shows only the loop's rules new in it, the earlier ones in one line (rules_card with
new_only): from notebook 6 on the whole card is ten rules and more."""
FULL_CARD_UNTIL = 5
"""The last notebook whose header shows the whole card: a later new-only card refers to it for the earlier rules."""
NEW_ONLY_WORDS = {
    "en": ("The loop's rules new in this notebook: {new}",
           "- The {earlier} rules of notebooks 3–{last} still hold: {where}."),
    "ru": ("Новые правила цикла в этом блокноте: {new}",
           "- Правила блокнотов 3–{last} (их {earlier}) действуют по-прежнему: их список — в начале {where}."),
}
WHERE_LISTED = {
    "en": ("the header of notebook {n} lists them", "the headers of notebooks {ns} and {n} list them"),
    "ru": ("блокнота {n}", "блокнотов {ns} и {n}"),
}
CARD_WORDS = {
    "en": ("The loop's rules so far: {total}, {new} of them new in this notebook", "notebook {n}", "new here"),
    "ru": ("Правила цикла на этот момент: {total} (новых здесь: {new})", "блокнот {n}", "новое"),
}
ALL_NEW = {
    "en": "The loop's rules so far: {total}, all new as rules in this notebook",
    "ru": "Правила цикла на этот момент: {total}, и все они стали правилами в этом блокноте",
}
"""The card's summary when every rule is this notebook's (notebook 3's): not "3, 3 of them new"."""
MET_BEFORE = {"whole_response": 2}
"""Rules whose fact a notebook before the loop's showed (notebook 2 sends the response back whole and says that
notebook 3's loop makes it a rule): the card where the rule is new says where it was met."""
MET_WORDS = {"en": "new here as a rule; met in notebook {n}",
             "ru": "правилом становится здесь; встречалось в блокноте {n}"}


CODE_WORD = re.compile(r"(?<![`\w])([a-z]+_[a-z_]+|[a-z_]+\(\))(?![`\w])")
"""A name from the code in a rule's title (end_turn, is_error, billed()): the card shows it as code."""


EXERCISE_ONLY = {"bill", "cut_answer", "fallback"}
"""Requirements of an exercise that the self-check also names, not rules of their own on the card: exercise 8's
printed bill, exercise 6's cut answer (the card's max_tokens rule, tried on an answer without a tool call), and the
fallback of notebook 6's optional part."""


def rules_card(number: int, language: str, new_only: bool = False) -> str:
    """The rules taught up to notebook `number` (check_loop's and the exercises' own), in the order they are taught,
    the new ones in bold: one spine for the learner, in the words the reports use. `new_only`: the new ones alone,
    and one line for the earlier ones, saying which headers list them."""
    from course_agent.i18n import tr
    from course_selfcheck.later_rules import ALL_RULES
    from course_selfcheck.later_rules import TAUGHT_TOGETHER as CARD_GROUPS

    summary, where, new = CARD_WORDS[language]
    grouped = {second for second, _ in CARD_GROUPS.values()}
    taught = sorted((rule.notebook, position, CARD_GROUPS[key][1] if key in CARD_GROUPS else rule.title)
                    for position, (key, rule) in enumerate(ALL_RULES.items())
                    if rule.notebook <= number and key not in EXERCISE_ONLY and key not in grouped
                    and not rule.variant_of)  # a strict variant: its rule's line stands for it
    lines = []
    met = {ALL_RULES[key].title: seen for key, seen in MET_BEFORE.items()}
    for taught_in, _, title in taught:
        said = CODE_WORD.sub(r"`\1`", tr(title, language))  # end_turn, billed(): code, shown as code
        if taught_in == number:
            lines.append(f"- **{said}** ({MET_WORDS[language].format(n=met[title]) if title in met else new})")
        else:
            lines.append(f"- {said} ({where.format(n=taught_in)})")
    fresh = sum(1 for taught_in, _, _ in taught if taught_in == number)
    if new_only:
        heading, earlier = NEW_ONLY_WORDS[language]
        one, several = WHERE_LISTED[language]
        listed = list(range(FULL_CARD_UNTIL, number))
        where = one.format(n=listed[0]) if len(listed) == 1 else several.format(
            ns=", ".join(map(str, listed[:-1])), n=listed[-1])
        said = {"earlier": len(taught) - fresh, "last": number - 1, "new": fresh}
        lines = [line for line in lines if line.endswith(f"({new})")] + [earlier.format(where=where, **said)]
        return f"<details><summary>{heading.format(**said)}</summary>\n\n" + "\n".join(lines) + "\n</details>"
    summary = ALL_NEW[language] if fresh == len(taught) else summary
    return (f"<details><summary>{summary.format(total=len(taught), new=fresh)}</summary>\n\n" + "\n".join(lines)
            + "\n</details>")


LESSON_TOOLS = ("gitlab", "tools", "review_rules")
"""Notebook 3's cells that the later notebooks import from lesson_tools.py, next to them (the lesson_tools cell)."""
LESSON_TOOLS_HEADER = {
    "en": '"""Notebook 3\'s project, tools and rules: the code of its cells, for the later notebooks to import.\n\n'
          'Written by notebooks/build.py from notebooks/source/shared_cells.py: edit that file, not this one.\n"""',
    "ru": '"""Проект, инструменты и правила блокнота 3: код его ячеек, чтобы следующие блокноты их импортировали.\n\n'
          'Файл пишет notebooks/build.py из notebooks/source/shared_cells.py: правьте тот файл, а не этот.\n"""',
}


SHOWN_ONLY_IN_THE_CELL = "print(project.path_with_namespace)\n"
"""The gitlab cell's last line: the notebook shows the project it opened, and importing lesson_tools prints nothing
(the cell stays plain Python, with no `if __name__ == "__main__":` a learner of notebook 2 has not met)."""


def lesson_tools(language: str) -> str:
    """The text of notebooks/<language>/lesson_tools.py: notebook 3's project, tools and rules cells, as they are,
    except the gitlab cell's print (SHOWN_ONLY_IN_THE_CELL)."""
    named = shared(HERE / "source" / "shared_cells.py")
    cells = [getattr(named[name], language).strip("\n") + "\n" for name in LESSON_TOOLS]
    assert cells[0].endswith(SHOWN_ONLY_IN_THE_CELL), "the gitlab cell no longer ends with its print"
    cells[0] = cells[0].removesuffix(SHOWN_ONLY_IN_THE_CELL)
    return "\n\n".join([LESSON_TOOLS_HEADER[language], *cells])


def stable_id(text: str, seen: dict[str, int]) -> str:
    """A cell id from the cell's text (nbformat's are random): a rebuild changes no id of an unchanged cell, so
    the committed notebooks' diffs show only what changed. A repeated text gets -2, -3, ... in order."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
    seen[digest] = seen.get(digest, 0) + 1
    return digest if seen[digest] == 1 else f"{digest}-{seen[digest]}"


def notebook(cells: list[Cell], language: str) -> nbformat.NotebookNode:
    nb = new_notebook()
    seen: dict[str, int] = {}
    for cell in cells:
        text = getattr(cell, language)
        made = new_markdown_cell(text) if cell.kind == "markdown" else new_code_cell(text)
        made.id = stable_id(text, seen)
        if cell.tags:
            made.metadata["tags"] = list(cell.tags)
        if cell.hidden:  # JupyterLab shows its input folded (one click opens it); it runs as any cell
            made.metadata["jupyter"] = {"source_hidden": True}
        nb.cells.append(made)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def execute(nb: nbformat.NotebookNode, folder: Path) -> None:
    saved, clean = dict(os.environ), clean_env()  # read before clearing: clean_env filters os.environ
    os.environ.clear()
    os.environ.update(clean)
    try:
        NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(folder)}},
                       record_timing=False).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    nb.metadata.pop("widgets", None)  # live widget state is not saved; the static fallback is in the outputs


def write_examples(names: list[str]) -> None:
    """examples/<language>/review_after_NN.py: each notebook's take-home cell as a script (take_home.py); `names`:
    the lessons' file names (NN_...)."""
    for name in names:
        stage = int(name[:2])
        if stage in take_home.STAGES:
            for language in LANGUAGES:
                path = take_home.script_path(language, stage)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(take_home.script(language, stage, name), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description="Build the course notebooks from notebooks/source/.")
    parser.add_argument("only", nargs="*", help="name prefixes to build, e.g. 03")
    parser.add_argument("--no-execute", action="store_true", help="write the cells without running them")
    args = parser.parse_args()
    for language in LANGUAGES:
        (HERE / language / "lesson_tools.py").write_text(lesson_tools(language), encoding="utf-8")
    lessons = sources()
    write_examples([name for name, _ in lessons])
    for name, cells in lessons:
        if args.only and not any(name.startswith(prefix) for prefix in args.only):
            continue
        for language in LANGUAGES:
            folder = HERE / language
            folder.mkdir(exist_ok=True)
            nb = notebook(cells, language)
            started = time.perf_counter()
            if not args.no_execute:
                execute(nb, folder)
            nbformat.write(nb, folder / f"{name}.ipynb")
            print(f"{language}/{name}.ipynb: {len(nb.cells)} cells, {time.perf_counter() - started:.1f} s",
                  flush=True)


if __name__ == "__main__":
    main()
