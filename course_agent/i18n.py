"""The package's user-facing words in the learner's language: English in the code, Russian
in gettext catalogues (course_agent/locale/ru/LC_MESSAGES/*.po, one per part of the package).

The language is, in order: an explicit argument, COURSE_AGENT_LANGUAGE, the locale. Write
every sentence a learner sees as `tr("English text {name}", language, name=...)` (or `ntr`
for a count), add its Russian form to that part's .po file and run `python -m course_agent.i18n` to
compile it; tests/test_i18n.py fails for a sentence without a Russian form.
"""

import gettext
import io
import locale
from functools import cache
from pathlib import Path

from .settings import LANGUAGES, Settings

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def language(explicit: str | None = None) -> str:
    """'en' or 'ru': the explicit choice, else COURSE_AGENT_LANGUAGE, else the locale."""
    if explicit is not None:
        chosen = str(explicit).strip().lower().replace("-", "_").split("_")[0]
        if chosen not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {explicit!r}")
        return chosen
    settings = Settings.from_env()
    if settings.language:
        return settings.language
    found = (locale.getlocale(locale.LC_MESSAGES)[0] or settings.system_locale).lower()
    return "ru" if found.startswith("ru") else "en"


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    """All the language's catalogues chained: a sentence is looked up in each in turn."""
    chain = gettext.NullTranslations()
    for mo in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo"), reverse=True):
        with mo.open("rb") as data:
            part = gettext.GNUTranslations(data)
        part.add_fallback(chain)
        chain = part
    return chain


def N_(message: str) -> str:
    """Marks a sentence for translation where it is defined (a table); `tr()` translates it where shown."""
    return message


def tr(message: str, lang: str | None = None, /, **values: object) -> str:
    """`message` in the learner's language, with `{name}` fields filled from `values`."""
    text = _catalogue(language(lang)).gettext(message)
    return text.format(**values) if values else text


def ntr(singular: str, plural: str, n: int, lang: str | None = None, /, **values: object) -> str:
    """The form for a count `n` (Russian has three: 1 запрос, 2 запроса, 5 запросов); `{n}` is filled."""
    text = _catalogue(language(lang)).ngettext(singular, plural, n)
    return text.format(n=n, **values)


def number(value: float, lang: str | None = None, digits: int = 1) -> str:
    """A figure as the learner's language writes it: 15179.8 in English, «15 179,8» in Russian (a decimal comma, and
    from five digits on groups of three joined by a no-break space, so that a line never breaks inside the number)."""
    text = f"{value:.{digits}f}"
    if language(lang) != "ru":
        return text
    sign = "-" if text.startswith("-") else ""
    whole, _, fraction = text.removeprefix("-").partition(".")
    if len(whole) >= 5:
        whole = f"{int(whole):,}".replace(",", "\u00a0")
    return sign + whole + ("," + fraction if fraction else "")


def percent(value: float, lang: str | None = None, digits: int = 0) -> str:
    """A share as the language writes it: 27% in English, «27 %» in Russian (a no-break space before the sign)."""
    return number(value, lang, digits) + ("\u00a0%" if language(lang) == "ru" else "%")


def times(value: float, lang: str | None = None, digits: int = 2) -> str:
    """A multiplier: 1.25× in English, 1,25× in Russian."""
    return number(value, lang, digits) + "\u00d7"


def _messages(mo: bytes) -> dict:
    catalogue = gettext.GNUTranslations(io.BytesIO(mo))._catalog
    return {k: v for k, v in catalogue.items() if k != ""}


def compile_catalogues() -> list[Path]:
    """Write each .po file's .mo beside it when its sentences changed (needs babel, which JupyterLab installs)."""
    from babel.messages import mofile, pofile

    from course_sandbox import words as sandbox_words

    written = []
    for po in sorted([*LOCALE_DIR.glob("*/LC_MESSAGES/*.po"), *sandbox_words.LOCALE.glob("*/LC_MESSAGES/*.po")]):
        with po.open("rb") as source:
            catalogue = pofile.read_po(source, abort_invalid=True)
        mo = po.with_suffix(".mo")
        buffer = io.BytesIO()
        mofile.write_mo(buffer, catalogue, use_fuzzy=False)
        if mo.exists() and _messages(mo.read_bytes()) == _messages(buffer.getvalue()):
            continue  # the same sentences: leave the file (babel stamps a date into every .mo it writes)
        mo.write_bytes(buffer.getvalue())
        written.append(mo)
    _catalogue.cache_clear()
    sandbox_words.reload()
    return written


if __name__ == "__main__":
    for path in compile_catalogues():
        print(f"wrote {path}")
