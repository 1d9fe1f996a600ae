"""POST /v1/messages and /v1/messages/count_tokens: validate like the real API, ask the
simulated model, cut the answer at its limits, and bill it with prompt caching."""

import dataclasses
import hashlib
import itertools
import threading

from . import output_limits, receipts, request_rules, response_thinking, simulated_model, thinking
from .breadth import batches, compaction, context_editing, fallbacks, threads
from .conversation import BINDING_BETA, Turn, check_thinking, check_thinking_binding, check_tool_pairing
from .errors import invalid
from .models import KNOWN_MODELS
from .prompt_cache import PromptCache, count_input
from .request import Request
from .request_schema import first_problem
from .simulated_model.history import language, task_turn
from .tokens import count_block, count_text
from .words import words

MISBEHAVIOURS = ("refusal", "pause_turn", "max_tokens", "max_tokens_answer", "context_window", "stuck", "wandering",
                 "one_more_call", "bad_input", "stop_sequence", "unknown_stop", "doubled", "reversed_calls",
                 "mixed_turn", "mixed_turn_around", "unknown_tool", "as_is")
WAITING_ORDERS = {
    "max_tokens_answer": lambda calls: calls == 0,
    "one_more_call": lambda calls: calls == 0,
    "reversed_calls": lambda calls: calls >= 2,
    "bad_input": lambda calls: calls >= 1,
    "mixed_turn": lambda calls: calls >= 1,
    "mixed_turn_around": lambda calls: calls >= 1,
    "unknown_tool": lambda calls: calls >= 1,
}
"""Orders kept until a reply they fit comes, whichever turn that is: the answer (no tool call) to cut, a turn of
several calls to reverse, the answer to put off. The value says, from the reply's number of tool calls, whether it
fits."""
ORDERED_STOP_SEQUENCE = "\n\nVerdict:"
"""The stop sequence an ordered `stop_sequence` misbehaviour stops at, as if the request had set it."""
UNKNOWN_STOP_REASON = "sandbox_new_reason"
"""The stop reason of an ordered `unknown_stop`: a value no loop knows, as a future API version may send one."""
UNKNOWN_TOOL = "search_code"
"""The name an ordered `unknown_tool` call asks for: a tool the request does not offer (a model may name one from
the task, or from a tool list it saw before)."""


class MessagesApi:
    """The Messages API of one sandbox: its prompt cache and its context-window setting."""

    def __init__(self, context_window: int | None = None) -> None:
        self.cache = PromptCache()
        self.context_window = context_window
        """When set, replaces every model's context window (to show `model_context_window_exceeded`)."""
        self.forced: list[str] = []
        """Misbehaviours ordered for the next responses, first first (see Sandbox.force)."""
        self._forced_lock = threading.Lock()
        self.threads = threads.Threads()
        """Conversations held for message threads (beta)."""
        self.batches = batches.MessageBatches(lambda params, betas: self.create(params, betas)[0])
        """Message Batches, answered by this API in a background worker."""

    def force(self, *misbehaviours: str) -> None:
        """Queue misbehaviours for the next responses, one each, in order (see `misbehave`)."""
        for kind in misbehaviours:
            if kind not in MISBEHAVIOURS:
                raise ValueError(f"unknown misbehaviour {kind!r}: {', '.join(MISBEHAVIOURS)}")
        with self._forced_lock:
            self.forced.extend(misbehaviours)

    def _next_order(self, reply: "simulated_model.Reply") -> str | None:
        """The order this reply carries out, taken off the queue (under the lock): a waiting order (WAITING_ORDERS)
        stays until a reply fits it."""
        if not self.forced:
            return None
        fits = WAITING_ORDERS.get(self.forced[0])
        if fits is not None and not fits(sum(1 for b in reply.blocks if b["type"] == "tool_use")):
            return None
        return self.forced.pop(0)

    def close(self) -> None:
        """Stop the background work (the batch worker); the sandbox calls this when it stops."""
        self.batches.stop()

    def _validated(self, body: object, kind: str, betas: frozenset[str]
                   ) -> tuple[Request, list[Turn], str | None, list[dict], list[dict] | None]:
        """The request as the model reads it, its turns, its thread's state (`Threads.expand`), its fallback
        chain and the thinking blocks dropped (under the binding beta)."""
        problem = first_problem(body, kind)
        if problem:
            raise invalid(problem)
        assert isinstance(body, dict)
        request, thread = self.threads.expand(Request.parse(body, betas))
        context_editing.check(request)
        compaction.check(request, counting=kind == "count_tokens")
        request = compaction.resumed(request)  # a compaction block sent back: the model reads from it on
        turns, transformed = self._checked(request)
        chain = fallbacks.chain(request, set(KNOWN_MODELS))
        return request, turns, thread, chain, transformed

    def _checked(self, request: Request) -> tuple[list[Turn], list[dict] | None]:
        """The request's rules for its model, and its turns as the model reads them."""
        request_rules.check(request)
        turns = request.turns
        check_tool_pairing(turns)
        check_thinking(turns, request.thinking_mode)
        turns, transformed = check_thinking_binding(request, turns)
        return turns, (transformed if BINDING_BETA in request.betas else None)

    def count_tokens(self, body: object, betas: frozenset[str] = frozenset()) -> dict:
        request, turns, *_ = self._validated(body, "count_tokens", betas)
        if not request.context_management:
            return {"input_tokens": count_input(request, turns)}
        edited, _ = context_editing.apply(request, _count, count_block)
        return {"input_tokens": _count(edited),
                "context_management": {"original_input_tokens": count_input(request, turns)}}

    def create(self, body: object, betas: frozenset[str] = frozenset()) -> tuple[dict, dict[int, str]]:
        """The response message, and the JSON text of any tool input cut short (for streaming)."""
        request, turns, thread, chain, transformed = self._validated(body, "request", betas)
        if request.compaction is not None:
            message, partial = self._compacted(request, turns, on_demand=True), {}
        else:
            message, partial = self._managed(request, turns)
        if transformed is not None:  # reported only under the binding beta, as `[]` when there is nothing
            message["input_transformations"] = transformed
        if message["stop_reason"] == "refusal" and chain:
            message, partial = self._fall_back(request, message, chain) or (message, partial)
        if thread is not None:
            self.threads.hold(request, message, thread)
        asked = next((turn.text() for turn in reversed(turns) if turn.role == "user"), "")
        receipts.keep(message, asked)
        return message, partial

    def _fall_back(self, request: Request, refused: dict, chain: list[dict]) -> tuple[dict, dict[int, str]] | None:
        """The first fallback model's answer, marked where the refusing model gave way; None if all refuse."""
        for entry in chain:
            hop = fallbacks.attempt(request, entry)  # with the request's betas: the attempt is the same request
            turns, _ = self._checked(hop)
            served, partial = self._managed(hop, turns, first_try=False)  # the same edits apply
            if served["stop_reason"] == "refusal":
                continue
            category = (refused["stop_details"] or {}).get("category")
            served["content"] = [fallbacks.marker(request.model, hop.model, category), *served["content"]]
            served["usage"]["iterations"] = [
                {**_iteration(refused["usage"]), "type": "message", "model": request.model},
                {**_iteration(served["usage"]), "type": "fallback_message", "model": hop.model},
            ]
            return served, {i + 1: text for i, text in partial.items()}
        return None

    def _managed(self, request: Request, turns: list[Turn], first_try: bool = True) -> tuple[dict, dict[int, str]]:
        """The answer to a request after its context edits, and a compaction when it reached the trigger."""
        edited, applied = context_editing.apply(request, _count, count_block)
        edited_turns = edited.turns if applied else turns
        edit = compaction.threshold_edit(request)
        if edit is None or count_input(edited, edited_turns) < compaction.trigger(edit):
            message, partial = self._answer(edited, edited_turns, first_try, signed_as=(request, turns))
        elif edit.get("pause_after_compaction"):
            message, partial = self._compacted(edited, edited_turns, on_demand=False), {}
        else:
            summary = compaction.block(edited_turns, signed=False)
            after = compaction.resumed(edited.with_messages([{"role": "assistant", "content": [summary]}]))
            after_turns = after.turns
            message, partial = self._answer(after, after_turns, first_try, signed_as=(after, after_turns))
            message["content"] = [summary, *message["content"]]
            message["usage"]["iterations"] = [_compaction_usage(edited, edited_turns, summary),
                                              {**_iteration(message["usage"]), "type": "message"}]
            partial = {i + 1: text for i, text in partial.items()}
        if "context_management" in request.sent:
            message["context_management"] = {"applied_edits": applied}
        return message, partial

    def _compacted(self, request: Request, turns: list[Turn], on_demand: bool) -> dict:
        """A response that is the compaction block alone: on demand, or a threshold compaction that pauses."""
        summary = compaction.block(turns, signed=on_demand)
        work = _compaction_usage(request, turns, summary)
        # The summarising step is billed as the `compaction` iteration; on demand it is the whole request.
        top = {k: (v if on_demand else 0) for k, v in work.items() if k not in ("type", "cache_creation")}
        return {
            "id": "msg_01" + request.digest[:22], "type": "message", "role": "assistant",
            "model": request.model, "content": [summary], "stop_reason": "compaction", "stop_sequence": None,
            "stop_details": None,
            "usage": {**top, "cache_creation": work["cache_creation"], "service_tier": "standard",
                      "iterations": [work]},
        }

    def _answer(self, request: Request, turns: list[Turn], first_try: bool = True,
                signed_as: tuple[Request, list[Turn]] | None = None) -> tuple[dict, dict[int, str]]:
        """One model's response to a checked request, cut at its limits and billed. `signed_as`: the request
        its thinking is bound to, when the model read an edited copy (context editing)."""
        limits, max_tokens = request.profile, request.max_tokens
        assert max_tokens is not None  # the schema requires it of a request that is answered
        if max_tokens > limits.max_output_tokens:
            raise invalid(f"max_tokens: {max_tokens} > {limits.max_output_tokens}, which is the maximum "
                          f"allowed number of output tokens for {request.model}")
        mode, budget = request.thinking_mode, request.thinking_budget
        if mode == "enabled" and budget is not None and max_tokens <= budget:
            raise invalid("`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
                          "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
                          "#max-tokens-and-context-window-size")
        window = self.context_window or limits.context_window
        usage = self.cache.usage(request, turns, limits.min_cacheable_tokens)
        if usage.total_input > window:
            raise invalid(f"prompt is too long: {usage.total_input} tokens > {window} maximum")

        digest = request.digest
        counter = itertools.count()
        new_id = lambda prefix: prefix + hashlib.sha256(f"{digest}/{next(counter)}".encode()).hexdigest()[:22]  # noqa: E731
        forced = None
        if max_tokens == 0:  # the API's cache pre-warming: the prompt is cached, nothing is generated
            reply = simulated_model.Reply([], "max_tokens")
        else:
            reply = simulated_model.respond(request, turns, new_id)
            with self._forced_lock:
                forced = self._next_order(reply) if first_try else None
            if forced is not None:
                reply = misbehave(forced, reply, turns, new_id)
        blocks = list(reply.blocks)
        continuing = turns[-1].role == "assistant"  # a paused turn resumed: its thinking came before the pause
        if reply.stop_reason != "refusal" and max_tokens and not continuing:
            thought = simulated_model.thoughts(reply, request, turns, request.effort, adaptive=mode != "enabled")
            blocks = response_thinking.with_thinking(blocks, thought, mode, limits, request.forces_tool)
        sequences = [*request.stop_sequences, *([ORDERED_STOP_SEQUENCE] if forced == "stop_sequence" else [])]
        shaped = output_limits.shape(blocks, reply.stop_reason, max_tokens, window - usage.total_input, sequences)
        signing_request, signing_turns = signed_as or (request, turns)
        shaped.blocks = thinking.signed(signing_request, signing_turns,
                                        response_thinking.displayed(shaped.blocks, request.thinking_display))
        if max_tokens == 0:
            shaped.output_tokens = 0
        wire_usage: dict = {
            "input_tokens": usage.input_tokens,
            "cache_creation_input_tokens": usage.cache_creation_input_tokens,
            "cache_read_input_tokens": usage.cache_read_input_tokens,
            "cache_creation": {
                "ephemeral_5m_input_tokens": usage.cache_creation_input_tokens - usage.cache_creation_1h,
                "ephemeral_1h_input_tokens": usage.cache_creation_1h,
            },
            "output_tokens": shaped.output_tokens,
            "service_tier": "standard",
        }
        searches = sum(1 for b in shaped.blocks if b["type"] == "server_tool_use")
        if searches:
            wire_usage["server_tool_use"] = {"web_search_requests": searches, "web_fetch_requests": 0}
        message = {
            "id": "msg_01" + digest[:22],
            "type": "message",
            "role": "assistant",
            "model": request.model,
            "content": shaped.blocks,
            "stop_reason": shaped.stop_reason,
            "stop_sequence": shaped.stop_sequence,
            "stop_details": reply.stop_details if shaped.stop_reason == "refusal" else None,
            "usage": wire_usage,
        }
        self.cache.store(usage)  # only now: a request refused on the way changes nothing
        return message, shaped.partial_json


def _another_input(tool_input: object, n: int) -> object:
    """The input with its first number moved on by n (the next merge request, the next line), or else its first
    string marked with n: a call no earlier one equals (n = 0: the input itself)."""
    if not isinstance(tool_input, dict) or n == 0:
        return tool_input
    for key, value in tool_input.items():
        if isinstance(value, int) and not isinstance(value, bool):
            return {**tool_input, key: value + n}
    for key, value in tool_input.items():
        if isinstance(value, str):
            return {**tool_input, key: f"{value}-{n}"}
    return tool_input


def misbehave(kind: str, reply: "simulated_model.Reply", turns, new_id) -> "simulated_model.Reply":
    """The reply turned into an ordered misbehaviour, for demos and the self-check.

    refusal: the model refuses (stop_details, no content). pause_turn: the turn pauses before
    its work. max_tokens: a tool call (or the text) is cut in the middle; max_tokens_answer: the first reply without
    a tool call (the answer) is cut half-way, the replies before it left as they are; context_window: the same cut,
    made by the model's context window filling up (model_context_window_exceeded). stuck: the model asks
    for the same tool again instead of answering, as a model stuck in a loop does; wandering: the same tool again
    with another input each time (the next merge request, the next line), never one call twice; one_more_call: the
    answer (the first reply without a tool call) put off once, the last call asked again instead. stop_sequence: the
    model writes a sentence and then ORDERED_STOP_SEQUENCE, where the response stops (stop_reason "stop_sequence").
    unknown_stop: the reply as it was, with UNKNOWN_STOP_REASON, a stop reason no loop knows. doubled: every tool
    call of the reply asked twice in the same turn (each with its own id), as a model that repeats a call does.
    reversed_calls: the first reply with several tool calls asks them the other way round. bad_input: the first
    reply with a tool call sends its first call without arguments (stop_reason tool_use: not a cut). mixed_turn:
    the first reply with a tool call also asks, after its own calls, the conversation's first call again (a fresh
    id), as a model that checks something once more while it acts: a turn that mixes tools (a merge and a read).
    mixed_turn_around: the same, with the first call asked again both before and after the reply's own calls (a
    read, a merge, a read): results put first or last out of their place are both seen. unknown_tool: the first
    reply with a tool call also asks, after its own calls, for UNKNOWN_TOOL, a tool the request does not offer.
    as_is: the reply as it was, so that an order can start later ("as_is", "pause_turn" pauses the second turn).
    """
    if kind == "as_is":
        return reply
    if kind == "doubled":
        blocks = []
        for block in reply.blocks:
            blocks.append(block)
            if block["type"] == "tool_use":
                blocks.append({**block, "id": new_id("toolu_01")})
        return dataclasses.replace(reply, blocks=blocks)
    if kind == "refusal":
        lang = language(task_turn(turns).text())  # the model answers in the task's language; so does this note
        return simulated_model.Reply([], "refusal", stop_details={
            "type": "refusal", "category": "cyber",
            "explanation": words(lang, "A practice refusal: the sandbox turned this request down on purpose.")})
    if kind == "pause_turn":
        # A paused turn carries the server tool's work so far: a loop that drops it is seen to drop it.
        use_id = new_id("srvtoolu_01")
        return simulated_model.Reply([
            {"type": "text", "text": "Let me look into this first."},
            {"type": "server_tool_use", "id": use_id, "name": "web_search", "input": {"query": "agent loop rules"}},
            {"type": "web_search_tool_result", "tool_use_id": use_id, "content": [
                {"type": "web_search_result", "title": "The agent loop", "url": "https://search.sandbox.invalid/",
                 "encrypted_content": "sandbox", "page_age": None}]},
        ], "pause_turn")
    if kind == "bad_input":  # the first call without its arguments, as a model without strict tools may send it
        first = next(i for i, b in enumerate(reply.blocks) if b["type"] == "tool_use")
        return dataclasses.replace(reply, blocks=[{**b, "input": {}} if i == first else b
                                                  for i, b in enumerate(reply.blocks)])
    if kind == "unknown_tool":  # a call of a tool nobody offered: the loop's lookup fails, and must say so
        unknown = {"type": "tool_use", "id": new_id("toolu_01"), "name": UNKNOWN_TOOL, "input": {"query": "discount"}}
        return dataclasses.replace(reply, blocks=[*reply.blocks, unknown])
    if kind in ("mixed_turn", "mixed_turn_around"):
        first = next((b for t in turns if t.role == "assistant" for b in t.of_type("tool_use")), None)
        if first is None:
            return reply
        after = [*reply.blocks, {**first, "id": new_id("toolu_01")}]
        if kind == "mixed_turn":
            return dataclasses.replace(reply, blocks=after)
        at = next(i for i, b in enumerate(after) if b["type"] == "tool_use")  # the calls follow the turn's text
        return dataclasses.replace(reply, blocks=[*after[:at], {**first, "id": new_id("toolu_01")}, *after[at:]])
    if kind == "reversed_calls":  # the same calls, the last first: results put in another order are seen
        calls = iter([b for b in reply.blocks if b["type"] == "tool_use"][::-1])
        return dataclasses.replace(reply, blocks=[next(calls) if b["type"] == "tool_use" else b for b in reply.blocks])
    if kind == "max_tokens_answer":  # the answer's last text stops mid-way, at the budget
        blocks = [dict(b) for b in reply.blocks]
        last = next((b for b in reversed(blocks) if b["type"] == "text"), None)
        if last is not None:
            said = last["text"].split(" ")
            last["text"] = " ".join(said[: max(1, len(said) // 2)])
        return simulated_model.Reply(blocks, "max_tokens")
    if kind in ("max_tokens", "context_window"):
        cut = []
        for block in reply.blocks:
            # the cut comes just before the call's input ends: what was written binds, and runs, wrongly (its last
            # value unfinished: !48 for !482), so a loop that runs it by any path reaches GitLab, where it shows
            cut.append({**block, "input": output_limits.cut_short(block.get("input"))} if block["type"] == "tool_use"
                       else block)
            if block["type"] == "tool_use":
                break
        return simulated_model.Reply(cut, "max_tokens" if kind == "max_tokens" else "model_context_window_exceeded")
    if kind in ("stuck", "wandering", "one_more_call"):
        previous = [b for t in turns if t.role == "assistant" for b in t.of_type("tool_use")]
        use = previous[-1] if previous else next((b for b in reply.blocks if b["type"] == "tool_use"), None)
        if use is None:
            return reply
        if kind == "wandering":  # never the same call twice: a loop that only stops repeats is still not capped
            first = previous[0] if previous else use
            use = {**use, "name": first["name"], "input": _another_input(first.get("input"), len(previous))}
        said = "Let me look at one more thing." if kind == "wandering" else "Let me check that again."
        return simulated_model.Reply([{"type": "text", "text": said}, {**use, "id": new_id("toolu_01")}], "tool_use")
    if kind == "stop_sequence":
        lang = language(task_turn(turns).text())
        said = words(lang, "I have read the merge request.")
        return simulated_model.Reply([{"type": "text", "text": said + ORDERED_STOP_SEQUENCE + " ..."}], "end_turn")
    if kind == "unknown_stop":
        return simulated_model.Reply(list(reply.blocks), UNKNOWN_STOP_REASON)
    raise ValueError(f"unknown misbehaviour {kind!r}")


def _iteration(usage: dict) -> dict:
    """One attempt's token counts, as a `usage.iterations` entry carries them."""
    return {k: usage[k] for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                                  "cache_read_input_tokens", "cache_creation")}


def _count(request: Request) -> int:
    """Input tokens of a (possibly edited) request."""
    return count_input(request, request.turns)


def _compaction_usage(request: Request, turns: list[Turn], summary: dict) -> dict:
    """The `compaction` entry of `usage.iterations`: the summarising step read the request and wrote the summary."""
    return {"type": "compaction", "input_tokens": count_input(request, turns),
            "output_tokens": count_text(summary["content"]), "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}}
