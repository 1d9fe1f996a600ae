"""The request's own values in the right fields (issue #37): proper names, lists in prose, phone numbers,
e-mails, URLs, dates and times, money and quantities, each bound to the property whose name, description,
type and format fit; trailing sentence punctuation left out; a placeholder only where the request holds
nothing better, and then the model says what it assumed."""

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates
from cpu_time import cpu_seconds

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
    # dates relative to the sandbox's fixed today, 2025-01-15 (a Wednesday), ranges of days, titles before names
    (tool("book_visit", "Book a visit", {"visitor_name": S, "host_name": S, "when": {"type": "string", "format": "date-time"}}),
     "Book a visit for Carla Diaz with Prof. Ian Moss next Friday at 10:30 am.",
     {"visitor_name": "Carla Diaz", "host_name": "Ian Moss", "when": "2025-01-17T10:30:00Z"}),
    (tool("set_alarm", "Set an alarm", {"at": {"type": "string", "format": "date-time"}}),
     "Wake me the day after tomorrow at 6:45 am.", {"at": "2025-01-17T06:45:00Z"}),
    (tool("rent_car", "Rent a car", {"pickup": {"type": "string", "format": "date"},
                                     "dropoff": {"type": "string", "format": "date"}}),
     "Rent a car from May 28 to June 2, 2026.", {"pickup": "2026-05-28", "dropoff": "2026-06-02"}),
    (tool("call_back", "Перезвонить клиенту", {"date": {"type": "string", "format": "date"}}),
     "Перезвони клиенту завтра.", {"date": "2025-01-16"}),
    # lower-case hyphenated identifiers right after the verb or with a digit; a room named with its word
    (tool("restart_service", "Restart a service", {"service": S, "region": S}),
     "Restart billing-worker in region eu-west-1.", {"service": "billing-worker"}),
    (tool("dim_light", "Dim a light", {"light_id": S, "level": {"type": "integer"}}),
     "Dim hall-lamp-3 to 40.", {"light_id": "hall-lamp-3", "level": 40}),
    (tool("clean_room", "Start the vacuum in a room", {"room": S}), "Vacuum the dining room.", {"room": "dining room"}),
    # Russian collective numerals, Russian words for English enum values, a currency of two words
    (tool("book_table", "Забронировать столик", {"restaurant_name": S, "party_size": {"type": "integer"}}),
     "Забронируй столик в ресторане «Онегин» на четверых.", {"restaurant_name": "Онегин", "party_size": 4}),
    (tool("book_doctor", "Записаться к врачу", {"specialty": {"type": "string", "enum": [
        "therapist", "cardiologist", "dentist", "surgeon"]}, "date": {"type": "string", "format": "date"}}),
     "Запиши меня к кардиологу на 2026-04-02.", {"specialty": "cardiologist", "date": "2026-04-02"}),
    (tool("convert", "Convert money", {"amount": {"type": "number"}, "from_currency": S, "to_currency": S}),
     "Convert two hundred Hong Kong dollars to euros.", {"amount": 200}),
    (tool("create_task", "Create a task", {"title": S, "assignees": strings()}),
     'Create a task "Rotate keys" and assign it to adiaz and bkim.', {"title": "Rotate keys", "assignees": ["adiaz", "bkim"]}),
    (tool("register_patient", "Записать пациента", {"patient_name": S}),
     "Запиши Марину Соколову на приём.", {"patient_name": "Марина Соколова"}),
    (tool("order_supplies", "Заказать канцтовары", {"product": S, "qty": {"type": "integer"}, "unit": {
        "type": "string", "enum": ["box", "pack", "pallet"]}}),
     "Закажи пять пачек зелёного чая.", {"product": "зелёного чая", "qty": 5, "unit": "pack"}),
    # arrays of enum values and of objects, item by item (item_lists.py)
    (tool("schedule_class", "Schedule a weekly class", {"title": S, "weekdays": strings(
        {"type": "string", "enum": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]})}),
     'Schedule "Yoga" every Tuesday and Thursday.', {"title": "Yoga", "weekdays": ["tuesday", "thursday"]}),
    (tool("set_schedule", "Задать расписание", {"days": strings({"type": "string", "enum": [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun"]})}),
     "Поставь расписание на вторник, четверг и субботу.", {"days": ["tue", "thu", "sat"]}),
    (tool("subscribe", "Subscribe to notifications", {"topics": strings(
        {"type": "string", "enum": ["billing", "outage", "security", "release_notes"]})}),
     "Subscribe channel ops-alerts to outage and security notifications.",
     {"topics": ["outage", "security"]}),
    (tool("invite", "Invite guests to a party", {"title": S, "guests": strings(
        {"type": "object", "properties": {"name": S, "email": {"type": "string", "format": "email"}},
         "required": ["name", "email"]})}),
     'Invite Mia Wong (mia@ex.org), Tom Hale (tom@ex.org) and Lee Park (lee@ex.org) to "Launch party".',
     {"guests": [{"name": "Mia Wong", "email": "mia@ex.org"}, {"name": "Tom Hale", "email": "tom@ex.org"},
                 {"name": "Lee Park", "email": "lee@ex.org"}]}),
    (tool("restock", "Restock products", {"lines": strings(
        {"type": "object", "properties": {"sku": S, "quantity": {"type": "integer"}}, "required": ["sku", "quantity"]})}),
     "Restock 5 of SKU AB-1 and 12 of SKU CD-22.",
     {"lines": [{"sku": "AB-1", "quantity": 5}, {"sku": "CD-22", "quantity": 12}]}),
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


INTEGER = {"type": "integer"}
CONVERT = {"amount": {"type": "number"}, "from_currency": S, "to_currency": S}
MORE_CASES = [  # issue #37, an independent probe's misses
    (tool("resolve_incident", "Resolve an incident", {"incident_id": S}), "Resolve incident x7f3k.",
     {"incident_id": "x7f3k"}),
    (tool("close_issue", "Close an issue", {"id": {"type": "string", "description": "The issue key"}}),
     "close issue BUG-2231", {"id": "BUG-2231"}),
    (tool("close_incident", "Закрыть инцидент", {"incident": {"type": "string", "description": "Номер инцидента"}}),
     "Закрой инцидент x7f3k.", {"incident": "x7f3k"}),
    (tool("reserve", "Reserve a table", {"guests": {"type": "integer", "description": "Number of guests"}, "name": S}),
     "Reserve a table for 4 guests under the name Smith.", {"guests": 4}),
    (tool("book_table", "Book a table at a restaurant", {"restaurant": S, "party_size": INTEGER}),
     "Book a table at Nopa, party of 6.", {"restaurant": "Nopa", "party_size": 6}),
    (tool("book_table", "Забронировать столик", {"guests": INTEGER}), "Забронируй столик на 4 гостей в 19:00.",
     {"guests": 4}),
    (tool("add_to_list", "Add items to the shopping list", {"items": strings()}),
     "Add flour, sugar and printer paper to the list.", {"items": ["flour", "sugar", "printer paper"]}),
    (tool("add_to_list", "Добавить в список покупок", {"items": strings()}),
     "Добавь молоко, хлеб и туалетную бумагу в список.", {"items": ["молоко", "хлеб", "туалетную бумагу"]}),
    (tool("pay_bill", "Pay a bill", {"amount": {"type": "number"}, "currency": S}), "Pay $45 for the bill.",
     {"amount": 45, "currency": "USD"}),
    (tool("pay_bill", "Pay a bill", {"amount": {"type": "number"}, "currency": S}), "Pay the bill, 45 dollars.",
     {"amount": 45, "currency": "USD"}),
    (tool("pay_bill", "Оплатить счёт", {"amount": {"type": "number"}, "currency": S}), "Оплати счёт: 45 евро.",
     {"amount": 45, "currency": "EUR"}),
    (tool("pay_bill", "Оплатить счёт", {"amount": {"type": "number"}, "currency": S}), "Оплати счёт на 300 рублей.",
     {"amount": 300, "currency": "RUB"}),
    (tool("book_room", "Book a meeting room", {"end_time": S, "start_time": S}), "Book the room from 14:00 to 16:30.",
     {"start_time": "14:00", "end_time": "16:30"}),
    (tool("book_room", "Book a meeting room", {"to": S, "from": S}), "Book the room from 2pm to 4:30 pm.",
     {"from": "14:00", "to": "16:30"}),
    (tool("book_room", "Забронировать переговорную", {"start_time": S, "end_time": S}),
     "Забронируй переговорную с 14:00 до 16:30.", {"start_time": "14:00", "end_time": "16:30"}),
    (tool("create_event", "Create an event", {"title": S, "venue": S}), 'Create an event "Launch" at "the old mill".',
     {"title": "Launch", "venue": "the old mill"}),
    (tool("create_event", "Create an event", {"location": S, "title": S}),
     'Create an event called "Launch" at the cafe “Blue Door”.', {"title": "Launch", "location": "Blue Door"}),
    (tool("create_event", "Создать событие", {"title": S, "location": S}), "Создай событие «Запуск» в кафе «Ромашка».",
     {"title": "Запуск", "location": "Ромашка"}),
    (tool("set_alarm", "Set an alarm", {"time": {"type": "string", "description": "Time as HH:MM"}}),
     "Set an alarm for 2025-03-05T07:15:00.", {"time": "07:15"}),
    (tool("set_alarm", "Set an alarm", {"when": {"type": "string", "pattern": "^([01]\\d|2[0-3]):[0-5]\\d$"}}),
     "Set an alarm for 2025-03-05 07:15.", {"when": "07:15"}),
    (tool("set_alarm", "Поставить будильник", {"time": {"type": "string", "description": "Время, ЧЧ:ММ"}}),
     "Поставь будильник на 2025-03-05T07:15.", {"time": "07:15"}),
    (tool("lookup_card", "Look up a card", {"card": {"type": "string", "pattern": "^\\d{4} \\d{4}$"}}),
     "Look up card 1234 5678 now.", {"card": "1234 5678"}),
    (tool("flight_status", "Status of a flight", {"flight": {"type": "string", "pattern": "[A-Z]{2}\\d{3,4}"}}),
     "What is the status of LH4711?", {"flight": "LH4711"}),
    (tool("find_record", "Look up a record", {"ref": {"type": "string", "pattern": "^[A-Z]{2}\\d{4}$"}}),
     "Look up record ref:AB1234 please.", {"ref": "AB1234"}),
    (tool("convert_currency", "Convert currency", CONVERT), "Convert 100 USD to EUR.",
     {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}),
    (tool("convert_currency", "Convert currency", dict(reversed(CONVERT.items()))), "Convert 100 USD to EUR.",
     {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}),
    (tool("convert_currency", "Convert currency", {"amount": {"type": "number"}, "to": S, "from": S}),
     "Convert $100 to euros.", {"amount": 100, "from": "USD", "to": "EUR"}),
    (tool("convert_currency", "Конвертировать валюту", CONVERT), "Переведи 100 долларов в евро.",
     {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}),
    (tool("lookup_contact", "Look up a contact", {"phone": S}), "Who has the number +44 20 7946 0958?",
     {"phone": "+44 20 7946 0958"}),
    (tool("lookup_contact", "Найти контакт", {"phone": S}), "Чей это номер: +44 20 7946 0958?",
     {"phone": "+44 20 7946 0958"}),
]


@pytest.mark.parametrize("choice", ["auto", "tool"])
@pytest.mark.parametrize("spec, prompt, expected", MORE_CASES, ids=[c[1][:40] for c in MORE_CASES])
def test_the_requests_own_values_whether_forced_or_not(client, spec, prompt, expected, choice):
    forced = {"type": "tool", "name": spec["name"]} if choice == "tool" else {"type": "auto"}
    response = ask(client, prompt, [spec], tool_choice=forced)
    ((name, tool_input),) = uses(response)
    assert validates(spec, tool_input)
    assert {k: tool_input.get(k) for k in expected} == expected
    assert "placeholder" not in text_of(response) and "заглушк" not in text_of(response)


def test_a_lookup_by_phone_number_among_other_tools(client):
    tools = [tool("send_sms", "Send an SMS", {"to": S, "message": S}),
             tool("lookup_contact", "Look up a contact by phone number", {"phone": S}),
             tool("find_contact", "Find a contact by name", {"name": S})]
    assert uses(ask(client, "who has the number +44 20 7946 0958?", tools)) == \
        [("lookup_contact", {"phone": "+44 20 7946 0958"})]


BOOK = tool("book_table", "Reserve a table", {"restaurant_name": S, "party_size": INTEGER})


@pytest.mark.parametrize("model", ["claude-opus-5", "claude-haiku-5-5"])
@pytest.mark.parametrize("choice", [{"type": "auto"}, {"type": "any"}, {"type": "tool", "name": "book_table"}])
@pytest.mark.parametrize("prompt, said", [("Book a table at Chez Panisse.", "party_size=0"),
                                          ("Забронируй столик в «Пушкин».", "значения-заглушки: party_size=0")])
def test_every_call_with_a_placeholder_says_so(client, model, choice, prompt, said):
    """Auto or forced, each call that carries a placeholder says so; Haiku 5.5 starts a forced answer with the
    call (its docs forbid text before it), so there the note comes after the call."""
    if choice["type"] == "auto" and "«" in prompt:
        choice = {"type": "any"}  # an English tool for a Russian ask: only a forced call reaches it
    response = client.messages.create(model=model, max_tokens=2000, tools=[BOOK], tool_choice=choice,
                                      messages=[{"role": "user", "content": prompt}])
    ((_, tool_input),) = uses(response)
    assert tool_input["party_size"] == 0 and said in text_of(response)
    types = [b.type for b in response.content if b.type != "thinking"]
    if model == "claude-haiku-5-5" and choice["type"] != "auto":
        assert response.content[0].type == "tool_use" and types[-1] == "text"


LOOKUP = tool("lookup_contact", "Look up a contact's details by name", {"name": S})
SEND = tool("send_email", "Send an email", {"to": S, "subject": S}, ["to"])


@pytest.mark.parametrize("prompt, name", [("Look up Ana's e-mail, then send her the agenda.", "Ana"),
                                          ("Найди почту Аны, затем отправь ей повестку.", None)])
def test_a_later_step_takes_the_value_an_earlier_step_returned(client, prompt, name):
    def answer(tool_name, tool_input):
        if tool_name == "lookup_contact":
            return '{"name": "Ana Silva", "email": "ana.silva@example.com"}', False
        return "Sent.", False

    final, responses = drive(client, prompt, [LOOKUP, SEND], answer)
    made = [use for r in responses for use in uses(r)]
    assert made[0][0] == "lookup_contact" and made[0][1]["name"] == (name or made[0][1]["name"])
    assert [(n, i["to"]) for n, i in made[1:]] == [("send_email", "ana.silva@example.com")]
    assert final.stop_reason == "end_turn"


CURRENCY = {"type": "string", "enum": ["USD", "EUR", "GBP", "RUB"]}
INVOICE = tool("issue_invoice", "Issue an invoice", {"client_name": S, "amount": {"type": "number"},
                                                     "currency": CURRENCY, "due_date": {"type": "string", "format": "date"}})
SMS = tool("text_message", "Send an SMS", {"to_number": {"type": "string", "description": "Destination phone number"},
                                           "body": S})
PROBE52_CASES = [  # issue #37, probe 52's misses
    (INVOICE, "Invoice Globex Corporation for €1,250.00, due on March 31, 2026.",
     {"amount": 1250, "currency": "EUR", "due_date": "2026-03-31"}),
    (INVOICE, "Выставь счёт на 15 000 рублей со сроком оплаты 2026-04-15.",
     {"amount": 15000, "currency": "RUB", "due_date": "2026-04-15"}),
    (SMS, 'Send a text to +49 30 1234567 that says "Dinner at eight".',
     {"to_number": "+49 30 1234567", "body": "Dinner at eight"}),
    (SMS, "Отправь СМС на +7 916 123-45-67 с текстом «Буду через 10 минут».",
     {"to_number": "+7 916 123-45-67", "body": "Буду через 10 минут"}),
    (tool("book_hotel", "Book hotel rooms", {"rooms": {"type": "integer", "description": "Number of rooms"}}),
     "Reserve 2 rooms at the Grand Budapest Hotel.", {"rooms": 2}),
    (tool("book_hotel", "Забронировать номера", {"rooms": {"type": "integer", "description": "Количество номеров"}}),
     "Забронируй 2 номера в отеле «Астория».", {"rooms": 2}),
    (tool("split_bill", "Split a bill", {"total": {"type": "number"}, "people": INTEGER,
                                         "tip_percent": {"type": "number", "description": "Tip in percent"}}),
     "Split a $86.40 bill between 4 people with an 18% tip.", {"total": 86.4, "people": 4, "tip_percent": 18}),
    (tool("split_bill", "Разделить счёт", {"total": {"type": "number"}, "people": INTEGER,
                                           "tip_percent": {"type": "number", "description": "Чаевые в процентах"}}),
     "Раздели счёт на 3200 рублей на 4 человек с чаевыми 10%.", {"total": 3200, "people": 4, "tip_percent": 10}),
]


@pytest.mark.parametrize("spec, prompt, expected", PROBE52_CASES, ids=[c[1][:40] for c in PROBE52_CASES])
def test_values_bound_by_their_sign_unit_or_field_name(client, spec, prompt, expected):
    """A currency enum takes the currency the request names, a `to_number` the phone, "2 rooms" the count and
    "18%" the percent field, whatever order they come in."""
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    ((_, tool_input),) = uses(response)
    assert validates(spec, tool_input)
    assert {k: tool_input.get(k) for k in expected} == expected
    assert not any(f"{k}=" in text_of(response) for k in expected)


NAME_CASES = [  # issue #37, probe 52: names after "to" and "from", and a company in quotes
    (tool("create_shipment", "Create a shipment", {"recipient_name": S, "street_address": S}),
     "Ship a parcel to Hannah Schmidt at 221B Baker Street, London.",
     {"recipient_name": "Hannah Schmidt", "street_address": "221B Baker Street, London"}),
    (tool("crm_create_lead", "Create a lead", {"full_name": S, "company": {"type": "string",
                                                                           "description": "Company the contact works for"}}),
     "New lead: Priya Raman from Initech.", {"full_name": "Priya Raman", "company": "Initech"}),
    (INVOICE, "Send an invoice to Acme Ltd for $300 due 2026-01-31.", {"client_name": "Acme Ltd", "currency": "USD"}),
    (INVOICE, "Выставь счёт компании «Ромашка» на 15 000 рублей со сроком оплаты 2026-04-15.",
     {"client_name": "Ромашка", "amount": 15000, "currency": "RUB"}),
]


@pytest.mark.parametrize("spec, prompt, expected", NAME_CASES, ids=[c[1][:40] for c in NAME_CASES])
def test_a_recipients_or_companys_name_is_bound(client, spec, prompt, expected):
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    ((_, tool_input),) = uses(response)
    assert validates(spec, tool_input)
    assert {k: tool_input.get(k) for k in expected} == expected
    assert "placeholder" not in text_of(response) and "заглушк" not in text_of(response)


def test_a_city_after_to_is_no_recipients_name(client):
    spec = tool("create_shipment", "Create a shipment", {"recipient_name": S})
    response = ask(client, "Ship a parcel to London.", [spec], tool_choice={"type": "tool", "name": spec["name"]})
    assert uses(response)[0][1]["recipient_name"] != "London" and "recipient_name" in text_of(response)


@pytest.mark.parametrize("prompt, said", [("Deliver between 08:00 and 12:00.", 'address.city="example city"'),
                                          ("Доставь с 08:00 до 12:00.", 'address.city="example city"')])
def test_a_placeholder_inside_a_nested_object_is_said_to_be_one(client, prompt, said):
    window = {"type": "object", "properties": {"from": S, "to": S}, "required": ["from", "to"]}
    address = {"type": "object", "properties": {"street": S, "city": S}, "required": ["street", "city"]}
    spec = tool("schedule_delivery", "Schedule a delivery", {"address": address, "window": window})
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    assert uses(response)[0][1]["window"] == {"from": "08:00", "to": "12:00"}
    assert said in text_of(response) and "window" not in text_of(response)


LIST_CASES = [  # issue #37, probe 52: a list after "label it", and a list put on a list
    (tool("open_case", "Open a support case", {"subject": S, "labels": strings()}),
     'Open a case with the subject "Printer jams", label it hardware, office supplies and facilities.',
     {"subject": "Printer jams", "labels": ["hardware", "office supplies", "facilities"]}),
    (tool("todo_add", "Add entries to the to-do list", {"entries": strings()}),
     "Put oat milk, dish soap and spare light bulbs on my to-do list.",
     {"entries": ["oat milk", "dish soap", "spare light bulbs"]}),
    (tool("todo_add", "Добавить дела в список", {"entries": strings()}),
     "Занеси овсяное молоко, средство для посуды и лампочки в мой список дел.",
     {"entries": ["овсяное молоко", "средство для посуды", "лампочки"]}),
]


@pytest.mark.parametrize("spec, prompt, expected", LIST_CASES, ids=[c[1][:40] for c in LIST_CASES])
def test_a_list_in_prose_keeps_its_items_whole(client, spec, prompt, expected):
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    ((_, tool_input),) = uses(response)
    assert {k: tool_input.get(k) for k in expected} == expected


@pytest.mark.parametrize("prompt, name", [("Ship a parcel to Hannah Schmidt. It weighs 2.5 kg.", "Hannah Schmidt"),
                                          ("Отправь посылку Анне Шмидт. Она весит 2,5 кг.", None)])
def test_a_value_never_crosses_a_sentences_end(client, prompt, name):
    spec = tool("create_shipment", "Create a shipment", {"recipient_name": S, "street_address": S,
                                                         "weight_kg": {"type": "number"}})
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    ((_, tool_input),) = uses(response)
    assert tool_input["weight_kg"] == 2.5 and "." not in tool_input["street_address"]
    assert tool_input["recipient_name"] == (name or tool_input["recipient_name"])
    assert "street_address" in text_of(response)


@pytest.mark.parametrize("prompt, expected", [
    ('Email sam@example.org with the subject "Keys" and the text "Left them at reception".',
     {"to": "sam@example.org", "subject": "Keys", "body": "Left them at reception"}),
    ("Напиши на sam@example.org с темой «Ключи» и с текстом «Оставил на ресепшене».",
     {"to": "sam@example.org", "subject": "Ключи", "body": "Оставил на ресепшене"}),
])
def test_a_quoted_value_after_and_stays_with_its_ask(client, prompt, expected):
    """'and the text "…"' names a field of the e-mail, not a second ask for a text-message tool."""
    mail = tool("compose_mail", "Compose and send an e-mail", {"to": {"type": "string", "format": "email"},
                                                               "subject": S, "body": S})
    sms = tool("text_message", "Send an SMS text message", {"to_number": S, "body": S})
    response = ask(client, prompt, [sms, mail], tool_choice={"type": "any"})
    assert uses(response) == [("compose_mail", expected)]


DEFINE = tool("dictionary_define", "Definitions of an English word.", {"word": S})
WEATHER = tool("weather_now", "Current weather conditions for a city.", {"city": S})


@pytest.mark.parametrize("prompt, word", [("What does serendipity mean?", "serendipity"),
                                          ("Что значит слово «serendipity»?", "serendipity")])
def test_a_question_about_a_words_meaning_calls_the_dictionary(client, prompt, word):
    assert uses(ask(client, prompt, [WEATHER, DEFINE])) == [("dictionary_define", {"word": word})]


def test_look_up_matches_a_find_tool_and_chains(client):
    find = tool("find_person", "Find a person in the company directory by name.", {"name": S})
    send = tool("send_mail", "Send an e-mail message.", {"recipient_email": {"type": "string", "format": "email"},
                                                         "subject": S})
    delete = tool("delete_person", "Delete a person from the directory.", {"name": S})

    def answer(tool_name, tool_input):
        if tool_name == "find_person":
            return '{"name": "Dmitri Volkov", "email": "d.volkov@example.ru"}', False
        return "Sent.", False

    final, responses = drive(client, 'Look up Dmitri Volkov\'s e-mail, then send him a message with the subject '
                                     '"Invoice overdue".', [delete, find, send], answer)
    made = [use for r in responses for use in uses(r)]
    assert made == [("find_person", {"name": "Dmitri Volkov"}),
                    ("send_mail", {"recipient_email": "d.volkov@example.ru", "subject": "Invoice overdue"})]
    assert final.stop_reason == "end_turn"


def test_a_plural_names_its_enum_option_and_a_product_keeps_its_lower_case_words(client):
    spec = tool("order_supplies", "Order office supplies", {
        "product": {"type": "string", "description": "What to order"}, "qty": {"type": "integer", "minimum": 1},
        "unit": {"type": "string", "enum": ["box", "pack", "pallet"]}})
    response = ask(client, "Order 12 boxes of A4 paper.", [spec], tool_choice={"type": "tool", "name": spec["name"]})
    assert uses(response) == [("order_supplies", {"product": "A4 paper", "qty": 12, "unit": "box"})]
    assert "placeholder" not in text_of(response)


NUMBER = {"type": "number"}
PROBE53_CASES = [  # issue #37, probe 53: numbers in words, a quantity beside its unit, thousands grouped by spaces
    (tool("reserve", "Reserve a table", {"venue": S, "guests": INTEGER}),
     "Reserve a table at Nopa for eight guests.", {"venue": "Nopa", "guests": 8}),
    (tool("exchange", "Exchange money", {"amount": NUMBER, "currency": S}),
     "Exchange three hundred and twenty pounds, please.", {"amount": 320, "currency": "GBP"}),
    (tool("book_cabin", "Book a cabin", {"nights": INTEGER}), "Book the cabin for five nights.", {"nights": 5}),
    (tool("book_room", "Забронировать номер", {"guests": INTEGER}), "Забронируй номер на трёх гостей.",
     {"guests": 3}),
    (tool("send_package", "Send a package", {"street_address": S, "weight_kg": NUMBER}),
     "Send it to 42 Elm Road. It weighs 7.5 kg.", {"weight_kg": 7.5}),
    (tool("review_hotel", "Review a hotel", {"stars": {"type": "integer", "minimum": 1, "maximum": 5}, "room": INTEGER}),
     "Room 5: give it three stars.", {"stars": 3}),
    (tool("pay", "Оплатить", {"amount": NUMBER, "currency": S}), "Заплати 3 200 евро.",
     {"amount": 3200, "currency": "EUR"}),
    (tool("invite", "Invite a member", {"email": S, "notify_admins": {"type": "boolean"}}),
     "Invite kim@example.com and notify nobody; do not notify the admins.", {"notify_admins": False}),
    (tool("localise", "Translate a string", {"target_language": {"type": "string", "enum": ["en", "fr", "it", "ru"]},
                                              "source_language": {"type": "string", "enum": ["en", "fr", "it", "ru"]}}),
     "Translate the menu from Italian into French.", {"source_language": "it", "target_language": "fr"}),
    (tool("fx_quote", "Quote an exchange", {"sell": {"type": "number"}, "from_ccy": S, "to_ccy": S}),
     "How many yen do I get for 300 pounds?", {"sell": 300, "from_ccy": "GBP", "to_ccy": "JPY"}),
    (tool("new_repo", "Create a repository", {"repo_name": {"type": "string", "pattern": "^[a-z0-9._-]{2,40}$"}}),
     "Please create the repo named billing-api for us.", {"repo_name": "billing-api"}),
    (tool("add_lead", "Add a sales lead", {"given_name": S, "surname": S, "employer": S}),
     "Add a lead: Tomas Varga at Brightline Studios.",
     {"given_name": "Tomas", "surname": "Varga", "employer": "Brightline Studios"}),
    (tool("enroll_student", "Enroll a student", {"student_name": S, "course": S}),
     "Enroll Amara Okafor in the course Statistics.", {"student_name": "Amara Okafor", "course": "Statistics"}),
    (tool("notify", "Post to a channel", {"channel_name": S, "message": S}),
     'Say "Build is green" in #ci-status.', {"channel_name": "ci-status", "message": "Build is green"}),
    (tool("set_lights", "Set the lights", {"room": S, "brightness": INTEGER}),
     "Dim the lights in the kitchen... no, in the living room... the bathroom, to 30 percent.", {"brightness": 30}),
    (tool("pay_rent", "Pay rent", {"amount": NUMBER, "note": S}), 'Pay 900 with the note "March rent".',
     {"amount": 900, "note": "March rent"}),
    (tool("wire", "Wire money", {"amount": NUMBER, "memo": S}), 'Wire 40 dollars, memo "Gift for Sam".',
     {"amount": 40, "memo": "Gift for Sam"}),
    (tool("send_letter", "Send a letter", {"to_name": S, "address": {
        "type": "object", "properties": {"street": S, "city": S, "zip": S, "country": S},
        "required": ["street", "city", "zip", "country"]}}),
     "Send a letter to Marta Ruiz, 8 Calle Mayor, 28013 Madrid, Spain.",
     {"address": {"street": "8 Calle Mayor", "city": "Madrid", "zip": "28013", "country": "Spain"}}),
    (tool("mail", "Send mail", {"recipient": {"type": "string", "format": "email"},
                                "bcc": strings({"type": "string", "format": "email"}), "subject": S}),
     'Mail lee@corp.io about "Offsite", bcc max@corp.io and eva@corp.io.',
     {"recipient": "lee@corp.io", "bcc": ["max@corp.io", "eva@corp.io"], "subject": "Offsite"}),
    (tool("todo", "Add to the to-do list", {"entries": strings()}),
     "Занеси в список дел оплату интернета, звонок маме и новые шторы.",
     {"entries": ["оплату интернета", "звонок маме", "новые шторы"]}),
    (tool("rsvp", "Answer an invitation", {"attending": {"type": "boolean"}}), "Tell them I won't be attending.",
     {"attending": False}),
    (tool("convert_units", "Convert units", {"value": NUMBER, "from_unit": S, "to_unit": S}),
     "How many kilometers is twenty-six miles?", {"value": 26, "from_unit": "miles", "to_unit": "kilometers"}),
    (tool("set_timer", "Set a timer", {"minutes": INTEGER, "label": S}), 'Set a timer for fifteen minutes labelled "Tea".',
     {"minutes": 15, "label": "Tea"}),
    (tool("ship_order", "Ship an order", {"recipient": S, "gift_wrap": {"type": "boolean"}}),
     "Ship it to Tom Baker, 742 Evergreen Terrace, Springfield, 49007, USA, without gift wrap.",
     {"recipient": "Tom Baker", "gift_wrap": False}),
    (tool("book_table", "Book a table", {"restaurant": S, "party_size": INTEGER,
                                         "time": {"type": "string", "description": "HH:MM"}}),
     "Table for two at Nopa at half past seven pm.", {"restaurant": "Nopa", "party_size": 2, "time": "19:30"}),
    (tool("search_flights", "Search flights", {"from_airport": {"type": "string", "pattern": "^[A-Z]{3}$"},
                                               "to_airport": {"type": "string", "pattern": "^[A-Z]{3}$"}}),
     "Find flights from JFK to LHR.", {"from_airport": "JFK", "to_airport": "LHR"}),
    (tool("create_task", "Create a task", {"title": S, "assignee": S}), 'Create a task "Fix CI" for Maria Gomez.',
     {"title": "Fix CI", "assignee": "Maria Gomez"}),
    (tool("create_playlist", "Create a playlist", {"name": S, "songs": strings()}),
     'Make a playlist called "Road trip" with Africa, Hotel California and Dreams.',
     {"name": "Road trip", "songs": ["Africa", "Hotel California", "Dreams"]}),
    (tool("transfer", "Transfer between accounts", {"from_account": S, "to_account": S, "amount": NUMBER}),
     "Move five hundred from checking to savings.", {"from_account": "checking", "to_account": "savings", "amount": 500}),
    (tool("deliver", "Доставить", {"address": {"type": "object", "properties": {"street": S, "city": S, "postcode": S},
                                               "required": ["street", "city", "postcode"]}}),
     "Доставь по адресу: проспект Мира, 12, Москва, 129090.",
     {"address": {"street": "проспект Мира, 12", "city": "Москва", "postcode": "129090"}}),
]


@pytest.mark.parametrize("spec, prompt, expected", PROBE53_CASES, ids=[c[1][:40] for c in PROBE53_CASES])
def test_probe_53_values_are_read_as_written(client, spec, prompt, expected):
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    ((_, tool_input),) = uses(response)
    assert validates(spec, tool_input)
    assert {k: tool_input.get(k) for k in expected} == expected


def test_a_pattern_field_takes_no_ordinary_word_and_says_so(client):
    spec = tool("new_repo", "Create a repository", {"repo_name": {"type": "string", "pattern": "^[a-z0-9-]{2,40}$"}})
    response = ask(client, "Please create a repo for the new team.", [spec],
                   tool_choice={"type": "tool", "name": "new_repo"})
    ((_, tool_input),) = uses(response)
    assert validates(spec, tool_input) and tool_input["repo_name"] not in ("please", "create", "repo", "for", "the")
    assert "repo_name" in text_of(response)
    assert [b.type for b in response.content if b.type != "thinking"][0] == "tool_use"  # no text before the call


# property: a forced call carries each value the prompt states, whatever the mix of fields (issue #37, probe 53)
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 12: "twelve",
          20: "twenty", 25: "twenty-five", 40: "forty"}
_FIELDS = {
    "contact_email": ({"type": "string", "format": "email"},
                      st.sampled_from(["ana@corp.io", "li.wei@example.org", "raj+ops@acme.co"]),
                      lambda v: f"contact {v}"),
    "nights": (INTEGER, st.sampled_from(sorted(_WORDS)), lambda v: f"for {_WORDS[v]} nights"),
    "weight_kg": (NUMBER, st.sampled_from([0.5, 1.25, 3.2, 18.0]), lambda v: f"it weighs {v:g} kg"),
    "title": (S, st.sampled_from(["Quarterly review", "Fix the login page", "Спринт 12"]), lambda v: f'titled "{v}"'),
    "send_receipt": ({"type": "boolean"}, st.booleans(),
                     lambda v: "send a receipt" if v else "don't send a receipt"),
    "start_date": ({"type": "string", "format": "date"}, st.sampled_from(["2026-03-09", "2027-11-30"]),
                   lambda v: f"starting {v}"),
}


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_property_a_forced_call_carries_every_value_the_prompt_states(client, data):
    names = data.draw(st.lists(st.sampled_from(sorted(_FIELDS)), min_size=1, max_size=len(_FIELDS), unique=True))
    values = {name: data.draw(_FIELDS[name][1]) for name in names}
    spec = tool("make_booking", "Make a booking", {name: _FIELDS[name][0] for name in names})
    prompt = "Make a booking " + ", ".join(_FIELDS[name][2](values[name]) for name in names) + "."
    response = ask(client, prompt, [spec], tool_choice={"type": "tool", "name": "make_booking"})
    assert [b.type for b in response.content if b.type != "thinking"][0] == "tool_use"  # no text before the call
    ((_, tool_input),) = uses(response)
    assert validates(spec, tool_input)
    assert tool_input == values, prompt
    assert "placeholder" not in text_of(response)


@pytest.mark.parametrize("content", ["1 " * 15_000, "a-1 " * 5_000, "from x to " * 2_000, "12 Main, " * 2_000,
                                     "two hundred and " * 1_000])
def test_long_repetitive_requests_are_read_quickly(client, content):
    spec = tool("make", "Make a thing", {"slug": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "amount": NUMBER,
                                         "to_account": S, "address": {"type": "object", "properties": {"street": S}}})
    response, seconds = cpu_seconds(lambda: ask(client, content, [spec], tool_choice={"type": "tool", "name": "make"}))
    assert validates(spec, uses(response)[0][1]) and seconds < 2


def test_an_empty_array_placeholder_is_said_to_be_one(client):
    spec = tool("plan_week", "Plan a weekly routine", {"title": S, "days": strings(
        {"type": "string", "enum": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]})})
    response = ask(client, 'Plan a routine called "Stretching".', [spec], tool_choice={"type": "tool", "name": "plan_week"})
    assert uses(response) == [("plan_week", {"title": "Stretching", "days": []})]
    assert "placeholder" in text_of(response) and "days=[]" in text_of(response)
