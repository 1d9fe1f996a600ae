"""Server-side fallback (beta): when the requested model refuses, the API tries the `fallbacks` models in
order and returns the first answer, marked as a fallback (docs: refusals-and-fallback#server-side-fallback).

`fallbacks` is a list of entries (`model`, and per-attempt `max_tokens`, `thinking`, `output_config`, `speed`)
or `"default"`, the requested model's own chain. Both need the `server-side-fallback-2026-07-01` beta; the
older `server-side-fallback-2026-06-01` takes lists only. A model without server-side fallback (Haiku 5.5)
refuses a list with a 400 and runs a `"default"` request alone. The sandbox's default chain is one model,
Opus 4.8 (the docs do not publish the chains). The wording of these 400s is the sandbox's, in the API's style.
"""

from ..errors import ApiError, invalid
from ..model_profiles import profile
from ..request import Request

BETA = "server-side-fallback-2026-07-01"
LISTS_ONLY_BETA = "server-side-fallback-2026-06-01"
DEFAULT_CHAIN = ("claude-opus-4-8",)
ENTRY_FIELDS = ("max_tokens", "thinking", "output_config", "speed")


def chain(request: Request, known: set[str]) -> list[dict]:
    """The fallback entries to try after a refusal, checked against the request's betas and model."""
    fallbacks, betas = request.fallbacks, request.betas
    if fallbacks is None:
        return []
    if BETA not in betas and LISTS_ONLY_BETA not in betas:
        raise invalid(f"fallbacks: this field requires the `{BETA}` beta (anthropic-beta header).")
    if fallbacks == "default":
        if BETA not in betas:
            raise invalid(f'fallbacks: "default" requires the `{BETA}` beta; `{LISTS_ONLY_BETA}` takes a list '
                          "of models only.")
        return [{"model": m} for m in DEFAULT_CHAIN if m != request.model] if request.profile.server_fallback else []
    if not request.profile.server_fallback:
        raise invalid(f"fallbacks: {request.model} does not support server-side fallback.")
    for i, entry in enumerate(fallbacks):
        if entry["model"] not in known:
            raise ApiError(404, f"fallbacks.{i}.model: {entry['model']}")
    return list(fallbacks)


def attempt(request: Request, entry: dict) -> Request:
    """The request as sent to one fallback model: the entry's fields over the request's, `output_config`
    field by field; `between_tools` becomes `disabled` on a model that does not take it."""
    fields: dict[str, object] = {"fallbacks": None, "model": entry["model"]}
    for field in ENTRY_FIELDS:
        if field not in entry:
            continue
        if field == "output_config" and entry[field] is not None:
            fields["output_config"] = {**request.output_config, **entry["output_config"]}
        else:
            fields[field] = entry[field]  # None: left out
    if "thinking" not in entry:
        model = profile(entry["model"])
        if request.thinking_type == "between_tools" and not model.between_tools:
            fields["thinking"] = {"type": "disabled"}
        if model.rejects(request.thinking_type or ""):
            fields["thinking"] = None  # the model's own default, as the docs say
    return request.replaced(**fields)


def marker(requested: str, served_by: str, category: str | None) -> dict:
    """The `fallback` content block where the refusing model's output gives way to the next."""
    return {"type": "fallback", "from": {"model": requested}, "to": {"model": served_by},
            "trigger": {"type": "refusal", "category": category}}
