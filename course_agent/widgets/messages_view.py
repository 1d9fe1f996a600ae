"""A live view of the messages list: one card per message, added as the message arrives.

Learners keep their own loop. They take the list from the view and append to it as the lesson
does, and the view follows:

    view = MessagesView(client=client)   # client is optional: it adds stop reasons and usage
    messages = view.messages             # a list; append() and extend() add cards
    view                                 # show it, then run the loop

The reference loop can feed it too: `run_agent(..., observers=[view])`. With a client (or as an
observer) the view also keeps each response's usage in `view.usage`, in order, which is what
`course_agent.usage_chart.usage_chart(view)` draws.

Each new message adds one HTML child to a VBox (cards are grouped in boxes of CHUNK, because
ipywidgets re-checks and re-sends a box's whole list of children on every change), so a message
costs the same however long the history is. When a run ends, the cell's output is refreshed once with a static HTML
transcript and a plain-text summary, so a saved notebook still reads well where widgets do not render
(GitHub, nbconvert), and strict nbval can compare the text.
"""

from collections.abc import Iterable
from typing import Any

import ipywidgets as widgets
from IPython.display import display

from ..i18n import language as resolve_language
from ..i18n import ntr, tr
from ..loop import LoopObserver
from ..transcript import as_json
from .cards import message_html, message_line
from .render import esc

CHUNK = 50


class ObservedMessages(list):
    """A list that tells its view about every change (appends cheaply; anything else re-renders)."""

    def __init__(self, items: Iterable = (), view: "MessagesView | None" = None) -> None:
        super().__init__(items)
        self._view = view

    def append(self, message: Any) -> None:
        super().append(message)
        if self._view is not None:
            self._view._added(len(self) - 1)

    def extend(self, messages: Iterable) -> None:
        for message in messages:
            self.append(message)

    def __iadd__(self, messages: Iterable) -> "ObservedMessages":
        self.extend(messages)
        return self


def _rerendering(name: str):
    """A list method that re-renders the view afterwards (rare edits, not worth a cheaper path)."""
    def method(self: ObservedMessages, *args: Any, **kwargs: Any) -> Any:
        result = getattr(list, name)(self, *args, **kwargs)
        if self._view is not None:
            self._view._rerender()
        return result
    method.__name__ = name
    return method


for _name in ("insert", "pop", "remove", "clear", "sort", "reverse", "__setitem__", "__delitem__"):
    setattr(ObservedMessages, _name, _rerendering(_name))


class MessagesView(widgets.VBox, LoopObserver):
    def __init__(self, messages: Iterable = (), client: Any = None, title: str | None = None,
                 language: str | None = None) -> None:
        self.language = resolve_language(language)
        self._title = title if title is not None else tr("messages", self.language)
        self._meta: dict[int, dict] = {}
        self._responses = 0
        self._pending: dict | None = None
        self._last_response: Any = None
        self._tool_uses: dict[str, dict] = {}
        self.usage: list[Any] = []  # each response's usage, in order (for usage_chart)
        self._transcript_shown_at = 0
        self._roles = {"user": 0, "assistant": 0}
        self._header = widgets.HTML()
        self.cards = widgets.VBox(layout=widgets.Layout(max_height="600px", overflow="auto"))
        super().__init__([self._header, self.cards])
        self.messages: ObservedMessages = ObservedMessages(messages, self)
        self._rerender()
        if client is not None:
            self.watch(client)

    # following the learner's client, for stop reasons and usage
    def watch(self, client: Any) -> Any:
        """Note each response the client returns, to label the assistant message made from it."""
        create = client.messages.create

        def create_and_note(*args: Any, **kwargs: Any) -> Any:
            response = create(*args, **kwargs)
            self.on_response(self._responses + 1, response)
            return response

        client.messages.create = create_and_note
        return client

    # LoopObserver: the reference loop feeds the view through these
    def on_response(self, iteration: int, response: Any) -> None:
        if response is self._last_response:  # watched and observed at once: one response, noted once
            return
        self._last_response = response
        self.usage.append(response.usage)
        self._responses = iteration
        self._pending = {"iteration": iteration, "stop_reason": response.stop_reason,
                         "usage": as_json(response.usage)}

    def on_message(self, message: Any) -> None:
        if message is not (self.messages[-1] if self.messages else None):
            self.messages.append(message)

    def on_finish(self, result: Any) -> None:
        self.show_transcript()

    def on_error(self, error: Any) -> None:
        self.show_transcript()

    # rendering
    def _meta_for(self, message: Any) -> dict | None:
        """The response details for the assistant message appended after that response."""
        if self._pending is None or as_json(message).get("role") != "assistant":
            return None
        meta, self._pending = self._pending, None
        return meta

    def _card(self, index: int) -> widgets.HTML:
        return widgets.HTML(self._card_html(index))

    def _card_html(self, index: int) -> str:
        message = as_json(self.messages[index])
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") in ("tool_use", "server_tool_use"):
                    self._tool_uses[block.get("id", "")] = block
        return message_html(index + 1, message, self._meta.get(index), self.language, self._tool_uses)

    def _added(self, index: int) -> None:
        meta = self._meta_for(self.messages[index])
        if meta:
            self._meta[index] = meta
        chunks = self.cards.children
        if not chunks or len(chunks[-1].children) >= CHUNK:
            chunks = (*chunks, widgets.VBox())
            self.cards.children = chunks
        chunks[-1].children = (*chunks[-1].children, self._card(index))
        role = as_json(self.messages[index]).get("role")
        self._roles[role] = self._roles.get(role, 0) + 1
        self._update_header()
        message = as_json(self.messages[index])
        calls = [b for b in message.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_use"]
        if message.get("role") == "assistant" and not calls and (meta or {}).get("stop_reason") != "pause_turn":
            self.show_transcript()

    def _rerender(self) -> None:
        self._tool_uses = {}
        cards = [self._card(i) for i in range(len(self.messages))]
        self.cards.children = tuple(widgets.VBox(cards[i:i + CHUNK]) for i in range(0, len(cards), CHUNK))
        roles = [as_json(m).get("role") for m in self.messages]
        self._roles = {"user": roles.count("user"), "assistant": roles.count("assistant")}
        self._update_header()

    def card_values(self) -> list[str]:
        """The HTML of every card, in order."""
        return [card.value for chunk in self.cards.children for card in chunk.children]

    def _count(self) -> str:
        return ntr("{n} message", "{n} messages", len(self.messages), self.language)

    def _update_header(self) -> None:
        self._header.value = (
            f"<div style='color:var(--jp-content-font-color1,#212121)'><b>{esc(self._title)}</b>: "
            + esc(tr("{messages} ({user} user, {assistant} assistant)", self.language, messages=self._count(),
                     user=self._roles.get("user", 0), assistant=self._roles.get("assistant", 0)))
            + "</div>")

    def text(self) -> str:
        """The history as plain text, one line per message (what nbval compares)."""
        lines = [f"MessagesView: {self._count()}"]
        lines += [message_line(i + 1, m, self._meta.get(i), self.language) for i, m in enumerate(self.messages)]
        return "\n".join(lines)

    def html(self) -> str:
        """The history as static HTML, for places where widgets do not render (the cards' own HTML: no
        second rendering of Markdown and code at the end of a run)."""
        return "".join(self.card_values())

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.text()
        bundle["text/html"] = self.html() or f"<i>{esc(tr('no messages yet', self.language))}</i>"
        return bundle

    def show_transcript(self) -> None:
        """Add the history, as text and folded static HTML, to the output of the running cell (once per run)."""
        if len(self.messages) == self._transcript_shown_at:
            return
        self._transcript_shown_at = len(self.messages)
        summary = tr("{title}: {messages} as static HTML (for viewers where widgets do not render)", self.language,
                     title=self._title, messages=self._count())
        folded = f"<details><summary>{esc(summary)}</summary>{self.html()}</details>"
        display({"text/plain": self.text(), "text/html": folded}, raw=True)
