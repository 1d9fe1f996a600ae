"""The take-home cells: the reviewer as notebooks 3-8 leave it, each whole in one cell that needs only anthropic and
python-gitlab (#38), and the same code as scripts in examples/.

One template per language, notebooks/source/take_home.<lang>.py.in, holds every stage: a block between
`#@ 4-5` (or `#@ 7+`, `#@ 8`) and `#@ end` is kept only in those notebooks, so a rule is written once and each
notebook's cell is the one before it plus what that notebook taught.
"""

import re
from pathlib import Path

from cells import LANGUAGES, Cell

HERE = Path(__file__).resolve().parent
STAGES = range(3, 9)
TAG = "take-home"
BLOCK = re.compile(r"#@ (\d+)(?:-(\d+)|(\+))?$")
EXAMPLES = HERE.parent / "examples"
SCRIPT_HEADER = {
    "en": '"""The reviewer as notebook {n} leaves it: the take-home cell of notebooks/en/{notebook}.ipynb.\n\n'
          "Written by notebooks/build.py from notebooks/source/take_home.en.py.in: edit that file, not this one.\n"
          "Offline: run `course-agent sandbox` in another terminal, and run the `export` lines it prints in this\n"
          "one; for the real services, export ANTHROPIC_API_KEY, GITLAB_URL, GITLAB_TOKEN and GITLAB_PROJECT instead.\n"
          'Then: python {script}\n"""\n',
    "ru": '"""Ревьюер в том виде, к которому пришёл блокнот {n}: ячейка «Возьмите с собой» из\n'
          "notebooks/ru/{notebook}.ipynb.\n\n"
          "Этот файл создаёт notebooks/build.py из notebooks/source/take_home.ru.py.in: "
          "правьте шаблон, а не этот файл.\n"
          "Офлайн: запустите `course-agent sandbox` в другом терминале и выполните в этом терминале строки `export`,\n"
          "которые он напечатает; для настоящих сервисов задайте вместо них "
          "ANTHROPIC_API_KEY, GITLAB_URL, GITLAB_TOKEN\n"
          'и GITLAB_PROJECT. Затем: python {script}\n"""\n',
}


def render(template: str, stage: int) -> str:
    """The template's code for one notebook: the blocks meant for `stage`, the markers dropped."""
    kept, keep = [], True
    for number, line in enumerate(template.splitlines(), 1):
        if line == "#@ end":
            keep = True
            continue
        marker = BLOCK.fullmatch(line)
        if marker:
            low = int(marker.group(1))
            high = 99 if marker.group(3) else int(marker.group(2) or low)
            keep = low <= stage <= high
            continue
        if line.startswith("#@"):
            raise ValueError(f"take-home template, line {number}: unknown marker {line!r}")
        if keep:
            kept.append(line.replace("{n}", str(stage)))
    return re.sub(r"\n{3,}", "\n\n\n", "\n".join(kept)).strip("\n") + "\n"


def template(language: str) -> str:
    return (HERE / "source" / f"take_home.{language}.py.in").read_text(encoding="utf-8")


def cells() -> dict[str, Cell]:
    """The shared cells `take_home_3` ... `take_home_8`, for a lesson's `# %% use="take_home_N"`."""
    texts = {language: template(language) for language in LANGUAGES}
    return {f"take_home_{stage}": Cell("code", render(texts["en"], stage).rstrip("\n"),
                                        render(texts["ru"], stage).rstrip("\n"), [TAG], name=f"take_home_{stage}")
            for stage in STAGES}


def script_path(language: str, stage: int) -> Path:
    return EXAMPLES / language / f"review_after_{stage:02d}.py"


def script(language: str, stage: int, notebook: str) -> str:
    """examples/<language>/review_after_NN.py: the take-home cell, with a docstring on how to run it."""
    path = script_path(language, stage).relative_to(EXAMPLES.parent).as_posix()
    header = SCRIPT_HEADER[language].format(n=stage, notebook=notebook, script=path)
    return header + "\n" + render(template(language), stage)
