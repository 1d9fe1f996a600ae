"""Every open merge request at half price: the reviewer's agent loops, driven through the Message
Batches API (`course-agent review --all-open --batch`).

    loops = one per merge request: its messages, saved to its own transcript
    repeat until every loop has ended:
        ONE batch: the next request of every unfinished loop
        wait until the batch has ended
        each answer goes through loop.step(), as in run_agent: the response appended whole, every
        tool run (errors as is_error results), all results in ONE user message, pause_turn sent
        back as it is; a loop that fails (an errored request, a refusal...) ends alone
        a loop that reached the cap ends with IterationLimitReached

A loop's whole state is its messages list: each is saved as it grows, so `--resume DIR` picks
every unfinished loop up from its transcript. A batch costs half the price of the same requests
sent one by one (docs: batch processing).
"""

import contextlib
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import anthropic
from anthropic.types import Message, MessageParam, ToolUseBlock, Usage

from . import transcript as transcripts
from .i18n import tr
from .loop import (
    DEFAULT_MAX_TOKENS,
    AgentError,
    AgentResult,
    ApiFailed,
    History,
    Interrupted,
    LoopObserver,
    cap_reached,
    request_params,
    step,
)
from .prices import BATCH
from .redaction import redact
from .review import review, review_request, review_task
from .tools import Toolbox
from .transcript import Transcript
from .usage_chart import usage_rows

BATCH_PRICE = BATCH
"""A batch request costs half of the same request sent alone."""
MAX_POLL_SECONDS = 60.0
_TRANSCRIPT = re.compile(r"^review-(\d{1,10})\.jsonl$")


@dataclass
class ReviewLoop:
    """One merge request's agent loop; its messages are its whole state."""

    pr: int
    history: History
    iterations: int = 0
    usage: list[Usage] = field(default_factory=list)
    result: AgentResult | None = None
    error: AgentError | None = None
    last: Message | None = None
    """The latest response (for the progress line)."""

    @property
    def custom_id(self) -> str:
        return f"mr-{self.pr}"

    @property
    def messages(self) -> list[MessageParam]:
        return self.history.messages

    @property
    def done(self) -> bool:
        return self.result is not None or self.error is not None


def transcript_path(directory: Path, pr: int) -> Path:
    return directory / f"review-{pr}.jsonl"


def start_loops(prs: Iterable[int], directory: Path, *, post: bool, language: str) -> list[ReviewLoop]:
    """A new loop per merge request, its task saved at once to directory/review-<pr>.jsonl."""
    loops = []
    for pr in prs:
        history = History([], Transcript(transcript_path(directory, pr)), ())
        history.append({"role": "user", "content": review_task(pr, post, language)})
        loops.append(ReviewLoop(pr, history))
    return loops


def saved_reviews(directory: Path) -> dict[int, Path]:
    """The review transcripts in `directory` (review-<pr>.jsonl), by merge request; other files are ignored."""
    return {int(m.group(1)): path for path in directory.iterdir() if (m := _TRANSCRIPT.match(path.name))}


def asked_to_post(pr: int, path: Path) -> bool:
    """Whether the review of !pr saved in `path` was started with post=True (its task asks to post it)."""
    messages = transcripts.load(path)
    task = messages[0].get("content") if messages and messages[0].get("role") == "user" else None
    return task in (review_task(pr, True, "en"), review_task(pr, True, "ru"))


def resume_loops(directory: Path, toolbox: Toolbox) -> list[ReviewLoop]:
    """The unfinished loops saved in `directory` (review-<pr>.jsonl), each as its transcript left it. A
    response whose tools never ran (the process stopped in between) gets them run now: posting is
    idempotent, so a comment is not posted twice."""
    saved = saved_reviews(directory)
    loops = []
    for pr, path in sorted(saved.items()):
        if transcripts.finished(path):
            continue
        history = History(transcripts.load(path), Transcript(path), ())
        last = history.messages[-1] if history.messages else None
        uses = [ToolUseBlock.model_validate(block) for block in (last or {}).get("content", [])
                if isinstance(block, dict) and block.get("type") == "tool_use"]
        if last and last["role"] == "assistant" and uses:
            history.append({"role": "user", "content": toolbox.run_all(uses)})
        _remember_writes(history.messages, toolbox)
        loops.append(ReviewLoop(pr, history))
    return loops


def _remember_writes(messages: list[MessageParam], toolbox: Toolbox) -> None:
    """Tell the GitLab tools behind `toolbox` what the review already wrote before it was interrupted:
    otherwise the clean-up after the resumed review would take the inline comments posted before the
    interruption for stale ones, and delete them."""
    results = {block.get("tool_use_id"): not block.get("is_error") for message in messages
               if message["role"] == "user" and isinstance(message["content"], list)
               for block in message["content"] if isinstance(block, dict) and block.get("type") == "tool_result"}
    for message in messages:
        if message["role"] != "assistant" or not isinstance(message["content"], list):
            continue
        for block in message["content"]:
            if not (isinstance(block, dict) and block.get("type") == "tool_use"):
                continue
            tool = toolbox.get(block.get("name", ""))
            owner = getattr(getattr(tool, "function", None), "__self__", None)
            if hasattr(owner, "remember"):
                owner.remember(block["name"], block.get("input") or {}, results.get(block.get("id"), False))


def run_batches(client: anthropic.Anthropic, loops: list[ReviewLoop], toolbox: Toolbox, *,
                model: str | None = None, max_tokens: int = DEFAULT_MAX_TOKENS, max_iterations: int = 20,
                cache: bool = True, progress: Callable[[str], None] | None = None,
                poll: float = 0.1) -> list[ReviewLoop]:
    """Drive the loops, one batch per round, until every one has ended (see the module's docstring)."""
    say = progress or (lambda line: print(line, file=sys.stderr, flush=True))
    request = review_request(cache)
    round_ = 0
    while unfinished := [loop for loop in loops if not loop.done]:
        round_ += 1
        try:
            answers = _one_batch(client, [
                {"custom_id": loop.custom_id,
                 "params": request_params(toolbox, loop.messages, model=model, max_tokens=max_tokens,
                                            request=request)}
                for loop in unfinished], poll)
        except anthropic.APIError as error:  # no batch this round: every unfinished loop stops here
            for loop in unfinished:
                failed = ApiFailed(tr("the API call failed: {error}", error=error), loop.messages)
                failed.__cause__ = error
                loop.error = loop.history.fail(failed)
                say(_progress_line(round_, loop))
            break
        for loop in unfinished:
            loop.iterations += 1
            _answer(loop, answers.get(loop.custom_id), toolbox, max_tokens)
            if not loop.done and loop.iterations >= max_iterations:
                # The cap, as in run_agent: a loop that gets nowhere does not run until the money runs out.
                loop.error = loop.history.fail(cap_reached(max_iterations, loop.messages))
            say(_progress_line(round_, loop))
    return loops


def review_in_turn(prs: Iterable[int], directory: Path, toolbox: Toolbox, *, post: bool, language: str,
                   max_iterations: int, observers: Sequence[LoopObserver] = (),
                   progress: Callable[[str], None] = print) -> list[ReviewLoop]:
    """The same reviews without batches: one after another, each through run_agent, ended like a batch's
    loops (result or error). Ctrl-C ends the one running and skips the rest."""
    loops = []
    for pr in prs:
        progress(f"== !{pr} ==")
        try:
            result = review(pr, toolbox=toolbox, post=post, language=language, max_iterations=max_iterations,
                            transcript=transcript_path(directory, pr), observers=observers)
            loops.append(ReviewLoop(pr, History(result.messages, None, ()), usage=result.usage, result=result))
        except AgentError as error:
            loops.append(ReviewLoop(pr, History(error.messages, None, ()), error=error))
            if isinstance(error, Interrupted):
                break
    return loops


def _answer(loop: ReviewLoop, answer, toolbox: Toolbox, max_tokens: int) -> None:
    """One batch result for one loop: a response goes through step(); a failed request ends the loop."""
    if answer is None or answer.type != "succeeded":
        kind = getattr(answer, "type", "missing")
        detail = getattr(getattr(getattr(answer, "error", None), "error", None), "message", "") or kind
        loop.error = loop.history.fail(ApiFailed(
            tr("the batch request failed ({kind}): {detail}", kind=kind, detail=detail), loop.messages))
        return
    loop.last = answer.message
    loop.usage.append(answer.message.usage)
    try:
        loop.result = step(answer.message, toolbox, loop.history, iteration=loop.iterations, max_tokens=max_tokens,
                           usage=loop.usage)
    except AgentError as error:
        loop.error = error


def _one_batch(client: anthropic.Anthropic, requests: list[dict], poll: float) -> dict:
    """Send the requests as one batch, wait (polling, the wait doubling up to a minute) until it has
    ended, and return its results by custom_id. Ctrl-C, or a failure while waiting, cancels the batch:
    --resume sends those requests again, so a batch left running would be paid for twice."""
    batch = client.messages.batches.create(requests=requests)
    try:
        while client.messages.batches.retrieve(batch.id).processing_status != "ended":
            time.sleep(poll)
            poll = min(poll * 2, MAX_POLL_SECONDS)
    except BaseException:
        with contextlib.suppress(anthropic.APIError):
            client.messages.batches.cancel(batch.id)
        raise
    return {entry.custom_id: entry.result for entry in client.messages.batches.results(batch.id)}


def _progress_line(round_: int, loop: ReviewLoop) -> str:
    """`[round 2] !482: tool_use -> read_file(...)`, or why the loop stopped."""
    if loop.error is not None:
        what = tr("stopped: {error}", error=str(loop.error).splitlines()[0])
    else:
        calls = [f"{b.name}({', '.join(f'{k}={v!r}' for k, v in b.input.items())})"[:80]
                 for b in loop.last.content if b.type == "tool_use"]
        what = str(loop.last.stop_reason) + (" -> " + ", ".join(calls) if calls else "")
    return redact(tr("[round {n}] !{pr}: {what}", n=round_, pr=loop.pr, what=what))


def billed(usage: Iterable[Usage], batch: bool, model: str | None = None) -> tuple[float, float]:
    """(input, output) tokens as billed: input in input-token prices (cache writes 1.25x, reads as
    course_agent.prices says for `model`), both at half price for a batch."""
    rows = usage_rows(list(usage), model)
    price = BATCH_PRICE if batch else 1.0
    return price * sum(row.billed for row in rows), price * sum(row.output for row in rows)
