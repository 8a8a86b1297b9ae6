"""Price table and workload cost: shipped defaults, validation, the cost formula."""

from __future__ import annotations

import csv
import io
import math
from datetime import date

import pytest

from tests.conftest import builtin
from tokenizer_core import (
    BUILTINS,
    COST_DEFINITION,
    InputError,
    ModelPrice,
    PriceError,
    Workload,
    cost_rows_csv,
    cost_table,
    default_prices,
    language_table,
    load_parallel_sample,
    monthly_cost,
    price_age_days,
    prices_from_records,
    prices_to_records,
)
from tokenizer_core.pricing import parse_date, request_cost, request_tokens

KNOWN = list(BUILTINS)


def test_shipped_prices_are_dated_sourced_and_use_tokenizers_the_app_has():
    table = default_prices()
    assert parse_date(table.as_of) is not None
    assert "check the provider" in table.note.lower() and table.as_of in table.note
    assert len(table.models) >= 5
    for p in table.models:
        assert p.tokenizer_id in BUILTINS, p.model
        assert p.input_per_million > 0 and p.output_per_million >= p.input_per_million
        assert parse_date(p.as_of) is not None and p.source.startswith("https://")
    # which encoding a model counts with (tiktoken's model table; the registry's model lists)
    tok_of = {p.model: p.tokenizer_id for p in table.models}
    assert tok_of["GPT-4o"] == "o200k_base" and tok_of["GPT-4 Turbo"] == "cl100k_base"
    for p in table.models:
        assert any(
            p.model.startswith(m) or m.startswith(p.model) for m in BUILTINS[p.tokenizer_id].info.models
        ), p.model


def test_records_round_trip_and_validation():
    records = prices_to_records(default_prices().models)
    prices, problems = prices_from_records(records, known_tokenizers=KNOWN)
    assert prices == list(default_prices().models) and problems == []

    bad = [
        {"model": "", "provider": "x", "tokenizer_id": "o200k_base", "input_per_million": 1, "output_per_million": 1},
        {"model": "Mystery", "tokenizer_id": "gemma", "input_per_million": 1, "output_per_million": 1},
        {"model": "Neg", "tokenizer_id": "o200k_base", "input_per_million": -1, "output_per_million": 1},
        {"model": "Text", "tokenizer_id": "o200k_base", "input_per_million": "cheap", "output_per_million": 1},
        {"model": "Half", "tokenizer_id": "o200k_base", "input_per_million": 1.0, "output_per_million": float("nan")},
        {"model": "Dollar", "tokenizer_id": "llama3", "input_per_million": "$0.20", "output_per_million": "1,000",
         "as_of": "last week"},
        {"model": "dollar", "tokenizer_id": "llama3", "input_per_million": 1, "output_per_million": 1},
        {"model": None, "provider": None, "tokenizer_id": None, "input_per_million": None, "output_per_million": None},
    ]  # fmt: skip
    prices, problems = prices_from_records(bad, known_tokenizers=KNOWN)
    assert [(p.model, p.input_per_million, p.output_per_million) for p in prices] == [("Dollar", 0.2, 1000.0)]
    joined = "\n".join(problems)
    assert "Row 1 has no model name" in joined
    assert "Mystery: the tokenizer 'gemma' is not one the app has" in joined
    assert "Neg: a price cannot be negative" in joined
    assert "Text: prices must be numbers" in joined
    assert "Half: type both the input and the output price" in joined
    assert "Dollar: 'as of' 'last week' is not a date" in joined
    assert "dollar is listed twice (rows 6 and 7)" in joined
    assert len(problems) == 7


def test_price_age():
    assert price_age_days("2025-08-07", today=date(2025, 8, 17)) == 10
    assert price_age_days("soon", today=date(2025, 8, 17)) is None


def test_workload_formula_by_hand():
    p = ModelPrice("m", "p", "o200k_base", 2.0, 8.0, "2025-08-07")
    w = Workload(requests_per_month=1000, input_tokens=800, output_tokens=200)
    # English: 1000 x (800 x 2 + 200 x 8) / 1e6 = 3.2 USD; at premium 2 it doubles
    assert math.isclose(monthly_cost(p, w, 1.0), 3.2)
    assert math.isclose(monthly_cost(p, w, 2.0), 6.4)
    assert math.isclose(request_cost(p, w, 1.0), 0.0032)
    # a fixed English system prompt: half the input does not scale
    half = Workload(1, 1000, 100, translated_share=0.5)
    assert request_tokens(half, 3.0) == (2000.0, 300.0)
    none = Workload(1, 1000, 100, translated_share=0.0)
    assert request_tokens(none, 3.0) == (1000.0, 300.0)
    assert "÷ 1,000,000" in COST_DEFINITION and "premium" in COST_DEFINITION


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"requests_per_month": -1, "input_tokens": 1, "output_tokens": 1}, "requests per month must be"),
        ({"requests_per_month": 1, "input_tokens": float("inf"), "output_tokens": 1}, "input tokens must be"),
        (
            {"requests_per_month": 1, "input_tokens": 1, "output_tokens": float("nan")},
            "output tokens must be",
        ),
        (
            {"requests_per_month": 1, "input_tokens": 1, "output_tokens": 1, "translated_share": 1.5},
            "between 0 and 1",
        ),
    ],
)
def test_absurd_workloads_are_refused_with_a_message(kwargs, match):
    with pytest.raises(PriceError, match=match):
        Workload(**kwargs)
    assert issubclass(PriceError, InputError)


def test_cost_table_uses_each_models_own_tokenizer_premium():
    sample = [l for l in load_parallel_sample() if l.code in ("en", "hi", "zh")]
    toks = [builtin("o200k_base"), builtin("cl100k_base")]
    rows = language_table(sample, toks, base="en")
    prices = [
        ModelPrice("A", "x", "o200k_base", 1.0, 4.0, "2025-08-07"),
        ModelPrice("B", "x", "cl100k_base", 1.0, 4.0, "2025-08-07"),
        ModelPrice("C", "x", "tekken", 1.0, 4.0, "2025-08-07"),
    ]
    w = Workload(10_000, 1_000, 250)
    costs, skipped = cost_table(rows, prices, w)
    assert skipped == ["C: its tokenizer tekken could not be measured."]
    assert len(costs) == 6
    hi_a = next(c for c in costs if c.model == "A" and c.code == "hi")
    hi_b = next(c for c in costs if c.model == "B" and c.code == "hi")
    o200 = builtin("o200k_base")
    en_text, hi_text = sample[0].text, next(l.text for l in sample if l.code == "hi")
    p_a = o200.count(hi_text) / o200.count(en_text)
    assert hi_a.premium == p_a
    assert math.isclose(hi_a.monthly_cost, 10_000 * (1_000 * p_a * 1.0 + 250 * p_a * 4.0) / 1e6)
    # same prices, so the cost ratio is the tokenizer's premium ratio: Hindi is cheaper on o200k
    assert hi_a.monthly_cost < hi_b.monthly_cost
    en_a = next(c for c in costs if c.model == "A" and c.code == "en")
    assert en_a.premium == 1.0 and en_a.extra_vs_base == 0.0
    assert math.isclose(hi_a.extra_vs_base, hi_a.monthly_cost - en_a.monthly_cost)


def test_zero_workload_costs_nothing_and_free_models_cost_nothing():
    rows = language_table(load_parallel_sample()[:2], [builtin("o200k_base")], base="en")
    free = ModelPrice("Free", "x", "o200k_base", 0.0, 0.0, "")
    costs, _ = cost_table(rows, [free], Workload(1e9, 1e6, 1e6))
    assert all(c.monthly_cost == 0 for c in costs)
    paid = ModelPrice("Paid", "x", "o200k_base", 5.0, 5.0, "")
    costs, _ = cost_table(rows, [paid], Workload(0, 1000, 1000))
    assert all(c.monthly_cost == 0 for c in costs)


def test_cost_csv_has_one_row_per_model_and_language():
    rows = language_table(load_parallel_sample()[:3], [builtin("o200k_base")], base="en")
    costs, _ = cost_table(rows, list(default_prices().models), Workload(100, 100, 10))
    out = list(csv.DictReader(io.StringIO(cost_rows_csv(costs))))
    n_o200k = sum(1 for p in default_prices().models if p.tokenizer_id == "o200k_base")
    assert len(out) == 3 * n_o200k
    assert set(out[0]) >= {"model", "language", "premium", "monthly_cost", "as_of"}
