"""How each model id answers: one row per model, from the docs' per-model pages (late 2026).

The table is data, not a chain of `if`s: what thinking a model takes and does by default, whether it
takes forced tool use, sampling parameters and prefill, its effort default, cache minimum, limits and
prices. `request_rules.check` and the response shaping (`response_thinking`) read it. Every cell comes
from the official docs' per-model pages (docs/sandbox.md, "Models, one row each", names what they say);
where the docs are silent, a row takes its nearest documented sibling's behaviour, and docs/sandbox.md
says which.
"""

from dataclasses import dataclass, replace

# The API's own words (docs: thinking-troubleshooting, errors, the 5.5 migration guides).
ENABLED_REJECTED = ('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
                    '"output_config.effort" to control thinking behavior.')
DISABLED_REJECTED = ('"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive" and '
                     '"output_config.effort" to control thinking behavior.')
DISABLED_REJECTED_PREVIEW = ('"thinking.type.disabled" is not supported for this model. Thinking defaults to adaptive '
                             'mode when not specified; use "thinking.type.enabled" with "budget_tokens" for extended '
                             'thinking.')
DISABLED_USE_BETWEEN_TOOLS = ('To turn thinking off on this model, send "thinking": {"type": "between_tools"} instead '
                              'of {"type": "disabled"}. The model does not think before responding. The short updates '
                              'it writes between tool calls come back as thinking blocks.')
BETWEEN_TOOLS_REJECTED = '"thinking.type.between_tools" is not supported for this model.'
ADAPTIVE_REJECTED = "adaptive thinking is not supported on this model"
EFFORT_WITHOUT_THINKING = ("output_config.effort '{effort}' is not supported when thinking is disabled on this model. "
                           "Use effort 'high' or below, or enable thinking.")
FORCED_TOOL_REJECTED = 'tool_choice: type "tool" and "any" are not supported for this model.'
# Quoted by third parties (the docs give none): a `{"role": "system"}` entry sent to a model without them.
SYSTEM_MESSAGE_REJECTED = "role 'system' is not supported on this model"
PREFILL_REJECTED = ("This model does not support assistant message prefill. The conversation must end with a user "
                    "message.")
SAMPLING_DEPRECATED = "`{param}` is deprecated for this model."
"""Seen in the API's answers for Opus 4.7 and later (the docs give only the status)."""

EFFORTS = ("low", "medium", "high", "xhigh", "max")
# API style (the effort docs list the levels per model, quote no wording): a level the model predates.
EFFORT_NOT_SUPPORTED = "output_config.effort: '{effort}' is not supported on this model"


@dataclass(frozen=True)
class Profile:
    """One model's behaviour. `thinking`: "on" (adaptive unless the request says otherwise),
    "always" (cannot be turned off) or "off" (only when the request asks)."""

    thinking: str
    rejected: tuple[tuple[str, str], ...]  # (thinking type, the 400's message)
    display: str  # what `thinking.display` is when the request does not say
    effort: str | None  # the default effort; None where the model has no effort setting
    disabled_up_to: str | None = None  # `disabled` is taken only at this effort or below
    between_tools: bool = False  # takes {"type": "between_tools"} (Sonnet 5.5)
    forced_tools: bool = True  # takes tool_choice any/tool
    forced_skips_thinking: bool = False
    """A forced call (tool_choice any/tool) comes back with no thinking block either (Haiku 5.5's docs: it skips
    thinking for that call). Elsewhere adaptive thinking "supports forced tool use" and may think first; no model
    writes text before a forced call (the API prefills the assistant turn, so the model "will not emit a natural
    language response or explanation before tool_use content blocks, even if explicitly asked")."""
    sampling: str = "deprecated"  # "deprecated", "haiku-5-5", "without-thinking", "accepted"
    prefill: str = "rejected"  # "rejected" or "without-thinking"
    notes_between_tools: str = "text"  # "text", "thinking" (Opus 5.5) or "long-as-thinking" (Sonnet 5.5)
    binds_prefix: bool = False  # preserved thinking's prefix check
    server_fallback: bool = True  # the `fallbacks` request parameter
    cautious: bool = True  # refuses dual-use requests as well (the simulated model's policy; 4.x answer them)
    min_cacheable_tokens: int = 1024
    context_window: int = 1_000_000
    max_output_tokens: int = 128_000
    efforts: tuple[str, ...] = EFFORTS
    """The `output_config.effort` levels the model takes (the effort docs: `max` from Opus 4.6, `xhigh` from Opus 4.7).
    Haiku 4.5, which the docs do not list for effort, keeps taking it, as notebook 12 run on it does."""
    system_messages: bool = True
    """Takes `{"role": "system"}` entries in `messages` (mid-conversation system messages: Opus 4.8, the 5.x models
    but Sonnet 5; older models and Mythos Preview refuse them)."""
    price: tuple[float, float] | None = None  # $ per million input / output tokens
    retires: str | None = None  # the end-of-life day the installed SDK 2.16 warns of (ISO date)

    def rejects(self, thinking_type: str) -> str | None:
        return dict(self.rejected).get(thinking_type)


_ADAPTIVE_ON = Profile("on", (("enabled", ENABLED_REJECTED),), "omitted", "high",
                       min_cacheable_tokens=512, price=(5.0, 25.0))
_ALWAYS_ON = replace(_ADAPTIVE_ON, thinking="always",
                     rejected=(("enabled", ENABLED_REJECTED), ("disabled", DISABLED_REJECTED)))
_FIVE_ONE = replace(_ALWAYS_ON, forced_tools=False, binds_prefix=True, price=(10.0, 50.0))
_OPUS_4_8 = Profile("off", (("enabled", ENABLED_REJECTED),), "omitted", "high", server_fallback=False,
                    cautious=False, min_cacheable_tokens=1024, price=(5.0, 25.0))
_FOUR_SIX = Profile("off", (), "summarized", "high", sampling="without-thinking", server_fallback=False,
                    cautious=False, system_messages=False, price=(5.0, 25.0), efforts=("low", "medium", "high", "max"))
_FOUR_FIVE = Profile("off", (("adaptive", ADAPTIVE_REJECTED),), "summarized", "high", sampling="without-thinking",
                     prefill="without-thinking", server_fallback=False, cautious=False, min_cacheable_tokens=4096,
                     context_window=200_000, max_output_tokens=64_000, system_messages=False, price=(5.0, 25.0),
                     efforts=("low", "medium", "high"))

PROFILES: dict[str, Profile] = {
    "claude-opus-5": replace(_ADAPTIVE_ON, disabled_up_to="high"),
    "claude-opus-5-5": replace(_ALWAYS_ON, effort="medium", forced_tools=False, notes_between_tools="thinking",
                               binds_prefix=True, price=(4.0, 20.0)),
    "claude-sonnet-5": replace(_ADAPTIVE_ON, min_cacheable_tokens=1024, price=(2.0, 10.0), system_messages=False),
    "claude-sonnet-5-5": replace(_ADAPTIVE_ON, rejected=(("enabled", ENABLED_REJECTED),
                                                         ("disabled", DISABLED_USE_BETWEEN_TOOLS)),
                                 between_tools=True, forced_tools=False, notes_between_tools="long-as-thinking",
                                 binds_prefix=True, price=(2.0, 10.0)),
    "claude-haiku-5-5": replace(_ADAPTIVE_ON, effort="medium", disabled_up_to="high", forced_skips_thinking=True,
                                sampling="haiku-5-5", binds_prefix=True, server_fallback=False, price=(0.1, 0.5)),
    "claude-fable-5": replace(_ALWAYS_ON, price=(10.0, 50.0)),
    "claude-mythos-5": _ALWAYS_ON,
    "claude-fable-5-1": _FIVE_ONE,
    "claude-mythos-5-1": _FIVE_ONE,
    "claude-fable-5-2": replace(_FIVE_ONE, price=(8.0, 40.0)),  # list price 20% below 5.1's
    "claude-mythos-5-2": replace(_FIVE_ONE, price=(8.0, 40.0)),
    "claude-mythos-preview": replace(_ALWAYS_ON, rejected=(("disabled", DISABLED_REJECTED_PREVIEW),),
                                     min_cacheable_tokens=2048, price=None, retires="2026-06-30",
                                     system_messages=False),
    "claude-opus-4-8": _OPUS_4_8,
    "claude-opus-4-7": replace(_OPUS_4_8, min_cacheable_tokens=2048, system_messages=False),
    "claude-opus-4-6": replace(_FOUR_SIX, min_cacheable_tokens=4096),
    "claude-sonnet-4-6": replace(_FOUR_SIX, min_cacheable_tokens=1024, price=(3.0, 15.0)),
    "claude-opus-4-5": replace(_FOUR_FIVE, retires="2027-01-22"),
    "claude-opus-4-5-20251101": replace(_FOUR_FIVE, retires="2027-01-22"),
    "claude-haiku-4-5": replace(_FOUR_FIVE, effort=None, price=(1.0, 5.0), efforts=EFFORTS),
    "claude-haiku-4-5-20251001": replace(_FOUR_FIVE, effort=None, price=(1.0, 5.0), efforts=EFFORTS),
}
"""Every model the sandbox answers for. A model id the installed SDK knows and this table does not gets
its family's nearest row (`profile()`)."""


def profile(model_id: str) -> Profile:
    """The row of a model id; an unknown newer id takes the default model's row, an older one Opus 4.8's."""
    if model_id in PROFILES:
        return PROFILES[model_id]
    older = any(f"-4-{minor}" in model_id for minor in range(10))
    return PROFILES["claude-opus-4-8" if older else "claude-opus-5"]


def effort_rank(effort: str) -> int:
    return EFFORTS.index(effort) if effort in EFFORTS else EFFORTS.index("high")
