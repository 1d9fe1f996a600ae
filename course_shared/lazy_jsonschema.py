"""Importing jsonschema without compiling rfc3987_syntax's grammars until an IRI is first checked.

For the test configuration only: pytest's `-p course_shared.jsonschema_first` runs it before its plugins
import jsonschema (nbval's nbformat does), which saves ~1 s in pytest's main process and in each worker.
The course's packages do not call it (#42): it patches sys.modules while jsonschema imports and relies
on one line of jsonschema's private `_format` (`from rfc3987_syntax import is_valid_syntax`), a side
effect a learner's import should not have. They import jsonschema as it is, and where rfc3987-syntax is
installed (the course's extra brings it, through Jupyter's jsonschema[format-nongpl]; the lean install
does not) a process that imports them pays its grammars once (~1 s). If jsonschema stops importing
rfc3987_syntax that way, this does nothing and tests/test_packaging.py says so (it skips).
"""

import importlib
import importlib.util
import sys
import types


def import_jsonschema_lazily() -> None:
    """Import jsonschema with its "iri" format checker intact but its grammar compiled on first use.

    jsonschema's `_format` does `from rfc3987_syntax import is_valid_syntax`, and importing
    rfc3987_syntax compiles three Lark grammars at once (~1 s, most of a notebook's setup imports),
    for the "iri"/"iri-reference" formats that only a tool schema asking for them ever checks. So while
    jsonschema imports, `rfc3987_syntax` is a stand-in whose `is_valid_syntax` imports the real
    module on its first call (the import lock makes that safe across threads) and passes the call on.
    The stand-in leaves sys.modules as soon as jsonschema is imported: any later
    `import rfc3987_syntax` gets the real module. Checking stays exactly what it was; only when changes.
    Nothing to do if jsonschema is already imported or rfc3987_syntax (or its lark) is not installed:
    jsonschema then does what it always does."""
    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return
    if importlib.util.find_spec("rfc3987_syntax") is None or importlib.util.find_spec("lark") is None:
        return  # jsonschema would leave the IRI formats out (or fall back to rfc3987): let it
    stand_in = types.ModuleType("rfc3987_syntax",
                                "Stand-in until the first IRI check (see course_shared.lazy_jsonschema).")

    def is_valid_syntax(term: str, value: str) -> bool:
        return importlib.import_module("rfc3987_syntax").is_valid_syntax(term, value)

    stand_in.is_valid_syntax = is_valid_syntax
    sys.modules["rfc3987_syntax"] = stand_in
    try:
        import jsonschema  # noqa: F401  (jsonschema._format binds the stand-in's is_valid_syntax)
    finally:
        if sys.modules.get("rfc3987_syntax") is stand_in:
            del sys.modules["rfc3987_syntax"]
