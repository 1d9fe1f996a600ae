# Exercise 5 (notebook 5): run_tool_safely, except that read_file always fails.
def read_missing_file(path: str, ref: str = "main") -> str:
    raise FileNotFoundError(f"{path} does not exist at {ref}")


def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, except that read_file always raises FileNotFoundError."""
    functions = {**FUNCTIONS, "read_file": read_missing_file}  # the same tools, read_file replaced
    try:
        return {"content": functions[name](**tool_input)}
    except gitlab.GitlabError as error:
        return {"content": f"GitLab error {error.response_code}: {error.error_message}", "is_error": True}
    except Exception as error:
        return {"content": f"{name} failed: {type(error).__name__}: {error}", "is_error": True}


print(review_with(482, run_tool_missing_file))
