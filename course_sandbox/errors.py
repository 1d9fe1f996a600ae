"""The Messages API's error envelope, raised anywhere in the sandbox and rendered in one place."""

from dataclasses import dataclass, field

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class ApiError(Exception):
    """An error the sandbox answers with, in the API's own shape."""

    status: int
    message: str
    details: dict | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def error_type(self) -> str:
        return ERROR_TYPES.get(self.status, "api_error")

    def body(self, request_id: str) -> dict:
        error: dict = {"type": self.error_type, "message": self.message}
        if self.details is not None:
            error["details"] = self.details
        return {"type": "error", "error": error, "request_id": request_id}


def invalid(message: str) -> ApiError:
    """A 400 invalid_request_error."""
    return ApiError(400, message)
