"""Your own code, carried from notebook to notebook: exercise 7 grows your exercise 6, not a blank stub.

When a loop exercise passes its check, the check keeps the cell that defined your function in
my_code/exercise_N.py, next to the notebook, with what the function takes from other cells: your helper
functions and your imports (data such as TOOLS or client each notebook defines again). A later
notebook's exercise cell calls `start_from(N)`: it runs what was kept here, or exercise N's reference
solution when nothing was (and says so), and puts that code into the cell, in place of the stub, for you
to grow (in JupyterLab; elsewhere it says where the code is). It runs under the stub's name at once: exercise 3's
review_pull_request, brought into exercise 4's cell, is review_concurrently there from the first run, so the check
right after judges the loop you carried, not the stub. It takes the stub's def line too, whenever its code runs
under it: exercise 6's loop, brought into exercise 7's cell, takes the stub's `approve`.

COURSE_AGENT_MY_CODE names another folder (the notebook tests use an empty one, so that their outputs do
not depend on what a learner solved).
"""

import ast
import contextlib
import dis
import enum
import functools
import inspect
import io
import linecache
import re
import sys
import textwrap
import tokenize
import types
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from .i18n import tr
from .settings import Settings

FOLDER_VARIABLE = "COURSE_AGENT_MY_CODE"
DEFAULT_FOLDER = "my_code"


def folder() -> Path:
    """Where kept exercises live: COURSE_AGENT_MY_CODE, else my_code/ in the notebook's folder."""
    return Path(Settings.from_env().my_code or DEFAULT_FOLDER)


def kept_path(exercise: int) -> Path:
    return folder() / f"exercise_{exercise}.py"


def _function(value: object) -> types.FunctionType | None:
    """The plain function behind a function, a bound method or a decorated function; None for anything else."""
    value = inspect.unwrap(getattr(value, "__func__", value))
    return value if isinstance(value, types.FunctionType) else None


def _cell_text(function: types.FunctionType) -> str | None:
    """The text of the notebook cell that defined `function`: None when a module or a file defined it."""
    if function.__module__ != "__main__":
        return None
    lines = linecache.getlines(function.__code__.co_filename)
    return "".join(lines) or None


DEFINES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _defines(node: ast.stmt) -> bool:
    """A statement that only defines: a function, a class, an import, or a name given a value that calls nothing (a
    constant). What runs something (a test review, a print, a try around a call, a loop) stays in its notebook."""
    if isinstance(node, DEFINES):
        return True
    value = getattr(node, "value", None) if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    return value is not None and not any(isinstance(n, (ast.Call, ast.Await)) for n in ast.walk(value))


def _definitions(text: str) -> tuple[str, set[str]]:
    """The cell's definitions alone (see _defines), and the names they define; the whole text when it is not Python
    that parses. A later notebook runs what is kept: a test run of the loop kept with it would run (and be billed)
    again there, or fail for a name of its own notebook."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text, set()
    lines = text.splitlines(keepends=True)
    dropped: set[int] = set()
    names: set[str] = set()
    kept_nodes = _needed([node for node in tree.body if _defines(node)], tree.body)
    for node in tree.body:
        if node not in kept_nodes:
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            dropped.update(range(first - 1, node.end_lineno or node.lineno))
            continue
        for child in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [node]:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(child.name)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                names.add(child.id)
            elif isinstance(child, ast.alias):
                names.add((child.asname or child.name).split(".")[0])
    kept = "".join(line for number, line in enumerate(lines) if number not in dropped)
    return kept.strip("\n") + "\n", names


def _stored(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _read(node: ast.AST) -> set[str]:
    """The names a statement reads from the module: in a function or a class, the names it loads less its own
    locals (its arguments, what it assigns) and the names of its nested definitions."""
    loaded = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return loaded
    own = _stored(node) | {a.arg for n in ast.walk(node) if isinstance(n, ast.arguments)
                           for a in [*n.posonlyargs, *n.args, *n.kwonlyargs, *filter(None, [n.vararg, n.kwarg])]}
    own |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n is not node}
    return loaded - own


def _needed(kept: list[ast.stmt], body: list[ast.stmt]) -> list[ast.stmt]:
    """The kept definitions, and each assignment that calls which they need: one whose name the kept code reads and
    nothing kept defines (`denied = functools.partial(denial, who="A human")`, `pool = ThreadPoolExecutor(4)`),
    and in turn what those read. Dropped, the kept loop would raise NameError in the next notebook (attack 18's F2);
    a test run (`print(review(482))`, `result = review(482)` that nothing reads) stays behind."""
    kept = list(kept)
    while True:
        defined = set().union(*(_stored(n) | ({n.name} if isinstance(n, DEFINES[:3]) else set())
                                | {(a.asname or a.name).split(".")[0] for a in getattr(n, "names", [])
                                   if isinstance(n, (ast.Import, ast.ImportFrom))} for n in kept))
        wanted = set().union(*(_read(n) for n in kept)) - defined
        more = [n for n in body if n not in kept and isinstance(n, (ast.Assign, ast.AnnAssign))
                and _stored(n) & wanted]
        if not more:
            return [n for n in body if n in kept]
        kept += more


GLOBAL_READS = {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FROM_DICT_OR_GLOBALS"}
"""The instructions that read a global name (an attribute's name, `client.messages`, is read by LOAD_ATTR: a notebook
variable called `messages` is not what the loop uses)."""


def _without_leading_comments(text: str) -> str:
    """The cell without the comment lines it starts with: the header start_from wrote over the code it brought (the
    kept file has a header of its own)."""
    lines = text.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), len(lines))
    return "".join(lines[first:])


def _global_names(code: types.CodeType) -> set[str]:
    """Every global name a function's code reads, nested code (comprehensions, lambdas, inner functions) included."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in GLOBAL_READS}
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _global_names(constant)
    return names


def _names_at_def(function: types.FunctionType) -> set[str]:
    """The names its `def` line reads when it runs, outside the function's own code: defaults
    (`answer=tool_result`), decorators and annotations; for a loop start_from gave the stub's def line, that line's
    (its file still has the loop's own)."""
    header = getattr(function, DEF_LINE_FROM, None)
    try:
        source = header.strip() + " pass\n" if isinstance(header, str) else inspect.getsource(function)
        tree = ast.parse(textwrap.dedent(source))
    except (OSError, TypeError, SyntaxError):
        return set()
    node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if node is None:
        return set()
    arguments = node.args
    parts = [*node.decorator_list, *arguments.defaults, *(d for d in arguments.kw_defaults if d is not None),
             *(a.annotation for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                      arguments.vararg, arguments.kwarg) if a is not None and a.annotation),
             *([node.returns] if node.returns else [])]
    return {n.id for part in parts for n in ast.walk(part) if isinstance(n, ast.Name)}


NOTEBOOK_MODULES = ("lesson_tools",)
"""Modules beside the notebooks whose names every notebook imports itself (`from lesson_tools import ... run_tool`):
what a kept loop takes from them is the notebook's, like TOOLS, and a kept file that imported run_tool again would
put the course's back over a run_tool of the learner's own (instructor read 61, F14)."""


def _carried(function: types.FunctionType, defined: set[str]) -> tuple[list[str], list[str], list[str]]:
    """(imports, helper sources, names left to the notebook) that `function` takes from outside its cell."""
    imports: list[str] = []
    helpers: list[str] = []
    left: list[str] = []
    seen = set(defined)
    same_cell = (_function(function.__globals__.get(name)) for name in sorted(defined))
    todo = [function, *(f for f in same_cell if f is not None and f is not function  # what they use is carried too
                        and f.__code__.co_filename == function.__code__.co_filename)]
    while todo:
        current = todo.pop(0)
        for name in sorted((_global_names(current.__code__) | _names_at_def(current)) - seen):
            if name not in current.__globals__:
                continue  # a builtin, or an attribute name
            seen.add(name)
            value = current.__globals__[name]
            helper = _function(value)
            if isinstance(value, types.ModuleType):
                imports.append(f"import {value.__name__}" if value.__name__ == name
                               else f"import {value.__name__} as {name}")
            elif helper is not None and helper.__module__ == "__main__":
                try:
                    helpers.append(inspect.getsource(helper))
                except (OSError, TypeError):
                    left.append(name)
                    continue
                todo.append(helper)
            elif str(getattr(value, "__module__", "")) in NOTEBOOK_MODULES:
                left.append(name)  # notebook data each notebook imports again, like TOOLS: not carried over its own
            elif (isinstance(value, type) or helper is not None) and _importable(value):
                qualname = value.__qualname__
                imports.append(f"from {_public_module(value)} import {qualname}"
                               + ("" if qualname == name else f" as {name}"))
            else:
                left.append(name)
    return imports, helpers[::-1], left  # a helper found from another's def line (a default) is defined before it


def _public_module(value: object) -> str:
    """The shortest module path that gives `value` (concurrent.futures, not concurrent.futures.thread), among the
    modules already imported."""
    parts = str(getattr(value, "__module__", "")).split(".")
    for end in range(1, len(parts) + 1):
        module = sys.modules.get(".".join(parts[:end]))
        if module is not None and getattr(module, getattr(value, "__qualname__", ""), None) is value:
            return ".".join(parts[:end])
    return ".".join(parts)


def _importable(value: object) -> bool:
    module = sys.modules.get(getattr(value, "__module__", None) or "")
    return module is not None and getattr(module, getattr(value, "__qualname__", ""), None) is value


def kept_text(exercise: int, function: Callable) -> str | None:
    """What keep() writes for `function`: None when no notebook cell defined it."""
    plain = _function(function)
    cell = _cell_text(plain) if plain is not None else None
    if cell is None:
        return None
    body, defined = _definitions(_without_leading_comments(cell))
    old = getattr(plain, RENAMED_FROM, None)
    if isinstance(old, str) and old in defined and (plain.__name__ not in defined or old == plain.__name__):
        body = grown(body, old, plain.__name__, getattr(plain, DEF_LINE_FROM, None))  # checked as start_from brought it
        defined = defined - {old} | {plain.__name__}
    imports, helpers, left = _carried(plain, defined)
    header = [tr("# Your exercise {n}, kept when it passed its check; start_from({n}) runs it in a later notebook.",
                 n=exercise)]
    if left:
        header.append(tr("# It uses, from the notebook: {names}.", names=", ".join(left)))
    parts = ["\n".join(header), *(["\n".join(imports)] if imports else [])]
    if helpers:
        parts.append(tr("# From other cells of your notebook:") + "\n" + "\n\n\n".join(h.rstrip("\n") for h in helpers))
    parts.append(body)
    return "\n\n\n".join(part.rstrip("\n") for part in parts) + "\n"


NOT_READ = "\0not read"
"""as_kept's and keep()'s `text` when the caller has not read kept_text yet (None is a reading: no cell to keep)."""


def as_kept(exercise: int, function: Callable, text: str | None = NOT_READ) -> tuple[Callable, list[str]]:
    """`function` as the file keep() writes defines it, and the names its code reads that a later cell gave another
    value (notebook 5's reveal redefines tool_result after the exercise cell): (the function the kept file defines,
    those names), or (`function`, []) when nothing differs or there is no cell to keep. A check judges the code it
    keeps, so that "Done" and what the next notebook gets cannot differ. `text` is kept_text(exercise, function)
    when the caller has it already (it keeps the same function afterwards: keep(..., text=text))."""
    plain = _function(function)
    if text is NOT_READ:
        text = kept_text(exercise, function) if plain is not None else None
    if plain is None or text is None:
        return function, []
    filename = f"<exercise {exercise} as kept>"
    live = plain.__globals__
    namespace = dict(live)
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)  # as IPython's cells
    try:
        _run(text, filename, namespace)
    except Exception:  # it cannot run alone: start_from will say so; the check judges the live one
        return function, []
    rebuilt = _function(namespace.get(plain.__name__))
    if rebuilt is None or rebuilt.__code__.co_filename != filename:
        return function, []
    assigned = {name for name, value in namespace.items() if name not in live or live[name] is not value}
    try:
        compared = {name: _compare(namespace[name], live[name])
                    for name in _reads(rebuilt, namespace, filename) & assigned if name in live}
    except Exception:  # a style the comparison cannot read (attack 20's F1): never the check's end; judge the live one
        return function, []
    drifted = sorted(name for name, differs in compared.items() if differs)
    if drifted:
        return rebuilt, drifted
    # a value neither side can show (an object without attributes to compare): the kept one is judged, as it is what
    # the next notebook runs; nothing is said, since nothing was shown to differ
    return (rebuilt, []) if None in compared.values() else (function, [])


def _reads(function: types.FunctionType, namespace: dict, filename: str) -> set[str]:
    """The global names `function` reads, and those its helpers defined in the same text read, transitively."""
    names: set[str] = set()
    todo = [function]
    while todo:
        current = todo.pop()
        for name in (_global_names(current.__code__) | _names_at_def(current)) - names:
            names.add(name)
            todo += [h for h in _code_of(namespace.get(name)) if h.__code__.co_filename == filename]
    return names


def _code_of(value: object, depth: int = 0) -> list[types.FunctionType]:
    """The functions whose code runs when `value` is used: a function; a class's methods; a functools.partial's
    function and the functions among its arguments; an instance's class's methods and the functions among its
    attributes (attack 19's H4: the loop's helper was a partial, or delegated to an instance)."""
    if depth > 3:
        return []
    if isinstance(value, type):  # a copy: reading a pydantic model class's attributes can add to them
        return [f for m in list(vars(value).values())
                if (f := _function(getattr(m, "__func__", getattr(m, "fget", m))))]
    if isinstance(value, functools.partial):
        return [f for v in (value.func, *value.args, *value.keywords.values()) for f in _code_of(v, depth + 1)]
    plain = _function(value)
    if plain is not None:
        return [plain]
    if isinstance(value, types.ModuleType) or not hasattr(value, "__dict__"):
        return []
    attributes = [f for v in list(vars(value).values()) for f in _code_of(v, depth + 1) if not isinstance(v, type)]
    return [*_code_of(type(value), depth + 1), *attributes]


def _differs(kept: object, live: object, depth: int = 0) -> bool:
    """A name's value as the kept text defines it is shown not to be the notebook's (see _compare); a value that
    cannot be shown counts as the same here (a class's attribute), and as_kept judges the kept one for it."""
    return _compare(kept, live, depth) is True


CONSTANTS = (str, bytes, int, float, complex, bool, type(None), range)


def _compare(kept: object, live: object, depth: int = 0) -> bool | None:
    """Whether a name's value as the kept text defines it is not the notebook's: another function's source, another
    class (its methods and constants compared as these are), another constant; a functools.partial by its function,
    arguments and keywords; an instance by its class and its attributes; a list, tuple or dict item by item. None
    when it cannot be shown either way (an object without attributes to compare, or nested too deep)."""
    if kept is live:
        return False
    if depth > 4:
        return None
    if isinstance(kept, type) or isinstance(live, type):
        return _class_differs(kept, live, depth)
    if isinstance(kept, functools.partial) or isinstance(live, functools.partial):
        if not (isinstance(kept, functools.partial) and isinstance(live, functools.partial)):
            return True
        if len(kept.args) != len(live.args) or kept.keywords.keys() != live.keywords.keys():
            return True
        pairs = [(kept.func, live.func), *zip(kept.args, live.args, strict=True),
                 *((kept.keywords[k], live.keywords[k]) for k in kept.keywords)]
        return _any_differs(pairs, depth)
    kept_function, live_function = _function(kept), _function(live)
    if kept_function is not None or live_function is not None:
        if kept_function is None or live_function is None:
            return True
        try:
            return inspect.getsource(kept_function) != inspect.getsource(live_function)
        except (OSError, TypeError):
            return kept_function.__code__.co_code != live_function.__code__.co_code
    if isinstance(kept, (list, tuple)) or isinstance(live, (list, tuple)):
        if not (isinstance(kept, (list, tuple)) and isinstance(live, (list, tuple))) or type(kept) is not type(live) \
                or len(kept) != len(live):
            return True
        return _any_differs(list(zip(kept, live, strict=True)), depth)
    if isinstance(kept, dict) or isinstance(live, dict):
        if not (isinstance(kept, dict) and isinstance(live, dict)) or type(kept) is not type(live) \
                or list(kept) != list(live):
            return True
        return _any_differs([(kept[k], live[k]) for k in kept], depth)
    if isinstance(kept, (*CONSTANTS, set, frozenset)) or isinstance(live, (*CONSTANTS, set, frozenset)):
        try:
            return bool(kept != live)
        except Exception:
            return None
    if isinstance(kept, types.ModuleType) or isinstance(live, types.ModuleType):
        return kept is not live
    if not (hasattr(kept, "__dict__") and hasattr(live, "__dict__")):
        return None  # neither side can be shown: as_kept judges the kept one, the one the next notebook runs
    if _class_differs(type(kept), type(live), depth + 1):
        return True
    ours, theirs = vars(kept), vars(live)
    if ours.keys() != theirs.keys():
        return True
    return _any_differs([(ours[k], theirs[k]) for k in ours], depth)


def _any_differs(pairs: list[tuple[object, object]], depth: int) -> bool | None:
    """True when any pair differs, else None when any cannot be shown, else False."""
    results = [_compare(a, b, depth + 1) for a, b in pairs]
    return True if True in results else None if None in results else False


def _class_differs(kept: object, live: object, depth: int = 0) -> bool:
    """Two classes differ by name, by bases, or by any attribute of their own: a method's source (a staticmethod's, a
    classmethod's, a property's getter), a constant (attack 18's H5: a class redefined after the exercise cell was
    judged, the kept file held the other one). An Enum by its members' names and values (each member is an instance
    of the class itself: attack 20's F1), and its own methods."""
    if not isinstance(kept, type) or not isinstance(live, type):
        return True
    if kept.__qualname__ != live.__qualname__ or [b.__qualname__ for b in kept.__bases__] != \
            [b.__qualname__ for b in live.__bases__]:
        return True
    if depth > 4:
        return False  # too deep to show either way: the same here, as for _differs
    skip = ("__dict__", "__weakref__", "__module__", "__firstlineno__", "__static_attributes__")
    if issubclass(kept, enum.Enum) and issubclass(live, enum.Enum):
        if [(m.name, m.value) for m in kept] != [(m.name, m.value) for m in live]:
            return True
        ours, theirs = ({k: v for k, v in vars(c).items() if k not in skip and callable(v) and not k.startswith("_")
                         or isinstance(v, (staticmethod, classmethod, property))} for c in (kept, live))
    else:
        ours, theirs = ({k: v for k, v in vars(c).items() if k not in skip} for c in (kept, live))
    if ours.keys() != theirs.keys():
        return True
    for name, value in ours.items():
        other = theirs[name]
        if isinstance(value, (staticmethod, classmethod)):
            value, other = value.__func__, getattr(other, "__func__", other)
        if isinstance(value, property):
            value, other = value.fget, getattr(other, "fget", other)
        if _differs(value, other, depth + 1):
            return True
    return False


def keep(exercise: int, function: Callable, text: str | None = NOT_READ) -> Path | None:
    """Keep the cell that defined `function` (it has just passed exercise N's check) for later notebooks; the
    file kept, or None when a module defined the function or the folder cannot be written (nothing else fails).
    `text` is kept_text(exercise, function) when the caller has read it already (as_kept's caller)."""
    if text is NOT_READ:
        text = kept_text(exercise, function)
    if text is None:
        return None
    path = kept_path(exercise)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError:
        return None
    return path


def _run(text: str, filename: str, namespace: dict) -> None:
    exec(compile(text, filename, "exec"), namespace)


def _header(exercise: int, yours: bool, grow_into: Callable | None, failed: bool = False) -> str:
    path = kept_path(exercise).as_posix()
    said = (tr("# Your exercise {n}, from {path}.", n=exercise, path=path) if yours
            else tr("# The reference solution of exercise {n}: yours, in {path}, did not run here.", n=exercise,
                    path=path) if failed
            else tr("# The reference solution of exercise {n}: you have no exercise {n} that passed its check.",
                    n=exercise))
    if grow_into is None:
        return said + "\n"
    doc = (inspect.getdoc(grow_into) or "").splitlines()[:1]
    target = f"{grow_into.__name__}{_signature(grow_into)}"
    return "\n".join([said, tr("# Grow it into this function, then run this cell:"), f"#     {target}",
                      *(f"#     {line}" for line in doc)]) + "\n"


class _Named:
    """A default shown by its name (approve=ask_human), not as <function ask_human at 0x...>."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def _signature(function: Callable) -> inspect.Signature:
    signature = inspect.signature(function)
    return signature.replace(parameters=[
        parameter.replace(default=_Named(parameter.default.__name__))
        if parameter.default is not inspect.Parameter.empty and callable(parameter.default)
        and hasattr(parameter.default, "__name__") else parameter
        for parameter in signature.parameters.values()])


def start_from(exercise: int, grow_into: Callable | None = None, namespace: dict | None = None) -> None:
    """Run your kept exercise N here (or its reference solution, when you have none) and say which; with
    `grow_into` (the exercise's stub) its loop runs under the stub's name, with the stub's def line (see def_line), at
    once (so the check right after judges the carried loop, not the stub), and its code goes into this cell to grow.
    Without it the code is only defined, for a demo to run: one notebook holds one copy of your loop, the one its
    exercise grows."""
    from .solutions import solution_code

    if namespace is None:
        namespace = sys._getframe(1).f_globals  # the notebook's (or the script's) own globals
    where = grow_into.__name__ if grow_into is not None else None
    if grow_into is not None and not is_stub(grow_into):
        print(tr("Your {name} in this cell is used; start_from did nothing.", name=where))
        return
    before = {name: value for name, value in namespace.items() if _own_function(value)}
    path = kept_path(exercise)
    yours, failed = path.is_file(), False
    if yours:
        text = path.read_text(encoding="utf-8")
        try:
            text, old, line = _run_as(exercise, text, str(path), namespace, grow_into)
        except Exception as error:
            print(tr("Your exercise {n} in {path} did not run here ({error}): starting from the reference "
                     "solution instead.", n=exercise, path=path.as_posix(), error=f"{type(error).__name__}: {error}"))
            yours, failed = False, True
    if not yours:
        text, old, line = _run_as(exercise, solution_code(exercise), f"<reference solution of exercise {exercise}>",
                                  namespace, grow_into)
    _say_replaced(before, namespace, text)
    if grow_into is None:
        names = ", ".join(_top_level_functions(text))
        print(tr("Your exercise {n} (kept in {path} when it passed its check) is defined here: {names}.",
                 n=exercise, path=path.as_posix(), names=names) if yours else
              tr("The reference solution of exercise {n} is defined here instead: {names}.", n=exercise, names=names)
              if failed else
              tr("You have no exercise {n} that passed its check, so its reference solution is defined here: "
                 "{names}.", n=exercise, names=names))
        return
    if yours:
        print(tr("Your exercise {n} (kept in {path} when it passed its check) is defined here, and running this cell "
                 "puts its code into the cell, in place of the stub: grow it into {what}.", n=exercise,
                 path=path.as_posix(), what=where))
    elif failed:
        print(tr("The reference solution of exercise {n} is defined here instead, and running this cell puts its code "
                 "into the cell, in place of the stub: grow it into {what}.", n=exercise, what=where))
    else:
        print(tr("You have no exercise {n} that passed its check, so you start from its reference solution: it is "
                 "defined here, and running this cell puts its code into the cell, in place of the stub: grow it into "
                 "{what}.", n=exercise, what=where))
    if old is not None:
        print(tr("In that code {old} is renamed {new}, the name the check takes.", old=old, new=where))
    if line is not None and line.added and line.header is not None:
        print(tr("Its def line is the stub's, so {new} takes {names} as well.", new=where,
                 names=", ".join(line.added)))
    elif line is not None and line.added:
        print(tr("Its def line is still that of exercise {n}, since its code uses {used}, which the stub's def line "
                 "does not take: change the def line to the stub's, so that {new} takes {names} as well.",
                 n=exercise, used=", ".join(line.in_the_way), new=where, names=", ".join(line.added)))
    _into_this_cell(_header(exercise, yours, grow_into, failed) + "\n" + text, exercise, yours)


def is_stub(function: object, unreadable: bool = True) -> bool:
    """The exercise's stub as the notebook wrote it: a function whose body, after its docstring, is only `raise
    NotImplementedError(...)`. A function whose source cannot be read, or that is no function, is `unreadable`: a
    stub for start_from (it then works as it always did), not one for a check (which then judges what it got)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return unreadable
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return unreadable
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    raised = body[0].exc if len(body) == 1 and isinstance(body[0], ast.Raise) else None
    called = raised.func if isinstance(raised, ast.Call) else raised
    return isinstance(called, ast.Name) and called.id == "NotImplementedError"


def _own_function(value: object) -> bool:
    """A function a notebook cell defined (not one imported from a module)."""
    function = _function(value)
    return function is not None and function.__module__ == "__main__"


def _imported_names(text: str) -> set[str]:
    """The names the top-level imports of `text` bind."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    return {(alias.asname or alias.name).split(".")[0] for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}


def _say_replaced(before: dict, namespace: dict, text: str) -> None:
    """Say which functions of the notebook's own the imports of the code start_from ran put something else over (a
    file kept before lesson_tools' names were left to the notebook imports run_tool again): never lost silently.
    What the code defines itself (its helpers) is meant to replace a demo's functions of the same name."""
    replaced = sorted(name for name in _imported_names(text)
                      if name in before and namespace.get(name) is not before[name])
    if replaced:
        print(tr("That code imports {names}, over the one a cell of this notebook defined: the notebook now uses the "
                 "imported one. To use yours, run your own cell again after this one.", names=", ".join(replaced)))


class DefLine(NamedTuple):
    """What start_from does with the def line of the loop it brings: `header`, the stub's def line it puts in its
    place (None: the loop keeps its own); `added`, the stub's parameters the loop's own def line did not take;
    `in_the_way`, the loop's parameters its code uses that the stub's def line does not take (why it kept its own)."""

    header: str | None
    added: list[str]
    in_the_way: list[str]


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    arguments = node.args
    return [a.arg for a in (*arguments.posonlyargs, *arguments.args, arguments.vararg, *arguments.kwonlyargs,
                            arguments.kwarg) if a is not None]


def _function_node(text: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    return next((node for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name), None)


def _header_span(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int, int, int]:
    """Where `node`'s def line is in `lines` (as ast counts them): (first line, its column, last line, the column
    just after the colon that ends it), from `def` (or `async`) on; decorators are not part of it."""
    first = node.lineno - 1
    text = lines[first][node.col_offset:] + "".join(lines[first + 1:])
    depth = 0
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif token.type == tokenize.OP and token.string == ":" and depth == 0:
            last = first + token.end[0] - 1
            return first, node.col_offset, last, token.end[1] + (node.col_offset if last == first else 0)
    raise ValueError(f"no end to the def line of {node.name}")


def _stub_header(stub: Callable) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The stub's def line as its cell spells it (annotations, defaults, comments), and its node; None when its
    source cannot be read."""
    try:
        text = textwrap.dedent(inspect.getsource(stub))
    except (OSError, TypeError):
        return None
    node = _function_node(text, stub.__name__)
    if node is None:
        return None
    lines = re.split(r"(?<=\n)", text)
    first, column, last, end = _header_span(lines, node)
    header = lines[first][column:] if first != last else lines[first][column:end]
    if first != last:
        header += "".join(lines[first + 1:last]) + lines[last][:end]
    return header, node


def def_line(text: str, old: str, stub: Callable | None) -> DefLine:
    """What start_from does with the def line of `text`'s function `old`, brought into the cell of the stub `stub`:
    it puts the stub's def line in its place (the exercise's text names it: exercise 7's stub takes `approve`, which
    exercise 6's loop does not), unless the loop's code uses a parameter the stub's def line does not take (exercise
    3's `messages`), or one is `async` and the other not: then the loop keeps its own, which still runs."""
    node = _function_node(text, old)
    found = _stub_header(stub) if stub is not None else None
    if node is None or found is None:
        return DefLine(None, [], [])
    header, stub_node = found
    ours, theirs = _parameters(node), _parameters(stub_node)
    added = [name for name in theirs if name not in ours]
    used = {n.id for statement in node.body for n in ast.walk(statement) if isinstance(n, ast.Name)}
    in_the_way = [name for name in ours if name not in theirs and name in used]
    if in_the_way or isinstance(node, ast.AsyncFunctionDef) != isinstance(stub_node, ast.AsyncFunctionDef):
        return DefLine(None, added, in_the_way)
    return DefLine(header, added, [])


def grown(text: str, old: str, new: str, header: str | None = None) -> str:
    """`text` with its top-level function `old` renamed `new` (see renamed) and, given a `header` (the stub's def
    line, `def new(...) -> ...:`), that def line in place of its own. The lines stay where they were (a traceback
    still points at the right line of the file it came from): a shorter def line is preceded by blank lines, a longer
    one is written on one line."""
    if old != new:
        text = renamed(text, old, new)
    if header is None:
        return text
    node = _function_node(text, new)
    lines = re.split(r"(?<=\n)", text)
    first, column, last, end = _header_span(lines, node)
    span = last - first + 1
    if header.count("\n") + 1 > span:
        stub = ast.parse(header + " pass\n").body[0]
        stub.decorator_list = []
        header = ast.unparse(stub).split("\n")[0]  # `def new(...) -> ...:` on one line
    header = "\n" * (span - header.count("\n") - 1) + header
    return "".join(lines[:first]) + lines[first][:column] + header + lines[last][end:] + "".join(lines[last + 1:])

def graded_name(exercise: int, text: str) -> str | None:
    """The function of exercise N that `text` (a kept exercise or its reference) defines: the reference's loop when
    `text` defines it at its top level, else its last top-level function; None when it defines none."""
    from .solutions import solution_code

    names = _top_level_functions(text)
    if not names:
        return None
    reference = _top_level_functions(solution_code(exercise, "en"))
    return reference[-1] if reference and reference[-1] in names else names[-1]


def _run_as(exercise: int, text: str, filename: str, namespace: dict, stub: Callable | None
            ) -> tuple[str, str | None, DefLine | None]:
    """Run exercise N's code in `namespace`, its loop renamed as the stub `stub` when one is given (the loop's old
    name is then not defined: one copy of the loop, under the name the exercise grows), with the stub's def line when
    the loop's code runs under it (see def_line); (the code run, the old name or None, what became of the def line
    or None)."""
    name = stub.__name__ if stub is not None else None
    old = graded_name(exercise, text) if name is not None else None
    line = def_line(text, old, stub) if old is not None else None
    if old is None or (old == name and line.header is None):
        _run(text, filename, namespace)
        return text, None, line
    text = grown(text, old, name, line.header)
    _run(text, filename, namespace)  # line for line as the file: a traceback still points at the right line
    with contextlib.suppress(AttributeError):
        setattr(namespace[name], RENAMED_FROM, old)  # the file it came from still says `def old(`: kept_text renames
        setattr(namespace[name], DEF_LINE_FROM, line.header)
    return text, (old if old != name else None), line


RENAMED_FROM = "__renamed_from__"
"""The attribute start_from sets on the loop it ran under the stub's name: its old name, as the file it was read from
(the kept exercise) still spells it."""

DEF_LINE_FROM = "__def_line_from__"
"""The attribute start_from sets beside RENAMED_FROM: the stub's def line it put in place of the loop's own (None when
it kept the loop's own), so that kept_text keeps the function as it was judged."""


def renamed(text: str, old: str, new: str) -> str:
    """`text` with its top-level function `old` renamed `new`: the name after `def`, and the function's own uses of
    its name (a recursive call); every other byte as it was."""
    tree = ast.parse(text)
    function = next(node for node in tree.body
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == old)
    lines = re.split(r"(?<=\n)", text)  # as ast counts lines (str.splitlines would split at \x0c, \u2028 too)
    spots: list[tuple[int, int]] = []  # (line index, byte offset in that line) of each `old` to replace
    header = lines[function.lineno - 1].encode()
    at = header.index(b"def", function.col_offset)
    spots.append((function.lineno - 1, header.index(old.encode(), at + 3)))
    spots += [(node.lineno - 1, node.col_offset) for statement in function.body for node in ast.walk(statement)
              if isinstance(node, ast.Name) and node.id == old]
    for number, offset in sorted(spots, reverse=True):
        line = lines[number].encode()
        lines[number] = (line[:offset] + new.encode() + line[offset + len(old.encode()):]).decode()
    return "".join(lines)


def _top_level_functions(text: str) -> list[str]:
    """The functions a kept exercise defines at its top level, in order: what a demo can call."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _into_this_cell(text: str, exercise: int, yours: bool) -> None:
    """Put `text` in place of the running cell (IPython's set_next_input, as %load does); outside a notebook say
    where the code is instead."""
    try:
        from IPython import get_ipython
    except ImportError:
        shell = None
    else:
        shell = get_ipython()
    if shell is not None and hasattr(shell, "set_next_input"):
        shell.set_next_input(text, replace=True)
        print(tr("(If your code did not appear in this cell, as in VS Code or Colab: open {path} and paste it "
                 "here.)", path=kept_path(exercise).as_posix()) if yours else
              tr("(If the code did not appear in this cell, as in VS Code or Colab: print(solution_code({n})), after "
                 "`from course_agent.solutions import solution_code`, shows it; paste it here.)", n=exercise))
