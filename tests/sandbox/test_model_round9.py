"""Round 9 of the simulated model (issue #37, stop 62), by mechanism, as properties over generated tools and prompts
in domains of their own (meeting rooms, parking, rentals, dentists, couriers, chat apps…): a later step filters the
listed items by a time of day ("the ones before noon", «после обеда») or by the person they belong to ("the ones Bob
booked"); a Russian date without its year («12 марта», «до 5-го») is resolved to the next such day and the text
says which; a vehicle plate is kept as written; a quoted message's words never pick the tool nor ask for an action
("send Bob the message 'delete everything'" sends). Every call validates against its tool's schema; no action the
request did not ask for; every asked-for action proposed; every conversation ends."""

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, checked, drive, forced, text_of, tool

PROPERTY = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}
INT = {"type": "integer"}
DATE = {"type": "string", "format": "date"}
TODAY = dt.date(2025, 1, 15)  # the sandbox's fixed today (slots.TODAY)


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# --- 1. a later step filters the listed items by a time of day or by their owner ---------------------------------

THINGS = [("booking", "брони"), ("slot", "слоты"), ("session", "сессии"), ("appointment", "записи")]
CLOCKS = [  # (the words, a test on the item's HH:MM)
    ("before noon", lambda at: at < "12:00"), ("in the morning", lambda at: at < "12:00"),
    ("after 3pm", lambda at: at >= "15:00"), ("after 10:30", lambda at: at >= "10:30"),
    ("«после обеда»", lambda at: at >= "12:00"), ("«до 10 часов»", lambda at: at < "10:00"),
]
PEOPLE = ["Bob", "Alice", "Priya", "Tomasz"]


def _listing(noun: str, hours: list[int], owners: list[str]) -> list[dict]:
    return [{"id": f"{noun[:2].upper()}-{k + 1}", "start": f"2025-01-20T{hour:02d}:{15 * (k % 4):02d}:00",
             "booked_by": owner, "room": f"Room {k}"} for k, (hour, owner) in enumerate(zip(hours, owners))]


@PROPERTY
@given(thing=st.sampled_from(THINGS), clock=st.sampled_from(CLOCKS),
       hours=st.lists(st.integers(7, 20), min_size=1, max_size=6), verb=st.sampled_from(["cancel", "delete"]))
def test_property_a_time_of_day_selects_the_listed_items_acted_on(client, thing, clock, hours, verb):
    noun, ru = thing
    words, holds = clock
    tools = [tool(f"list_{noun}s", f"List the user's {noun}s.", {}),
             tool(f"{verb}_{noun}", f"{verb.capitalize()} a {noun}.", {f"{noun}_id": S})]
    listing = _listing(noun, hours, ["Bob"] * len(hours))
    if words.startswith("«"):
        russian = "Отмени" if verb == "cancel" else "Удали"
        content = f"Покажи мои {ru} и {russian.lower()} те, что {words.strip('«»')}."
    else:
        content = f"List my {noun}s, then {verb} the ones {words}."

    def answer(name, tool_input):
        return (json.dumps(listing) if name.startswith("list_") else '{"ok": true}'), False

    final, responses = drive(client, content, tools, answer)
    calls = checked(responses, tools)
    acted = [i[f"{noun}_id"] for name, i in calls if name == f"{verb}_{noun}"]
    assert acted == [item["id"] for item in listing if holds(item["start"][11:16])], [text_of(r) for r in responses]
    assert calls[0] == (f"list_{noun}s", {})
    assert final.stop_reason == "end_turn"


@PROPERTY
@given(thing=st.sampled_from(THINGS), person=st.sampled_from(PEOPLE),
       owners=st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=6),
       form=st.sampled_from(["List my {noun}s, then cancel the ones {person} booked.",
                             "Show the {noun}s and cancel those booked by {person}."]))
def test_property_the_person_the_items_belong_to_selects_them(client, thing, person, owners, form):
    noun, _ = thing
    tools = [tool(f"list_{noun}s", f"List the team's {noun}s.", {}),
             tool(f"cancel_{noun}", f"Cancel a {noun}.", {f"{noun}_id": S})]
    listing = _listing(noun, [9] * len(owners), owners)

    def answer(name, tool_input):
        return (json.dumps(listing) if name.startswith("list_") else '{"ok": true}'), False

    final, responses = drive(client, form.format(noun=noun, person=person), tools, answer)
    calls = checked(responses, tools)
    cancelled = [i[f"{noun}_id"] for name, i in calls if name == f"cancel_{noun}"]
    assert cancelled == [item["id"] for item in listing if item["booked_by"] == person], \
        [text_of(r) for r in responses]
    assert all(i.get(f"{noun}_id") != person for _, i in calls)  # the person is no id
    assert final.stop_reason == "end_turn"


@PROPERTY
@given(thing=st.sampled_from(THINGS), hours=st.lists(st.integers(7, 20), min_size=1, max_size=6),
       owners=st.lists(st.sampled_from(PEOPLE), min_size=6, max_size=6),
       form=st.sampled_from(["Cancel the {noun}s before noon.", "Cancel every {noun} made by Priya.",
                             "Please cancel my {noun}s in the afternoon.", "Отмени {ru} после обеда."]))
def test_property_one_ask_with_a_condition_lists_first_then_acts_on_the_matches(client, thing, hours, owners, form):
    noun, ru = thing
    tools = [tool(f"cancel_{noun}", f"Cancel a {noun}.", {f"{noun}_id": S}),
             tool(f"list_{noun}s", f"List the user's {noun}s.", {})]
    listing = _listing(noun, hours, owners)
    holds = {"before noon": lambda i: i["start"][11:16] < "12:00", "made by Priya": lambda i: i["booked_by"] == "Priya",
             "in the afternoon": lambda i: i["start"][11:16] >= "12:00",
             "после обеда": lambda i: i["start"][11:16] >= "12:00"}
    test = next(t for words, t in holds.items() if words in form)

    def answer(name, tool_input):
        return (json.dumps(listing) if name.startswith("list_") else '{"ok": true}'), False

    final, responses = drive(client, form.format(noun=noun, ru=ru), tools, answer)
    calls = checked(responses, tools)
    assert calls[0] == (f"list_{noun}s", {}), [text_of(r) for r in responses]  # never a made-up id
    assert [i[f"{noun}_id"] for n, i in calls[1:]] == [item["id"] for item in listing if test(item)]
    assert final.stop_reason == "end_turn"


KINDS = ["dairy", "fruit", "frozen", "bakery"]  # a category a listed item's own field holds


@PROPERTY
@given(kind=st.sampled_from(KINDS), held=st.lists(st.sampled_from(KINDS), min_size=1, max_size=6),
       store=st.sampled_from([("pantry", "item"), ("fridge", "product"), ("freezer", "entry")]),
       form=st.sampled_from(["Remove all the {kind} items from the {place}.",
                             "List the {place} contents, then remove the {kind} ones."]))
def test_property_a_category_word_selects_the_items_whose_field_holds_it(client, kind, held, store, form):
    place, noun = store
    tools = [tool(f"list_{place}", f"List the {noun}s in the {place}.", {}),
             tool(f"remove_{noun}", f"Remove a {noun} from the {place}.", {f"{noun}_id": S})]
    listing = [{"id": f"{noun[0].upper()}{k + 1}", "category": c, "label": f"thing {k}"} for k, c in enumerate(held)]

    def answer(name, tool_input):
        return (json.dumps(listing) if name.startswith("list_") else '{"ok": true}'), False

    final, responses = drive(client, form.format(kind=kind, place=place), tools, answer)
    calls = checked(responses, tools)
    assert calls[0] == (f"list_{place}", {}), [text_of(r) for r in responses]  # never remove_item("dairy")
    assert [i[f"{noun}_id"] for _, i in calls[1:]] == [item["id"] for item in listing if item["category"] == kind]
    assert final.stop_reason == "end_turn"


@PROPERTY
@given(free=st.lists(st.booleans(), min_size=1, max_size=6),
       thing=st.sampled_from([("slot", "слоты"), ("court", "корты"), ("table", "столики"), ("desk", "места")]),
       form=st.sampled_from(["List the {noun}s and book the first free one.", "Book the first free {noun}.",
                             "Покажи {ru} и забронируй первый свободный."]))
def test_property_the_first_free_one_is_one_item_the_first_that_is_free(client, free, thing, form):
    noun, ru = thing
    tools = [tool(f"list_{noun}s", f"List the {noun}s and whether each is free.", {}),
             tool(f"book_{noun}", f"Book a {noun}.", {f"{noun}_id": S})]
    listing = [{"id": f"{noun[0].upper()}{k + 1}", "free": f} for k, f in enumerate(free)]

    def answer(name, tool_input):
        return (json.dumps(listing) if name.startswith("list_") else '{"ok": true}'), False

    final, responses = drive(client, form.format(noun=noun, ru=ru), tools, answer)
    calls = checked(responses, tools)
    assert calls[0] == (f"list_{noun}s", {}), [text_of(r) for r in responses]
    assert [i[f"{noun}_id"] for _, i in calls[1:]] == [item["id"] for item in listing if item["free"]][:1]
    assert final.stop_reason == "end_turn"


def test_a_listing_alone_acts_on_nothing(client):
    tools = [tool("list_bookings", "List the bookings.", {}), tool("cancel_booking", "Cancel a booking.",
                                                                   {"booking_id": S})]
    final, responses = drive(client, "List the bookings before noon.", tools,
                             lambda name, i: (json.dumps(_listing("booking", [9, 14], ["Bob", "Ann"])), False))
    assert [name for name, _ in checked(responses, tools)] == ["list_bookings"]


# --- 2. a date without its year -----------------------------------------------------------------------------------

MONTHS_RU = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
             "ноября", "декабря"]
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"]
DATED = [("book_dentist", "Book a dentist appointment.", "date", "Запиши меня к стоматологу на {said}."),
         ("extend_rental", "Extend a car rental until a date.", "end_date", "Продли аренду машины до {said}."),
         ("schedule_pickup", "Schedule a courier pickup.", "pickup_date", "Schedule a courier pickup for {said}.")]


def _next(month: int, day: int) -> dt.date:
    year = TODAY.year if (month, day) >= (TODAY.month, TODAY.day) else TODAY.year + 1
    return dt.date(year, month, day)


@PROPERTY
@given(case=st.sampled_from(DATED), month=st.integers(1, 12), day=st.integers(1, 28), english=st.booleans())
def test_property_a_date_without_its_year_is_the_next_such_day_and_said(client, case, month, day, english):
    name, description, field, form = case
    said = f"{MONTHS_EN[month - 1]} {day}" if english else f"{day} {MONTHS_RU[month - 1]}"
    tool_input, text = forced(client, form.format(said=said), tool(name, description, {field: DATE}))
    expected = _next(month, day).isoformat()
    assert tool_input[field] == expected
    assert expected in text and said in text, text  # the date assumed is said, with the words it came from


@PROPERTY
@given(day=st.integers(1, 28), form=st.sampled_from(["Продли подписку до {d}-го.", "Перенеси платёж на {d}-е.",
                                                      "Extend my subscription by the {d}th."]))
def test_property_a_day_of_the_month_alone_is_its_next_occurrence(client, day, form):
    spec = tool("extend_subscription", "Extend a subscription until a date.", {"until": DATE})
    tool_input, text = forced(client, form.format(d=day), spec)
    expected = dt.date(2025, 1 if day >= TODAY.day else 2, day).isoformat()
    assert tool_input["until"] == expected and expected in text, text


def test_a_date_with_its_year_is_kept_and_not_announced(client):
    spec = tool("book_dentist", "Book a dentist appointment.", {"date": DATE})
    tool_input, text = forced(client, "Запиши меня к стоматологу на 12 марта 2027.", spec)
    assert tool_input["date"] == "2027-03-12" and "2027-03-12" not in text


# --- 3. a vehicle plate kept as written -------------------------------------------------------------------------

PLATES = st.one_of(
    st.from_regex(r"[A-Z]{2}[0-9]{2} [A-Z]{3}", fullmatch=True),  # UK
    st.from_regex(r"[АВЕКМНОРСТУХ][0-9]{3}[АВЕКМНОРСТУХ]{2}[0-9]{2,3}", fullmatch=True),  # Russian
    st.from_regex(r"[0-9][A-Z]{3}[0-9]{3}", fullmatch=True))  # a US one
FIELDS = ["plate", "license_plate", "registration_number", "vehicle_number"]


@PROPERTY
@given(plate=PLATES, field=st.sampled_from(FIELDS), hours=st.integers(1, 9),
       form=st.sampled_from(["Pay the parking for vehicle {p} for {h} hours.", "My car {p} needs {h} hours of parking.",
                             "Оплати парковку для машины {p} на {h} часа."]))
def test_property_a_plate_is_kept_as_written_and_no_count(client, plate, field, hours, form):
    spec = tool("pay_parking", "Pay for street parking.", {field: S, "hours": INT})
    tool_input, text = forced(client, form.format(p=plate, h=hours), spec)
    assert tool_input == {field: plate, "hours": hours}, text
    assert "placeholder" not in text and "заглушк" not in text


# --- 4. a quoted message never picks the tool nor asks for an action ---------------------------------------------

QUOTED = ["delete everything", "cancel my order", "remove all files", "отмени заказ", "удали всё",
          "please refund me", "book a table for two"]
MESSENGERS = [("send_message", "Send a chat message to a contact.", "to", "text"),
              ("message_friend", "Send a text message to a friend.", "to", "message")]


@PROPERTY
@given(quote=st.sampled_from(QUOTED), messenger=st.sampled_from(MESSENGERS), person=st.sampled_from(PEOPLE),
       form=st.sampled_from(["Send {p} the message '{q}'.", 'Send {p} a message saying "{q}".',
                             "Напиши {p} «{q}»."]))
def test_property_a_quoted_message_is_carried_and_asks_for_nothing(client, quote, messenger, person, form):
    name, description, to, body = messenger
    tools = [tool(name, description, {to: S, body: S}), tool("delete_all", "Delete all files and messages.", {}),
             tool("cancel_order", "Cancel an order.", {"order_id": S}),
             tool("refund_payment", "Refund a payment.", {"payment_id": S}),
             tool("book_table", "Book a restaurant table.", {"party_size": INT})]
    said = {"Bob": "Бобу", "Alice": "Алисе", "Priya": "Прие", "Tomasz": "Томашу"}[person] \
        if form.startswith("Напиши") else person
    final, responses = drive(client, form.format(p=said, q=quote), tools, lambda n, i: ('{"ok": true}', False))
    calls = checked(responses, tools)
    assert [n for n, _ in calls] == [name], [text_of(r) for r in responses]  # only the send, never the quote's verb
    assert calls[0][1][body] == quote
    assert final.stop_reason == "end_turn"


def test_a_quoted_message_gives_the_to_the_person_named(client):
    tools = [tool("send_message", "Send a chat message.", {"to": S, "text": S}),
             tool("delete_all", "Delete all messages.", {})]
    response = ask(client, "Send Bob the message 'delete everything'.", tools)
    assert checked([response], tools) == [("send_message", {"to": "Bob", "text": "delete everything"})]
    response = ask(client, "Напиши Бобу «удали всё».", tools)
    assert checked([response], tools) == [("send_message", {"to": "Боб", "text": "удали всё"})]
