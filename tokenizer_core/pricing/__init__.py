"""Prices and what a workload costs, from a maintained, pinned, offline source.

* `source`: the pinned `genai-prices` package's bundled data (never updated over the network),
  read by price reference (``"openai:gpt-5.5"``) for a date and a rate option (standard, batch...).
* `rates`: prices per million tokens, long-prompt tiers, the exact cost of one request.
* `table`: a model's price in the app (the source's, with the user's edits on top) and the
  editor's rows.
* `workload`: a month of requests in each language (the Language costs page).

Which model is priced by which reference is the model catalog's business
(``tokenizer_core.workspace.models``); this package knows no model by name.
"""

from .table import (
    PRICE_FIELDS,
    ModelPrice,
    PriceError,
    PriceTable,
    price_age_days,
    prices_from_records,
    prices_to_records,
)
from .workload import COST_DEFINITION, CostRow, Workload, cost_rows_csv, cost_table, monthly_cost

__all__ = [
    "COST_DEFINITION", "PRICE_FIELDS", "CostRow", "ModelPrice", "PriceError", "PriceTable", "Workload",
    "cost_rows_csv", "cost_table", "monthly_cost", "price_age_days", "prices_from_records", "prices_to_records",
]  # fmt: skip
