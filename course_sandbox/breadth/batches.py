"""Message Batches (`/v1/messages/batches`): requests answered by the simulated model in the
background, by one worker thread per sandbox, started with the first batch and stopped with
the sandbox.

A batch is `in_progress` for `delay` seconds (so it can be seen, and canceled, before it is
processed), then its requests are answered one by one and it ends. This module reads a batch's
entries (`custom_id`, `params`); each `params` goes to the Messages API unread, and is validated
(then read, by `request.Request`) as /v1/messages does, when the request is processed: an invalid one
ends as `errored` with the API's error body, as the real service reports it, not as a 400 on
create. Canceling marks the requests not yet answered `canceled`.

Ids are deterministic (a counter per sandbox); the timestamps are the wall clock's.
"""

import hashlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from .. import pagination
from ..errors import ApiError, invalid
from ..request import asks_to_stream

CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
EXPIRES_AFTER = timedelta(hours=24)
MAX_REQUESTS = 100_000


def _now() -> datetime:
    return datetime.now(UTC)


def _rfc3339(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


@dataclass
class Batch:
    id: str
    requests: list[dict]
    created_at: datetime
    status: str = "in_progress"
    ended_at: datetime | None = None
    cancel_initiated_at: datetime | None = None
    results: dict[str, dict] = field(default_factory=dict)
    """custom_id -> result, filled when the batch ends."""
    betas: frozenset[str] = frozenset()
    """The `anthropic-beta` header of the create request: it applies to every request of the batch."""

    def view(self, base_url: str) -> dict:
        """The MessageBatch object the API returns."""
        counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if self.status == "ended":  # counts move only once the whole batch has ended
            for result in self.results.values():
                counts[result["type"]] += 1
        else:
            counts["processing"] = len(self.requests)
        return {
            "id": self.id,
            "type": "message_batch",
            "processing_status": self.status,
            "request_counts": counts,
            "created_at": _rfc3339(self.created_at),
            "expires_at": _rfc3339(self.created_at + EXPIRES_AFTER),
            "ended_at": _rfc3339(self.ended_at),
            "cancel_initiated_at": _rfc3339(self.cancel_initiated_at),
            "archived_at": None,
            "results_url": f"{base_url.rstrip('/')}/v1/messages/batches/{self.id}/results"
            if self.status == "ended" else None,
        }

    def results_jsonl(self) -> bytes:
        lines = [json.dumps({"custom_id": r["custom_id"], "result": self.results[r["custom_id"]]},
                            ensure_ascii=False) for r in self.requests]
        return ("\n".join(lines) + "\n").encode()


class MessageBatches:
    """The batches of one sandbox and the worker that answers them."""

    def __init__(self, answer: Callable[[dict, frozenset[str]], dict], delay: float = 0.05) -> None:
        self.answer = answer
        """Answers one request's params, under the batch's betas, with a message, or raises ApiError
        (MessagesApi.create)."""
        self.delay = delay
        """Seconds a new batch waits, in_progress, before it is processed."""
        self._batches: dict[str, Batch] = {}
        self._queue: list[str] = []
        self._counter = 0
        self._cond = threading.Condition()
        self._worker: threading.Thread | None = None
        self._stopping = False

    # requests from HTTP
    def create(self, body: object, base_url: str, betas: frozenset[str] = frozenset()) -> dict:
        requests = _validated_requests(body)
        with self._cond:
            self._counter += 1
            batch_id = "msgbatch_01" + hashlib.sha256(f"batch/{self._counter}".encode()).hexdigest()[:22]
            batch = Batch(batch_id, requests, _now(), betas=betas)
            self._batches[batch_id] = batch
            self._queue.append(batch_id)
            self._ensure_worker()
            self._cond.notify_all()
            return batch.view(base_url)

    def retrieve(self, batch_id: str, base_url: str) -> dict:
        with self._cond:
            return self._get(batch_id).view(base_url)

    def list(self, query, base_url: str) -> dict:
        with self._cond:
            newest_first = [b.view(base_url) for b in reversed(self._batches.values())]
        return pagination.page(newest_first, query)

    def cancel(self, batch_id: str, base_url: str) -> dict:
        with self._cond:
            batch = self._get(batch_id)
            if batch.status == "ended":
                # API style; the real wording for canceling an ended batch is not documented.
                raise invalid(f"Message Batch {batch_id} has already ended and cannot be canceled.")
            if batch.status == "in_progress":
                batch.status = "canceling"
                batch.cancel_initiated_at = _now()
                self._cond.notify_all()
            return batch.view(base_url)

    def delete(self, batch_id: str) -> dict:
        with self._cond:
            batch = self._get(batch_id)
            if batch.status != "ended":
                # API style; the real wording is not documented.
                raise invalid(f"Message Batch {batch_id} cannot be deleted while it is {batch.status}. "
                              "Cancel it and wait for it to end, then delete it.")
            del self._batches[batch_id]
            return {"id": batch_id, "type": "message_batch_deleted"}

    def results(self, batch_id: str) -> bytes:
        with self._cond:
            batch = self._get(batch_id)
            if batch.status != "ended":
                # API style; the real wording is not documented.
                raise invalid(f"No results are available for Message Batch {batch_id} until it has ended.")
            return batch.results_jsonl()

    def _get(self, batch_id: str) -> Batch:
        batch = self._batches.get(batch_id)
        if batch is None:
            raise ApiError(404, f"message_batch_id: {batch_id}")  # worded like the API's 404 for a model
        return batch

    # the worker
    def _ensure_worker(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._stopping = False
            self._worker = threading.Thread(target=self._work, name="course-agent-sandbox:batches", daemon=True)
            self._worker.start()

    def stop(self, timeout: float = 5) -> None:
        """Stop the worker (batches in progress stay as they are)."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            worker = self._worker
        if worker is not None:
            worker.join(timeout)
        self._worker = None

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                batch = self._batches.get(self._queue[0])
                if batch is not None:
                    ready_at = batch.created_at + timedelta(seconds=self.delay)
                    while not self._stopping and batch.status == "in_progress" and _now() < ready_at:
                        self._cond.wait((ready_at - _now()).total_seconds())
                    if self._stopping:
                        return
            if batch is not None:
                self._process(batch)
            with self._cond:
                self._queue.pop(0)

    def _process(self, batch: Batch) -> None:
        results: dict[str, dict] = {}
        for index, request in enumerate(batch.requests):
            with self._cond:
                if self._stopping:
                    return
                canceled = batch.status == "canceling"
            custom_id = request["custom_id"]
            if canceled:
                results[custom_id] = {"type": "canceled"}
                continue
            results[custom_id] = self._result(batch, index, request["params"])
        with self._cond:
            batch.results = results
            batch.status = "ended"
            batch.ended_at = _now()

    def _result(self, batch: Batch, index: int, params: object) -> dict:
        request_id = "req_01" + hashlib.sha256(f"{batch.id}/{index}".encode()).hexdigest()[:22]
        try:
            if asks_to_stream(params):
                raise invalid("stream: Input should be False")  # the SDK types batch params as non-streaming
            return {"type": "succeeded", "message": self.answer(params, batch.betas)}
        except ApiError as error:
            return {"type": "errored", "error": error.body(request_id)}
        except Exception as exc:  # noqa: BLE001 - a sandbox bug answers like the API's 500, and the batch goes on
            return {"type": "errored", "error": ApiError(500, f"Internal server error ({type(exc).__name__})")
                    .body(request_id)}


def _validated_requests(body: object) -> list[dict]:
    """The batch's requests, or the API's 400 for a body that is not a batch."""
    if not isinstance(body, dict):
        raise invalid("Input should be a valid dictionary")
    extra = sorted(set(body) - {"requests"})
    if extra:
        raise invalid(f"{extra[0]}: Extra inputs are not permitted")
    requests = body.get("requests")
    if requests is None:
        raise invalid("requests: Field required")
    if not isinstance(requests, list):
        raise invalid("requests: Input should be a valid list")
    if not requests:
        raise invalid("requests: List should have at least 1 item after validation, not 0")
    if len(requests) > MAX_REQUESTS:
        raise invalid(f"requests: List should have at most {MAX_REQUESTS} items after validation, not {len(requests)}")
    seen: set[str] = set()
    for i, request in enumerate(requests):
        if not isinstance(request, dict):
            raise invalid(f"requests.{i}: Input should be a valid dictionary")
        extra = sorted(set(request) - {"custom_id", "params"})
        if extra:
            raise invalid(f"requests.{i}.{extra[0]}: Extra inputs are not permitted")
        for name in ("custom_id", "params"):
            if name not in request:
                raise invalid(f"requests.{i}.{name}: Field required")
        custom_id = request["custom_id"]
        if not isinstance(custom_id, str):
            raise invalid(f"requests.{i}.custom_id: Input should be a valid string")
        if not CUSTOM_ID.match(custom_id):
            raise invalid(f"requests.{i}.custom_id: String should match pattern '{CUSTOM_ID.pattern}'")
        if not isinstance(request["params"], dict):
            raise invalid(f"requests.{i}.params: Input should be a valid dictionary")
        if custom_id in seen:
            # API style; the real wording is not documented.
            raise invalid(f"requests.{i}.custom_id: Duplicate custom_id '{custom_id}'. Each request in a batch "
                          "must have a unique custom_id.")
        seen.add(custom_id)
    return [{"custom_id": r["custom_id"], "params": r["params"]} for r in requests]
