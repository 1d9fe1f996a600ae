"""Signatures for thinking blocks, so the sandbox can tell when a client edited or forged one.

The key is fixed so that signatures, like everything else the sandbox returns,
are the same on every run.
"""

import base64
import hashlib
import hmac

_KEY = b"course-agent-sandbox/thinking-signature/v1"


def sign(thinking: str) -> str:
    digest = hmac.new(_KEY, thinking.encode("utf-8"), hashlib.sha256).digest()
    return "Sbx" + base64.b64encode(digest).decode("ascii")


def verify(thinking: str, signature: str) -> bool:
    return hmac.compare_digest(sign(thinking).encode(), signature.encode("utf-8", "surrogatepass"))
