"""Prices of carts: subtotals and discounts."""

from decimal import Decimal

from shop.money import to_money


def subtotal(items) -> Decimal:
    return sum((item.price * item.quantity for item in items), Decimal("0"))


# Used by shop/cart.py and shop/checkout.py.
def calculate_total(items, discount_percent):
    """The amount to pay for the items after a percentage discount."""
    amount = subtotal(items)
    return to_money(amount - amount * Decimal(discount_percent) / 100)
