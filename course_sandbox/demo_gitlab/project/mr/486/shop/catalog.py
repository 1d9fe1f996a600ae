"""The product catalogue, loaded from data/catalog.json."""

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

CATALOG_FILE = Path(__file__).parent.parent / "data" / "catalog.json"


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price: Decimal
    in_stock: bool = True


def load_catalog(path: Path = CATALOG_FILE) -> dict[str, Product]:
    with path.open(encoding="utf-8") as handle:
        rows = json.load(handle)
    return {
        row["sku"]: Product(row["sku"], row["name"], Decimal(row["price"]), row.get("in_stock", True))
        for row in rows
    }
