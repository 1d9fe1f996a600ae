"""Money amounts: always Decimal, never float."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_money(value: str | int | Decimal) -> Decimal:
    """An amount rounded to whole cents."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def fmt(amount: Decimal) -> str:
    """An amount with two decimals and its currency, e.g. "5.00 EUR"."""
    return f"{to_money(amount):.2f} EUR"
