"""A careful colleague (issue #25): the simulated model acts only when asked, never loops, fills
inputs with the values the prompt states, answers from what its tools returned, pairs each part
of a compound question with its tool, and uses server and special tools when they fit."""

import json

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_sandbox import Sandbox
from sandbox_http import MODEL
from tool_use_helpers import ask, text_of, tool, uses, validates
from tool_use_helpers import drive as loop



@pytest.fixture(scope="module")
def client():
    """One sandbox for the module: nothing here changes its state."""
    with Sandbox() as sb:
        yield sb.client(max_retries=0)


COOKBOOK = [  # Anthropic's customer-service agent cookbook, its tools as written there
    tool("get_customer_info", "Retrieves customer information based on their customer ID. Returns the customer's "
         "name, email, and phone number.", {"customer_id": {"type": "string",
                                                           "description": "The unique identifier for the customer."}}),
    tool("get_order_details", "Retrieves the details of a specific order based on the order ID. Returns the order ID, "
         "product name, quantity, price, and order status.",
         {"order_id": {"type": "string", "description": "The unique identifier for the order."}}),
    tool("cancel_order", "Cancels an order based on the provided order ID. Returns a confirmation message if the "
         "cancellation is successful.",
         {"order_id": {"type": "string", "description": "The unique identifier for the order to be cancelled."}}),
]
CUSTOMERS = {"C1": {"name": "John Doe", "email": "john@example.com", "phone": "123-456-7890"},
             "C2": {"name": "Jane Smith", "email": "jane@example.com", "phone": "987-654-3210"}}
ORDERS = {"O1": {"id": "O1", "product": "Widget A", "quantity": 2, "price": 19.99, "status": "Shipped"},
          "O2": {"id": "O2", "product": "Gadget B", "quantity": 1, "price": 49.99, "status": "Processing"}}


def cookbook_result(name, tool_input):
    if name == "get_customer_info":
        return str(CUSTOMERS.get(tool_input["customer_id"], "Customer not found"))
    if name == "get_order_details":
        return str(ORDERS.get(tool_input["order_id"], "Order not found"))
    return "Order successfully cancelled"


def cookbook_chat(client, user_message, cap=60):
    """The cookbook's loop as it is written: each request resends only the last exchange."""
    made = []
    response = client.messages.create(model=MODEL, max_tokens=4096, tools=COOKBOOK,
                                      messages=[{"role": "user", "content": user_message}])
    requests = 1
    while response.stop_reason == "tool_use":
        assert requests < cap, f"no end after {cap} requests: {made[:6]}"
        tool_use = next(block for block in response.content if block.type == "tool_use")
        made.append((tool_use.name, tool_use.input))
        response = client.messages.create(model=MODEL, max_tokens=4096, tools=COOKBOOK, messages=[
            {"role": "user", "content": user_message},
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use.id,
                                          "content": cookbook_result(tool_use.name, tool_use.input)}]}])
        requests += 1
    return requests, made, text_of(response)


def drive(client, content, tools, answer, cap=60, **kw):
    """The course's loop with the whole history: (the final response, every call made)."""
    final, responses = loop(client, content, tools, answer, cap=cap, **kw)
    return final, [use for response in responses for use in uses(response)]


# --- side effects only when asked; no loops ---

@pytest.mark.parametrize("question, expected", [
    ("What is the status of order O2?", [("get_order_details", {"order_id": "O2"})]),
    ("Can you tell me the email address for customer C1?", [("get_customer_info", {"customer_id": "C1"})]),
    ("I want to cancel order O1.", [("cancel_order", {"order_id": "O1"})]),
    ("Please don't cancel order O2, just tell me its status.", [("get_order_details", {"order_id": "O2"})]),
])
def test_the_cookbook_agent_unchanged_ends_without_unrequested_actions(client, question, expected):
    requests, made, _ = cookbook_chat(client, question)
    assert made == expected and requests == 2


def test_an_action_tool_alone_is_not_called_for_a_question(client):
    response = ask(client, "What is the status of order O2?", [COOKBOOK[2]])
    assert uses(response) == [] and response.stop_reason == "end_turn"


def test_forced_any_prefers_a_reader_to_an_unrequested_action(client):
    response = ask(client, "What is the status of order O2?", [COOKBOOK[2], COOKBOOK[1]], tool_choice={"type": "any"})
    assert uses(response) == [("get_order_details", {"order_id": "O2"})]


def test_a_status_question_with_the_full_history_ends_after_one_call(client):
    final, made = drive(client, "What is the status of order O2?", COOKBOOK,
                        lambda n, i: (cookbook_result(n, i), False))
    assert made == [("get_order_details", {"order_id": "O2"})] and final.stop_reason == "end_turn"


# --- forced inputs carry the values the prompt states ---

FLIGHTS = tool("search_flights", "Search flights.", {
    "origin": {"type": "string"}, "destination": {"type": "string"}, "date": {"type": "string", "format": "date"},
    "nonstop": {"type": ["boolean", "null"]}})


@pytest.mark.parametrize("text, spec, expected", [
    ("Show me article art-991", tool("get_article", "Fetch an article.",
                                     {"article_id": {"type": "string", "pattern": "^art-\\d+$"}}),
     {"article_id": "art-991"}),
    ("Call me back on +44 20 7946 0958, or write to ada@example.com",
     tool("request_callback", "Request a call back.", {"email": {"type": "string"}, "phone_number": {"type": "string"}}),
     {"email": "ada@example.com", "phone_number": "+44 20 7946 0958"}),
    ("Find flights from LHR to JFK on 2025-03-14, nonstop only", FLIGHTS,
     {"origin": "LHR", "destination": "JFK", "date": "2025-03-14", "nonstop": True}),
    ("Flights from LHR to JFK on 2025-03-14, no nonstop needed", FLIGHTS,
     {"origin": "LHR", "destination": "JFK", "date": "2025-03-14", "nonstop": False}),
    ("Deliver it to 10 Downing Street, London", tool("set_delivery_address", "Set the delivery address.",
                                                     {"address": {"type": "string"}}),
     {"address": "10 Downing Street, London"}),
    ("List the files in /tmp/demo", tool("list_files", "List the files in a directory.",
                                         {"directory": {"type": "string"}}), {"directory": "/tmp/demo"}),
    ("Refund $25.50 for order ORD-7", tool("refund", "Refund an order.", {"order_id": {"type": "string"},
                                                                          "amount": {"type": "number"}}),
     {"order_id": "ORD-7", "amount": 25.5}),
    ("Do a dry run of the migration", tool("migrate", "Run the migration.", {"dry_run": {"type": "boolean"}}),
     {"dry_run": True}),
    ("Show user u-17 and include the history", tool("get_user", "Get a user.", {
        "user_id": {"type": "string"}, "include_history": {"type": "boolean"}}),
     {"user_id": "u-17", "include_history": True}),
    ("Create the account for bob@example.com and send a welcome e-mail", tool(
        "create_account", "Create an account.", {"email": {"type": "string"}, "send_welcome_email": {"type": "boolean"}}),
     {"email": "bob@example.com", "send_welcome_email": True}),
    ("Add 2 Green Tea at 5.50 to the cart", tool("add_to_cart", "Add a product to the cart.", {
        "product_name": {"type": "string"}, "price": {"type": "number"}, "quantity": {"type": "integer"}}),
     {"product_name": "Green Tea", "price": 5.5, "quantity": 2}),
    ("Book a table for 4 people on 2025-06-01 under the name Smith", tool("book_table", "Book a table.", {
        "party_size": {"type": "integer"}, "date": {"type": "string", "format": "date"}, "name": {"type": "string"}}),
     {"party_size": 4, "date": "2025-06-01", "name": "Smith"}),
    ("Transfer 200 EUR from account ACC-1 to ACC-2", tool("transfer", "Transfer money.", {
        "amount": {"type": "number"}, "currency": {"type": "string"}, "from_account": {"type": "string"},
        "to_account": {"type": "string"}}),
     {"amount": 200, "currency": "EUR", "from_account": "ACC-1", "to_account": "ACC-2"}),
    ("Convert 3 miles to kilometers", tool("convert_units", "Convert units.", {
        "value": {"type": "number"}, "from_unit": {"type": "string"}, "to_unit": {"type": "string"}}),
     {"value": 3, "from_unit": "miles", "to_unit": "kilometers"}),
    ("Send a welcome e-mail to new@example.com", tool("send_email", "Send an e-mail.", {"to": {"type": "string"}}),
     {"to": "new@example.com"}),
    ("Approve PR 12", tool("approve_pull_request", "Approve a pull request.", {"number": {"type": "integer"}}),
     {"number": 12}),
    ("Ship order #8812 to 221B Baker Street, London by express", tool("ship_order", "Ship an order.", {
        "order_id": {"type": "string"}, "address": {"type": "string"},
        "method": {"type": "string", "enum": ["standard", "express"]}}),
     {"order_id": "8812", "address": "221B Baker Street, London", "method": "express"}),
])
def test_forced_inputs_carry_the_values_the_prompt_states(client, text, spec, expected):
    response = ask(client, text, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    assert uses(response) == [(spec["name"], expected)]


class Order(pydantic.BaseModel):
    product_name: str
    price: float
    quantity: int


@pytest.mark.parametrize("text", [
    "Extract the product name, price, and quantity from this customer message:\n"
    "\"Hi, I’d like to order 2 packs of Green Tea for 5.50 dollars each.\"",
    "2 Green Tea at 5.50",
])
def test_structured_outputs_are_filled_from_the_prompt(client, text):
    parsed = client.messages.parse(model=MODEL, max_tokens=500, output_format=Order,
                                   messages=[{"role": "user", "content": text}])
    assert parsed.parsed_output == Order(product_name="Green Tea", price=5.5, quantity=2)


# --- answers from results ---

@pytest.mark.parametrize("question, first_line", [
    ("What is the status of order O2?", "The status of order O2 is Processing."),
    ("Can you tell me the email address for customer C1?", "The email of customer C1 is john@example.com."),
    ("What's the phone number of customer C2?", "The phone of customer C2 is 987-654-3210."),
    ("How much did order O1 cost, and how many did I buy?", "For order O1, the quantity is 2 and the price is 19.99."),
])
def test_the_answer_gives_the_asked_field_in_a_sentence(client, question, first_line):
    _, _, text = cookbook_chat(client, question)
    assert text.split("\n")[0] == first_line


def test_a_tool_error_is_reported_as_an_error(client):
    final, _ = drive(client, "What is the status of order O9?", COOKBOOK, lambda n, i: ("Order not found: O9", True))
    assert final.stop_reason == "end_turn"
    assert text_of(final).startswith("I could not get an answer: the tool call failed.")
    assert "failed: Order not found: O9" in text_of(final)


def test_json_results_are_read_too(client):
    final, _ = drive(client, "Where is order O2?", [COOKBOOK[1]],
                     lambda n, i: (json.dumps({"order": {"id": "O2", "status": "In transit", "city": "Lyon"}}), False))
    assert text_of(final).split("\n")[0] == "For order O2, the status is In transit and the city is Lyon."


# --- one request, several asks ---

def test_the_sdk_tool_runner_pairs_each_part_with_its_tool(client):
    from anthropic import beta_tool

    @beta_tool
    def get_weather(location: str, unit: str = "fahrenheit") -> str:
        """Get the current weather in a given location.

        Args:
            location: The city, e.g. San Francisco
            unit: celsius or fahrenheit
        """
        return json.dumps({"location": location, "temperature": 21, "unit": unit})

    @beta_tool
    def get_local_time(timezone: str) -> str:
        """Get the local time in a time zone.

        Args:
            timezone: IANA time zone name, e.g. America/New_York
        """
        return json.dumps({"timezone": timezone, "time": "22:15"})

    runner = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=1000, tools=[get_weather, get_local_time],
        messages=[{"role": "user", "content": "What's the weather in Paris in celsius, and the local time in Tokyo?"}])
    messages = list(runner)
    assert [(b.name, b.input) for b in messages[0].content if b.type == "tool_use"] == [
        ("get_weather", {"location": "Paris", "unit": "celsius"}), ("get_local_time", {"timezone": "Asia/Tokyo"})]
    assert len(messages) == 2 and messages[-1].stop_reason == "end_turn"
    first = text_of(messages[-1]).split("\n")[0]
    assert "21" in first and "22:15" in first


def test_a_question_and_an_action_in_one_request(client):
    response = ask(client, "What is the status of order O2, and cancel order O1", COOKBOOK)
    assert uses(response) == [("get_order_details", {"order_id": "O2"}), ("cancel_order", {"order_id": "O1"})]


def test_quoted_text_is_not_cut_into_parts(client):
    translate = tool("translate", "Translate text into another language.",
                     {"text": {"type": "string"}, "target_language": {"type": "string"}})
    weather = tool("get_weather", "Get the weather in a city.", {"city": {"type": "string"}})
    response = ask(client, "Translate 'salt and pepper, and the weather' into French", [translate, weather])
    assert uses(response) == [("translate", {"text": "salt and pepper, and the weather", "target_language": "French"})]


# --- server and special tools when they fit; images ---

WEB_SEARCH = {"name": "web_search", "type": "web_search_20250305"}
PNG = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==")}}


@pytest.mark.parametrize("question", ["What's the weather in New York?", "What is the price of bitcoin today?",
                                      "Какие новости сегодня?"])
def test_web_search_for_fresh_facts(client, question):
    response = ask(client, question, [WEB_SEARCH])
    assert [b.type for b in response.content if b.type != "thinking"][1:3] == ["server_tool_use",
                                                                            "web_search_tool_result"]


def test_a_fitting_tool_of_its_own_goes_before_web_search(client):
    weather = tool("get_weather", "Get the weather in a city.", {"city": {"type": "string"}})
    assert uses(ask(client, "What's the weather in New York?", [WEB_SEARCH, weather])) == [
        ("get_weather", {"city": "New York"})]


def test_an_image_extraction_calls_the_tool_and_says_it_cannot_see(client):
    label = tool("record_nutrition_facts", "Record the nutrition facts read from a nutrition label image.", {
        "product_name": {"type": "string"}, "calories": {"type": "integer", "minimum": 0},
        "serving_size": {"type": "string"}})
    response = ask(client, [PNG, {"type": "text", "text": "Extract the nutrition facts from this label."}], [label])
    [(name, tool_input)] = uses(response)
    assert name == "record_nutrition_facts" and set(tool_input) == {"product_name", "calories", "serving_size"}
    assert "cannot read images" in text_of(response)


DEFERRED_WEATHER = {**tool("get_weather", "Lookup the weather for a given city.", {"location": {"type": "string"}}),
                    "defer_loading": True}


def test_a_deferred_tool_is_found_by_the_server_tool_search_before_it_is_called(client):
    tools = [DEFERRED_WEATHER, {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}]
    final, made = drive(client, "What is the weather in SF?", tools, lambda n, i: ("18°C, fog", False))
    assert made == [("get_weather", {"location": "SF"})] and final.stop_reason == "end_turn"
    first = ask(client, "What is the weather in SF?", tools)
    blocks = [b for b in first.content if b.type != "thinking"]  # today's model thinks first
    assert [b.type for b in blocks] == ["text", "server_tool_use", "tool_search_tool_result", "tool_use"]
    assert blocks[1].input == {"query": "weather"}
    assert [r.tool_name for r in blocks[2].content.tool_references] == ["get_weather"]


def test_a_deferred_tool_without_a_search_is_never_called(client):
    response = ask(client, "What is the weather in SF?", [DEFERRED_WEATHER])
    assert uses(response) == [] and response.stop_reason == "end_turn"


def test_the_sdk_search_tool_example_searches_then_calls(client):
    from anthropic import beta_tool

    @beta_tool(defer_loading=True)
    def get_weather(location: str) -> str:
        """Lookup the weather for a given city.

        Args:
            location: The city and state, e.g. San Francisco, CA
        """
        return json.dumps({"location": location, "temperature": "20°C", "condition": "Sunny"})

    @beta_tool
    def search_available_tools(*, keyword: str):
        """Search for useful tools using a query string"""
        return [{"type": "tool_reference", "tool_name": t.name} for t in [get_weather]
                if keyword in json.dumps(t.to_dict())]

    runner = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=1000, tools=[get_weather, search_available_tools],
        messages=[{"role": "user", "content": "What is the weather in SF?"}], betas=["tool-search-tool-2025-10-19"])
    messages = list(runner)
    called = [(b.name, b.input) for m in messages for b in m.content if b.type == "tool_use"]
    assert called == [("search_available_tools", {"keyword": "weather"}), ("get_weather", {"location": "SF"})]
    assert messages[-1].stop_reason == "end_turn" and "Sunny" in text_of(messages[-1])


def test_the_memory_tool_views_saves_and_reads_back(client, tmp_path):
    from anthropic.tools import BetaLocalFilesystemMemoryTool

    memory = BetaLocalFilesystemMemoryTool(base_path=str(tmp_path))
    system = "Store facts about the user and their preferences. Before responding, check memory."

    def run(text):
        runner = client.beta.messages.tool_runner(model=MODEL, max_tokens=1000, system=system, tools=[memory],
                                                  messages=[{"role": "user", "content": text}])
        messages = list(runner)
        return [(b.input["command"], b.input["path"]) for m in messages for b in m.content if b.type == "tool_use"], \
            messages[-1]

    made, last = run("Remember that I like coffee")
    assert made == [("view", "/memories"), ("create", "/memories/user.md")]
    assert last.stop_reason == "end_turn" and "saved" in text_of(last)
    made, last = run("What do I like to drink?")
    assert made == [("view", "/memories"), ("view", "/memories/user.md")]
    assert "coffee" in text_of(last)


def test_the_memory_tool_is_left_alone_when_nothing_calls_for_it(client):
    response = ask(client, "What is 6 * 7?", [{"type": "memory_20250818", "name": "memory"}])
    assert uses(response) == [] and text_of(response) == "6 * 7 = 42"


# --- properties over generated tool sets and prompts ---


ACTION_VERBS = ["cancel", "delete", "send", "refund", "approve", "merge", "update", "create", "post"]
READ_VERBS = ["get", "list", "find", "lookup", "check"]
NOUNS = ["order", "customer", "ticket", "invoice", "booking", "message", "account", "payment"]
PROPS = {
    "id": {"type": "string", "description": "The identifier."},
    "email": {"type": "string", "format": "email"},
    "amount": {"type": "number", "minimum": 0},
    "count": {"type": "integer", "minimum": 1, "maximum": 10},
    "notify": {"type": "boolean"},
    "reason": {"type": "string", "maxLength": 40},
    "status": {"type": "string", "enum": ["open", "closed", "pending"]},
    "phone": {"type": "string", "pattern": "^\\+?[0-9 ]{7,20}$"},
}
QUESTIONS = ["What is the status of {noun} {id}?", "Show me {noun} {id}", "Tell me about {noun} {id}, please",
             "Is {noun} {id} still open?", "Look at {noun} {id} and {noun} {id2}"]
SAME_ACTION = {"send": {"send", "post"}, "post": {"post", "send"}}
"""Asked to post a message, a model with only send_message sends it (and the other way round)."""
ORDERS_ = ["Please {verb} {noun} {id}", "{Verb} {noun} {id} now", "I want you to {verb} {noun} {id}"]


@st.composite
def tool_sets(draw):
    nouns = draw(st.lists(st.sampled_from(NOUNS), min_size=1, max_size=3, unique=True))
    specs = []
    for noun in nouns:
        verbs = draw(st.lists(st.sampled_from(READ_VERBS + ACTION_VERBS), min_size=1, max_size=3, unique=True))
        for verb in verbs:
            props = draw(st.lists(st.sampled_from(sorted(PROPS)), min_size=1, max_size=4, unique=True))
            properties = {f"{noun}_{p}" if p == "id" else p: PROPS[p] for p in props}
            required = draw(st.lists(st.sampled_from(sorted(properties)), max_size=len(properties), unique=True))
            specs.append(tool(f"{verb}_{noun}", f"{verb.capitalize()} a {noun}.", properties, required))
    return specs


@st.composite
def prompts(draw, specs):
    noun = draw(st.sampled_from(sorted({s["name"].split("_", 1)[1] for s in specs})))
    ids = {"id": draw(st.sampled_from(["A-1", "X-42", "O7", "ORD-123"])), "id2": "Z-9"}
    if draw(st.booleans()):
        return draw(st.sampled_from(QUESTIONS)).format(noun=noun, **ids), None
    verb = draw(st.sampled_from(ACTION_VERBS))
    return draw(st.sampled_from(ORDERS_)).format(noun=noun, verb=verb, Verb=verb.capitalize(), **ids), verb


def answer_for(name, tool_input):
    """Results that vary with the call: some JSON, some text, every fifth an error."""
    digest = sum(map(ord, name + json.dumps(tool_input, sort_keys=True)))
    if digest % 5 == 0:
        return "503: try again later", True
    return (json.dumps({"id": "R-1", "status": "open", "customer_id": "C-3"}) if digest % 2 else "done"), False


PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_no_unrequested_action_no_repeat_and_a_bounded_end(client, data):
    specs = data.draw(tool_sets())
    prompt, verb = data.draw(prompts(specs))
    final, made = drive(client, prompt, specs, answer_for, cap=12)
    assert final.stop_reason == "end_turn"
    for name, _ in made:
        action = name.split("_", 1)[0]
        assert action in READ_VERBS or action in SAME_ACTION.get(verb, {verb}), f"{name} called for {prompt!r}"
    keys = [name + json.dumps(i, sort_keys=True) for name, i in made]
    assert len(keys) == len(set(keys)), f"a call repeated: {made}"
    by_name = {s["name"]: s for s in specs}
    assert all(validates(by_name[name], i) for name, i in made)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_a_client_that_resends_only_the_last_exchange_still_ends(client, data):
    specs = data.draw(tool_sets())
    prompt, _ = data.draw(prompts(specs))
    response = client.messages.create(model=MODEL, max_tokens=1000, tools=specs,
                                      messages=[{"role": "user", "content": prompt}])
    for _ in range(8):
        if response.stop_reason != "tool_use":
            return
        assistant = response.content
        results = [{"type": "tool_result", "tool_use_id": b.id, "content": answer_for(b.name, b.input)[0]}
                   for b in assistant if b.type == "tool_use"]
        response = client.messages.create(model=MODEL, max_tokens=1000, tools=specs, messages=[
            {"role": "user", "content": prompt}, {"role": "assistant", "content": assistant},
            {"role": "user", "content": results}])
    raise AssertionError(f"no end after 8 requests for {prompt!r}")


@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_every_forced_input_validates(client, data):
    specs = data.draw(tool_sets())
    prompt, _ = data.draw(prompts(specs))
    spec = data.draw(st.sampled_from(specs))
    response = ask(client, prompt, specs, tool_choice={"type": "tool", "name": spec["name"]})
    called = uses(response)  # parallel calls of the forced tool are allowed ("Look at order A-1 and order Z-9")
    assert called and all(name == spec["name"] and validates(spec, tool_input) for name, tool_input in called)
    one = ask(client, prompt, specs, tool_choice={"type": "tool", "name": spec["name"],
                                                  "disable_parallel_tool_use": True})
    [(name, tool_input)] = uses(one)  # the docs: with disable_parallel_tool_use, exactly one tool call
    assert name == spec["name"] and validates(spec, tool_input)


def test_the_same_call_is_not_made_again_later_in_the_conversation(client):
    first = ask(client, "What is the status of order O2?", COOKBOOK)
    messages = [{"role": "user", "content": "What is the status of order O2?"},
                {"role": "assistant", "content": first.content},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first.content[-1].id,
                                              "content": str(ORDERS["O2"])}]},
                {"role": "assistant", "content": "The status of order O2 is Processing."},
                {"role": "user", "content": "Sorry, what is the status of order O2 again?"}]
    again = client.messages.create(model=MODEL, max_tokens=1000, tools=COOKBOOK, messages=messages)
    assert uses(again) == [] and text_of(again).startswith("The status of order O2 is Processing.")
    failed = messages[:2] + [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": first.content[-1].id,
                                                           "content": "503: try later", "is_error": True}]}] + messages[3:]
    retried = client.messages.create(model=MODEL, max_tokens=1000, tools=COOKBOOK, messages=failed)
    assert uses(retried) == [("get_order_details", {"order_id": "O2"})]


def test_an_image_with_an_image_tool_whose_words_the_request_does_not_use(client):
    reader = tool("read_fields", "Read the fields of a scanned image.", {"total": {"type": "number"}})
    response = ask(client, [PNG, {"type": "text", "text": "What does this say?"}], [reader])
    assert uses(response) == [("read_fields", {"total": 0})] and "cannot read images" in text_of(response)


def test_an_extraction_asks_for_a_tool_that_saves_what_is_extracted(client):
    saver = tool("save_receipt", "Save the data of a receipt.", {"total": {"type": "number"}})
    assert uses(ask(client, [PNG, {"type": "text", "text": "Extract the total from this receipt."}], [saver])) == [
        ("save_receipt", {"total": 0})]
    assert uses(ask(client, [PNG, {"type": "text", "text": "Is this receipt from May?"}], [saver])) == []


def test_forced_any_after_results_gives_the_answer_through_a_finishing_tool(client):
    final_answer = tool("final_answer", "Give the final answer to the user.", {"answer": {"type": "string"}})
    messages = [{"role": "user", "content": "What is the status of order O2?"}]
    made = []
    for _ in range(6):
        response = client.messages.create(model=MODEL, max_tokens=1000, tools=COOKBOOK + [final_answer],
                                          messages=messages, tool_choice={"type": "any"})
        [block] = [b for b in response.content if b.type == "tool_use"]
        made.append((block.name, block.input))
        if block.name == "final_answer":
            break
        messages += [{"role": "assistant", "content": response.content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": block.id,
                                                   "content": cookbook_result(block.name, block.input)}]}]
    assert made == [("get_order_details", {"order_id": "O2"}),
                    ("final_answer", {"answer": "The status of order O2 is Processing."})]


@pytest.mark.parametrize("name, description, asks, reads", [
    ("send_email", "Send an e-mail.", "E-mail ann@example.com the report", "Is ann@example.com a customer?"),
    ("lookup_email", "Find a customer by e-mail.", "Is ann@example.com a customer?", None),
    ("set_reminder", "Set a reminder.", "Remind me to call Ann at 17:00", "What reminders do I have?"),
    ("write_file", "Write a file.", "Create a file notes.txt saying 'hi'", "What is in notes.txt?"),
    ("turn_on_lights", "Turn the lights on.", "Turn on the lights in the kitchen", "Are the lights in the kitchen on?"),
    ("delete_booking", "Delete a booking.", "Remove booking BK-1", "Show booking BK-1"),
])
def test_which_tools_are_actions_and_which_words_ask_for_them(name, description, asks, reads):
    from course_sandbox.simulated_model.side_effects import asked
    from course_sandbox.simulated_model.tool_roles import ToolSpec

    spec = ToolSpec(name, description, {})
    assert asked(spec, asks)
    assert reads is None or not asked(spec, reads)


@pytest.mark.parametrize("name, text, expected", [
    ("nonstop", "direct flights only", True), ("direct_only", "nonstop, please", True),
    ("include_history", "with the history", True), ("include_history", "no history, thanks", False),
    ("send_welcome_email", "but no welcome e-mail", False), ("verbose", "a detailed report", True),
    ("dry_run", "hello", None),
])
def test_booleans_from_phrasing(name, text, expected):
    from course_sandbox.simulated_model.scalar_values import MISSING
    from course_sandbox.simulated_model.spoken_values import flag

    assert flag(name, text) == expected if expected is not None else flag(name, text) is MISSING


SUBSCRIPTION = [tool("get_subscription", "Details of a streaming subscription: plan, price and hours watched.",
                     {"subscription_id": {"type": "string"}}),
                tool("cancel_subscription", "Cancel a streaming subscription.", {"subscription_id": {"type": "string"}}),
                tool("pause_subscription", "Pause a streaming subscription for some weeks.",
                     {"subscription_id": {"type": "string"}, "weeks": {"type": "integer"}})]


@pytest.mark.parametrize("question", [
    "Should I cancel my streaming subscription sub-77? I watched two hours this month.",
    "Is it worth cancelling subscription sub-77? Just tell me what you think, don't change anything.",
    "Стоит ли отменить подписку sub-77? Я смотрел всего два часа за месяц.",
    "Посмотри подписку sub-77 и просто посоветуй, отменять ли её. Ничего не меняй.",
    "Show me subscription sub-77; I'll decide later whether to cancel it.",
])
def test_advice_about_an_action_and_hands_off_asks_never_act(client, question):
    """Probe 57's gravest class: asked for advice about an action, or told to change nothing, the model may read but
    never cancels (a careful colleague acts only when asked)."""
    for tool_choice in ({"type": "auto"}, {"type": "any"}):
        response = ask(client, question, SUBSCRIPTION, tool_choice=tool_choice)
        assert all(name == "get_subscription" for name, _ in uses(response)), (tool_choice, uses(response))


@pytest.mark.parametrize("ask_for_it", ["Cancel my streaming subscription sub-77.",
                                        "Can you cancel subscription sub-77, please?",
                                        "Отмени подписку sub-77."])
def test_an_action_asked_for_is_still_done(client, ask_for_it):
    assert [name for name, _ in uses(ask(client, ask_for_it, SUBSCRIPTION))] == ["cancel_subscription"]


BOOKINGS = [tool("get_booking", "Get a booking.", {"booking_id": {"type": "string"}}, ["booking_id"]),
            tool("cancel_booking", "Cancel a booking.", {"booking_id": {"type": "string"}}, ["booking_id"])]


@pytest.mark.parametrize("question", ["booking Z-9", "Look at booking A-1 and booking Z-9", "Show me booking A-1",
                                      "Booking A-1: what's its status?", "бронь Z-9", "Покажи бронь A-1 и бронь Z-9"])
def test_the_noun_a_tool_acts_on_is_not_its_verb(client, question):
    """The CI of stop 66: "booking" is what cancel_booking acts on, and its description ("Cancel a booking.") names
    no second action; a look at bookings reads them and cancels none."""
    for tool_choice in ({"type": "auto"}, {"type": "any"}):
        response = ask(client, question, BOOKINGS, tool_choice=tool_choice)
        assert uses(response) and all(name == "get_booking" for name, _ in uses(response)), (tool_choice,
                                                                                             uses(response))


@pytest.mark.parametrize("ask_for_it, expected", [("Cancel booking Z-9.", ["cancel_booking"]),
                                                  ("Please cancel booking A-1 and booking Z-9", ["cancel_booking"] * 2),
                                                  ("Отмени бронь Z-9", ["cancel_booking"]),
                                                  ("Book room 5 for Friday.", [])])
def test_a_booking_action_is_done_only_when_it_is_the_one_asked(client, ask_for_it, expected):
    """Cancelling is asked by "cancel"; "book" asks for a booking nobody here can make, not for cancel_booking."""
    assert [name for name, _ in uses(ask(client, ask_for_it, BOOKINGS))] == expected


@pytest.mark.parametrize("question, tool_name", [("Is order O1 cancelled?", "cancel_order"),
                                                 ("Is order A-1 still open?", "create_order"),
                                                 ("Was invoice INV-7 sent?", "send_invoice"),
                                                 ("Are tickets T-1 and T-2 closed yet?", "close_ticket")])
def test_a_question_about_a_state_is_not_an_ask_for_the_action(client, question, tool_name):
    """Asked whether order O1 is cancelled, the model with only cancel_order says it cannot look; it never cancels."""
    spec = tool(tool_name, f"{tool_name.split('_')[0].capitalize()} an item.", {"id": {"type": "string"}}, ["id"])
    assert uses(ask(client, question, [spec])) == []


def test_a_polite_ask_starting_with_are_you_is_still_an_ask(client):
    spec = tool("cancel_order", "Cancel an order.", {"order_id": {"type": "string"}}, ["order_id"])
    assert uses(ask(client, "Are you able to cancel order O1 for me?", [spec])) == [("cancel_order", {"order_id": "O1"})]
