"""The request's own values in the right fields (issue #37): proper names, lists in prose, phone numbers,
e-mails, URLs, dates and times, money and quantities, each bound to the property whose name, description,
type and format fit; trailing sentence punctuation left out; a placeholder only where the request holds
nothing better, and then the model says what it assumed."""

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import ask, text_of, tool, uses, validates

S = {"type": "string"}


def strings(items: dict = S) -> dict:
    return {"type": "array", "items": items}


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


CASES = [
    (tool("book_table", "Reserve a table at a restaurant",
          {"restaurant_name": S, "party_size": {"type": "integer"}, "date": {"type": "string", "format": "date"},
           "time": {"type": "string", "description": "Time, HH:MM"}}),
     "Book a table at Chez Panisse for 4 people on 2025-03-05 at 19:30.",
     {"restaurant_name": "Chez Panisse", "party_size": 4, "date": "2025-03-05", "time": "19:30"}),
    (tool("book_table", "Reserve a table", {"restaurant": {"type": "string", "description": "Name of the restaurant"},
                                            "guests": {"type": "integer"}}),
     "Get me a table at Chez Panisse for 2.", {"restaurant": "Chez Panisse", "guests": 2}),
    (tool("create_ticket", "Create a support ticket", {"title": S, "tags": strings()}),
     'Create a ticket titled "Refund not received" and tag it with urgent, billing and refund.',
     {"title": "Refund not received", "tags": ["urgent", "billing", "refund"]}),
    (tool("create_ticket", "Создать тикет", {"title": S, "tags": strings()}),
     "Создай тикет «Нет возврата» с тегами срочно, оплата и возврат.",
     {"title": "Нет возврата", "tags": ["срочно", "оплата", "возврат"]}),
    (tool("add_tags", "Tag a document", {"doc_id": S, "labels": strings()}),
     "Label doc-12 as draft, legal and internal.", {"doc_id": "doc-12", "labels": ["draft", "legal", "internal"]}),
    (tool("send_sms", "Send a text message", {"recipient": S, "message": S}),
     'Text +44 20 7946 0958 saying "Running late".', {"recipient": "+44 20 7946 0958", "message": "Running late"}),
    (tool("send_message", "Send a message to a contact", {"to": S, "body": S}),
     'Send "See you at 5" to +1 415 555 0134.', {"to": "+1 415 555 0134", "body": "See you at 5"}),
    (tool("create_invoice_line", "Add a line to an invoice",
          {"description": S, "quantity": {"type": "number"}, "unit_price": {"type": "number"}}),
     "Bill 3 hours of consulting at 120 each.", {"quantity": 3, "unit_price": 120}),
    (tool("create_invoice_line", "Add a line to an invoice", {"quantity": {"type": "number"},
                                                              "unit_price": {"type": "number"}}),
     "Bill consulting at $120 each for 3 hours.", {"quantity": 3, "unit_price": 120}),
    (tool("get_weather", "weather", {"city": S}), "Use get_weather for Oslo.", {"city": "Oslo"}),
    (tool("send_email", "Send an email", {"to": {"type": "string", "format": "email"}, "subject": S}),
     'Email ana@example.com with subject "Q3 report".', {"to": "ana@example.com", "subject": "Q3 report"}),
    (tool("fetch_page", "Fetch a web page", {"url": S}), "Fetch https://example.org/docs.",
     {"url": "https://example.org/docs"}),
    (tool("schedule_meeting", "Schedule a meeting",
          {"title": S, "date": S, "start_time": S, "attendees": strings({"type": "string", "format": "email"})}),
     'Schedule "Design review" on March 5, 2025 at 3pm with ana@example.com and bo@example.com.',
     {"title": "Design review", "date": "2025-03-05", "start_time": "15:00",
      "attendees": ["ana@example.com", "bo@example.com"]}),
    (tool("schedule_call", "Schedule a call", {"when": {"type": "string", "format": "date-time"}}),
     "Schedule a call on 2025-03-05 at 7:30 pm.", {"when": "2025-03-05T19:30:00Z"}),
    (tool("add_contact", "Add a contact", {"name": S, "phone": S, "email": S}),
     "Add Maria Lopez, phone +34 612 345 678, email maria@example.es.",
     {"name": "Maria Lopez", "phone": "+34 612 345 678", "email": "maria@example.es"}),
    (tool("transfer_money", "Transfer money", {"amount": {"type": "number"}, "currency": S, "to_account": S}),
     "Transfer 250 euros to account DE-4410.", {"amount": 250, "currency": "EUR", "to_account": "DE-4410"}),
    (tool("set_reminder", "Set a reminder", {"text": S, "time": S}), "Remind me to call Bob at 7:30 pm.",
     {"time": "19:30"}),
    (tool("book_flight", "Book a flight", {"origin": S, "destination": S}), "Book a flight from Boston to Rome.",
     {"origin": "Boston", "destination": "Rome"}),
    (tool("create_event", "Create a calendar event", {"title": S, "location": S}),
     'Create an event called "Team lunch" at Blue Bottle Cafe.', {"title": "Team lunch", "location": "Blue Bottle Cafe"}),
]


@pytest.mark.parametrize("spec, prompt, expected", CASES, ids=[c[1][:40] for c in CASES])
def test_forced_calls_carry_the_requests_values(client, spec, prompt, expected):
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    ((name, tool_input),) = uses(response)
    assert validates(spec, tool_input)
    assert {k: tool_input.get(k) for k in expected} == expected
    assert "placeholder" not in text_of(response)


def test_a_prose_list_fills_an_optional_array_when_its_cue_names_it(client):
    spec = tool("create_ticket", "Create a support ticket", {"title": S, "tags": strings()}, ["title"])
    response = ask(client, 'Create a ticket titled "Refund not received" and tag it with urgent, billing and refund.',
                   [spec])
    assert uses(response) == [("create_ticket", {"title": "Refund not received", "tags": ["urgent", "billing",
                                                                                         "refund"]})]


def test_an_e_mail_field_never_takes_a_phone_number(client):
    spec = tool("send_email", "Send an email", {"recipient": {"type": "string", "description": "E-mail address"}})
    response = ask(client, "Send it to +44 20 7946 0958.", [spec], tool_choice={"type": "any"})
    ((_, tool_input),) = uses(response)
    assert "+44" not in tool_input["recipient"]


@pytest.mark.parametrize("prompt, said", [
    ("Book a table please.", 'restaurant_name="example restaurant name", party_size=0'),
    ("Забронируй столик.", "значения-заглушки"),
])
def test_a_placeholder_is_said_to_be_one(client, prompt, said):
    spec = tool("book_table", "Reserve a table", {"restaurant_name": S, "party_size": {"type": "integer"}})
    response = ask(client, prompt, [spec], tool_choice={"type": "any"})
    assert uses(response)[0][1] == {"restaurant_name": "example restaurant name", "party_size": 0}
    assert said in text_of(response)
