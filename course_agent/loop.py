"""The agent loop, as the lesson writes it.

    messages = [task]
    repeat at most max_iterations times:
        response = messages.create(system, tools, messages)
        end_turn   -> done: return the text
        tool_use   -> append the response WHOLE, run EVERY tool, append ALL results in ONE user message
        pause_turn -> append the response and send again, with no new user message
        anything else -> stop with a clear error
    too many iterations -> stop with a clear error

Every message is saved as soon as it is appended, and every error carries the whole history,
so nothing is lost and a failed run can be inspected and resumed. What the loop does with one
response is `step()`: the batch reviewer (batch_review.py) drives many loops with it.
"""

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anthropic
from anthropic.types import Message, MessageParam, ToolUseBlock, Usage

from .config import model_id
from .i18n import ntr, tr
from .tools import Toolbox
from .transcript import Transcript

DEFAULT_MAX_ITERATIONS = 20
DEFAULT_MAX_TOKENS = 16_000


@dataclass
class AgentResult:
    text: str
    stop_reason: str
    messages: list[MessageParam]
    iterations: int
    usage: list[Usage] = field(default_factory=list)


class AgentError(Exception):
    """The loop stopped without an answer. `messages` holds the whole history up to here."""

    def __init__(self, message: str, messages: list[MessageParam], response: Message | None = None) -> None:
        super().__init__(message)
        self.messages = messages
        self.response = response


class MaxTokensReached(AgentError):
    """The answer was cut at max_tokens; a cut tool call is never run."""


class Refused(AgentError):
    """The model refused; retrying the same request is pointless."""

    def __init__(self, message: str, messages: list[MessageParam], response: Message) -> None:
        super().__init__(message, messages, response)
        self.stop_details = response.stop_details


class ContextWindowExceeded(AgentError):
    """The conversation no longer fits the model's context window."""


class UnexpectedStopReason(AgentError):
    """A stop reason this loop does not know (a newer API?)."""


class IterationLimitReached(AgentError):
    """The cap on iterations was reached: the lesson's guard against a loop that never ends."""


class ApiFailed(AgentError):
    """The API call failed (after the SDK's own retries)."""


class Interrupted(AgentError):
    """Ctrl-C (KeyboardInterrupt) during the run: the history up to here is kept and saved."""


class TranscriptFailed(AgentError):
    """A message could not be saved to the transcript. The run stops rather than go on with
    something it did (a merge, a posted comment) missing from the record: `unsaved` lists the
    results of tools that ran and are not in the file."""

    def __init__(self, message: str, messages: list[MessageParam], path: Path, why: str,
                 unsaved: list[str]) -> None:
        super().__init__(message, messages)
        self.path, self.why, self.unsaved = path, why, unsaved


class LoopObserver:
    """Watches a run without being part of it (the live messages view plugs in here)."""

    def on_request(self, iteration: int, messages: Sequence[MessageParam]) -> None: ...
    def on_response(self, iteration: int, response: Message) -> None: ...
    def on_message(self, message: MessageParam) -> None: ...
    def on_finish(self, result: AgentResult) -> None: ...
    def on_error(self, error: AgentError) -> None: ...


class History:
    """The messages list, saved to the transcript and shown to observers as it grows (one per loop:
    the batch reviewer keeps one per merge request)."""

    def __init__(self, messages: list[MessageParam], transcript: Transcript | None,
                 observers: Sequence[LoopObserver]) -> None:
        self.messages, self.transcript, self.observers = messages, transcript, observers

    def append(self, message: MessageParam, save: bool = True, **meta: Any) -> None:
        self.messages.append(message)
        if save and self.transcript is not None:
            try:
                self.transcript.append(message, **meta)
            except (OSError, ValueError) as error:
                unsaved = _unsaved(message)
                raise self.fail(TranscriptFailed(
                    tr("could not save to the transcript {path} ({why}); the run stopped so that nothing it did goes "
                       "unrecorded", path=self.transcript.path, why=_why(error))
                    + (tr(". Not saved: {what}", what="; ".join(unsaved)) if unsaved else ""),
                    self.messages, self.transcript.path, _why(error), unsaved)) from error
        self.notify("on_message", message)

    def notify(self, event: str, *args: Any) -> None:
        for observer in self.observers:
            getattr(observer, event)(*args)

    def fail(self, error: AgentError) -> AgentError:
        if self.transcript is not None:
            with contextlib.suppress(OSError, ValueError):  # the error itself says so when the transcript failed
                self.transcript.event("error", kind=type(error).__name__, detail=str(error),
                                      response=error.response)
        self.notify("on_error", error)
        return error


def _why(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


def _unsaved(message: MessageParam) -> list[str]:
    """For a message of tool results that could not be saved: the first line of each (what was done)."""
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [str(b.get("content", "")).splitlines()[0][:200] for b in content
            if isinstance(b, dict) and b.get("type") == "tool_result" and not b.get("is_error") and b.get("content")]


def tool_uses(response: Message) -> list[ToolUseBlock]:
    return [block for block in response.content if block.type == "tool_use"]


def text_of(response: Message) -> str:
    return "\n".join(block.text for block in response.content if block.type == "text")


def run_agent(
    client: anthropic.Anthropic,
    task: str | Iterable[MessageParam],
    toolbox: Toolbox,
    *,
    system: str | list | None = None,
    model: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    transcript: str | Path | Transcript | None = None,
    observers: Sequence[LoopObserver] = (),
    **request: Any,
) -> AgentResult:
    """Run the agent on a task (or resume a saved list of messages) until it answers."""
    messages: list[MessageParam] = []
    if isinstance(transcript, (str, Path)):
        transcript = Transcript(transcript)
    history = History(messages, transcript, observers)
    start = [{"role": "user", "content": task}] if isinstance(task, str) else list(task)
    # Resuming into the transcript the messages came from: they are saved already.
    already_saved = transcript is not None and transcript.path.exists() and transcript.messages() == start
    if max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, got {max_iterations}")
    for message in start:
        history.append(message, save=not already_saved)
    if system is not None:
        request["system"] = system

    try:
        return _run(client, toolbox, history, messages, model=model, max_tokens=max_tokens,
                    max_iterations=max_iterations, request=request)
    except KeyboardInterrupt:
        raise history.fail(Interrupted(tr("interrupted (Ctrl-C); the history up to here is kept"), messages)) from None


def request_params(toolbox: Toolbox, messages: list[MessageParam], *, model: str | None, max_tokens: int,
                   request: dict) -> dict:
    """What one turn sends: the same for messages.create() and for a batch's `params`."""
    return {"model": model or model_id(), "max_tokens": max_tokens, "tools": toolbox.params(), "messages": messages,
            **request}


def _run(client: anthropic.Anthropic, toolbox: Toolbox, history: History, messages: list[MessageParam], *,
         model: str | None, max_tokens: int, max_iterations: int, request: dict) -> AgentResult:
    usage: list[Usage] = []
    for iteration in range(1, max_iterations + 1):
        history.notify("on_request", iteration, messages)
        try:
            response = client.messages.create(**request_params(toolbox, messages, model=model, max_tokens=max_tokens,
                                                               request=request))
        except anthropic.APIError as error:
            if isinstance(error, anthropic.BadRequestError) and "prompt is too long" in str(error):
                raise history.fail(ContextWindowExceeded(
                    tr("the history no longer fits the model's context window ({why}); start afresh with shorter tool "
                       "results, or let the server clear old ones (context editing)", why=error.message),
                    messages)) from error
            raise history.fail(ApiFailed(tr("the API call failed: {error}", error=error), messages)) from error
        usage.append(response.usage)
        history.notify("on_response", iteration, response)
        result = step(response, toolbox, history, iteration=iteration, max_tokens=max_tokens, usage=usage)
        if result is not None:
            return result

    # The loop has a cap on iterations (check_loop's "cap"), so a loop that gets nowhere does not run until the money
    # runs out.
    raise history.fail(cap_reached(max_iterations, messages))


def cap_reached(max_iterations: int, messages: list[MessageParam]) -> IterationLimitReached:
    """The error of a loop that reached its cap (run_agent's, and each of the batch reviewer's loops)."""
    return IterationLimitReached(ntr("no answer after {n} iteration (the cap); the whole history is kept",
                                     "no answer after {n} iterations (the cap); the whole history is kept",
                                     max_iterations), messages)


def step(response: Message, toolbox: Toolbox, history: History, *, iteration: int, max_tokens: int,
         usage: list[Usage]) -> AgentResult | None:
    """What the loop does with one response: the result when the model is done, None when the history
    goes back to the model, an AgentError raised when the run cannot go on. The interactive loop and
    the batch reviewer (batch_review.py) both take their responses here."""
    messages = history.messages
    stop = response.stop_reason

    if stop in ("end_turn", "stop_sequence"):
        # The model is done (or reached one of our stop sequences): return its text.
        history.append(response.to_param(), iteration=iteration, stop_reason=stop)
        result = AgentResult(text_of(response), stop, messages, iteration, usage)
        history.notify("on_finish", result)
        return result

    if stop == "tool_use":
        # The whole response goes into the history ("whole_response") (tool_use, thinking, everything).
        history.append(response.to_param(), iteration=iteration, stop_reason=stop)
        # Every requested tool runs; a tool error is a result, not an exception ("errors_are_results").
        results = toolbox.run_all(tool_uses(response))
        # All results of a turn go back in ONE user message ("one_message").
        history.append({"role": "user", "content": results}, iteration=iteration)
        return None

    if stop == "pause_turn":
        # A long server-tool turn paused: send it back as it is, with no new user message.
        history.append(response.to_param(), iteration=iteration, stop_reason=stop)
        return None

    if stop == "max_tokens":
        raise history.fail(MaxTokensReached(
            tr("the answer was cut at max_tokens={n}; increase max_tokens (any cut-off tool call was not run)",
               n=max_tokens), messages, response))
    if stop == "refusal":
        details = response.stop_details
        why = tr(" (category: {category}; {explanation})", category=details.category,
                 explanation=details.explanation) if details else ""
        raise history.fail(Refused(tr("the model refused to continue{why}; retrying will not help", why=why),
                                   messages, response))
    if stop == "model_context_window_exceeded":
        raise history.fail(ContextWindowExceeded(
            tr("the conversation no longer fits the model's context window; start afresh with shorter tool results, "
               "or let the server clear old ones (context editing)"), messages, response))
    raise history.fail(UnexpectedStopReason(tr("unexpected stop_reason {stop!r}", stop=stop), messages, response))
