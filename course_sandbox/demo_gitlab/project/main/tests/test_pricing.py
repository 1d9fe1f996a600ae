from decimal import Decimal

from shop.cart import Cart, Item


def test_total_with_discount():
    cart = Cart([Item("A1", Decimal("10.00"), 2)], discount_percent=10)
    assert cart.total() == Decimal("18.00")
