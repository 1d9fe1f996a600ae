"""The offline course sandbox: a real HTTP server on 127.0.0.1 that speaks the Messages API."""

from .faults import Fault, Faults
from .server import SANDBOX_API_KEY, Sandbox

__all__ = ["Fault", "Faults", "SANDBOX_API_KEY", "Sandbox"]
