"""The "Inside a tokenizer" page in a real Chromium: the pieces, the merge stepper played to the
end, and hostile text shown as text."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.inside.trained import trained, trained_tokenizer
from tokenizer_core.inside import inspect_text, machine_for
from ui.inside import SAMPLE

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
    chips = app_page.main.locator(".tw-pieces").locator(".tw-chip")
    expect(chips).to_have_count(len(walk.pieces))
    # the stepper: Next to the end, then the ids are the tokenizer's
    piece = walk.pieces[walk.first_piece]  # the word the page chooses first
    replay = machine_for(tok).replay(piece.seen)
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
    box = app_page.main.locator("textarea.tw-live-box")
    app_page.run(lambda: box.fill("<img src=x onerror=alert(1)> <|endoftext|>"))
    expect(app_page.main.locator(".tw-chip", has_text="<img").first).to_be_visible()
    assert app_page.main.locator("img[src='x']").count() == 0
    assert not app_page.exceptions()


def _add_own(app_page, path):
    """Adds a tokenizer.json in the sidebar and chooses it as the page's tokenizer."""
    sidebar = app_page.page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Your own tokenizers").click()  # expanding does not rerun
    app_page.run(lambda: sidebar.get_by_test_id("stRadioGroup").get_by_text("tokenizer.json").click())
    uploader = sidebar.get_by_test_id("stFileUploaderDropzoneInput")
    app_page.run(lambda: uploader.set_input_files(str(path)))
    app_page.run(lambda: sidebar.get_by_role("button", name="Add tokenizer").click())
    expect(sidebar.get_by_text(re.compile(r"Added .*" + re.escape(path.stem)))).to_be_visible(timeout=60_000)
    combo = app_page.main.get_by_role("combobox", name="Tokenizer")
    combo.click()
    app_page.page.keyboard.type("yours")
    app_page.run(
        lambda: app_page.page.get_by_role("option", name=re.compile(re.escape(path.stem) + ".*yours")).click()
    )


TYPED = "The newest  café\tis naïve ꙮ"


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
def test_an_uploaded_tokenizer_json_is_replayed_as_you_type(app_page, tmp_path, kind):
    """A WordPiece and a Unigram tokenizer.json (trained in the test) added in the sidebar, then
    text typed in the box (no Ctrl+Enter): the page replays it to the tokenizer's own ids."""
    path = tmp_path / f"my-{kind}.json"
    path.write_bytes(trained(kind))
    open_inside(app_page)
    _add_own(app_page, path)
    box = app_page.main.locator("textarea.tw-live-box")
    app_page.run(lambda: box.fill(TYPED))  # sent on the pause in typing
    walk = inspect_text(trained_tokenizer(kind), TYPED)
    title = "Longest match first" if kind == "wordpiece" else "The best cut by score"
    expect(app_page.main.get_by_role("heading", name=re.compile(title))).to_be_visible()
    expect(app_page.main.get_by_text("Replayed on every piece of your text")).to_be_visible()
    pieces = app_page.main.locator(".tw-pieces").locator(".tw-chip")
    expect(pieces).to_have_count(len(walk.pieces))
    expect(app_page.main.locator(".tw-chip.tw-drop")).to_have_count(len(walk.dropped))
    if kind == "wordpiece":
        assert walk.dropped  # BERT's spaces are dropped, not pieces
        expect(app_page.main.get_by_text("[CLS]").first).to_be_visible()  # the post-processor's step
    else:
        expect(app_page.main.get_by_text(re.compile("The cut kept, total score"))).to_be_visible()
    # each token's characters, on hover: its title names its id
    first = app_page.main.locator(".tw-tok").first
    assert f"id {walk.ids[0]}" in (first.get_attribute("title") or "")
    first.hover()
    assert not app_page.exceptions()
