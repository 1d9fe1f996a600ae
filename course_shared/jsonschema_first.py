"""Imported by pytest before the plugins it finds installed (pyproject's addopts: `-p course_shared.jsonschema_first`).

nbval's nbformat imports jsonschema when pytest loads it; importing this module first puts the lazy IRI grammar
in place (compiling rfc3987_syntax's grammars costs ~1.3 s in pytest's main process and again in each worker).
Only the test configuration asks for it: the course's packages import jsonschema as it is (#42), so a notebook
kernel started by nbval compiles the grammars as a learner's kernel does. A module of its own because pytest
rewrites the asserts of every module that `-p` names.
"""

from course_shared.lazy_jsonschema import import_jsonschema_lazily

import_jsonschema_lazily()
