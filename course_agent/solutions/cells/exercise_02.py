# Exercise 2 (notebook 2): a second tool, read_file, and steps 1 to 4 repeated by hand, round after round, until
# the model is done (notebook 3 rolls these rounds into a loop, with a cap).
def read_file(path: str, ref: str = "main") -> str:
    """A whole file of the repository, at a branch or commit."""
    return project.files.raw(path, ref=ref).decode("utf-8")  # raw gives bytes; a tool result is text


# read_file's description, as the exercise cell gives it, and TOOLS as a new list: get_diff's and read_file's
READ_FILE_TOOL = {
    "name": "read_file",
    "description": "Read a whole file of the repository at a branch or commit (default main), e.g. the code that "
                   "calls a function the merge request changes.",
    "input_schema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path from the repository root, e.g. shop/cart.py."},
            "ref": {"type": "string", "description": "Branch or commit, e.g. the merge request's source branch."},
        },
        "required": ["path"],
    },
}
TOOLS = [TOOLS[0], READ_FILE_TOOL]
functions = {"get_diff": get_diff, "read_file": read_file}  # the tool's name picks the function

exercise_messages = [{"role": "user", "content": "Review merge request !482."}]

# round 1: step 1, then steps 2–3 for every tool_use of the response
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
exercise_messages.append({"role": "assistant", "content": response.content})  # the response, whole
print(1, response.stop_reason, [(block.name, block.input) for block in response.content if block.type == "tool_use"])
exercise_messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": block.id, "content": functions[block.name](**block.input)}
    for block in response.content if block.type == "tool_use"
]})

# round 2: step 1, then steps 2–3 for every tool_use of the response (the same lines again: now the model reads a file)
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
exercise_messages.append({"role": "assistant", "content": response.content})  # the response, whole
print(2, response.stop_reason, [(block.name, block.input) for block in response.content if block.type == "tool_use"])
exercise_messages.append({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": block.id, "content": functions[block.name](**block.input)}
    for block in response.content if block.type == "tool_use"
]})

# round 3: the model is done (end_turn), and its answer goes into the history too. (With the live API the model
# may want one more round first: then copy the lines above once more.)
response = client.messages.create(model=MODEL, max_tokens=4000, tools=TOOLS, messages=exercise_messages)
exercise_messages.append({"role": "assistant", "content": response.content})
print(3, response.stop_reason)
print("\n".join([block.text for block in response.content if block.type == "text"]))
