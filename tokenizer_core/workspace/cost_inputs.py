"""The cost inputs of the prompt workspace (expected output tokens, cached input tokens, number
of requests, the rate option), checked where a share link or a workspace file brings them in.

Each is a whole number in a range the page's own inputs allow: a JSON integer (not true/false,
not 3.5) in a workspace file, a string of digits in a link. What fails is left out with a note
naming it, and the page keeps its own value.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog.source import RATE_OPTIONS
from .limits import shown


@dataclass(frozen=True)
class CostInputs:
    """``CostInputs().requests -> 1000``: the page's defaults."""

    output_tokens: int = 300
    cached_tokens: int = 0
    requests: int = 1_000
    rate: str = "standard"


# field -> (smallest, largest, words for a message, its short name in a link)
LIMITS = {
    "output_tokens": (0, 10**7, "expected output tokens per request", "out"),
    "cached_tokens": (0, 10**8, "input tokens read from the cache", "cached"),
    "requests": (1, 10**12, "number of requests", "req"),
}
COUNT_FIELDS = tuple(LIMITS)


def _count(value: object, field: str) -> tuple[int | None, str | None]:
    low, high, words, _ = LIMITS[field]
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value, None
    return (
        None,
        f"the {words} left out: it must be a whole number from {low:,} to {high:,}, not {shown(value)}",
    )


def read_cost_inputs(value: object) -> tuple[dict[str, int | str], list[str]]:
    """The cost inputs of a workspace file's ``"costs"`` object, and a note per value left out.

    ``read_cost_inputs({"requests": 20, "output_tokens": True}) -> ({"requests": 20}, [note])``
    """
    if not isinstance(value, dict):
        return {}, [f'"costs" left out: it must be an object of numbers, not {shown(value)}']
    found: dict[str, int | str] = {}
    notes = []
    for field in COUNT_FIELDS:
        if field in value:
            number, note = _count(value[field], field)
            if number is not None:
                found[field] = number
            if note:
                notes.append(note)
    return found, notes


def costs_to_json(costs: CostInputs) -> dict[str, int]:
    """``costs_to_json(CostInputs()) -> {"output_tokens": 300, "cached_tokens": 0, "requests": 1000}``
    (the rate is kept with the prices)."""
    return {f: getattr(costs, f) for f in COUNT_FIELDS}


def costs_to_params(costs: CostInputs) -> dict[str, str]:
    """Link parameters for the inputs that differ from the page's defaults (a link stays short):
    ``costs_to_params(CostInputs(requests=20, rate="batch")) -> {"req": "20", "rate": "batch"}``"""
    default = CostInputs()
    params = {
        LIMITS[f][3]: str(getattr(costs, f)) for f in COUNT_FIELDS if getattr(costs, f) != getattr(default, f)
    }
    if costs.rate != default.rate:
        params["rate"] = costs.rate
    return params


def costs_from_params(one: dict[str, str]) -> tuple[dict[str, int | str], list[str]]:
    """The cost inputs a link carries (parameter -> value), and a warning per bad one.

    ``costs_from_params({"req": "20", "out": "-1"}) -> ({"requests": 20}, [warning])``
    """
    found: dict[str, int | str] = {}
    warnings = []
    for field in COUNT_FIELDS:
        low, high, words, key = LIMITS[field]
        if (text := one.get(key)) is None:
            continue
        ok = text.isascii() and text.isdigit() and len(text) <= len(str(high))
        number = int(text) if ok else None
        if number is not None and low <= number <= high:
            found[field] = number
        else:
            warnings.append(
                f"{words} {shown(text)} in the link is not a whole number from {low:,} to {high:,}"
            )
    if (rate := one.get("rate")) is not None:
        if rate in RATE_OPTIONS:
            found["rate"] = rate
        else:
            warnings.append(f"price rate {shown(rate)} in the link is not one this app offers")
    return found, warnings


__all__ = [
    "COUNT_FIELDS", "LIMITS", "CostInputs", "costs_from_params", "costs_to_json", "costs_to_params",
    "read_cost_inputs",
]  # fmt: skip
