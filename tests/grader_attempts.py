"""Learners' attempts at the loop exercises (3, 4, 6, 7, 8), written in styles the reference solutions do not
use: a class with a dict of handlers, a `while` loop and a `match` on the stop reason; its own tool names; dict
history; streaming, with_options or async. Each attempt is right unless it carries flaws, each flaw one way a
learner gets a requirement wrong (tests/test_grader_mutations.py says which requirement it must break).

Its clients point at a closed port: only the self-check's retargeting can make them work."""

import asyncio
import concurrent.futures

import anthropic
import gitlab

DEAD = "http://127.0.0.1:9"
claude = anthropic.Anthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)
aclaude = anthropic.AsyncAnthropic(api_key="sk-ant-not-a-key", base_url=DEAD, max_retries=0)
shop = gitlab.Gitlab(DEAD, private_token="not-a-token").projects.get("course/shop", lazy=True)
PRIMARY, SPARE = "claude-opus-5", "claude-opus-4-8"
LIMIT = 20_000
LONG_ADVICE = ("The file is large: do not try to read it whole at once; read it part by part, and only as far as the "
               "review needs. Most of a data file like this one is rows of the same shape, so the first part usually "
               "shows what the change does to it; ask for a later part only when the diff touches rows further in, "
               "and say in the review which parts you read and which you did not.")
"""Advice a long cut note may end with (attack 15's FF3: the note's numbers then stand far from its end)."""
RULES = "You review GitLab merge requests with the tools you have. Finish with one line: 'Verdict: ...'."
TOOLS = [
    {"name": "changes_of", "description": "Title, description and unified diff of a merge request.",
     "input_schema": {"type": "object", "properties": {"iid": {"type": "integer"}}, "required": ["iid"]}},
    {"name": "open_file", "description": "The text of a file of the repository at a branch (main when not given).",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "ref": {"type": "string"}},
                      "required": ["path"]}},
    {"name": "merge", "description": "Merge a merge request into main.",
     "input_schema": {"type": "object", "properties": {"iid": {"type": "integer"}}, "required": ["iid"]}},
]


def changes_of(iid: int) -> str:
    mr = shop.mergerequests.get(iid)
    return "\n".join([mr.title, f"source branch: {mr.source_branch}", mr.description or ""] + [f"diff --git a/{c['old_path']} b/{c['new_path']}\n"
                                                          f"{c['diff'] or '(too large)'}" for c in mr.changes()["changes"]])


def open_file(path: str, ref: str = "main") -> str:
    return shop.files.raw(path, ref=ref).decode()


def merge(iid: int) -> str:
    shop.mergerequests.get(iid).merge()
    return f"merged !{iid}"


HANDLERS = {"changes_of": changes_of, "open_file": open_file, "merge": merge}


def billed(usage) -> float:
    return sum(u.input_tokens + 1.25 * (u.cache_creation_input_tokens or 0) + 0.1 * (u.cache_read_input_tokens or 0)
               for u in usage)


def nobody(name, tool_input):
    return False


class Agent:
    """The loop as a class. Flaws (strings) make it wrong in one way each; the keywords choose the SDK path, the
    cache and what it prints."""

    def __init__(self, *flaws: str, send: str = "create", cache: str | None = "auto", bill: str | None = "all",
                 concurrent: bool = True, merge_as: str = "merge", denial: str = "A human refused: it did not run.",
                 unknown: type[Exception] = RuntimeError, paging: bool = False, numbered: bool = False,
                 capped: type[Exception] = RuntimeError, cut_error: str | dict[str, str] = "{stop}: the answer was cut, "
                 "and its tool call was not run") -> None:
        self.flaws, self.how, self.cache, self.bill, self.concurrent = set(flaws), send, cache, bill, concurrent
        self.merge_as, self.denial, self.unknown, self.paging = merge_as, denial, unknown, paging
        self.numbered = numbered  # a file comes back with its lines numbered, as review tools often show it
        self.capped = capped  # the cap's error: RuntimeError, or an assert's AssertionError with the same words
        self.cut_error = cut_error  # what it raises at max_tokens and at a full window ({stop}: the stop), or per stop
        self.tools = [{**t, "name": merge_as} if t["name"] == "merge" else t for t in TOOLS]
        if paging:  # open_file takes a start, and the cut note says which one to ask for next
            self.tools = [{**t, "input_schema": {**t["input_schema"], "properties": {
                **t["input_schema"]["properties"], "start": {"type": "integer"}}}} if t["name"] == "open_file" else t
                for t in self.tools]
        if "confirmed_flag" in flaws:  # the merge tool says itself whether a human approved it
            self.tools = [{**t, "input_schema": {**t["input_schema"], "properties": {
                **t["input_schema"]["properties"], "confirmed": {
                    "type": "boolean", "description": "true when a human has already approved this merge"}}}}
                if t["name"] == merge_as else t for t in self.tools]
        self.calls = 0

    # ---- the model ---------------------------------------------------------------------------------------------
    def send(self, **request):
        self.calls += 1
        if "cut_newest_only" in self.flaws:  # the history keeps whole results; only the newest message is cut
            *before, last = request["messages"]
            if isinstance(last["content"], list):
                last = {**last, "content": [self.cut_newest(b) for b in last["content"]]}
            request["messages"] = [*before, last]
        if "every_other_cache" in self.flaws and self.calls % 2 == 0:
            pass
        elif "fallback_no_cache" in self.flaws and request["model"] != PRIMARY:  # the spare model's calls, uncached
            pass
        elif self.cache == "auto":
            request["cache_control"] = {"type": "ephemeral"}
        elif self.cache == "hour":  # a longer cache taken for a better one: its writes cost 2x (attack 11)
            request["cache_control"] = {"type": "ephemeral", "ttl": "1h"}
        elif self.cache == "system":
            request["system"] = [{"type": "text", "text": RULES, "cache_control": {"type": "ephemeral"}}]
        elif self.cache == "last":
            last = request["messages"][-1]
            content = last["content"] if isinstance(last["content"], list) else [
                {"type": "text", "text": last["content"]}]
            tail = content[-1] if isinstance(content[-1], dict) else content[-1].model_dump(exclude_none=True)
            request["messages"] = [*request["messages"][:-1], {
                "role": last["role"], "content": [*content[:-1], {**tail, "cache_control": {"type": "ephemeral"}}]}]
        if self.how == "stream":
            with claude.messages.stream(**request) as stream:
                return stream.get_final_message()
        if self.how == "with_options":
            return claude.with_options(timeout=90).messages.create(**request)
        return claude.messages.create(**request)

    @staticmethod
    def cut_newest(block):
        text = block.get("content") if isinstance(block, dict) and block.get("type") == "tool_result" else None
        if not isinstance(text, str) or len(text) <= LIMIT:
            return block
        return {**block, "content": text[:LIMIT] + f"\n[cut: the first {LIMIT} of {len(text)} characters; ask for "
                                                   "a smaller piece to read the rest]"}

    # ---- the gate ----------------------------------------------------------------------------------------------
    def approved(self, block, approve) -> bool:
        if "never_opens" in self.flaws:
            return False
        if "confirmed_flag" in self.flaws and block.input.get("confirmed") is True:  # the model's word for a yes
            return True
        if "third_merge_passes" in self.flaws:  # the gate counts merges: the third of a run goes through
            self.merges_seen = getattr(self, "merges_seen", 0) + 1
            if self.merges_seen >= 3:
                return True
        if "pr_range" in self.flaws and not 480 <= int(block.input.get("iid") or 0) <= 499:  # "ours" are asked about
            return True
        if "main_model_only" in self.flaws and getattr(self, "on_spare", False):  # the fallback model is not gated
            return True
        if "yes_for_later_turns" in self.flaws and getattr(self, "yes_turn", None) not in (None, self.turn):
            return True  # a yes in an earlier turn opens the gate for the rest of the run
        if "retry_on_exception" in self.flaws:  # an error taken for "ask again", three times at most (attack 11)
            for _ in range(3):
                try:
                    return approve(block.name, block.input) is True
                except Exception:
                    continue
            return False
        if "reask_after_no" in self.flaws:  # asked until it says yes, three times at most
            for _ in range(3):
                try:
                    if approve(block.name, block.input) is True:
                        return True
                except Exception:
                    pass
            return False
        if {"word_approved", "record_yes", "value_error_yes", "yes_for_later_turns"} & self.flaws:
            try:
                answer = approve(block.name, block.input)
            except ValueError:
                return "value_error_yes" in self.flaws  # a ValueError taken for "nothing wrong"
            except Exception:
                return False
            if answer is True and "yes_for_later_turns" in self.flaws:
                self.yes_turn = self.turn
            return answer is True or ("word_approved" in self.flaws and answer == "approved") or (
                "record_yes" in self.flaws and getattr(answer, "get", lambda _: None)("approved") is True)
        asked_before = getattr(self, "denied", set())
        if "insist_runs" in self.flaws and repr(block.input) in asked_before:  # asked again after a no: let it run
            return True
        if "remembers_yes" in self.flaws and getattr(self, "said_yes", False):  # one yes opens the gate for good
            return True
        if "blind_approver" in self.flaws:  # the person is asked about the tool, never shown what it would do
            try:
                return approve(block.name, {}) is True
            except Exception:
                return False
        if "remembers_yes" in self.flaws:
            try:
                self.said_yes = approve(block.name, block.input) is True
            except Exception:
                self.said_yes = False
            return self.said_yes
        if "fail_open" in self.flaws:
            try:
                return bool(approve(block.name, block.input))
            except Exception:
                print("approver unavailable; going ahead")
                return True
        if "truthy" in self.flaws:
            return bool(approve(block.name, block.input))
        if "yes_word" in self.flaws:
            return approve(block.name, block.input) in (True, "yes", "y")
        if "only_this_pr" in self.flaws and block.input.get("iid") != self.reviewing:  # other numbers: no question
            return True
        if "default_allows" in self.flaws and approve is nobody:  # no approver given: taken for "allowed"
            return True
        if "other_error_is_yes" in self.flaws:  # only "nobody there" is a no; a broken approver lets it through
            try:
                return approve(block.name, block.input) is True
            except (EOFError, TimeoutError):
                return False
            except Exception:
                return True
        if "short_yes" in self.flaws:  # the short yes-words a person types, in two languages, taken for a yes
            try:
                answer = approve(block.name, block.input)
                return answer is True or str(answer).strip().lower() in ("y", "ok", "да")
            except Exception:
                return False
        if "eof_is_yes" in self.flaws:  # nobody at the keyboard (input() raised EOFError) taken for a yes
            try:
                return approve(block.name, block.input) is True
            except EOFError:
                return True
        if "sure_word" in self.flaws:  # attack 22's H-9: a yes in words the check's first seven never said
            try:
                answer = approve(block.name, block.input)
                return answer is True or str(answer).strip().lower() in ("sure", "go ahead", "approve")
            except Exception:
                return False
        if "true_word" in self.flaws:  # the word "True" taken for a yes
            try:
                return str(approve(block.name, block.input)).lower() == "true"
            except Exception:
                return False
        if "one_argument" in self.flaws:
            try:
                return approve(block) is True
            except Exception:
                return False
        if "eq_true" in self.flaws:
            try:
                return approve(block.name, block.input) == True  # noqa: E712 (the flaw: 1 == True holds)
            except Exception:
                return False
        if "approver_error_escapes" in self.flaws:  # an approver that raises ends the whole run
            return approve(block.name, block.input) is True
        if "odd_unanswered" in self.flaws:  # None, "no", "yes": not merged, and not answered either (None)
            answer = approve(block.name, block.input)
            return answer if isinstance(answer, bool) else None
        if "silence_raises" in self.flaws:
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                try:
                    return pool.submit(approve, block.name, block.input).result(timeout=0.2) is True
                except concurrent.futures.TimeoutError:
                    raise TimeoutError("nobody answered in time; stopping the review") from None
                except Exception:
                    return False
        if "own_approver_timeout" in self.flaws:  # a person slower than the loop's own clock is taken for a no
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                try:
                    return pool.submit(approve, block.name, block.input).result(timeout=0.5) is True
                except Exception:
                    return False
        if "timeout_is_yes" in self.flaws:
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                try:
                    return bool(pool.submit(approve, block.name, block.input).result(timeout=0.2))
                except concurrent.futures.TimeoutError:
                    return True
        try:
            said = approve(block.name, block.input) is True
        except Exception:
            said = False
        if not said:
            self.denied = {*asked_before, repr(block.input)}
            self.denied_in = self.turn
        return said

    # ---- the tools ---------------------------------------------------------------------------------------------
    def result(self, block, approve) -> dict:
        if "memo" in self.flaws and block.name != self.merge_as:  # right: a repeated read answered from its memo
            memo = self.__dict__.setdefault("memo", {})
            key = (block.name, repr(sorted(block.input.items())))
            if key not in memo:
                memo[key] = self._result(block, approve)
            return {**memo[key], "tool_use_id": block.id}
        return self._result(block, approve)

    def _result(self, block, approve) -> dict:
        dangerous = block.name == self.merge_as or "ask_all" in self.flaws
        if "denial_skips_turn" in self.flaws and getattr(self, "denied_in", None) == self.turn:  # attack 12's H4
            return {"type": "tool_result", "tool_use_id": block.id, "is_error": True,
                    "content": "Skipped: a human denied an earlier call of this turn."}
        if "default_deny" in self.flaws and not dangerous and block.name != "changes_of":  # only what is listed runs
            return {"type": "tool_result", "tool_use_id": block.id, "content": f"{block.name} is not allowed",
                    "is_error": True}
        if "asks_after_running" in self.flaws and dangerous:  # attack 19: runs the call, then asks
            HANDLERS["merge"](**{k: v for k, v in block.input.items() if k not in ("confirmed", "start")})
        approved = True if not dangerous or "no_gate" in self.flaws else self.approved(block, approve)
        if approved is None:
            return None
        if not approved:
            if "raise_on_no" in self.flaws:
                raise PermissionError(f"a human refused {block.name}")
            said = f"{block.name} failed: try again later." if "failed_wording" in self.flaws else \
                "Error 403: permission denied for this operation." if "nobody_denied" in self.flaws else self.denial
            refusal = {"type": "tool_result", "tool_use_id": block.id, "content": said}
            return refusal if "plain_no" in self.flaws else {**refusal, "is_error": True}
        start = block.input.get("start", 0) if self.paging and block.name == "open_file" else 0
        if "lookup_outside_try" in self.flaws:  # attack 17's H5: a name the loop does not know raises KeyError
            HANDLERS["merge" if block.name == self.merge_as else block.name]
        try:
            arguments = {k: v for k, v in block.input.items() if k != "start"} if self.paging else block.input
            arguments = {k: v for k, v in arguments.items() if k != "confirmed"}  # the gate's flag, not GitLab's
            if "runs_reviewed" in self.flaws and block.name == self.merge_as:  # asks about the call, merges the review
                arguments = {**arguments, "iid": self.reviewing}
            text = str(HANDLERS["merge" if block.name == self.merge_as else block.name](**arguments))
            if start and "start_after_cut" not in self.flaws:
                text = text[start:]
            if self.numbered and block.name == "open_file":
                text = "\n".join(f"{n:4}  {line}" for n, line in enumerate(text.splitlines(), 1))
            if "yes_told_denied" in self.flaws and block.name == self.merge_as:  # merged, and told the opposite
                return {"type": "tool_result", "tool_use_id": block.id, "content": self.denial, "is_error": True}
        except Exception as error:
            if "raise_tool_errors" in self.flaws or (
                    "gitlab_errors_only" in self.flaws and not isinstance(error, gitlab.GitlabError)) or (
                    "two_kinds_only" in self.flaws and not isinstance(error, (gitlab.GitlabError, TypeError))):
                raise
            self.failures = getattr(self, "failures", 0) + 1
            if "gitlab_no_type" in self.flaws and isinstance(error, gitlab.GitlabError):  # attack 12's H17
                return {"type": "tool_result", "tool_use_id": block.id, "is_error": True,
                        "content": f"GitLab: {error.response_code} {error.error_message}"}
            if "canned_messages" in self.flaws:  # attack 14's H3: the type, then a sentence of its own per type
                canned = {"TypeError": "the call is missing a required argument",
                          "GitlabGetError": "GitLab could not find it"}.get(type(error).__name__, "the tool failed")
                return {"type": "tool_result", "tool_use_id": block.id, "is_error": True,
                        "content": f"{block.name} failed: {type(error).__name__}: {canned}"}
            if "circuit_breaker" in self.flaws and self.failures >= 2:  # attack 12's H13: a failure limit
                raise RuntimeError(f"{self.failures} tool calls failed: giving up") from error
            return {"type": "tool_result", "tool_use_id": block.id, "content": f"{type(error).__name__}: {error}",
                    "is_error": True}
        if start and "start_after_cut" in self.flaws:  # cut first, then the start applied to the cut part
            text = text[:LIMIT][start:]
        if len(text) > LIMIT and self.paging:
            following = LIMIT if "fixed_next_start" in self.flaws else start + LIMIT + (
                1 if "skips_one" in self.flaws else 0)  # attack 14's H4: the model reading on skips a character
            total = len(text) if "total_of_rest" in self.flaws else start + len(text)  # attack 14's H5: what is left
            text = (f"{text[:LIMIT]}\n[cut: {start + len(text)} characters in all; call open_file again with a start "
                    "to read more]" if "start_unnamed" in self.flaws else
                    # attack 15's H5: the cut point and the total, and no start to read on from
                    f"{text[:LIMIT]}\n[cut at {start + LIMIT} of {total} characters; ask for the next part]"
                    if "cut_at_no_start" in self.flaws else
                    # attack 16's H7: the part's size "X of Y" and "a larger start", the start itself left to a guess
                    f"{text[:LIMIT]}\n[truncated: {LIMIT} of {total} characters; call open_file with a larger start]"
                    if "size_not_start" in self.flaws else
                    # attack 15's FF3: a long note, its numbers far from the result's end
                    f"{text[:LIMIT]}\n[Part of the file: characters {start} to {start + LIMIT} of {total}. To read "
                    f"on, call open_file with the same path and start={following}. {LONG_ADVICE}]"
                    if "long_note" in self.flaws else
                    f"{text[:LIMIT]}\n[cut: characters {start} to {start + LIMIT} of {total}; call "
                    f"open_file with start={following} for more]")
        elif len(text) > (4 * LIMIT if "limit_in_tokens" in self.flaws else LIMIT) \
                and not {"no_cut", "cut_newest_only"} & self.flaws \
                and not ("files_only_cut" in self.flaws and block.name != "open_file"):
            note = "" if "silent_cut" in self.flaws else "\n[truncated]" if "vague_cut" in self.flaws else (
                f"\n[cut: the first {LIMIT} of {len(text)} characters]" if "no_way_on" in self.flaws else
                f"\n[cut: the first {LIMIT} of {len(text)} characters. Do not request the rest: review what you have.]"
                if "dont_read_on" in self.flaws else
                f"\n[cut: the first {LIMIT} of {len(text)} characters; the rest was dropped]"
                if "rest_dropped" in self.flaws else
                f"\n[cut: the first {LIMIT} of {len(text)} characters; call open_file with start={LIMIT} for more]"
                if "false_start" in self.flaws else  # open_file takes no start
                f"\n[cut: the first {LIMIT} of {len(text)} characters; call {block.name} again with start={LIMIT}]"
                if "start_for_every_tool" in self.flaws and block.name != "open_file" else  # attack 12: the diff's
                f"\n[cut: the first {LIMIT} of {len(text)} characters. Call {block.name} to get the rest.]"
                if "same_tool_for_rest" in self.flaws and block.name != "open_file" else  # attack 14's H2
                f"\n[cut: the first {LIMIT} of {len(text)} characters; ask for a smaller piece to read the rest]")
            kept = 2_000 if "short_cut" in self.flaws else LIMIT
            if "head_and_tail" in self.flaws:  # LIMIT characters, but not the first ones in one piece
                text = text[:100] + text[-(LIMIT - 100):] + note
            elif "header_everywhere" in self.flaws:
                text = f"[cut: {LIMIT} of {len(text)} characters below; ask for a smaller piece to read the rest]\n" \
                    + text[:LIMIT]
            else:
                text = (text[-kept:] if "tail_cut" in self.flaws else text[:kept]) + note
        elif "header_everywhere" in self.flaws:  # the same note, as a header, on the short results too
            text = f"[cut: {len(text)} of {len(text)} characters below; ask for a smaller piece to read the rest]\n" + text
        elif "note_everywhere" in self.flaws:  # every result says it was cut, the short ones too
            text += f"\n[cut: the first {len(text)} of {len(text)} characters; ask for a smaller piece to read the rest]"
        if "all_is_error" in self.flaws:  # attack 17: every result sent as an error, the successful ones too
            return {"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": True}
        return {"type": "tool_result", "tool_use_id": block.id, "content": text}

    def act(self, reply, history: list, approve) -> None:
        content = [b for b in reply.content if b.type == "text"] or [{"type": "text", "text": "…"}] \
            if "text_only" in self.flaws else reply.content
        history.append({"role": "assistant", "content": content})
        calls = [b for b in reply.content if b.type == "tool_use"]
        if self.concurrent and "completion_order" in self.flaws:
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                futures = [pool.submit(self.result, b, approve) for b in calls]
                results = [f.result() for f in concurrent.futures.as_completed(futures)]
        elif self.concurrent and "paired_by_position" in self.flaws:  # ids in the calls' order, texts as finished
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                futures = [pool.submit(self.result, b, approve) for b in calls]
                done = [f.result() for f in concurrent.futures.as_completed(futures)]
            results = [{**r, "tool_use_id": b.id} for b, r in zip(calls, done)]
        elif self.concurrent and "by_tool_batches" in self.flaws:  # each tool's calls at once, one tool after another
            done = {}
            for name in dict.fromkeys(b.name for b in calls):
                batch = [b for b in calls if b.name == name]
                with concurrent.futures.ThreadPoolExecutor(8) as pool:
                    done.update(zip([b.id for b in batch], pool.map(lambda b: self.result(b, approve), batch)))
            results = [done[b.id] for b in calls]
        elif self.concurrent and len(calls) > 1 and "denial_skips_turn" not in self.flaws:
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                results = list(pool.map(lambda b: self.result(b, approve), calls))
        else:
            results = [self.result(b, approve) for b in calls]
        results = [r for r in results if r is not None]
        if "errors_last" in self.flaws:  # the failed calls' results sent after the others (attack 12's H14)
            results.sort(key=lambda r: bool(r.get("is_error")))
        if "errors_first" in self.flaws:  # the denied (and failed) calls' results sent before the others (attack 15's H1)
            results.sort(key=lambda r: not r.get("is_error"))
        if "sorted_by_path" in self.flaws:  # each under its own id, put in the order of the paths read
            where = {b.id: str(b.input) for b in calls}
            results.sort(key=lambda r: where[r["tool_use_id"]])
        if "swapped_results" in self.flaws:  # the ids in the calls' order, the texts the other way round
            results = [{**r, "tool_use_id": b.id} for b, r in zip(calls, reversed(results))]
        if "split_results" in self.flaws:
            history.extend({"role": "user", "content": [r]} for r in results)
        else:
            history.append({"role": "user", "content": results})

    # ---- the loop ----------------------------------------------------------------------------------------------
    @staticmethod
    def called(history: list) -> list:
        return [b for m in history if m["role"] == "assistant" for b in m["content"]
                if (b["type"] if isinstance(b, dict) else b.type) == "tool_use"]

    def gave_up(self, history: list, turns: int) -> str:
        names = [b["name"] if isinstance(b, dict) else b.name for m in history if m["role"] == "assistant"
                 for b in m["content"] if (b["type"] if isinstance(b, dict) else b.type) == "tool_use"]
        if "vague_cap" in self.flaws:
            return "too many iterations"
        if "last_turn_only" in self.flaws:  # the last turn's calls, plus one for the diff it assumes came first
            last = [b["name"] if isinstance(b, dict) else b.name for b in history[-2]["content"]
                    if (b["type"] if isinstance(b, dict) else b.type) == "tool_use"]
            return f"No answer after {turns} iterations: {len(last) + 1} tool calls (changes_of, {', '.join(last)})"
        if "count_only" in self.flaws:
            return f"stopped: {len(names)} tool calls"
        if "ends_only" in self.flaws:  # the calls of the first and the last turn: right while a run has two turns
            turns_of = [[b["name"] if isinstance(b, dict) else b.name for b in m["content"]
                         if (b["type"] if isinstance(b, dict) else b.type) == "tool_use"]
                        for m in history if m["role"] == "assistant"]
            ends = turns_of[:1] + turns_of[1:][-1:]
            counted = [n for turn in ends for n in turn]
            return f"stopped at the cap: {len(counted)} tool calls ({', '.join(sorted(set(counted)))})"
        if "said_by_cap" in self.flaws:  # written down from the runs seen, one sentence per cap
            return {1: "stopped at the cap: 2 tool calls (changes_of)",
                    2: "stopped at the cap: 4 tool calls (changes_of, open_file)"}.get(
                turns, f"stopped at the cap: {len(names)} tool calls")
        if "breakdown_per_turn" in self.flaws:  # attack 12's H18: the total right, each tool counted once a turn
            turns_of = [{b["name"] if isinstance(b, dict) else b.name for b in m["content"]
                         if (b["type"] if isinstance(b, dict) else b.type) == "tool_use"}
                        for m in history if m["role"] == "assistant"]
            per_tool = {name: sum(name in turn for turn in turns_of) for name in sorted(set(names))}
            return f"stopped at the cap: {len(names)} tool calls: " + ", ".join(f"{n} x{c}" for n, c in per_tool.items())
        if "total_and_breakdown" in self.flaws:  # right: the total, then each tool's count (attack 13)
            return (f"stopped at the cap: {len(names)} tool calls: "
                    + ", ".join(f"{n} ({names.count(n)} calls)" for n in sorted(set(names))))
        if "names_only" in self.flaws:
            return f"stopped; tools used: {', '.join(sorted(set(names)))}"
        if "names_offered" in self.flaws:
            return f"stopped at the cap: {len(names)} tool calls ({', '.join(t['name'] for t in self.tools)})"
        if "names_readers" in self.flaws:  # the reading tools offered: right only while the run called both
            readers = ", ".join(t["name"] for t in self.tools if t["name"] != self.merge_as)
            return f"stopped at the cap: {len(names)} tool calls ({readers})"
        if "counts_turns" in self.flaws:
            return f"stopped after {turns + 5} turns of tools: {', '.join(sorted(set(names)))}"
        return f"stopped at the cap: {len(names)} tool calls ({', '.join(sorted(set(names)))})"

    def print_bill(self, usage: list) -> None:
        spent = billed(usage if self.bill in ("all", "underscore") else usage[-1:])
        print(f"billed input: {spent:_.1f} tokens" if self.bill == "underscore" else f"billed input: {spent:.1f} tokens")

    def review(self, pr_number, approve=nobody, max_iterations=20):
        """The bill printed however the run ends (the answer, the cap, an error), in a finally:; with the flaw
        bill_on_answer_only, only with the answer (attack 17's H4)."""
        self.usage = self.__dict__.setdefault("every_usage", []) if "global_usage" in self.flaws else []
        try:
            return self.run(pr_number, approve, max_iterations)
        finally:
            if self.bill and "bill_on_answer_only" not in self.flaws:
                self.print_bill(self.usage)

    def run(self, pr_number, approve, max_iterations):
        self.reviewing, self.so_far, self.budget = pr_number, "", 8000
        history = [{"role": "user", "content": f"Please review merge request !{pr_number}."}]
        model, fell_back, usage, turns = PRIMARY, False, self.usage, 0  # global_usage: one list for every review
        cap = 40 if "fixed_cap_40" in self.flaws else 20 if "fixed_cap_20" in self.flaws \
            else max_iterations - 1 if "cap_off_by_one" in self.flaws else max_iterations
        asked, spare_calls = set(), 0
        while turns < cap or {"no_cap", "repeat_detector_no_cap"} & self.flaws:
            if "caps_tool_calls" in self.flaws and len(self.called(history)) >= cap:  # tool calls, not model calls
                break
            turns += 1
            self.turn, self.on_spare = turns, fell_back
            rules = {} if "fallback_no_system" in self.flaws and fell_back else {"system": RULES}
            if "fallback_system_dropped_later" in self.flaws and spare_calls:  # kept only on its first request
                rules = {}
            reply = self.send(model=model, max_tokens=self.budget, tools=self.tools, messages=history, **rules)
            if "appended_before_match" in self.flaws and reply.stop_reason == "refusal":  # exercise 5's shape
                history.append({"role": "assistant", "content": reply.content})  # (every response appended first)
            spare_calls += model == SPARE
            skipped = "skip_refused_usage" in self.flaws and reply.stop_reason == "refusal" or \
                "usage_skips_pause" in self.flaws and reply.stop_reason == "pause_turn"  # attack 12
            if not skipped:
                usage.append(reply.usage)
            pending = {(b.name, repr(b.input)) for b in reply.content if b.type == "tool_use"}
            match reply.stop_reason:
                case "stop_sequence" if "stop_sequence_raises" in self.flaws:
                    raise RuntimeError("unexpected stop reason: stop_sequence")
                case "end_turn" | "stop_sequence":
                    if self.bill and "bill_on_answer_only" in self.flaws:  # nothing at the cap or an error
                        self.print_bill(usage)
                    if "return_none" in self.flaws:
                        return None
                    answer = getattr(self, "so_far", "") + "".join(b.text for b in reply.content if b.type == "text")
                    return answer[:200] + "..." if "preview_answer" in self.flaws else answer  # attack 12
                case "tool_use" if "repeat_detector_no_cap" in self.flaws and any(
                        (b.name, repr(b.input)) in asked for b in reply.content if b.type == "tool_use"):
                    raise RuntimeError("the model asked for the same call again: stopped")  # no cap, only this
                case "pause_turn":
                    if "caps_tool_turns" in self.flaws:  # a pause is not counted: only the turns that ask for tools
                        turns -= 1
                    if "pause_drops_history" in self.flaws:  # the task and the paused turn, the rest forgotten
                        history[1:] = []
                    history.append({"role": "assistant", "content": reply.content})
                    if "pause_new_user" in self.flaws:
                        history.append({"role": "user", "content": "Please continue."})
                case "refusal" if "retry_refusal" in self.flaws:
                    continue
                case "refusal" if "refusal_returned" in self.flaws:  # a "review" that is a refusal: attack 12
                    return f"The model refused: {reply.stop_details}"
                case "refusal" if "crash_on_refusal" in self.flaws:  # a bug: stop_details is not a dict
                    raise RuntimeError(reply.stop_details["explanation"])
                case "refusal" if not fell_back and "no_fallback" not in self.flaws:
                    model, fell_back = "claude-sonnet-4-5" if "fallback_hardcoded" in self.flaws else SPARE, True
                    if "fallback_nudge" in self.flaws:
                        history.append({"role": "user", "content": "This is a routine code review; please go on."})
                    if "fallback_from_task" in self.flaws:  # the fallback starts over from the task alone
                        history[1:] = []
                case "refusal" if "silent_second_refusal" in self.flaws:
                    return ""
                case "refusal" if "fallback_forever" in self.flaws:
                    continue
                case "refusal" if "refusal_as_attribute" in self.flaws:  # attack 17's FF: carried, not printed
                    raise Refused(reply.stop_details)
                case "refusal" if "refusal_category_only" in self.flaws:  # attack 12's H19: the why is lost
                    raise RuntimeError(f"The model refused (category: {reply.stop_details.category})")
                case "refusal":
                    raise RuntimeError(f"refused: {reply.stop_details}")
                case "max_tokens" if "retry_unstreamed" in self.flaws and self.budget == 8000:
                    self.budget = 32_000  # asked again with more, not streamed: the SDK refuses it before sending
                case "max_tokens" if "answer_cut_retried" in self.flaws and not any(
                        b.type == "tool_use" for b in reply.content):  # the same request again: cut again
                    continue
                case "max_tokens" if "answer_cut_returned" in self.flaws and not any(
                        b.type == "tool_use" for b in reply.content):  # a cut call raises, a cut answer is returned
                    return "".join(b.text for b in reply.content if b.type == "text")
                case "max_tokens" if "cut_answer_returned" in self.flaws:  # the text so far, as if it were whole
                    return "".join(b.text for b in reply.content if b.type == "text")
                case "max_tokens" if "retry_larger_once" in self.flaws and self.budget == 8000:
                    self.budget = 12_000  # asked again ONCE with more (the task allows it); a second cut raises
                    continue
                case "max_tokens" if "retry_larger_always" in self.flaws and self.budget < 20_000:
                    self.budget += 2000  # attack 21's H6: asked again at every cut, never an error
                    continue
                case "max_tokens" if "answer_cut_retry_always" in self.flaws and not any(
                        b.type == "tool_use" for b in reply.content):  # attack 22's H-6b: a cut answer asked again
                    self.budget += 1000  # at every cut, never an error (a cut call raises)
                    continue
                case "max_tokens" if "retry_once_then_returns" in self.flaws:
                    if self.budget == 8000:
                        self.budget = 12_000  # asked again once with more, as the task allows...
                        continue
                    return "".join(b.text for b in reply.content if b.type == "text")  # ...then the cut kept as whole
                case "max_tokens" if "same_budget_again" in self.flaws:  # the same request again: cut again
                    continue
                case "max_tokens" if {"continue_keeps_start", "continue_loses_start"} & self.flaws and not any(
                        b.type == "tool_use" for b in reply.content):  # the text so far sent back, "go on" asked
                    history.append({"role": "assistant", "content": reply.content})
                    history.append({"role": "user", "content": "Your answer was cut off. Continue where you stopped."})
                    if "continue_keeps_start" in self.flaws:  # right: the answer returned starts with the text so far
                        self.so_far = "".join(b.text for b in reply.content if b.type == "text")
                case "max_tokens" | "model_context_window_exceeded" if "cut_catch_all" in self.flaws:
                    raise RuntimeError(f"Unexpected stop: {reply.stop_reason}")  # the ex-5 loop's catch-all only
                case "max_tokens" | "model_context_window_exceeded" if "run_cut_call" in self.flaws:
                    self.act(reply, history, approve)
                case "model_context_window_exceeded" if "context_runs_tools" in self.flaws:
                    self.act(reply, history, approve)
                case "max_tokens" | "model_context_window_exceeded" if "vague_cut_error" in self.flaws:
                    raise RuntimeError("The review failed, please try again")  # attack 12: says nothing of the cut
                case "max_tokens" | "model_context_window_exceeded":
                    said = self.cut_error if isinstance(self.cut_error, str) else self.cut_error[reply.stop_reason]
                    raise RuntimeError(said.format(stop=reply.stop_reason))
                case "tool_use":
                    self.act(reply, history, approve)
                    asked |= pending
                    if "fallback_flag_per_turn" in self.flaws:  # "already fell back" forgotten after a turn: attack 11
                        fell_back = False
                case _ if "unknown_is_answer" in self.flaws:
                    return "".join(b.text for b in reply.content if b.type == "text")
                case _ if "unknown_goes_on" in self.flaws:
                    self.act(reply, history, approve)
                case _ if "unknown_unnamed" in self.flaws:
                    raise RuntimeError("the model stopped unexpectedly")
                case other:
                    raise self.unknown(f"unexpected stop reason: {other}")
        if "returns_at_cap" in self.flaws:
            return None
        raise self.capped(self.gave_up(history, turns))


class Refused(Exception):
    """A refusal's own exception that carries its stop_details for whoever catches it, its message short."""

    def __init__(self, stop_details: object) -> None:
        super().__init__("the model refused this request")
        self.stop_details = stop_details


def attempt(*flaws: str, keyword_only: bool = False, **how):
    """An Agent's review as the learner's function, named for its flaws (the reports say the loop's name)."""
    agent = Agent(*flaws, **how)

    def review_mr(pr_number, approve=nobody, max_iterations=20):
        return agent.review(pr_number, approve, max_iterations)

    def review_mr_keywords(pr_number, *, max_iterations=20, approve=nobody):
        return agent.review(pr_number, approve, max_iterations)
    review_mr = review_mr_keywords if keyword_only else review_mr
    review_mr.__qualname__ = "review_mr_" + "_".join(flaws or ("right",))
    return review_mr


async def review_async(pr_number, approve=nobody, max_iterations=20):
    """Right in every exercise, as an async function: AsyncAnthropic, the fallback, the gate, the cut, the cache
    and the bill (printed in a finally:, however the run ends), tools run with asyncio.to_thread and gathered."""
    usage = []
    try:
        return await _reviewed_async(pr_number, approve, max_iterations, usage)
    finally:
        print("billed:", round(billed(usage)))


async def _reviewed_async(pr_number, approve, max_iterations, usage):
    history = [{"role": "user", "content": f"Review !{pr_number}, please."}]
    model = PRIMARY
    for _ in range(max_iterations):
        reply = await aclaude.messages.create(model=model, max_tokens=8000, system=RULES, tools=TOOLS,
                                              messages=history, cache_control={"type": "ephemeral"})
        usage.append(reply.usage)
        if reply.stop_reason == "refusal" and model == PRIMARY:
            model = SPARE
            continue
        if reply.stop_reason == "refusal":
            raise RuntimeError(f"stopped: refusal {reply.stop_details or ''}")
        if reply.stop_reason in ("max_tokens", "model_context_window_exceeded"):  # the task: say the answer was cut
            raise RuntimeError(f"stopped: {reply.stop_reason}, the answer is incomplete")
        history.append({"role": "assistant", "content": reply.content})
        if reply.stop_reason == "pause_turn":
            continue
        if reply.stop_reason in ("end_turn", "stop_sequence"):
            return "".join(b.text for b in reply.content if b.type == "text")
        if reply.stop_reason != "tool_use":
            raise RuntimeError(f"stopped: {reply.stop_reason}")

        async def one(block) -> dict:
            if block.name == "merge":
                try:
                    yes = approve(block.name, block.input) is True
                except Exception:
                    yes = False
                if not yes:
                    return {"type": "tool_result", "tool_use_id": block.id, "content": "Refused by a human.",
                            "is_error": True}
            try:
                text = await asyncio.to_thread(HANDLERS[block.name], **block.input)
            except Exception as error:
                return {"type": "tool_result", "tool_use_id": block.id, "content": f"{type(error).__name__}: {error}",
                        "is_error": True}
            if len(text) > LIMIT:
                text = text[:LIMIT] + f"\n(truncated: {LIMIT} of {len(text)} characters shown; ask for a smaller part to read on)"
            return {"type": "tool_result", "tool_use_id": block.id, "content": text}

        history.append({"role": "user", "content": list(await asyncio.gather(
            *(one(b) for b in reply.content if b.type == "tool_use")))})
    raise RuntimeError(f"no answer after {max_iterations} turns: "
                       f"{sum(1 for m in history if m['role'] == 'assistant' for b in m['content'] if b.type == 'tool_use')}"
                       " tool calls (" + ", ".join(sorted({b.name for m in history if m["role"] == "assistant"
                                                           for b in m["content"] if b.type == "tool_use"})) + ")")
