"""Side effects only when asked: a tool whose name (or, failing that, the first word of its
description) is an action — cancel, delete, send, merge, update, create, refund, post, approve… —
is called only when the user's words ask for that action.

"What is the status of order O2?" offers `get_order_details` and `cancel_order`; a careful
colleague looks the order up and does not cancel it. "Cancel order O1" asks for the action;
"don't cancel O1, just check it" does not.
"""

import re

from .tool_roles import ToolSpec
from .words import tokens

ACTIONS: dict[str, tuple[str, ...]] = {
    "cancel": ("cancel", "call off", "abort", "отмен"),
    "delete": ("delete", "remove", "erase", "drop", "purge", "wipe", "удал", "сотр"),
    "send": ("send", "email", "e-mail", "mail", "notify", "forward", "reply", "отправ", "пошли", "напиши"),
    "merge": ("merge", "влей", "влить", "слей", "смерж"),
    "update": ("update", "change", "modify", "edit", "set", "rename", "move", "обнов", "измени", "поменя", "переимен"),
    "create": ("create", "add", "new", "make", "open", "register", "sign up", "schedule", "book", "remind", "save",
               "set up", "созда", "добав", "заведи", "запиши", "сохрани", "напомни"),
    "refund": ("refund", "money back", "reimburse", "возврат", "верни"),
    "post": ("post", "publish", "comment", "tweet", "share", "опубликуй", "запость"),
    "approve": ("approve", "accept", "одобр"),
    "reject": ("reject", "decline", "deny", "отклон"),
    "book": ("book", "reserve", "забронируй", "брон"),
    "pay": ("pay", "charge", "transfer", "purchase", "buy", "оплат", "купи", "переведи"),
    "submit": ("submit", "отправ"),
    "close": ("close", "archive", "resolve", "закрой", "архив"),
    "write": ("write", "save", "overwrite", "запиши"),
    "deploy": ("deploy", "release", "restart", "shut down", "stop", "kill", "выкат", "перезапус"),
    "assign": ("assign", "назнач"),
    "insert": ("insert", "add", "вставь"),
    "upload": ("upload", "загрузи"),
    "revoke": ("revoke", "disable", "block", "ban", "suspend", "отзови", "заблокируй"),
}
"""Action verbs (as a tool names them) and the words a user asks for each with."""
_ALIASES = {"remove": "delete", "erase": "delete", "modify": "update", "edit": "update", "set": "update",
            "change": "update", "add": "create", "make": "create", "publish": "post", "email": "send",
            "notify": "send", "reserve": "book", "charge": "pay", "transfer": "pay", "archive": "close",
            "destroy": "delete", "drop": "delete", "execute": "pay", "place": "submit", "put": "update",
            "patch": "update", "issue": "refund", "unsubscribe": "cancel", "terminate": "cancel"}
_NEGATION = re.compile(r"\b(?:don'?t|do not|never|not|no need to|without|rather than|instead of|не|без)\s+(?:\w+\s+){0,2}$",
                       re.I)


def action(tool: ToolSpec) -> str | None:
    """The action a tool performs, or None for a tool that only reads (get, list, search…) or only
    computes (`add(a, b)`, a one-word tool over numbers, changes nothing)."""
    props = tool.properties().values()
    numeric = props and all(isinstance(p, dict) and p.get("type") in ("number", "integer") for p in props)
    if numeric and len(tokens(tool.name)) == 1:
        return None
    for word in tokens(tool.name):
        verb = _verb(word)
        if verb:
            return verb
    first = tokens(tool.description)[:1]
    return _verb(first[0]) if first else None


def asked(tool: ToolSpec, request: str) -> bool:
    """Whether the request asks for the tool's action (a tool that only reads is always allowed)."""
    verb = action(tool)
    if verb is None:
        return True
    lowered = request.lower()
    named = tokens(tool.name)
    verb_at = next((i for i, w in enumerate(named) if _verb(w)), -1)
    objects = {w for i, w in enumerate(named) if i != verb_at}
    """Words that name what the tool acts on: "booking" in create_booking is not "book"."""
    for word in ACTIONS[verb]:
        ending = r"\w*" if re.search(r"[а-яё]", word) else r"(?:s|es|ed|d|ing|led|ling|ation|ion)?\b"
        for m in re.finditer(rf"(?<![\w-]){re.escape(word)}{ending}", lowered):
            if m.group(0) not in objects and not _NEGATION.search(lowered[: m.start()]):
                return True
    return False


def allowed(tools: list[ToolSpec], request: str) -> list[ToolSpec]:
    """The tools the model may call for this request: readers, and actions the request asks for."""
    return [t for t in tools if asked(t, request)]


def _verb(word: str) -> str | None:
    """'cancels' -> 'cancel', 'deleting' -> 'delete', 'remove' -> 'delete'; None for other words."""
    for key in [*ACTIONS, *_ALIASES]:
        forms = {key, key + "s", key + "es", key + "d", key + "ed", key + key[-1] + "ed", key + "ing",
                 key[:-1] + "ing" if key.endswith("e") else key + key[-1] + "ing"}
        if word in forms:
            return _ALIASES.get(key, key)
    return None
