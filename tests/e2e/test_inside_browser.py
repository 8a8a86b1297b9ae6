"""The "Inside a tokenizer" page in a real Chromium: the pieces, the merge stepper played to the
end, and hostile text shown as text."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tokenizer_core.inside import inspect_text, machine_for
from ui.inside import SAMPLE, _default_piece

pytestmark = pytest.mark.e2e


def open_inside(app):
    app.goto()
    link = app.page.get_by_test_id("stSidebarNavLink").filter(has_text="Inside a tokenizer")
    app.run(lambda: link.click())
    expect(app.main.locator("h1")).to_have_text("Inside a tokenizer")
    assert not app.exceptions()


def test_pieces_and_the_merge_stepper(app_page):
    open_inside(app_page)
    tok = builtin("o200k_base")
    walk = inspect_text(tok, SAMPLE)
    chips = app_page.main.locator(".tw-in").first.locator(".tw-chip")
    expect(chips).to_have_count(len(walk.pieces))
    # the stepper: Next to the end, then the ids are the tokenizer's
    piece = walk.pieces[_default_piece(tok, walk)]  # the word the page chooses first
    replay = machine_for(tok).replay(piece.text)
    nxt = app_page.main.get_by_role("button", name="Next", exact=True)
    for _ in replay.steps:
        app_page.run(lambda: nxt.click())
    ids = ", ".join(map(str, tok.encode(piece.text)))
    expect(app_page.main.get_by_text(f"ids {ids}, the same as the tokenizer's output")).to_be_visible()
    expect(nxt).to_be_disabled()
    assert not app_page.exceptions()


def test_play_runs_the_merges_by_itself(app_page):
    open_inside(app_page)
    app_page.run(lambda: app_page.main.get_by_role("button", name="Play", exact=True).click())
    expect(app_page.main.get_by_text("the same as the tokenizer's output")).to_be_visible(timeout=60_000)
    assert not app_page.exceptions()


def test_hostile_text_is_shown_as_text(app_page):
    open_inside(app_page)
    box = app_page.main.get_by_label("Your text")
    box.fill("<img src=x onerror=alert(1)> <|endoftext|>")
    app_page.run(lambda: box.press("Control+Enter"))
    expect(app_page.main.locator(".tw-chip", has_text="<img").first).to_be_visible()
    assert app_page.main.locator("img[src='x']").count() == 0
    assert not app_page.exceptions()
