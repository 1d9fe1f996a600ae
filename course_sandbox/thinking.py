"""Signatures for thinking blocks, so the sandbox can tell when a client edited, forged or moved one.

A signature has two parts: one binds the reasoning's own text (every model checks it), the
other binds what came before the block when it was produced: `system`, `tools` and the earlier
messages, its prefix. Models with preserved thinking (docs: build-with-claude/preserved-thinking)
check the second part too, so editing, trimming or reordering the history before a thinking
block invalidates it. The key is fixed so that signatures, like everything else the sandbox
returns, are the same on every run.
"""

import base64
import functools
import hashlib
import hmac
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # request.py imports conversation.py, which imports this module
    from .request import Request

_KEY = b"course-agent-sandbox/thinking-signature/v1"
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
"""One encoder for every block: `json.dumps` with options builds a new one per call."""
_MEMO_CHARS = 4096
"""Longer reasoning is signed afresh each time, so the memo of signatures stays small (8 MB at most)."""


def _mac(data: bytes) -> bytes:
    return hmac.new(_KEY, data, hashlib.sha256).digest()


def sign(thinking: str, prefix: str = "") -> str:
    """Every block of a long history is checked again on each request, after the same prefix: the
    signature is a pure function of the two strings, so the recent ones are remembered."""
    if len(thinking) > _MEMO_CHARS:
        return _sign(thinking, prefix)
    return _remembered_sign(thinking, prefix)


def _sign(thinking: str, prefix: str) -> str:
    text = base64.b64encode(_mac(thinking.encode("utf-8"))).decode("ascii")
    bound = base64.b64encode(_mac(f"{prefix}\0{thinking}".encode())[:18]).decode("ascii")
    return f"Sbx{text}.{bound}"


_remembered_sign = functools.lru_cache(maxsize=2048)(_sign)


def verify(thinking: str, signature: str) -> bool:
    """The reasoning is the text it was signed with."""
    expected = sign(thinking).split(".")[0]
    return hmac.compare_digest(expected.encode(), signature.split(".")[0].encode("utf-8", "surrogatepass"))


def bound_to(thinking: str, signature: str, prefix: str) -> bool:
    """The reasoning was produced after exactly this prefix."""
    return hmac.compare_digest(sign(thinking, prefix).encode(), signature.encode("utf-8", "surrogatepass"))


def _canonical(value: object) -> object:
    """What counts as the content: no cache breakpoints, no null fields, a string content as one text block."""
    if isinstance(value, dict):
        out = {k: _canonical(v) for k, v in value.items() if k != "cache_control" and v is not None}
        if out.get("type") == "tool_result" and isinstance(out.get("content"), str):
            out["content"] = [{"type": "text", "text": out["content"]}]
        if out.get("is_error") is False:
            out.pop("is_error")
        return out
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def encode(value: object) -> bytes:
    """The canonical bytes of a block (or of `system`, `tools`) that a signature binds."""
    return _ENCODER.encode(_canonical(value)).encode()


@functools.lru_cache(maxsize=8)
def _role(role: str) -> bytes:
    return encode({"role": role})


def _start(request: "Request") -> "hashlib._Hash":
    system = request.system
    digest = hashlib.sha256()
    digest.update(encode([{"type": "text", "text": system}] if isinstance(system, str) else system or []))
    digest.update(encode(list(request.tools)))  # a list, as sent: `_canonical` reads JSON's own types
    return digest


def _walk(request: "Request", turns: list) -> Iterator[tuple[int, int, "hashlib._Hash"]]:
    """(turn index, block index, digest of everything before the block) for every block sent, then
    (len(turns), 0, digest of everything sent). Each turn's blocks are encoded once a request
    (`Turn.encoded`): the binding check and the signing of the answer both walk the history."""
    digest = _start(request)
    for k, turn in enumerate(turns):
        digest.update(_role(turn.role))
        for j, (block, encoded) in enumerate(zip(turn.blocks, turn.encoded, strict=False)):
            yield k, j, digest
            if block.get("type") != "fallback":  # a marker between two models' output, not content
                digest.update(encoded.canonical)
    yield len(turns), 0, digest


def prefixes(request: "Request", turns: list) -> Iterator[tuple[int, int, str]]:
    """(turn index, block index, digest of everything before the block) for every thinking block sent
    (the only blocks whose prefix is checked)."""
    for k, j, digest in _walk(request, turns):
        if k < len(turns) and turns[k].blocks[j].get("type") == "thinking":
            yield k, j, digest.hexdigest()


def signed(request: "Request", turns: list, blocks: list[dict]) -> list[dict]:
    """The response's blocks with every thinking block signed over its text as sent and over everything
    before it: the request, then the blocks of this response that come before it."""
    *_, (_, _, digest) = _walk(request, turns)
    if not turns or turns[-1].role != "assistant":
        digest.update(_role("assistant"))
    out = []
    for block in blocks:
        if block["type"] == "thinking":
            block = {**block, "signature": sign(block["thinking"], digest.hexdigest())}
        if block["type"] != "fallback":
            digest.update(encode(block))
        out.append(block)
    return out
