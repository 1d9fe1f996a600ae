"""Held-out probes for the general value binding (issue #37): every value the prompt states plainly (dates, times,
numbers with their units, money, codes, proper names, list items) goes to the schema field whose name, description,
type and format fit it, and a compound ask's filter reads the listed items' own fields.

The tools and prompts here were written before the binding, apart from the probes the issue reports, and are driven
over real HTTP with the real `anthropic` client."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

S = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}
DATE = {"type": "string", "format": "date"}
PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def forced(client, spec: dict, content: str, choice: str = "tool") -> dict:
    picked = {"type": "tool", "name": spec["name"]} if choice == "tool" else {"type": "any"}
    response = ask(client, content, [spec], tool_choice=picked)
    [(name, tool_input)] = uses(response)
    assert name == spec["name"] and validates(spec, tool_input)
    return tool_input


def digits(value) -> str:
    return re.sub(r"\D", "", str(value))


def same(got, want) -> bool:
    """Equal; strings compared without case and surrounding punctuation; a phone by its digits."""
    if isinstance(want, str) and isinstance(got, str):
        return got.strip(" .,").lower() == want.lower()
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return got == want


# ---------------------------------------------------------------- forced calls: one value per fitting field

FORCED = [
    ("hotel", tool("book_hotel", "Book a hotel room.", {
        "hotel_name": S, "check_in": {"type": "string", "description": "Check-in date, YYYY-MM-DD"},
        "check_out": {"type": "string", "description": "Check-out date, YYYY-MM-DD"}, "guests": INT}),
     "Book the Grand Budapest Hotel for 3 guests, checking in 2026-04-10 and checking out 2026-04-12.",
     {"hotel_name": "Grand Budapest Hotel", "check_in": "2026-04-10", "check_out": "2026-04-12", "guests": 3}),
    ("hotel words", tool("reserve_stay", "Reserve a stay.", {"check_in": S, "nights": INT}),
     "Reserve 4 nights starting March 14, 2026.", {"check_in": "2026-03-14", "nights": 4}),
    ("cents", tool("charge_card", "Charge the customer's card.", {"amount_cents": INT, "merchant": S}),
     "Charge $19.99 at Blue Fern Bakery.", {"amount_cents": 1999, "merchant": "Blue Fern Bakery"}),
    ("cents in description", tool("refund_payment", "Refund a payment.", {
        "amount": {"type": "integer", "description": "Amount in cents"}, "payment_id": S}),
     "Refund €42.50 of payment pay_8812.", {"amount": 4250, "payment_id": "pay_8812"}),
    ("zip", tool("update_address", "Update the shipping address.", {"street": S, "city": S, "zip": S}),
     "My new address is 14 Elm Road, Springfield, zip 62704.",
     {"street": "14 Elm Road", "city": "Springfield", "zip": "62704"}),
    ("postcode uk", tool("find_store", "Find the nearest store to a postcode.", {"postcode": S}),
     "Which store is nearest to SW1A 1AA?", {"postcode": "SW1A 1AA"}),
    ("number", tool("send_sms", "Send a text message.", {"number": S, "text": S}),
     "Text +44 7700 900123 saying the van is outside.", {"number": "+44 7700 900123"}),
    ("phone dashes", tool("call_contact", "Place a phone call.", {"number": S}),
     "Please call 415-555-0134.", {"number": "415-555-0134"}),
    ("warehouse", tool("transfer_stock", "Move stock between warehouses.", {
        "sku": S, "quantity": INT, "from_warehouse": S, "to_warehouse": S}),
     "Move 40 units of SKU BX-220 from the Leeds warehouse to the Dover warehouse.",
     {"sku": "BX-220", "quantity": 40, "from_warehouse": "Leeds", "to_warehouse": "Dover"}),
    ("task name", tool("create_task", "Create a task.", {"task_name": S, "assignee": S, "due_date": DATE}),
     "Create a task Quarterly Audit for Priya Nair, due 2026-06-30.",
     {"task_name": "Quarterly Audit", "assignee": "Priya Nair", "due_date": "2026-06-30"}),
    ("leave", tool("request_leave", "Request leave for an employee.", {
        "employee_name": S, "start_date": DATE, "end_date": DATE,
        "leave_type": {"type": "string", "enum": ["vacation", "sick", "parental"]}}),
     "Request vacation for Tomas Weber from 2026-07-01 to 2026-07-14.",
     {"employee_name": "Tomas Weber", "start_date": "2026-07-01", "end_date": "2026-07-14", "leave_type": "vacation"}),
    ("event", tool("create_event", "Create a calendar event.", {
        "title": S, "date": DATE, "start_time": {"type": "string", "description": "HH:MM"}, "duration_minutes": INT}),
     "Put Design Review on my calendar on 2026-03-12 at 14:30 for 1.5 hours.",
     {"date": "2026-03-12", "start_time": "14:30", "duration_minutes": 90}),
    ("reminder minutes", tool("set_reminder", "Set a reminder before an event.", {
        "event": S, "minutes_before": INT}),
     "Remind me 2 hours before the dentist appointment.", {"minutes_before": 120}),
    ("currency", tool("convert_currency", "Convert money.", {
        "amount": NUM, "from_currency": S, "to_currency": S}),
     "Convert 250 pounds to yen.", {"amount": 250, "from_currency": "GBP", "to_currency": "JPY"}),
    ("expense", tool("log_expense", "Log an expense.", {
        "amount": NUM, "merchant": S, "category": {"type": "string", "enum": ["food", "travel", "office"]},
        "date": DATE}),
     "Log 12.40 spent on food at Corner Deli on 2026-02-03.",
     {"amount": 12.4, "merchant": "Corner Deli", "category": "food", "date": "2026-02-03"}),
    ("table", tool("book_table", "Book a restaurant table.", {
        "restaurant": S, "party_size": INT, "date": DATE, "time": S}),
     "Reserve a table at Osteria Francescana for 4 on 2026-05-20 at 19:30.",
     {"restaurant": "Osteria Francescana", "party_size": 4, "date": "2026-05-20", "time": "19:30"}),
    ("signup", tool("register_user", "Register a new user.", {
        "full_name": S, "email": {"type": "string", "format": "email"}, "phone": S}),
     "Sign up Kenji Watanabe, kenji.w@example.org, phone +81 90 1234 5678.",
     {"full_name": "Kenji Watanabe", "email": "kenji.w@example.org", "phone": "+81 90 1234 5678"}),
    ("invoice", tool("create_invoice", "Create an invoice.", {"client_name": S, "hours": NUM, "hourly_rate": NUM}),
     "Invoice Acme Corp for 12 hours at 85 per hour.", {"client_name": "Acme Corp", "hours": 12, "hourly_rate": 85}),
    ("thermostat", tool("set_thermostat", "Set the thermostat.", {"temperature_celsius": NUM}),
     "Set the heating to 21.5 degrees.", {"temperature_celsius": 21.5}),
    ("salary", tool("add_employee", "Add an employee.", {
        "first_name": S, "last_name": S, "department": S, "salary": INT, "start_date": DATE}),
     "Add Sofia Marquez to the Engineering department starting 2026-09-01 with a salary of $95,000.",
     {"first_name": "Sofia", "last_name": "Marquez", "department": "Engineering", "salary": 95000,
      "start_date": "2026-09-01"}),
    ("file size", tool("find_large_files", "Find files over a size.", {"directory": S, "min_size_kb": INT}),
     "Find files bigger than 2 MB in /var/data.", {"directory": "/var/data", "min_size_kb": 2048}),
    ("timeout", tool("run_job", "Run a batch job.", {"job": S, "timeout_minutes": INT}),
     "Run the nightly-export job with a 2 hour timeout.", {"job": "nightly-export", "timeout_minutes": 120}),
    ("order id and email", tool("resend_receipt", "Resend a receipt.", {
        "order_id": S, "email": {"type": "string", "format": "email"}}),
     "Resend the receipt for order A-20931 to dana@shop.example.", {"order_id": "A-20931", "email": "dana@shop.example"}),
    ("flight", tool("check_flight", "Check a flight's status.", {"flight_number": S, "date": DATE}),
     "Is flight BA117 on 2026-01-09 on time?", {"flight_number": "BA117", "date": "2026-01-09"}),
    ("ride note", tool("book_ride", "Book a ride.", {"pickup": S, "dropoff": S, "note": S}, ["pickup", "dropoff"]),
     "Book a ride from Union Station to Pike Place Market. Note: I have two large suitcases.",
     {"pickup": "Union Station", "dropoff": "Pike Place Market", "note": "I have two large suitcases"}),
    # Russian
    ("ru hotel", tool("book_hotel", "Забронировать отель.", {
        "hotel": S, "arrival_date": DATE, "departure_date": DATE, "guests": INT}),
     "Забронируй отель «Метрополь» с 5 марта 2026 по 8 марта 2026 на 2 гостей.",
     {"hotel": "Метрополь", "arrival_date": "2026-03-05", "departure_date": "2026-03-08", "guests": 2}),
    ("ru kopecks", tool("send_payment", "Перевести деньги.", {"amount_kopecks": INT, "phone": S}),
     "Переведи 1500 рублей на номер +7 912 345-67-89.", {"amount_kopecks": 150000, "phone": "+7 912 345-67-89"}),
    ("ru shopping", tool("add_items", "Добавить в список покупок.", {"items": {"type": "array", "items": S}}),
     "Добавь в список покупок молоко, яйца, хлеб и сыр.", {"items": ["молоко", "яйца", "хлеб", "сыр"]}),
    ("ru index", tool("ship_parcel", "Отправить посылку.", {"city": S, "postal_code": S, "weight_kg": NUM}),
     "Отправь посылку весом 2,5 кг в Казань, индекс 420111.",
     {"city": "Казань", "postal_code": "420111", "weight_kg": 2.5}),
]


@pytest.mark.parametrize(("label", "spec", "prompt", "want"), FORCED, ids=[c[0] for c in FORCED])
def test_forced_call_binds_each_stated_value(client, label, spec, prompt, want):
    got = forced(client, spec, prompt)
    wrong = {k: (got.get(k), v) for k, v in want.items()
             if not (same(got.get(k), v) or (k in ("number", "phone") and digits(got.get(k)) == digits(v)))}
    assert not wrong, f"{label}: {wrong} in {got}"


LISTS = [
    ("shopping", tool("add_to_shopping_list", "Add items to the shopping list.", {"items": {"type": "array", "items": S}}),
     "Put milk, eggs, sourdough bread and coffee beans on my shopping list.",
     lambda got: same(got["items"], ["milk", "eggs", "sourdough bread", "coffee beans"])),
    ("attendees", tool("invite", "Invite people to a meeting.", {"attendees": {"type": "array", "items": {
        "type": "object", "properties": {"name": S, "email": {"type": "string", "format": "email"}},
        "required": ["name", "email"]}}}),
     "Invite Omar Haddad (omar@ex.com) and Julia Berg (julia@ex.com).",
     lambda got: [(a["name"], a["email"]) for a in got["attendees"]] == [("Omar Haddad", "omar@ex.com"),
                                                                        ("Julia Berg", "julia@ex.com")]),
    ("people names", tool("add_members", "Add members to a team.", {"team": S, "members": {"type": "array", "items": {
        "type": "object", "properties": {"name": S}, "required": ["name"]}}}),
     "Add Lena Park, Marco Bellini and Aiyana Brooks to the Falcon team.",
     lambda got: [m["name"] for m in got["members"]] == ["Lena Park", "Marco Bellini", "Aiyana Brooks"]),
    ("tags", tool("tag_photo", "Tag a photo.", {"photo_id": S, "tags": {"type": "array", "items": S}}),
     "Tag photo IMG-2041 with beach, sunset and family.",
     lambda got: got["photo_id"] == "IMG-2041" and same(got["tags"], ["beach", "sunset", "family"])),
]


@pytest.mark.parametrize(("label", "spec", "prompt", "check"), LISTS, ids=[c[0] for c in LISTS])
def test_forced_call_binds_list_items(client, label, spec, prompt, check):
    got = forced(client, spec, prompt, choice="any")
    assert check(got), got


# ---------------------------------------------------------------- automatic choice: everyday words to the right tool

WEATHER = tool("get_weather", "Get the current weather and forecast for a city.", {"city": S})
TIME = tool("get_time", "Get the current local time in a timezone.", {"timezone": S})
TRANSLATE = tool("translate", "Translate text into another language.", {"text": S, "target_language": S})
TRACK = tool("track_package", "Track a package by its tracking number.", {"tracking_number": S})
STOCK = tool("get_stock_price", "Get a stock's latest price.", {"ticker": S})
AUTO_TOOLS = [WEATHER, TIME, TRANSLATE, TRACK, STOCK]

AUTO = [
    ("time tokyo", "What time is it in Tokyo right now?", "get_time",
     lambda i: i["timezone"] in ("Asia/Tokyo", "Tokyo")),
    ("translate", "Translate 'good morning' to French.", "translate",
     lambda i: i["text"].lower() == "good morning" and i["target_language"].lower() in ("french", "fr")),
    ("umbrella", "Should I take an umbrella in Lisbon this afternoon?", "get_weather", lambda i: i["city"] == "Lisbon"),
    ("parcel", "Where is my parcel 1Z999AA10123456784?", "track_package",
     lambda i: i["tracking_number"] == "1Z999AA10123456784"),
    ("ru weather", "Какая сейчас погода в Казани?", "get_weather", lambda i: i["city"] == "Казань"),
    ("ru translate", "Переведи «доброе утро» на немецкий.", "translate",
     lambda i: i["text"] == "доброе утро" and i["target_language"].lower() in ("german", "de", "немецкий")),
]


@pytest.mark.parametrize(("label", "prompt", "name", "check"), AUTO, ids=[c[0] for c in AUTO])
def test_automatic_choice_calls_the_tool_that_fits(client, label, prompt, name, check):
    got = uses(ask(client, prompt, AUTO_TOOLS))
    assert got and got[0][0] == name and check(got[0][1]), got


def test_automatic_choice_calls_nothing_for_writing(client):
    response = ask(client, "Write me a haiku about autumn leaves.", AUTO_TOOLS)
    assert not uses(response) and text_of(response).strip()


# ---------------------------------------------------------------- compound asks: filters read the items' own fields

def later(client, prompt, tools, listing):
    def answer(name, tool_input):
        if name == tools[0]["name"]:
            return json.dumps(listing, ensure_ascii=False), False
        return json.dumps({"ok": True}), False
    final, responses = drive(client, prompt, tools, answer)
    assert final.stop_reason == "end_turn"
    made = [u for r in responses for u in uses(r)]
    assert made and made[0][0] == tools[0]["name"]
    return made[1:], text_of(final)


FILES = [tool("list_files", "List the files in a directory with their sizes.", {"directory": S}),
         tool("delete_file", "Delete a file.", {"path": S})]
FILE_LIST = {"files": [{"path": "/srv/a.log", "size_kb": 340}, {"path": "/srv/b.log", "size_kb": 12},
                       {"path": "/srv/c.txt", "size_kb": 900}, {"path": "/srv/d.log", "size_kb": 101}]}
SHIPMENTS = [tool("list_shipments", "List the customer's shipments.", {"customer_id": S}),
             tool("notify_customer", "Notify the customer about a shipment.", {"shipment_id": S})]
SHIPMENT_LIST = [{"shipment_id": "S1", "status": "delayed"}, {"shipment_id": "S2", "status": "delivered"},
                 {"shipment_id": "S3", "status": "delayed"}]
STOCKS = [tool("list_inventory", "List the inventory of a store.", {"store": S}),
          tool("reorder_item", "Reorder an item from the supplier.", {"sku": S})]
STOCK_LIST = [{"sku": "K-1", "availability": "in stock"}, {"sku": "K-2", "availability": "out of stock"},
              {"sku": "K-3", "availability": "out of stock"}]
USERS = [tool("list_users", "Показать пользователей.", {"group": S}),
         tool("delete_user", "Удалить пользователя.", {"user_id": S})]
USER_LIST = [{"user_id": "u1", "status": "active"}, {"user_id": "u2", "status": "inactive"},
             {"user_id": "u3", "status": "inactive"}]


COMPOUND = [
    ("two conditions", "List the files in /srv, then delete the .log files larger than 100 KB.", FILES, FILE_LIST,
     [("delete_file", {"path": "/srv/a.log"}), ("delete_file", {"path": "/srv/d.log"})]),
    ("status delayed", "Show the shipments of customer C-77, then notify the customer about the ones that are delayed.",
     SHIPMENTS, SHIPMENT_LIST, [("notify_customer", {"shipment_id": "S1"}), ("notify_customer", {"shipment_id": "S3"})]),
    ("out of stock", "List the inventory of store Northgate, then reorder the items that are out of stock.",
     STOCKS, STOCK_LIST, [("reorder_item", {"sku": "K-2"}), ("reorder_item", {"sku": "K-3"})]),
    ("ru inactive", "Покажи пользователей группы staff, потом удали неактивных.", USERS, USER_LIST,
     [("delete_user", {"user_id": "u2"}), ("delete_user", {"user_id": "u3"})]),
]


@pytest.mark.parametrize(("label", "prompt", "tools", "listing", "want"), COMPOUND, ids=[c[0] for c in COMPOUND])
def test_compound_ask_acts_on_the_items_whose_fields_match(client, label, prompt, tools, listing, want):
    made, _ = later(client, prompt, tools, listing)
    assert made == want


def test_compound_ask_that_cannot_be_judged_acts_on_none(client):
    made, said = later(client, "List the files in /srv, then delete the ones that look suspicious.", FILES, FILE_LIST)
    assert made == [] and "acted on none" in said


# ---------------------------------------------------------------- properties: a generated field and a stated value

DATE_FIELDS = ["check_in", "start_date", "due", "deadline", "arrival", "departure_date", "delivery_date", "birthday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


@PROPERTY
@given(field=st.sampled_from(DATE_FIELDS), year=st.integers(2024, 2030), month=st.integers(1, 12),
       day=st.integers(1, 28), style=st.sampled_from(["iso", "us", "eu", "dotted"]))
def test_property_a_stated_date_binds_to_a_date_field(client, field, year, month, day, style):
    said = {"iso": f"{year}-{month:02d}-{day:02d}", "us": f"{MONTHS[month - 1]} {day}, {year}",
            "eu": f"{day} {MONTHS[month - 1]} {year}", "dotted": f"{day:02d}.{month:02d}.{year}"}[style]
    spec = tool("update_booking", "Update a booking.", {"booking_ref": S, field: S})
    got = forced(client, spec, f"Change booking BK-4410 so the {field.replace('_', ' ')} is {said}.")
    assert got == {"booking_ref": "BK-4410", field: f"{year}-{month:02d}-{day:02d}"}


@PROPERTY
@given(dollars=st.integers(1, 4999), cents=st.integers(0, 99),
       field=st.sampled_from(["amount_cents", "price_cents", "total_cents", "cents"]),
       merchant=st.sampled_from(["Blue Fern Bakery", "Harbor Books", "Vega Hardware", "Lumen Optics"]))
def test_property_dollars_become_cents(client, dollars, cents, field, merchant):
    spec = tool("record_purchase", "Record a purchase.", {field: INT, "merchant": S})
    got = forced(client, spec, f"Record a purchase of ${dollars}.{cents:02d} at {merchant}.")
    assert got == {field: dollars * 100 + cents, "merchant": merchant}


@PROPERTY
@given(items=st.lists(st.sampled_from(["apples", "rice", "olive oil", "tea", "butter", "lemons", "pasta", "honey"]),
                      min_size=2, max_size=5, unique=True),
       lead=st.sampled_from(["Add {} to my shopping list.", "I need to buy {}.", "Shopping list: {}."]))
def test_property_a_list_in_prose_binds_to_an_array(client, items, lead):
    said = ", ".join(items[:-1]) + " and " + items[-1]
    spec = tool("add_to_list", "Add items to a shopping list.", {"items": {"type": "array", "items": S}})
    assert forced(client, spec, lead.format(said))["items"] == items


@PROPERTY
@given(zip_code=st.integers(10000, 99999), phone=st.integers(2000000, 9999999),
       name=st.sampled_from(["Lena Fischer", "Omar Haddad", "Ines Duarte", "Kofi Mensah"]),
       order=st.permutations(["zip", "phone", "name"]))
def test_property_codes_go_to_their_fields(client, zip_code, phone, name, order):
    phone_said = f"+1 555 {str(phone)[:3]} {str(phone)[3:]}"
    parts = {"zip": f"zip code {zip_code}", "phone": f"phone {phone_said}", "name": f"name {name}"}
    spec = tool("create_contact", "Create a contact.", {"name": S, "phone": S, "zip": S})
    got = forced(client, spec, "Create a contact: " + ", ".join(parts[k] for k in order) + ".")
    assert got["name"] == name and got["zip"] == str(zip_code) and digits(got["phone"]) == digits(phone_said)


# ---------------------------------------------------------------- added after the change (regressions, not counted)

@pytest.mark.parametrize(("spec", "prompt", "want"), [
    (tool("translate_text", "Translates text.", {"text": S, "target_lang": {
        "type": "string", "description": "ISO 639-1 code"}}), "translate good morning to French",
     {"text": "good morning", "target_lang": "fr"}),
    (tool("translator", "Machine translation service.", {"source_text": S, "to": S}),
     'Translate "where is the station" into French, please.', {"source_text": "where is the station", "to": "French"}),
    (tool("get_current_time", "Returns the current time for a location.", {"location": S}),
     "what time is it in Tokyo", {"location": "Tokyo"}),
])
def test_automatic_choice_binds_the_phrase_and_the_language(client, spec, prompt, want):
    assert uses(ask(client, prompt, [spec])) == [(spec["name"], want)]
