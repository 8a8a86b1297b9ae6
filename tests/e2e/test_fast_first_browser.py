"""Typing in a real Chromium: the counts come first, then the rest of the page (ui/fast_first.py)."""

from __future__ import annotations

import pytest

from tests.conftest import builtin

pytestmark = pytest.mark.e2e


def _runs(page) -> list[list[str]]:
    """The element kinds of each script run the app's websocket brings, run by run (a component
    by its name)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    runs: list[list[str]] = []

    def got(payload) -> None:
        if not isinstance(payload, (bytes, bytearray)):
            return
        fm = ForwardMsg.FromString(bytes(payload))
        kind = fm.WhichOneof("type")
        if kind == "new_session":
            runs.append([])
        elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element" and runs:
            el = fm.delta.new_element
            name = el.WhichOneof("type") or ""
            runs[-1].append(
                el.bidi_component.component_name.rsplit(".", 1)[-1] if name == "bidi_component" else name
            )

    def attach(ws) -> None:
        if ws.url.endswith("/_stcore/stream"):
            ws.on("framereceived", got)

    page.on("websocket", attach)
    return runs


def test_typing_reruns_the_counts_alone_then_the_rest(app_page):
    runs = _runs(app_page.page)
    app_page.goto()
    box = app_page.main.locator("textarea.tw-live-box")
    text = "A text about a zebracorn, typed into the box."
    want = f"{builtin('o200k_base').count(text):,}"
    del runs[:]
    box.fill(text)  # sent after the box's pause, as when typing
    metric = app_page.main.get_by_test_id("stMetric").filter(has_text="o200k").get_by_test_id("stMetricValue")
    metric.wait_for()
    app_page.page.wait_for_function(
        "(want) => [...document.querySelectorAll('[data-testid=stMetricValue]')].some(m => m.innerText.trim() === want)",
        arg=want,
    )
    app_page.settle()
    drawn = [r for r in runs if len(r) > 1]  # a run that stops for a rerun from a callback draws nothing
    # first the box and its counts, nothing else: no table, chart, token view or cost table ...
    assert "metric" in drawn[0] and "tw_live_text" in drawn[0], drawn
    assert not {"dataframe", "vega_lite_chart", "tw_token_view", "arrow_data_editor"} & set(drawn[0])
    # ... then, asked by the page once they were shown, everything
    assert "tw_token_view" in drawn[-1] and "vega_lite_chart" in drawn[-1], drawn
    assert app_page.page.evaluate("() => document.body.dataset.twRestPending") is None
    assert text in app_page.page.locator(".tw-tokens").first.inner_text().replace("\n", "")
    assert not app_page.exceptions()
