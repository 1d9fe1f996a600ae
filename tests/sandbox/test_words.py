"""The sandbox speaks through one gettext catalogue of its own (#36): every sentence of the simulated model and
the sandbox (`words(...)`, `N_(...)`) has its Russian form in course_sandbox/locale/ru/LC_MESSAGES/sandbox.po, with
the same {fields}; the compiled .mo is that .po; no sentence is written twice in the code (`say(lang, en, ru)`)."""

import ast
import re
from pathlib import Path

from babel.messages import pofile

import course_sandbox
from course_sandbox.words import LOCALE, words

PACKAGE = Path(course_sandbox.__file__).resolve().parent
PO = LOCALE / "ru" / "LC_MESSAGES" / "sandbox.po"


def _sentences() -> list[tuple[str, int, str, str | None]]:
    """(file, line, msgid, msgctxt) of every words("...") and N_("...") call with literal text."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "demo_gitlab/project" in path.as_posix():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) not in ("words", "N_"):
                continue
            index = 1 if node.func.id == "words" else 0
            texts = [a for a in node.args[index:index + 1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            context = next((k.value.value for k in node.keywords if k.arg == "context"
                            and isinstance(k.value, ast.Constant)), None)
            contexts = [context] if context or not any(k.arg == "context" for k in node.keywords) else \
                [v.value for v in ast.walk(next(k.value for k in node.keywords if k.arg == "context"))
                 if isinstance(v, ast.Constant) and isinstance(v.value, str)]
            for text in texts:
                for ctx in contexts:
                    found.append((path.relative_to(PACKAGE).as_posix(), node.lineno, text.value, ctx))
    return found


def _catalogue() -> dict[tuple[str | None, str], str]:
    with PO.open("rb") as source:
        return {(m.context, m.id): m.string for m in pofile.read_po(source, abort_invalid=True) if m.id}


def _fields(text: str) -> set[str]:
    return set(re.findall(r"(?<!\{)\{([a-z_0-9]+)[!:}]", text))


def test_every_sandbox_sentence_has_a_russian_form_with_the_same_fields():
    catalogue, sentences = _catalogue(), _sentences()
    assert len(sentences) > 80
    missing = [f"{file}:{line}: {msgid!r} ({context})" for file, line, msgid, context in sentences
               if not catalogue.get((context, msgid), "").strip()]
    assert not missing, "no Russian form in sandbox.po for:\n" + "\n".join(missing)
    for (context, msgid), russian in catalogue.items():
        assert _fields(russian) == _fields(msgid), (msgid, russian)
    unused = {key for key in catalogue} - {(context, msgid) for _, _, msgid, context in sentences}
    assert not unused, f"sentences in sandbox.po that no code says: {sorted(unused)}"


def test_the_compiled_catalogue_is_its_source():
    for (context, msgid), russian in _catalogue().items():
        shown = words("ru", msgid, context=context, **{f: f"<{f}>" for f in _fields(msgid)})
        assert shown == russian.format(**{f: f"<{f}>" for f in _fields(msgid)}), \
            f"sandbox.mo is stale ({msgid!r}): run python -m course_agent.i18n"


def test_no_sentence_is_written_in_both_languages_in_the_code():
    for path in sorted(PACKAGE.rglob("*.py")):
        assert not re.search(r"\bsay\(", path.read_text(encoding="utf-8")), path


def test_english_is_the_code_and_russian_the_catalogue():
    assert words("en", "I'll start by fetching the diff of !{number}.", number=482) == \
        "I'll start by fetching the diff of !482."
    assert words("ru", "I'll start by fetching the diff of !{number}.", number=482) == "Сначала получу diff для !482."
    assert words("ru", "I'll use {listed} for this.", context="several tools", listed="a и b") == \
        "Воспользуюсь инструментами a и b."
