from decimal import Decimal

from shop.tax import tax_for


def test_tax_for_region():
    assert tax_for(Decimal("100"), region="CH") == Decimal("8.10")
