"""Typing in a real Chromium: the counts come first, then the rest of the page (ui/fast_first.py)."""

from __future__ import annotations

import pytest

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE
from tests.helpers.count_cards import read_count_card

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
            if name == "bidi_component":
                name = el.bidi_component.component_name.rsplit(".", 1)[-1]
            elif name == "markdown" and read_count_card(el.markdown.body):
                name = "counts"
            runs[-1].append(name)

    def attach(ws) -> None:
        if ws.url.endswith("/_stcore/stream"):
            ws.on("framereceived", got)

    page.on("websocket", attach)
    return runs


def _o200k(app):
    return app.main.locator(COUNT).filter(has_text="o200k").locator(COUNT_VALUE)


def _type(app, text: str):
    """Type `text` into the box (sent after its pause) and wait for its count and the rest."""
    box = app.main.locator("textarea.tw-live-box")
    box.fill(text)
    want = f"{builtin('o200k_base').count(text):,}"
    app.page.wait_for_function(
        "(want) => [...document.querySelectorAll('.st-key-workspace_counts h3')].some(m => m.innerText.trim() === want)",
        arg=want,
    )
    app.settle()
    return box


def test_typing_reruns_the_counts_alone_then_the_rest(app_page):
    runs = _runs(app_page.page)
    app_page.goto()
    text = "A text about a zebracorn, typed into the box."
    del runs[:]
    _type(app_page, text)  # sent after the box's pause, as when typing
    drawn = [r for r in runs if len(r) > 1]  # a run that stops for a rerun from a callback draws nothing
    # first the box and its counts, nothing else: no table, chart, token view or cost table ...
    assert "counts" in drawn[0] and "tw_live_text" in drawn[0], drawn
    assert not {"dataframe", "vega_lite_chart", "tw_token_view", "arrow_data_editor"} & set(drawn[0])
    # ... then, asked by the page once they were shown, the parts that show the text: the table
    # and chart, the token views, the cost table, versions, file and link; not the box again,
    # nor the cost inputs and the price editor between them (the text changes nothing there)
    rest = drawn[-1]
    assert "tw_token_view" in rest and "vega_lite_chart" in rest and "tw_link_box" in rest, drawn
    assert "tw_live_text" not in rest, drawn
    # the only inputs drawn again are the shared window's three (chunks, their size, the answer),
    # whose bar shows the prompt's tokens; not the cost table's three
    assert rest.count("number_input") == 3, drawn
    assert rest.count("dataframe") == 2, drawn  # the counts and the costs; the price editor is one more
    editor = app_page.main.get_by_test_id("stExpander").filter(has_text="Prices: the source's")
    assert editor.get_by_test_id("stDataFrame").count() == 1  # still on the page
    assert app_page.page.evaluate("() => document.body.dataset.twRestPending") is None
    assert text in app_page.page.locator(".tw-tokens").first.inner_text().replace("\n", "")
    assert not app_page.exceptions()


def test_what_the_parts_of_the_rest_change_reaches_the_rest_of_the_page(app_page):
    """The parts of the rest are fragments of their own: a version loaded from one of them still
    puts its text in the box above, with its counts and views; the view choices, drawn in one,
    still reach the share link, drawn in another."""
    app_page.goto()
    first, second = "Where is my order?", "A much longer text about where my order might be by now."
    box = _type(app_page, first)
    app_page.run(lambda: app_page.main.get_by_role("button", name="Save the prompt as a version").click())
    _type(app_page, second)
    link = app_page.main.locator("input.tw-link-text")
    app_page.main.get_by_text("Share this view").click()
    assert "ws=0" in link.input_value()
    app_page.run(lambda: app_page.main.get_by_role("button", name="Load into the editor").click())
    assert box.input_value() == first
    assert _o200k(app_page).inner_text().strip() == f"{builtin('o200k_base').count(first):,}"
    assert app_page.page.locator(".tw-tokens").first.inner_text().replace("\n", "") == first
    app_page.run(lambda: app_page.main.get_by_text("Show whitespace", exact=True).click())
    assert "ws=1" in link.input_value()
    assert not app_page.exceptions()


def test_while_typing_the_counts_alone_follow_and_the_rest_waits_for_a_pause(app_page):
    """Keys closer together than the pause (ui/fast_first.py REST_PAUSE_MS): each brings its
    counts, the rest is drawn once typing stops, for the last text."""
    runs = _runs(app_page.page)
    app_page.goto()
    box = _type(app_page, "Keys typed one by one")
    del runs[:]
    box.press("End")
    box.press_sequentially(" and counted", delay=300)  # past the box's own pause, under the rest's
    app_page.settle()
    drawn = [r for r in runs if len(r) > 1]
    counts = [r for r in drawn if "tw_live_text" in r]
    views = [r for r in drawn if "tw_token_view" in r]
    assert len(counts) >= 6, drawn  # a run per key or so: the counts followed the typing
    assert len(views) < len(counts) / 2, drawn  # the rest was not drawn after each of them
    text = "Keys typed one by one and counted"
    assert _o200k(app_page).inner_text().strip() == f"{builtin('o200k_base').count(text):,}"
    assert app_page.page.locator(".tw-tokens").first.inner_text().replace("\n", "") == text
    assert not app_page.exceptions()
