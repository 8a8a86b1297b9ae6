"""One colour per tokenizer id on every chart of every page."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, builtin
from tokenizer_core import BUILTINS, count_table, language_table
from tokenizer_core.identifiers import (
    GreedyTokenizer,
    analyse_identifiers,
    extract_identifiers,
    layout_costs,
    load_code_file,
    rewrite_costs,
    style_summary,
)
from tokenizer_core.identifiers.charts import (
    indentation_chart,
    layout_breakdown_chart,
    rewrite_chart,
    style_tokens_chart,
    top_identifiers_chart,
)
from tokenizer_core.languages import load_parallel_sample
from tokenizer_core.languages.charts import cost_chart, model_colours, tokens_chart
from tokenizer_core.languages.costs import Workload, cost_table
from tokenizer_core.tokenizers.colours import (
    PALETTE,
    bottom_legend_px,
    colour_scale,
    lighter,
    tokenizer_hex,
    tokenizer_hexes,
)
from tokenizer_core.workspace.charts import token_count_chart


def catalog_prices(*names: str):
    """The catalog's prices of these models (by name), for a fixed day."""
    from datetime import date

    from tokenizer_core.catalog.entries import CATALOG
    from tokenizer_core.catalog.prices import model_price

    return [model_price(m, on=date(2026, 12, 1)) for m in CATALOG if m.name in names]


def test_builtins_take_the_palette_in_registry_order_and_differ():
    colours = tokenizer_hexes(list(BUILTINS))
    assert colours == list(PALETTE[: len(BUILTINS)])
    assert len(set(colours)) == len(colours)
    assert tokenizer_hex("o200k_base") == PALETTE[0]


def test_other_ids_hash_into_the_colours_no_builtin_uses():
    builtin_colours = set(tokenizer_hexes(list(BUILTINS)))
    ids = [f"custom-{i:04x}" for i in range(200)] + ["trained-3f9a0c1b2d4e", "greedy-abc"]
    colours = tokenizer_hexes(ids)
    assert all(c in PALETTE and c not in builtin_colours for c in colours)
    assert len(set(colours)) > 5  # spread over the free colours, not all one
    assert tokenizer_hexes(ids) == colours  # stable within a process


def test_a_user_id_keeps_its_colour_in_another_process():
    """Python's own hash() changes per process; the colour must not (sessions, restarts)."""
    code = (
        "from tokenizer_core.tokenizers.colours import tokenizer_hex; print(tokenizer_hex('custom-1234abcd'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == tokenizer_hex("custom-1234abcd")


def test_lighter_and_scale_helpers():
    assert lighter("#000000", 0.5) == "#808080" and lighter("#4c78a8", 0) == "#4c78a8"
    scale = colour_scale(["llama3", "o200k_base"], ["Llama 3", "o200k_base"]).to_dict()
    assert scale == {"domain": ["Llama 3", "o200k_base"], "range": [PALETTE[2], PALETTE[0]]}
    with pytest.raises(ValueError, match="one label per id"):
        colour_scale(["llama3"], [])
    assert bottom_legend_px(5) > bottom_legend_px(2) > 0


def _colours(spec: dict) -> dict[str, str]:
    """label -> colour of a chart's tokenizer colour scale (layered or not)."""
    enc = spec["encoding"] if "encoding" in spec else spec["layer"][0]["encoding"]
    scale = enc["color"]["scale"]
    return dict(zip(scale["domain"], scale["range"]))


@pytest.fixture(scope="module")
def toks():
    return [builtin("llama3"), builtin("o200k_base"), builtin("cl100k_base")]


def _expected(toks) -> dict[str, str]:
    return {t.info.name: tokenizer_hex(t.id) for t in toks}


def test_counter_and_language_charts_colour_each_tokenizer_by_its_id(toks):
    rows = count_table("hello world", toks, context_window=100)
    assert _colours(token_count_chart(rows).to_dict()) == _expected(toks)
    langs = [lang for lang in load_parallel_sample() if lang.code in ("en", "hi")]
    lrows = language_table(langs, toks, base="en")
    assert _colours(tokens_chart(lrows).to_dict()) == _expected(toks)


def test_identifier_charts_colour_each_tokenizer_by_its_id(toks):
    text, lang = load_code_file("inventory.py")
    mine = [*toks, GreedyTokenizer()]  # a non-built-in id among them
    ex = extract_identifiers(text, lang)
    an = analyse_identifiers(text, mine, extraction=ex)
    report = layout_costs(text, ex.lex, mine)
    want = {name: tokenizer_hex(tid) for tid, name in zip(an.tokenizer_ids, an.tokenizer_names)}
    charts = [
        top_identifiers_chart(an.rows, an.tokenizer_ids, an.tokenizer_names),
        style_tokens_chart(style_summary(an), an.tokenizer_ids, an.tokenizer_names),
        layout_breakdown_chart(report, an.tokenizer_names),
        indentation_chart(report, an.tokenizer_names),
        rewrite_chart(rewrite_costs(text, ex, mine), an.tokenizer_ids, an.tokenizer_names),
    ]
    for chart in charts:
        spec = chart.to_dict()
        assert _colours(spec) == want
        legend = spec["encoding"]["color"]["legend"]
        assert legend["orient"] == "bottom" and legend["columns"] == 2 and legend["labelLimit"] == 0


def test_cost_chart_gives_a_model_its_tokenizers_colour(toks):
    langs = [lang for lang in load_parallel_sample() if lang.code in ("en", "hi")]
    rows = language_table(langs, toks, base="en")
    prices = catalog_prices("GPT-4o", "GPT-4o mini", "GPT-4 Turbo")
    costs, _ = cost_table(rows, prices, Workload(1000, 1000, 100))
    got = _colours(cost_chart(costs).to_dict())
    by_model = {p.model: p.tokenizer_id for p in prices}
    first = {}
    for model in got:
        first.setdefault(by_model[model], model)
    for model, colour in got.items():
        tid = by_model[model]
        assert colour == (tokenizer_hex(tid) if first[tid] == model else lighter(tokenizer_hex(tid), 0.4))
    assert model_colours([("a", "o200k_base"), ("b", "o200k_base"), ("c", "cl100k_base")]) == {
        "a": PALETTE[0], "b": lighter(PALETTE[0], 0.4), "c": PALETTE[1],
    }  # fmt: skip
