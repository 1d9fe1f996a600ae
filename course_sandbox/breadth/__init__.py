"""API breadth: what the sandbox serves so that the SDK's whole surface works offline, beyond what the
course's lessons need (the agent loop, tools, thinking, caching, limits: the modules one folder up).

Each feature is one module, registered here; the core calls them at a few named points only:

| feature | module | beta the sandbox requires | called from |
| --- | --- | --- | --- |
| Message Batches | `batches` | none | `messages_api.MessagesApi` (its `batches`), routed by `messages_http` |
| message threads | `threads` | `message-threads-2026-08-12` | `MessagesApi._validated` (expand), `create` (hold) |
| context editing | `context_editing` | `context-management-2025-06-27` | `MessagesApi._validated` (check), `_managed` |
| compaction | `compaction` | `compact-2026-01-12`, `compact-2026-09-04` | `_validated`, `create`, `_managed` |
| server-side fallback | `fallbacks` | `server-side-fallback-2026-07-01` | `_validated` (chain), `_fall_back` |
| memory tool | `memory` | none | `simulated_model._respond` |
| tool search | `tool_search` | none | `simulated_model._respond` |
| web search | `web_search` | none | `simulated_model._respond` |

A breadth module reads the typed request (`request.Request`) and the simulated model's helpers; the core
never imports a breadth module but through this package.
"""

from . import batches, compaction, context_editing, fallbacks, memory, threads, tool_search, web_search

__all__ = ["batches", "compaction", "context_editing", "fallbacks", "memory", "threads", "tool_search", "web_search"]
