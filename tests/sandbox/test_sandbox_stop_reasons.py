"""Every stop reason happens for its documented reason, through the real SDK."""

import anthropic
import pytest

from sandbox_http import MODEL
from review_material import TOOLS

WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}


def ask(client, content, **params):
    """One request with thinking off (Opus 5 takes `disabled` at effort high or below), so that what
    max_tokens cuts is the answer itself; tests/sandbox/test_model_profiles.py cuts inside thinking."""
    params.setdefault("max_tokens", 1000)
    params.setdefault("thinking", {"type": "disabled"})
    return client.messages.create(model=MODEL, messages=[{"role": "user", "content": content}], **params)


def test_end_turn(client):
    response = ask(client, "What is 6 * 7?")
    assert response.stop_reason == "end_turn"
    assert response.content[0].text == "6 * 7 = 42"


def test_tool_use(client):
    response = ask(client, "Review PR #482", tools=TOOLS)
    assert response.stop_reason == "tool_use"
    use = [b for b in response.content if b.type == "tool_use"]
    assert [(u.name, u.input) for u in use] == [("get_diff", {"pr": 482})]


def test_max_tokens_cuts_the_text(client):
    full = ask(client, "Explain the agent loop in detail")
    cut = ask(client, "Explain the agent loop in detail", max_tokens=20)
    assert cut.stop_reason == "max_tokens"
    assert cut.usage.output_tokens == 20
    assert full.content[0].text.startswith(cut.content[0].text)
    assert len(cut.content[0].text) < len(full.content[0].text)


def test_max_tokens_cuts_a_tool_use_block(client):
    """The tool_use block is there, but its input is incomplete: executing it would be wrong."""
    response = ask(client, "Review PR #482", tools=TOOLS, max_tokens=17)
    assert response.stop_reason == "max_tokens"
    use = response.content[-1]
    assert use.type == "tool_use"
    assert use.input != {"pr": 482}


def test_stop_sequence(client):
    response = ask(client, "Count from 1 to 10", stop_sequences=["5"])
    assert response.stop_reason == "stop_sequence"
    assert response.stop_sequence == "5"
    assert response.content[0].text == "1, 2, 3, 4, "


def test_refusal_with_stop_details(client):
    response = ask(client, "Write ransomware that encrypts a hospital's disks")
    assert response.stop_reason == "refusal"
    assert response.stop_details.type == "refusal"
    assert response.stop_details.category == "cyber"
    assert response.stop_details.explanation


def test_pause_turn_continues_without_a_new_user_message(client):
    messages = [{"role": "user", "content": "Search the web for the latest python-gitlab release"}]
    first = client.messages.create(model=MODEL, max_tokens=2000, tools=[WEB_SEARCH], messages=messages)
    assert first.stop_reason == "pause_turn"
    assert [b.type for b in first.content].count("server_tool_use") == 2
    messages.append({"role": "assistant", "content": first.content})
    second = client.messages.create(model=MODEL, max_tokens=2000, tools=[WEB_SEARCH], messages=messages)
    assert second.stop_reason == "end_turn"
    assert [b.type for b in second.content] == ["server_tool_use", "web_search_tool_result", "text"]
    assert second.usage.server_tool_use.web_search_requests == 1


def test_pause_turn_answered_with_a_new_user_message_starts_over(client):
    messages = [{"role": "user", "content": "Search the web for the latest python-gitlab release"}]
    first = client.messages.create(model=MODEL, max_tokens=2000, tools=[WEB_SEARCH], messages=messages)
    messages += [{"role": "assistant", "content": first.content}, {"role": "user", "content": "continue"}]
    again = client.messages.create(model=MODEL, max_tokens=2000, tools=[WEB_SEARCH], messages=messages)
    assert again.stop_reason == "pause_turn"


def test_context_window_exceeded_while_generating(sandbox, client):
    prompt = "Explain the agent loop in detail"
    needed = client.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": prompt}]).input_tokens
    sandbox.context_window = needed + 30
    response = ask(client, prompt, max_tokens=4000)
    assert response.stop_reason == "model_context_window_exceeded"
    assert response.usage.output_tokens == 30


def test_prompt_longer_than_the_context_window_is_400(sandbox, client):
    sandbox.context_window = 10
    with pytest.raises(anthropic.BadRequestError) as caught:
        ask(client, "Explain the agent loop in detail")
    assert caught.value.body["error"]["message"].startswith("prompt is too long: ")
    assert caught.value.body["error"]["message"].endswith(" tokens > 10 maximum")
