"""Tool search before a deferred tool: a tool sent with `defer_loading: true` is not visible to
the model until a search finds it. With the server's tool search tool
(`tool_search_tool_regex_20251119`, `tool_search_tool_bm25_20251119`) the search runs inside the
response, which then calls the found tool; with a search tool of the learner's own (the SDK's
`search_available_tools(keyword)` example) the model calls that tool, and the found tool
becomes visible once its `tool_reference` comes back.
"""

import re

from ..conversation import Turn
from ..request import Request
from ..simulated_model import side_effects, slots, tool_roles, tool_user
from ..simulated_model.history import calls, task_turn
from ..simulated_model.reply import NewId, Reply
from ..simulated_model.words import stem, stems, tokens
from ..words import words

_LEARNER_SEARCH = re.compile(r"search\w*\W+(?:\w+\W+)?tools?|tools?\W+search|find\w*\W+(?:\w+\W+)?tools?", re.I)


def respond(request: Request, turns: list[Turn], new_id: NewId, lang: str) -> Reply | None:
    """A search for the deferred tool the task needs, or None (nothing hidden fits, no search tool,
    a visible tool fits, or this task already searched)."""
    task = task_turn(turns).text()
    hidden = side_effects.allowed(tool_roles.custom_tools(request, hidden=True), task)
    server = next((t for t in request.tools if str(t.get("type", "")).startswith("tool_search_tool")),
                  None)
    learner = next((t for t in tool_roles.custom_tools(request) if _LEARNER_SEARCH.search(f"{t.name} {t.description}")),
                   None)
    if not hidden or (server is None and learner is None) or _searched(turns, server, learner):
        return None
    visible = [t for t in tool_roles.custom_tools(request) if t is not learner]
    evidence = slots.read(task, lang)
    if tool_user.rank(side_effects.allowed(visible, task), evidence):
        return None
    ranked = tool_user.rank(hidden, evidence)
    if not ranked:
        return None
    word = keyword(task, ranked[0])
    preface = words(lang, "I'll search the available tools for \"{word}\".", word=word)
    if server is None and learner is not None:
        prop = next(iter(learner.properties()), "query")
        use = {"type": "tool_use", "id": new_id("toolu_01"), "name": learner.name,
               "input": tool_user.tool_input(learner, evidence, seeds={prop: word})}
        return Reply([{"type": "text", "text": preface}, use], "tool_use")
    use_id = new_id("srvtoolu_01")
    blocks = [{"type": "text", "text": preface},
              {"type": "server_tool_use", "id": use_id, "name": server["name"], "input": {"query": word}},
              {"type": "tool_search_tool_result", "tool_use_id": use_id, "content": {
                  "type": "tool_search_tool_search_result",
                  "tool_references": [{"type": "tool_reference", "tool_name": t.name} for t in ranked[:3]]}}]
    plan = tool_user.plan_calls(ranked[:1], evidence)
    blocks += [{"type": "tool_use", "id": new_id("toolu_01"), "name": name, "input": tool_input}
               for name, tool_input in plan.uses]
    return Reply(blocks, "tool_use" if plan.uses else "end_turn")


def keyword(task: str, tool: tool_roles.ToolSpec) -> str:
    """The request's word that names the tool ('weather' for get_weather), a valid regex too."""
    described = stems(f"{tool.name} {tool.description}")
    return next((w for w in tokens(task) if len(w) > 2 and stem(w) in described), tokens(tool.name)[-1])


def _searched(turns: list[Turn], server: dict | None, learner: tool_roles.ToolSpec | None) -> bool:
    """Whether this task already ran a search: one search per task, so a miss never loops."""
    start = turns.index(task_turn(turns))
    names = {server["name"] if server else None, learner.name if learner else None}
    server_uses = [b for t in turns[start:] if t.role == "assistant" for b in t.of_type("server_tool_use")]
    return any(b.get("name") in names for b in server_uses) or any(c.name in names for c in calls(turns))
