"""Server-side fallback (beta): when the requested model refuses, the API tries the `fallbacks` models in
order and returns the first answer, marked as a fallback (docs: refusals-and-fallback#server-side-fallback).

`fallbacks` is a list of entries (`model`, and per-attempt `max_tokens`, `thinking`, `output_config`, `speed`)
or `"default"`, the requested model's own chain. Both need the `server-side-fallback-2026-07-01` beta; the
older `server-side-fallback-2026-06-01` takes lists only. A model without server-side fallback (Haiku 5.5)
refuses a list with a 400 and runs a `"default"` request alone. The sandbox's default chain is one model,
Opus 4.8 (the docs do not publish the chains). The wording of these 400s is the sandbox's, in the API's style.
"""

from .errors import ApiError, invalid
from .model_profiles import Profile, profile

BETA = "server-side-fallback-2026-07-01"
LISTS_ONLY_BETA = "server-side-fallback-2026-06-01"
DEFAULT_CHAIN = ("claude-opus-4-8",)
ENTRY_FIELDS = ("max_tokens", "thinking", "output_config", "speed")


def chain(body: dict, model: Profile, betas: frozenset[str], known: set[str]) -> list[dict]:
    """The fallback entries to try after a refusal, checked against the request's betas and model."""
    fallbacks = body.get("fallbacks")
    if fallbacks is None:
        return []
    if BETA not in betas and LISTS_ONLY_BETA not in betas:
        raise invalid(f"fallbacks: this field requires the `{BETA}` beta (anthropic-beta header).")
    if fallbacks == "default":
        if BETA not in betas:
            raise invalid(f'fallbacks: "default" requires the `{BETA}` beta; `{LISTS_ONLY_BETA}` takes a list '
                          "of models only.")
        return [{"model": m} for m in DEFAULT_CHAIN if m != body["model"]] if model.server_fallback else []
    if not model.server_fallback:
        raise invalid(f"fallbacks: {body['model']} does not support server-side fallback.")
    for i, entry in enumerate(fallbacks):
        if entry["model"] not in known:
            raise ApiError(404, f"fallbacks.{i}.model: {entry['model']}")
    return list(fallbacks)


def attempt(body: dict, entry: dict) -> dict:
    """The request as sent to one fallback model: the entry's fields over the request's, `output_config`
    field by field; `between_tools` becomes `disabled` on a model that does not take it."""
    hop = {k: v for k, v in body.items() if k != "fallbacks"}
    hop["model"] = entry["model"]
    for field in ENTRY_FIELDS:
        if field not in entry:
            continue
        if entry[field] is None:
            hop.pop(field, None)
        elif field == "output_config":
            hop["output_config"] = {**(hop.get("output_config") or {}), **entry["output_config"]}
        else:
            hop[field] = entry[field]
    thinking = hop.get("thinking") or {}
    if "thinking" not in entry and thinking.get("type") == "between_tools" and not profile(hop["model"]).between_tools:
        hop["thinking"] = {"type": "disabled"}
    if "thinking" not in entry and profile(hop["model"]).rejects(thinking.get("type", "")):
        hop.pop("thinking", None)  # the model's own default, as the docs say
    return hop


def marker(requested: str, served_by: str, category: str | None) -> dict:
    """The `fallback` content block where the refusing model's output gives way to the next."""
    return {"type": "fallback", "from": {"model": requested}, "to": {"model": served_by},
            "trigger": {"type": "refusal", "category": category}}
