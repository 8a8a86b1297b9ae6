"""Prices in a real Chromium: an edit typed in the price editor wins on every page, marked as
the user's, with the source's price beside it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def _edit_first_input_price(app, value: str) -> None:
    """Type a price into the first row's "Input $/1M" cell of the price editor (a canvas grid)."""
    grid = app.main.get_by_test_id("stDataFrame").filter(has_text="Sold by").first
    editor = app.page.locator(".gdg-input")  # the grid's cell editor: Enter before it opens is lost
    for _ in range(3):  # as a user would click again: a busy browser may draw the grid after a click
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        app.page.mouse.click(box["x"] + 30, box["y"] + 52)  # the first row's Model cell
        app.page.keyboard.press("ArrowRight")
        app.page.keyboard.press("ArrowRight")  # Sold by -> Input $/1M
        app.page.keyboard.type(value)  # opens the cell's editor with the value typed
        try:
            expect(editor).to_be_focused()
            break
        except AssertionError:
            app.page.keyboard.press("Escape")
    expect(editor).to_have_value(value)
    app.run(lambda: app.page.keyboard.press("Enter"))


def test_an_edited_price_wins_on_every_page_and_is_marked(app_page):
    app_page.goto("", "tok=gpt-4o")
    # the price editor is open beside the cost table: per model, its prices, the source's, the check date
    expect(app_page.main.get_by_test_id("stDataFrame").filter(has_text="Sold by").first).to_contain_text(
        "Last checked"
    )
    _edit_first_input_price(app_page, "1")
    costs = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Per request $")
    expect(costs).to_contain_text("$1 / $10")
    expect(costs).to_contain_text("your price")
    expect(app_page.main.get_by_text("Your edited prices for GPT-4o")).to_be_visible()
    editor = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Sold by").first
    expect(editor).to_contain_text("$2.50 · ")  # the source's price, beside the edit
    expect(editor).to_contain_text("edited")
    # the same table on the Language costs page
    link = app_page.page.get_by_test_id("stSidebarNavLink").filter(has_text="Language costs")
    app_page.run(lambda: link.click())
    combo = app_page.main.get_by_role("combobox", name="Models to price")
    combo.click()
    app_page.page.keyboard.type("GPT-4o")
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    expect(app_page.main.get_by_text("Your edited prices for GPT-4o")).to_be_visible()
    assert not app_page.exceptions()
