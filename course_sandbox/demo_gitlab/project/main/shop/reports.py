"""Monthly sales reports."""

from decimal import Decimal

from shop.checkout import Order
from shop.tax import RATES, tax_for


def tax_collected(orders: list[Order]) -> Decimal:
    return sum((tax_for(order.total, RATES[order.region]) for order in orders), Decimal("0"))
