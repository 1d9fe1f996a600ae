"""The memory tool (`memory_20250818`), used when the system prompt or the task calls for
remembering: the model first views its memory directory, reads the files it finds there, saves
what the user asks it to remember (or states about themselves), then answers from what it read.

At most three rounds per task (view, read, write), so a memory never makes the loop run on.
"""

import re

from ..conversation import Turn
from ..request import Request
from ..simulated_model.history import Call, calls, task_turn
from ..simulated_model.reply import NewId, Reply, text_reply, tool_reply
from ..words import words

ROOT = "/memories"
NOTES = "/memories/user.md"
_CALLS_FOR = re.compile(r"remember|memor|recall|preference|don'?t forget|keep in mind|note (?:this|that)|"
                        r"запомни|памят|вспомни|не забудь", re.I)
_STATES = re.compile(r"remember|don'?t forget|keep in mind|note (?:this|that)|\bmy name is|\bcall me\b|\bi'?m\b|"
                     r"\bi am\b|\bi prefer|\bi like|\bi love|\bi hate|\bi work|\bi live|запомни|не забудь|меня зовут|"
                     r"я люблю|я предпочитаю|я живу|я работаю", re.I)
_FILE = re.compile(r"/memories/[\w./-]*\w\.\w+")
_EXCERPT = 400


def tool(request: Request) -> dict | None:
    """The request's memory tool, if it has one."""
    return next((t for t in request.tools if str(t.get("type", "")).startswith("memory_")), None)


def respond(request: Request, turns: list[Turn], new_id: NewId, lang: str) -> Reply | None:
    """The next memory step (view the directory, read its files, save a fact), or None when done
    or when nothing calls for memory."""
    memory = tool(request)
    task = task_turn(turns).text()
    if memory is None or not (_CALLS_FOR.search(task) or _CALLS_FOR.search(_system(request))):
        return None
    made = [c for c in calls(turns) if c.name == memory["name"]]
    viewed = {str(c.input.get("path", "")).rstrip("/") for c in made if c.input.get("command") == "view"}
    step: list[tuple[str, dict]] = []
    if ROOT not in viewed:
        step = [(memory["name"], {"command": "view", "path": ROOT})]
    else:
        files = _files(made)
        unread = [f for f in files if f not in viewed]
        wrote = any(c.input.get("command") in ("create", "insert", "str_replace") for c in made)
        if unread and not any(c.input.get("path") in files for c in made):
            step = [(memory["name"], {"command": "view", "path": f}) for f in unread[:3]]
        elif _STATES.search(task) and not task.rstrip().endswith("?") and not wrote:
            note = f"- {' '.join(task.split())[:300]}\n"
            write = {"command": "insert", "path": NOTES, "insert_line": 0, "insert_text": note} if NOTES in files \
                else {"command": "create", "path": NOTES, "file_text": note}
            step = [(memory["name"], write)]
    if not step:
        return None
    return tool_reply(words(lang, "Let me check my memory first.") if ROOT not in viewed
                      else words(lang, "Updating my memory."),
                      step, new_id)


def answer(request: Request, turns: list[Turn], lang: str) -> Reply | None:
    """The final text after the memory steps: what was saved, and what the memory held."""
    memory = tool(request)
    made = [c for c in calls(turns) if memory is not None and c.name == memory["name"] and c.result is not None]
    if not made:
        return None
    read = [c for c in made if c.input.get("command") == "view" and c.input.get("path") != ROOT and not c.is_error]
    saved = [c for c in made if c.input.get("command") in ("create", "insert") and not c.is_error]
    failed = [c for c in made if c.is_error and c.input.get("command") != "view"]
    lines = []
    if saved:
        lines.append(words(lang, "Noted: I saved this to {notes}, so I will remember it next time.", notes=NOTES))
    for call in read:
        lines.append(words(lang, "From my memory ({get}): {excerpt}",
                                 get=call.input.get('path'), excerpt=_excerpt(call)))
    for call in failed:
        lines.append(words(lang, "Saving to memory failed: {excerpt}", excerpt=_excerpt(call)))
    if not lines:
        lines.append(words(lang, "My memory holds nothing about this yet."))
    return text_reply("\n".join(lines))


def _files(made: list[Call]) -> list[str]:
    listing = " ".join(c.result or "" for c in made if c.input.get("path") in (ROOT, ROOT + "/") and not c.is_error)
    return list(dict.fromkeys(_FILE.findall(listing)))


def _system(request: Request) -> str:
    system = request.system
    if isinstance(system, list):
        return " ".join(str(b.get("text", "")) for b in system if isinstance(b, dict))
    return system if isinstance(system, str) else ""


def _excerpt(call: Call) -> str:
    flat = " ".join((call.result or "").split())
    return flat if len(flat) <= _EXCERPT else flat[:_EXCERPT] + "…"
