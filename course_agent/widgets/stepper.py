"""Instructor mode: the agent advances one API call per click of Next.

Before each call the stepper shows what is new in the request since the last one; after it,
the response and what the code will do with it (run which tools, stop, send again). Play
walks through on its own. The agent runs in a background thread and waits on the button,
so the kernel stays free to deliver clicks.
"""

import html
import threading
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..loop import LoopObserver
from .cards import message_html
from .messages_view import MessagesView


def next_action(response: Any) -> str:
    """What the lesson's loop does with this response, in words."""
    stop = response.stop_reason
    if stop == "tool_use":
        calls = [f"{b.name}({', '.join(f'{k}={v!r}' for k, v in b.input.items())})"
                 for b in response.content if b.type == "tool_use"]
        return (f"append the response whole, run {len(calls)} tool call(s) — {'; '.join(calls)} — and send all "
                "results back in one user message")
    return {
        "end_turn": "stop: the model is done; return its text",
        "stop_sequence": "stop: a stop sequence was reached; return the text so far",
        "pause_turn": "append the response and send the request again, with no new user message",
        "max_tokens": "stop with an error: the answer was cut; raise max_tokens (a cut tool call is not run)",
        "refusal": "stop: the model refused; read stop_details, do not retry",
        "model_context_window_exceeded": "stop with an error: the context window is full",
    }.get(stop, f"stop with an error: unexpected stop_reason {stop!r}")


class Stepper(widgets.VBox, LoopObserver):
    def __init__(self, run: Callable[[list[LoopObserver]], Any], delay: float = 1.5) -> None:
        """`run(observers)` runs the agent (e.g. lambda obs: review(482, observers=obs))."""
        self._run = run
        self.delay = delay
        self.steps: list[dict] = []
        self.result: Any = None
        self.error: BaseException | None = None
        self._go = threading.Event()
        self._seen = 0
        self._thread: threading.Thread | None = None
        self.next_button = widgets.Button(description="Next", icon="step-forward", button_style="primary")
        self.play_button = widgets.ToggleButton(description="Play", icon="play", value=False)
        self.status = widgets.HTML("<i>press Next to send the first request</i>")
        self.request_pane = widgets.HTML()
        self.response_pane = widgets.HTML()
        self.view = MessagesView(title="history")
        self.next_button.on_click(lambda _: self._go.set())
        self.play_button.observe(lambda change: change["new"] and self._go.set(), "value")
        # The last response stays on screen next to the request it led to, so a room can read both.
        super().__init__([widgets.HBox([self.next_button, self.play_button]), self.status,
                          self.response_pane, self.request_pane, self.view])

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
        try:
            self.result = self._run([self])
            self.status.value = f"<b>done</b> after {len(self.steps)} API call(s): {html.escape(self.result.stop_reason)}"
        except Exception as error:  # shown, not raised: the thread has no one to raise to
            self.error = error
            self.status.value = f"<b style='color:#c00'>stopped</b>: {html.escape(type(error).__name__)}: {html.escape(str(error))}"
        self.next_button.disabled = True

    def on_request(self, iteration: int, messages: Any) -> None:
        new = list(messages[self._seen:])
        self._seen = len(messages)
        self.request_pane.value = (
            f"<h4>Request {iteration}: the whole history of {len(messages)} message(s) is sent; new since the "
            f"last request: {len(new)}</h4>" + "".join(message_html(self._seen - len(new) + i + 1, m)
                                                       for i, m in enumerate(new)))
        self.steps.append({"iteration": iteration, "new_messages": len(new), "sent": len(messages)})
        self.status.value = f"request {iteration} is ready: press Next to send it"
        self._go.clear()
        while not self._go.wait(self.delay if self.play_button.value else None):
            if self.play_button.value:
                break
        self.status.value = f"request {iteration} sent, waiting for the response…"

    def on_message(self, message: Any) -> None:
        self.view.on_message(message)

    def on_response(self, iteration: int, response: Any) -> None:
        self.view.on_response(iteration, response)
        action = next_action(response)
        self.steps[-1].update(stop_reason=response.stop_reason, action=action)
        self.response_pane.value = (f"<h4>Response {iteration}: stop_reason <code>{html.escape(str(response.stop_reason))}"
                                    f"</code></h4><p>Next the code will: <b>{html.escape(action)}</b></p>")
