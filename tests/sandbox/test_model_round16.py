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
