"""Where a response's thinking blocks go, for the model and the request's thinking settings.

- `enabled` (manual thinking, older models): one thinking block first, always.
- `adaptive` (on by default on today's models): a thinking block first when the simulated model
  thinks on this turn (`simulated_model.thoughts`); none on a simple turn.
- A forced call (`tool_choice` any/tool): the API prefills the assistant turn, so no text comes before the
  first `tool_use` (every model that takes it); adaptive thinking may still think first, except on Haiku 5.5,
  whose docs say it skips thinking for that call.
- Notes between tool calls: on Opus 5.5 every note written before a tool call comes back as a thinking
  block; on Sonnet 5.5, notes longer than a sentence or two do, and under `between_tools` all of them
  (with no thinking up front). Elsewhere they stay text.
- `display`: `omitted` (today's default) sends each block's `thinking` as "" (the signature carries it),
  `summarized` sends the text. Output tokens bill the thinking either way.
"""

from .model_profiles import Profile

_LONG_NOTE_SENTENCES = 2


def with_thinking(blocks: list[dict], thought: str | None, mode: str, model: Profile, forced: bool) -> list[dict]:
    """The reply's blocks with its thinking blocks in place (full text; signatures come later)."""
    if forced:
        blocks = _from_first_call(blocks)
    no_thought = forced and model.forced_skips_thinking
    if mode == "disabled":
        return blocks
    out = list(blocks)
    calls_tools = any(block["type"] == "tool_use" for block in blocks)
    if calls_tools and mode in ("adaptive", "between_tools"):
        out = [_thinking(b["text"]) if _note_is_thinking(b, i, out, mode, model) else b for i, b in enumerate(out)]
    skip = mode == "between_tools" or no_thought
    if thought and not skip:
        out.insert(0, _thinking(thought))
    return out


def _from_first_call(blocks: list[dict]) -> list[dict]:
    """The blocks from the first tool call on: what a model that starts a forced answer with the call sends."""
    first = next((i for i, block in enumerate(blocks) if block["type"] == "tool_use"), 0)
    return blocks[first:]


def displayed(blocks: list[dict], display: str) -> list[dict]:
    """Each thinking block as the client sees it at this `display`."""
    if display != "omitted":
        return blocks
    return [{**b, "thinking": ""} if b["type"] == "thinking" else b for b in blocks]


def _note_is_thinking(block: dict, index: int, blocks: list[dict], mode: str, model: Profile) -> bool:
    if block["type"] != "text" or not any(b["type"] == "tool_use" for b in blocks[index + 1:]):
        return False
    if mode == "between_tools" or model.notes_between_tools == "thinking":
        return True
    if model.notes_between_tools == "long-as-thinking":
        ends = sum(block["text"].count(mark) for mark in (". ", "! ", "? ", ".\n")) + 1
        return ends > _LONG_NOTE_SENTENCES
    return False


def _thinking(text: str) -> dict:
    return {"type": "thinking", "thinking": text, "signature": ""}
