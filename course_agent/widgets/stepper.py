"""Instructor mode: the agent advances one API call per click of Next.

Before each call the stepper shows what is new in the request since the last one; after it,
the response and what the code will do with it (run which tools, stop, send again). Play
walks through on its own. The agent runs in a background thread and waits on the button,
so the kernel stays free to deliver clicks. It speaks the room's language (`language=`, else
course_agent.i18n.language()).
"""

import threading
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..i18n import language as resolve_language
from ..i18n import ntr, tr
from ..loop import LoopObserver
from .cards import message_html
from .messages_view import MessagesView
from .render import esc

TEXT_COLOUR = "color:var(--jp-content-font-color1,#212121)"


def next_action(response: Any, language: str | None = None) -> str:
    """What the lesson's loop does with this response, in words."""
    lang = resolve_language(language)
    stop = response.stop_reason
    if stop == "tool_use":
        calls = [f"{b.name}({', '.join(f'{k}={v!r}' for k, v in b.input.items())})"
                 for b in response.content if b.type == "tool_use"]
        return ntr("append the response whole, run {n} tool call — {calls} — and send all results back in one "
                   "user message",
                   "append the response whole, run {n} tool calls — {calls} — and send all results back in one "
                   "user message", len(calls), lang, calls="; ".join(calls))
    actions = {
        "end_turn": tr("stop: the model is done; return its text", lang),
        "stop_sequence": tr("stop: a stop sequence was reached; return the text so far", lang),
        "pause_turn": tr("append the response and send the request again, with no new user message", lang),
        "max_tokens": tr("stop with an error: the answer was cut; increase max_tokens (a cut tool call is not run)",
                         lang),
        "refusal": tr("stop: the model refused; read stop_details, do not retry", lang),
        "model_context_window_exceeded": tr("stop with an error: the context window is full", lang),
    }
    return actions.get(stop) or tr("stop with an error: unexpected stop_reason {stop}", lang, stop=repr(stop))


class Stepper(widgets.VBox, LoopObserver):
    def __init__(self, run: Callable[[list[LoopObserver]], Any], delay: float = 1.5,
                 language: str | None = None) -> None:
        """`run(observers)` runs the agent (e.g. lambda obs: review(482, observers=obs))."""
        self._run = run
        self.delay = delay
        self.language = resolve_language(language)
        self.steps: list[dict] = []
        self.result: Any = None
        self.error: BaseException | None = None
        self._go = threading.Event()
        self._seen = 0
        self._thread: threading.Thread | None = None
        lang = self.language
        self.next_button = widgets.Button(description=tr("Next", lang), icon="step-forward", button_style="primary")
        self.play_button = widgets.ToggleButton(description=tr("Play", lang), icon="play", value=False)
        self.status = widgets.HTML(self._status(tr("press Next to send the first request", lang), italic=True))
        self.request_pane = widgets.HTML()
        self.response_pane = widgets.HTML()
        self.view = MessagesView(title=tr("history", lang), language=lang)
        self.next_button.on_click(lambda _: self._go.set())
        self.play_button.observe(lambda change: change["new"] and self._go.set(), "value")
        # The last response stays on screen next to the request it led to, so a room can read both.
        super().__init__([widgets.HBox([self.next_button, self.play_button]), self.status,
                          self.response_pane, self.request_pane, self.view])

    @property
    def usage(self) -> list[Any]:
        """Each response's usage so far (for course_agent.usage_chart)."""
        return self.view.usage

    @staticmethod
    def _status(text: str, italic: bool = False) -> str:
        tag = "i" if italic else "span"
        return f"<{tag} style='{TEXT_COLOUR}'>{esc(text)}</{tag}>"

    def start(self) -> "Stepper":
        """Run the agent in the background; it waits for Next before every API call."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, daemon=True, name="course-agent-stepper")
            self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _work(self) -> None:
        lang = self.language
        try:
            self.result = self._run([self])
            done = ntr("done after {n} API call: {stop}", "done after {n} API calls: {stop}", len(self.steps), lang,
                       stop=self.result.stop_reason)
            self.status.value = f"<b style='{TEXT_COLOUR}'>{esc(done)}</b>"
        except Exception as error:  # shown, not raised: the thread has no one to raise to
            self.error = error
            self.status.value = (f"<span style='{TEXT_COLOUR}'><b style='color:var(--jp-error-color1,#c00)'>"
                                 f"{esc(tr('stopped', lang))}</b>: {esc(type(error).__name__)}: "
                                 f"{esc(str(error))}</span>")
        self.next_button.disabled = True

    def on_request(self, iteration: int, messages: Any) -> None:
        lang = self.language
        new = list(messages[self._seen:])
        self._seen = len(messages)
        title = ntr("Request {i}: the whole history of {n} message is sent; new since the last request: {new}",
                    "Request {i}: the whole history of {n} messages is sent; new since the last request: {new}",
                    len(messages), lang, i=iteration, new=len(new))
        self.request_pane.value = (
            f"<h4 style='{TEXT_COLOUR}'>{esc(title)}</h4>"
            + "".join(message_html(self._seen - len(new) + i + 1, m, lang=lang) for i, m in enumerate(new)))
        self.steps.append({"iteration": iteration, "new_messages": len(new), "sent": len(messages)})
        self.status.value = self._status(tr("request {i} is ready: press Next to send it", lang, i=iteration))
        self._go.clear()
        while not self._go.wait(self.delay if self.play_button.value else None):
            if self.play_button.value:
                break
        self.status.value = self._status(tr("request {i} sent, waiting for the response…", lang, i=iteration))

    def on_message(self, message: Any) -> None:
        self.view.on_message(message)

    def on_response(self, iteration: int, response: Any) -> None:
        lang = self.language
        self.view.on_response(iteration, response)
        action = next_action(response, lang)
        self.steps[-1].update(stop_reason=response.stop_reason, action=action)
        title = tr("Response {i}: stop_reason {stop}", lang, i=iteration,
                   stop=f"<code>{esc(str(response.stop_reason))}</code>")
        self.response_pane.value = (f"<div style='{TEXT_COLOUR}'><h4>{title}</h4>"
                                    f"<p>{esc(tr('Next the code will:', lang))} <b>{esc(action)}</b></p></div>")
