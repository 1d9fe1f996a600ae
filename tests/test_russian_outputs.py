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
