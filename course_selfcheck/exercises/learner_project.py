"""The learner's own GitLab project, as their functions reach it: a grader that calls a learner's tool points it at
the sandbox's project for the duration, so that no check ever reads (or merges in) the learner's own GitLab."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


def is_project(value: Any) -> bool:
    return hasattr(value, "mergerequests") and hasattr(value, "files")


def _namespaces(function: Callable) -> list[dict]:
    """The module namespaces the function reads a `project` from: its own, and those of the functions it can reach
    through its globals (notebook 3's tools imported from lesson_tools.py read lesson_tools' `project`)."""
    own = getattr(function, "__globals__", None)
    if not isinstance(own, dict):
        return []
    found = {id(own): own}
    for value in list(own.values()):
        for reached in (value.values() if isinstance(value, dict) else [value]):
            namespace = getattr(reached, "__globals__", None)
            if isinstance(namespace, dict) and callable(reached):
                found.setdefault(id(namespace), namespace)
    return list(found.values())


@contextmanager
def project_pointed_at(function: Callable, project: Any) -> Iterator[None]:
    """For the duration, the `project` the learner's function reaches (a global of its module, a closure
    cell) is the sandbox's project: the grader never reads the learner's own GitLab."""
    restore: list[Callable[[], None]] = []
    for namespace in _namespaces(function):
        if "project" in namespace and (namespace["project"] is None or is_project(namespace["project"])):
            old = namespace["project"]
            namespace["project"] = project
            restore.append(lambda namespace=namespace, old=old: namespace.__setitem__("project", old))
    for cell in getattr(function, "__closure__", None) or ():
        try:
            held = cell.cell_contents
        except ValueError:
            continue
        if is_project(held):
            cell.cell_contents = project
            restore.append(lambda cell=cell, held=held: setattr(cell, "cell_contents", held))
    try:
        yield
    finally:
        for undo in reversed(restore):
            undo()
