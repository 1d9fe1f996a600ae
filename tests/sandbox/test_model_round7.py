"""Round 7 of the simulated model (issue #37, stop 60), as properties over generated tools and prompts in domains
of their own (lockers, permits, boats, courses, print jobs…), never round 6's: a number written right after the
noun an id field names is that field's and no amount's; thousands in groups of three are one number, full stop or
not; a tool's own enum option, in any case, fits it; after в/из/до a Russian name is a place, never a person; a verb
names the field a condition compares ("costs more than", «стоят дороже»), and exactly the items that meet it are
acted on; a curious question makes no side-effect call; a yes/no question is answered first, from the results
only, and the answer follows the value. Every call validates against its tool's schema; every conversation ends."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, checked, drive, text_of, tool, uses, validates

PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
INT = {"type": "integer"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def forced(client, content, spec) -> dict:
    response = ask(client, content, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    (name, tool_input), = uses(response)
    assert name == spec["name"] and validates(spec, tool_input)
    return tool_input


# --- a number after the noun an id field names is that field's, never an amount's ------------------------------

THINGS = ["locker", "permit", "voucher", "account", "membership", "pass"]


@PROPERTY
@given(thing=st.sampled_from(THINGS), number=st.integers(1000, 99999), amount=st.integers(2, 500),
       said=st.booleans())
def test_property_a_number_after_its_nouns_is_the_ids_and_no_amount(client, thing, number, amount, said):
    spec = tool(f"top_up_{thing}", f"Put credit on a {thing}.", {f"{thing}_number": S, "amount_usd": INT})
    content = f"Top up my {thing} {number}" + (f" with {amount} dollars." if said else ".")
    response = ask(client, content, [spec])
    calls = checked([response], [spec])
    for _, tool_input in calls:
        assert tool_input[f"{thing}_number"] == str(number) and tool_input["amount_usd"] == amount
    if said:
        assert len(calls) == 1, text_of(response)
    else:  # an amount never given is asked for, never made up nor taken from the number
        assert not calls and "amount_usd" in text_of(response)


# --- thousands in groups of three ------------------------------------------------------------------------------

GOALS = [("set_reading_goal", "Set a yearly reading goal in pages.", "pages", "reading goal"),
         ("set_savings_goal", "Set a savings goal.", "target", "savings goal"),
         ("set_swim_goal", "Set a monthly swimming goal in metres.", "metres", "swimming goal")]


@PROPERTY
@given(goal=st.sampled_from(GOALS), thousands=st.integers(1, 999), rest=st.integers(0, 999),
       end=st.sampled_from([".", "", "!", " please."]))
def test_property_a_number_in_groups_of_three_is_one_value(client, goal, thousands, rest, end):
    name, description, field, words = goal
    spec = tool(name, description, {field: INT})
    tool_input = forced(client, f"Set my {words} to {thousands} {rest:03d}{end}", spec)
    assert tool_input[field] == thousands * 1000 + rest


# --- a tool's own enum option fits it ----------------------------------------------------------------------------

SERVICES = [("book_garage", "Book a car service at the garage.", "job",
             ["шиномонтаж", "диагностика", "развал-схождение"], "Запиши машину на {}."),
            ("book_spa", "Book a treatment at the spa.", "treatment", ["massage", "facial", "manicure"],
             "Book me a {} for Friday."),
            ("book_lesson", "Book a music lesson.", "instrument", ["гитара", "фортепиано", "скрипка"],
             "Хочу записаться на урок, {}.")]


def inflected(option: str) -> str:
    """A Russian option as a request writes it after «на» or in a list: the accusative of its first word."""
    first, *rest = option.split("-")
    if first.endswith("а"):
        first = first[:-1] + "у"
    return "-".join([first, *rest])


@PROPERTY
@given(service=st.sampled_from(SERVICES), index=st.integers(1, 2))
def test_property_a_tools_own_enum_option_fits_it_in_any_case(client, service, index):
    """(Never the enum's first option, so a default cannot pass.)"""
    name, description, field, options, wording = service
    spec = tool(name, description, {field: {"type": "string", "enum": options}})
    others = [tool("get_weather", "Current weather in a city.", {"city": S}),
              tool("track_order", "Delivery status of an order.", {"order_number": S})]
    option = options[index]
    response = ask(client, wording.format(inflected(option)), [*others, spec])
    calls = checked([response], [*others, spec])
    assert calls == [(name, {field: option})], (calls, text_of(response))


# --- after в / из / до a Russian name is a place -----------------------------------------------------------------

CITIES = [("Самару", "Самара"), ("Тулу", "Тула"), ("Рязань", "Рязань"), ("Пензу", "Пенза"), ("Уфу", "Уфа"),
          ("Кострому", "Кострома")]


@PROPERTY
@given(city=st.sampled_from(CITIES), thing=st.sampled_from(["подарок", "открытку", "торт", "корзину фруктов"]),
       person=st.sampled_from(["", "Марине Ковалёвой ", "Олегу Петрову "]))
def test_property_a_russian_place_after_a_preposition_is_never_a_persons_name(client, city, thing, person):
    spec = tool("send_gift", "Deliver a gift to a person.", {"recipient_name": S, "city": S})
    written, _ = city
    response = ask(client, f"Отправь {thing} {person}в {written}.", [spec])
    calls = checked([response], [spec])
    for _, tool_input in calls:
        assert written[:-1].casefold() not in tool_input["recipient_name"].casefold()
    if person:
        assert calls and person.split()[0][:-1] in calls[0][1]["recipient_name"], text_of(response)
    else:
        assert not calls, calls  # no one is named: asked, never made up


# --- a verb names the field a condition compares ---------------------------------------------------------------

ITEMS = [("courses", "course", "Evening Pottery", "Spanish A2", "Yoga Basics", "Chess Club", "Film Club"),
         ("print jobs", "print_job", "poster", "brochure", "flyer", "booklet", "banner")]


@PROPERTY
@given(kind=st.sampled_from(ITEMS), prices=st.lists(st.integers(1, 60), min_size=3, max_size=5),
       limit=st.integers(5, 50), verb=st.sampled_from(["costs more than", "costs over", "cost more than"]))
def test_property_exactly_the_items_that_cost_more_are_cancelled(client, kind, prices, limit, verb):
    plural, singular, *names = kind
    items = [{f"{singular}_id": f"{singular[:2]}-{i}", "title": names[i], "price": p} for i, p in enumerate(prices)]
    tools = [tool(f"list_{singular}s", f"List my {plural} with their price.", {}),
             tool(f"cancel_{singular}", f"Cancel a {plural[:-1]}.", {f"{singular}_id": S})]

    def answer(name, tool_input):
        return (json.dumps(items) if name.startswith("list") else json.dumps({"ok": True})), False

    final, responses = drive(client, f"List my {plural} and cancel every one that {verb} {limit} euros.", tools,
                             answer)
    calls = checked(responses, tools)
    assert final.stop_reason == "end_turn" and len(responses) <= 6
    cancelled = sorted(i[f"{singular}_id"] for n, i in calls if n.startswith("cancel"))
    assert cancelled == sorted(item[f"{singular}_id"] for item in items if item["price"] > limit)


# --- hands off: a curious question makes no side-effect call ---------------------------------------------------

@PROPERTY
@given(thing=st.sampled_from(["boat", "parcel", "locker", "ticket", "booking"]), number=st.integers(100, 9999),
       opening=st.sampled_from(["Just curious, how do people usually {verb} a {thing}, e.g. {thing} {number}?",
                                "Out of curiosity: how would someone {verb} {thing} {number}?",
                                "Просто интересно, как вообще {verb_ru} {thing} {number}?"]),
       verb=st.sampled_from([("return", "return", "оформляют возврат"), ("cancel", "cancel", "отменяют"),
                             ("delete", "delete", "удаляют")]))
def test_property_a_curious_question_acts_on_nothing(client, thing, number, opening, verb):
    name, said, said_ru = verb
    spec = tool(f"{name}_{thing}", f"{name.capitalize()} a {thing}.", {f"{thing}_number": S})
    response = ask(client, opening.format(verb=said, verb_ru=said_ru, thing=thing, number=number), [spec])
    assert not uses(response)
    if name != "return":  # the action tool that fits is said to be held back, not to fit nothing
        assert any(s in text_of(response) for s in ("I have not used", "я не вызывал")), text_of(response)


# --- a yes/no question is answered first, from the results --------------------------------------------------

@PROPERTY
@given(chance=st.integers(0, 100), city=st.sampled_from(["Lyon", "Porto", "Gdansk", "Казань"]),
       question=st.sampled_from(["Do I need a raincoat in {city} tomorrow?", "Will it rain in {city} this evening?",
                                 "Should I pack an umbrella for {city}?", "Нужен ли зонт в {city} завтра?"]))
def test_property_a_yes_no_question_is_answered_first_and_follows_the_value(client, chance, city, question):
    spec = tool("get_forecast", "Weather forecast for a city.", {"city": S})
    result = {"city": city, "precipitation_chance": chance, "temperature_c": 14}

    final, responses = drive(client, question.format(city=city), [spec], lambda n, i: (json.dumps(result), False))
    checked(responses, [spec])
    text = text_of(final)
    assert final.stop_reason == "end_turn" and len(responses) == 2
    first = text.split(".")[0]
    ru = bool(re.search(r"[а-яё]", question.format(city=city), re.I))  # the model answers in the request's language
    if chance >= 50:
        assert first.startswith("Да" if ru else "Yes") and str(chance) in first, text
    elif chance < 30:
        assert first.startswith("Нет" if ru else "No") and str(chance) in first, text
    else:
        assert not first.startswith(("Yes", "No", "Да", "Нет")), text  # a middling chance decides nothing


@PROPERTY
@given(prices=st.lists(st.integers(1, 999), min_size=2, max_size=6, unique=True),
       asked=st.sampled_from([("Which of my plans is the cheapest?", min), ("Which plan is the most expensive?", max),
                              ("Какой тариф самый дорогой?", max)]))
def test_property_a_which_is_the_most_question_names_the_item(client, prices, asked):
    question, pick = asked
    names = ["Basic", "Plus", "Family", "Pro", "Team", "Max"]
    items = [{"plan_id": f"p{i}", "name": names[i], "monthly_fee": p} for i, p in enumerate(prices)]
    spec = tool("list_plans", "List the plans on offer with their monthly fee.", {})
    final, responses = drive(client, question, [spec], lambda n, i: (json.dumps(items), False))
    checked(responses, [spec])
    chosen = pick(items, key=lambda item: item["monthly_fee"])
    first = text_of(final).split("\n")[0]
    assert first.split(".")[0].endswith(f"{chosen['name']}, monthly fee {chosen['monthly_fee']}"), first


# --- an optional place field takes the place the request names ------------------------------------------------

@PROPERTY
@given(name=st.sampled_from(["Riverside", "Old Town", "Northgate", "Harbour View"]),
       kind=st.sampled_from(["Stadium", "Market", "Library", "Station"]),
       wording=st.sampled_from(["Where can I leave my bike near the {place}?", "Any free bike racks around {place}?",
                                "Find me a bike rack near {place}, please."]))
def test_property_an_optional_place_field_takes_the_named_place(client, name, kind, wording):
    spec = tool("find_bike_racks", "Find free bike racks near a place.", {"near": S}, [])
    place = f"{name} {kind}"
    response = ask(client, wording.format(place=place), [spec])
    assert checked([response], [spec]) == [("find_bike_racks", {"near": place})], text_of(response)


@PROPERTY
@given(status=st.sampled_from([("processing", "No"), ("awaiting payment", "No"), ("dispatched", "Yes"),
                               ("in transit", "Yes"), ("delivered", "Yes"), ("lost", None), ("returned", None)]),
       thing=st.sampled_from(["order", "parcel", "shipment"]), number=st.integers(10, 99999))
def test_property_a_has_it_shipped_question_is_answered_only_by_a_status_that_decides_it(client, status, thing,
                                                                                         number):
    """A delivered parcel has shipped (Yes); a processing one has not (No); a lost or returned one gets no Yes or No."""
    value, verdict = status
    spec = tool(f"get_{thing}_status", f"Status of an {thing}.", {f"{thing}_number": S})
    result = {f"{thing}_number": str(number), "status": value}
    final, responses = drive(client, f"Has my {thing} {number} shipped yet?", [spec],
                             lambda n, i: (json.dumps(result), False))
    checked(responses, [spec])
    first = text_of(final).split(".")[0]
    if verdict:
        assert first.startswith(f"{verdict}:") and value in first, first
    else:
        assert not first.startswith(("Yes", "No")), first
