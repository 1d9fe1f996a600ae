"""A server tool turn that needs more than one response: the sandbox's web search.

A research question takes SEARCHES_NEEDED searches and the sandbox runs at most
SEARCHES_PER_TURN per response, so the first response stops with `pause_turn`.
Sending the conversation back with that response appended, and no new user
message, continues the same turn and finishes it. A new user message instead
starts the research over. Results come from an offline stand-in, with addresses
under the reserved `.invalid` domain.
"""

import base64
import re
from urllib.parse import quote_plus

from ..conversation import Turn
from ..request import Request
from ..simulated_model.reply import NewId, Reply
from ..words import words

SEARCHES_NEEDED = 3
SEARCHES_PER_TURN = 2
_WANTS_SEARCH = re.compile(r"search|look up|find|latest|news|найди|поищи|поиск|последн|новост", re.I)


_FRESH = re.compile(r"weather|forecast|temperature|\bprices?\b|stock|exchange rate|\bscores?\b|\bnews\b|today|tonight|"
                    r"this (?:week|month|year)|right now|currently|\bcurrent\b|\blatest\b|\brecent|who won|"
                    r"погод|прогноз|курс|цен[аы]|сегодня|сейчас|новост|текущ", re.I)
"""Questions whose answer changes day to day: a model with web search looks them up."""


def server_tool(request: Request) -> dict | None:
    return next((t for t in request.tools if str(t.get("type", "")).startswith("web_search")), None)


def wants_search(text: str, has_fitting_tool: bool = False) -> bool:
    """Whether to search: asked in words ("search", "look up"), or a question about fresh facts
    (weather, prices, today's news) that none of the learner's own tools answers."""
    return bool(_WANTS_SEARCH.search(text)) or (not has_fitting_tool and bool(_FRESH.search(text)))


def respond(request: Request, turns: list[Turn], question: str, lang: str, new_id: NewId) -> Reply:
    tool = server_tool(request) or {}
    max_uses = tool.get("max_uses")
    limit = max_uses if isinstance(max_uses, int) and max_uses > 0 else SEARCHES_NEEDED
    plan = [question, f"{question} documentation", f"{question} examples"][:limit]
    continuing = turns[-1].role == "assistant"
    done = len(turns[-1].of_type("server_tool_use")) if continuing else 0
    blocks: list[dict] = []
    if not done:
        blocks.append({"type": "text", "text": words(lang, "I'll search the web for this.")})
    for query in plan[done: done + SEARCHES_PER_TURN]:
        use_id = new_id("srvtoolu_01")
        blocks.append({"type": "server_tool_use", "id": use_id, "name": tool.get("name", "web_search"),
                       "input": {"query": query}})
        blocks.append({"type": "web_search_tool_result", "tool_use_id": use_id, "content": _results(query)})
    if done + SEARCHES_PER_TURN < len(plan):
        return Reply(blocks, "pause_turn")
    titles = "; ".join(f"{query} — https://search.sandbox.invalid/?q={quote_plus(query)}" for query in plan)
    blocks.append({"type": "text", "text": words(lang, "I ran {count} searches. Sources: {titles}. The sandbox's "
                                                       "search is offline, so these pages are placeholders; with "
                                                       "the real API the answer would summarise them.",
                                                       count=len(plan), titles=titles)})
    return Reply(blocks, "end_turn")


def _results(query: str) -> list[dict]:
    return [
        {
            "type": "web_search_result",
            "title": f"{query} ({n})",
            "url": f"https://search.sandbox.invalid/{n}?q={quote_plus(query)}",
            "encrypted_content": base64.b64encode(f"sandbox result {n} for {query}".encode()).decode(),
            "page_age": None,
        }
        for n in (1, 2)
    ]
