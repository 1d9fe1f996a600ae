"""An approval prompt in the notebook: the tool, its full input, Approve and Deny.

The agent's loop runs in a worker thread (`await asyncio.to_thread(...)` in the cell, which
works on ipykernel >= 7.4), so the kernel stays free to deliver the click while the worker
waits for it. With COURSE_AGENT_AUTO_APPROVE=approve|deny the same prompt is shown and
answered by itself, so tests and nbval run the very same code path. No answer within the
timeout means no. After the decision the prompt says who decided what, and cannot be
clicked again.
"""

import html
import json
import os
import threading

import ipywidgets as widgets
from IPython.display import display

from ..redaction import redact
from ..safety import AUTO_APPROVE_ENV, DEFAULT_TIMEOUT, ApprovalRequest, Verdict


class ApprovalPrompt(widgets.VBox):
    """One question to a human, answered once."""

    def __init__(self, request: ApprovalRequest) -> None:
        self.request = request
        self.verdict: Verdict | None = None
        self._answered = threading.Event()
        self._lock = threading.Lock()
        arguments = redact(json.dumps(request.input, ensure_ascii=False, indent=2))
        self.question = widgets.HTML(
            f"<div style='border:2px solid #d62728;border-radius:4px;padding:6px'>"
            f"<b>The agent wants to call <code>{html.escape(request.tool)}</code></b> ({request.risk.value})"
            f"<pre style='white-space:pre-wrap'>{html.escape(arguments)}</pre></div>")
        self.approve_button = widgets.Button(description="Approve", button_style="success", icon="check")
        self.deny_button = widgets.Button(description="Deny", button_style="danger", icon="times")
        self.status = widgets.HTML("<i>waiting for a decision…</i>")
        self.approve_button.on_click(lambda _: self.decide(True, "you (clicked Approve)"))
        self.deny_button.on_click(lambda _: self.decide(False, "you (clicked Deny)"))
        super().__init__([self.question, widgets.HBox([self.approve_button, self.deny_button]), self.status])

    def decide(self, approved: bool, by: str, reason: str = "") -> Verdict:
        """Record the first decision; later clicks change nothing."""
        with self._lock:
            if self.verdict is None:
                self.verdict = Verdict(approved, by, reason)
                self.approve_button.disabled = self.deny_button.disabled = True
                word = "Approved" if approved else "Denied"
                colour = "#2ca02c" if approved else "#d62728"
                because = f" ({html.escape(reason)})" if reason else ""
                self.status.value = f"<b style='color:{colour}'>{word}</b> by {html.escape(by)}{because}"
                self._answered.set()
            return self.verdict

    def wait(self, timeout: float) -> Verdict:
        if not self._answered.wait(timeout):
            self.decide(False, "timeout", f"no answer within {timeout:g} s")
        return self.verdict  # type: ignore[return-value]

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self.question.value + self.status.value
        return bundle

    def __repr__(self) -> str:
        state = "waiting" if self.verdict is None else (
            f"{'approved' if self.verdict.approved else 'denied'} by {self.verdict.by}")
        return f"ApprovalPrompt({self.request.tool} {json.dumps(self.request.input)}: {state})"


class WidgetApprover:
    """An Approver (see course_agent.safety) that asks in the notebook."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, auto: str | None = None) -> None:
        self.timeout = timeout
        self.auto = (auto if auto is not None else os.environ.get(AUTO_APPROVE_ENV, "")).strip().lower()
        if self.auto not in ("", "approve", "deny"):
            raise ValueError(f"{AUTO_APPROVE_ENV} must be 'approve' or 'deny', got {self.auto!r}")
        self.prompts: list[ApprovalPrompt] = []

    def __call__(self, request: ApprovalRequest) -> Verdict:
        prompt = ApprovalPrompt(request)
        self.prompts.append(prompt)
        display(prompt)
        if self.auto:
            verdict = prompt.decide(self.auto == "approve", f"{AUTO_APPROVE_ENV}={self.auto}")
        else:
            verdict = prompt.wait(self.timeout)
        # A new output, not an update of the prompt's: saved notebooks and strict nbval see the decision.
        display({"text/plain": f"{request.tool}: {'approved' if verdict.approved else 'denied'} by {verdict.by}"
                               + (f" ({verdict.reason})" if verdict.reason else ""),
                 "text/html": prompt.status.value}, raw=True)
        return verdict
