"""Imported by pytest before the plugins it finds installed (pyproject's addopts: `-p course_agent._import_first`).

Importing it runs the package's __init__ first, so when nbval's nbformat imports jsonschema the lazy
IRI grammar is in place (compiling rfc3987_syntax's grammars costs ~1.3 s in pytest's main process and
again in each worker). A module of its own because pytest rewrites the asserts of every module that
`-p` names, with its submodules: naming the package would rewrite the course's own code in the tests.
"""
