# Exercise 5 (notebook 5): run_tool_safely, except that read_file always fails.
def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, except that read_file always raises FileNotFoundError."""
    try:
        if name == "read_file":  # for this exercise: every file is missing
            raise FileNotFoundError(f"{tool_input['path']} does not exist")
        return {"content": run_tool(name, tool_input)}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


print(review_with(482, run_tool_missing_file))
