"""An approval prompt in the notebook: the tool, its full input, Approve and Deny.

The agent's loop runs in a worker thread (`await asyncio.to_thread(...)` in the cell, which
works on ipykernel >= 7.4), so the kernel stays free to deliver the click while the worker
waits for it. With COURSE_AGENT_AUTO_APPROVE=approve|deny the same prompt is shown and
answered by itself, so tests and nbval run the very same code path. No answer within the
timeout means no. After the decision the prompt says who decided what, and cannot be
clicked again.

The prompt speaks the learner's language (`language=`, else course_agent.i18n.language()); the
Verdict it returns stays in English, because it goes to the audit log and, on a refusal, to the
model.
"""

import json
import threading

import ipywidgets as widgets
from IPython.display import display

from ..i18n import language as resolve_language
from ..i18n import tr
from ..redaction import redact
from ..safety import AUTO_APPROVE_ENV, DEFAULT_TIMEOUT, ApprovalRequest, Verdict, risk_label
from ..settings import Settings
from .render import code_html, esc

CLICKED_APPROVE = "you (clicked Approve)"
CLICKED_DENY = "you (clicked Deny)"
APPROVED_COLOUR = "var(--jp-success-color1,#2ca02c)"
DENIED_COLOUR = "var(--jp-error-color1,#d62728)"


def _who(by: str, lang: str) -> str:
    """Who decided, in the learner's words (the Verdict keeps the English)."""
    return {CLICKED_APPROVE: tr("you (clicked Approve)", lang), CLICKED_DENY: tr("you (clicked Deny)", lang),
            "timeout": tr("the timeout", lang)}.get(by, by)


class ApprovalPrompt(widgets.VBox):
    """One question to a human, answered once."""

    def __init__(self, request: ApprovalRequest, language: str | None = None) -> None:
        self.request = request
        self.language = resolve_language(language)
        self.verdict: Verdict | None = None
        self._reason_shown = ""
        self._answered = threading.Event()
        self._lock = threading.Lock()
        lang = self.language
        arguments = redact(json.dumps(request.input, ensure_ascii=False, indent=2))
        question = tr("The agent wants to call {tool}", lang, tool=f"<code>{esc(request.tool)}</code>")
        self.question = widgets.HTML(
            f"<div style='border:2px solid #d62728;border-radius:4px;padding:6px;line-height:1.45;"
            f"color:var(--jp-content-font-color1,#212121)'>"
            f"<b>{question}</b> ({esc(risk_label(request.risk, lang))})"
            f"{code_html(arguments, lexer_name='json')}</div>")
        self.approve_button = widgets.Button(description=tr("Approve", lang), button_style="success", icon="check")
        self.deny_button = widgets.Button(description=tr("Deny", lang), button_style="danger", icon="times")
        self.status = widgets.HTML(f"<i style='color:var(--jp-content-font-color1,#212121)'>"
                                   f"{esc(tr('waiting for a decision…', lang))}</i>")
        self.approve_button.on_click(lambda _: self.decide(True, CLICKED_APPROVE))
        self.deny_button.on_click(lambda _: self.decide(False, CLICKED_DENY))
        super().__init__([self.question, widgets.HBox([self.approve_button, self.deny_button]), self.status])

    def decide(self, approved: bool, by: str, reason: str = "", *, reason_shown: str | None = None) -> Verdict:
        """Record the first decision; later clicks change nothing. `reason_shown`: the reason in the learner's words."""
        with self._lock:
            if self.verdict is None:
                self.verdict = Verdict(approved, by, reason)
                self._reason_shown = reason if reason_shown is None else reason_shown
                self.approve_button.disabled = self.deny_button.disabled = True
                self.status.value = self.decision_html()
                self._answered.set()
            return self.verdict

    def decision_html(self) -> str:
        """The decision as the learner reads it (empty while waiting)."""
        if self.verdict is None:
            return ""
        lang, verdict = self.language, self.verdict
        word = tr("Approved", lang) if verdict.approved else tr("Denied", lang)
        colour = APPROVED_COLOUR if verdict.approved else DENIED_COLOUR
        because = f" ({esc(self._reason_shown)})" if self._reason_shown else ""
        by = esc(tr("by {who}", lang, who=_who(verdict.by, lang)))
        return (f"<span style='color:var(--jp-content-font-color1,#212121)'><b style='color:{colour}'>{esc(word)}</b> "
                f"{by}{because}</span>")

    def decision_text(self) -> str:
        """The decision as one line of plain text, in the learner's language."""
        verdict, lang = self.verdict, self.language
        if verdict is None:
            return ""
        who = _who(verdict.by, lang)
        line = (tr("{tool}: approved by {who}", lang, tool=self.request.tool, who=who) if verdict.approved
                else tr("{tool}: denied by {who}", lang, tool=self.request.tool, who=who))
        return line + (f" ({self._reason_shown})" if self._reason_shown else "")

    def wait(self, timeout: float) -> Verdict:
        if not self._answered.wait(timeout):
            self.decide(False, "timeout", f"no answer within {timeout:g} s",
                        reason_shown=tr("no answer within {seconds} s", self.language, seconds=f"{timeout:g}"))
        return self.verdict  # type: ignore[return-value]

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.text()
        bundle["text/html"] = self.question.value + self.status.value
        return bundle

    def _state(self) -> str:
        lang = self.language
        return tr("waiting", lang) if self.verdict is None else (
            tr("approved by {who}" if self.verdict.approved else "denied by {who}", lang,
               who=_who(self.verdict.by, lang)))

    def text(self) -> str:
        """The prompt in plain words, in the learner's language: what a notebook shows outside JupyterLab."""
        return tr("Approval for {tool} {input}: {state}", self.language, tool=self.request.tool,
                  input=json.dumps(self.request.input), state=self._state())

    def __repr__(self) -> str:
        return f"ApprovalPrompt({self.request.tool} {json.dumps(self.request.input)}: {self._state()})"


class WidgetApprover:
    """An Approver (see course_agent.safety) that asks in the notebook."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, auto: str | None = None, language: str | None = None) -> None:
        self.timeout = timeout
        self.language = resolve_language(language)
        self.auto = (auto if auto is not None else Settings.from_env().auto_approve or "").strip().lower()
        if self.auto not in ("", "approve", "deny"):
            raise ValueError(f"{AUTO_APPROVE_ENV} must be 'approve' or 'deny', got {self.auto!r}")
        self.prompts: list[ApprovalPrompt] = []

    def __call__(self, request: ApprovalRequest) -> Verdict:
        prompt = ApprovalPrompt(request, self.language)
        self.prompts.append(prompt)
        display(prompt)
        if self.auto:
            verdict = prompt.decide(self.auto == "approve", f"{AUTO_APPROVE_ENV}={self.auto}")
        else:
            verdict = prompt.wait(self.timeout)
        # A new output, not an update of the prompt's: saved notebooks and strict nbval see the decision.
        display({"text/plain": prompt.decision_text(), "text/html": prompt.status.value}, raw=True)
        return verdict
