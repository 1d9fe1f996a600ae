# Упражнение 5 (блокнот 5): run_tool_safely, в которой read_file всегда завершается ошибкой.
def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, только read_file всегда выбрасывает FileNotFoundError."""
    try:
        if name == "read_file":  # в этом упражнении нет ни одного файла
            raise FileNotFoundError(f"файла {tool_input['path']} нет")
        return {"content": run_tool(name, tool_input)}
    except Exception as error:
        return {"content": f"{name} завершился ошибкой: {type(error).__name__}: {error}", "is_error": True}


print(review_with(482, run_tool_missing_file))
