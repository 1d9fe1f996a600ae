"""Everyday words to tools, both languages (issue #37, stop 58): a Russian request reaches a tool named in English
through the tool's own words (a borrowed word such as «принтер», «сервер», «видео» read in Latin letters, an everyday
verb such as «полей» or «продли»); a code that ends in digits (T-5, vid-88) in a request to check something is no
merge request; a request no offered tool fits gets honest text that names the tools it has, never the canned
merge-request text; a city or a name alone makes no tool fit."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, text_of, uses

PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
CANNED = ("merge request", "Попросите меня проверить merge request")


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def spec(name: str, description: str, properties: dict) -> dict:
    return {"name": name, "description": description,
            "input_schema": {"type": "object", "properties": properties, "required": list(properties)}}


ID = st.builds(lambda prefix, n: f"{prefix}-{n}", st.sampled_from(["T", "dev", "vid", "pj", "srv", "ab"]),
               st.integers(1, 999))
BORROWED = [("get_printer_status", "Status of a printer.", "Что с принтером {i}?"),
            ("restart_server", "Restart a server.", "Перезапусти сервер {i}."),
            ("get_video_info", "Length and title of a video.", "Какая длина у видео {i}?"),
            ("get_router_status", "Status of a router.", "Работает ли роутер {i}?")]
READERS = [spec("count_words", "Count the words in a text.", {"text": {"type": "string"}}),
           spec("translate_text", "Translate a text.", {"text": {"type": "string"}, "target": {"type": "string"}})]


@PROPERTY
@given(thing=st.sampled_from(BORROWED), item=ID)
def test_property_a_borrowed_russian_word_finds_the_english_tool(client, thing, item):
    name, description, asked = thing
    tool = spec(name, description, {"id": {"type": "string", "description": "Its id"}})
    response = ask(client, asked.format(i=item), [*READERS, tool])
    assert [n for n, _ in uses(response)] == [name]
    assert uses(response)[0][1] == {"id": item}


@PROPERTY
@given(item=ID, limit=st.integers(10, 90), amount=st.integers(100, 900),
       asked=st.sampled_from(["Проверь уровень в баке {i}; если меньше {l}%, закажи долив {a} литров.",
                              "Check the level of tank {i}; if it is below {l}%, order a refill of {a} liters.",
                              "Проверь статус {i} и скажи, больше ли он {l}."]))
def test_property_a_code_with_digits_is_no_merge_request(client, item, limit, amount, asked):
    response = ask(client, asked.format(i=item, l=limit, a=amount), READERS)
    said = text_of(response)
    assert not uses(response) and not any(c in said for c in CANNED)
    assert "count_words" in said and "translate_text" in said


@pytest.mark.parametrize("question", ["Can you book me a haircut for Saturday morning?", "Вызови мне такси до аэропорта.",
                                      "Will it snow in Oslo tomorrow?", "Будет ли завтра снег в Осло?"])
def test_nothing_fits_gets_honest_text_naming_the_tools(client, question):
    tools = [*READERS, spec("get_traffic", "Driving time between two places.",
                            {"origin": {"type": "string"}, "destination": {"type": "string"}})]
    response = ask(client, question, tools)
    said = text_of(response)
    assert not uses(response) and response.stop_reason == "end_turn"
    assert "get_traffic" in said and not any(c in said for c in CANNED)
    assert ("can't" in said) if question.isascii() else ("не могу" in said)


def test_a_review_asked_by_name_still_gets_the_merge_request_answer(client):
    response = ask(client, "Please review merge request !5.", [])
    assert "!5" in text_of(response)


@pytest.mark.parametrize(("request_", "delta"), [("Remove 12 units of SKU KX-4471 from the Leeds warehouse.", -12),
                                                 ("Спиши 7 единиц товара с артикулом ZT-0092 со склада в Казани.", -7),
                                                 ("Add 5 units of SKU AB-1 to the Leeds warehouse.", 5)])
def test_forced_any_takes_the_action_asked_for_over_a_reader(client, request_, delta):
    tools = [spec("get_stock", "Show how many units of a SKU are in stock.", {"sku": {"type": "string"}}),
             spec("adjust_stock", "Add or remove units of a SKU in a warehouse; negative delta removes units.",
                  {"sku": {"type": "string"}, "delta": {"type": "integer", "description": "Units to add (+) or "
                                                                                          "remove (-)"},
                   "warehouse": {"type": "string", "description": "Warehouse city"}})]
    response = ask(client, request_, tools, tool_choice={"type": "any"})
    [(name, tool_input)] = uses(response)
    assert name == "adjust_stock" and tool_input["delta"] == delta
    assert tool_input["warehouse"] in ("Leeds", "Казань")


def test_forced_any_on_a_question_still_reads(client):
    tools = [spec("get_stock", "Show how many units of a SKU are in stock.", {"sku": {"type": "string"}}),
             spec("adjust_stock", "Add or remove units of a SKU in a warehouse.",
                  {"sku": {"type": "string"}, "delta": {"type": "integer"}})]
    response = ask(client, "How many units of SKU KX-4471 are left?", tools, tool_choice={"type": "any"})
    assert [n for n, _ in uses(response)] == ["get_stock"]


@pytest.mark.parametrize("verb", ["water", "feed", "charge", "refill", "clean"])
@pytest.mark.parametrize("question", ["Does the {n} by the window ({n}-02) need a {v}?",
                                      "Should I {v} {n}-02 today? Just tell me what you think."])
def test_an_advice_question_reads_with_a_reader_whatever_the_action_verb(client, verb, question):
    noun = "plant"
    tools = [spec(f"check_{noun}_status", f"Current status of a {noun}.", {f"{noun}_id": {"type": "string"}}),
             spec(f"{verb}_{noun}", f"{verb.capitalize()} a {noun}.", {f"{noun}_id": {"type": "string"},
                                                                         "amount": {"type": "integer"}})]
    for choice in ({"type": "auto"}, {"type": "any"}):
        response = ask(client, question.format(n=noun, v=verb), tools, tool_choice=choice)
        assert [n for n, _ in uses(response)] in ([f"check_{noun}_status"], [])


NUTRITION_TOOLS = [spec("search_recipes", "Find recipes that use the given ingredients.",
                        {"ingredients": {"type": "array", "items": {"type": "string"}}}),
                   spec("get_nutrition", "Calories and nutrients of a food for a given weight.",
                        {"food": {"type": "string"}, "grams": {"type": "number"}})]


@PROPERTY
@given(grams=st.integers(20, 900), food=st.sampled_from(["quinoa", "oats", "lentils", "brown rice"]),
       what=st.sampled_from(["calories", "protein", "fat", "carbs"]))
def test_property_a_nutrient_question_reaches_the_nutrition_tool_with_its_food(client, grams, food, what):
    response = ask(client, f"How much {what} is in {grams} grams of cooked {food}?", NUTRITION_TOOLS)
    assert uses(response) == [("get_nutrition", {"food": food, "grams": grams})]


@pytest.mark.parametrize(("question", "tool_name"), [
    ("Сколько белка в 200 граммах творога?", "get_nutrition"),
    ("Когда следующий концерт группы «Сплин»?", "get_artist_tour_dates"),
    ("Any gigs by Portishead coming up?", "get_artist_tour_dates"),
    ("Можно сегодня выйти на пробежку в Казани или там смог?", "get_air_quality"),
    ("Is the smog bad in Delhi today?", "get_air_quality")])
def test_everyday_words_reach_the_tool_both_languages(client, question, tool_name):
    tools = [*NUTRITION_TOOLS,
             spec("get_artist_tour_dates", "Upcoming live concert dates of a music artist.", {"artist": {"type": "string"}}),
             spec("get_song_lyrics", "Lyrics of a song.", {"artist": {"type": "string"}, "title": {"type": "string"}}),
             spec("get_air_quality", "Current air quality index (AQI) and pollutant levels for a city.",
                  {"city": {"type": "string"}})]
    response = ask(client, question, tools)
    assert [n for n, _ in uses(response)] == [tool_name]


@pytest.mark.parametrize("request_", ["Найди предложения по перевозке из Твери в Москву на 2026-09-05 и закажи самое "
                                      "дешёвое.",
                                      "Get quotes for moving from Leeds to Bristol on 2026-08-14 and book the "
                                      "cheapest one."])
def test_order_the_cheapest_in_russian_as_in_english(client, request_):
    from tool_use_helpers import drive
    import json

    tools = [spec("get_moving_quotes", "Quotes from moving companies.", {"from_city": {"type": "string"},
                                                                        "to_city": {"type": "string"},
                                                                        "date": {"type": "string", "format": "date"}}),
             spec("book_mover", "Book a moving company.", {"company_id": {"type": "string"},
                                                           "date": {"type": "string", "format": "date"}})]
    quotes = [{"company_id": "mv-1", "price": 640}, {"company_id": "mv-2", "price": 455},
              {"company_id": "mv-3", "price": 520}]
    final, responses = drive(client, request_, tools, lambda n, i: (json.dumps(quotes if n == "get_moving_quotes"
                                                                              else {"booking": "bk-1"}), False))
    booked = [i for r in responses for n, i in uses(r) if n == "book_mover"]
    assert [b["company_id"] for b in booked] == ["mv-2"] and final.stop_reason == "end_turn"
