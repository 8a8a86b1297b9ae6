"""The chunk charts, tested as Vega-Lite specs: sizes histogram and sizes along the document."""

from __future__ import annotations

import pytest

from tokenizer_core.chunking import Chunk
from tokenizer_core.chunking.charts import chunk_size_histogram, chunk_sizes_along, size_bins


def test_histogram_spec():
    chunks = [Chunk(i, i, i + 1, "x", t) for i, t in enumerate([100, 120, 500, 512, 60])]
    spec = chunk_size_histogram(chunks, size=512, limit=256).to_dict()
    layers = spec["layer"]
    bars = layers[0]
    assert bars["mark"]["type"] == "bar"
    assert (bars["encoding"]["x"]["field"], bars["encoding"]["x2"]["field"]) == ("lo", "hi")
    assert bars["encoding"]["y2"] == {"datum": 0}  # upright bars from zero, not flat ranges
    rules = spec["datasets"][layers[1]["data"]["name"]]
    assert [r["at"] for r in rules] == [512, 256]
    data = (
        spec["datasets"][spec["data"]["name"]] if "data" in spec else spec["datasets"][bars["data"]["name"]]
    )
    # counted in Python, 16-token bins from 0 to the biggest chunk: one row per bin, not per chunk;
    # a bin holds more than lo and at most hi tokens, so 512 (the budget) is in (496, 512]
    assert len(data) == 512 // 16 and sum(d["chunks"] for d in data) == 5
    filled = {(d["lo"], d["hi"]): d["chunks"] for d in data if d["chunks"]}
    assert filled == {(48, 64): 1, (96, 112): 1, (112, 128): 1, (496, 512): 2}
    # whole chunks on the y axis (no 0.5 ticks with few chunks), and tall enough to read
    assert bars["encoding"]["y"]["axis"] == {"format": "d", "tickMinStep": 1}
    assert spec["height"] >= 300


def test_size_bins_put_the_top_value_in_the_last_bin():
    bins = size_bins([3, 5, 9, 8], step=4, top=9)
    assert bins.values.tolist() == [[0, 4, 1], [4, 8, 2], [8, 12, 1]]


def _bars_and_rule(spec: dict) -> tuple[list[dict], float]:
    bars = spec["layer"][0]
    rows = (
        spec["datasets"][bars["data"]["name"]] if "data" in bars else spec["datasets"][spec["data"]["name"]]
    )
    (budget,) = [r["at"] for r in spec["datasets"][spec["layer"][1]["data"]["name"]]]
    return rows, budget


def test_chunks_of_exactly_the_budget_are_drawn_inside_its_line():
    # the case: a budget of 128, chunks of 128 tokens, one over
    chunks = [Chunk(i, i, i + 1, "x", t) for i, t in enumerate([128, 128, 128, 90, 129])]
    rows, budget = _bars_and_rule(chunk_size_histogram(chunks, size=128).to_dict())
    assert budget == 128
    filled = [r for r in rows if r["chunks"]]
    at_budget = next(r for r in filled if r["lo"] < 128 <= r["hi"])
    assert at_budget["hi"] <= budget and at_budget["chunks"] == 3  # bar ends at the line, left of it
    assert at_budget["range"] == "125–128"
    over = [r for r in filled if r["hi"] > budget]
    assert [(r["lo"] >= budget, r["chunks"]) for r in over] == [(True, 1)]  # only the 129 is right of it


@pytest.mark.parametrize("size", [100, 128, 300, 333, 512, 1000, 997])
def test_no_bar_holds_chunks_on_both_sides_of_the_budget(size):
    tokens = [max(1, size - 3), size - 1, size, size, size + 1, size + 2, size // 2]
    chunks = [Chunk(i, i, i + 1, "x", t) for i, t in enumerate(tokens)]
    rows, budget = _bars_and_rule(chunk_size_histogram(chunks, size=size).to_dict())
    assert len(rows) <= 41 and sum(r["chunks"] for r in rows) == len(tokens)
    for r in rows:
        assert r["hi"] <= budget or r["lo"] >= budget, r  # the line is a bin edge
        held = [t for t in tokens if r["lo"] < t <= r["hi"] or (r["lo"] == 0 and t == 0)]
        assert r["chunks"] == len(held), r


def test_histogram_of_many_chunks_sends_a_row_per_bin():
    chunks = [Chunk(i, i, i + 1, "x", 1 + (i * 37) % 128) for i in range(30_000)]
    spec = chunk_size_histogram(chunks, size=128).to_dict()
    rows = spec["datasets"][spec["layer"][0]["data"]["name"]] if "data" in spec["layer"][0] else None
    rows = rows or spec["datasets"][spec["data"]["name"]]
    assert len(rows) <= 41 and sum(r["chunks"] for r in rows) == 30_000


def test_sizes_along_the_document_spec():
    chunks = [Chunk(i, i, i + 1, "x", t, i, 0) for i, t in enumerate([10, 20, 5])]
    spec = chunk_sizes_along(chunks, size=32).to_dict()
    bars = spec["layer"][0]
    rows = (
        spec["datasets"][bars["data"]["name"]] if "data" in bars else spec["datasets"][spec["data"]["name"]]
    )
    assert [(r["chunk"], r["tokens"]) for r in rows] == [(0, 10), (1, 20), (2, 5)]
    assert spec["layer"][1]["mark"]["type"] == "rule"


def test_sizes_along_a_very_long_document_shows_groups_from_fewest_to_most():
    tokens = [1 + (i * 37) % 128 for i in range(30_000)]
    chunks = [Chunk(i, 10 * i, 10 * i + 10, "x", t) for i, t in enumerate(tokens)]
    spec = chunk_sizes_along(chunks, size=128).to_dict()
    band = spec["layer"][0]
    rows = (
        spec["datasets"][band["data"]["name"]] if "data" in band else spec["datasets"][spec["data"]["name"]]
    )
    assert len(rows) == 1000  # groups of 30 consecutive chunks
    assert (band["encoding"]["y"]["field"], band["encoding"]["y2"]["field"]) == ("most", "fewest")
    for r in rows:
        group = tokens[r["chunk"] : r["last"] + 1]
        assert (r["fewest"], r["most"], r["start"]) == (min(group), max(group), 10 * r["chunk"])
    assert rows[-1]["last"] == 29_999


def test_sizes_along_a_long_document_is_an_area():
    chunks = [Chunk(i, i, i + 1, "x", 10 + i % 7) for i in range(1000)]
    spec = chunk_sizes_along(chunks, size=32).to_dict()
    assert spec["layer"][0]["mark"]["type"] == "area"
