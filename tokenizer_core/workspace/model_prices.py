"""The catalog's models priced from the price source, and the one rule for a model's context window.

>>> from datetime import date
>>> from tokenizer_core.workspace.models import MODELS
>>> p = model_price(MODELS["gpt-5.5"], on=date(2026, 12, 1))
>>> p.provider, p.input_per_million, p.rates.tier_note()
('OpenAI', 5.0, 'Prompts over 272,000 input tokens: the whole request at 2× the input and 1.5× the output price.')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ..pricing.source import rate_options, rates_on, source_label, source_model, source_models
from ..pricing.table import Edits, ModelPrice, PriceTable, apply_edit
from .counting import CountRow
from .models import CATALOG, MAKER_PROVIDERS, Choice, ModelEntry, TokenizerGroup, maker_of, source_entry


def model_window(model: ModelEntry | None) -> int | None:
    """A model's context window: the price source's figure, else the catalog line's, else None."""
    if model is None:
        return None
    entry = source_model(model.price) if model.price else None
    return (entry.context_window if entry else None) or model.window


@dataclass(frozen=True, slots=True)
class Window:
    """The context window a count is measured against, and whose it is."""

    tokens: int
    whose: str  # "GPT-4" / "GPT-5.5, GPT-4o (the smallest)" / "chosen above"

    @property
    def chosen(self) -> bool:
        return self.whose == "chosen above"


def window_for(choices: Sequence[Choice], *, chosen: int) -> Window:
    """The one rule, used by every table: a count is measured against the smallest context window of
    the models it is for; encodings and models without a known window use the window chosen on the page.

    ``window_for(resolve_choices(["gpt-4"]), chosen=128_000) -> Window(8192, "GPT-4")``
    """
    known = [(w, c.name) for c in choices if (w := model_window(c.model))]
    if not known:
        return Window(chosen, "chosen above")
    smallest = min(w for w, _ in known)
    names = [n for w, n in known if w == smallest]
    return Window(smallest, ", ".join(names) + (" (the smallest)" if len(known) > len(names) else ""))


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


def with_windows(
    rows: Sequence[CountRow], groups: Sequence[TokenizerGroup], *, chosen: int
) -> list[CountRow]:
    """Count rows (one per tokenizer) measured against the window the one rule gives each tokenizer's
    models (:func:`window_for`), instead of one window for all."""
    by_tok = {g.tokenizer_id: g.choices for g in groups}
    out = []
    for r in rows:
        w = window_for(by_tok.get(r.tokenizer_id, ()), chosen=chosen).tokens
        out.append(replace(r, context_window=w, context_pct=round(100.0 * r.tokens / w, 3)))
    return out


__all__ = [
    "Window",
    "model_price",
    "model_window",
    "price_table",
    "uncatalogued_models",
    "window_for",
    "with_windows",
]
