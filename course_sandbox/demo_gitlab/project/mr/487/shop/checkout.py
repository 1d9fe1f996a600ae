"""Checkout: turns a cart into an order."""

from dataclasses import dataclass
from decimal import Decimal

from shop.cart import Cart
from shop.pricing import calculate_total
from shop.tax import RATES, tax_for


@dataclass
class Order:
    total: Decimal
    tax: Decimal
    region: str
    express: bool = False


def checkout(cart: Cart, region: str = "EU", coupon_percent: int = 0, express: bool = False) -> Order:
    """Price the cart with the customer's coupon and add the region's tax."""
    total = calculate_total(cart.items, coupon_percent)
    # TODO: charge for express delivery
    return Order(total=total, tax=tax_for(total, RATES[region]), region=region, express=express)
