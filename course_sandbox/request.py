"""A Messages request, read once from its JSON body: the one module that reads the body's fields.

The rest of the sandbox reads the named fields of a `Request`, each derived once, so that a fact such
as the thinking mode has one definition. A request the sandbox derives from the client's (a thread's
continuation, the server's edited copy, a fallback model's attempt) is made here too, as the body the
client would have sent: that body is what the response's id is computed from (`digest`).

Fields that depend on the model (`profile`, `thinking_mode`, `effort`...) are read when first asked,
since the API checks a thread, betas and context edits before it looks the model up (an unknown model's
404 comes after their 400s).
"""

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from .conversation import Turn, merge_turns
from .errors import ApiError
from .model_profiles import Profile
from .models import KNOWN_MODELS

SAMPLING = ("temperature", "top_p", "top_k")


@dataclass(frozen=True, eq=False)
class Request:
    """A validated Messages request (`request_schema.first_problem` found nothing in its body)."""

    model: str
    messages: tuple[dict, ...]
    """The messages as sent (each a JSON object): errors name their indexes."""
    system: str | list[dict] | None
    tools: tuple[dict, ...]
    tool_choice: dict
    forces_tool: bool
    """tool_choice `any` or `tool`: the answer must call a tool."""
    thinking: dict
    """The `thinking` object as sent ({} when not sent)."""
    thinking_type: str | None
    thinking_budget: int | None
    block_binding: dict | None
    """`thinking.block_binding` (beta): what to do with a thinking block bound to another prefix."""
    output_config: dict
    output_format: object
    """The older spelling of `output_config.format`."""
    max_tokens: int | None
    """None only on count_tokens, which takes none."""
    stop_sequences: tuple[str, ...]
    sampling: Mapping[str, object]
    """temperature, top_p and top_k, those sent (not null), in that order."""
    cache_control: dict | None
    """The top-level `cache_control`: automatic caching up to the last block."""
    context_management: dict | None
    edits: tuple[dict, ...]
    """`context_management.edits`, in order."""
    compaction: dict | None
    """The on-demand `compaction` parameter (beta)."""
    fallbacks: list[dict] | str | None
    thread: dict | None
    betas: frozenset[str]
    """The `anthropic-beta` header's values: a request's betas travel with it."""
    sent: frozenset[str]
    """The names of the top-level fields sent (a field sent empty is still sent)."""
    _body: dict
    """The JSON as sent, read only in this module: the digest, and the requests derived from this one."""

    @classmethod
    def parse(cls, body: dict, betas: frozenset[str] = frozenset()) -> "Request":
        thinking = body["thinking"] if isinstance(body.get("thinking"), dict) else {}
        config = body.get("output_config")
        tool_choice = body.get("tool_choice") or {}
        max_tokens = body.get("max_tokens")
        return cls(
            model=body["model"],
            messages=tuple(body["messages"]),
            system=body.get("system"),
            tools=tuple(body.get("tools") or ()),
            tool_choice=tool_choice,
            forces_tool=tool_choice.get("type") in ("any", "tool"),
            thinking=thinking,
            thinking_type=thinking.get("type"),
            thinking_budget=thinking.get("budget_tokens"),
            block_binding=thinking.get("block_binding"),
            output_config=config if isinstance(config, dict) else {},
            output_format=body.get("output_format"),
            max_tokens=None if max_tokens is None else int(max_tokens),  # JSON Schema takes 5.0 as an integer
            stop_sequences=tuple(body.get("stop_sequences") or ()),
            sampling={name: body[name] for name in SAMPLING if body.get(name) is not None},
            cache_control=body.get("cache_control"),
            context_management=body.get("context_management"),
            edits=tuple((body.get("context_management") or {}).get("edits") or ()),
            compaction=body.get("compaction"),
            fallbacks=body.get("fallbacks"),
            thread=body.get("thread"),
            betas=betas,
            sent=frozenset(body),
            _body=body,
        )

    @cached_property
    def profile(self) -> Profile:
        """The model's row (`model_profiles`); an unknown model is the API's 404."""
        found = KNOWN_MODELS.get(self.model)
        if found is None:
            raise ApiError(404, f"model: {self.model}")
        return found

    @cached_property
    def turns(self) -> list[Turn]:
        """The messages as the model reads them (`merge_turns`), before any thinking block is dropped."""
        return merge_turns(list(self.messages))

    @cached_property
    def thinking_mode(self) -> str:
        """How the model thinks on this request: "adaptive", "enabled", "between_tools" or "disabled".
        A request that does not say gets the model's default (adaptive where thinking is on by default)."""
        if self.thinking_type:
            return self.thinking_type
        return "adaptive" if self.profile.thinking in ("on", "always") else "disabled"

    @cached_property
    def thinking_display(self) -> str:
        """`thinking.display`, else the model's default."""
        return self.thinking.get("display") or self.profile.display

    @cached_property
    def effort(self) -> str:
        """The effort in effect: the request's `output_config.effort`, else the model's default."""
        return self.output_config.get("effort") or self.profile.effort or "high"

    @cached_property
    def digest(self) -> str:
        """A digest of what the model is asked, the same for the same request (streamed or not): ids come from it."""
        canonical = json.dumps({k: v for k, v in self._body.items() if k != "stream"}, sort_keys=True,
                               ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()

    def with_messages(self, messages: list[dict]) -> "Request":
        """The same request with other messages: the server's copy after an edit, a compaction, a thread."""
        return Request.parse({**self._body, "messages": messages}, self.betas)

    def replaced(self, **fields: object) -> "Request":
        """The same request with these top-level fields set, or left out where the value is None."""
        body = dict(self._body)
        for name, value in fields.items():
            if value is None:
                body.pop(name, None)
            else:
                body[name] = value
        return Request.parse(body, self.betas)

    def continuing(self, held: "Request", kept: tuple[str, ...]) -> "Request":
        """A thread's `continue`: the held conversation in front of the new messages, and the fields the
        thread keeps as it was created with (`held` is the thread's last request, its reply included)."""
        body = {k: v for k, v in self._body.items() if k != "thread"}
        body["messages"] = [*held.messages, *self.messages]
        for name in kept:
            if held._body.get(name) is not None:
                body[name] = held._body[name]
        return Request.parse(body, self.betas)


def asks_to_stream(body: object) -> bool:
    """Whether a body asks for server-sent events (`stream: true`); read before the rest is validated."""
    return isinstance(body, dict) and body.get("stream") is True
