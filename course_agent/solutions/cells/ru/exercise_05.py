# Упражнение 5 (блокнот 5): run_tool_safely, в которой read_file всегда завершается ошибкой.
def read_missing_file(path: str, ref: str = "main") -> str:
    raise FileNotFoundError(f"{path} нет в {ref}")


def run_tool_missing_file(name: str, tool_input: dict) -> dict:
    """run_tool_safely, только read_file всегда выбрасывает FileNotFoundError."""
    functions = {**FUNCTIONS, "read_file": read_missing_file}  # те же инструменты, read_file заменён
    try:
        return {"content": functions[name](**tool_input)}
    except gitlab.GitlabError as error:
        return {"content": f"ошибка GitLab {error.response_code}: {error.error_message}", "is_error": True}
    except Exception as error:
        return {"content": f"{name} завершился ошибкой: {type(error).__name__}: {error}", "is_error": True}


print(review_with(482, run_tool_missing_file))
