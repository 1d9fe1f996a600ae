"""GitLab's error answers: a status and the JSON body GitLab sends with it."""


class GitLabError(Exception):
    """An answer GitLab gives with an error status and a JSON body."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


def not_found(what: str = "Not found") -> GitLabError:
    """GitLab's `not_found!(what)`: `{"message": "404 <what> Not Found"}` (or `404 Not found`)."""
    return GitLabError(404, {"message": f"404 {what}"})


def bad_request(reason: str | None = None) -> GitLabError:
    """GitLab's `bad_request!(reason)`: `{"message": "400 Bad request - <reason>"}`."""
    return GitLabError(400, {"message": "400 Bad request" + (f" - {reason}" if reason else "")})


def invalid(param: str, why: str = "is invalid") -> GitLabError:
    """Grape's parameter validation: `{"error": "<param> is invalid"}` (or is missing...)."""
    return GitLabError(400, {"error": f"{param} {why}"})
