"""A small inventory module: stock levels, reorder rules and a report.

Sample source file for the chunk previewer. It has imports, constants, decorated functions, a
class with methods and comments above definitions, the things a code-aware splitter must keep
together.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass, field
from datetime import date

REORDER_MARGIN = 1.2  # order 20% more than the forecast need
WAREHOUSES = ("north", "south", "harbour")


@dataclass
class Item:
    """One stock-keeping unit in one warehouse."""

    sku: str
    name: str
    warehouse: str
    on_hand: int = 0
    reserved: int = 0
    history: list[int] = field(default_factory=list)

    @property
    def available(self) -> int:
        """Units that can still be promised to a customer."""
        return max(0, self.on_hand - self.reserved)


# Forecasting: a plain moving average is enough for slow movers; fast movers use the
# weighted version so that last week counts more than a month ago.
@functools.lru_cache(maxsize=1024)
def moving_average(history: tuple[int, ...], window: int = 4) -> float:
    """Mean of the last `window` weekly sales: (3, 5, 4, 8) -> 5.0."""
    recent = history[-window:]
    return sum(recent) / len(recent) if recent else 0.0


def weighted_average(history: tuple[int, ...]) -> float:
    """Recent weeks weigh more: weights 1, 2, 3, ... from the oldest week to the newest."""
    if not history:
        return 0.0
    weights = range(1, len(history) + 1)
    return sum(w * h for w, h in zip(weights, history)) / sum(weights)


def reorder_quantity(item: Item, *, lead_weeks: int = 2, fast: bool = False) -> int:
    """How many units to order now so that stock lasts through the lead time."""
    history = tuple(item.history)
    weekly = weighted_average(history) if fast else moving_average(history)
    need = weekly * lead_weeks * REORDER_MARGIN
    return max(0, round(need) - item.available)


class Inventory:
    """All items, by warehouse and SKU, with the operations the shop floor uses."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], Item] = {}

    def add(self, item: Item) -> None:
        if item.warehouse not in WAREHOUSES:
            raise ValueError(f"unknown warehouse {item.warehouse!r}; use one of {WAREHOUSES}")
        self.items[(item.warehouse, item.sku)] = item

    def reserve(self, warehouse: str, sku: str, units: int) -> bool:
        """Hold `units` for an order; False (and nothing held) if there are not enough."""
        item = self.items[(warehouse, sku)]
        if item.available < units:
            return False
        item.reserved += units
        return True

    def receive(self, warehouse: str, sku: str, units: int) -> None:
        self.items[(warehouse, sku)].on_hand += units

    def to_reorder(self, *, lead_weeks: int = 2) -> list[tuple[Item, int]]:
        """Items that need an order now, with the quantity, largest first."""
        rows = [(it, reorder_quantity(it, lead_weeks=lead_weeks)) for it in self.items.values()]
        return sorted((r for r in rows if r[1] > 0), key=lambda r: -r[1])


def write_report(inventory: Inventory, path: str, *, today: date | None = None) -> int:
    """Write the reorder list as CSV; returns the number of rows written."""
    today = today or date.today()
    rows = inventory.to_reorder()
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["date", "warehouse", "sku", "name", "available", "order"])
        for item, qty in rows:
            writer.writerow([today.isoformat(), item.warehouse, item.sku, item.name, item.available, qty])
    return len(rows)


if __name__ == "__main__":
    inv = Inventory()
    inv.add(Item("A-100", "Café mugs ☕", "north", on_hand=40, history=[12, 15, 9, 14]))
    inv.add(Item("B-200", "Tea towels", "harbour", on_hand=3, history=[2, 2, 3, 1]))
    print(write_report(inv, "reorder.csv"), "rows")
