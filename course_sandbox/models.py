"""The models the sandbox answers for, the limits it enforces for each, and the catalogue
`GET /v1/models` lists.

Every model id the installed SDK's `anthropic.types.Model` names is known, plus the sandbox's
own; each answers by its row of `model_profiles` (limits, thinking, what it rejects). Release
dates are known only for dated ids; the others carry the epoch, as the API does for a model whose
release date it does not know.
"""

import re

from .model_profiles import PROFILES, Profile, profile
from .sdk_params import sdk_model_ids

LINES = ("haiku", "sonnet", "opus", "fable", "mythos")
EPOCH = "1970-01-01T00:00:00Z"

KNOWN_MODELS: dict[str, Profile] = {
    **{model: profile(model) for model in sdk_model_ids()},
    **PROFILES,
}
"""Every model /v1/messages accepts, with its profile: the SDK's list first, in its order."""


def display_name(model_id: str) -> str:
    """'claude-opus-4-5-20251101' -> 'Claude Opus 4.5'; 'claude-mythos-preview' -> 'Claude Mythos Preview'."""
    words = re.sub(r"-\d{8}$", "", model_id).split("-")
    name, version = [], []
    for word in words:
        (version if word.isdigit() else name).append(word)
    return " ".join([w.capitalize() for w in name] + ([".".join(version)] if version else []))


def model_info(model_id: str) -> dict:
    """The ModelInfo object the API returns for one model."""
    limits = KNOWN_MODELS[model_id]
    dated = re.search(r"-(\d{4})(\d{2})(\d{2})$", model_id)
    retires = KNOWN_MODELS[model_id].retires
    line = next((name for name in LINES if f"-{name}-" in f"{model_id}-"), None)
    return {
        "type": "model",
        "id": model_id,
        "display_name": display_name(model_id),
        "created_at": f"{dated[1]}-{dated[2]}-{dated[3]}T00:00:00Z" if dated else EPOCH,
        "lifecycle": "deprecated" if retires else "active",
        "deprecated_at": None,
        "retires_at": f"{retires}T00:00:00Z" if retires else None,
        "line": line,
        "max_input_tokens": limits.context_window,
        "max_tokens": limits.max_output_tokens,
        "capabilities": None,
    }


def catalogue(lifecycles: set[str] | None = None) -> list[dict]:
    """Every known model's ModelInfo, in list order; by default the active and deprecated ones, as the API lists."""
    wanted = lifecycles or {"active", "deprecated"}
    return [info for info in map(model_info, KNOWN_MODELS) if info["lifecycle"] in wanted]
