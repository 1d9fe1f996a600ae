from decimal import Decimal

from shop.money import fmt


def test_fmt():
    assert fmt(Decimal("5")) == "5.00 EUR"


def test_fmt_rounds_to_cents():
    assert fmt(Decimal("2.345")) == "2.35 EUR"
