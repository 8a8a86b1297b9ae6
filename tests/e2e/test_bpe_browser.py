"""The BPE playground in a real Chromium: train a preset, read the merge table, escaping, upload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tokenizer_core import BPEOptions, save_bpe_model, train_bpe

pytestmark = pytest.mark.e2e

SEED_000 = "get / set / reset"


def _grid_rows(app, n_rows: int) -> list[list[str]]:
    """The cells of the merge table as shown (its accessible table mirrors the visible grid)."""
    frame = app.main.get_by_test_id("stDataFrame").filter(has_text="New symbol").first
    frame.scroll_into_view_if_needed()
    body = frame.locator("table tbody tr")
    expect(body).to_have_count(n_rows)
    return [[c.strip() for c in tr.locator("td").all_inner_texts()] for tr in body.all()]


def _load_sample(app, name: str) -> None:
    box = app.main.get_by_test_id("stSelectbox").filter(has_text="Sample").first
    box.click()
    app.page.get_by_role("option", name=name).click()
    app.run(lambda: app.main.get_by_role("button", name="Load sample", exact=True).click())


def _train(app) -> None:
    app.run(lambda: app.main.get_by_role("button", name="Train", exact=True).click())


def test_train_a_preset_and_read_the_merge_table(app_page):
    app_page.goto("bpe")
    assert not app_page.exceptions()
    _load_sample(app_page, SEED_000)
    area = app_page.main.get_by_test_id("stTextArea").locator("textarea").first
    expect(area).to_have_value(re.compile(r"^get get get get get get\nset set"))
    _train(app_page)
    for _ in range(3):  # step 1 -> 4
        app_page.run(lambda: app_page.main.get_by_role("button", name="Next", exact=True).click())
    expect(app_page.main.get_by_text("Merges so far (4 of 4)")).to_be_visible()
    rows = _grid_rows(app_page, 4)
    # seed 000 prints Merge 1: e + t -> et (count 19) ... Merge 4: e + r -> er (count 4)
    assert [r[:4] for r in rows] == [
        ["1", "e", "t", "et"],
        ["2", "s", "et", "set"],
        ["3", "g", "et", "get"],
        ["4", "e", "r", "er"],
    ]
    assert [r[4] for r in rows] == ["19", "11", "8", "4"]
    assert not app_page.exceptions()


def test_html_in_the_corpus_and_probe_is_shown_as_text(app_page):
    app_page.goto("bpe")
    payload = "<img src=x onerror=alert(1)>"
    area = app_page.main.get_by_test_id("stTextArea").locator("textarea").first
    area.fill(f"{payload} <script>alert(2)</script> {payload} tokens tokens")
    app_page.run(lambda: area.press("Control+Enter"))
    _train(app_page)
    probe = app_page.main.get_by_role("textbox", name="Probe text")
    probe.fill(f"say {payload}")
    app_page.run(lambda: probe.press("Enter"))
    words = app_page.page.locator(".tw-bpe-words")
    expect(words).to_contain_text("onerror")
    tokens = app_page.page.locator(".tw-tokens")
    expect(tokens.first).to_contain_text("onerror=alert(1)")
    for box in (".tw-bpe-words", ".tw-tokens"):
        assert app_page.page.locator(f"{box} img, {box} script").count() == 0
    app_page.page.wait_for_timeout(300)
    assert app_page.dialogs == []
    assert not app_page.exceptions()


def test_upload_a_saved_model_and_a_bad_file(app_page, tmp_path):
    app_page.goto("bpe")
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "tokenizer-workbench/bpe", "version": 7}', encoding="utf-8")
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").last
    app_page.run(lambda: uploader.set_input_files(str(bad)))
    expect(
        app_page.main.get_by_text(re.compile("format version 7; this app reads version 1"))
    ).to_be_visible()

    model = train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3},
                      BPEOptions(symbols="chars", merges=5, tie_break="first"))  # fmt: skip
    good = tmp_path / "seed004.json"
    good.write_text(save_bpe_model(model), encoding="utf-8")
    app_page.run(lambda: uploader.set_input_files(str(good)))
    expect(app_page.main.get_by_text("Loaded 5 merges from seed004.json.")).to_be_visible()
    expect(app_page.main.get_by_text(re.compile("Showing a model loaded from a file"))).to_be_visible()
    for _ in range(4):
        app_page.run(lambda: app_page.main.get_by_role("button", name="Next", exact=True).click())
    # seed 004 prints e+s, es+t, l+o, lo+w, n+e
    assert [r[1:4] for r in _grid_rows(app_page, 5)] == [
        ["e", "s", "es"], ["es", "t", "est"], ["l", "o", "lo"], ["lo", "w", "low"], ["n", "e", "ne"],
    ]  # fmt: skip
    assert not app_page.exceptions()
