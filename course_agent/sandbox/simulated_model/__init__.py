"""The sandbox's simulated model: deterministic, offline, and driven by the request itself.

It picks what to do from the conversation it is sent: refuse a refused category, run a
web search that pauses, review a merge request with whatever tools it was given, or
answer a plain question. See the sandbox's README section for how to trigger each.
"""

from ..conversation import Turn
from . import chat, policy, reviewer, tool_roles, web_search
from .history import language, task_turn
from .reply import NewId, Reply

__all__ = ["Reply", "respond"]


def respond(request: dict, turns: list[Turn], new_id: NewId) -> Reply:
    """The model's next response to a validated request, within what its tool_choice allows."""
    choice = request.get("tool_choice") or {}
    if choice.get("type") == "none":
        request = {**request, "tools": []}
    reply = _respond(request, turns, new_id)
    if choice.get("type") in ("any", "tool"):
        reply = _force_tool(request, turns, reply, choice.get("name"), new_id)
    if choice.get("disable_parallel_tool_use"):
        uses = [b for b in reply.blocks if b["type"] == "tool_use"]
        reply.blocks = [b for b in reply.blocks if b["type"] != "tool_use" or b is uses[0]]
    return reply


def _force_tool(request: dict, turns: list[Turn], reply: Reply, name: str | None, new_id: NewId) -> Reply:
    """tool_choice any/tool: the answer must call a tool (the named one, if named)."""
    used = [b for b in reply.blocks if b["type"] == "tool_use"]
    if used and (name is None or all(b["name"] == name for b in used)):
        return reply
    tools = tool_roles.custom_tools(request)
    tool = next((t for t in tools if t.name == name), None) if name else (tools[0] if tools else None)
    if tool is None:
        return reply
    task = task_turn(turns).text()
    tool_input = tool_roles.fill(tool, number=reviewer.mr_number(task))
    return Reply([{"type": "tool_use", "id": new_id("toolu_01"), "name": tool.name, "input": tool_input}],
                 "tool_use", reasoning=reply.reasoning)


def _respond(request: dict, turns: list[Turn], new_id: NewId) -> Reply:
    task = task_turn(turns).text()
    lang = language(task)
    refused = policy.refusal(task, lang)
    if refused:
        return refused
    if web_search.server_tool(request):
        asks = [t.text() for t in turns if t.role == "user" and web_search.wants_search(t.text())]
        if asks:
            return web_search.respond(request, turns, asks[-1], lang, new_id)
    tools = tool_roles.custom_tools(request)
    if reviewer.wants_review(task, tools):
        return reviewer.respond(request, turns, new_id)
    return chat.respond(task, lang)
