"""Round 16 of the simulated model (issue #37, stop 67): a condition on what a read returns.

An elliptic condition on a yes/no question ("Is ticket T-1 closed? If not, close it.", «Оплачен ли счёт 12? Если
да, пришли квитанцию.») reads first, alone; the action comes after the result, only when the answer is the one the
user named, on the thing the question is about; otherwise the answer says why nothing was done. A numeric condition
said in English ("if fewer than 10 are left, reorder 50") works as the Russian one does. Tools are written in other
people's styles (camelCase, descriptions in Russian, ids as integers). `client` is the conftest's own sandbox."""

import json

import pytest

from tool_use_helpers import drive, text_of, tool, uses

S = {"type": "string"}
INT = {"type": "integer"}


def run(client, prompt, tools, results):
    """The loop with fixed results per tool: (each response's calls, the final text)."""
    final, responses = drive(client, prompt, tools, lambda name, _: (results.get(name, '{"ok": true}'), False), cap=8)
    assert final.stop_reason == "end_turn"
    return [uses(r) for r in responses if uses(r)], text_of(final)


TICKETS = [tool("getTicket", "Fetch a support ticket with its status.", {"ticketId": S}),
           tool("closeTicket", "Close a support ticket.", {"ticketId": S, "comment": {"type": "string"}}, ["ticketId"])]
ORDERS_RU = [tool("order_status", "Статус заказа по номеру.", {"order_id": S}),
             tool("cancel_order", "Отменить заказ.", {"order_id": S})]
INVOICES = [tool("invoice_lookup", "Invoice details: amount, due date, payment status.", {"invoice": INT}),
            tool("send_receipt", "E-mail the receipt for a paid invoice.", {"invoice": INT})]
SHIPPING = [tool("get_order", "Order details: status, customer e-mail, items.", {"order_id": S}),
            tool("send_email", "Send an e-mail.", {"to": S, "subject": S, "body": S})]


@pytest.mark.parametrize("prompt, tools, result, acted", [
    ("Is ticket T-1 closed? If not, close it.", TICKETS, {"getTicket": '{"id": "T-1", "status": "open"}'},
     [("closeTicket", "ticketId", "T-1")]),
    ("Is ticket T-1 closed? If not, close it.", TICKETS, {"getTicket": '{"id": "T-1", "status": "closed"}'}, []),
    ("Заказ A-1 уже отправлен? Если нет — отмени его.", ORDERS_RU,
     {"order_status": '{"order_id": "A-1", "status": "в обработке"}'}, [("cancel_order", "order_id", "A-1")]),
    ("Заказ A-1 уже отправлен? Если нет — отмени его.", ORDERS_RU,
     {"order_status": '{"order_id": "A-1", "status": "отправлен"}'}, []),
    ("Оплачен ли счёт 12? Если да, пришли квитанцию.", INVOICES,
     {"invoice_lookup": '{"invoice": 12, "amount": 400, "paid": true}'}, [("send_receipt", "invoice", 12)]),
    ("Оплачен ли счёт 12? Если да, пришли квитанцию.", INVOICES,
     {"invoice_lookup": '{"invoice": 12, "amount": 400, "paid": false}'}, []),
    ("Has order O-7 shipped? If so, e-mail the customer.", SHIPPING,
     {"get_order": '{"order_id": "O-7", "status": "shipped", "customer_email": "ann@example.com"}'},
     [("send_email", "to", "ann@example.com")]),
    ("Has order O-7 shipped? If so, e-mail the customer.", SHIPPING,
     {"get_order": '{"order_id": "O-7", "status": "processing", "customer_email": "ann@example.com"}'}, []),
])
def test_an_elliptic_condition_reads_first_and_acts_only_on_the_named_answer(client, prompt, tools, result, acted):
    made, text = run(client, prompt, tools, result)
    reader = tools[0]["name"]
    assert [name for name, _ in made[0]] == [reader]  # the read alone, never the action in the same turn
    later = [(name, tool_input) for batch in made[1:] for name, tool_input in batch]
    assert [(name, tool_input[key]) for (name, tool_input), (_, key, _) in zip(later, acted)] == \
        [(name, value) for name, _, value in acted] and len(later) == len(acted)
    if not acted:
        assert "not call" in text or "Не стал" in text, text


def test_an_english_numeric_condition_on_a_result_acts_only_when_it_holds(client):
    stock = [tool("inventoryLevel", "Units on hand for a SKU in a warehouse.", {"sku": S, "warehouse": S}, ["sku"]),
             tool("createPurchaseOrder", "Order more units of a SKU from the supplier.", {"sku": S, "quantity": INT})]
    prompt = "Check the stock of SKU WX-220 in the Leeds warehouse and, if fewer than 10 are left, reorder 50."
    made, _ = run(client, prompt, stock, {"inventoryLevel": json.dumps({"sku": "WX-220", "on_hand": 4})})
    assert made[0] == [("inventoryLevel", {"sku": "WX-220", "warehouse": "Leeds"})]
    assert made[1:] == [[("createPurchaseOrder", {"sku": "WX-220", "quantity": 50})]]
    made, text = run(client, prompt, stock, {"inventoryLevel": json.dumps({"sku": "WX-220", "on_hand": 40})})
    assert len(made) == 1 and "not call createPurchaseOrder" in text


# --- a question about a state is no ask for the action, whatever its form ---

@pytest.mark.parametrize("prompt, spec", [
    ("Has my pharmacy order been cancelled?", tool("cancelOrder", "Cancel a pharmacy order.", {"orderId": S})),
    ("Have the tickets for order 7781 been refunded yet?", tool("refund_order", "Refund an order.", {"order_id": S})),
    ("Did my refund R-19 get processed?", tool("process_refund", "Process a refund.", {"refund_id": S})),
    ("Продлена ли подписка?", tool("renewSubscription", "Продлить подписку пользователя.", {"plan": S}, [])),
    ("Отменён ли заказ 55?", tool("cancel_order", "Отменить заказ.", {"order_id": S})),
    ("Заказ 55 уже отменён?", tool("cancel_order", "Отменить заказ.", {"order_id": S})),
    ("Скажите, счёт 12 оплачен?", tool("pay_invoice", "Оплатить счёт.", {"invoice_id": S})),
])
def test_a_state_question_with_only_the_action_on_offer_acts_on_nothing(client, prompt, spec):
    made, _ = run(client, prompt, [spec], {})
    assert made == []


def test_have_you_done_it_if_not_do_it_still_acts(client):
    spec = tool("cancel_booking", "Cancel a booking.", {"booking_id": S})
    made, _ = run(client, "Have you cancelled booking B-2 yet? If not, cancel it now.", [spec], {})
    assert made == [[("cancel_booking", {"booking_id": "B-2"})]]


# --- a condition on a read's result: a state, a flag, a number named by its unit or its noun ---

ROOMS = [tool("room_availability", "Whether a meeting room is free on a date.", {"room": S, "date": S}),
         tool("book_room", "Book a meeting room for a date.", {"room": S, "date": S})]
ROOMS_RU = [tool("proverit_komnatu", "Свободна ли переговорка на дату.", {"room": S, "date": S}),
            tool("zabronirovat_komnatu", "Забронировать переговорку на дату.", {"room": S, "date": S})]
PICKUP = [tool("orderStatus", "Status of a click-and-collect order.", {"orderId": S}),
          tool("notifyCustomer", "Text the customer that their order can be collected.", {"orderId": S})]
PACKS = [tool("stock_level", "Stock of a SKU.", {"sku": S}),
         tool("place_order", "Order more packs of a SKU from the supplier.", {"sku": S, "packs": INT})]
CARGO = [tool("cargo_info", "Сведения о грузе: вес, объём, адрес.", {"cargo_id": S}),
         tool("order_truck", "Заказать грузовик для груза.", {"cargo_id": S})]


@pytest.mark.parametrize("prompt, tools, result, acted", [
    ("Check if room Orion is free on 2026-05-01 and if it is free, book it.", ROOMS,
     {"room_availability": '{"room": "Orion", "date": "2026-05-01", "free": true}'}, ["book_room"]),
    ("Check if room Orion is free on 2026-05-01 and if it is free, book it.", ROOMS,
     {"room_availability": '{"room": "Orion", "date": "2026-05-01", "free": false}'}, []),
    ("Проверь, свободна ли переговорка Орион на 2026-05-01, и если свободна, забронируй её.", ROOMS_RU,
     {"proverit_komnatu": '{"room": "Орион", "free": true}'}, ["zabronirovat_komnatu"]),
    ("Проверь, свободна ли переговорка Орион на 2026-05-01, и если свободна, забронируй её.", ROOMS_RU,
     {"proverit_komnatu": '{"room": "Орион", "free": false}'}, []),
    ("Look up order K-88; if it's ready, notify the customer.", PICKUP,
     {"orderStatus": '{"orderId": "K-88", "status": "ready"}'}, ["notifyCustomer"]),
    ("Look up order K-88; if it's ready, notify the customer.", PICKUP,
     {"orderStatus": '{"orderId": "K-88", "status": "preparing"}'}, []),
    ("Check stock of SKU-5 and if fewer than 20 packs are left, order 100 more packs.", PACKS,
     {"stock_level": '{"sku": "SKU-5", "packs_left": 12, "pack_price": 3.5}'}, ["place_order"]),
    ("Check stock of SKU-5 and if fewer than 20 packs are left, order 100 more packs.", PACKS,
     {"stock_level": '{"sku": "SKU-5", "packs_left": 42, "pack_price": 3.5}'}, []),
    ("Узнай, сколько весит груз G-7, и если больше 500 кг, закажи грузовик.", CARGO,
     {"cargo_info": '{"cargo_id": "G-7", "weight_kg": 620, "volume_m3": 3}'}, ["order_truck"]),
    ("Узнай, сколько весит груз G-7, и если больше 500 кг, закажи грузовик.", CARGO,
     {"cargo_info": '{"cargo_id": "G-7", "weight_kg": 320, "volume_m3": 3}'}, []),
])
def test_a_condition_on_the_result_acts_exactly_when_it_holds(client, prompt, tools, result, acted):
    made, text = run(client, prompt, tools, result)
    assert [name for name, _ in made[0]] == [tools[0]["name"]]
    assert [name for batch in made[1:] for name, _ in batch] == acted
    if not acted:
        assert "not call" in text or "Не стал" in text, text


# --- three steps, each on the one before: search, book the one chosen, e-mail what the booking returned ---

FLIGHTS = [tool("searchFlights", "Find flights between two airports on a date, with fares.",
                {"from": S, "to": S, "date": S}),
           tool("bookFlight", "Book a flight by its id.", {"flightId": S}),
           tool("sendMail", "Send an e-mail.", {"recipient": S, "subject": S, "text": S})]
TRAINS = [tool("poisk_biletov", "Поиск билетов на поезд между городами на дату, с ценами.",
               {"otkuda": S, "kuda": S, "data": S}),
          tool("kupit_bilet", "Купить билет по его id.", {"ticket_id": S}),
          tool("send_email", "Отправить письмо.", {"to": S, "subject": S, "body": S})]


@pytest.mark.parametrize("prompt, tools, results, booked, mailed", [
    ("Search flights from WAW to LIS on 2026-09-10, book the cheapest one and email the confirmation code to "
     "ola@example.pl.", FLIGHTS,
     {"searchFlights": json.dumps({"flights": [{"id": "LO-1", "fare": 210}, {"id": "TP-7", "fare": 160},
                                               {"id": "FR-3", "fare": 190}]}),
      "bookFlight": json.dumps({"confirmation_code": "QX7KD2", "status": "ticketed"})},
     ("bookFlight", {"flightId": "TP-7"}), ("recipient", "ola@example.pl", "QX7KD2")),
    ("Find the cheapest flight from WAW to LIS on 2026-09-10 and book it, then mail the confirmation code to "
     "ola@example.pl.", FLIGHTS,
     {"searchFlights": json.dumps({"flights": [{"id": "LO-1", "fare": 210}, {"id": "TP-7", "fare": 160}]}),
      "bookFlight": json.dumps({"confirmation_code": "QX7KD2", "status": "ticketed"})},
     ("bookFlight", {"flightId": "TP-7"}), ("recipient", "ola@example.pl", "QX7KD2")),
    ("Найди билеты на поезд из Москвы в Казань на 2026-07-01, купи самый дешёвый и отправь номер заказа на "
     "ivan@example.ru.", TRAINS,
     {"poisk_biletov": json.dumps([{"ticket_id": "T1", "price": 3900}, {"ticket_id": "T2", "price": 2700}],
                                  ensure_ascii=False),
      "kupit_bilet": json.dumps({"order_number": "RZD-5521", "seat": "12"})},
     ("kupit_bilet", {"ticket_id": "T2"}), ("to", "ivan@example.ru", "RZD-5521")),
])
def test_a_three_step_plan_uses_each_result_in_the_next_step(client, prompt, tools, results, booked, mailed):
    made, _ = run(client, prompt, tools, results)
    assert [[name for name, _ in batch] for batch in made] == [[t["name"]] for t in tools]  # one step a turn
    assert made[1] == [booked]
    (_, sent), = made[2]
    address_field, address, reference = mailed
    assert sent[address_field] == address and any(reference in str(v) for v in sent.values())


# --- everyday asks to a tool that fits but is not named (tool_choice auto) ---

NOT_IT = tool("get_weather", "Current weather for a city.", {"city": S})


@pytest.mark.parametrize("prompt, spec, expected", [
    ("How is Apple trading today?", tool("equityQuote", "Latest price of a listed share.", {"symbol": S}),
     {"symbol": "AAPL"}),
    ("Как сегодня торгуется Сбер?", tool("kotirovka", "Котировка акции на бирже.", {"ticker": S}), {"ticker": "SBER"}),
    ("Is it icy on the roads to Tver this morning?",
     tool("road_conditions", "Road surface conditions (ice, snow, closures) on a route.", {"route": S}),
     {"route": "Tver"}),
    ("Search the web for the best hiking trails near Zurich", tool("web_search", "Search the web.", {"query": S}),
     {"query": "the best hiking trails near Zurich"}),
    ("Google the opening hours of the Louvre", tool("internet_search", "Search the internet.", {"q": S}),
     {"q": "the opening hours of the Louvre"}),
])
def test_an_everyday_ask_reaches_the_tool_that_fits(client, prompt, spec, expected):
    made, _ = run(client, prompt, [NOT_IT, spec], {})
    assert made[0] == [(spec["name"], expected)]


@pytest.mark.parametrize("prompt", ["Tell me about booking X-42, please", "What's in booking X-42?"])
def test_a_read_ask_with_only_an_action_on_offer_says_no_tool_reads_it(client, prompt):
    made, text = run(client, prompt, [tool("cancel_booking", "Cancel a booking.", {"booking_id": S})], {})
    assert made == [] and "no tool here reads a booking" in text and "messages.create" not in text


@pytest.mark.parametrize("prompt", ["How much did I spend on groceries in March?",
                                    "Сколько я потратил на кафе и рестораны в ноябре?"])
def test_what_was_spent_on_is_no_need_of_its_own(client, prompt):
    tools = [tool("restaurantSearch", "Find restaurants nearby.", {"cuisine": S}, []),
             tool("spendingReport", "Сводка расходов по категориям за период.", {"category": S, "month": S}, []),
             tool("accountBalance", "Money available in the user's bank accounts.", {})]
    made, _ = run(client, prompt, tools, {})
    assert [name for name, _ in made[0]] == ["spendingReport"]


def test_a_trip_is_no_train(client):
    tools = [tool("taxiFare", "Примерная цена поездки на такси.", {"from": S, "to": S}),
             tool("commuterTimetable", "Расписание пригородных поездов до станции.", {"toStation": S})]
    made, _ = run(client, "Когда ближайшая электричка до Химок?", tools, {})
    assert [name for name, _ in made[0]] == ["commuterTimetable"]
