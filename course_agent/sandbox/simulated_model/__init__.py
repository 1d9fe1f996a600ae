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
    """The model's next response to a validated request."""
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
