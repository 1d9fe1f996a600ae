"""The sandbox's sentences (the simulated model's replies, its reasoning, its refusals) in the conversation's
language: English in the code, Russian in the sandbox's own gettext catalogue,
`course_sandbox/locale/ru/LC_MESSAGES/sandbox.po` (compiled with the package's others by `python -m
course_agent.i18n`). A sentence is a `str.format` template: `words(lang, "Reading {names}.", names=...)`; a literal
brace is doubled. `context` tells two Russian sentences of one English one apart (gettext's msgctxt)."""

import gettext
from functools import cache
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    mo = LOCALE / lang / "LC_MESSAGES" / "sandbox.mo"
    if not mo.is_file():
        return gettext.NullTranslations()
    with mo.open("rb") as data:
        return gettext.GNUTranslations(data)


def reload() -> None:
    """Read the catalogue again (after `python -m course_agent.i18n` compiled it anew)."""
    _catalogue.cache_clear()


def N_(message: str) -> str:
    """Marks a sentence for the catalogue where a table holds it; `words()` says it in the language."""
    return message


def words(lang: str, message: str, /, context: str | None = None, **values: object) -> str:
    """`message` in `lang` ("en" or "ru"), its `{fields}` filled from `values`."""
    catalogue = _catalogue(lang)
    text = catalogue.pgettext(context, message) if context else catalogue.gettext(message)
    return text.format(**values)
