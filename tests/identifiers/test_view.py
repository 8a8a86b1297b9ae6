"""HTML builders of the identifier page: escaping, colours, windows; and the chart builders."""

from __future__ import annotations

import html
import re

import altair as alt
import pytest

from tests.conftest import builtin
from tokenizer_core.identifiers import (
    analyse_identifiers,
    code_heatmap_html,
    code_view_window,
    extract_identifiers,
    identifier_costs_html,
    layout_costs,
    load_code_file,
    pieces_html,
    rewrite_costs,
    split_table_html,
    style_summary,
)
from tokenizer_core.identifiers.charts import (
    indentation_chart,
    kind_share_chart,
    layout_breakdown_chart,
    rewrite_chart,
    style_tokens_chart,
    top_identifiers_chart,
)
from tokenizer_core.identifiers.greedy import GreedyTokenizer
from tokenizer_core.identifiers.lexer import lex
from tokenizer_core.identifiers.view import cost_colour

PAYLOAD = "<img src=x onerror=alert(1)>"


def _analysis(code: str, language: str, toks):
    ex = extract_identifiers(code, language)
    return ex, analyse_identifiers(code, toks, extraction=ex)


def test_code_heatmap_escapes_everything():
    code = f'const s = "{PAYLOAD}"; // {PAYLOAD}\nlet img = "<script>alert(2)</script>";\n'
    ex, an = _analysis(code, "javascript", [builtin("cl100k_base")])
    out = code_heatmap_html(
        code, ex.occurrences, an.occurrence_tokens["cl100k_base"], lexed=lex(code, "javascript")
    )
    assert "<img" not in out and "<script" not in out
    assert html.escape(PAYLOAD) in out
    assert out.count('class="tw-code"') == 1


def test_identifier_names_are_escaped_in_titles_and_tables():
    # SQL quoted identifiers can hold any text, including HTML
    code = f'SELECT "{PAYLOAD}" FROM t;'
    ex, an = _analysis(code, "sql", [builtin("o200k_base")])
    assert an.row(PAYLOAD).occurrences == 1
    heat = code_heatmap_html(code, ex.occurrences, an.occurrence_tokens["o200k_base"],
                             alone={PAYLOAD: 5}, words={PAYLOAD: ("img",)})  # fmt: skip
    table = split_table_html(an.rows, an.tokenizer_ids, an.tokenizer_names)
    for out in (heat, table):
        assert "<img" not in out
        assert html.escape(PAYLOAD) in out


def test_one_identifier_up_close_shows_each_split_with_its_count_and_escapes_labels():
    # the seed: calculate_total is calc, ulate, _ and total (4 tokens); qx9_zz is 6 single characters
    code = "def calculate_total(items):\n    return qx9_zz\n"
    _, an = _analysis(code, "python", [GreedyTokenizer()])
    out = identifier_costs_html(an.row("calculate_total"), [PAYLOAD])
    assert "<img" not in out and html.escape(PAYLOAD) in out
    assert re.findall(r'title="[^"]*">([^<]*)</span>', out)[:4] == ["calc", "ulate", "_", "total"]
    assert "<b>4</b>" in out and "no: 1 word cut" in out  # calc|ulate cuts "calculate"
    assert out.count("<tr>") == 2  # the header and one tokenizer
    assert "<b>6</b>" in identifier_costs_html(an.row("qx9_zz"), ["greedy"])


def test_heatmap_colours_each_use_by_its_cost_and_numbers_lines():
    code = "def calculate_total(items):\n    return qx9_zz\n"
    ex, an = _analysis(code, "python", [GreedyTokenizer()])
    out = code_heatmap_html(
        code, ex.occurrences, an.occurrence_tokens["greedy-seed"], tokenizer_name="greedy"
    )
    # calculate_total: 4 tokens, items: 1, qx9_zz: 6 (the seed's splits)
    assert '<span class="tw-k4" title="calculate_total: 4 tokens here (greedy)">calculate_total</span>' in out
    assert '<span class="tw-k1" title="items: 1 token here (greedy)">items</span>' in out
    assert '<span class="tw-k5" title="qx9_zz: 6 tokens here (greedy)">qx9_zz</span>' in out
    assert f".tw-code .tw-k4{{background:{cost_colour(4)}" in out  # the class carries the colour
    assert '<span class="tw-ln">1</span>' in out and '<span class="tw-ln">2</span>' in out  # line numbers


def test_cost_colours_and_window():
    assert cost_colour(0) == cost_colour(1) != cost_colour(2)
    assert cost_colour(5) == cost_colour(50)
    code = "\n".join(f"line {i}" for i in range(1, 1001))
    assert code_view_window(code, 1) == (1, 400)
    assert code_view_window(code, 990) == (990, 1000)
    assert code_view_window(code, 0) == (1, 400)
    assert code_view_window(code, 5000) == (1000, 1000)
    assert code_view_window(code, 1, max_lines=10**9, max_chars=1000)[1] < 200  # the character cap applies
    assert code_view_window("single", 1) == (1, 1)
    part = code_heatmap_html(code, [], [], first_line=10, last_line=12)
    assert "line 10" in part and "line 12" in part and "line 13" not in part and "line 9<" not in part
    assert part.count('<div class="tw-l">') == 3  # exactly lines 10, 11, 12
    assert "empty" in code_heatmap_html("", [], [])


def test_huge_lines_and_names_are_capped():
    code = "var " + ";".join(f"v{i}=1" for i in range(40_000))  # a minified one-line file
    ex = extract_identifiers(code, "javascript")
    out = code_heatmap_html(code, ex.occurrences, [1] * len(ex.occurrences), max_chars=5_000)
    assert len(out) < 120_000 and "more characters of these lines are not drawn" in out
    assert f"{len(code) - 5_000:,} more" in out
    few = code_heatmap_html(code, ex.occurrences, [1] * len(ex.occurrences), max_marks=100)
    assert few.count('class="tw-k1"') == 100 and "Only the first 100 names are coloured" in few
    segs = GreedyTokenizer().segments("q" * 500)
    capped = pieces_html(segs, max_pieces=40)
    assert capped.count("<span") == 41 and "… +460" in capped


def test_pieces_html_shows_whitespace_and_escapes():
    segs = GreedyTokenizer().segments("a <b>")
    out = pieces_html(segs)
    assert "&lt;" in out and "<b>" not in out and "⋅" in out


@pytest.fixture(scope="module")
def charts_input():
    text, lang = load_code_file("inventory.py")
    toks = [builtin("o200k_base"), builtin("cl100k_base")]
    ex, an = _analysis(text, lang, toks)
    return text, ex, an, toks


def _data(chart: alt.Chart) -> list[dict]:
    spec = chart.to_dict()
    return next(iter(spec["datasets"].values()))


def test_chart_builders(charts_input):
    text, ex, an, toks = charts_input
    top = top_identifiers_chart(an.rows, an.tokenizer_ids, an.tokenizer_names, top_n=5)
    rows = _data(top)
    assert len(rows) == 5 * 2 and {r["identifier"] for r in rows} == {r.name for r in an.rows[:5]}
    first = an.rows[0]
    assert next(r for r in rows if r["identifier"] == first.name and r["tokenizer"] == "o200k_base")[
        "tokens"
    ] == (first.costs[0].alone_tokens)
    assert len(_data(top_identifiers_chart(an.rows, an.tokenizer_ids, top_n=10_000))) == 2 * min(
        60, len(an.rows)
    )
    styles = _data(style_tokens_chart(style_summary(an), an.tokenizer_ids))
    assert {r["style"] for r in styles} == {s.style for s in style_summary(an)}
    report = layout_costs(text, ex.lex, toks)
    parts = _data(layout_breakdown_chart(report))
    assert {r["part"] for r in parts} == {"comments", "docstrings", "blank lines", "indentation"}
    for r in parts:
        tid = r["tokenizer"]
        assert r["tokens"] == report.contribution(r["part"], tid)
    ind = _data(indentation_chart(report))
    assert {r["indentation"] for r in ind} == {"tabs", "2 spaces", "4 spaces", "no indentation"}
    assert all(r["difference"] == r["tokens"] - r["as written"] for r in ind)
    kinds = _data(kind_share_chart(an))
    for tid in an.tokenizer_ids:
        assert sum(r["tokens"] for r in kinds if r["tokenizer"] == tid) == an.file_tokens[tid]
    rewrites = rewrite_costs(text, ex, toks)
    rw = _data(rewrite_chart(rewrites, an.tokenizer_ids))
    assert {r["style"] for r in rw} == {
        "snake_case",
        "camelCase",
        "PascalCase",
        "kebab-case",
        "SCREAMING_SNAKE",
    }


def test_charts_make_room_for_their_legends(charts_input):
    # Streamlit fits a chart, legend included, into its height: a legend under the plot (two
    # columns, to fit a phone) adds its rows to the height so the bars keep theirs.
    text, ex, an, toks = charts_input
    report = layout_costs(text, ex.lex, toks)
    for chart, base in ((style_tokens_chart(style_summary(an), an.tokenizer_ids), 260), (indentation_chart(report), 260),
                        (rewrite_chart(rewrite_costs(text, ex, toks), an.tokenizer_ids), 240)):  # fmt: skip
        spec = chart.to_dict()
        assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"
        assert spec["height"] > base


def test_charts_with_nothing_to_show():
    assert _data_or_empty(top_identifiers_chart([], ["o200k_base"])) == []
    assert _data_or_empty(style_tokens_chart([], ["o200k_base"])) == []


def _data_or_empty(chart: alt.Chart) -> list[dict]:
    spec = chart.to_dict()
    return next(iter(spec.get("datasets", {}).values()), [])


def test_splits_and_pieces_use_classes_not_a_style_per_piece():
    segs = builtin("o200k_base").segments(" calculate_total_price")
    hues: set[int] = set()
    out = pieces_html(segs, hues=hues)
    assert "<style>" not in out and "background" not in out and hues
    own = pieces_html(segs)
    assert own.startswith("<style>") and own.count("<style>") == 1
    assert all(f".h{h}{{" in own for h in hues)


def test_sort_identifiers_and_the_chart_of_the_most_expensive(charts_input):
    from tokenizer_core.identifiers import IDENTIFIER_ORDERS, sort_identifiers

    text, ex, an, toks = charts_input
    assert list(IDENTIFIER_ORDERS)[0] == "file"
    by_file = sort_identifiers(an.rows)
    totals = [sum(c.context_total for c in r.costs) for r in by_file]
    assert totals == sorted(totals, reverse=True)
    assert sort_identifiers(an.rows, by="uses")[0].occurrences == max(r.occurrences for r in an.rows)
    assert [r.name.lower() for r in sort_identifiers(an.rows, by="name")] == sorted(
        r.name.lower() for r in an.rows
    )
    with pytest.raises(ValueError, match="unknown order"):
        sort_identifiers(an.rows, by="cost")
    rows = _data(
        top_identifiers_chart(by_file, an.tokenizer_ids, an.tokenizer_names, top_n=3, measure="file")
    )
    first = by_file[0]
    assert next(
        r["tokens"] for r in rows if r["identifier"] == first.name and r["tokenizer"] == "o200k_base"
    ) == (first.costs[0].context_total)
