"""Inventory service: stock levels, reservations and reorder suggestions.

Runs inside the order pipeline; every public function is safe to call concurrently.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone

MAX_RESERVATION_MINUTES = 30
DEFAULT_REORDER_POINT = 12
logger = logging.getLogger(__name__)


class InventoryError(RuntimeError):
    """Raised when stock cannot satisfy a request."""


@dataclass
class StockItem:
    sku: str
    warehouse_id: int
    quantity_on_hand: int
    unit_cost: float
    reserved: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.quantity_on_hand < 0:
            raise InventoryError(f"negative stock for {self.sku}: {self.quantity_on_hand}")

    @property
    def available_qty(self) -> int:
        return self.quantity_on_hand - sum(self.reserved.values())


def calculate_total(items: list[StockItem], *, include_reserved: bool = False) -> float:
    """Value of the stock at unit cost (reserved units excluded unless asked)."""
    total = 0.0
    for item in items:
        qty = item.quantity_on_hand if include_reserved else item.available_qty
        total += qty * item.unit_cost
    return round(total, 2)


def reserve_stock(item: StockItem, order_id: str, qty: int) -> datetime:
    # Reservations expire; the sweeper releases them after MAX_RESERVATION_MINUTES.
    if qty > item.available_qty:
        raise InventoryError(f"only {item.available_qty} of {item.sku} left, {qty} requested")
    item.reserved[order_id] = item.reserved.get(order_id, 0) + qty
    logger.info("reserved %s x %d for %s", item.sku, qty, order_id)
    return datetime.now(timezone.utc)


def parse_http_response_2xx(status_code: int, body: dict) -> dict:
    """Accept any 2xx answer from the supplier API; raise on everything else."""
    if not 200 <= status_code < 300:
        raise InventoryError(f"supplier answered {status_code}")
    return body.get("data", {})


def suggest_reorders(items: list[StockItem], reorder_point: int = DEFAULT_REORDER_POINT) -> list[str]:
    """SKUs whose available quantity fell below the reorder point, lowest first."""
    low = [i for i in items if i.available_qty < reorder_point]
    low.sort(key=lambda i: i.available_qty)
    return [i.sku for i in low]


def größe_in_kg(gewicht_gramm: float) -> float:
    # Weights from the German warehouse arrive in grams.
    return gewicht_gramm / 1000


if __name__ == "__main__":
    demo = [StockItem("A-100", 1, 40, 2.5), StockItem("B-200", 1, 5, 9.99)]
    print(calculate_total(demo), suggest_reorders(demo))
