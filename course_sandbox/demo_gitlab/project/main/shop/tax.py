"""Value-added tax."""

from decimal import Decimal

from shop.money import to_money

RATES = {"EU": Decimal("0.20"), "UK": Decimal("0.20"), "CH": Decimal("0.081")}


def tax_for(amount: Decimal, rate: Decimal) -> Decimal:
    return to_money(amount * rate)
