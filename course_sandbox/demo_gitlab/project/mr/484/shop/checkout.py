"""Checkout: turns a cart into an order."""

from dataclasses import dataclass
from decimal import Decimal

from shop.cart import Cart
from shop.pricing import calculate_total
from shop.tax import tax_for


@dataclass
class Order:
    total: Decimal
    tax: Decimal
    region: str


def checkout(cart: Cart, region: str = "EU", coupon_percent: int = 0) -> Order:
    """Price the cart with the customer's coupon and add the region's tax."""
    total = calculate_total(cart.items, coupon_percent)
    return Order(total=total, tax=tax_for(total, region=region), region=region)
