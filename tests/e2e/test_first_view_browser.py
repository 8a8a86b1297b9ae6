"""A fresh tab in a real Chromium: the counts come first, the rest once the page says they are shown
(ui/fast_first.py, `FastFirst.first_view`), and then the whole page is there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE
from tests.helpers.count_cards import read_count_card
from tokenizer_core.tokenizers import load_sample

pytestmark = pytest.mark.e2e

# element kinds whose scripts are large (the table, the chart) or that are below the fold (the share link)
LATER = {"dataframe", "vega_lite_chart", "tw_link_box"}


def _record(page) -> list[tuple[str, str]]:
    """Every message on the app's websocket, in order: ("sent", BackMsg kind) or ("got", element kind)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    log: list[tuple[str, str]] = []

    def got(payload) -> None:
        if isinstance(payload, (bytes, bytearray)):
            fm = ForwardMsg.FromString(bytes(payload))
            if fm.WhichOneof("type") == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el = fm.delta.new_element
                kind = el.WhichOneof("type") or ""
                if kind == "bidi_component":
                    kind = el.bidi_component.component_name
                elif kind == "markdown" and read_count_card(el.markdown.body):
                    kind = "counts"
                log.append(("got", kind))

    def sent(payload) -> None:
        if isinstance(payload, (bytes, bytearray)):
            log.append(("sent", BackMsg.FromString(bytes(payload)).WhichOneof("type") or ""))

    def attach(ws) -> None:
        if ws.url.endswith("/_stcore/stream"):
            ws.on("framereceived", got)
            ws.on("framesent", sent)

    page.on("websocket", attach)
    return log


def _assert_counts_came_first(log: list[tuple[str, str]]) -> None:
    """The counts arrived before any later element, and the page asked for the rest in between."""
    kinds = [k for _, k in log]
    first_metric = kinds.index("counts")
    first_later = min(i for i, k in enumerate(kinds) if k in LATER | {"tw_token_view"})
    reruns = [i for i, (way, k) in enumerate(log) if way == "sent" and k == "rerun_script"]
    assert first_metric < first_later, kinds[: first_later + 1]
    # a run request sent once the counts were drawn (those before them answer the restore of a
    # new session's saved work, ui/saved_work.py, which draws no page until the browser answered)
    assert any(first_metric < r < first_later for r in reruns), log[: first_later + 1]
    assert "tw_first_view" in kinds[:first_metric]  # the signal came with the first run


def test_a_fresh_tab_gets_the_counts_first_then_the_whole_page(app_page):
    log = _record(app_page.page)
    app_page.goto()
    text = load_sample("mixed")
    # the whole page ends up there: counts, table, chart, token views, cost, versions, about
    expect(app_page.page.locator(".tw-tokens")).to_have_count(3)
    for label in ("Cost per request", "Prompt versions side by side", "About these tokenizers"):
        expect(app_page.main.get_by_text(label)).to_be_visible()
    value = app_page.page.locator(COUNT).filter(has_text="o200k_base").locator(COUNT_VALUE)
    assert value.inner_text().strip() == f"{builtin('o200k_base').count(text):,}"
    assert not app_page.exceptions()
    _assert_counts_came_first(log)


def test_a_fresh_tab_that_follows_a_share_link_shows_its_text_first(app_page, browser):
    app_page.goto()
    text = "A shared text 🚀 with <b>markup</b> counted first."
    area = app_page.main.locator("textarea.tw-live-box")
    area.fill(text)
    app_page.run(lambda: area.press("Control+Enter"))
    url = app_page.page.url
    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        from tests.e2e.conftest import AppPage

        fresh = AppPage(other.new_page(), app_page.base_url)
        log = _record(fresh.page)
        fresh.run(lambda: fresh.page.goto(url))
        expect(fresh.main.locator("textarea.tw-live-box")).to_have_value(text)
        value = fresh.page.locator(COUNT).filter(has_text="o200k_base").locator(COUNT_VALUE)
        assert value.inner_text().strip() == f"{builtin('o200k_base').count(text):,}"
        expect(fresh.page.locator(".tw-tokens")).to_have_count(3)
        _assert_counts_came_first(log)
        assert fresh.exceptions() == []
    finally:
        other.close()
