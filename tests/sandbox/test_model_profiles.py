"""Each model id answers the way the docs say it does (../shared/api-facts-2026-12.md; issue #24).

Requests go through the real SDK to a sandbox; every expected 400 is the API's own wording.
"""

import anthropic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import model_profiles as mp
from review_material import TOOLS, text_of

HI = [{"role": "user", "content": "Explain in two sentences why an agent loop needs a cap."}]
REVIEW = [{"role": "user", "content": "Review PR #482"}]
TODAY = ["claude-opus-5", "claude-opus-5-5", "claude-sonnet-5", "claude-sonnet-5-5", "claude-haiku-5-5",
         "claude-fable-5", "claude-mythos-5", "claude-fable-5-1", "claude-mythos-5-1", "claude-fable-5-2",
         "claude-mythos-5-2", "claude-opus-4-8", "claude-opus-4-7"]
ALWAYS_ON = ["claude-opus-5-5", "claude-fable-5", "claude-mythos-5", "claude-fable-5-1", "claude-mythos-5-1",
             "claude-fable-5-2", "claude-mythos-5-2"]
NO_FORCING = ["claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5-1", "claude-mythos-5-1"]


def refused(client, **params) -> str:
    params.setdefault("max_tokens", 2000)
    params.setdefault("messages", HI)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(**params)
    return caught.value.body["error"]["message"]


def ask(client, **params):
    params.setdefault("max_tokens", 2000)
    params.setdefault("messages", HI)
    return client.messages.create(**params)


@pytest.mark.parametrize("model", TODAY)
def test_manual_thinking_is_refused_from_opus_4_7_on(client, model):
    assert refused(client, model=model, thinking={"type": "enabled", "budget_tokens": 1024}) == mp.ENABLED_REJECTED


@pytest.mark.parametrize("model", ["claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-5", "claude-haiku-4-5"])
def test_older_models_still_take_manual_thinking(client, model):
    reply = ask(client, model=model, thinking={"type": "enabled", "budget_tokens": 1024})
    assert [b.type for b in reply.content][0] == "thinking" and reply.content[0].thinking  # summarized there


@pytest.mark.parametrize("model", ALWAYS_ON)
def test_always_on_models_refuse_disabled(client, model):
    assert refused(client, model=model, thinking={"type": "disabled"}) == mp.DISABLED_REJECTED


def test_mythos_preview_and_sonnet_5_5_word_their_refusal_of_disabled_their_own_way(client):
    assert refused(client, model="claude-mythos-preview", thinking={"type": "disabled"}) == mp.DISABLED_REJECTED_PREVIEW
    assert refused(client, model="claude-sonnet-5-5", thinking={"type": "disabled"}) == mp.DISABLED_USE_BETWEEN_TOOLS


@pytest.mark.parametrize("model", ["claude-opus-5", "claude-haiku-5-5"])
def test_disabled_only_at_effort_high_or_below(client, model):
    assert ask(client, model=model, thinking={"type": "disabled"}, output_config={"effort": "high"}).content
    for effort in ("xhigh", "max"):
        assert refused(client, model=model, thinking={"type": "disabled"},
                       output_config={"effort": effort}) == mp.EFFORT_WITHOUT_THINKING.format(effort=effort)


def test_between_tools_is_sonnet_5_5_only_and_takes_no_other_field(client):
    for model in ("claude-opus-5", "claude-opus-5-5", "claude-sonnet-5"):
        assert refused(client, model=model, thinking={"type": "between_tools"}) == mp.BETWEEN_TOOLS_REJECTED
    reply = ask(client, model="claude-sonnet-5-5", thinking={"type": "between_tools"})
    assert [b.type for b in reply.content] == ["text"]  # no tools: text only, no thinking up front
    assert refused(client, model="claude-sonnet-5-5", thinking={"type": "between_tools", "display": "summarized"})
    assert refused(client, model="claude-sonnet-5-5", thinking={"type": "between_tools"},
                   output_config={"effort": "max"}) == mp.EFFORT_WITHOUT_THINKING.format(effort="max")


@pytest.mark.parametrize("model", ["claude-opus-4-5", "claude-haiku-4-5"])
def test_adaptive_thinking_is_refused_by_the_4_5_models(client, model):
    assert refused(client, model=model, thinking={"type": "adaptive"}) == mp.ADAPTIVE_REJECTED


@pytest.mark.parametrize("model", ["claude-opus-5", "claude-opus-5-5", "claude-sonnet-5", "claude-sonnet-5-5",
                                   "claude-haiku-5-5", "claude-fable-5-1"])
def test_thinking_is_on_by_default_and_omitted_from_view(client, model):
    reply = ask(client, model=model)
    first = reply.content[0]
    assert first.type == "thinking" and first.thinking == "" and first.signature
    assert text_of(reply)
    shown = ask(client, model=model, thinking={"type": "adaptive", "display": "summarized"})
    assert shown.content[0].type == "thinking" and shown.content[0].thinking
    assert shown.usage.output_tokens == reply.usage.output_tokens  # omitted or shown, the thinking is billed


@pytest.mark.parametrize("model", ["claude-opus-5", "claude-sonnet-5-5"])
def test_a_simple_message_gets_no_thinking(client, model):
    assert [b.type for b in ask(client, model=model, messages=[{"role": "user", "content": "Hello"}]).content] == \
        ["text"]


@pytest.mark.parametrize("model", ["claude-opus-4-8", "claude-opus-4-6", "claude-haiku-4-5"])
def test_older_models_do_not_think_unless_asked(client, model):
    assert [b.type for b in ask(client, model=model).content] == ["text"]


def test_effort_sets_how_much_the_model_thinks(client):
    billed = {effort: ask(client, model="claude-opus-5", output_config={"effort": effort}).usage.output_tokens
              for effort in mp.EFFORTS}
    assert billed["low"] < billed["medium"] < billed["high"] < billed["xhigh"] < billed["max"]
    low = ask(client, model="claude-opus-5", output_config={"effort": "low"})
    assert [b.type for b in low.content] == ["text"]  # low effort: no thinking on a turn without tools


def test_max_tokens_counts_thinking_and_can_stop_inside_it(client):
    shown = {"type": "adaptive", "display": "summarized"}
    thinking = ask(client, model="claude-opus-5", thinking=shown).usage.output_tokens
    answer_only = ask(client, model="claude-opus-5", thinking={"type": "disabled"}).usage.output_tokens
    assert thinking > answer_only  # the thinking is billed on top of the same answer
    cut = ask(client, model="claude-opus-5", max_tokens=thinking - answer_only - 2, thinking=shown)
    assert cut.stop_reason == "max_tokens" and [b.type for b in cut.content] == ["thinking"]
    assert text_of(cut) == ""


@pytest.mark.parametrize("model", NO_FORCING)
def test_forced_tool_use_is_refused_by_the_5_5_and_5_1_models(client, model):
    for choice in ({"type": "any"}, {"type": "tool", "name": "get_diff"}):
        assert refused(client, model=model, tools=TOOLS, tool_choice=choice, messages=REVIEW) == mp.FORCED_TOOL_REJECTED
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.count_tokens(model=model, tools=TOOLS, tool_choice={"type": "any"}, messages=REVIEW)
    assert caught.value.body["error"]["message"] == mp.FORCED_TOOL_REJECTED


FORCING = [m for m in mp.PROFILES if mp.PROFILES[m].forced_tools]


@pytest.mark.parametrize("model", FORCING)
@pytest.mark.parametrize("choice", [{"type": "any"}, {"type": "tool", "name": "get_diff"}])
def test_no_model_writes_text_before_a_forced_call(client, model, choice):
    """The docs: with tool_choice any/tool the API prefills the assistant turn, so the model "will not emit a
    natural language response or explanation before tool_use content blocks, even if explicitly asked"."""
    for prompt in ("Review PR #482", "Explain in words what you are about to do, then review PR #482."):
        answer = ask(client, model=model, tools=TOOLS, tool_choice=choice,
                     messages=[{"role": "user", "content": prompt}])
        kinds = [b.type for b in answer.content]
        assert answer.stop_reason == "tool_use" and "text" not in kinds[:kinds.index("tool_use")]
        assert kinds[0] in (("tool_use",) if mp.PROFILES[model].forced_skips_thinking else ("thinking", "tool_use"))


def test_forced_tool_use_works_with_adaptive_thinking_on_opus_5_and_skips_thinking_on_haiku_5_5(client):
    """The docs: adaptive thinking supports forced tool use (Opus 5 may think first); Haiku 5.5 skips thinking for
    that call."""
    opus = ask(client, model="claude-opus-5", tools=TOOLS, tool_choice={"type": "any"}, messages=REVIEW)
    assert opus.stop_reason == "tool_use" and [b.type for b in opus.content][:2] == ["thinking", "tool_use"]
    haiku = ask(client, model="claude-haiku-5-5", tools=TOOLS, tool_choice={"type": "any"}, messages=REVIEW)
    assert haiku.stop_reason == "tool_use" and "thinking" not in [b.type for b in haiku.content]


@pytest.mark.parametrize("choice", [{"type": "any"}, {"type": "tool", "name": "get_diff"}])
@pytest.mark.parametrize("thinking", [None, {"type": "disabled"}])
def test_haiku_5_5_starts_a_forced_answer_with_the_call(client, choice, thinking):
    """The docs: on Haiku 5.5 the response to a forced tool_choice starts with the tool call, no thinking."""
    extra = {"thinking": thinking} if thinking else {}
    haiku = ask(client, model="claude-haiku-5-5", tools=TOOLS, tool_choice=choice, messages=REVIEW, **extra)
    assert haiku.stop_reason == "tool_use" and haiku.content[0].type == "tool_use"
    assert {b.type for b in haiku.content} == {"tool_use"}


@pytest.mark.parametrize("model", ["claude-opus-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-opus-4-7"])
def test_sampling_parameters_are_refused_on_todays_models(client, model):
    for name, value in (("temperature", 0.5), ("top_p", 0.9), ("top_k", 40)):
        assert refused(client, model=model, extra_body={name: value}) == mp.SAMPLING_DEPRECATED.format(param=name)


def test_haiku_5_5_takes_temperature_1_or_top_p_0_99_alone_and_nothing_else(client):
    assert ask(client, model="claude-haiku-5-5", extra_body={"temperature": 1}).content
    assert ask(client, model="claude-haiku-5-5", extra_body={"top_p": 0.99}).content
    for extra in ({"top_p": 1}, {"top_k": 5}, {"temperature": 1, "top_p": 0.99}, {"temperature": 0.2}):
        assert refused(client, model="claude-haiku-5-5", extra_body=extra).endswith("is deprecated for this model.")


def test_the_4_5_models_take_sampling_without_thinking_and_haiku_not_both(client):
    assert ask(client, model="claude-opus-4-5", extra_body={"temperature": 0.2, "top_p": 0.9, "top_k": 40}).content
    assert refused(client, model="claude-haiku-4-5", extra_body={"temperature": 0.2, "top_p": 0.9}).startswith(
        "`temperature` and `top_p` cannot both be specified")


@pytest.mark.parametrize("model", ["claude-opus-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5",
                                   "claude-opus-4-6"])
def test_prefill_is_refused_from_the_4_6_models_on(client, model):
    prefilled = [*HI, {"role": "assistant", "content": "An agent loop"}]
    assert refused(client, model=model, messages=prefilled) == mp.PREFILL_REJECTED


def test_prefill_still_works_on_the_4_5_models_without_thinking(client):
    prefilled = [*HI, {"role": "assistant", "content": "An agent loop"}]
    assert ask(client, model="claude-haiku-4-5", messages=prefilled).stop_reason == "end_turn"


def test_notes_between_tool_calls_come_back_as_thinking_on_opus_5_5(client):
    reply = ask(client, model="claude-opus-5-5", tools=TOOLS, messages=REVIEW)
    assert [b.type for b in reply.content] == ["thinking", "thinking", "tool_use"]
    assert [b.type for b in ask(client, model="claude-opus-5", tools=TOOLS, messages=REVIEW).content] == \
        ["thinking", "text", "tool_use"]
    between = ask(client, model="claude-sonnet-5-5", tools=TOOLS, messages=REVIEW,
                  thinking={"type": "between_tools"})
    assert [b.type for b in between.content] == ["thinking", "tool_use"]  # the note only, nothing up front


@pytest.mark.parametrize("model, minimum", [("claude-opus-5", 512), ("claude-opus-5-5", 512), ("claude-sonnet-5", 1024),
                                            ("claude-haiku-4-5", 4096), ("claude-opus-4-7", 2048)])
def test_each_model_has_its_own_cache_minimum(client, model, minimum):
    def prompt(words: int) -> tuple[list, int]:
        system = [{"type": "text", "text": " ".join(f"rule{i}" for i in range(words)),
                   "cache_control": {"type": "ephemeral"}}]
        messages = [{"role": "user", "content": "Hi"}]
        return system, client.messages.count_tokens(model=model, system=system, messages=messages).input_tokens

    def written(system: list) -> int:
        reply = ask(client, model=model, system=system, max_tokens=200, messages=[{"role": "user", "content": "Hi"}])
        return reply.usage.cache_creation_input_tokens

    per_word = prompt(1000)[1] / 1000
    below, below_tokens = prompt(int(minimum * 0.9 / per_word))
    above, above_tokens = prompt(int(minimum * 1.1 / per_word))
    assert below_tokens < minimum < above_tokens
    assert written(below) == 0 and written(above) > 0


def test_every_model_the_sdk_names_has_a_row_or_the_nearest_one():
    import course_sandbox.models as models
    for model in models.KNOWN_MODELS:
        assert isinstance(mp.profile(model), mp.Profile)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=st.sampled_from(sorted(mp.PROFILES)),
       kind=st.sampled_from([None, "adaptive", "enabled", "disabled", "between_tools"]),
       effort=st.sampled_from([None, *mp.EFFORTS]),
       tools=st.booleans())
def test_any_thinking_setting_gets_a_documented_400_or_a_response_that_fits_it(client, model, kind, effort, tools):
    params = {"model": model, "max_tokens": 4000, "messages": REVIEW if tools else HI}
    if kind:
        params["thinking"] = {"type": kind, **({"budget_tokens": 1024} if kind == "enabled" else {})}
    if effort:
        params["output_config"] = {"effort": effort}
    if tools:
        params["tools"] = TOOLS
    documented = {mp.ENABLED_REJECTED, mp.DISABLED_REJECTED, mp.DISABLED_REJECTED_PREVIEW,
                  mp.DISABLED_USE_BETWEEN_TOOLS, mp.BETWEEN_TOOLS_REJECTED, mp.ADAPTIVE_REJECTED,
                  *(mp.EFFORT_WITHOUT_THINKING.format(effort=e) for e in mp.EFFORTS),
                  *(mp.EFFORT_NOT_SUPPORTED.format(effort=e) for e in mp.EFFORTS if e not in mp.profile(model).efforts)}
    try:
        reply = client.messages.create(**params)
    except anthropic.BadRequestError as error:
        assert error.body["error"]["message"] in documented
        return
    types = [b.type for b in reply.content]
    row = mp.profile(model)
    if kind == "disabled" or (kind is None and row.thinking == "off"):
        assert "thinking" not in types
    assert all(b.thinking == "" for b in reply.content if b.type == "thinking") or row.display == "summarized" \
        or kind == "enabled"


@pytest.mark.parametrize(("model", "refused"), [
    # the effort docs: `max` from Opus 4.6, `xhigh` from Opus 4.7
    ("claude-opus-4-5", ("xhigh", "max")), ("claude-opus-4-6", ("xhigh",)), ("claude-sonnet-4-6", ("xhigh",)),
    ("claude-opus-4-7", ()), ("claude-opus-5", ()), ("claude-sonnet-5", ()),
])
@pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")
def test_an_effort_level_the_model_predates_is_a_400(client, model, refused):
    for effort in mp.EFFORTS:
        request = {"model": model, "max_tokens": 100, "messages": HI, "output_config": {"effort": effort}}
        if effort not in refused:
            assert client.messages.create(**request).stop_reason
            continue
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(**request)
        assert caught.value.body["error"]["message"] == f"output_config.effort: '{effort}' is not supported on this model"

