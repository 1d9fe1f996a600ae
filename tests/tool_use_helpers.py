"""Helpers shared by the tests of the simulated model's tool use: a tool definition, one request,
the calls and the text of a response, and a jsonschema check of a call's input."""

import jsonschema

import review_material

from sandbox_http import MODEL


def tool(name: str, description: str, props: dict, required: list[str] | None = None) -> dict:
    """A custom tool; every property required unless `required` says otherwise."""
    return {"name": name, "description": description,
            "input_schema": {"type": "object", "properties": props,
                             "required": list(props) if required is None else required}}


def ask(client, content, tools, **kw):
    """One request with one user message."""
    return client.messages.create(model=MODEL, max_tokens=2000, tools=tools,
                                  messages=[{"role": "user", "content": content}], **kw)


def uses(response) -> list[tuple[str, dict]]:
    return [(b.name, b.input) for b in response.content if b.type == "tool_use"]


def text_of(response) -> str:
    return "\n".join(b.text for b in response.content if b.type == "text")


def validates(spec: dict, tool_input: dict) -> bool:
    """The input passes the tool's input_schema, formats included (raises otherwise)."""
    jsonschema.validate(tool_input, spec["input_schema"], format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    return True


def checked(responses, tools) -> list[tuple[str, dict]]:
    """Every call of a conversation, each validated against its tool's schema."""
    calls = [c for r in responses for c in uses(r)]
    for name, tool_input in calls:
        assert validates(next(t for t in tools if t["name"] == name), tool_input)
    return calls


def drive(client, content, tools, answer, cap: int = 8, **kw):
    """Run the loop the course teaches (review_material.drive), with tool results from
    `answer(name, input) -> (content, is_error)`: (the final response, every response)."""
    final, _, responses = review_material.drive(client, content, tools, answer, max_iterations=cap, **kw)
    return final, responses


def forced(client, content: str, spec: dict) -> tuple[dict, str]:
    """One request forced to `spec`: the call's input (checked against its schema) and the response's text."""
    response = ask(client, content, [spec], tool_choice={"type": "tool", "name": spec["name"]})
    (name, tool_input), = uses(response)
    assert name == spec["name"] and validates(spec, tool_input)
    return tool_input, text_of(response)
