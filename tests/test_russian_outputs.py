"""The committed outputs of the Russian notebooks hold no English interface text: no sentence of the
package's catalogues appears there in English (data such as diffs and file contents are not sentences
of the package, so they are not looked for)."""

import re
from pathlib import Path

import nbformat
from babel.messages import pofile

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = ROOT / "course_agent" / "locale" / "ru" / "LC_MESSAGES"


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


def test_russian_notebooks_show_no_english_interface_text():
    pieces = english_pieces()
    assert len(pieces) > 200
    found = []
    for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
            shown = "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                            + str(o.get("data", {}).get("text/html", "")) + str(o.get("evalue", ""))
                            for o in cell.get("outputs", []))
            found += [f"{path.name}, cell {number}: {piece!r}" for piece in pieces if piece in shown]
    assert not found, "English in the Russian notebooks:\n" + "\n".join(found)


# ---- No Latin-script words in the Russian notebooks (#28) ----------------------------------------------------
#
# A Latin word in a Russian notebook's prose or outputs is a word of English the learner has to read, unless it is
# one of: code (anything with _ . / = ( ) [ ] { } ' " ` < > digits or CamelCase), inline code and fenced code,
# URLs and link targets, HTML tags, data of the demo repository (its files, merge request titles, descriptions,
# authors, branches: what the tools return), an API error message as the API sends it ("Error code: 400 - ..."),
# or a word of TERMS below. Whatever else is found must be listed in REMAINING with the notebook it is in:
# REMAINING lists what is still to translate (it can only shrink: an entry no longer found fails the test too).

DEMO = ROOT / "course_sandbox" / "demo_gitlab" / "project"

TERMS = {
    # names of products, services, formats and protocols
    "API", "SDK", "GitLab", "Claude", "Anthropic", "Opus", "Python", "JupyterLab", "Jupyter", "JSON", "JSONL", "Lines",
    "HTML", "HTTP", "CI", "CD", "MR", "Message", "Messages", "Batches", "Ctrl", "GitHub", "Git", "ID", "id", "Id",
    "Schema", "README", "Haiku", "Sonnet", "Mythos", "Fable", "bash", "main",
    # the course's own names: the command, the demo GitLab's reviewer account
    "course-agent", "course-reviewer",
    # API terms the glossary keeps in English (role names, block and field names, stop reasons without an underscore)
    "user", "assistant", "thinking", "text", "refusal", "signature", "usage", "role", "content", "type", "input",
    "fallback", "diff", "merge", "request", "pull", "approver", "Approver", "scope", "api",
    # English originals the prose gives in parentheses: «наблюдатель (observer)», «задание (job)», «пакет (batch)»
    "observer", "middleware", "job", "batch",
    "system", "tools", "data", "cyber", "auto", "any", "none", "tool", "name", "model", "messages", "citations",
    "Merge", "low", "medium", "high", "max", "true", "false",
    # names from the exercises' code: the TOOLS list, a schema property, a tuple field, the policy variable (also
    # the name the audit log gives the policy as the one who decided)
    "TOOLS", "path", "pr", "policy",
    # Python values
    "True", "False", "None", "lambda", "Refused",
    # Python keywords the hints of the checks name in prose («прямо перед raise», «ветка except», «цепочка if»)
    "raise", "except", "if", "def", "return",
    # titles of the Anthropic documentation pages the lessons cite (italic, as the docs name them)
    "Handling", "refusals", "Preserved", "Extended", "Adaptive", "Parallel", "use", "Prompt", "caching", "Tool",
    "Stop", "reasons", "Errors", "Fallbacks", "effort", "Effort", "Batch", "processing", "Forcing", "Cache",
    "limitations",
}

# What is still English, by notebook: (notebook prefix, word). Each entry names where the word comes from.
REMAINING = {
    # 05 cell 36: the reference solution of exercise 5 (course_agent/solutions/exercise_05.py) returns English
    # tool errors ("read_file failed: ... does not exist at main"), and the check quotes them
    ("05", "failed"), ("05", "does"), ("05", "not"), ("05", "exist"), ("05", "at"), ("05", "now"), ("05", "takes"),
    # 07 cell 6: course_agent.gitlab's get_diff labels (Title, Author, State, Description) and GitLab's state
    # "opened"; the risk levels of course_agent.safety (read-only, writes, dangerous) are printed as they are
    ("07", "Title"), ("07", "Author"), ("07", "State"), ("07", "Description"), ("07", "opened"),
    ("07", "read-only"), ("07", "writes"), ("07", "dangerous"),
    # 07 cell 13: MessagesView (course_agent.widgets) marks an error result "ERROR"; ApprovalPrompt's repr says "waiting"
    ("07", "ERROR"), ("07", "waiting"),
    # 07 cell 15: the audit log's decisions (allowed, refused) are data of course_agent.safety
    ("07", "allowed"), ("07", "refused"),
}

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


def _output_text(cell, lines: set[str], phrases: list[str]) -> str:
    shown = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) + str(o.get("evalue", ""))
                      for o in cell.get("outputs", []))
    shown = shown.replace("404 Not found", " ")  # GitLab's own answer, quoted
    kept = []
    for line in shown.splitlines():
        bare = line.strip()
        if bare.startswith(("Error code:", "diff --git", "@@")) or bare in lines or bare[1:].strip() in lines:
            continue  # an API error as sent, or the demo repository's own lines (a diff, a file)
        if bare.startswith(("+", "-")) and not re.search("[а-яё]", bare, re.I):
            continue  # a diff line cut short (a tool result shown in part)
        line = re.sub(r"`[^`]*`", " ", line)  # inline code quoted in the model's answer
        for phrase in phrases:
            line = line.replace(phrase, " ")
        kept.append(line)
    return "\n".join(kept)


def russian_latin_words() -> dict[tuple[str, str], list[str]]:
    """(notebook prefix, word) -> where it was found, for every Latin word outside the allow-list."""
    lines, phrases = _demo_data()
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted((ROOT / "notebooks" / "ru").glob("*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
            if cell.cell_type == "markdown":
                text = _prose(cell.source)
            elif cell.cell_type == "code":
                text = _output_text(cell, lines, phrases)
            else:
                continue
            for word in _latin_words(text):
                found.setdefault((path.name[:2], word), []).append(f"{path.name}, cell {number}")
    return found


def test_russian_notebooks_have_no_latin_words_outside_the_allow_list():
    found = russian_latin_words()
    new = {key: where for key, where in found.items() if key not in REMAINING}
    assert not new, "Latin-script words in the Russian notebooks (translate, or explain in TERMS):\n" + "\n".join(
        f"{word!r}: {', '.join(sorted(set(where)))}" for (_, word), where in sorted(new.items()))
    gone = sorted(set(REMAINING) - set(found))
    assert not gone, f"no longer found, remove from REMAINING: {gone}"
