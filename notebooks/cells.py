"""Building blocks of the notebook sources: one source per lesson, both languages in it.

A markdown cell has an English and a Russian text. A code cell has one source, or an English
and a Russian source that differ only in comments and human-language strings (prompts); the
parity test checks that. A code cell tagged `raises-exception` is meant to fail (a "break it"
cell), and nbval and the hygiene test allow its error.
"""

from dataclasses import dataclass, field


@dataclass
class Cell:
    kind: str  # "markdown" or "code"
    en: str
    ru: str
    tags: list[str] = field(default_factory=list)


def md(en: str, ru: str) -> Cell:
    return Cell("markdown", en.strip("\n"), ru.strip("\n"))


def code(en: str, ru: str | None = None, raises: bool = False) -> Cell:
    return Cell("code", en.strip("\n"), (ru if ru is not None else en).strip("\n"),
                ["raises-exception"] if raises else [])
