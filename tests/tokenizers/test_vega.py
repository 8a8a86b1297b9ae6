"""`vega_lite_spec`: an Altair chart's spec with its tables apart, named by their place."""

from __future__ import annotations

import doctest

import altair as alt
import pandas as pd

from tokenizer_core.tokenizers import vega
from tokenizer_core.tokenizers.vega import vega_lite_spec


def bars(frame: pd.DataFrame) -> alt.LayerChart:
    base = alt.Chart(frame).encode(x="n:Q", y="name:N")
    limit = alt.Chart(pd.DataFrame({"at": [3]})).mark_rule().encode(x="at:Q")
    return base.mark_bar() + base.mark_text() + limit


def test_the_docstring_example():
    assert doctest.testmod(vega).failed == 0


def test_a_table_drawn_twice_is_sent_once_and_each_table_is_the_frame_itself():
    frame, other = pd.DataFrame({"name": ["a", "b"], "n": [1, 2]}), pd.DataFrame({"at": [3]})
    chart = alt.hconcat(  # three charts, two tables: Altair keeps each chart's data in its place
        alt.Chart(frame).mark_bar().encode(x="n:Q"),
        alt.Chart(frame).mark_point().encode(x="n:Q"),
        alt.Chart(other).mark_rule().encode(x="at:Q"),
    )
    spec = vega_lite_spec(chart)
    assert [part["data"] for part in spec["hconcat"]] == [
        {"name": "table_0"},
        {"name": "table_0"},
        {"name": "table_1"},
    ]
    assert spec["datasets"] == {"table_0": frame, "table_1": other} and spec["datasets"]["table_0"] is frame


def test_only_the_tables_change_when_only_the_numbers_do():
    one = vega_lite_spec(bars(pd.DataFrame({"name": ["a", "b"], "n": [1, 2]})))
    two = vega_lite_spec(bars(pd.DataFrame({"name": ["a", "b"], "n": [5, 7]})))
    assert {k: v for k, v in one.items() if k != "datasets"} == {
        k: v for k, v in two.items() if k != "datasets"
    }
    assert not one["datasets"]["table_0"].equals(two["datasets"]["table_0"])


def test_data_that_is_not_a_table_is_left_as_it_is():
    spec = vega_lite_spec(alt.Chart(alt.UrlData("counts.csv")).mark_bar().encode(x="n:Q"))
    assert spec["data"] == {"url": "counts.csv"} and spec["datasets"] == {}


def test_the_chart_given_is_not_changed():
    frame = pd.DataFrame({"name": ["a"], "n": [1]})
    chart = bars(frame)
    vega_lite_spec(chart)
    assert chart.data is frame and isinstance(chart.layer[2].data, pd.DataFrame)
