"""Every sentence the package shows a learner has a Russian form, and the compiled catalogues
are the .po sources as they are now."""

import ast
import re
import gettext
from pathlib import Path

import pytest
from babel.messages import pofile

from course_agent import i18n

PACKAGE = Path(i18n.__file__).resolve().parent
RU = PACKAGE / "locale" / "ru" / "LC_MESSAGES"
SPEAKING = (PACKAGE, PACKAGE.parent / "course_selfcheck")
"""The packages whose sentences a learner reads: the course's and the self-check's (reports, graders)."""


def _sentences() -> list[tuple[str, int, str | tuple[str, str]]]:
    """(file, line, msgid) of every tr("...") / N_("...") / ntr("...", "...") call with literal text."""
    found = []
    for path in sorted(p for package in SPEAKING for p in package.rglob("*.py")):
        if "demo_gitlab/project" in path.as_posix():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                    in ("tr", "ntr", "N_")):
                continue
            texts = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in ("tr", "N_") and texts:
                found.append((path.relative_to(PACKAGE.parent).as_posix(), node.lineno, texts[0]))
            elif name == "ntr" and len(texts) == 2:
                found.append((path.relative_to(PACKAGE.parent).as_posix(), node.lineno, (texts[0], texts[1])))
    return found


def _russian() -> dict:
    entries = {}
    for po in sorted(RU.glob("*.po")):
        with po.open("rb") as source:
            for message in pofile.read_po(source, abort_invalid=True):
                if message.id:
                    entries[message.id] = message.string
    return entries


def test_every_sentence_has_a_russian_form():
    russian = _russian()
    missing = []
    for file, line, msgid in _sentences():
        form = russian.get(msgid)
        if isinstance(msgid, tuple):
            ok = isinstance(form, (list, tuple)) and len(form) == 3 and all(form)
        else:
            ok = isinstance(form, str) and form.strip() != ""
        if not ok:
            missing.append(f"{file}:{line}: {msgid!r}")
    assert not missing, "no Russian form for:\n" + "\n".join(missing)


def test_the_compiled_catalogues_match_their_sources():
    for po in sorted(RU.glob("*.po")):
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo.name} is missing: run python -m course_agent.i18n"
        with mo.open("rb") as data:
            compiled = gettext.GNUTranslations(data)._catalog
        with po.open("rb") as source:
            catalogue = pofile.read_po(source)
        for message in catalogue:
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                for index, form in enumerate(message.string):
                    assert compiled.get((message.id[0], index)) == form, f"{mo.name} is stale: python -m course_agent.i18n"
            else:
                assert compiled.get(message.id) == message.string, f"{mo.name} is stale: python -m course_agent.i18n"


@pytest.mark.parametrize("n, form", [(1, "1 запрос"), (2, "2 запроса"), (4, "4 запроса"), (5, "5 запросов"),
                                     (11, "11 запросов"), (12, "12 запросов"), (21, "21 запрос"), (22, "22 запроса")])
def test_russian_plurals(n, form):
    """One of the package's own counts (the self-check's), in each of Russian's three forms."""
    singular, plural = "after {stop} the loop sent {n} more request", "after {stop} the loop sent {n} more requests"
    assert i18n.ntr(singular, plural, n, "ru", stop="end_turn") == f"после end_turn цикл отправил ещё {form}"
    assert i18n.ntr(singular, plural, n, "en", stop="end_turn") == f"after end_turn the loop sent {n} more request" + (
        "" if n == 1 else "s")


def test_the_language_comes_from_the_argument_then_the_environment(monkeypatch):
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    assert i18n.language() == "ru" and i18n.language("en") == "en" and i18n.language("ru-RU") == "ru"
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "de")
    with pytest.raises(ValueError, match="COURSE_AGENT_LANGUAGE"):
        i18n.language()
    with pytest.raises(ValueError, match="en, ru"):
        i18n.language("de")


def test_russian_numbers_use_a_decimal_comma():
    assert i18n.number(1.25, "ru", 2) == "1,25" and i18n.number(1.25, "en", 2) == "1.25"


def test_shares_and_multipliers_are_written_as_each_language_writes_them():
    assert i18n.percent(26.8, "ru") == "27\u00a0%" and i18n.percent(26.8, "en") == "27%"
    assert i18n.percent(0.125, "ru", 1) == "0,1\u00a0%"
    assert i18n.times(1.25, "ru") == "1,25\u00d7" and i18n.times(0.1, "en", 1) == "0.1\u00d7"


def _said_in_code() -> tuple[set[str], set[tuple[str, str]]]:
    """Every string the packages say outside ntr() (a tr()/N_() msgid, or a sentence handed to tr() later), and
    every (singular, plural) pair of an ntr() call."""
    said, pairs = set(), set()
    for path in sorted(p for package in SPEAKING for p in package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        counted = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "ntr":
                texts = [a.value for a in node.args[:2] if isinstance(a, ast.Constant)]
                if len(texts) == 2:
                    pairs.add((texts[0], texts[1]))
                counted.update(id(a) for a in node.args[:2])
        said |= {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                 and isinstance(node.value, str) and id(node) not in counted}
    return said, pairs


def test_no_sentence_in_the_catalogues_is_one_the_code_no_longer_says():
    """A Russian form nobody shows is a trap: the next writer edits it, and nothing changes for the learner (a
    count written once with tr() and once with ntr() kept both). argparse's own sentences are said by argparse."""
    import argparse
    import inspect

    said, pairs = _said_in_code()
    argparse_source = inspect.getsource(argparse)
    stale = [msgid for msgid in _russian() if (msgid not in pairs if isinstance(msgid, tuple)
                                               else msgid not in said and msgid not in argparse_source)]
    assert not stale, "Russian forms of sentences no code says:\n" + "\n".join(map(repr, stale))


COUNTED = re.compile(r"\{(\w+)(?::[^}]*)?\}\s+(итераци|запрос|символ|токен|секунд|минут|сообщени|вызов|файл|строк|"
                     r"блок|результат|ответ|ревью|попыт|час|дн|раз\b)", re.I)
"""A field followed by a noun that is counted: "{n} запросов" agrees with one n only (1 запрос, 2 запроса, 5
запросов), so such a sentence goes through ntr(), or says "запросов: {n}"."""


def test_a_number_meets_its_noun_only_through_ntr():
    """In the package's catalogues and the sandbox's (what its model and its GitLab say)."""
    sandbox = PACKAGE.parent / "course_sandbox" / "locale" / "ru" / "LC_MESSAGES" / "sandbox.po"
    with sandbox.open("rb") as source:
        said = {m.id: m.string for m in pofile.read_po(source, abort_invalid=True) if m.id}
    found = []
    for msgid, russian in {**_russian(), **said}.items():
        if isinstance(msgid, tuple) or not isinstance(russian, str):
            continue
        for match in COUNTED.finditer(russian):
            found.append(f"{msgid!r}: …{russian[max(0, match.start() - 30):match.end() + 10]}…")
    assert not found, "a count through tr() (use ntr(), or 'noun: {n}'):\n" + "\n".join(found)


def test_russian_figures_of_five_digits_and_more_are_grouped():
    """Russian typography groups thousands with a no-break space from five digits on («484 915», «15 179,8»),
    not in four-digit numbers («2000»); English figures stay as they were."""
    from course_agent import i18n
    assert i18n.number(484915, "ru", 0) == "484\u00a0915"
    assert i18n.number(15179.8, "ru") == "15\u00a0179,8"
    assert i18n.number(2000, "ru", 0) == "2000"
    assert i18n.number(15179.8, "en") == "15179.8"
