"""What a workload costs in each language: requests per month x the cost of one request.

A workload is a number of requests per month with input and output tokens per request, counted
in the base language with the model's own tokenizer. In another language both scale by that
language's premium under the model's tokenizer (see :data:`COST_DEFINITION`); a long-prompt tier
applies when a request's input, in that language, is over the tier's start:

    >>> from decimal import Decimal as D
    >>> from tokenizer_core.catalog.rates import Rate, Rates
    >>> p = ModelPrice("m", "p", "o200k_base", Rates(input=Rate(D(2)), output=Rate(D(8))))
    >>> w = Workload(requests_per_month=1000, input_tokens=800, output_tokens=200)
    >>> monthly_cost(p, w, premium=2.0) == D("6.4")  # 1000 x (1600 x 2 + 400 x 8) / 1e6
    True
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal

from ..catalog.prices import ModelPrice, PriceError
from ..catalog.rates import exact
from ..tokenizers.csvcells import spreadsheet_safe
from .language import LanguageRow

COST_DEFINITION = (
    "For a model with tokenizer T and a language L with premium P = premium(L, T): "
    "input tokens per request = I × (s × P + (1 − s)), output tokens per request = O × P, "
    "monthly cost = R × (input tokens × input price + output tokens × output price) ÷ 1,000,000. "
    "R = requests per month; I and O = input and output tokens per request in the base language, "
    "counted with T; s = the share of the input written in the user's language (the rest, such "
    "as a fixed English system prompt, does not change with the language). A model with a "
    "long-prompt tier bills the whole request at the tier's prices once its input tokens, in "
    "that language, are over the tier's start."
)


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


def request_cost(price: ModelPrice, workload: Workload, premium: float) -> Decimal:
    """USD for one request in a language with this premium (0 for a model without a price)."""
    if price.rates is None:
        return Decimal(0)
    tin, tout = request_tokens(workload, premium)
    return price.rates.request_cost(tin, tout)


def monthly_cost(price: ModelPrice, workload: Workload, premium: float) -> Decimal:
    """USD per month: requests per month x the cost of one request."""
    return exact(workload.requests_per_month) * request_cost(price, workload, premium)


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
    """The workload's cost in every language for every priced model whose tokenizer has rows.

    Returns (rows: models outer, languages in the order of `rows`; messages for models that
    could not be priced). `extra_vs_base` is the monthly cost minus the base language's.
    Money is computed exactly and given as floats (what a table or chart draws).
    """
    by_tok: dict[str, list[LanguageRow]] = {}
    for r in rows:
        by_tok.setdefault(r.tokenizer_id, []).append(r)
    out: list[CostRow] = []
    skipped: list[str] = []
    for p in prices:
        if p.tokenizer_id is None:
            skipped.append(
                f"{p.model}: no public tokenizer, so its premium in each language cannot be measured."
            )
            continue
        if not p.priced:
            skipped.append(f"{p.model}: no price in the source; type its prices in the table to cost it.")
            continue
        lrows = by_tok.get(p.tokenizer_id)
        if not lrows:
            skipped.append(f"{p.model}: its tokenizer could not be measured.")
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
                    float(request_cost(p, workload, r.premium)), float(month), float(month - base_cost),
                    r.base_code, p.as_of,
                )
            )  # fmt: skip
    return out, skipped


def cost_rows_csv(rows: Sequence[CostRow]) -> str:
    """The cost table as CSV (USD; tokens and premiums to 4 decimals; text cells spreadsheet-safe,
    a negative number stays a number, see `csvcells`)."""
    buf = io.StringIO()
    fields = list(CostRow.__dataclass_fields__)
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(
            {k: round(v, 6) if isinstance(v, float) else spreadsheet_safe(v) for k, v in asdict(r).items()}
        )
    return buf.getvalue()


__all__ = [
    "COST_DEFINITION", "CostRow", "Workload", "cost_rows_csv", "cost_table", "monthly_cost", "request_cost",
    "request_tokens",
]  # fmt: skip
