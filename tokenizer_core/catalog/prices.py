"""The app's price of a model: the source's prices with the user's edits on top, and the editor's rows.

:func:`model_price` prices a catalog line from the price source on a date; :func:`price_table`
prices several:

    >>> from datetime import date
    >>> from tokenizer_core.catalog.entries import MODELS
    >>> p = model_price(MODELS["gpt-5.5"], on=date(2026, 12, 1))
    >>> p.provider, p.input_per_million, p.rates.tier_note()
    ('OpenAI', 5.0, 'Prompts over 272,000 input tokens: the whole request at 2× the input and 1.5× the output price.')

An edit replaces a price's base (USD per million tokens) for one model under one rate option;
a tier keeps its ratio to the base (edit GPT-5.5's input from $5 to $4 and prompts over 272K
tokens cost $8, twice the edited price, as the source bills twice the base). The source's own
value stays beside an edited one, so every page can show both:

    >>> src = Rates(input=Rate(Decimal(5)), output=Rate(Decimal(30)))
    >>> p = apply_edit(ModelPrice("GPT-5.5", "OpenAI", "o200k_base", src, src), {"input": Decimal(4)})
    >>> p.edited, p.input_per_million, p.source_rates.input.base
    (('input',), 4.0, Decimal('5'))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation

from ..tokenizers.textio import InputError
from .entries import CATALOG, MAKER_PROVIDERS, ModelEntry, maker_of, source_entry
from .rates import FIELD_LABELS, FIELDS, Rate, Rates, exact, money_text
from .source import rate_options, rates_on, source_label, source_model, source_models
from .windows import model_window

PRICE_FIELDS = FIELDS  # the fields a user can edit: input, cached input, output (USD per million)
MAX_PRICE = Decimal(1_000_000)  # per million tokens: far above any list price, catches typos of units
PRICE_PLACES = 9  # decimal places of a price per million tokens: a billionth of a dollar

Edits = dict[tuple[str, str], dict[str, Decimal]]  # (model id, rate option) -> field -> USD per million


class PriceError(InputError):
    """A price, an edit or a workload the app cannot use; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """What one model costs in the app: the rates used, the source's rates, and where they come from."""

    model: str
    provider: str  # who sells it at this price ("OpenAI", "AWS Bedrock")
    tokenizer_id: str | None  # None: no public tokenizer (the user enters a count)
    rates: Rates | None  # None: no price (the source has none and the user typed none)
    source_rates: Rates | None = None
    edited: tuple[str, ...] = ()  # the fields the user changed
    rate: str = "standard"
    checked: str = ""  # the date the source's notes say the price was checked ("" when they give none)
    source: str = ""  # "genai-prices 0.2.3 (openai:gpt-5.5)", or "" when the source has no price
    model_id: str = ""
    context_window: int | None = None
    ref: str = ""  # the price source's reference for the model ("openai:gpt-5.5")

    def per_million(self, field: str) -> float | None:
        rate = self.rates.get(field) if self.rates else None
        return None if rate is None else float(rate.base)

    @property
    def input_per_million(self) -> float | None:
        return self.per_million("input")

    @property
    def output_per_million(self) -> float | None:
        return self.per_million("output")

    @property
    def as_of(self) -> str:
        return self.checked

    @property
    def priced(self) -> bool:
        """Whether the model has an input price (an embedding model has no output price: it writes no tokens)."""
        return self.rates is not None and self.rates.input is not None

    def shown(self, field: str) -> str:
        """A field for people: ``"$4 (edited; source $5)"``, ``"$5"``, ``"no price in the source"``."""
        rate = self.rates.get(field) if self.rates else None
        src = self.source_rates.get(field) if self.source_rates else None
        if field in self.edited:
            was = money_text(src.base) if src else "no price"
            return f"{money_text(rate.base) if rate else 'no price'} (edited; source {was})"
        if rate is None:
            return "no price in the source"
        return money_text(rate.base)


@dataclass(frozen=True, slots=True)
class PriceTable:
    """The prices a page uses, with the source they come from."""

    source: str
    prices: tuple[ModelPrice, ...]

    @property
    def edited(self) -> bool:
        return any(p.edited for p in self.prices)


def apply_edit(price: ModelPrice, edit: Mapping[str, Decimal | None]) -> ModelPrice:
    """The price with the user's values in place of the source's (``None``: back to the source)."""
    rates = price.source_rates or Rates()
    edited = []
    for field in FIELDS:
        if field not in edit or edit[field] is None:
            continue
        src = rates.get(field)
        if src is not None and src.base == edit[field]:
            continue
        rates = rates.with_base(field, edit[field])
        edited.append(field)
    if not edited:
        return replace(price, rates=price.source_rates, edited=())
    return replace(price, rates=rates, edited=tuple(edited))


def price_age_days(as_of: str, *, today: date) -> int | None:
    """Days since a date: ``price_age_days("2026-10-14", today=date(2026, 10, 24)) -> 10``."""
    try:
        return (today - date.fromisoformat(as_of.strip()[:10])).days
    except ValueError:
        return None


def _number(value: object) -> Decimal | None:
    """An editor cell as a price: ``_number("$2.50") -> Decimal('2.5')``; empty -> None. Raises ValueError."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(value)
        return exact(value)
    text = str(value).strip().replace("$", "").replace(",", "")
    if not text:
        return None
    try:
        number = Decimal(text)
    except InvalidOperation as exc:
        raise ValueError(text) from exc
    if not number.is_finite():
        raise ValueError(text)
    return number


def _shown(value: object) -> str:
    """A bad cell for a message, short whatever it holds: ``_shown("abc") -> "'abc'"``."""
    if isinstance(value, str):
        return repr(value[:40] + "…" if len(value) > 40 else value)
    if isinstance(value, (int, float, Decimal)) and len(text := str(value)) <= 40:
        return text
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else "that value"


def check_price(model: str, field: str, value: object) -> Decimal | None:
    """A typed price, checked; raises PriceError saying how to fix it. Empty -> None (the source's)."""
    try:
        number = _number(value)
    except ValueError:
        raise PriceError(
            f"{model}: the {FIELD_LABELS[field]} price must be a number of US dollars per million tokens, "
            f"e.g. 2.5, not {_shown(value)}."
        ) from None
    if number is None:
        return None
    # compared before anything prints it: "1e999999" is a million digits, "1e1000000" cannot be printed
    short = len(number.as_tuple().digits) <= 24 and abs(number.adjusted()) <= 15  # safe to print
    if number < 0:
        typed = f"{FIELD_LABELS[field]} {number}" if short else f"the {FIELD_LABELS[field]} price"
        raise PriceError(f"{model}: a price cannot be negative ({typed}).")
    if number > MAX_PRICE:
        typed = (
            f"{money_text(number)} per million"
            if short
            else "a price with a huge number of digits per million"
        )
        raise PriceError(
            f"{model}: {typed} {FIELD_LABELS[field]} tokens is more than "
            f"{money_text(MAX_PRICE)}: type the price per million tokens, not per token."
        )
    # normalize() rounds to 28 digits: a longer number is refused before it can pass as a round one
    digits = number.as_tuple().digits
    if len(digits) > 24 or number.normalize().as_tuple().exponent < -PRICE_PLACES:  # type: ignore[operator]
        raise PriceError(
            f"{model}: the {FIELD_LABELS[field]} price has more than {PRICE_PLACES} decimal places; "
            "round it (US dollars per million tokens, e.g. 0.075)."
        )
    return number


def prices_to_records(prices: Iterable[ModelPrice]) -> list[dict]:
    """Rows for the price editor: the model, its current prices (floats, None when it has none)."""
    return [
        {"model_id": p.model_id, "model": p.model, "provider": p.provider,
         **{f: p.per_million(f) for f in FIELDS}}
        for p in prices
    ]  # fmt: skip


def prices_from_records(
    records: Iterable[Mapping[str, object]], *, prices: Sequence[ModelPrice]
) -> tuple[Edits, list[str]]:
    """The edits the editor's rows make to `prices` (matched by model id), and a message per bad cell.

    A cell equal to the source's price, or emptied, is no edit. A bad cell is skipped (the model
    keeps its earlier price) and reported.
    """
    by_id = {p.model_id: p for p in prices}
    edits: Edits = {}
    problems: list[str] = []
    for rec in records:
        price = by_id.get(str(rec.get("model_id") or ""))
        if price is None:
            continue
        values: dict[str, Decimal] = {}
        for field in FIELDS:
            try:
                number = check_price(price.model, field, rec.get(field))
            except PriceError as exc:
                problems.append(str(exc))
                if field in price.edited and price.rates and (r := price.rates.get(field)):
                    values[field] = r.base
                continue
            src = price.source_rates.get(field) if price.source_rates else None
            if number is not None and (src is None or number != src.base):
                values[field] = number
        if values:
            edits[(price.model_id, price.rate)] = values
    return edits, problems


def edits_to_json(edits: Mapping[tuple[str, str], Mapping[str, Decimal]]) -> list[dict]:
    """Edits as JSON-ready records (for the workspace file), prices as decimal strings."""
    return [
        {"model": model_id, "rate": rate, **{f: str(v) for f, v in values.items()}}
        for (model_id, rate), values in sorted(edits.items())
    ]


def edits_from_json(value: object, *, where: str = "prices") -> Edits:
    """Edits from a workspace file's records; raises PriceError saying what is wrong and where."""
    if not isinstance(value, list):
        raise PriceError(f'{where}: "edits" must be a list of {{"model": ..., "rate": ..., "input": ...}}')
    edits: Edits = {}
    for n, rec in enumerate(value, start=1):
        if not isinstance(rec, dict) or not isinstance(rec.get("model"), str) or not rec["model"]:
            raise PriceError(f'{where}, edit {n}: expected an object with a "model" name')
        rate = rec.get("rate", "standard")
        if not isinstance(rate, str) or not rate:
            raise PriceError(f'{where}, edit {n}: "rate" must be text such as "standard" or "batch"')
        unknown = set(rec) - {"model", "rate", *FIELDS}
        if unknown:
            raise PriceError(
                f"{where}, edit {n}: unknown field {sorted(unknown)[0]!r}; use {', '.join(FIELDS)}"
            )
        values: dict[str, Decimal] = {}
        for field in FIELDS:
            if field in rec and isinstance(rec[field], bool):
                raise PriceError(f"{where}, edit {n}: {field} must be a number")
            number = check_price(rec["model"], field, rec.get(field))
            if number is not None:
                values[field] = number
        if values:
            edits[(rec["model"], rate)] = values
    return edits


def edit_summary(price: ModelPrice) -> str:
    """One line on what the user changed: ``"GPT-5.5: input $4 (source $5)"`` ("" when nothing)."""
    if not price.edited:
        return ""
    parts = []
    for field in price.edited:
        rate = price.rates.get(field) if price.rates else None
        src = price.source_rates.get(field) if price.source_rates else None
        parts.append(
            f"{FIELD_LABELS[field]} {money_text(rate.base if rate else None)} "
            f"(source {money_text(src.base) if src else 'has no price'})"
        )
    return f"{price.model}: " + ", ".join(parts)


def model_price(
    model: ModelEntry, *, on: date, rate: str = "standard", edits: Mapping[tuple[str, str], Mapping] | None = None,
    tokenizer_id: str | None = None,
) -> ModelPrice:  # fmt: skip
    """A model's price on a date under a rate option: the source's, with the user's edit on top.

    A rate the model does not offer gives its standard price (``ModelPrice.rate`` says which).
    `tokenizer_id` overrides the catalog's (a tokenizer the user chose for a source-only model).
    """
    entry = source_model(model.price) if model.price else None
    offered = rate_options(model.price, on=on) if model.price else []
    used = rate if rate in offered else "standard"
    rates = rates_on(model.price, on=on, rate=used) if model.price else None
    price = ModelPrice(
        model=model.name,
        provider=entry.provider_name if entry else model.maker,
        tokenizer_id=tokenizer_id if tokenizer_id is not None else model.tokenizer_id,
        rates=rates,
        source_rates=rates,
        rate=used,
        checked=entry.checked if entry else "",
        source=f"{source_label()} ({model.price})" if rates else "",
        model_id=model.id,
        context_window=model_window(model),
        ref=model.price or "",
    )
    edit = (edits or {}).get((model.id, used))
    return apply_edit(price, edit) if edit else price


def price_table(
    models: Iterable[ModelEntry], *, on: date, rate: str = "standard", edits: Edits | None = None,
    tokenizers: Mapping[str, str] | None = None,
) -> PriceTable:  # fmt: skip
    """The prices of these models (in order, each once), with the source's name and version."""
    chosen = tokenizers or {}
    seen = dict.fromkeys(models)
    return PriceTable(
        source_label(),
        tuple(model_price(m, on=on, rate=rate, edits=edits, tokenizer_id=chosen.get(m.id)) for m in seen),
    )


def uncatalogued_models(*, on: date, providers: tuple[str, ...] = MAKER_PROVIDERS) -> dict[str, ModelEntry]:
    """Models the source sells from these makers and the catalog does not price, as picker entries
    keyed by their ``"src:..."`` id (a pin update that adds a model adds it here)."""
    priced = {m.price for m in CATALOG if m.price}
    return {
        (e := source_entry(s.ref, name=s.name, maker=maker_of(s.name, s.provider_name))).id: e
        for s in source_models(providers, on=on)
        if s.ref not in priced
    }


__all__ = [
    "MAX_PRICE", "PRICE_FIELDS", "Edits", "ModelPrice", "PriceError", "PriceTable", "Rate", "apply_edit",
    "check_price", "edit_summary", "edits_from_json", "edits_to_json", "model_price", "price_age_days", "price_table",
    "prices_from_records", "prices_to_records", "uncatalogued_models",
]  # fmt: skip
