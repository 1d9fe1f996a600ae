"""Properties over generated tools and prompts (issue #37): a forced input validates against its schema and
carries each value the prompt states, in the property made for it; a value the prompt does not state is said
to be a placeholder; no action is taken that was not asked for, every asked action is proposed, and every
conversation ends."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from course_sandbox import Sandbox
from tool_use_helpers import ask, text_of, tool, uses, validates
from tool_use_helpers import drive as loop

S = {"type": "string"}
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# kind: (property names and schemas, values, how a prompt states a value)
KINDS = {
    "place": ([("city", S), ("location", {"type": "string", "description": "The city"})],
              ["Oslo", "Lisbon", "Salt Lake City", "Rio de Janeiro", "Kyoto"], "in {}"),
    "email": ([("email", {"type": "string", "format": "email"}), ("contact_email", S)],
              ["ana@example.com", "bo.li@mail.example.org"], "to {}"),
    "phone": ([("phone_number", S), ("phone", {"type": "string", "description": "Phone, international form"})],
              ["+44 20 7946 0958", "+1 415 555 0134", "+34 612 345 678"], "phone {}"),
    "date": ([("date", {"type": "string", "format": "date"}), ("day", S)], ["2025-03-05", "2026-11-30"], "on {}"),
    "time": ([("time", {"type": "string", "description": "HH:MM"}), ("start_time", S)], ["19:30", "08:15"], "at {}"),
    "quantity": ([("quantity", {"type": "integer", "minimum": 1}), ("qty", {"type": "integer"})], [2, 3, 7],
                 "{} pieces"),
    "price": ([("unit_price", {"type": "number"}), ("price", {"type": "number", "minimum": 0})], [120, 25.5],
              "at ${} each"),
    "id": ([("order_id", S), ("order_number", S)], ["ORD-123", "A-7781"], "order {}"),
    "venue": ([("restaurant_name", S), ("hotel_name", S)], ["Chez Panisse", "Blue Bottle Cafe", "Le Bernardin"],
              "at {}"),
    "person": ([("customer_name", S), ("guest_name", S)], ["Maria Lopez", "John Smith"], "for {}"),
    "tags": ([("tags", {"type": "array", "items": S}), ("labels", {"type": "array", "items": S})],
             [["urgent", "billing", "refund"], ["red", "green"], ["draft", "legal", "internal"]], "tag it with {}"),
    "url": ([("url", S), ("link", {"type": "string", "format": "uri"})],
            ["https://example.org/docs", "https://shop.example.com/a/b"], "from {}"),
}


def stated(kind: str, value) -> str:
    if kind == "tags":
        value = ", ".join(value[:-1]) + " and " + value[-1]
    return KINDS[kind][2].format(value)


@st.composite
def forced_cases(draw):
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=4, unique=True))
    if "venue" in kinds and "time" in kinds:  # both are stated with "at": one of them only
        kinds.remove("time")
    props, values = {}, {}
    for kind in kinds:
        name, schema = draw(st.sampled_from(KINDS[kind][0]))
        props[name] = schema
        values[name] = (kind, draw(st.sampled_from(KINDS[kind][1])))
    others = [k for k in ("place", "email", "phone", "date", "id", "venue", "person", "url") if k not in kinds]
    unstated = draw(st.sampled_from([None, *(KINDS[k][0][0] for k in others)]))
    if unstated:
        props[unstated[0]] = unstated[1]
    verb, noun = draw(st.sampled_from([("create", "booking"), ("record", "entry"), ("log", "request")]))
    order = draw(st.permutations(sorted(values)))
    prompt = f"{verb.capitalize()} a {noun} " + ", ".join(stated(*values[name]) for name in order) + "."
    return tool(f"{verb}_{noun}", f"{verb.capitalize()} a {noun}.", props), prompt, values, unstated


@SETTINGS
@given(case=forced_cases(), choice=st.sampled_from(["tool", "any"]))
def test_property_a_forced_input_carries_every_stated_value(client, case, choice):
    spec, prompt, values, unstated = case
    response = ask(client, prompt, [spec], tool_choice={"type": choice, **({"name": spec["name"]} if choice == "tool"
                                                                          else {})})
    ((name, tool_input),) = uses(response)
    assert name == spec["name"] and validates(spec, tool_input)
    for prop, (_, value) in values.items():
        assert tool_input[prop] == value, (prompt, prop, tool_input)
    if unstated:
        assert unstated[0] in text_of(response), (prompt, tool_input, text_of(response))
    else:
        assert "placeholder" not in text_of(response)


NOUNS = ["order", "ticket", "invoice", "booking"]
ACTIONS = ["cancel", "delete", "refund", "approve", "close"]
IDS = ["A-1", "X-42", "ORD-123", "T-77"]
ASKING = ["Please {verb} {noun} {id}.", "{Verb} {noun} {id} now", "I want you to {verb} {noun} {id}",
          "Check {noun} {id}, then {verb} it."]
QUESTIONS = ["What is the status of {noun} {id}?", "Show me {noun} {id}", "Don't {verb} {noun} {id}, just check it",
             "Is {noun} {id} still open?"]


@st.composite
def action_cases(draw):
    noun = draw(st.sampled_from(NOUNS))
    verbs = draw(st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=3, unique=True))
    specs = [tool(f"get_{noun}", f"Get a {noun}.", {f"{noun}_id": S})]
    specs += [tool(f"{verb}_{noun}", f"{verb.capitalize()} a {noun}.", {f"{noun}_id": S}) for verb in verbs]
    verb = draw(st.sampled_from(verbs))
    asked = draw(st.booleans())
    template = draw(st.sampled_from(ASKING if asked else QUESTIONS))
    ident = draw(st.sampled_from(IDS))
    return specs, template.format(noun=noun, verb=verb, Verb=verb.capitalize(), id=ident), verb if asked else None, \
        (noun, ident)


def results(name, tool_input):
    return json.dumps({"status": "open", **tool_input}), False


@SETTINGS
@given(case=action_cases())
def test_property_an_action_is_proposed_exactly_when_asked_and_the_conversation_ends(client, case):
    specs, prompt, verb, (noun, ident) = case
    final, responses = loop(client, prompt, specs, results, cap=12)
    assert final.stop_reason == "end_turn"
    made = [use for response in responses for use in uses(response)]
    actions = [name for name, _ in made if not name.startswith("get_")]
    if verb:
        assert (f"{verb}_{noun}", {f"{noun}_id": ident}) in made, (prompt, made)
        assert set(actions) == {f"{verb}_{noun}"}, (prompt, made)
    else:
        assert not actions, (prompt, made)
    keys = [name + json.dumps(i, sort_keys=True) for name, i in made]
    assert len(keys) == len(set(keys)), made
