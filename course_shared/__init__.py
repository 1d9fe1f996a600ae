"""What the course's three packages share, below all of them: `course_selfcheck` → `course_agent` →
`course_sandbox` → `course_shared` (import-linter's layers contract in pyproject.toml holds the direction).

- `hunks`: the one reading of a diff's hunks, as GitLab's own parser reads them (the reviewer's publisher and
  the demo GitLab's positions and simulated model agree on every line).
- `lazy_jsonschema`: jsonschema imported without compiling its IRI grammars until one is checked; only the test
  configuration uses it (the learner's packages import jsonschema as it is, #42).
- `jsonschema_first`: imported by pytest before its plugins (pyproject's `-p`), for the same reason.
"""
