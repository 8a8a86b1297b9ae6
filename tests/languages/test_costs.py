"""What a month of requests costs in each language: the formula by hand, tiers per language,
models without a price or a tokenizer, and the CSV."""

from __future__ import annotations

import csv
import doctest
import io
import math
from datetime import date
from decimal import Decimal as D

import pytest

from tests.conftest import builtin
from tokenizer_core import InputError, PriceError, language_table
from tokenizer_core.catalog.entries import MODELS
from tokenizer_core.catalog.prices import (
    ModelPrice,
    model_price,
)
from tokenizer_core.catalog.rates import Rate, Rates
from tokenizer_core.languages import costs as workload
from tokenizer_core.languages import load_parallel_sample
from tokenizer_core.languages.costs import (
    COST_DEFINITION,
    Workload,
    cost_rows_csv,
    cost_table,
    monthly_cost,
    request_cost,
    request_tokens,
)

DAY = date(2026, 12, 1)  # prices are read for a date: the tests fix one


def test_module_example():
    assert doctest.testmod(workload).failed == 0


def test_a_model_without_a_price_says_so_and_is_never_costed():
    for mid in ("gpt-2", "mistral-small-2409"):
        p = model_price(MODELS[mid], on=DAY)
        assert p.rates is None and not p.priced and p.source == ""
        assert {p.shown(f) for f in ("input", "cached_input", "output")} == {"no price in the source"}
    rows = language_table(load_parallel_sample()[:2], [builtin("r50k_base")], base="en")
    costs, skipped = cost_table(rows, [model_price(MODELS["gpt-2"], on=DAY)], Workload(10, 10, 10))
    assert costs == [] and skipped == [
        "GPT-2: no price in the source; type its prices in the table to cost it."
    ]
    claude = model_price(MODELS["claude-sonnet-4-5"], on=DAY)
    assert claude.tokenizer_id is None and claude.priced
    costs, skipped = cost_table(rows, [claude], Workload(10, 10, 10))
    assert costs == [] and "no public tokenizer" in skipped[0]


def test_workload_formula_by_hand():
    p = ModelPrice("m", "p", "o200k_base", Rates(input=Rate(D(2)), output=Rate(D(8))))
    w = Workload(requests_per_month=1000, input_tokens=800, output_tokens=200)
    # English: 1000 x (800 x 2 + 200 x 8) / 1e6 = 3.2 USD; at premium 2 it doubles
    assert monthly_cost(p, w, 1.0) == D("3.2") and monthly_cost(p, w, 2.0) == D("6.4")
    assert request_cost(p, w, 1.0) == D("0.0032")
    half = Workload(1, 1000, 100, translated_share=0.5)
    assert request_tokens(half, 3.0) == (2000.0, 300.0)
    assert request_tokens(Workload(1, 1000, 100, translated_share=0.0), 3.0) == (1000.0, 300.0)
    assert "÷ 1,000,000" in COST_DEFINITION and "premium" in COST_DEFINITION and "tier" in COST_DEFINITION


def test_a_tier_applies_by_the_input_of_the_request_in_each_language():
    p = model_price(MODELS["gpt-5.5"], on=DAY)
    w = Workload(1, 200_000, 1_000)
    below, above = request_cost(p, w, 1.0), request_cost(p, w, 1.5)  # 200,000 vs 300,000 input tokens
    assert below == D(200_000 * 5 + 1_000 * 30) / 1_000_000
    assert above == D(300_000 * 10 + 1_500 * 45) / 1_000_000


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"requests_per_month": -1, "input_tokens": 1, "output_tokens": 1}, "requests per month must be"),
        ({"requests_per_month": 1, "input_tokens": float("inf"), "output_tokens": 1}, "input tokens must be"),
        ({"requests_per_month": 1, "input_tokens": 1, "output_tokens": float("nan")}, "output tokens must be"),
        ({"requests_per_month": 1, "input_tokens": 1, "output_tokens": 1, "translated_share": 1.5}, "between 0 and 1"),
    ],
)  # fmt: skip
def test_absurd_workloads_are_refused_with_a_message(kwargs, match):
    with pytest.raises(PriceError, match=match):
        Workload(**kwargs)
    assert issubclass(PriceError, InputError)


def test_cost_table_uses_each_models_own_tokenizer_premium():
    sample = [l for l in load_parallel_sample() if l.code in ("en", "hi", "zh")]
    rows = language_table(sample, [builtin("o200k_base"), builtin("cl100k_base")], base="en")
    flat = Rates(input=Rate(D(1)), output=Rate(D(4)))
    prices = [ModelPrice("A", "x", "o200k_base", flat), ModelPrice("B", "x", "cl100k_base", flat),
              ModelPrice("C", "x", "tekken", flat)]  # fmt: skip
    costs, skipped = cost_table(rows, prices, Workload(10_000, 1_000, 250))
    assert skipped == ["C: its tokenizer could not be measured."]
    assert len(costs) == 6
    hi_a = next(c for c in costs if c.model == "A" and c.code == "hi")
    hi_b = next(c for c in costs if c.model == "B" and c.code == "hi")
    o200 = builtin("o200k_base")
    p_a = o200.count(next(l.text for l in sample if l.code == "hi")) / o200.count(sample[0].text)
    assert hi_a.premium == p_a
    assert math.isclose(hi_a.monthly_cost, 10_000 * (1_000 * p_a * 1.0 + 250 * p_a * 4.0) / 1e6)
    assert hi_a.monthly_cost < hi_b.monthly_cost  # same prices: Hindi is cheaper on o200k
    en_a = next(c for c in costs if c.model == "A" and c.code == "en")
    assert en_a.premium == 1.0 and en_a.extra_vs_base == 0.0
    assert math.isclose(hi_a.extra_vs_base, hi_a.monthly_cost - en_a.monthly_cost)


def test_cost_csv_has_one_row_per_model_and_language():
    rows = language_table(load_parallel_sample()[:3], [builtin("o200k_base")], base="en")
    prices = [model_price(MODELS[m], on=DAY) for m in ("gpt-5.5", "gpt-4o", "gpt-4o-mini")]
    costs, _ = cost_table(rows, prices, Workload(100, 100, 10))
    out = list(csv.DictReader(io.StringIO(cost_rows_csv(costs))))
    assert len(out) == 3 * 3
    assert set(out[0]) >= {"model", "language", "premium", "monthly_cost", "as_of"}
