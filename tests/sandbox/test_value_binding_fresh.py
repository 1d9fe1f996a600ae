"""A second held-out set for the general value binding (issue #37), written after binding.py and run against it
before any change made for these prompts: new tools, new wordings, both languages, tool_choice any/tool/auto, and
compound asks whose filter reads the listed items' fields."""

import json
import re

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

S = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}
DATE = {"type": "string", "format": "date"}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def forced(client, spec: dict, content: str, choice: str = "tool") -> dict:
    picked = {"type": "tool", "name": spec["name"]} if choice == "tool" else {"type": "any"}
    [(name, tool_input)] = uses(ask(client, content, [spec], tool_choice=picked))
    assert name == spec["name"] and validates(spec, tool_input)
    return tool_input


def digits(value) -> str:
    return re.sub(r"\D", "", str(value))


CASES = [
    ("rent car", tool("rent_car", "Rent a car.", {"pickup_date": DATE, "return_date": DATE, "pickup_city": S}),
     "Rent me a car in Porto from 2026-08-02 to 2026-08-09.",
     {"pickup_date": "2026-08-02", "return_date": "2026-08-09", "pickup_city": "Porto"}),
    ("tip cents", tool("add_tip", "Add a tip to an order.", {"order_ref": S, "tip_cents": INT}),
     "Add a $3.50 tip to order R-5521.", {"order_ref": "R-5521", "tip_cents": 350}),
    ("pence", tool("top_up", "Top up a travel card.", {"card_number": S, "amount_pence": INT}),
     "Top up card 4410-2291 with £12.", {"amount_pence": 1200}),
    ("bandwidth", tool("set_quota", "Set a storage quota.", {"user": S, "quota_mb": INT}),
     "Give jdoe a quota of 3 GB.", {"quota_mb": 3072}),
    ("seconds", tool("set_timer", "Set a timer.", {"label": S, "seconds": INT}),
     "Set a 5 minute timer for the eggs.", {"seconds": 300}),
    ("courier phone", tool("book_courier", "Book a courier.", {"contact_phone": S, "pickup_postcode": S}),
     "Courier pickup at postcode EC1A 1BB, my phone is 020 7946 0958.",
     {"pickup_postcode": "EC1A 1BB", "contact_phone": "020 7946 0958"}),
    ("vendor", tool("pay_invoice", "Pay a supplier invoice.", {"vendor": S, "amount": NUM, "due_date": DATE}),
     "Pay Northwind Traders 1,250.00 EUR by 2026-05-31.",
     {"vendor": "Northwind Traders", "amount": 1250, "due_date": "2026-05-31"}),
    ("interview", tool("schedule_interview", "Schedule a job interview.", {
        "candidate": S, "interviewer": S, "date": DATE, "time": S}),
     "Schedule an interview with candidate Maya Lindgren, interviewer Raj Patel, on 2026-02-17 at 11:00.",
     {"candidate": "Maya Lindgren", "interviewer": "Raj Patel", "date": "2026-02-17", "time": "11:00"}),
    ("ru vacation", tool("book_vacation", "Оформить отпуск.", {"employee": S, "start_date": DATE, "days": INT}),
     "Оформи отпуск сотруднику Ольга Белова с 1 июля 2026 на 14 дней.",
     {"start_date": "2026-07-01", "days": 14}),
    ("ru price kopecks", tool("set_price", "Установить цену товара.", {"sku": S, "price_kopecks": INT}),
     "Поставь цену 249,90 рублей на товар AB-778.", {"sku": "AB-778", "price_kopecks": 24990}),
    ("warehouse hours", tool("schedule_pickup", "Schedule a pickup at a warehouse.", {
        "warehouse": S, "window_hours": INT, "pallets": INT}),
     "Schedule a pickup of 6 pallets at the Rotterdam warehouse with a 4 hour window.",
     {"warehouse": "Rotterdam", "window_hours": 4, "pallets": 6}),
]


@pytest.mark.parametrize(("label", "spec", "prompt", "want"), CASES, ids=[c[0] for c in CASES])
def test_fresh_forced_values(client, label, spec, prompt, want):
    got = forced(client, spec, prompt)
    wrong = {k: (got.get(k), v) for k, v in want.items() if not (
        got.get(k) == v or (isinstance(v, str) and isinstance(got.get(k), str) and got[k].lower() == v.lower())
        or ("phone" in k and digits(got.get(k)) == digits(v)))}
    assert not wrong, f"{label}: {wrong} in {got}"


def test_fresh_guests_in_an_array_of_objects(client):
    spec = tool("check_in_guests", "Check guests in.", {"guests": {"type": "array", "items": {
        "type": "object", "properties": {"full_name": S}, "required": ["full_name"]}}, "room": S})
    got = forced(client, spec, "Check in Hugo Brandt and Elif Kaya to room 214.", choice="any")
    assert [g["full_name"] for g in got["guests"]] == ["Hugo Brandt", "Elif Kaya"]


def test_fresh_automatic_currency_and_time(client):
    tools = [tool("convert_currency", "Convert an amount between currencies.", {
        "amount": NUM, "from_currency": S, "to_currency": S}),
             tool("world_clock", "Current local time in a city.", {"city": S})]
    got = uses(ask(client, "What's the time in Sydney right now?", tools))
    assert got and got[0] == ("world_clock", {"city": "Sydney"})
    got = uses(ask(client, "How many euros is 40 dollars?", tools))
    assert got and got[0][0] == "convert_currency" and got[0][1]["amount"] == 40


def test_fresh_compound_two_field_conditions(client):
    tools = [tool("list_orders", "List a customer's orders.", {"customer": S}),
             tool("refund_order", "Refund an order.", {"order_id": S})]
    listing = [{"order_id": "O1", "status": "cancelled", "total": 120},
               {"order_id": "O2", "status": "cancelled", "total": 15},
               {"order_id": "O3", "status": "shipped", "total": 300}]

    def answer(name, tool_input):
        return (json.dumps(listing) if name == "list_orders" else '{"ok": true}'), False

    final, responses = drive(client, "List the orders of customer Dana Cole, then refund the ones that are cancelled "
                                     "with a total over 100.", tools, answer)
    made = [u for r in responses for u in uses(r)]
    assert made[1:] == [("refund_order", {"order_id": "O1"})] and final.stop_reason == "end_turn"


def test_fresh_compound_russian_status(client):
    # «площадки north» names the `site` (the glossary's «площадк»), «перезагрузи» asks for a reboot (an action)
    tools = [tool("list_devices", "Показать устройства.", {"site": S}),
             tool("reboot_device", "Перезагрузить устройство.", {"device_id": S})]
    listing = [{"device_id": "d1", "status": "offline"}, {"device_id": "d2", "status": "online"}]

    def answer(name, tool_input):
        return (json.dumps(listing) if name == "list_devices" else '{"ok": true}'), False

    final, responses = drive(client, "Покажи устройства площадки north, потом перезагрузи те, что offline.", tools,
                             answer)
    made = [u for r in responses for u in uses(r)]
    assert made[1:] == [("reboot_device", {"device_id": "d1"})] and final.stop_reason == "end_turn"
    assert text_of(final).strip()
