"""Helpers shared by the tests: the model id used against the sandbox, and a plain HTTP client."""

import json
import urllib.error
import urllib.request

MODEL = "claude-opus-5"
ANTHROPIC_VERSION = "2023-06-01"
"""The API version header every client sends (the sandbox, like the API, refuses a request without it)."""


def raw_post(sandbox, path: str, data: bytes, headers: dict | None = None, method: str = "POST"):
    """A request from a plain HTTP client (no SDK): (status, parsed JSON body)."""
    request = urllib.request.Request(
        sandbox.url + path, data=data, method=method,
        headers={"x-api-key": sandbox.api_key, "anthropic-version": ANTHROPIC_VERSION,
                 "content-type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
