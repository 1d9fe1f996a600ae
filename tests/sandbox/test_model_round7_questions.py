"""Round 7 of the simulated model (issue #37, stop 60): a question ABOUT an action is no ask for it. "How does
<doing> X work?", "What would happen if I <did> X?", "Can I <do> X? Don't do it yet, just asking.", «Как работает
<отмена> …?», «Что будет, если я <сделаю> …?», «Можно ли … ? Не делай пока, просто спрашиваю.» make no call with a
side effect (a reading tool may answer), and the text says plainly nothing was done and how to ask for it. An
explicit ask ("Cancel X", «Отмени X», "Please cancel X, how long does it take?") still acts. An action on the items
a listing returns waits for that listing and uses ids from it. Properties over generated tools, ids and question
templates in domains of their own (rentals, lessons, subscriptions, tickets, trips), in both languages; every
conversation ends."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
S = {"type": "string"}

VERBS = [  # name, base, -ing, past, Russian infinitive, 1sg future, noun, imperative
    ("cancel", "cancel", "cancelling", "cancelled", "отменить", "отменю", "отмена", "Отмени"),
    ("delete", "delete", "deleting", "deleted", "удалить", "удалю", "удаление", "Удали"),
    ("freeze", "freeze", "freezing", "froze", "заморозить", "заморожу", "заморозка", "Заморозь"),
    ("pause", "pause", "pausing", "paused", "приостановить", "приостановлю", "приостановка", "Приостанови"),
    ("reschedule", "reschedule", "rescheduling", "rescheduled", "перенести", "перенесу", "перенос", "Перенеси"),
]
THINGS = [  # English, Russian accusative, genitive, id prefix
    ("rental", "аренду", "аренды", "RN"),
    ("lesson", "урок", "урока", "LS"),
    ("subscription", "подписку", "подписки", "SB"),
    ("ticket", "билет", "билета", "TK"),
    ("trip", "поездку", "поездки", "TR"),
]
QUESTIONS = [
    "How does {ing} {thing} {id} work?",
    "What would happen if I {past} {thing} {id}?",
    "What happens if I {base} {thing} {id}?",
    "Can I {base} {thing} {id}? Don't do it yet, just asking.",
    "Is it possible to {base} {thing} {id}?",
    "Could I {base} {thing} {id} next week?",
    "How would I {base} {thing} {id}?",
    "Как работает {noun} {gen} {id}?",
    "Что будет, если я {fut} {acc} {id}?",
    "Можно ли {inf} {acc} {id}? Не делай пока, просто спрашиваю.",
    "А что, если {inf} {acc} {id}?",
    "Is there a fee to {base} {thing} {id}?",
    "Do I get my money back if I {base} {thing} {id}? Thanks!",
    "Будет ли штраф, если {inf} {acc} {id}?",
]
ASKS = [
    "{Base} {thing} {id}.",
    "Please {base} {thing} {id}, how long does it take?",
    "{imp} {acc} {id}, пожалуйста.",
    "{Base} {thing} {id}. Is there a fee?",
    "{imp} {acc} {id}. Сколько это займёт?",
]


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


def said(template: str, verb: tuple, thing: tuple, number: int) -> tuple[str, str, str]:
    """The prompt, the action tool's name and the id, for one template."""
    name, base, ing, past, inf, fut, noun, imp = verb
    eng, acc, gen, prefix = thing
    ident = f"{prefix}-{number}"
    text = template.format(ing=ing.capitalize() if template.startswith("{ing}") else ing, thing=eng, id=ident,
                           past=past, base=base, Base=base.capitalize(), noun=noun, gen=gen, fut=fut, acc=acc,
                           inf=inf, imp=imp)
    return text, f"{name}_{eng}", ident


def toolset(action: str, thing: str, reader: bool) -> list[dict]:
    tools = [tool(action, f"{action.split('_')[0].capitalize()} a {thing}.", {f"{thing}_id": S})]
    if reader:
        tools.append(tool(f"get_{thing}", f"Get a {thing}: its status and terms.", {f"{thing}_id": S}))
    return tools


@PROPERTY
@given(verb=st.sampled_from(VERBS), thing=st.sampled_from(THINGS), number=st.integers(100, 99999),
       template=st.sampled_from(QUESTIONS), reader=st.booleans())
def test_property_a_question_about_an_action_acts_on_nothing(client, verb, thing, number, template, reader):
    text, action, ident = said(template, verb, thing, number)
    tools = toolset(action, thing[0], reader)

    def answer(name, tool_input):
        assert name != action, text  # the action is never called, whatever turn
        return json.dumps({f"{thing[0]}_id": tool_input.get(f"{thing[0]}_id"), "status": "active",
                           "terms": "free until 24 h before"}), False

    final, responses = drive(client, text, tools, answer)
    assert final.stop_reason == "end_turn" and len(responses) <= 4, text
    calls = [c for r in responses for c in uses(r)]
    assert all(name != action for name, _ in calls), (text, calls)
    for name, tool_input in calls:  # a reader may answer the question, with the id the question gives
        assert name == f"get_{thing[0]}" and tool_input == {f"{thing[0]}_id": ident}, (text, calls)
        assert validates(next(t for t in tools if t["name"] == name), tool_input)
    reply = text_of(final)  # the text says plainly the action was not taken, and how to ask for it
    assert action in reply and any(s in reply for s in ("nothing has been done", "ничего не сделано")), reply
    assert any(s in reply for s in ("ask me to do it", "попросите прямо")), reply


@PROPERTY
@given(verb=st.sampled_from(VERBS), thing=st.sampled_from(THINGS), number=st.integers(100, 99999),
       template=st.sampled_from(ASKS), reader=st.booleans())
def test_property_an_explicit_ask_still_acts(client, verb, thing, number, template, reader):
    text, action, ident = said(template, verb, thing, number)
    tools = toolset(action, thing[0], reader)
    response = ask(client, text, tools)
    assert (action, {f"{thing[0]}_id": ident}) in uses(response), (text, uses(response), text_of(response))
    assert "nothing has been done" not in text_of(response) and "ничего не сделано" not in text_of(response)

    final, responses = drive(client, text, tools, lambda name, tool_input: (json.dumps({"ok": True}), False))
    assert final.stop_reason == "end_turn" and len(responses) <= 4, text


def test_the_examples_of_the_issue(client):
    """The issue's own wordings, a reader beside each action: the question acts on nothing, the ask acts."""
    for question, explicit, action, reader, key, ident in [
            ("How does cancelling appointment A-551 work?", "Cancel appointment A-551", "cancel_appointment",
             "get_appointment", "appointment_id", "A-551"),
            ("What would happen if I cancelled policy HO-4471?", "Please cancel policy HO-4471, how long does it take?",
             "cancel_policy", "get_policy", "policy_number", "HO-4471"),
            ("Can I freeze membership GM-20931 for a month? Don't do it yet, just asking.",
             "Freeze membership GM-20931.", "freeze_membership", "get_membership", "membership_id", "GM-20931"),
            ("Как работает отмена записи A-551?", "Отмени запись A-551", "cancel_appointment", "get_appointment",
             "appointment_id", "A-551"),
            ("Что будет, если я отменю полис HO-4471?", "Отмени полис HO-4471.", "cancel_policy", "get_policy",
             "policy_number", "HO-4471")]:
        verb, noun = action.split("_")
        tools = [tool(action, f"{verb.capitalize()} a {noun}.", {key: S}), tool(reader, f"Get a {noun}.", {key: S})]
        assert all(name != action for name, _ in uses(ask(client, question, tools))), question
        assert (action, {key: ident}) in uses(ask(client, explicit, tools)), explicit


# --- an action on listed items waits for the listing and uses its ids ------------------------------------------

PARENTS = [("list_claims", "claim", "policy", "PL"), ("list_orders", "order", "account", "AC"),
           ("list_bookings", "booking", "customer", "CU"), ("list_tickets", "ticket", "project", "PR")]


@PROPERTY
@given(parent=st.sampled_from(PARENTS), number=st.integers(10, 9999), russian=st.booleans(),
       statuses=st.lists(st.sampled_from(["open", "closed"]), min_size=2, max_size=5))
def test_property_an_action_on_listed_items_waits_for_them(client, parent, number, russian, statuses):
    lister, item, owner, prefix = parent
    owner_id = f"{prefix}-{number}"
    tools = [tool(lister, f"List the {item}s of a {owner}.", {f"{owner}_id": S}),
             tool(f"cancel_{item}", f"Cancel a {item}.", {f"{item}_id": S})]
    items = [{f"{item}_id": f"{item[:2].upper()}{i}{number}", "status": s} for i, s in enumerate(statuses)]
    text = (f"Покажи {item}s по {owner} {owner_id}, потом отмени те, что ещё open." if russian
            else f"List my {item}s on {owner} {owner_id}, then cancel the ones still open.")

    def answer(name, tool_input):
        return (json.dumps(items) if name == lister else json.dumps({"ok": True})), False

    final, responses = drive(client, text, tools, answer)
    assert final.stop_reason == "end_turn" and len(responses) <= 6, text
    first = uses(responses[0])
    assert all(name != f"cancel_{item}" for name, _ in first), (text, first)  # it waits for the listing
    listed = {i[f"{item}_id"] for i in items}
    cancelled = [i[f"{item}_id"] for r in responses for name, i in uses(r) if name == f"cancel_{item}"]
    assert set(cancelled) <= listed and owner_id not in cancelled, (text, cancelled)


@PROPERTY
@given(parent=st.sampled_from(PARENTS), number=st.integers(10, 9999))
def test_property_an_action_never_takes_the_id_a_listing_took_for_another_field(client, parent, number):
    """Even a batch that names the action beside the listing never hands the action the listing's own id: the model
    is driven with the pair as if it had planned both, and the wrong call never goes out (tool_user._borrowed_id)."""
    from course_sandbox.simulated_model import tool_user
    from course_sandbox.simulated_model.tool_roles import ToolSpec

    lister, item, owner, prefix = parent
    owner_id = f"{prefix}-{number}"
    specs = [ToolSpec(lister, f"List the {item}s of a {owner}.", {"type": "object", "properties": {f"{owner}_id": S}}),
             ToolSpec(f"cancel_{item}", f"Cancel a {item}.", {"type": "object", "properties": {f"{item}_id": S}})]
    wrong = (f"cancel_{item}", {f"{item}_id": owner_id})
    right = (f"cancel_{item}", {f"{item}_id": f"X{number}"})
    listing = (lister, {f"{owner}_id": owner_id})
    assert tool_user._not_waiting(specs, [listing, wrong], "") == [listing]
    assert tool_user._not_waiting(specs, [listing, right], "") == [listing, right]
    assert tool_user._borrowed_id(specs, [listing], wrong) and not tool_user._borrowed_id(specs, [listing], right)
