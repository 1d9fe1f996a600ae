"""Message threads (beta `message-threads-2026-08-12`): the server keeps a conversation between requests.

`thread: {"type": "create"}` asks the server to hold the conversation (system, tools, every message and the
reply) under the reply's id; `{"type": "continue", "previous_message_id": id}` sends only the new messages,
and the server puts the held conversation in front of them. A `continue` may not repeat `system` or `tools`
(they stay as the thread was created). Each reply continues once; a thread the server no longer holds is
`thread_not_found`, one already continued is `thread_already_continued`: the SDK's thread helper then sends
the whole history again under a new thread. A turn a fallback model wrote is not held (the docs), so the
next turn starts a new thread. Held conversations are bounded (the oldest are forgotten first).
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from ..errors import ApiError, invalid
from ..request import Request

BETA = "message-threads-2026-08-12"
CREATE_ONLY = ("system", "tools")
HELD_THREADS = 512


@dataclass
class Held:
    request: Request
    """The thread's last request with its reply as the last message: its system, tools and messages."""
    continued: bool = False


class Threads:
    """The conversations one sandbox holds, by the id of their latest reply."""

    def __init__(self, size: int = HELD_THREADS) -> None:
        self.size = size
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._lock = threading.Lock()

    def expand(self, request: Request) -> tuple[Request, str | None]:
        """The request as the model sees it (a `continue` with the held conversation in front), without
        `thread`; and the thread's state for `hold`: None without a thread, "" for a `create`, the
        continued message's id for a `continue` (marked continued only once the reply is held, so a
        request refused later changes nothing)."""
        thread = request.thread
        if thread is None:
            return request, None
        if BETA not in request.betas:
            raise ApiError(400, f"thread: this field requires the `{BETA}` beta (anthropic-beta header).",
                           details={"error_code": "thread_unsupported_request", "unsupported": ["thread"]})
        if thread.get("type") != "continue":
            return request.replaced(thread=None), ""
        repeated = [field for field in CREATE_ONLY if field in request.sent]
        if repeated:
            raise invalid(f"{repeated[0]}: cannot be set when continuing a thread; the thread keeps the "
                          f"`{repeated[0]}` it was created with.")
        previous = thread.get("previous_message_id")
        with self._lock:
            held = self._held.get(previous)
            if held is None:
                raise ApiError(404, f"thread: no thread holds message {previous}.",
                               details={"error_code": "thread_not_found"})
            if held.continued:
                raise ApiError(400, f"thread: message {previous} was already continued.",
                               details={"error_code": "thread_already_continued"})
        return request.continuing(held.request, CREATE_ONLY), previous

    def clear(self) -> None:
        with self._lock:
            self._held.clear()

    def hold(self, request: Request, message: dict, continued: str) -> None:
        """Mark the continued reply (if any) as continued, and keep the conversation this reply ends,
        unless a fallback model wrote it."""
        with self._lock:
            if continued in self._held:
                self._held[continued].continued = True
        if any(u.get("type") == "fallback_message" for u in message["usage"].get("iterations") or []):
            return
        reply = {"role": "assistant", "content": message["content"]}
        held = Held(request.with_messages([*request.messages, reply]))
        with self._lock:
            self._held[message["id"]] = held
            self._held.move_to_end(message["id"])
            while len(self._held) > self.size:
                self._held.popitem(last=False)
