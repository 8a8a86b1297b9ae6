"""Prices per million tokens, the long-prompt tiers some models have, and the cost of one request.

Money is exact: prices and costs are :class:`~decimal.Decimal`, and a count of tokens enters
the sum by its shortest decimal spelling (``Decimal(repr(1.5))``), the way the price source
computes its own totals, so the app's cost of a request equals the source's to the last digit.

A tier applies by the size of the request's input (the whole prompt, cached tokens included):
once the prompt is over the tier's start, every token of the request is billed at the tier's
rate, not only the tokens above it (the "cliff" the providers publish):

    >>> r = Rates(input=Rate(Decimal(5), ((272_000, Decimal(10)),)), output=Rate(Decimal(30)))
    >>> r.request_cost(272_000, 1_000), r.request_cost(272_001, 1_000)
    (Decimal('1.39'), Decimal('2.75001'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

MILLION = Decimal(1_000_000)
FIELDS = ("input", "cached_input", "output")
FIELD_LABELS = {"input": "input", "cached_input": "cached input", "output": "output"}


def exact(value: float | int | Decimal) -> Decimal:
    """A number as an exact decimal, by its shortest spelling: ``exact(0.1) -> Decimal('0.1')``."""
    if isinstance(value, Decimal):
        return value
    return Decimal(value) if isinstance(value, int) else Decimal(repr(float(value)))


def round_money(value: Decimal, places: int = 2) -> Decimal:
    """`value` rounded half up (away from zero) to `places` decimals, exactly, as people and
    invoices round: ``round_money(Decimal("15.995")) -> Decimal('16.00')``, -0.125 -> -0.13."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def money_text(value: Decimal | None, *, places: int | None = None, sign: bool = False) -> str:
    """A price for people: ``money_text(Decimal("0.125")) -> "$0.125"``, 1E6 -> "$1,000,000", None -> "no price".

    Exact unless `places` is given, then rounded half up (`round_money`): 15.995 -> "$16.00" with
    ``places=2``. At least two decimals once there are any. The minus sign goes before the dollar
    sign ("-$0.07"), and `sign` writes "+" for a positive value ("+$0.07", for a difference).
    """
    if value is None:
        return "no price"
    if not value.is_finite() or not -15 <= value.adjusted() <= 15:  # never a price: no million digits
        return f"${value:.3E}" if value.is_finite() else "not a price"
    if places is not None:
        value = round_money(value, places)
    text = format(abs(value).normalize(), ",f") if places is None else format(abs(value), ",f")
    if "." in text and len(text.split(".")[1]) == 1:
        text += "0"
    lead = "-" if value < 0 else "+" if sign and value > 0 else ""
    return f"{lead}${text}"


@dataclass(frozen=True, slots=True)
class Rate:
    """USD per million tokens, with tiers: (prompt size above which, price) in ascending order."""

    base: Decimal
    tiers: tuple[tuple[int, Decimal], ...] = ()

    def at(self, prompt_tokens: float | int | Decimal) -> Decimal:
        """The price for a request whose input is `prompt_tokens` long: ``Rate(D(5), ((10, D(9)),)).at(11) -> 9``."""
        price = self.base
        for start, tier_price in self.tiers:
            if prompt_tokens > start:
                price = tier_price
        return price

    def with_base(self, base: Decimal) -> Rate:
        """The same tiers at the same multiples of a new base price (an edit keeps the tier's ratio).

        ``Rate(D(5), ((272000, D(10)),)).with_base(D(4)).tiers -> ((272000, Decimal('8')),)``
        """
        if not self.tiers or self.base == 0:
            return Rate(base)
        return Rate(base, tuple((start, base * price / self.base) for start, price in self.tiers))


@dataclass(frozen=True, slots=True)
class Rates:
    """A model's prices per million tokens: input, cached input (a cache read) and output."""

    input: Rate | None = None
    cached_input: Rate | None = None
    output: Rate | None = None

    def get(self, field: str) -> Rate | None:
        return getattr(self, field)

    def with_base(self, field: str, base: Decimal | None) -> Rates:
        """These rates with one field's base price replaced (its tiers kept at their ratio)."""
        old = self.get(field)
        new = None if base is None else (old.with_base(base) if old else Rate(base))
        return replace(self, **{field: new})

    @property
    def tiered(self) -> bool:
        return any(r is not None and r.tiers for r in (self.input, self.cached_input, self.output))

    def tier_starts(self) -> list[int]:
        """Prompt sizes (input tokens) above which a different rate applies."""
        starts = {s for r in (self.input, self.cached_input, self.output) if r for s, _ in r.tiers}
        return sorted(starts)

    def request_cost(
        self, input_tokens: float | int, output_tokens: float | int, *, cached_tokens: float | int = 0
    ) -> Decimal:
        """USD for one request. `input_tokens` is the whole prompt; `cached_tokens` of it are
        read from the provider's prompt cache (billed at the cached rate where there is one)."""
        tin, tcached, tout = (
            exact(input_tokens),
            exact(min(cached_tokens, input_tokens)),
            exact(output_tokens),
        )
        total = Decimal(0)
        if self.input is not None:
            uncached = tin - tcached if self.cached_input is not None else tin
            total += self.input.at(tin) * uncached / MILLION
        if self.cached_input is not None:
            total += self.cached_input.at(tin) * tcached / MILLION
        if self.output is not None:
            total += self.output.at(tin) * tout / MILLION
        return total

    def tier_status(self, prompt_tokens: float | int) -> str:
        """Which tier a request of this size is billed at, for a table cell ("" without tiers).

        ``"over 272,000 input tokens: 2× input, 1.5× output"`` or ``"2× input, 1.5× output over 272,000"``
        """
        starts = self.tier_starts()
        if not starts:
            return ""
        passed = [s for s in starts if prompt_tokens > s]
        start = passed[-1] if passed else starts[0]
        multiples = []
        for field in ("input", "output"):
            rate = self.get(field)
            price = next((p for s, p in rate.tiers if s == start), None) if rate else None
            if rate is not None and rate.base and price is not None:
                multiples.append(f"{_multiple(price / rate.base)} {FIELD_LABELS[field]}")
        what = ", ".join(multiples)
        return f"over {start:,} input tokens: {what}" if passed else f"{what} over {start:,} input tokens"

    def tier_note(self) -> str:
        """How the tiers bill, in one sentence ("" without tiers).

        ``"Prompts over 272,000 input tokens: the whole request at 2× the input and 1.5× the output price."``
        """
        parts = []
        for start in self.tier_starts():
            multiples = []
            for field in ("input", "output"):
                rate = self.get(field)
                if rate is None or not rate.base:
                    continue
                price = next((p for s, p in rate.tiers if s == start), None)
                if price is not None:
                    multiples.append(f"{_multiple(price / rate.base)} the {FIELD_LABELS[field]}")
            if multiples:
                parts.append(
                    f"Prompts over {start:,} input tokens: the whole request at {' and '.join(multiples)} price."
                )
        return " ".join(parts)


def _multiple(ratio: Decimal) -> str:
    """``_multiple(Decimal("1.5")) -> "1.5×"``; ``Decimal("2.00")`` -> "2×"."""
    text = format(ratio.quantize(Decimal("0.01")).normalize(), "f")
    return f"{text}×"


__all__ = ["FIELDS", "FIELD_LABELS", "MILLION", "Rate", "Rates", "exact", "money_text", "round_money"]
