"""Each block of a request serialised once, for everything that reads the whole history (#26).

The prompt cache hashes and counts every block, and preserved thinking hashes every block into the
prefix a signature binds; an agent sends the same blocks again on every request. So a block is
serialised once a request (sorted JSON without its `cache_control`: the prompt cache's view of it),
and what the others derive from that text (the canonical bytes thinking binds, the token count) is
remembered by the text's SHA-256, in a cache bounded by bytes.
"""

import hashlib
import json
from dataclasses import dataclass

from . import thinking, tokens
from .bytes_cache import BytesCache

_ENCODER = json.JSONEncoder(sort_keys=True)
_derived = BytesCache(8 * 1024 * 1024)
"""SHA-256 of a block's text -> (its canonical bytes for thinking, its tokens)."""


@dataclass(frozen=True)
class Encoded:
    text: bytes
    """Sorted JSON of the block without its `cache_control`: what the prompt cache hashes."""
    canonical: bytes
    """`thinking.encode(block)`: what the prefix of a later thinking block binds."""
    tokens: int


def encode(block: dict) -> Encoded:
    """A block's encodings. Its tokens are counted on the sorted block, as the prompt cache always did."""
    text = _ENCODER.encode({k: v for k, v in block.items() if k != "cache_control"}).encode()
    key = hashlib.sha256(text).digest()
    derived = _derived.get(key)
    if derived is None:
        derived = thinking.encode(block), tokens.count_block(json.loads(text))
        _derived.put(key, derived)
    return Encoded(text, *derived)
