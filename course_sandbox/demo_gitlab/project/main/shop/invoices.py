"""Invoices for orders."""

from shop.checkout import Order
from shop.money import fmt
from shop.tax import RATES, tax_for


def invoice_lines(order: Order) -> list[str]:
    tax = tax_for(order.total, RATES[order.region])
    return [f"Total: {fmt(order.total)}", f"VAT: {fmt(tax)}"]
