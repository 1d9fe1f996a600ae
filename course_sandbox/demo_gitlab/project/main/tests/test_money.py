from decimal import Decimal

from shop.money import fmt


def test_fmt():
    assert fmt(Decimal("5")) == "5 EUR"
