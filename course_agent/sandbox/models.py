"""The models the sandbox answers for, and the limits it enforces for each.

The limits are the sandbox's own round figures, chosen to behave like the real
API (an output cap, a context window, a minimum cacheable prompt); they are not
a statement about the live models.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelLimits:
    max_output_tokens: int
    context_window: int
    min_cacheable_tokens: int


_LARGE = ModelLimits(max_output_tokens=128_000, context_window=1_000_000, min_cacheable_tokens=1024)
_MEDIUM = ModelLimits(max_output_tokens=64_000, context_window=200_000, min_cacheable_tokens=1024)
_SMALL = ModelLimits(max_output_tokens=64_000, context_window=200_000, min_cacheable_tokens=2048)

KNOWN_MODELS: dict[str, ModelLimits] = {
    "claude-opus-5": _LARGE,
    "claude-opus-5-5": _LARGE,
    "claude-sonnet-5": _LARGE,
    "claude-sonnet-5-5": _LARGE,
    "claude-haiku-5-5": _SMALL,
    "claude-opus-4-8": _MEDIUM,
    "claude-opus-4-7": _MEDIUM,
    "claude-opus-4-6": _MEDIUM,
    "claude-sonnet-4-6": _MEDIUM,
    "claude-opus-4-5": _MEDIUM,
    "claude-opus-4-5-20251101": _MEDIUM,
    "claude-haiku-4-5": _SMALL,
    "claude-haiku-4-5-20251001": _SMALL,
}
