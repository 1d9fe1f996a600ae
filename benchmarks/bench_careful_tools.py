"""Probes of the simulated model's tool use (issue #25): the cookbook customer-service agent run
unchanged (requests per conversation, unrequested side-effect calls) and one probe per case of
the issue (forced inputs with the prompt's values, auto tool use, answers, server tools).

Prints one line per probe and the totals; it reports, it does not assert.

    PYTHONPATH=. python benchmarks/bench_careful_tools.py
"""

import json
import re
from collections.abc import Callable
from typing import Any

import pydantic

from course_sandbox import Sandbox

MODEL = "claude-opus-5"
CAP = 60


def tool(name: str, description: str, props: dict, required: list[str] | None = None) -> dict:
    return {"name": name, "description": description,
            "input_schema": {"type": "object", "properties": props, "required": required or list(props)}}


COOKBOOK = [
    tool("get_customer_info", "Retrieves customer information based on their customer ID. Returns the customer's "
         "name, email, and phone number.", {"customer_id": {"type": "string", "description": "The unique identifier "
                                                                                         "for the customer."}}),
    tool("get_order_details", "Retrieves the details of a specific order based on the order ID. Returns the order "
         "ID, product name, quantity, price, and order status.",
         {"order_id": {"type": "string", "description": "The unique identifier for the order."}}),
    tool("cancel_order", "Cancels an order based on the provided order ID. Returns a confirmation message if the "
         "cancellation is successful.", {"order_id": {"type": "string", "description": "The unique identifier for "
                                                                                        "the order to be cancelled."}}),
]


def cookbook_result(name: str, tool_input: dict) -> str:
    customers = {"C1": {"name": "John Doe", "email": "john@example.com", "phone": "123-456-7890"},
                 "C2": {"name": "Jane Smith", "email": "jane@example.com", "phone": "987-654-3210"}}
    orders = {"O1": {"id": "O1", "product": "Widget A", "quantity": 2, "price": 19.99, "status": "Shipped"},
              "O2": {"id": "O2", "product": "Gadget B", "quantity": 1, "price": 49.99, "status": "Processing"}}
    if name == "get_customer_info":
        return str(customers.get(tool_input.get("customer_id"), "Customer not found"))
    if name == "get_order_details":
        return str(orders.get(tool_input.get("order_id"), "Order not found"))
    return "Order successfully cancelled" if tool_input.get("order_id") in orders else "Order not found"


def cookbook_chat(client: Any, user_message: str) -> tuple[int, list[str], str]:
    """The cookbook's loop, unchanged in shape: it resends only the last exchange each time."""
    calls: list[str] = []
    response = client.messages.create(model=MODEL, max_tokens=4096, tools=COOKBOOK,
                                      messages=[{"role": "user", "content": user_message}])
    requests = 1
    while response.stop_reason == "tool_use" and requests < CAP:
        tool_use = next(block for block in response.content if block.type == "tool_use")
        calls.append(f"{tool_use.name}({json.dumps(tool_use.input)})")
        result = cookbook_result(tool_use.name, tool_use.input)
        response = client.messages.create(model=MODEL, max_tokens=4096, tools=COOKBOOK, messages=[
            {"role": "user", "content": user_message},
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": result}]}])
        requests += 1
    text = next((b.text for b in response.content if b.type == "text"), "")
    return requests, calls, text


def forced(client: Any, text: str, spec: dict) -> dict:
    response = client.messages.create(model=MODEL, max_tokens=1000, tools=[spec],
                                      tool_choice={"type": "tool", "name": spec["name"]},
                                      messages=[{"role": "user", "content": text}])
    return next(b.input for b in response.content if b.type == "tool_use")


def auto(client: Any, content: Any, tools: list[dict], **kw: Any) -> Any:
    return client.messages.create(model=MODEL, max_tokens=1000, tools=tools,
                                  messages=[{"role": "user", "content": content}], **kw)


FORCED: list[tuple[str, dict, Callable[[dict], bool]]] = [
    ("Show me article art-991", tool("get_article", "Fetch an article.", {"article_id": {"type": "string",
                                                                                    "pattern": "^art-\\d+$"}}),
     lambda i: i["article_id"] == "art-991"),
    ("Call me back on +44 20 7946 0958", tool("request_callback", "Request a phone call back.",
                                              {"phone_number": {"type": "string"}}),
     lambda i: i["phone_number"] == "+44 20 7946 0958"),
    ("Find flights from LHR to JFK on 2025-03-14, nonstop only", tool(
        "search_flights", "Search flights.", {"origin": {"type": "string"}, "destination": {"type": "string"},
                                              "date": {"type": "string", "format": "date"},
                                              "nonstop": {"type": ["boolean", "null"]}}),
     lambda i: i["nonstop"] is True and i["origin"] == "LHR" and i["destination"] == "JFK"
     and i["date"] == "2025-03-14"),
    ("Deliver it to 10 Downing Street, London", tool("set_delivery_address", "Set the delivery address.",
                                                     {"address": {"type": "string"}}),
     lambda i: i["address"].startswith("10 Downing Street")),
    ("List the files in /tmp/demo", tool("list_files", "List the files in a directory.",
                                         {"directory": {"type": "string"}}),
     lambda i: i["directory"] == "/tmp/demo"),
    ("Refund $25.50 for order ORD-7", tool("refund", "Refund an order.", {"order_id": {"type": "string"},
                                                                          "amount": {"type": "number"}}),
     lambda i: i["order_id"] == "ORD-7" and i["amount"] == 25.5),
    ("Do a dry run of the migration", tool("migrate", "Run the database migration.",
                                           {"dry_run": {"type": "boolean"}}), lambda i: i["dry_run"] is True),
    ("Show user u-17 and include the history", tool(
        "get_user", "Get a user.", {"user_id": {"type": "string"}, "include_history": {"type": "boolean"}}),
     lambda i: i["user_id"] == "u-17" and i["include_history"] is True),
    ("Create the account for bob@example.com and send a welcome e-mail", tool(
        "create_account", "Create an account.",
        {"email": {"type": "string"}, "send_welcome_email": {"type": "boolean"}}),
     lambda i: i["email"] == "bob@example.com" and i["send_welcome_email"] is True),
]


class Order(pydantic.BaseModel):
    product_name: str
    price: float
    quantity: int


def _text(response: Any) -> str:
    return " ".join(b.text for b in response.content if b.type == "text")


def main() -> None:
    passed = total = 0

    def report(name: str, ok: bool, detail: object) -> None:
        nonlocal passed, total
        total += 1
        passed += ok
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")

    with Sandbox() as sb:
        client = sb.client(max_retries=0)
        for question in ["What is the status of order O2?", "Can you tell me the email address for customer C1?",
                         "I want to cancel order O1.", "What's the phone number of customer C2?"]:
            requests, calls, text = cookbook_chat(client, question)
            unasked = [c for c in calls if c.startswith("cancel_order") and "cancel" not in question]
            report(f"cookbook {question!r}", requests < CAP and not unasked,
                   f"{requests} requests, calls {calls[:4]}{'…' if len(calls) > 4 else ''}, answer {text[:120]!r}")
        for text, spec, check in FORCED:
            value = forced(client, text, spec)
            try:
                ok = bool(check(value))
            except (KeyError, TypeError, AttributeError):
                ok = False
            report(f"forced {spec['name']}", ok, value)
        parsed = client.messages.parse(model=MODEL, max_tokens=500, output_format=Order, messages=[{
            "role": "user", "content": "Extract the product name, price, and quantity from this customer message:\n"
                                       "\"Hi, I’d like to order 2 packs of Green Tea for 5.50 dollars each.\""}])
        order = parsed.parsed_output
        report("structured Order", order == Order(product_name="Green Tea", price=5.5, quantity=2), order)
        weather = auto(client, "What's the weather in New York?",
                       [{"name": "web_search", "type": "web_search_20250305"}])
        report("web search for the weather", any(b.type == "server_tool_use" for b in weather.content),
               [b.type for b in weather.content])
        label = tool("print_nutrition_info", "Extracts nutrition information from an image of a nutrition label.",
                     {"calories": {"type": "integer"}, "total_fat": {"type": "number"}, "protein": {"type": "number"}})
        image = {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                             "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNg"
                                                     "YGBgAAAABQABpfZFQAAAAABJRU5ErkJggg=="}}
        response = auto(client, [image, {"type": "text", "text": "Please extract the nutrition values from this "
                                                                 "nutrition label."}], [label])
        report("image extraction calls the tool, says it cannot see",
               any(b.type == "tool_use" for b in response.content) and "cannot read images" in _text(response),
               [(b.type, getattr(b, "text", "")[:80]) for b in response.content])
        pair = [tool("get_weather", "Get the weather in a city.", {"city": {"type": "string"},
                                                                  "units": {"type": "string",
                                                                            "enum": ["celsius", "fahrenheit"]}},
                     ["city"]),
                tool("get_local_time", "Get the local time in a time zone.", {"timezone": {"type": "string"}})]
        response = auto(client, "What's the weather in Paris in celsius, and the local time in Tokyo?", pair)
        got = [(b.name, b.input) for b in response.content if b.type == "tool_use"]
        report("compound question", got == [("get_weather", {"city": "Paris", "units": "celsius"}),
                                            ("get_local_time", {"timezone": "Asia/Tokyo"})], got)
        deferred = {**pair[0], "defer_loading": True}
        response = client.beta.messages.create(
            model=MODEL, max_tokens=1000, messages=[{"role": "user", "content": "What is the weather in SF?"}],
            tools=[deferred, {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}],
            betas=["tool-search-tool-2025-10-19"])
        kinds = [b.type for b in response.content]
        report("tool search before a deferred tool", "server_tool_use" in kinds
               and kinds.index("server_tool_use") < (kinds.index("tool_use") if "tool_use" in kinds else 99), kinds)
        response = client.beta.messages.create(
            model=MODEL, max_tokens=1000, system="Store facts about the user and their preferences in memory.",
            messages=[{"role": "user", "content": "I'm Ada and I prefer short answers."}],
            tools=[{"type": "memory_20250818", "name": "memory"}], betas=["context-management-2025-06-27"])
        report("memory tool", any(b.type == "tool_use" and b.name == "memory" for b in response.content),
               [(b.type, getattr(b, "input", None)) for b in response.content])
        answer_tools = [tool("get_order_details", "Get an order's details.", {"order_id": {"type": "string"}})]
        response = auto(client, "What is the status of order O2?", answer_tools)
        use = next(b for b in response.content if b.type == "tool_use")
        final = client.messages.create(model=MODEL, max_tokens=1000, tools=answer_tools, messages=[
            {"role": "user", "content": "What is the status of order O2?"},
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id,
                                          "content": json.dumps({"id": "O2", "status": "Processing"})}]}])
        text = final.content[0].text
        report("answer names the status", bool(re.search(r"status.{0,40}Processing", text.split("\n")[0])), text[:100])
    print(f"{passed}/{total} probes pass")


if __name__ == "__main__":
    main()
