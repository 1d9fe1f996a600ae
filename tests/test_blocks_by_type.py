"""Content blocks are selected by `type`, never by position (issue #24).

On today's models a response often starts with one or more thinking blocks, so `response.content[0].text`
fails on the live API. This test reads the course's own code (the package and every notebook's code
cells) and fails on any `<x>.content[<number>]` or `<x>["content"][<number>]`.
"""

import ast
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def _is_content(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "content"
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "content"


def _is_position(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def positional_reads(source: str, where: str) -> list[str]:
    tree = compile(source, where, "exec", flags=FLAGS)
    return [f"{where}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and _is_content(node.value) and _is_position(node.slice)]


def _sources() -> list[tuple[str, str]]:
    found = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
             for path in sorted((ROOT / "course_agent").rglob("*.py"))]
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells, 1):
            if cell.cell_type == "code":
                found.append((f"{path.relative_to(ROOT)} cell {number}", cell.source))
    return found


def test_no_block_is_read_by_position():
    sources = _sources()
    assert len(sources) > 100, "the course's code was not found"
    reads = [read for where, source in sources for read in positional_reads(source, where)]
    assert not reads, "select content blocks by type, not by position:\n" + "\n".join(reads)


@pytest.mark.parametrize("code", [
    "print(response.content[0].text)",
    "last = message.content[-1]",
    "x = history[-1]['content'][0]['text']",
    "await client.messages.create(model=M).content[1]",
])
def test_a_positional_read_is_found(code):
    assert positional_reads(code, "<example>")


@pytest.mark.parametrize("code", [
    "text = '\\n'.join(b.text for b in response.content if b.type == 'text')",
    "*_, block = cut.content",
    "messages[0]['content']",
    "blocks = response.content[1:]",
])
def test_a_read_by_type_passes(code):
    assert not positional_reads(code, "<example>")
