"""A fresh probe's classes of values (issue #37, probe 54), as general rules rather than its prompts: durations and
clock times in words, dates relative to the day the conversation states, a sign the description asks for, a country
as its ISO code, a role noun or a leading verb that is no part of a name or a title, one object per item of a list in
prose, enums matched by meaning, free-text fields that take their clause, automatic use when the request holds the
values, no tool question for a piece of writing, and compound asks that act on the listed items that match.

The held-out examples are worded apart from the probe's, to check that the rules generalise."""

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from course_sandbox.simulated_model import item_lists, proper_names, slots, spoken_values
from course_sandbox.simulated_model import number_words
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

S = {"type": "string"}
INT = {"type": "integer"}
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def forced(client, spec: dict, content: str, system: str | None = None) -> dict:
    extra = {"system": system} if system else {}
    response = ask(client, content, [spec], tool_choice={"type": "tool", "name": spec["name"]}, **extra)
    [(name, tool_input)] = uses(response)
    assert name == spec["name"] and validates(spec, tool_input)
    return tool_input


# ---------------------------------------------------------------- properties of the readers

FIRST = ["Amara", "Bruno", "Chen", "Dalia", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jonas", "Keiko", "Luca"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Novak", "Petrov", "Quinn", "Rossi", "Sato", "Tanaka", "Ueda", "Vargas"]
names = st.builds(lambda first, last: f"{first} {last}", st.sampled_from(FIRST), st.sampled_from(LAST))


@given(hours=st.integers(0, 9), minutes=st.sampled_from([0, 5, 15, 20, 45]),
       style=st.sampled_from(["{h} hours {m} minutes", "{h} h {m} min", "{h} hours and {m} minutes"]))
def test_property_a_duration_with_hours_is_read_in_minutes(hours, minutes, style):
    said = style.format(h=hours, m=minutes)
    assert spoken_values.unit_numbers("duration_minutes", said) == [hours * 60 + minutes]
    assert spoken_values.unit_numbers("timeout_seconds", said) == [(hours * 60 + minutes) * 60]


@given(whole=st.integers(1, 6), part=st.sampled_from([("a half", 30), ("a quarter", 15), ("three quarters", 45)]))
def test_property_hours_and_a_fraction(whole, part):
    words, minutes = part
    said = number_words.digits(f"for {whole} and {words} hours")
    assert spoken_values.durations(said) == [whole * 60 + minutes]


@given(hour=st.integers(1, 11), how=st.sampled_from([("quarter past", 15, 0), ("half past", 30, 0),
                                                      ("quarter to", 45, -1)]))
def test_property_clock_words_split_into_hour_and_minute(hour, how):
    words, minute, shift = how
    times = spoken_values.times(number_words.digits(f"wake me at {words} {hour}"))
    expected_hour = (hour + shift - 1) % 12 + 1
    assert slots._clock_part("hour", INT, times) == expected_hour
    assert slots._clock_part("minute", INT, times) == minute
    assert slots._clock_part("duration", INT, times) is None


@given(day=st.dates(dt.date(2020, 1, 1), dt.date(2030, 12, 31)), weeks=st.integers(1, 8))
def test_property_relative_dates_follow_the_stated_today(day, weeks):
    said = [f"Today is {day.strftime('%A')}, {day.day} {day.strftime('%B')} {day.year}."]
    token = slots.set_today(slots.stated_today(said))
    try:
        found = slots._relative_dates(f"in {weeks} weeks, and the day after tomorrow")
    finally:
        slots.reset_today(token)
    assert found == [(day + dt.timedelta(weeks=weeks)).isoformat(), (day + dt.timedelta(days=2)).isoformat()]
    assert slots.today() == slots.TODAY


@given(count=st.integers(1, 500), verb=st.sampled_from(["We sold {n} units", "Remove {n} items", "{n} were damaged"]))
def test_property_a_signed_change_is_negative_when_the_request_takes_away(count, verb):
    description = "Change in units: negative to remove, positive to add"
    assert slots._takes_away(description, verb.format(n=count) + ", take them off.")
    assert not slots._takes_away(description, f"We received {count} units, add them.")
    assert not slots._takes_away("Change in units", verb.format(n=count))


@given(country=st.sampled_from([("Germany", "DE"), ("Japan", "JP"), ("Norway", "NO"), ("Brazil", "BR"),
                                ("Португалии", "PT")]))
def test_property_a_country_becomes_its_code_only_where_a_code_is_wanted(country):
    said, code = country
    text = f"A supplier based in {said}."
    assert slots._country_code("country", {"type": "string", "pattern": "^[A-Z]{2}$"}, text) == code
    assert slots._country_code("country", {"type": "string", "description": "ISO 3166-1 alpha-2"}, text) == code
    assert slots._country_code("country", S, text) is None
    assert slots._country_code("city", {"type": "string", "pattern": "^[A-Z]{2}$"}, text) is None


@given(person=names, role=st.sampled_from(["Patient", "Customer", "Employee", "Guest", "Student"]))
def test_property_a_role_noun_before_a_name_is_no_part_of_it(person, role):
    assert person in proper_names.read(f"{role} {person} asked for a callback.").all
    assert f"{role} {person}" not in proper_names.read(f"{role} {person} asked for a callback.").all


@given(first=names, second=names, third=names)
def test_property_a_shared_role_goes_to_every_bare_name_before_it(first, second, third):
    if len({first, second, third}) < 3:
        return
    text = f"Add {first} as a host, and {second} and {third} as viewers."
    marks = [(text.index(n), text.index(n) + len(n)) for n in (first, second, third)]
    pieces = item_lists.object_items({"full_name": S}, text, lambda name, schema: marks)
    assert [p.split(" as ")[-1].rstrip(".") for p in pieces] == ["a host", "viewers", "viewers"]


@given(amounts=st.lists(st.decimals("0.5", "999", places=2), min_size=2, max_size=4),
       things=st.permutations(["a taxi", "lunch", "the museum", "parking"]))
def test_property_each_amount_of_money_marks_one_item(amounts, things):
    text = "I spent " + " and ".join(f"{a} EUR on {t}" for a, t in zip(amounts, things)) + "."
    spans = spoken_values.money_spans(text)
    assert len(spans) == len(amounts)
    pieces = item_lists.stretches(text, spans)
    assert [item_lists.label(p) for p in pieces] == [t.removeprefix("a ").removeprefix("the ") for t in
                                                     things[:len(amounts)]]


# ---------------------------------------------------------------- held-out requests, worded apart from the probe

def test_held_out_duration_and_clock(client):
    timer = tool("book_focus_time", "Block focus time in the calendar.",
                 {"duration_minutes": {"type": "integer", "minimum": 1}, "topic": S})
    assert forced(client, timer, 'Block two hours and 15 minutes for "quarterly report".')["duration_minutes"] == 135
    alarm = tool("set_alarm", "Set an alarm.", {"hour": {"type": "integer", "minimum": 0, "maximum": 23},
                                                 "minute": {"type": "integer", "minimum": 0, "maximum": 59}})
    assert forced(client, alarm, "Ring at half past seven, please.") == {"hour": 7, "minute": 30}


def test_held_out_relative_date_against_the_system_prompt(client):
    visit = tool("book_visit", "Book a vet visit.", {"date": {"type": "string", "format": "date"}, "pet": S})
    got = forced(client, visit, "Book Rex in for three days from now.", system="Current date: 2026-07-10.")
    assert got["date"] == "2026-07-13"
    assert forced(client, visit, "Book Rex in for next week's Friday, in a week.")["date"] == "2025-01-22"


def test_held_out_sign_country_role_and_title(client):
    stock = tool("change_stock", "Change the stock of an item.",
                 {"sku": S, "change": {"type": "integer", "description": "Negative removes stock, positive adds it"}})
    assert forced(client, stock, "Write off 3 units of SKU QX-9, they were damaged.")["change"] == -3
    assert forced(client, stock, "We received 20 units of SKU QX-9.")["change"] == 20
    firm = tool("add_vendor", "Add a vendor.", {"legal_name": S, "country": {"type": "string", "pattern": "^[A-Z]{2}$"}})
    assert forced(client, firm, "Add Fjord Tech AS as a vendor, they are located in Norway.")["country"] == "NO"
    note = tool("note_complaint", "Note a complaint.", {"customer_name": S, "issue": S})
    assert forced(client, note, "Customer Ines Duarte says the parcel was wet.")["customer_name"] == "Ines Duarte"
    record = tool("add_record", "Add a record to my collection.", {"title": S, "artist": S})
    assert forced(client, record, "Put Kind of Blue by Miles Davis in my collection.") == {
        "title": "Kind of Blue", "artist": "Miles Davis"}


def test_held_out_lists_of_objects(client):
    costs = tool("file_costs", "File travel costs.", {"costs": {"type": "array", "items": {
        "type": "object", "properties": {"description": S, "amount": {"type": "number"}, "currency": S},
        "required": ["description", "amount", "currency"]}}})
    got = forced(client, costs, "On the trip I paid 30 USD for parking and 7.20 USD for coffee.")["costs"]
    assert [(c["description"], c["amount"]) for c in got] == [("parking", 30), ("coffee", 7.2)]
    team = tool("share_board", "Share a board.", {"board": S, "people": {"type": "array", "items": {
        "type": "object", "properties": {"full_name": S, "role": {"type": "string", "enum": ["admin", "editor", "viewer"]}},
        "required": ["full_name", "role"]}}})
    got = forced(client, team, "Share board B-7: Omar Haddad as an admin, and Julia Berg and Ken Sato as viewers.")
    assert [(p["full_name"], p["role"]) for p in got["people"]] == [
        ("Omar Haddad", "admin"), ("Julia Berg", "viewer"), ("Ken Sato", "viewer")]


def test_held_out_enums_by_meaning_and_free_text(client):
    review = tool("tag_review", "Tag a review.", {"sentiment": {"type": "string", "enum": ["positive", "negative", "mixed"]}})
    assert forced(client, review, "Great sound, but the strap broke within a month.")["sentiment"] == "mixed"
    hook = tool("subscribe", "Subscribe to store events.", {"events": {"type": "array", "items": {
        "type": "string", "enum": ["order.created", "order.shipped", "order.cancelled"]}}})
    assert forced(client, hook, "Notify me about shipped and cancelled orders.")["events"] == ["order.shipped",
                                                                                             "order.cancelled"]
    mail = tool("send_message", "Send a message.", {"to": {"type": "string", "format": "email"}, "subject": S, "body": S})
    got = forced(client, mail, 'Message kai@band.io with subject "Rehearsal", saying that we start at eight tonight.')
    assert got["subject"] == "Rehearsal" and got["body"].lower() == "we start at eight tonight"
    cancel = tool("cancel_booking", "Cancel a booking.", {"booking_id": S, "reason": S})
    assert forced(client, cancel, "Cancel booking BK-22 because the client got sick.")["reason"] == "the client got sick"
    invite = tool("invite", "Пригласить на созвон.", {"people": {"type": "array", "items": S,
                                                                   "description": "Имена участников"}})
    assert forced(client, invite, "Пригласи на созвон Ивана, Ольгу и Дмитрия.")["people"] == ["Иван", "Ольга", "Дмитрий"]


def test_held_out_automatic_use(client):
    track = tool("track_parcel", "Track a parcel by its tracking number.", {"tracking_number": S})
    weather = tool("get_weather", "Current weather in a city.", {"city": S})
    calc = tool("calc", "Evaluate an arithmetic expression.", {"expression": S})
    response = ask(client, "Has my package moved? The code on the receipt is JJD0002249912345678.", [weather, track])
    assert uses(response) == [("track_parcel", {"tracking_number": "JJD0002249912345678"})]
    [(_, tool_input)] = uses(ask(client, "How much is 12.5% of 880?", [weather, calc]))
    assert eval(tool_input["expression"], {"__builtins__": {}}) == 110  # noqa: S307 - digits and operators only
    poem = ask(client, "Compose a short poem about rain in Paris.", [weather, track])
    assert not uses(poem) and "I need" not in text_of(poem) and text_of(poem).strip()


def test_held_out_compound_ask_acts_on_the_matching_listed_items_only(client):
    tools = [tool("list_tickets", "List the tickets of a project.", {"project": S}),
             tool("close_ticket", "Close a ticket.", {"project": S, "number": INT}),
             tool("delete_ticket", "Delete a ticket.", {"project": S, "number": INT})]
    listing = {"tickets": [{"number": 7, "title": "Crash on start", "labels": ["duplicate"]},
                           {"number": 9, "title": "Dark theme", "labels": []},
                           {"number": 12, "title": "Crash again", "labels": ["duplicate"]}]}

    def answer(name, tool_input):
        return (json.dumps(listing) if name == "list_tickets" else '{"ok": true}'), False

    final, responses = drive(client, "Show the tickets in project apollo-web, then close the ones labelled duplicate.",
                             tools, answer)
    calls = [(b.name, b.input) for r in responses for b in r.content if b.type == "tool_use"]
    assert calls == [("list_tickets", {"project": "apollo-web"}), ("close_ticket", {"project": "apollo-web", "number": 7}),
                     ("close_ticket", {"project": "apollo-web", "number": 12})]
    assert final.stop_reason == "end_turn"
    first = responses[0]
    assert [b.name for b in first.content if b.type == "tool_use"] == ["list_tickets"]  # nothing acted on before


def test_held_out_ends_of_a_movement_and_a_product_name(client):
    courier = tool("book_courier", "Book a courier.", {
        "pickup": {"type": "object", "properties": {"name": S, "city": S}, "required": ["name", "city"]},
        "dropoff": {"type": "object", "properties": {"name": S, "street": S, "city": S, "postcode": S},
                    "required": ["name", "street", "city", "postcode"]}})
    got = forced(client, courier, "Collect it from Harbour Bakery in Bristol and take it to Tom Reid, "
                                  "12 Mill Lane, Leeds LS1 4AP. Thanks.")
    assert got == {"pickup": {"name": "Harbour Bakery", "city": "Bristol"},
                   "dropoff": {"name": "Tom Reid", "street": "12 Mill Lane", "city": "Leeds", "postcode": "LS1 4AP"}}
    rate = tool("rate_product", "Rate a product.", {"product": S, "stars": {"type": "integer", "minimum": 1, "maximum": 5}})
    assert forced(client, rate, "My verdict on the Kindle Paperwhite: solid, 4 stars.") == {
        "product": "Kindle Paperwhite", "stars": 4}


def test_held_out_counts_names_without_quotes_and_past_days(client):
    food = tool("order_food", "Order food.", {"items": {"type": "array", "items": {
        "type": "object", "properties": {"dish": S, "quantity": INT}, "required": ["dish", "quantity"]}}})
    assert forced(client, food, "Order 2 pad thai and 3 spring rolls.")["items"] == [
        {"dish": "pad thai", "quantity": 2}, {"dish": "spring rolls", "quantity": 3}]
    timer = tool("start_timer", "Start a timer.", {"minutes": INT, "label": S})
    assert forced(client, timer, "Set a 20 minute timer called Tea.") == {"minutes": 20, "label": "Tea"}
    run = tool("log_run", "Log a run.", {"distance_km": {"type": "number"}, "date": {"type": "string", "format": "date"}})
    assert forced(client, run, "Log a 5 km run from yesterday.") == {"distance_km": 5, "date": "2025-01-14"}
    flag = tool("flag_comment", "Flag a comment.", {"comment_id": S, "reason": S})
    assert forced(client, flag, "Flag comment c-8812 as spam since it links to a casino.")["reason"] == \
        "it links to a casino"


@given(hour=st.integers(1, 12), minutes=st.integers(1, 59))
def test_property_minutes_past_the_hour(hour, minutes):
    assert spoken_values.times(number_words.digits(f"meet at {minutes} past {hour}")) == [f"{hour:02d}:{minutes:02d}"]
    assert number_words.digits(f"from {minutes} to {hour} people") == f"from {minutes} to {hour} people"  # a range


def test_held_out_currency_first_amounts_and_let_them_know(client):
    spend = tool("add_expense", "Add expenses.", {"expenses": {"type": "array", "items": {
        "type": "object", "properties": {"what": S, "amount": {"type": "number"}, "currency": S},
        "required": ["what", "amount", "currency"]}}})
    got = forced(client, spend, "Add $14 for a sandwich, $6.50 for coffee and $30 for a cab.")["expenses"]
    assert [(e["what"], e["amount"]) for e in got] == [("sandwich", 14), ("coffee", 6.5), ("cab", 30)]
    note = tool("send_note", "Send a note.", {"recipient": {"type": "string", "format": "email"}, "message": S})
    assert forced(client, note, "Let ana@x.io know that the build is green.")["message"] == "The build is green"
    room = tool("book_room", "Book a room.", {"room": S, "start_time": {"type": "string", "description": "HH:MM"}})
    assert forced(client, room, "Grab the Atlas room at ten past nine.")["start_time"] == "09:10"


@pytest.mark.parametrize("qualifier", ["with a red label", "from last year", "older than the others", "by the intern"])
def test_held_out_a_qualifier_nothing_reads_acts_on_none(client, qualifier):
    tools = [tool("list_tasks", "List my tasks.", {"project": S}, []),
             tool("delete_task", "Delete a task.", {"task_id": S})]
    listing = {"tasks": [{"task_id": "t1", "title": "Pay rent"}, {"task_id": "t2", "title": "Call mum"}]}

    def answer(name, tool_input):
        return (json.dumps(listing) if name == "list_tasks" else '{"ok": true}'), False

    final, responses = drive(client, f"List my tasks, then delete the ones {qualifier}.", tools, answer)
    calls = [b.name for r in responses for b in r.content if b.type == "tool_use"]
    assert calls == ["list_tasks"] and final.stop_reason == "end_turn"
    assert "acted on none" in text_of(final)
