"""The Russian learner reads no English interface text: no sentence of the package's catalogues appears in
English in the Russian notebooks' outputs, and no Latin-script word appears in their prose and outputs, in
README.ru.md or in the catalogues' Russian sentences, outside an allow-list of code, API terms and the demo
repository's data (a diff or a file is data, not a sentence of the course)."""

import html
import re
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from babel.messages import pofile

from course_agent.config import model_id

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = ROOT / "course_agent" / "locale" / "ru" / "LC_MESSAGES"
SANDBOX_PO = ROOT / "course_sandbox" / "locale" / "ru" / "LC_MESSAGES" / "sandbox.po"


def english_pieces() -> set[str]:
    """The literal parts of every English sentence (between its {fields}) long enough to be telling."""
    pieces = set()
    for po in CATALOGUES.glob("*.po"):
        with po.open("rb") as source:
            for message in pofile.read_po(source):
                for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
                    for part in re.split(r"\{[^}]*\}", text or ""):
                        part = part.strip(" :;,.()!?-—\n")
                        if len(part) >= 14 and re.search(r"[a-z]{3,} [a-z]{2,}", part):
                            pieces.add(part)
    return pieces


CODE_BLOCK = re.compile(r"<pre>.*?</pre>", re.S)
"""Code shown as code (a folded reference solution): its string literals are code, not interface text."""


def test_russian_notebooks_show_no_english_interface_text():
    pieces = english_pieces()
    assert len(pieces) > 200
    found = []
    for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
            shown = "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                            + CODE_BLOCK.sub("", str(o.get("data", {}).get("text/html", ""))) + str(o.get("evalue", ""))
                            for o in cell.get("outputs", []))
            found += [f"{path.name}, cell {number}: {piece!r}" for piece in pieces if piece in shown]
    assert not found, "English in the Russian notebooks:\n" + "\n".join(found)


# ---- No Latin-script words in Russian text (#28) --------------------------------------------------------------
#
# Scanned: every markdown cell and every output (text, text/plain, errors, and what text/html shows) of the Russian
# notebooks, README.ru.md, and every Russian sentence (each plural form) of the catalogues.
# A Latin word there is a word of English the learner has to read, unless it is
# one of: code (anything with _ . / = ( ) [ ] { } ' " ` < > digits or CamelCase), inline code and fenced code,
# URLs and link targets, HTML tags, data of the demo repository (its files, merge request titles, descriptions,
# authors, branches: what the tools return), an API error message as the API sends it ("Error code: 400 - ..."),
# or a word of TERMS below. Whatever else is found must be listed in REMAINING with the notebook it is in:
# REMAINING lists what is still to translate (it can only shrink: an entry no longer found fails the test too).

DEMO = ROOT / "course_sandbox" / "demo_gitlab" / "project"

TERMS = {
    # names of products, services, formats and protocols
    "API", "SDK", "GitLab", "Claude", "Anthropic", "Opus", "Python", "JupyterLab", "Jupyter", "Mermaid", "JSON", "JSONL", "Lines",
    "HTML", "HTTP", "CI", "CD", "MR", "LLM", "REST", "git", "Homebrew", "loopback", "Ctrl-C", "Message", "Messages", "Batches", "Ctrl", "GitHub", "Git", "ID", "id", "Id",
    "Schema", "README", "Haiku", "Sonnet", "Mythos", "Fable", "bash", "main",
    # a class on a hub (course-agent classroom-link): the tool that pulls the course, the scheme of an address, the
    # name git gives the repository a checkout came from
    "JupyterHub", "nbgitpuller", "https", "origin",
    # where a hub runs for a class (README.ru.md's link to docs/classroom.ru.md): The Littlest JupyterHub, Kubernetes
    "TLJH", "Kubernetes",
    # the editors start_from names, where a cell is not replaced: VS Code, Colab
    "VS", "Code", "Colab",
    # the course's own names: the command, the demo GitLab's reviewer account; the link to the English README
    "course-agent", "course-reviewer", "English",
    # pip's error, quoted in README.ru.md (the reason the start command makes a virtual environment)
    "externally-managed-environment",
    # API terms the glossary keeps in English (role names, block and field names, stop reasons without an underscore)
    "user", "assistant", "thinking", "text", "refusal", "compaction", "signature", "usage", "role", "content", "type", "input",
    "fallback", "diff", "merge", "request", "pull", "approver", "Approver", "scope", "api",
    # the labels of get_diff's result, which the model reads: the glossary keeps them English (Title:, Description:)
    "Title", "Description",
    # English originals the prose gives in parentheses: «наблюдатель (observer)», «задание (job)», «пакет (batch)»,
    # «жёсткий сценарий (workflow)», «модель, которая сохраняет рассуждение (preserved thinking)»
    "observer", "middleware", "job", "batch", "workflow", "preserved",
    "system", "tools", "data", "cyber", "auto", "any", "none", "tool", "name", "model", "messages", "citations",
    "Merge", "low", "medium", "high", "max", "true", "false",
    # names from the exercises' code: the TOOLS list, a schema property, a tuple field, the policy variable (also
    # the name the audit log gives the policy as the one who decided)
    "TOOLS", "path", "pr", "policy",
    # Python values
    "True", "False", "None", "lambda", "Refused",
    # Python keywords the hints of the checks name in prose («прямо перед raise», «ветка except», «цепочка if»,
    # «в finally: у try вокруг цикла»)
    "raise", "except", "if", "def", "return", "try", "finally",
    # titles of the Anthropic documentation pages the lessons cite (italic, as the docs name them)
    "Handling", "refusals", "Preserved", "Extended", "Adaptive", "Parallel", "use", "Prompt", "caching", "Tool",
    "Stop", "reasons", "Errors", "Fallbacks", "effort", "Effort", "Batch", "processing", "Forcing", "Cache",
    "limitations",
}

# What is still English, by notebook: (notebook prefix, word). Each entry names where the word comes from.
REMAINING: set[tuple[str, str]] = set()  # nothing left to translate

# Code the catalogues' sentences name without backticks (a message is plain text): command-line options and their
# values, Python names of the exercises (the objects a hint tells the learner to build), a package name.
CATALOGUE_CODE = {
    "all-open", "allow-remote", "host", "repo", "post", "resume", "approval", "DIR", "ask", "approve", "deny", "timeout",
    "anthropic", "client", "list", "review", "Policy", "Verdict", "ASK", "DENY", "decide", "toolbox", "audit",
    "counting", "billed", "properties", "ref", "rules", "LIMIT",
    # a request parameter of the Messages API (fallbacks) and the notebook-7 exercise's set of tool names (DANGEROUS)
    "fallbacks", "DANGEROUS",
    # the parameter a cut note tells the model to read on with (read_file's start)
    "start",
    # Python builtins the sandbox's reviewer names in a finding: "a debugging print() is left in"
    "print", "eval",
    # the Python line a hint of exercise 7 gives: `... == "post_comment" and len(...) < 2000`
    "and",
    # an HTTP status as GitLab names it: "401 Unauthorized"
    "Unauthorized",
}

PYTHON_SAYS = re.compile(r"missing \d+ required (positional|keyword-only) arguments?|got an unexpected keyword "
                         r"argument|takes \d+ positional arguments? but \d+ (was|were) given")
"""Python's own words in an exception a check quotes ("TypeError: f() missing 1 required positional argument"): the
learner's error as Python raised it, which no catalogue translates."""

CODE_LIKE = re.compile(r"[_./=()\[\]{}'\"`<>\\|#@$%^&*+~0-9]|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]")
WORD = re.compile(r"[A-Za-z][A-Za-z-]*[A-Za-z]|[A-Za-z]")


def _demo_data() -> tuple[set[str], list[str]]:
    """Lines of the demo repository (files and merge requests) and the phrases its tools return."""
    import json

    lines, phrases = set(), []
    for path in DEMO.rglob("*"):
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            lines |= {line.strip() for line in text.splitlines() if line.strip()}
    for mr in json.loads((DEMO / "merge_requests.json").read_text(encoding="utf-8")):
        phrases += [mr["title"], mr["source_branch"], str(mr.get("author", ""))]
        phrases += [line.strip() for line in (mr.get("description") or "").splitlines() if line.strip()]
    return lines, sorted({p for p in phrases if p}, key=len, reverse=True)


def _latin_words(text: str) -> list[str]:
    words = []
    for chunk in text.split():
        chunk = chunk.strip(",;:.!?«»()—–-…*")
        if not chunk or CODE_LIKE.search(chunk):
            continue
        words += [w for w in WORD.findall(chunk) if w not in TERMS and len(w) > 1]
    return words


def _prose(markdown: str) -> str:
    text = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r"https?://\S+", " ", text)
    return re.sub(r"<[^>]+>", " ", text)


def _html_text(markup: str) -> str:
    """What a page shows of an HTML output, code and tool data (<pre>, <code>) left out as in the prose."""
    markup = re.sub(r"<(style|script|pre|code)\b[^>]*>.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"<br\s*/?>|</(div|p|li|tr|summary|details|h\d)>", "\n", markup)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _output_text(cell, lines: set[str], phrases: list[str]) -> str:
    shown = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) + str(o.get("evalue", ""))
                      + "\n" + _html_text(str(o.get("data", {}).get("text/html", "")))
                      for o in cell.get("outputs", []))
    shown = shown.replace("404 Not found", " ")  # GitLab's own answer, quoted
    kept = []
    for line in shown.splitlines():
        bare = line.strip()
        if bare.startswith(("Error code:", "diff --git", "@@")) or bare in lines or bare[1:].strip() in lines:
            continue  # an API error as sent, or the demo repository's own lines (a diff, a file)
        if re.match(r"(\w+Error )?[45]\d\d ", bare):
            continue  # an API error's status and message, printed as the API sent them (error.body)
        if bare.startswith(("+", "-")) and not re.search("[а-яё]", bare, re.I):
            continue  # a diff line cut short (a tool result shown in part)
        line = re.sub(r"`[^`]*`", " ", line)  # inline code quoted in the model's answer
        line = PYTHON_SAYS.sub(" ", line)
        line = " ".join(w for w in line.split() if w.strip(",;:.!?()") not in CATALOGUE_CODE)  # a check's report
        for phrase in phrases:
            line = line.replace(phrase, " ")
        kept.append(line)
    return "\n".join(kept)


def _notebook_texts(path: Path, lines: set[str], phrases: list[str]) -> Iterator[tuple[str, str]]:
    """(where, text) of every markdown cell and every code cell's outputs of one notebook."""
    for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
        if cell.cell_type == "markdown":
            yield f"{path.name}, cell {number}", _prose(cell.source)
        elif cell.cell_type == "code":
            yield f"{path.name}, cell {number}", _output_text(cell, lines, phrases)


def _catalogue_texts(po: Path) -> Iterator[tuple[str, str]]:
    """(where, text) of every Russian sentence of one catalogue (each plural form), ASCII-quoted code left out."""
    with po.open("rb") as source:
        for message in pofile.read_po(source):
            forms = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
            for form in forms:
                if message.id and form:
                    yield f"{po.name}:{message.lineno}", re.sub(r'"[^"\n]*"', " ", form)


def russian_latin_words(catalogues: Path = CATALOGUES) -> dict[tuple[str, str], list[str]]:
    """(source, word) -> where it was found, for every Latin word outside TERMS. The source is a notebook's
    number ("07"), "README.ru" or a catalogue's file name ("checks.po")."""
    lines, phrases = _demo_data()
    sources = [(path.name[:2], _notebook_texts(path, lines, phrases))
               for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb"))]
    sources.append(("README.ru", [("README.ru.md", _prose((ROOT / "README.ru.md").read_text(encoding="utf-8")))]))
    sources += [(po.name, _catalogue_texts(po)) for po in sorted(catalogues.glob("*.po"))]
    if catalogues == CATALOGUES:  # and the sandbox's own: what its model and its GitLab say to a Russian learner
        sources.append((SANDBOX_PO.name, _catalogue_texts(SANDBOX_PO)))
    found: dict[tuple[str, str], list[str]] = {}
    for source, texts in sources:
        for where, text in texts:
            for word in _latin_words(text):
                if not (source.endswith(".po") and word in CATALOGUE_CODE):
                    found.setdefault((source, word), []).append(where)
    return found


def test_russian_text_has_no_latin_words_outside_the_allow_list():
    found = russian_latin_words()
    new = {key: where for key, where in found.items() if key not in REMAINING}
    assert not new, "Latin-script words in Russian text (translate, or explain in TERMS):\n" + "\n".join(
        f"{word!r}: {', '.join(sorted(set(where)))}" for (_, word), where in sorted(new.items()))
    gone = sorted(set(REMAINING) - set(found))
    assert not gone, f"no longer found, remove from REMAINING: {gone}"


def test_the_scan_finds_a_planted_english_word(tmp_path):
    """The scan can fail: an English word in prose, in an output line or in a catalogue's Russian sentence."""
    assert _latin_words(_prose("Запустите ячейку `review(482)`: the loop is done.")) == ["the", "loop", "is", "done"]
    cell = nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("stream", text="вызовов модели: 3, done\n")])
    assert _latin_words(_output_text(cell, set(), [])) == ["done"]
    page = nbformat.v4.new_output("display_data", data={"text/plain": "вид", "text/html": "<b>ERROR</b> <pre>x = 1</pre>"})
    assert _latin_words(_output_text(nbformat.v4.new_code_cell(outputs=[page]), set(), [])) == ["ERROR"]
    (tmp_path / "planted.po").write_text('msgid "{n} calls"\nmsgstr "{n} calls, вызовов"\n', encoding="utf-8")
    assert russian_latin_words(tmp_path)[("planted.po", "calls")] == ["planted.po:1"]


def test_a_forced_refusal_explains_itself_in_the_language_of_the_task():
    """The sandbox's model answers in the task's language, and so does the note of a refusal the sandbox ordered."""
    from course_sandbox import Sandbox

    with Sandbox() as sandbox:
        client = sandbox.client(max_retries=0)
        explained = {}
        for task in ("Проверь pull request #482.", "Review pull request #482."):
            sandbox.force("refusal")
            response = client.messages.create(model=model_id(), max_tokens=512,
                                              messages=[{"role": "user", "content": task}])
            assert response.stop_reason == "refusal"
            explained[task[0]] = response.stop_details.explanation
    assert not _latin_words(explained["П"]) and "песочница" in explained["П"]
    assert "sandbox" in explained["R"] and "Sandbox." not in explained["R"]  # no internal API name to a learner


def test_the_widgets_text_reprs_speak_russian():
    """What nbval compares (the widgets' text/plain) is in the learner's language too: the error mark, the wait."""
    from course_agent.safety import ApprovalRequest
    from course_agent.tools import Risk
    from course_agent.widgets import ApprovalPrompt, MessagesView

    view = MessagesView(language="ru")
    view.messages.extend([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_A", "name": "read_file", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "404", "is_error": True}]},
    ])
    assert "tool_result ОШИБКА [toolu_A]" in view.text()
    prompt = ApprovalPrompt(ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS), language="ru")
    assert prompt.text() == 'Подтверждение вызова merge_pr {"pr": 485}: ждёт решения'
    prompt.decide(False, "timeout", "no answer within 1 s", reason_shown="нет ответа за 1 с")
    assert prompt.text() == 'Подтверждение вызова merge_pr {"pr": 485}: отклонено — истекло время ожидания'
    assert not _latin_words(prompt.text().replace("merge_pr", ""))
    # what nbval compares is that text, not the class's repr (no English class name in a Russian output)
    assert prompt._repr_mimebundle_()["text/plain"] == prompt.text()


def test_risk_levels_and_decisions_have_the_learners_words():
    """What the console approver prints and what a notebook can print of the audit log, in Russian and in English."""
    from course_agent.safety import by_label, decision_label, risk_label
    from course_agent.tools import Risk

    assert [risk_label(risk, "ru") for risk in Risk] == ["только чтение", "запись", "опасное действие"]
    assert [risk_label(risk, "en") for risk in Risk] == ["read-only", "writes", "dangerous"]
    assert [decision_label(d, "ru") for d in ("allowed", "denied", "approved")] == ["разрешено", "отклонено", "подтверждено"]
    assert decision_label("approved", "en") == "approved" and decision_label("unknown", "ru") == "unknown"
    assert by_label("policy", "ru") == "политика" and by_label("policy", "en") == "policy"
    assert by_label("COURSE_AGENT_AUTO_APPROVE=deny", "ru") == "COURSE_AGENT_AUTO_APPROVE=deny"


def test_the_console_approver_asks_in_russian(monkeypatch):
    from course_agent.safety import ApprovalRequest, console_approver
    from course_agent.tools import Risk

    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    asked = []
    console_approver(ask=lambda prompt: asked.append(prompt) or "нет")(ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS))
    assert "Агент хочет вызвать merge_pr (опасное действие)" in asked[0]
    assert asked[0].endswith("Подтвердить? [д/Н] ")  # the glossary's approve, as on the widget's button
    assert not _latin_words(re.sub(r"\{.*\}", " ", asked[0], flags=re.S).replace("merge_pr", " "))


def test_the_self_checks_approvers_and_missing_human_speak_the_reports_language(monkeypatch):
    """Native read 66's E1: what the grader's approvers raise, and the EOFError of an input() nobody answers, reach
    the learner's loop, which may print them into a Russian report or notebook: they are in the report's language,
    and in the notebook's (COURSE_AGENT_LANGUAGE) when a grader builds its approvers without one. Types unchanged."""
    from course_agent.safety import ApprovalRequest
    from course_agent.tools import Risk
    from course_selfcheck.approvers import Approver, ApproverBroke, ApproverUnavailable
    from course_selfcheck.scenario import run_scenario

    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "en")
    for lang, unavailable, broke in (("ru", "функция подтверждения недоступна: спросить некого",
                                      "функция подтверждения сломалась раньше, чем кто-то ответил"),
                                     ("en", "the approver is unavailable", "the approver broke")):
        with pytest.raises(ApproverUnavailable, match=unavailable):
            Approver("raises", lang=lang)("merge_pr", {"pr": 485})
        with pytest.raises(ApproverBroke, match=broke):
            Approver("breaks", lang=lang)("merge_pr", {"pr": 485})
    said = Approver("silent", "any", silence=0.0, lang="ru")(ApprovalRequest("merge_pr", {"pr": 485}, Risk.DANGEROUS))
    assert said.approved is False and said.reason and not _latin_words(said.reason), said
    monkeypatch.setenv("COURSE_AGENT_LANGUAGE", "ru")
    with pytest.raises(ApproverUnavailable, match="спросить некого"):
        Approver("raises")("merge_pr", {"pr": 485})
    run = run_scenario(lambda pr: input("merge_pr: подтвердить? [да/нет] "), 485)
    assert isinstance(run.error, EOFError) and str(run.error) == "самопроверка идёт без человека: ответа нет", run.error


REJECTED = {  # a variant a Russian learner must not meet -> the one word docs/glossary.ru.md gives the idea
    r"\bодобр\w*": "подтверждение / подтвердить (a human's yes), «можно вливать» (the model's verdict)",
    r"соглас\w*|соглаш\w*": "подтверждение / подтвердить",
    r"симулированн\w*|смоделирован\w*": "модель песочницы, имитация модели",
    r"резервн\w* модел\w*": "запасная модель",
    r"\bпринуждени\w*": "принудительный вызов",
    r"прогон\w*": "запуск",
    r"\bпредел\w*": "ограничение",
    r"\bконвейер\w*": "пайплайн",
    r"\bразговор\w*": "диалог",
    r"\bжив\w+ API": "настоящий API",
    r"журнал\w* запуска": "транскрипт",
    r"воркфлоу": "жёсткий сценарий (workflow), сценарий",
    # issue 36, the native editor's read
    r"функци\w*-approver": "функция подтверждения (approver); `approve`/`approver` only where it names code",
    r"\bученик\w*": "учащийся; участник (a class on a hub)",
    r"\bсли(?:ть|л|ла|ли|ло|вать|вает|вают)\b": "влить (merge); «слить» is a leak",
    r"\bлимит\w*": "ограничение (частоты запросов)",
    r"точк\w* кэширования": "контрольная точка кэша (cache_control)",
    r"1,25 от цены": "1,25 цены входного токена",
    # native read 60
    r"разрешить\?": "«Подтвердить? [д/Н]» (the CLI's question); разрешено / запрещено are the policy's decisions",
    r"итогов\w* ответ\w*": "финальный ответ («итоговый» is the review's summary comment)",
    r"\b(?:SDK|API) (?:отказ|откаж)\w*": "refusal is the model's: the API «отклоняет», «не принимает»; the SDK «не станет»",
    r"\(задание\)|получает задание": "задача, текст задачи (what the model is asked); «задание» is the exercise or the CI job",
    # native read 61
    r"выполнить\? \[": "«подтвердить? [да/нет]» (ask_human in the notebooks), «Подтвердить? [д/Н]» (the CLI)",
    r"\bпрос\w* (?:diff|инструмент)": "запрашивать инструмент (the model asks for a tool)",
    r"недостающ\w* прав": "запрет (a missing permission is a calque)",
    # native read 64
    r"таймаут\w*": "тайм-аут (with a hyphen, as everywhere else)",
    r"результат\w* отказа|отказ\w* шлюза": "результат отклонённого вызова (a person's or the gate's no is not «отказ»)",
}


def test_one_word_for_each_idea():
    """The glossary's choices hold wherever a Russian learner reads: the notebooks (text and outputs), README.ru.md,
    the Russian guides for teachers (docs/classroom.ru.md, docs/gitlab-ci.ru.md), the package's and the sandbox's catalogues, the Russian reference solutions."""
    lines, phrases = _demo_data()
    texts = [text for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb"))
             for _, text in _notebook_texts(path, lines, phrases)]
    texts.append((ROOT / "README.ru.md").read_text(encoding="utf-8"))
    texts += [(ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("classroom.ru.md", "gitlab-ci.ru.md")]
    for po in [*sorted(CATALOGUES.glob("*.po")), SANDBOX_PO]:
        texts += [text for _, text in _catalogue_texts(po)]
    solutions = ROOT / "course_agent" / "solutions"
    texts += [path.read_text(encoding="utf-8") for folder in (solutions / "ru", solutions / "cells" / "ru")
              for path in sorted(folder.glob("*.py"))]
    found = {}
    for text in texts:
        for variant, word in REJECTED.items():
            for match in re.finditer(variant, text, re.I):
                found.setdefault(match.group(0).lower(), word)
    assert len(texts) > 500, len(texts)
    assert not found, "variants the glossary rejects:\n" + "\n".join(f"{v!r} -> {w}" for v, w in sorted(found.items()))


def english_prose_in_code(source: str) -> list[str]:
    """The comments and docstrings of one code cell that hold no Russian word: what a Russian learner would read in
    English. A comment that is itself Python (a line commented out) is code, not prose."""
    import ast
    import io
    import tokenize

    def english(text: str) -> bool:
        return not re.search("[а-яё]", text, re.I) and bool(re.search(r"[A-Za-z]{3,}\W+[A-Za-z]{2,}", text))

    found = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = []
    for token in tokens:
        text = token.string.lstrip("#").strip()
        if token.type == tokenize.COMMENT and english(text):
            try:
                compile(text, "<comment>", "exec")
            except SyntaxError:
                found.append(token.string)
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a cell with IPython syntax (a magic, a top-level await): its comments were read above
        return found
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.decorator_list:
            docstring = ast.get_docstring(node)  # a @beta_tool's docstring is its description for the model, like
            # the descriptions in TOOLS: the same in both languages
            if docstring and english(docstring):
                found.append(docstring)
    return found


def test_the_russian_notebooks_code_cells_comment_in_russian():
    """Every comment and docstring a Russian learner reads in a code cell is Russian (#36: every word a Russian
    learner sees): a cell shared by both languages whose comment is English is split into its two twins."""
    found = [(path.name, number, piece)
             for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb"))
             for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1)
             if cell.cell_type == "code"
             for piece in english_prose_in_code(cell.source)]
    assert not found, "\n".join(f"{name}, cell {number}: {piece[:90]}" for name, number, piece in found)


def test_the_code_scan_finds_english_comments_and_docstrings():
    """It can fail: an English comment, an English docstring; a Russian one and a line commented out pass."""
    cell = ('def f():\n    """Run the tool."""\n    return 1  # small, so that it happens\n'
            '# print(review(482))\nx = 1  # всё по-русски, с `code`\n')
    assert english_prose_in_code(cell) == ["# small, so that it happens", "Run the tool."]
    assert english_prose_in_code("await thing()  # only schedules it\n") == ["# only schedules it"]


def grouped_with_plain_spaces(text: str) -> list[str]:
    """Numbers whose digit groups a plain space separates (20 000): a line may break inside them. Russian typography
    keeps them whole with a non-breaking space (20 000). Inline code is left out."""
    prose = re.sub(r"`[^`]*`", " ", text)
    return re.findall(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?!\d)", prose)


def test_russian_prose_keeps_grouped_numbers_whole():
    """#36: in the Russian notebooks' text and README.ru.md, 20 000 is written with a non-breaking space."""
    found = [(path.name, number, group)
             for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb"))
             for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1)
             if cell.cell_type == "markdown"
             for group in grouped_with_plain_spaces(cell.source)]
    found += [("README.ru.md", 0, group)
              for group in grouped_with_plain_spaces((ROOT / "README.ru.md").read_text(encoding="utf-8"))]
    assert not found, found
    assert grouped_with_plain_spaces("до 20 000 символов, `20 000` в коде") == ["20 000"]
    assert grouped_with_plain_spaces("до 20\u00a0000 символов") == []
