"""Prices of carts: subtotals and discounts."""

from dataclasses import dataclass
from decimal import Decimal

from shop.money import to_money


@dataclass(frozen=True)
class Discount:
    percent: int = 0

    def apply(self, amount: Decimal) -> Decimal:
        return amount - amount * Decimal(self.percent) / 100


def subtotal(items) -> Decimal:
    return sum((item.price * item.quantity for item in items), Decimal("0"))


# Used by shop/cart.py and shop/checkout.py.
def calculate_total(items, *, discount: Discount | None = None):
    """The amount to pay for the items after an optional discount."""
    amount = subtotal(items)
    return to_money(discount.apply(amount) if discount else amount)
