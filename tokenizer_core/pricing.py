"""Turning token counts into money: a dated, editable price table and the cost of a workload.

Prices are per million tokens, separately for input (prompt) and output (completion), for a
model whose tokenizer the app has. The shipped defaults (``data/languages/prices.json``) are
list prices with an "as of" date: they go stale, so every row carries its own date and the page
lets users edit the table.

A workload is a number of requests per month with input and output tokens per request, counted
in the base language with the model's own tokenizer. In another language both scale by that
language's premium under the model's tokenizer (see :data:`COST_DEFINITION`):

    >>> w = Workload(requests_per_month=1000, input_tokens=800, output_tokens=200)
    >>> p = ModelPrice("m", "p", "o200k_base", 2.0, 8.0, "2025-08-07")
    >>> monthly_cost(p, w, premium=2.0)   # 1000 x (1600 x 2 + 400 x 8) / 1e6
    6.4
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from .tokenizers.textio import InputError

if TYPE_CHECKING:  # a type only: the shared price table does not depend on the languages feature
    from .languages.compare import LanguageRow

__all__ = [
    "COST_DEFINITION", "PRICE_FIELDS", "CostRow", "ModelPrice", "PriceError", "PriceTable", "Workload",
    "cost_rows_csv", "cost_table", "default_prices", "monthly_cost", "price_age_days",
    "prices_from_records", "prices_to_records",
]  # fmt: skip

COST_DEFINITION = (
    "For a model with tokenizer T and a language L with premium P = premium(L, T): "
    "input tokens per request = I × (s × P + (1 − s)), output tokens per request = O × P, "
    "monthly cost = R × (input tokens × input price + output tokens × output price) ÷ 1,000,000. "
    "R = requests per month; I and O = input and output tokens per request in the base language, "
    "counted with T; s = the share of the input written in the user's language (the rest, such "
    "as a fixed English system prompt, does not change with the language)."
)

PRICE_FIELDS = (
    "model",
    "provider",
    "tokenizer_id",
    "input_per_million",
    "output_per_million",
    "as_of",
    "source",
)


class PriceError(InputError):
    """A price table or workload the app cannot use; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """USD per million tokens for one model, and the tokenizer that model counts with."""

    model: str
    provider: str
    tokenizer_id: str
    input_per_million: float
    output_per_million: float
    as_of: str
    source: str = ""


@dataclass(frozen=True, slots=True)
class PriceTable:
    as_of: str
    note: str
    models: tuple[ModelPrice, ...]


def _prices_path():
    return resources.files("tokenizer_core") / "data" / "languages" / "prices.json"


@cache
def default_prices() -> PriceTable:
    """The shipped list prices, with their "as of" date and a note to check the provider's page."""
    d = json.loads(_prices_path().read_text(encoding="utf-8"))
    models = tuple(ModelPrice(**{k: m[k] for k in PRICE_FIELDS}) for m in d["models"])
    return PriceTable(as_of=d["as_of"], note=d["note"], models=models)


def prices_to_records(prices: Iterable[ModelPrice]) -> list[dict]:
    """Rows for the page's price editor (one dict per model)."""
    return [asdict(p) for p in prices]


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def _price(value: object) -> float | None:
    """A price cell as a float, None if empty; ``_price("$2.50") -> 2.5``. Raises ValueError."""
    s = _cell(value).replace("$", "").replace(",", "")
    if not s:
        return None
    v = float(s)
    if not math.isfinite(v):
        raise ValueError(s)
    return v


def parse_date(text: str) -> date | None:
    """An ISO date (``"2025-08-07"``) or None when `text` is not one."""
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def prices_from_records(
    records: Iterable[Mapping[str, object]], *, known_tokenizers: Collection[str]
) -> tuple[list[ModelPrice], list[str]]:
    """Usable prices from the edited table, and a message for each row that is skipped.

    A row needs a model name, a tokenizer the app has, and input and output prices that are
    numbers >= 0. An "as of" that is not a date is kept but reported. Empty rows are ignored.
    """
    out: list[ModelPrice] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, rec in enumerate(records, start=1):
        vals = {k: _cell(rec.get(k)) for k in PRICE_FIELDS}
        if not any(vals.values()):
            continue
        model = vals["model"] or f"row {i}"
        if not vals["model"]:
            problems.append(f"Row {i} has no model name: type one, or delete the row.")
            continue
        if vals["tokenizer_id"] not in known_tokenizers:
            problems.append(
                f"{model}: the tokenizer {vals['tokenizer_id'] or '(empty)'!r} is not one the app has, "
                "so its cost cannot be measured. Pick its tokenizer in the Tokenizer column "
                "(add your own tokenizer in the sidebar first if it is not listed)."
            )
            continue
        try:
            pin, pout = _price(rec.get("input_per_million")), _price(rec.get("output_per_million"))
        except ValueError:
            problems.append(f"{model}: prices must be numbers (US dollars per million tokens), e.g. 2.5.")
            continue
        if pin is None or pout is None:
            problems.append(f"{model}: type both the input and the output price (0 if free).")
            continue
        if pin < 0 or pout < 0:
            problems.append(f"{model}: a price cannot be negative.")
            continue
        if vals["as_of"] and parse_date(vals["as_of"]) is None:
            problems.append(
                f"{model}: 'as of' {vals['as_of']!r} is not a date like 2025-08-07 (kept as typed)."
            )
        key = vals["model"].casefold()
        if key in seen:
            problems.append(f"{model} is listed twice (rows {seen[key]} and {i}); row {seen[key]} is used.")
            continue
        seen[key] = i
        out.append(
            ModelPrice(
                vals["model"],
                vals["provider"],
                vals["tokenizer_id"],
                pin,
                pout,
                vals["as_of"],
                vals["source"],
            )
        )
    return out, problems


def price_age_days(as_of: str, *, today: date) -> int | None:
    """Days since the price date: ``price_age_days("2025-08-07", today=date(2025, 8, 17)) -> 10``."""
    d = parse_date(as_of)
    return None if d is None else (today - d).days


@dataclass(frozen=True, slots=True)
class Workload:
    """Requests per month, and input / output tokens per request in the base language."""

    requests_per_month: float
    input_tokens: float
    output_tokens: float
    translated_share: float = 1.0

    def __post_init__(self) -> None:
        for name in ("requests_per_month", "input_tokens", "output_tokens", "translated_share"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise PriceError(f"{name.replace('_', ' ')} must be a number >= 0, not {v!r}.")
        if self.translated_share > 1:
            raise PriceError(
                "The share of the input in the user's language must be between 0 and 1 (0% to 100%)."
            )


def request_tokens(workload: Workload, premium: float) -> tuple[float, float]:
    """Input and output tokens of one request in a language with this premium.

    ``request_tokens(Workload(1, 1000, 100, translated_share=0.5), 3.0) -> (2000.0, 300.0)``
    """
    s = workload.translated_share
    return workload.input_tokens * (s * premium + (1 - s)), workload.output_tokens * premium


def request_cost(price: ModelPrice, workload: Workload, premium: float) -> float:
    """USD for one request: ``request_cost(ModelPrice("m","p","t",2,8,""), Workload(1,1e6,0), 1.0) -> 2.0``."""
    tin, tout = request_tokens(workload, premium)
    return (tin * price.input_per_million + tout * price.output_per_million) / 1_000_000


def monthly_cost(price: ModelPrice, workload: Workload, premium: float) -> float:
    """USD per month: requests per month x the cost of one request."""
    return workload.requests_per_month * request_cost(price, workload, premium)


@dataclass(frozen=True, slots=True)
class CostRow:
    model: str
    provider: str
    tokenizer_id: str
    code: str
    language: str
    premium: float
    input_tokens: float
    output_tokens: float
    cost_per_request: float
    monthly_cost: float
    extra_vs_base: float
    base_code: str
    as_of: str


def cost_table(
    rows: Sequence[LanguageRow], prices: Sequence[ModelPrice], workload: Workload
) -> tuple[list[CostRow], list[str]]:
    """The workload's cost in every language for every model whose tokenizer has rows.

    Returns (rows: models outer, languages in the order of `rows`; messages for models that
    could not be priced). `extra_vs_base` is the monthly cost minus the base language's.
    """
    by_tok: dict[str, list[LanguageRow]] = {}
    for r in rows:
        by_tok.setdefault(r.tokenizer_id, []).append(r)
    out: list[CostRow] = []
    skipped: list[str] = []
    for p in prices:
        lrows = by_tok.get(p.tokenizer_id)
        if not lrows:
            skipped.append(f"{p.model}: its tokenizer {p.tokenizer_id} could not be measured.")
            continue
        base_cost = monthly_cost(p, workload, 1.0)
        for r in lrows:
            if r.premium is None:
                skipped.append(f"{p.model} / {r.language}: the base text has no tokens, so no premium.")
                continue
            tin, tout = request_tokens(workload, r.premium)
            month = monthly_cost(p, workload, r.premium)
            out.append(
                CostRow(
                    p.model, p.provider, p.tokenizer_id, r.code, r.language, r.premium, tin, tout,
                    request_cost(p, workload, r.premium), month, month - base_cost, r.base_code, p.as_of,
                )
            )  # fmt: skip
    return out, skipped


def cost_rows_csv(rows: Sequence[CostRow]) -> str:
    """The cost table as CSV (USD; tokens and premiums to 4 decimals)."""
    buf = io.StringIO()
    fields = list(CostRow.__dataclass_fields__)
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: round(v, 6) if isinstance(v, float) else v for k, v in asdict(r).items()})
    return buf.getvalue()
