"""course_agent and the sandbox beside it (course_sandbox) use only the public surface of the HTTP and
API libraries and of the sandbox's server (waitress): a new release may change their private fields at
any time, and every learner's self-check with them. Read from the AST: no private import from those libraries, and no private attribute (nor vars() / __dict__) of a name bound
to them: a module, or a value that comes from one (assigned from it, or narrowed with isinstance)."""

import ast
from pathlib import Path

import pytest

LIBRARIES = {"anthropic", "httpx", "httpx2", "gitlab", "requests", "urllib3", "httpcore", "httpcore2", "waitress"}
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [ROOT / "course_agent", ROOT / "course_sandbox", ROOT / "course_selfcheck"]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _targets(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _bound(tree: ast.AST, problems: list[str]) -> set[str]:
    """Names of the libraries' modules and of the values that come from them (until nothing is added)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LIBRARIES:
                    bound.add(alias.asname or alias.name.split(".")[0])
                    if any(_private(part) for part in alias.name.split(".")):
                        problems.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in LIBRARIES:
            for alias in node.names:
                bound.add(alias.asname or alias.name)
                if any(_private(part) for part in [*node.module.split("."), alias.name]):
                    problems.append(f"line {node.lineno}: from {node.module} import {alias.name}")
    while True:
        before = len(bound)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.withitem,
                                 ast.NamedExpr, ast.comprehension)):
                value = getattr(node, "value", None) or getattr(node, "iter", None) or getattr(node, "context_expr", None)
                source = _names(value) if value is not None else set()
                if isinstance(node, ast.AnnAssign):
                    source |= _names(node.annotation)
                targets = [node.optional_vars] if isinstance(node, ast.withitem) else \
                    getattr(node, "targets", None) or [node.target]
                if source & bound:
                    bound |= set().union(*(_targets(t) for t in targets if t is not None))
            elif isinstance(node, ast.arg) and node.annotation is not None and _names(node.annotation) & bound:
                bound.add(node.arg)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
                  and len(node.args) == 2 and isinstance(node.args[0], ast.Name) and _names(node.args[1]) & bound):
                bound.add(node.args[0].id)
        if len(bound) == before:
            return bound


def private_access(source: str) -> list[str]:
    """Each private use of the libraries in this source, as 'line N: what'."""
    tree = ast.parse(source)
    problems: list[str] = []
    bound = _bound(tree, problems)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (_private(node.attr) or node.attr == "__dict__") \
                and _root(node.value) in bound:
            problems.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args \
                and _root(node.args[0]) in bound:
            name = node.args[1] if len(node.args) > 1 else None
            if node.func.id == "vars" or (node.func.id in ("getattr", "setattr", "delattr", "hasattr")
                                          and isinstance(name, ast.Constant) and _private(str(name.value))):
                problems.append(f"line {node.lineno}: {ast.unparse(node)}")
    return problems


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_the_packages_touch_no_private_attribute_of_the_http_and_api_libraries(package):
    found = {str(path.relative_to(ROOT)): private_access(path.read_text(encoding="utf-8"))
             for path in sorted(package.rglob("*.py"))}
    assert found, f"no module read in {package}"
    assert {path: problems for path, problems in found.items() if problems} == {}


@pytest.mark.parametrize("source", [
    "import anthropic\nclient = anthropic.Anthropic()\nclient._client = None",
    "import anthropic as a\nx = a.Anthropic()._base_url",
    "from anthropic._base_client import SyncHttpxClientWrapper",
    "import gitlab\ndef f(objects):\n    for o in objects:\n        if isinstance(o, gitlab.Gitlab):\n"
    "            vars(o).update(url='x')",
    "import httpx2\ndef f(c: httpx2.Client):\n    return c._transport",
    "import requests\ns = requests.Session()\nsetattr(s, '_x', 1)",
    "import gitlab\ng = gitlab.Gitlab('u')\nstate = g.__dict__",
])
def test_the_reading_finds_private_access(source):
    assert private_access(source)


@pytest.mark.parametrize("source", [
    "import httpx2\ndef f(request: httpx2.Request):\n    request.url = httpx2.URL('http://x')\n    return request.headers",
    "import anthropic\nclass A:\n    def _helper(self):\n        return anthropic.Anthropic().messages",
    "from . import client as course_client\ncourse_client._shared = None",
])
def test_the_reading_passes_public_use(source):
    assert private_access(source) == []
