"""Everyday words to tools (issue #37): a question that needs a tool without naming it ("should I take
an umbrella?", "where is my parcel?") finds the tool through the tool's own name and description, in
English and Russian, with the city or order number taken from the question; nothing fits, honest text."""

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import ask, text_of, tool, uses

WEATHER = tool("get_weather", "Get the current weather in a given location",
               {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, ["location"])
FORECAST = tool("get_forecast", "Get the weather forecast for a city", {"city": {"type": "string"}})
TRACK = tool("track_order", "Track an order's delivery status by order number", {"order_number": {"type": "string"}})
ORDER = tool("get_order_status", "Look up the shipping status of an order",
             {"order_id": {"type": "string", "description": "The order ID"}})
TIME = tool("get_time", "Current local time in a time zone", {"timezone": {"type": "string"}})
CALCULATOR = tool("calculator", "Evaluate an arithmetic expression", {"expression": {"type": "string"}})


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


@pytest.mark.parametrize("question, city", [
    ("Should I take an umbrella this afternoon in Oslo?", "Oslo"),
    ("Do I need an umbrella in Paris today?", "Paris"),
    ("Is it going to rain in London tomorrow?", "London"),
    ("Will it snow in Denver this weekend?", "Denver"),
    ("Брать ли зонт в Москве?", "Москва"),
    ("Будет ли дождь в Казани?", "Казань"),
])
@pytest.mark.parametrize("tools", [[WEATHER, TRACK, TIME], [FORECAST, ORDER]])
def test_weather_words_find_the_weather_tool_with_the_city(client, question, city, tools):
    response = ask(client, question, tools)
    assert response.stop_reason == "tool_use"
    ((name, tool_input),) = uses(response)
    assert name == tools[0]["name"] and list(tool_input.values()) == [city]


@pytest.mark.parametrize("question, number", [
    ("Where is my parcel? Order 4521.", "4521"),
    ("Where's my parcel 55123?", "55123"),
    ("Where is my package? The tracking number is 1Z999AA10123456784.", "1Z999AA10123456784"),
    ("When will my parcel arrive? Order 88812", "88812"),
    ("Где моя посылка 7781?", "7781"),
    ("Где моя посылка? Заказ 4521", "4521"),
])
@pytest.mark.parametrize("tools", [[WEATHER, TRACK, TIME], [FORECAST, ORDER]])
def test_parcel_words_find_the_order_tool_with_the_number(client, question, number, tools):
    response = ask(client, question, tools)
    ((name, tool_input),) = uses(response)
    assert name == tools[1]["name"] and list(tool_input.values()) == [number]


@pytest.mark.parametrize("question, word", [("Where is my parcel?", "order_number"),
                                            ("Где моя посылка?", "order_number")])
def test_a_parcel_without_its_number_is_asked_for(client, question, word):
    response = ask(client, question, [WEATHER, TRACK])
    assert response.stop_reason == "end_turn" and word in text_of(response)


@pytest.mark.parametrize("question", ["Should I take an umbrella this afternoon in Oslo?", "Where is my parcel?",
                                      "Брать ли зонт в Москве?"])
def test_no_fitting_tool_gets_honest_text(client, question):
    response = ask(client, question, [CALCULATOR, TIME])
    assert response.stop_reason == "end_turn" and not uses(response)
    assert "simulated model" in text_of(response) or "модель" in text_of(response)


def test_a_train_is_not_rain(client):
    response = ask(client, "When does the train to Oslo leave?", [WEATHER])
    assert not uses(response)


@pytest.mark.parametrize("question, zone", [
    ("Is it too late to call my sister in Tokyo right now?", "Asia/Tokyo"),
    ("Would my colleague in London be asleep already?", "Europe/London"),
    ("Не поздно ли звонить в Москву?", "Europe/Moscow"),
])
def test_everyday_words_about_the_hour_find_the_time_tool(client, question, zone):
    response = ask(client, question, [WEATHER, TRACK, TIME])
    assert uses(response) == [("get_time", {"timezone": zone})]


@pytest.mark.parametrize("question", ["Is the late fee on invoice 17 fair?", "Tell me a story about a clockmaker."])
def test_the_time_tool_is_not_called_for_other_questions(client, question):
    response = ask(client, question, [TIME])
    assert not uses(response)


@pytest.mark.parametrize("question, city", [("Will I need a jacket in Oslo tonight?", "Oslo"),
                                            ("Как думаешь, в Новосибирске сейчас морозно?", "Новосибирск")])
def test_words_about_what_to_wear_find_the_weather_tool(client, question, city):
    response = ask(client, question, [FORECAST])
    assert uses(response) == [("get_forecast", {"city": city})]


def test_a_quoted_word_is_looked_up_without_its_quotes(client):
    define = tool("dictionary_lookup", "Definitions of an English word.", {"word": {"type": "string"}})
    assert uses(ask(client, "What does 'ephemeral' mean?", [WEATHER, define])) == [
        ("dictionary_lookup", {"word": "ephemeral"})]


@pytest.mark.parametrize("question", ["Should I wear shorts in Miami tomorrow?", "Is it a good day for a picnic in Miami?"])
def test_what_to_wear_or_do_outside_is_a_weather_question(client, question):
    assert uses(ask(client, question, [FORECAST, TIME])) == [("get_forecast", {"city": "Miami"})]


FLIGHT = tool("flight_status", "Current status of a flight", {"flight": {"type": "string", "description": "e.g. UA90"}})


@pytest.mark.parametrize("question, number", [
    ("My sister is on BA 283 this morning. Will it depart on time?", "BA283"),
    ("Is UA 90 delayed?", "UA90"),
    ("Рейс SU 1402 вылетит вовремя?", "SU1402"),
])
def test_flight_words_find_the_flight_tool_with_the_number_written_together(client, question, number):
    response = ask(client, question, [WEATHER, FLIGHT, TIME])
    assert uses(response) == [("flight_status", {"flight": number})]


@pytest.mark.parametrize("closing", ["Thanks, that's all!", "ok thank you", "Спасибо, это всё."])
def test_a_thank_you_gets_a_short_courteous_close(client, closing):
    response = client.messages.create(model="claude-opus-5", max_tokens=200, tools=[WEATHER], messages=[
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"},
        {"role": "user", "content": closing}])
    assert response.stop_reason == "end_turn" and not uses(response)
    assert len(text_of(response)) < 80 and "merge request" not in text_of(response)
