"""The sandbox's simulated model: deterministic, offline, and driven by the request itself.

It picks what to do from the conversation it is sent: refuse a refused category, run a
web search that pauses, review a merge request with whatever tools it was given, use the
learner's own tools (tool_user), or answer a plain question. See docs/sandbox.md for how to
trigger each.
"""

from ..breadth import memory, tool_search, web_search
from ..conversation import Turn
from ..request import Request
from ..words import words
from . import chat, policy, reviewer, side_effects, slots, structured, tool_roles, tool_user
from .generation_bounds import Unprovable
from .history import language, task_turn
from .reply import NewId, Reply, call_first, text_reply
from .thoughts import thoughts

__all__ = ["Reply", "respond", "thoughts"]


def respond(request: Request, turns: list[Turn], new_id: NewId) -> Reply:
    """The model's next response to a validated request, within what its tool_choice allows.

    A schema it cannot fill within its bounds (generation_bounds) gets a plain answer saying
    why, as a careful colleague would, instead of a value it cannot vouch for.

    Relative dates ("the day after tomorrow") are read against the day the system prompt or the user's messages
    state ("Today is Monday, 2 March 2026."), else against the sandbox's fixed day (slots.TODAY)."""
    said = [_system_text(request.system), *(t.text() for t in turns if t.role == "user")]
    token = slots.set_today(slots.stated_today(said))
    try:
        return _within_choice(request, turns, new_id)
    except Unprovable as problem:
        lang = language(task_turn(turns).text())
        return text_reply(words(lang, "I can't produce a value I can show fits the schema: {problem}. Could you "
                                      "simplify the schema?", problem=problem.ru if lang == "ru" else problem.en))
    finally:
        slots.reset_today(token)


def _system_text(system: object) -> str:
    if isinstance(system, str):
        return system
    if isinstance(system, list):
        return " ".join(str(b.get("text") or "") for b in system if isinstance(b, dict))
    return ""


def _within_choice(request: Request, turns: list[Turn], new_id: NewId) -> Reply:
    choice = request.tool_choice
    if choice.get("type") == "none":
        request = request.replaced(tools=[])
    reply = _respond(request, turns, new_id)
    if choice.get("type") in ("any", "tool"):
        reply = call_first(_force_tool(request, turns, reply, choice.get("name"), new_id))  # no text before it
    if choice.get("disable_parallel_tool_use"):
        uses = [b for b in reply.blocks if b["type"] == "tool_use"]
        reply.blocks = [b for b in reply.blocks if b["type"] != "tool_use" or b is uses[0]]
    return structured.apply(request, turns, reply, language(task_turn(turns).text()))


def _force_tool(request: Request, turns: list[Turn], reply: Reply, name: str | None, new_id: NewId) -> Reply:
    """tool_choice any/tool: the answer must call a tool (the named one, if named). A refusal
    stays a refusal: forcing a tool does not make a refused request acceptable."""
    used = [b for b in reply.blocks if b["type"] == "tool_use"]
    if reply.stop_reason == "refusal" or (used and (name is None or all(b["name"] == name for b in used))):
        return reply
    tools = tool_roles.custom_tools(request)
    task = task_turn(turns).text()
    forced = tool_user.forced_call(tools, name, turns, new_id, language(task), reviewer.review_number(task))
    if forced is None:
        return reply
    forced.reasoning = reply.reasoning
    return forced


def _respond(request: Request, turns: list[Turn], new_id: NewId) -> Reply:
    task = task_turn(turns).text()
    lang = language(task)
    refused = policy.refusal(task, lang, cautious=request.profile.cautious)
    if refused:
        return refused
    remembering = memory.respond(request, turns, new_id, lang)
    if remembering is not None:
        return remembering
    if web_search.server_tool(request):
        tools = tool_roles.custom_tools(request)
        asks = [t.text() for t in turns if t.role == "user" and web_search.wants_search(
            t.text(), tool_user.fitting(request, t.text(), lang) or reviewer.wants_review(t.text(), tools))]
        if asks:
            return web_search.respond(request, turns, asks[-1], lang, new_id)
    tools = tool_roles.custom_tools(request)
    if reviewer.wants_review(task, tools):
        return reviewer.respond(request, turns, new_id)
    searched = tool_search.respond(request, turns, new_id, lang)
    if searched is not None:
        return searched
    used_tools = tool_user.respond(request, turns, new_id, lang)
    if used_tools is not None:
        return used_tools
    remembered = memory.answer(request, turns, lang)
    if remembered is not None:
        return remembered
    noted = tool_user.held_back_note(tools, task, lang)
    if noted:
        return text_reply(noted)
    held = _held_back(tools, task, lang)
    if held:
        return text_reply(words(lang, "You asked in general, so I have not used {tools}: it would act, and you did not "
                                      "ask me to. I have no general advice to give: I work offline. If you want "
                                      "something done, ask me plainly and I will do it.", tools=", ".join(held)))
    return chat.respond(task, lang, [t.name for t in tools])


def _held_back(tools: list[tool_roles.ToolSpec], task: str, lang: str) -> list[str]:
    """The action tools that fit a curious question ("Just curious, how do people return a jacket?", «Просто
    интересно, как оформляют возврат?») and were held back because it asks for no action: said plainly, never
    "none of my tools does it"."""
    if not tools or not side_effects.hands_off(task):
        return []
    return [t.name for t in tool_user.rank(tools, slots.read(task, lang)) if side_effects.action(t) is not None][:3]
