"""Grape's parameter coercions that several modules need (routes and the models behind them)."""

from .errors import invalid

_TRUE = {"true", "1", "yes", "on", "t", "y"}
_FALSE = {"false", "0", "no", "off", "f", "n"}


def boolean(value: object, name: str) -> bool | None:
    """A Grape Boolean: true/false/1/0..., None stays None, anything else is 400 `<name> is invalid`."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else ""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise invalid(name)
