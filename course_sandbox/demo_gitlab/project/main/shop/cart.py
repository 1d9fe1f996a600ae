"""A customer's cart."""

from dataclasses import dataclass, field
from decimal import Decimal

from shop.pricing import calculate_total


@dataclass
class Item:
    sku: str
    price: Decimal
    quantity: int = 1


@dataclass
class Cart:
    items: list[Item] = field(default_factory=list)
    discount_percent: int = 0

    def add(self, item: Item) -> None:
        self.items.append(item)

    def total(self) -> Decimal:
        return calculate_total(self.items, self.discount_percent)
