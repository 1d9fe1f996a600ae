"""Exercise 7's clock reader: whether the learner's code puts a timeout of its own on a question to the approver.

The task says the loop adds no timeout of its own: a slow yes stays a yes. Running the loop cannot show a clock longer
than the check is willing to wait (a gate that gives up after two minutes looks right after 20 seconds), so this reads
the loop's source with `ast` instead: a question to the approver waited for with a timeout is a clock. A clock
elsewhere (the client's timeout, a tool's) is not the approver's and is not reported."""

import ast
import inspect
import linecache
import re
from collections.abc import Callable

from .crash import library_folders

_CLOCK_NAMES = {"wait_for", "wait", "as_completed"}
"""Functions whose second argument is a timeout (asyncio.wait_for(aw, 25), concurrent.futures.wait(fs, 120))."""
_CLOCK_METHODS = {"result", "exception", "join", "wait"}
"""Methods whose first argument is a timeout (future.result(25), thread.join(25), event.wait(25))."""
_CLOCK_BLOCKS = {"timeout", "timeout_at", "fail_after", "move_on_after"}
"""Context managers that put a clock on their body (asyncio.timeout(25), anyio.fail_after(25))."""
_ALARMS = {"alarm", "setitimer"}
"""signal.alarm(n), signal.setitimer(...): a clock on everything after them."""


def _sources(loop: Callable) -> list[str] | None:
    """The source files of the learner's loop and of the functions and classes beside it (a notebook cell's source
    is kept by IPython as a file's); None when the loop's own source cannot be read."""
    outside = library_folders()

    def code_file(item: object) -> str | None:
        code = getattr(inspect.unwrap(item) if callable(item) else item, "__code__", None)
        name = getattr(code, "co_filename", None)
        return name if name and not name.startswith(outside) else None

    own = code_file(loop) or code_file(vars(type(loop)).get("__call__"))
    reference = re.fullmatch(r"<reference solution of exercise (\d+)>", own or "")
    if reference:  # the course's reference, brought into a cell by start_from: its text is the course's own
        from course_agent.solutions import solution_code

        return [solution_code(int(reference.group(1)))]
    if own is None or not linecache.getlines(own):
        return None
    files = [own]
    for value in list(getattr(inspect.unwrap(loop), "__globals__", {}).values()):
        members = vars(value).values() if inspect.isclass(value) else [value]
        for member in members:
            name = code_file(member) if inspect.isfunction(member) else None
            if name and name not in files and linecache.getlines(name):
                files.append(name)
    return ["".join(linecache.getlines(name)) for name in files]


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names or isinstance(n, ast.Attribute) and n.attr in names
               for n in ast.walk(node))


_DEFS = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)


def _deferred(node: ast.AST, names: set[str]) -> bool:
    """The node hands the approver on to be asked later or elsewhere (pool.submit(approve, ...), to_thread(approve,
    ...), a lambda or a local function that asks it), not only asks it here and now (approve(name, tool_input)):
    only a question in flight can be put under a clock."""
    called: set[int] = set()

    def visit(n: ast.AST, inside: bool) -> None:
        if isinstance(n, ast.Call) and not inside:
            called.add(id(n.func))
        for child in ast.iter_child_nodes(n):
            visit(child, inside or isinstance(child, _DEFS))

    visit(node, isinstance(node, _DEFS))
    return any((isinstance(n, ast.Name) and n.id in names or isinstance(n, ast.Attribute) and n.attr in names)
               and id(n) not in called for n in ast.walk(node))


def _holds(node: ast.AST, names: set[str], tainted: set[str]) -> bool:
    """The node holds a question to the approver in flight: hands the approver on, or names what holds one."""
    return _deferred(node, names) or _mentions(node, tainted - names)


def _approver_names(trees: list[ast.Module], first: str) -> set[str]:
    """The names the approver goes by in the learner's code: the loop's parameter, the parameters of the functions
    it is handed to (approved(approve, name, tool_input)), and the names and attributes it is kept under
    (self.approve = approve, ask = partial(approve, ...))."""
    names = {first}
    defs = {d.name: d for tree in trees for d in ast.walk(tree)
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
    defs |= {c.name: init for tree in trees for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
             for init in c.body if isinstance(init, ast.FunctionDef) and init.name == "__init__"}  # Gate(approve)
    while True:
        found = set(names)
        for tree in trees:
            for node in ast.walk(tree):
                value = node.value if isinstance(node, ast.Assign) else None
                if isinstance(value, ast.Call) and _called(value) == "partial" and value.args:
                    value = value.args[0]  # ask = partial(approve, ...)
                if isinstance(node, ast.Assign) and isinstance(value, (ast.Name, ast.Attribute)) \
                        and _mentions(value, names):
                    found |= {t.id if isinstance(t, ast.Name) else t.attr for t in node.targets
                              if isinstance(t, (ast.Name, ast.Attribute))}
                if not isinstance(node, ast.Call):
                    continue
                called = node.func.id if isinstance(node.func, ast.Name) else \
                    node.func.attr if isinstance(node.func, ast.Attribute) else None
                target = defs.get(called or "")
                if target is None:
                    continue
                parameters = [a.arg for a in target.args.posonlyargs + target.args.args]
                if (isinstance(node.func, ast.Attribute) or target.name == "__init__") \
                        and parameters[:1] in (["self"], ["cls"]):
                    parameters = parameters[1:]
                found |= {parameters[k] for k, arg in enumerate(node.args) if k < len(parameters)
                          and isinstance(arg, (ast.Name, ast.Attribute)) and _mentions(arg, names)}
                found |= {kw.arg for kw in node.keywords if kw.arg and _mentions(kw.value, names)}
        if found == names:
            return names
        names = found


def _is_clock(value: ast.AST | None) -> bool:
    return value is not None and not (isinstance(value, ast.Constant) and value.value in (None, 0, False))


def _clock_of(node: ast.AST, names: set[str], tainted: set[str]) -> bool:
    """The node puts a clock on something of the approver's (a question in flight, its thread, its answer)."""
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(isinstance(item.context_expr, ast.Call) and _called(item.context_expr) in _CLOCK_BLOCKS
                   and _is_clock(next(iter(item.context_expr.args), None)) for item in node.items) \
            and any(_holds(statement, names, tainted) for statement in node.body)
    if not isinstance(node, ast.Call) or not _holds(node, names, tainted):
        return False
    name = _called(node)
    if any(kw.arg == "timeout" and _is_clock(kw.value) for kw in node.keywords):
        return True
    if name in _CLOCK_NAMES and isinstance(node.func, (ast.Name, ast.Attribute)) and len(node.args) >= 2 \
            and not isinstance(node.args[1], (ast.List, ast.Tuple, ast.Set, ast.Dict)) and _is_clock(node.args[1]):
        return name != "wait" or not isinstance(node.func, ast.Attribute) or _holds(node.args[0], names, tainted)
    return isinstance(node.func, ast.Attribute) and name in _CLOCK_METHODS and _holds(node.func.value, names, tainted) \
        and len(node.args) == 1 and isinstance(node.args[0], (ast.Constant, ast.Name, ast.Attribute, ast.BinOp)) \
        and _is_clock(node.args[0]) and not (isinstance(node.args[0], ast.Constant) and
                                             not isinstance(node.args[0].value, (int, float)))


def _called(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else \
        call.func.attr if isinstance(call.func, ast.Attribute) else None


def _tainted(function: ast.AST, names: set[str]) -> set[str]:
    """The approver's names, and what in one function holds its question or answer: names assigned from an
    expression that mentions them (question = pool.submit(approve, ...)), local functions that ask it (def ask():
    ...), and what those functions signal with (answered.set(), answers.put(...))."""
    tainted = set(names)
    while True:
        found = set(tainted)
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None \
                    and _holds(node.value, names, tainted):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and _holds(node.iter, names, tainted):
                found |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not function \
                    and _holds(node, names, tainted):
                if not isinstance(node, ast.Lambda):
                    found.add(node.name)
                found |= {n.func.value.id for n in ast.walk(node) if isinstance(n, ast.Call)
                          and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}
        if found == tainted:
            return tainted
        tainted = found


def clock_on_approver(loop: Callable, parameter: str | None) -> tuple[int, str] | None | bool:
    """(line, code) of the learner's first clock put on the approver: a question to it waited for with a timeout
    (asyncio.wait_for(..., 25), wait([question], timeout=120), question.result(25), thread.join(25),
    event.wait(25), async with asyncio.timeout(25), signal.alarm). None when there is none; False when the loop's
    source could not be read (then nothing was looked for). A clock elsewhere (the client's timeout, a tool's) is
    not the approver's."""
    sources = _sources(loop)
    if sources is None or parameter is None:
        return False
    trees = []
    for source in sources:
        try:
            trees.append((ast.parse(source), source.splitlines()))
        except SyntaxError:
            continue
    names = _approver_names([tree for tree, _ in trees], parameter)
    for tree, lines in trees:
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _mentions(function, names):
                continue
            tainted = _tainted(function, names)
            alarm = any(isinstance(n, ast.Call) and _called(n) in _ALARMS and n.args and _is_clock(n.args[-1])
                        for n in ast.walk(function))
            for node in ast.walk(function):
                if _clock_of(node, names, tainted) or alarm and isinstance(node, ast.Call) and _called(node) in _ALARMS:
                    line = lines[node.lineno - 1].strip() if node.lineno <= len(lines) else ""
                    return node.lineno, line
    return None
