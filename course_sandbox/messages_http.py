"""The Anthropic API over HTTP: routes under /v1/ (messages, models, message batches), the
x-api-key and anthropic-version checks, request ids, and the API's JSON error envelope for
everything that goes wrong there."""

import functools
import hashlib
import itertools
import json

import anthropic
import httpx2
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.routing import Rule
from werkzeug.wrappers import Request, Response

from . import models, pagination, sse
from .errors import ApiError, invalid
from .messages_api import MessagesApi
from .request import asks_to_stream
from .web import Routes, credential, is_the, json_response

_ROUTES = Routes([
    Rule("/v1/messages", endpoint="messages", methods=["POST"]),
    Rule("/v1/messages/count_tokens", endpoint="count_tokens", methods=["POST"]),
    Rule("/v1/models", endpoint="models", methods=["GET"]),
    Rule("/v1/models/<path:model_id>", endpoint="model", methods=["GET"]),
    Rule("/v1/messages/batches", endpoint="batches", methods=["GET", "POST"]),
    Rule("/v1/messages/batches/<batch_id>", endpoint="batch", methods=["GET", "DELETE"]),
    Rule("/v1/messages/batches/<batch_id>/cancel", endpoint="batch_cancel", methods=["POST"]),
    Rule("/v1/messages/batches/<batch_id>/results", endpoint="batch_results", methods=["GET"]),
])
_FAULT_MESSAGES = {
    429: "Number of requests has exceeded your rate limit. Please retry after the time in the retry-after header.",
    500: "Internal server error",
    529: "Overloaded",
}
_NOT_SIMULATED = ("agents", "sessions", "environments", "files", "skills", "vaults", "memory_stores", "user_profiles",
                  "tunnels", "deployments", "deployment_runs", "dreams", "compliance", "organizations")
"""Areas of the real API (the installed SDK's resources) the sandbox does not serve: a call there gets a 404 that
says so, not a bare "Not Found" that reads like a typo in the learner's code."""
NOT_SIMULATED = ("Not Found: the course sandbox does not simulate {path} (it serves the Messages API, token counting, "
                 "models and message batches); run this against the real API with ANTHROPIC_API_KEY set")
VERSION_REQUIRED = "anthropic-version: header is required"
"""The real API's wording, seen in its answers (as is the one for a version it does not know)."""
KNOWN_API_VERSIONS = {"2023-01-01", "2023-06-01"}


@functools.cache
def api_versions() -> frozenset[str]:
    """The versions the API knows, and the one the installed SDK sends (read from a client's public
    `default_headers`: no private module of the SDK is read). The client never sends anything, so its
    HTTP client has a transport that answers nothing and reads no proxy settings: a default one loads
    the system's CA certificates, 40-90 ms of the first request a process serves."""
    with httpx2.Client(transport=httpx2.MockTransport(lambda request: httpx2.Response(500)), trust_env=False) as http:
        sent = anthropic.Anthropic(api_key="-", http_client=http).default_headers.get("anthropic-version")
    return frozenset(KNOWN_API_VERSIONS | ({sent} if isinstance(sent, str) else set()))
"""The API's versions (docs: api/versioning) and the one the installed SDK sends."""


def read_json(request: Request) -> object:
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw)
        if b"\\ud" in raw.lower():  # only an escaped surrogate can hide a lone one (\\ud800 is not text)
            json.dumps(body, ensure_ascii=False).encode("utf-8")
        return body
    except (ValueError, UnicodeEncodeError) as exc:
        raise invalid(f"Request body is not valid JSON: {exc}") from None
    except RecursionError:
        raise invalid("Request body is not valid JSON: nested too deeply") from None


class MessagesHttp:
    prefix = "/v1/"

    def __init__(self, api_key: str, api: MessagesApi) -> None:
        self.api_key = api_key
        self.api = api
        self._request_numbers = itertools.count(1)

    def new_request_id(self) -> str:
        """A request id unique in this sandbox and the same on every run: the nth request gets the same id."""
        return "req_01" + hashlib.sha256(f"request/{next(self._request_numbers)}".encode()).hexdigest()[:22]

    def __call__(self, request: Request) -> Response:
        request_id = self.new_request_id()
        try:
            found = _ROUTES.match(request.path, request.method)
            if found == 405:
                raise ApiError(405, f"Method Not Allowed: {request.method} {request.path}")
            if found == 404:
                area = request.path.removeprefix("/v1/").split("/", 1)[0]
                raise ApiError(404, NOT_SIMULATED.format(path=f"/v1/{area}") if area in _NOT_SIMULATED else "Not Found")
            self.authenticate(request)
            version = request.headers.get("anthropic-version")
            if not version:
                raise invalid(VERSION_REQUIRED)
            if version not in api_versions():
                raise invalid(f'anthropic-version: "{version}" is not a valid version')
            endpoint, args = found
            response = self._dispatch(endpoint, args, request)
        except ApiError as error:
            return self.error(error, request, request_id)
        except RequestEntityTooLarge:
            return self.error(ApiError(413, f"Request exceeds the maximum allowed number of bytes "
                                            f"({request.max_content_length})."), request, request_id)
        except HTTPException as exc:
            return self.error(ApiError(exc.code or 400, exc.description or exc.name), request, request_id)
        response.headers["request-id"] = request_id
        return response

    def _dispatch(self, endpoint: str, args: dict, request: Request) -> Response:
        batches = self.api.batches
        betas = frozenset(beta.strip() for value in request.headers.getlist("anthropic-beta")
                          for beta in value.split(",") if beta.strip())
        if endpoint == "models":
            lifecycles = _listed(request, "lifecycle")
            return json_response(pagination.page(models.catalogue(set(lifecycles) or None), request.args))
        if endpoint == "model":
            if args["model_id"] not in models.KNOWN_MODELS:
                raise ApiError(404, f"model: {args['model_id']}")
            return json_response(models.model_info(args["model_id"]))
        if endpoint == "batches":
            if request.method == "GET":
                return json_response(batches.list(request.args, request.host_url))
            return json_response(batches.create(read_json(request), request.host_url, betas))
        if endpoint == "batch":
            if request.method == "DELETE":
                return json_response(batches.delete(args["batch_id"]))
            return json_response(batches.retrieve(args["batch_id"], request.host_url))
        if endpoint == "batch_cancel":
            return json_response(batches.cancel(args["batch_id"], request.host_url))
        if endpoint == "batch_results":
            return Response(batches.results(args["batch_id"]), 200, mimetype="application/x-jsonl")

        body = read_json(request)
        if endpoint == "count_tokens":
            return json_response(self.api.count_tokens(body, betas))
        message, partial_json = self.api.create(body, betas)
        if asks_to_stream(body):  # `create` accepted the body: `stream` is a boolean
            return Response(sse.events(message, partial_json), 200, {"cache-control": "no-cache"},
                            mimetype="text/event-stream")
        return json_response(message, 200)

    def error(self, error: ApiError, request: Request, request_id: str | None = None) -> Response:
        request_id = request_id or self.new_request_id()
        return json_response(error.body(request_id), error.status, {"request-id": request_id, **error.headers})

    def fault(self, status: int, headers: dict[str, str], request: Request) -> Response:
        return self.error(ApiError(status, _FAULT_MESSAGES.get(status, "Injected fault"), headers=headers), request)

    def authenticate(self, request: Request) -> None:
        """The sandbox's key in `x-api-key` (or `Authorization: Bearer`), as the API reads it; the
        sandbox's control routes take it too. A wrong key is never echoed."""
        key = credential(request, "x-api-key")
        if key is None:
            raise ApiError(401, "x-api-key header is required")
        if not is_the(self.api_key, key):
            raise ApiError(401, "invalid x-api-key")


def _listed(request: Request, name: str) -> list[str]:
    """A list query parameter as the SDK sends it (`name[]=a&name[]=b`), or repeated, or comma-separated."""
    values = request.args.getlist(f"{name}[]") + request.args.getlist(name)
    return [part for value in values for part in value.split(",") if part]
