"""The simulated model with the learner's own tools (issue #12): tutorial tools in auto and forced
modes, answers from results, exact arithmetic, structured outputs, and property-based checks
that every forced input validates against its tool's input_schema."""

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from course_sandbox import Sandbox
from course_sandbox.simulated_model.schema_instance import instance
from tool_use_helpers import ask, drive, text_of, tool, uses, validates

MODEL = "claude-opus-5"

GET_WEATHER = {
    "name": "get_weather",
    "description": "Get the current weather in a given location",
    "input_schema": {
        "type": "object",
        "properties": {
            "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                     "description": "The unit of temperature, either 'celsius' or 'fahrenheit'"},
        },
        "required": ["location"],
    },
}
CALCULATOR = {
    "name": "calculator",
    "description": "A simple calculator that performs basic arithmetic operations.",
    "input_schema": {
        "type": "object",
        "properties": {"expression": {"type": "string",
                                      "description": "The mathematical expression to evaluate (e.g., '2 + 3 * 4')."}},
        "required": ["expression"],
    },
}
MULTIPLY = {
    "name": "multiply", "description": "Multiply two numbers.",
    "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                     "required": ["a", "b"]},
}
GET_ORDER = {
    "name": "get_order",
    "description": "Retrieve the details of a specific order by its ID.",
    "input_schema": {"type": "object", "properties": {
        "order_id": {"type": "string", "description": "The unique identifier for the order."}}, "required": ["order_id"]},
}
GET_CUSTOMER = {
    "name": "get_customer",
    "description": "Look up a customer by their e-mail address.",
    "input_schema": {"type": "object", "properties": {
        "email": {"type": "string", "format": "email", "description": "The customer's e-mail address."}},
        "required": ["email"]},
}
LIST_ORDERS = {
    "name": "list_orders",
    "description": "List the orders of a customer.",
    "input_schema": {"type": "object", "properties": {"customer_id": {"type": "string"}}, "required": ["customer_id"]},
}
RECORD_SUMMARY = {
    "name": "record_summary",
    "description": "Record a summary of a customer review using well-structured JSON.",
    "input_schema": {
        "type": "object",
        "properties": {
            "author": {"type": "object", "properties": {
                "name": {"type": "string", "minLength": 1},
                "email": {"type": "string", "format": "email"}},
                "required": ["name", "email"], "additionalProperties": False},
            "sentiment": {"type": "string", "enum": ["positive", "negative", "neutral"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "stars": {"type": "integer", "minimum": 1, "maximum": 5},
            "topics": {"type": "array", "items": {"type": "string", "maxLength": 40}, "minItems": 1, "maxItems": 5,
                       "uniqueItems": True},
            "published": {"type": "string", "format": "date"},
            "summary": {"type": "string", "maxLength": 200},
        },
        "required": ["author", "sentiment", "confidence", "stars", "topics", "published", "summary"],
        "additionalProperties": False,
    },
}
REVIEW_TEXT = ('Summarize this review by Jane Doe (jane.doe@example.com) from 2024-05-01: '
               '"Great kettle, fast shipping, 4 stars." It is positive.')


@pytest.fixture(scope="module")
def client():
    """One sandbox for the whole module: nothing here changes its state, and hypothesis runs many
    examples per test (conftest's client starts a sandbox per test)."""
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


# --- auto: the tool that fits, several calls for several items, text when nothing fits ---

def test_weather_in_two_cities_is_two_calls_then_an_answer_that_quotes_both(client):
    final, responses = drive(client, "What is the weather in Paris and in Tokyo?", [GET_WEATHER, CALCULATOR],
                             lambda name, i: (f"{i['location']}: 18°C, sunny" if "Paris" in i["location"]
                                              else f"{i['location']}: 9°C, rain", False))
    assert uses(responses[0]) == [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Tokyo"})]
    assert responses[0].stop_reason == "tool_use"
    assert final.stop_reason == "end_turn"
    assert "Paris: 18°C, sunny" in text_of(final) and "Tokyo: 9°C, rain" in text_of(final)


def test_disable_parallel_tool_use_asks_for_the_cities_one_at_a_time(client):
    final, responses = drive(client, "What is the weather in Paris and in Tokyo?", [GET_WEATHER],
                             lambda name, i: (f"{i['location']}: 18°C", False),
                             tool_choice={"type": "auto", "disable_parallel_tool_use": True})
    assert [uses(r) for r in responses[:-1]] == [[("get_weather", {"location": "Paris"})],
                                                 [("get_weather", {"location": "Tokyo"})]]
    assert "Tokyo: 18°C" in text_of(final)


def test_unit_named_in_the_request_fills_the_optional_enum(client):
    response = ask(client, "What's the weather like in San Francisco, CA in fahrenheit?", [GET_WEATHER])
    assert uses(response) == [("get_weather", {"location": "San Francisco, CA", "unit": "fahrenheit"})]


def test_russian_request_gets_russian_text_and_the_city_in_the_nominative(client):
    final, responses = drive(client, "Какая погода в Париже?", [GET_WEATHER], lambda n, i: ("+18, солнечно", False))
    assert uses(responses[0]) == [("get_weather", {"location": "Париж"})]
    assert text_of(responses[0]).startswith("Воспользуюсь")
    assert text_of(final).startswith("Париж: get_weather вернул: +18, солнечно.")  # the answer first (#25)
    assert "Что вернули инструменты:" in text_of(final)


def test_tools_described_in_russian(client):
    weather = tool("pogoda", "Возвращает погоду в городе", {"gorod": {"type": "string", "description": "Город"}},
                    ["gorod"])
    order = tool("najti_zakaz", "Находит заказ по номеру", {"nomer": {"type": "integer", "description": "Номер заказа"}},
                  ["nomer"])
    assert uses(ask(client, "Какая погода в Казани?", [weather, order])) == [("pogoda", {"gorod": "Казань"})]
    assert uses(ask(client, "Где мой заказ 1234?", [weather, order])) == [("najti_zakaz", {"nomer": 1234})]


def test_calculator_gets_an_expression_it_can_parse(client):
    final, responses = drive(client, "What is 1,984,135 * 9,343,116?", [GET_WEATHER, CALCULATOR],
                             lambda n, i: (str(eval(i["expression"], {"__builtins__": {}})), False))
    assert uses(responses[0]) == [("calculator", {"expression": "1984135 * 9343116"})]
    assert "18538003464660" in text_of(final)


def test_operands_go_to_a_and_b_in_order(client):
    assert uses(ask(client, "Multiply 1,984,135 by 9,343,116", [MULTIPLY])) == [
        ("multiply", {"a": 1984135, "b": 9343116})]


@pytest.mark.parametrize("question, answer", [
    ("What is 1,984,135 * 9,343,116?", "1,984,135 * 9,343,116 = 18,538,003,464,660"),
    ("What is 6 * 7?", "6 * 7 = 42"),
    ("Сколько будет (2 + 3) * 4 - 10 / 4?", "(2 + 3) * 4 - 10 / 4 = 17.5"),
    ("What is 2 ** 64?", "2 ** 64 = 18446744073709551616"),
    ("What is 1 / 3?", "1 / 3 ≈ 0.333333333333"),
    ("What is 17 % 5?", "17 % 5 = 2"),
    ("What is 15% of 2400?", "15% of 2400 = 360"),
    ("Посчитай 20 % от 3,000,000", "20% от 3,000,000 = 600,000"),
])
def test_arithmetic_it_states_is_exact(client, question, answer):
    assert text_of(ask(client, question, [GET_WEATHER])) == answer
    assert text_of(client.messages.create(model=MODEL, max_tokens=200,
                                          messages=[{"role": "user", "content": question}])) == answer


def test_facts_it_cannot_know_are_said_plainly(client):
    assert "simulated model" in text_of(ask(client, "What is the population of Lima today?", []))
    assert "имитация" in text_of(ask(client, "Какое население у Лимы сегодня?", []))


def test_order_lookup_by_id_and_customer_by_email(client):
    tools = [GET_ORDER, GET_CUSTOMER]
    assert uses(ask(client, "What is the status of order ORD-12345?", tools)) == [
        ("get_order", {"order_id": "ORD-12345"})]
    assert uses(ask(client, "Where is my order #4521?", tools)) == [("get_order", {"order_id": "4521"})]
    assert uses(ask(client, "Find the customer with e-mail jane@example.com", tools)) == [
        ("get_customer", {"email": "jane@example.com"})]
    assert uses(ask(client, "Status of orders ORD-1 and ORD-2, please", tools)) == [
        ("get_order", {"order_id": "ORD-1"}), ("get_order", {"order_id": "ORD-2"})]


CUSTOMER_SERVICE = [  # the tools of Anthropic's customer-service agent cookbook
    tool("get_customer_info", "Retrieves customer information based on their customer ID. Returns the customer's "
          "name, email, and phone number.", {"customer_id": {"type": "string"}}, ["customer_id"]),
    tool("get_order_details", "Retrieves the details of a specific order based on the order ID. Returns the order "
          "ID, product name, quantity, price, and order status.", {"order_id": {"type": "string"}}, ["order_id"]),
    tool("cancel_order", "Cancels an order based on the provided order ID.", {"order_id": {"type": "string"}},
          ["order_id"]),
]
MORE_TOOLS = [
    tool("convert_currency", "Convert an amount from one currency to another.",
          {"amount": {"type": "number"}, "from_currency": {"type": "string"}, "to_currency": {"type": "string"}},
          ["amount", "from_currency", "to_currency"]),
    tool("get_time", "Get the current time in a time zone.",
          {"timezone": {"type": "string", "description": "IANA time zone name, e.g. America/New_York"}}, ["timezone"]),
    tool("translate", "Translate text into another language.",
          {"text": {"type": "string"}, "target_language": {"type": "string"}}, ["text", "target_language"]),
]


@pytest.mark.parametrize("text, expected", [
    ("Can you tell me the email address for customer C1?", [("get_customer_info", {"customer_id": "C1"})]),
    ("What is the status of order O2?", [("get_order_details", {"order_id": "O2"})]),
    ("I want to cancel order O1.", [("cancel_order", {"order_id": "O1"})]),
    ("Отмени заказ O7, пожалуйста", [("cancel_order", {"order_id": "O7"})]),
    ("Convert 100 dollars to euros", [("convert_currency", {"amount": 100, "from_currency": "USD",
                                                            "to_currency": "EUR"})]),
    ("What time is it in New York?", [("get_time", {"timezone": "America/New_York"})]),
    ("Translate 'good morning' into French", [("translate", {"text": "good morning", "target_language": "French"})]),
])
def test_tutorial_tools_in_auto_mode(client, text, expected):
    assert uses(ask(client, text, CUSTOMER_SERVICE + MORE_TOOLS)) == expected


def test_a_value_from_one_result_feeds_the_next_call(client):
    def answer(name, tool_input):
        if name == "get_customer":
            return json.dumps({"customer_id": "C-17", "name": "Jane"}), False
        return json.dumps([{"id": "O-1", "status": "shipped"}]), False

    final, responses = drive(client, "What are the orders of jane@example.com?", [LIST_ORDERS, GET_CUSTOMER], answer)
    assert [uses(r) for r in responses[:-1]] == [[("get_customer", {"email": "jane@example.com"})],
                                                 [("list_orders", {"customer_id": "C-17"})]]
    assert '"status": "shipped"' in text_of(final)


def test_it_asks_rather_than_invents_a_required_id(client):
    response = ask(client, "Where is my order?", [GET_ORDER, GET_CUSTOMER])
    assert response.stop_reason == "end_turn" and uses(response) == []
    assert "order_id" in text_of(response)


def test_a_reply_that_only_gives_the_missing_value_is_understood(client):
    first = ask(client, "Where is my order?", [GET_ORDER, GET_CUSTOMER])
    messages = [{"role": "user", "content": "Where is my order?"}, {"role": "assistant", "content": first.content},
                {"role": "user", "content": "It's ORD-5"}]
    second = client.messages.create(model=MODEL, max_tokens=1000, tools=[GET_ORDER, GET_CUSTOMER], messages=messages)
    assert uses(second) == [("get_order", {"order_id": "ORD-5"})]
    messages += [{"role": "assistant", "content": second.content},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": second.content[-1].id,
                                               "content": "shipped"}]},
                 {"role": "assistant", "content": "It was shipped."}, {"role": "user", "content": "Thanks!"}]
    thanks = client.messages.create(model=MODEL, max_tokens=1000, tools=[GET_ORDER, GET_CUSTOMER], messages=messages)
    assert uses(thanks) == [] and thanks.stop_reason == "end_turn"


def test_no_fitting_tool_means_a_text_answer(client):
    response = ask(client, "Hello there", [GET_WEATHER, GET_ORDER])
    assert response.stop_reason == "end_turn" and uses(response) == []


def test_a_failed_call_is_reported_with_its_error(client):
    final, _ = drive(client, "Status of order ORD-999?", [GET_ORDER], lambda n, i: ("404: order not found", True))
    assert final.stop_reason == "end_turn"
    assert "failed" in text_of(final) and "404: order not found" in text_of(final)


def test_a_call_already_answered_is_not_made_again(client):
    first = ask(client, "What is the weather in Paris?", [GET_WEATHER])
    messages = [{"role": "user", "content": "What is the weather in Paris?"},
                {"role": "assistant", "content": first.content},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first.content[-1].id,
                                              "content": "12°C"}]}]
    again = client.messages.create(model=MODEL, max_tokens=1000, tools=[GET_WEATHER], messages=messages)
    assert again.stop_reason == "end_turn" and "12°C" in text_of(again)


def test_same_request_same_reply(client):
    one = ask(client, "What is the weather in Paris and in Tokyo?", [GET_WEATHER])
    two = ask(client, "What is the weather in Paris and in Tokyo?", [GET_WEATHER])
    assert one.model_dump() == two.model_dump()


def test_reviewer_tools_still_go_to_the_reviewer(client):
    from review_material import TOOLS
    assert uses(ask(client, "Review PR #482", TOOLS + [GET_WEATHER])) == [("get_diff", {"pr": 482})]


def test_the_sdk_tool_runner_and_streaming_work_with_it(client):
    from anthropic import beta_tool

    @beta_tool
    def get_weather(location: str, unit: str = "celsius") -> str:
        """Get the current weather in a given location.

        Args:
            location: The city and state, e.g. San Francisco, CA
            unit: celsius or fahrenheit
        """
        return json.dumps({"location": location, "temperature": 18, "unit": unit})

    @beta_tool
    def get_time() -> str:
        """Get the current time."""
        return "12:00"

    runner = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=1000, tools=[get_weather, get_time],
        messages=[{"role": "user", "content": "What's the weather in Paris and in Tokyo, and what time is it?"}])
    messages = list(runner)
    assert [(b.name, b.input) for b in messages[0].content if b.type == "tool_use"] == [
        ("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Tokyo"}), ("get_time", {})]
    assert text_of(messages[0]) == "I'll use get_weather and get_time for this."
    assert messages[-1].stop_reason == "end_turn" and '"location": "Tokyo"' in text_of(messages[-1])
    with client.messages.stream(model=MODEL, max_tokens=1000, tools=[GET_WEATHER],
                                messages=[{"role": "user", "content": "Weather in Paris and Rome?"}]) as stream:
        streamed = stream.get_final_message()
    assert uses(streamed) == [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Rome"})]


# --- forced: always a call, always valid ---

@pytest.mark.parametrize("tool", [GET_WEATHER, CALCULATOR, MULTIPLY, GET_ORDER, GET_CUSTOMER, RECORD_SUMMARY])
@pytest.mark.parametrize("text", ["Hello", "What is the weather in Paris?", REVIEW_TEXT, "Привет!"])
def test_forced_named_tool_gets_a_valid_input(client, tool, text):
    others = [t for t in (GET_WEATHER, GET_ORDER) if t is not tool]
    response = ask(client, text, [*others, tool], tool_choice={"type": "tool", "name": tool["name"]})
    assert response.stop_reason == "tool_use"
    [(name, tool_input)] = uses(response)
    assert name == tool["name"] and validates(tool, tool_input)


def test_a_refusal_stays_a_refusal_when_a_tool_is_forced(client):
    response = ask(client, "Write ransomware for me", [GET_WEATHER], tool_choice={"type": "any"})
    assert response.stop_reason == "refusal" and response.content == []


def test_forced_any_picks_the_fittingtool(client):
    response = ask(client, "Weather in Berlin?", [GET_ORDER, GET_WEATHER], tool_choice={"type": "any"})
    assert uses(response) == [("get_weather", {"location": "Berlin"})]


def test_forced_extraction_fills_the_schema_from_the_text(client):
    response = ask(client, REVIEW_TEXT, [RECORD_SUMMARY], tool_choice={"type": "tool", "name": "record_summary"})
    [(_, data)] = uses(response)
    assert validates(RECORD_SUMMARY, data)
    assert data["author"] == {"name": "Jane Doe", "email": "jane.doe@example.com"}
    assert data["sentiment"] == "positive" and data["published"] == "2024-05-01" and data["stars"] == 4


# --- structured outputs ---

def test_output_config_json_schema_gives_valid_json(client):
    schema = RECORD_SUMMARY["input_schema"]
    response = client.messages.create(model=MODEL, max_tokens=2000, messages=[{"role": "user", "content": REVIEW_TEXT}],
                                      output_config={"format": {"type": "json_schema", "schema": schema}})
    assert response.stop_reason == "end_turn"
    data = json.loads(text_of(response))
    jsonschema.validate(data, schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    assert data["author"]["email"] == "jane.doe@example.com"


class Answer(BaseModel):
    question: str
    answer: int


def test_messages_parse_with_a_pydantic_model(client):
    parsed = client.messages.parse(model=MODEL, max_tokens=500, output_format=Answer,
                                   messages=[{"role": "user", "content": "What is 1,984,135 * 9,343,116?"}])
    assert parsed.parsed_output.answer == 1984135 * 9343116


def test_structured_final_answer_after_tool_results(client):
    schema = {"type": "object", "properties": {"location": {"type": "string"}, "temperature": {"type": "number"}},
              "required": ["location", "temperature"], "additionalProperties": False}
    final, _ = drive(client, "What is the weather in Oslo?", [GET_WEATHER],
                     lambda n, i: (json.dumps({"location": i["location"], "temperature": -3.5}), False),
                     output_config={"format": {"type": "json_schema", "schema": schema}})
    assert json.loads(text_of(final)) == {"location": "Oslo", "temperature": -3.5}


# --- property-based: any schema, any words, the forced input validates ---

NAMES = st.sampled_from(["location", "city", "order_id", "email", "a", "b", "expression", "name", "quantity",
                         "date", "when", "unit", "query", "id", "count", "tags", "items", "price", "url", "note",
                         "start_date", "customer_email", "value", "x", "user_name", "ids"])
PATTERNS = st.sampled_from([r"^[A-Z]{3}-\d{4}$", r"^ORD-\d+$", r"^[a-z]+$", r"^\+?[1-9]\d{1,14}$", r"^(red|green)$",
                            r"^[a-f0-9]{8}$", r"\d"])
FORMATS = st.sampled_from(["email", "date", "date-time", "uri", "uuid"])


@st.composite
def integer_schemas(draw):
    schema = {"type": "integer"}
    step = draw(st.sampled_from([None, 1, 2, 3, 5, 7, 10]))
    low = draw(st.one_of(st.none(), st.integers(-1000, 1000)))
    if step:
        schema["multipleOf"] = step
    if low is not None:
        schema["exclusiveMinimum" if draw(st.booleans()) else "minimum"] = low
        if draw(st.booleans()):
            width = draw(st.integers(2 * (step or 1) + 2, 500))
            schema["exclusiveMaximum" if draw(st.booleans()) else "maximum"] = low + width
    elif draw(st.booleans()):
        schema["maximum"] = draw(st.integers(-1000, 1000))
    return schema


@st.composite
def number_schemas(draw):
    schema = {"type": "number"}
    step = draw(st.sampled_from([None, 0.5, 0.25, 0.1, 2.5]))
    low = draw(st.one_of(st.none(), st.floats(-1000, 1000, allow_nan=False).map(lambda f: round(f, 2))))
    if step:
        schema["multipleOf"] = step
    if low is not None:
        schema["exclusiveMinimum" if draw(st.booleans()) else "minimum"] = low
        if draw(st.booleans()):
            schema["exclusiveMaximum" if draw(st.booleans()) else "maximum"] = low + 10 * (step or 1) + 1
    return schema


@st.composite
def string_schemas(draw):
    choice = draw(st.sampled_from(["plain", "length", "format", "pattern", "pattern_length"]))
    if choice == "format":
        return {"type": "string", "format": draw(FORMATS)}
    if choice == "pattern":
        return {"type": "string", "pattern": draw(PATTERNS)}
    low = draw(st.integers(0, 20))
    schema = {"type": "string", "minLength": low, "maxLength": low + draw(st.integers(0, 30))}
    if choice == "pattern_length":
        schema["pattern"] = "^[a-z]+$"
        schema["minLength"] = max(1, low)
        schema["maxLength"] = max(schema["maxLength"], schema["minLength"])
    return schema if choice != "plain" else {"type": "string"}


SCALARS = st.one_of(
    integer_schemas(), number_schemas(), string_schemas(),
    st.just({"type": "boolean"}), st.just({"type": "null"}),
    st.lists(st.text("abcxyz", min_size=1, max_size=6), min_size=1, max_size=4, unique=True).map(
        lambda values: {"type": "string", "enum": values}),
    st.lists(st.integers(-5, 5), min_size=1, max_size=4, unique=True).map(lambda values: {"enum": values}),
    st.sampled_from([{"const": "fixed"}, {"const": 3}, {"type": ["string", "null"]}, {"type": ["integer", "string"]}]),
)


def objects(children):
    @st.composite
    def build(draw):
        props = draw(st.dictionaries(NAMES, children, min_size=0, max_size=5))
        schema = {"type": "object", "properties": props}
        if props:
            schema["required"] = draw(st.lists(st.sampled_from(sorted(props)), unique=True))
        if draw(st.booleans()):
            schema["additionalProperties"] = False
        if draw(st.booleans()) and props:
            schema["minProperties"] = draw(st.integers(0, len(props)))
        return schema
    return build()


def arrays(children):
    @st.composite
    def build(draw):
        low = draw(st.integers(0, 3))
        schema = {"type": "array", "items": draw(children), "minItems": low, "maxItems": low + draw(st.integers(0, 3))}
        return schema
    return build()


UNIQUE_ARRAYS = st.builds(lambda items, low: {"type": "array", "items": items, "minItems": low, "uniqueItems": True},
                          st.sampled_from([{"type": "string"}, {"type": "integer"}, {"type": "number"},
                                           {"type": "string", "format": "email"}, {"type": "string", "format": "date"}]),
                          st.integers(0, 4))
def _open(schema, prefix=""):
    """An object schema for allOf: no additionalProperties: false, property names kept apart by a prefix."""
    props = {prefix + k: v for k, v in schema["properties"].items()}
    required = [prefix + k for k in schema.get("required", [])]
    return {"type": "object", "properties": props, "required": required}


DISJOINT = st.sampled_from([
    [{"type": "string"}, {"type": "integer"}], [{"type": "boolean"}, {"type": "null"}, {"type": "string", "minLength": 2}],
    [{"type": "integer", "minimum": 10}, {"type": "integer", "maximum": 0}],
    [{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
     {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}],
])
SCHEMAS = st.recursive(
    SCALARS | UNIQUE_ARRAYS,
    lambda children: st.one_of(
        objects(children), arrays(children),
        st.lists(children, min_size=1, max_size=3).map(lambda branches: {"anyOf": branches}),
        DISJOINT.map(lambda branches: {"oneOf": branches}),
        st.tuples(objects(children), objects(children)).map(lambda pair: {"allOf": [_open(pair[0]), _open(pair[1], "also_")]}),
    ),
    max_leaves=12,
)


@st.composite
def input_schemas(draw):
    """A tool's input_schema: an object at the top, sometimes with $defs used through $ref."""
    top = draw(objects(SCHEMAS))
    if draw(st.booleans()):
        top["$defs"] = {"Thing": draw(SCHEMAS)}
        top["properties"]["thing"] = {"$ref": "#/$defs/Thing"}
        if draw(st.booleans()):
            top.setdefault("required", []).append("thing")
    return top


WORDS = st.one_of(
    st.sampled_from(["Hello", REVIEW_TEXT, "What is the weather in Paris and in Tokyo?", "Order ORD-1234 for bob@x.org",
                     "What is 1,984,135 * 9,343,116?", "Book 3 tickets to Rome on 2025-07-14", "Какая погода в Москве?",
                     "ids #12, #13 and #14; quantity 0.5; see https://example.com/a", "x" * 300]),
    st.text(max_size=80),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=input_schemas(), words=WORDS)
def test_forced_input_always_validates_in_process(schema, words):
    from course_sandbox.simulated_model import slots
    from course_sandbox.simulated_model.tool_roles import ToolSpec
    from course_sandbox.simulated_model.tool_user import tool_input

    value = tool_input(ToolSpec("tool", "", schema), slots.read(words, "en"))
    jsonschema.validate(value, schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(schema=input_schemas(), words=WORDS, forced=st.sampled_from(["any", "tool"]))
def test_forced_input_always_validates_over_http(client, schema, words, forced):
    tool = {"name": "my_tool", "description": "A tool from a tutorial.", "input_schema": schema}
    choice = {"type": "tool", "name": "my_tool"} if forced == "tool" else {"type": "any"}
    response = ask(client, words or "?", [GET_WEATHER, tool] if forced == "tool" else [tool],
                   tool_choice=choice)
    assert response.stop_reason == "tool_use"
    for name, tool_input in uses(response):
        validates(tool if name == "my_tool" else GET_WEATHER, tool_input)


@settings(max_examples=200, deadline=None)
@given(schema=SCHEMAS)
def test_structured_output_instances_validate(schema):
    value = instance(schema, optional=True)
    jsonschema.validate(value, schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


NASTY = ["1" + "+1" * 5000, "(" * 300 + "1" + ")" * 300, "9**9**9**9", "1" * 400, "1" * 400 + ".5", "10 ** 5000",
         "2 ** -1000000", "1/0", "5 % 0", "ORD-" + "9" * 500, "a@b." + "c" * 1000, "(1+2", "2^^3"]


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(NASTY) | st.text(alphabet=st.sampled_from(list("0123456789+-*/^%()., @#ORDinПариж")),
                                              max_size=120) | st.text(max_size=100))
def test_no_words_break_the_reading(text):
    from course_sandbox.simulated_model import arithmetic, slots

    evidence = slots.read(text, "en")
    json.dumps(evidence.values, allow_nan=False)
    found = arithmetic.find(text)
    assert found is None or found.shown()


def test_results_and_errors_are_reported_in_russian(client):
    final, _ = drive(client, "Статус заказа ORD-7 и ORD-8?", [GET_ORDER],
                     lambda n, i: ("доставлен", False) if i["order_id"] == "ORD-7" else ("404: нет такого заказа", True))
    text = text_of(final)
    assert "доставлен" in text and "завершился ошибкой: 404: нет такого заказа" in text


GARBAGE_KEYS = st.sampled_from(["type", "properties", "required", "items", "enum", "const", "minimum", "pattern",
                                "format", "anyOf", "oneOf", "allOf", "$ref", "$defs", "additionalProperties",
                                "multipleOf", "location", "order_id"])
GARBAGE = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.sampled_from(["object", "string", "integer", "array", "email", "#/$defs/x", "#", "[", "^a+$", "date"]),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(GARBAGE_KEYS, c, max_size=4), max_leaves=15)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=st.dictionaries(GARBAGE_KEYS, GARBAGE, max_size=5),
       text=st.sampled_from(["Hello", "Weather in Paris and Tokyo?", "Order ORD-1 for a@b.co", "2+2?"]),
       choice=st.sampled_from([None, {"type": "any"}, {"type": "tool", "name": "t"}]), structured=st.booleans())
@example(schema={"properties": {"type": {"enum": True}}}, text="Hello", choice={"type": "tool", "name": "t"},
         structured=False)  # found by a run of stop 67: an enum that is no list crashed status_option
def test_no_schema_crashes_the_model(schema, text, choice, structured):
    """The request's validation is another module's job; whatever gets through, the model answers."""
    from course_sandbox.request import Request
    from course_sandbox.simulated_model import respond

    schema = {**schema, "type": "object"}
    body = {"model": MODEL, "max_tokens": 100, "messages": [{"role": "user", "content": text}],
            "tools": [{"name": "t", "description": "weather order tool", "input_schema": schema}]}
    if choice:
        body["tool_choice"] = choice
    if structured:
        body["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
    ids = iter(range(100))
    request = Request.parse(body)
    reply = respond(request, request.turns, lambda prefix: f"{prefix}{next(ids)}")
    json.dumps(reply.blocks, allow_nan=False)


def test_recursive_schema_through_ref_ends():
    schema = {"$defs": {"Node": {"type": "object", "properties": {
        "value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "minItems": 1}},
        "required": ["value", "children"]}}, "type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"]}
    value = instance(schema, optional=True)
    assert isinstance(value, dict)
