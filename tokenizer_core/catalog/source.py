"""The price source: the data bundled in the pinned `genai-prices` package, read offline.

`genai-prices` (PyPI, MIT, by the Pydantic team) ships its price data inside the package
(``genai_prices.data.providers``: providers, their models, price history by start date, tiers,
cache rates, batch and service-tier variants, context windows, notes). It can also replace that
data with a download (``genai_prices.UpdatePrices``, a background thread that fetches a JSON file
from GitHub, and anything calling ``set_custom_snapshot``). This module reads only the bundled
list and never touches the updater, so the app's prices are exactly those of the pinned version,
whatever else runs in the process: updating the pin is how the prices are updated.

A price is named by a reference ``"<provider id>:<model id>"`` as the source spells them
(``"openai:gpt-5.5"``, ``"aws:meta.llama3-1-8b-instruct-v1:0"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from .rates import Rate, Rates

if TYPE_CHECKING:
    from genai_prices.types import ModelInfo, Provider, TieredPrices

SOURCE_NAME = "genai-prices"
SOURCE_URL = "https://github.com/pydantic/genai-prices"


@dataclass(frozen=True, slots=True)
class RateOption:
    """A way of buying the same model: the standard rate, the batch API, a service tier..."""

    id: str
    label: str
    help: str
    context: Mapping[str, str] | None = None  # the source's price context for it


RATE_OPTIONS: dict[str, RateOption] = {
    o.id: o
    for o in (
        RateOption("standard", "Standard", "The list price of an ordinary request."),
        RateOption(
            "batch", "Batch", "Requests sent through the provider's batch API (answered within hours).",
            {"processing": "batch"},
        ),
        RateOption(
            "flex", "Flex", "A slower, cheaper service tier (OpenAI's flex processing).", {"service_tier": "flex"}
        ),
        RateOption(
            "priority", "Priority", "A faster, dearer service tier (OpenAI's priority processing).",
            {"service_tier": "priority"},
        ),
        RateOption("peak", "Peak hours", "The rate some providers (DeepSeek) charge at busy hours of the day (UTC)."),
    )
}  # fmt: skip

NOON = time(12, 0, tzinfo=UTC)  # the moment of the day a standard price is read at (see rates_on)


def source_label() -> str:
    """The source and its version, for every page that shows a price: ``"genai-prices 0.2.3"``."""
    return f"{SOURCE_NAME} {source_version()}"


def source_version() -> str:
    import genai_prices

    return genai_prices.__version__


@cache
def _providers() -> dict[str, Provider]:
    # The list bundled in the package: never the snapshot that UpdatePrices may have replaced.
    from genai_prices.data import providers

    return {p.id: p for p in providers}


def parse_ref(ref: str) -> tuple[str, str]:
    """``parse_ref("aws:meta.llama3-8b-instruct-v1:0") -> ("aws", "meta.llama3-8b-instruct-v1:0")``."""
    provider, sep, model = ref.partition(":")
    if not sep or not provider or not model:
        raise ValueError(f"a price reference is 'provider:model', not {ref!r}")
    return provider, model


def _lookup(ref: str) -> tuple[Provider, ModelInfo] | None:
    provider_id, model_id = parse_ref(ref)
    provider = _providers().get(provider_id)
    if provider is None:
        return None
    model = next((m for m in provider.models if m.id == model_id), None)
    return None if model is None else (provider, model)


@dataclass(frozen=True, slots=True)
class SourceModel:
    """What the source says about one model, apart from its prices."""

    ref: str
    model_id: str
    name: str
    provider: str
    provider_name: str
    context_window: int | None
    deprecated: bool
    notes: str  # the model's price comments, then the provider's
    pricing_url: str

    @property
    def checked(self) -> str:
        """The latest date the source's notes say a price was verified or checked ("" if none)."""
        dates = [d for d, _ in check_dates(self.notes)]
        return max(dates) if dates else ""


_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z])")
_CHECKED = re.compile(r"\b(?:verified|checked|confirmed)\b", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b(20\d\d-[01]\d-[0-3]\d)\b")


@lru_cache(maxsize=512)
def check_dates(notes: str) -> tuple[tuple[str, str], ...]:
    """(ISO date, the sentence) for each date the notes give as a check of a price.

    ``check_dates("Batch rates verified on 2026-10-14 at x. Other.") -> (("2026-10-14", "Batch rates verified on 2026-10-14 at x."),)``
    """
    out: list[tuple[str, str]] = []
    for sentence in _SENTENCE_END.split(notes):
        if _CHECKED.search(sentence):
            out.extend((d, sentence.strip()) for d in _ISO_DATE.findall(sentence))
    return tuple(out)


@lru_cache(maxsize=4096)
def source_model(ref: str) -> SourceModel | None:
    """The source's entry for a reference, or None when the pinned version has no such model."""
    found = _lookup(ref)
    if found is None:
        return None
    provider, model = found
    notes = " ".join(filter(None, (model.price_comments, provider.price_comments)))
    return SourceModel(
        ref, model.id, model.name or model.id, provider.id, provider.name, model.context_window,
        bool(model.deprecated), notes, (provider.pricing_urls or [""])[0],
    )  # fmt: skip


def _moment(on: date, at: time = NOON) -> datetime:
    return datetime.combine(on, at)


def _rate(value: Decimal | TieredPrices | None) -> Rate | None:
    if value is None:
        return None
    if isinstance(value, Decimal):
        return Rate(value)
    return Rate(value.base, tuple((t.start, t.price) for t in value.tiers))


def _peak_start(model: ModelInfo, on: date) -> time | None:
    """The start of a time-of-day price window that is not the price at noon, if the model has one."""
    from genai_prices.types import TimeOfDateConstraint

    if not isinstance(model.prices, list):
        return None
    for conditional in model.prices:
        c = conditional.constraint
        if isinstance(c, TimeOfDateConstraint) and not c.active(_moment(on)):
            return c.start_time
    return None


@lru_cache(maxsize=4096)
def rate_options(ref: str, *, on: date) -> tuple[str, ...]:
    """Ids of :data:`RATE_OPTIONS` the source has for this model on this date, "standard" first."""
    found = _lookup(ref)
    if found is None:
        return ()
    _, model = found
    out = ["standard"]
    for option in RATE_OPTIONS.values():
        if option.context and any(
            v.when == dict(option.context) and (v.constraint is None or v.constraint.active(_moment(on)))
            for v in model.price_variants or ()
        ):
            out.append(option.id)
    if _peak_start(model, on) is not None:
        out.append("peak")
    return tuple(out)


@lru_cache(maxsize=8192)
def rates_on(ref: str, *, on: date, rate: str = "standard") -> Rates | None:
    """The source's token prices for a model on a date, under a rate option.

    None when the source has no such model or no token price for it (a free model, one billed
    per page or per second). A rate the model does not offer gives its standard prices. Prices
    are read at 12:00 UTC of the date; "peak" reads them at the start of the model's busy hours.
    """
    found = _lookup(ref)
    if found is None:
        return None
    _, model = found
    option = RATE_OPTIONS[rate]
    at = NOON
    if option.id == "peak":
        at = _peak_start(model, on) or NOON
    prices = model.get_prices(_moment(on, at), dict(option.context) if option.context else None)
    rates = Rates(
        input=_rate(prices.input_mtok),
        cached_input=_rate(prices.cache_read_mtok),
        output=_rate(prices.output_mtok),
    )
    return None if rates.input is None and rates.output is None else rates


def price_changes(ref: str, *, on: date) -> list[tuple[date, Rates]]:
    """Price changes the source has scheduled after `on` (date, new standard prices)."""
    from genai_prices.types import StartDateConstraint

    found = _lookup(ref)
    if found is None or not isinstance(found[1].prices, list):
        return []
    out = []
    for conditional in found[1].prices:
        c = conditional.constraint
        if isinstance(c, StartDateConstraint) and c.start_date > on:
            rates = rates_on(ref, on=c.start_date)
            if rates is not None:
                out.append((c.start_date, rates))
    return out


def peak_hours(ref: str, *, on: date) -> list[tuple[time, time]]:
    """The busy hours (UTC) at which the model costs more, where the source has them."""
    from genai_prices.types import TimeOfDateConstraint

    found = _lookup(ref)
    if found is None or not isinstance(found[1].prices, list):
        return []
    return [
        (c.start_time, c.end_time)
        for p in found[1].prices
        if isinstance(c := p.constraint, TimeOfDateConstraint) and not c.active(_moment(on))
    ]


def source_models(providers: tuple[str, ...], *, on: date) -> Iterator[SourceModel]:
    """Every model of these providers that has an input and an output price per token on `on`
    and is not marked deprecated (the language models a catalog can use)."""
    for provider_id in providers:
        provider = _providers().get(provider_id)
        for model in provider.models if provider else ():
            ref = f"{provider_id}:{model.id}"
            rates = rates_on(ref, on=on)
            entry = source_model(ref)
            if rates and rates.input and rates.output and entry and not entry.deprecated:
                yield entry


__all__ = [
    "RATE_OPTIONS", "SOURCE_NAME", "SOURCE_URL", "RateOption", "SourceModel", "check_dates", "parse_ref",
    "peak_hours", "price_changes", "rate_options", "rates_on", "source_label", "source_model", "source_models",
    "source_version",
]  # fmt: skip
