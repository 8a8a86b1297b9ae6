"""Charts of the language cost page, tested as Vega-Lite specs without Streamlit."""

from __future__ import annotations

import pytest

from tests.conftest import builtin
from tokenizer_core import language_table
from tokenizer_core.languages import load_parallel_sample
from tokenizer_core.languages.charts import cost_chart, premium_heatmap, tokens_chart
from tokenizer_core.languages.costs import Workload, cost_table


def _data(spec: dict) -> list[dict]:
    (values,) = spec["datasets"].values()
    return values


@pytest.fixture(scope="module")
def rows():
    langs = [l for l in load_parallel_sample() if l.code in ("en", "es", "hi", "zh", "my")]
    return language_table(langs, [builtin("o200k_base"), builtin("cl100k_base")], base="en")


def catalog_prices(*names: str):
    """The catalog's prices of these models (by name), for a fixed day."""
    from datetime import date

    from tokenizer_core.catalog.entries import CATALOG
    from tokenizer_core.catalog.prices import model_price

    return [model_price(m, on=date(2026, 12, 1)) for m in CATALOG if m.name in names]


def test_heatmap_holds_every_cell_with_its_premium(rows):
    spec = premium_heatmap(rows, base_name="English").to_dict()
    data = _data(spec)
    assert len(data) == 10
    cells = {(d["language"], d["tokenizer"]): d for d in data}
    for r in rows:
        cell = cells[r.language, r.tokenizer]
        assert cell["premium"] == r.premium and cell["tokens"] == r.tokens
        assert cell["label"] == f"{r.premium:.2f}"
    assert cells["English", "cl100k_base"]["label"] == "1.00"
    rect, text = spec["layer"]
    assert rect["mark"]["type"] == "rect" and text["mark"]["type"] == "text"
    assert rect["encoding"]["color"]["scale"]["domainMid"] == 1
    assert "English" in spec["title"]["text"]
    # languages from cheapest to most expensive
    order = rect["encoding"]["y"]["sort"]
    assert order[0] == "English" and order[-1] == "Burmese"


def test_heatmap_changes_with_the_base(rows):
    langs = [l for l in load_parallel_sample() if l.code in ("en", "es", "hi", "zh", "my")]
    hi_rows = language_table(langs, [builtin("o200k_base"), builtin("cl100k_base")], base="hi")
    data = {
        (d["language"], d["tokenizer"]): d
        for d in _data(premium_heatmap(hi_rows, base_name="Hindi").to_dict())
    }
    assert data["Hindi", "cl100k_base"]["label"] == "1.00"
    assert data["English", "cl100k_base"]["premium"] < 1


def test_tokens_chart_groups_bars_by_tokenizer(rows):
    spec = tokens_chart(rows).to_dict()
    assert spec["mark"]["type"] == "bar"
    assert spec["encoding"]["yOffset"]["field"] == "tokenizer"
    assert sorted((d["language"], d["tokenizer"], d["tokens"]) for d in _data(spec)) == sorted(
        (r.language, r.tokenizer, r.tokens) for r in rows
    )


def test_cost_chart_one_bar_per_model_and_language(rows):
    prices = catalog_prices("GPT-4o", "GPT-4 Turbo")
    costs, _ = cost_table(rows, prices, Workload(1000, 1000, 100))
    spec = cost_chart(costs, workload_label="1,000 requests").to_dict()
    data = _data(spec)
    assert len(data) == 10
    assert {d["model"] for d in data} == {"GPT-4o", "GPT-4 Turbo"}
    assert spec["encoding"]["yOffset"]["field"] == "model"
    assert spec["title"]["subtitle"] == "1,000 requests"
    en = [d for d in data if d["language"] == "English"]
    assert all(d["extra_vs_base"] == 0 for d in en)


def test_charts_accept_a_single_language():
    langs = load_parallel_sample()[:1]
    rows = language_table(langs, [builtin("o200k_base")], base="en")
    premium_heatmap(rows, base_name="English").to_dict()
    tokens_chart(rows).to_dict()
    cost_chart([]).to_dict()


def test_heatmap_text_follows_the_cell_and_its_tooltip_names_the_premium(rows):
    spec = premium_heatmap(rows, base_name="English").to_dict()
    rect, text = spec["layer"]
    # the number's colour is chosen from the colour the cell got from the scale
    assert "luminance(scale('color', datum.premium))" in text["encoding"]["color"]["condition"]["test"]
    for layer in (rect, text):  # hovering a number shows what hovering its cell shows
        fields = [t["field"] for t in layer["encoding"]["tooltip"]]
        assert "premium" in fields and "label" not in fields
    x_axis = text["encoding"]["x"]["axis"]
    assert x_axis["labelAngle"] and x_axis["labelOverlap"] is False and x_axis["labelLimit"] == 0
    assert "width" not in spec  # the container's width: it fits a phone
