"""The light token view in a real Chromium: drawn spans, hover details, modes, marks, escaping,
tokens that never wrap inside themselves, and bytes on the wire.

The tests that type their own text and read what the view draws share one page per width (`home`,
`phone`, `shared` in conftest.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import as_new, type_text
from tokenizer_core.tokenizers import unshared_boundaries

pytestmark = pytest.mark.e2e

TEXT = "Tokenizers   disagree about 2024-11-30, supercalifragilistic words and नमस्ते 🚀."
PANES = ".tw-tokens"


def _click(app, label: str) -> None:
    app.run(lambda: app.main.get_by_text(label, exact=True).click())


def _pane_spans(app, index: int = 0):
    return app.page.locator(PANES).nth(index).locator("span")


def test_spans_spell_the_text_one_per_piece(home):
    type_text(home, TEXT)
    expect(home.page.locator(PANES)).to_have_count(3)
    for k, tid in enumerate(("o200k_base", "cl100k_base", "llama3")):
        spans = _pane_spans(home, k)
        segs = builtin(tid).segments(TEXT)
        assert spans.count() == len(segs)
        assert spans.all_text_contents() == [s.text for s in segs]
    titles = home.page.locator(".tw-hd").all_inner_texts()
    assert titles[0].startswith("o200k_base") and f"{builtin('o200k_base').count(TEXT)} tokens" in titles[0]
    # colours come from the token id, by the stylesheet's class for its hue
    first = builtin("o200k_base").encode(TEXT)[0]
    hue = int((first * 137.508) % 360)
    assert f"h{hue}" in _pane_spans(home).first.get_attribute("class").split()
    assert _pane_spans(home).first.get_attribute("style") is None
    assert not home.exceptions()


def test_hover_shows_ids_bytes_and_offsets(home):
    type_text(home, TEXT)
    tok = builtin("o200k_base")
    segs = tok.segments(TEXT)
    k = next(i for i, s in enumerate(segs) if s.text == "🚀" or "🚀" in s.text)
    seg = segs[k]
    span = _pane_spans(home).nth(k)
    span.hover()
    title = span.get_attribute("title")
    ids = tok.encode(TEXT[seg.start : seg.end])
    raw = " ".join(f"{b:02x}" for b in seg.text.encode("utf-8"))
    head = f"id {ids[0]}" if len(ids) == 1 else "ids " + ", ".join(map(str, ids))
    assert title == f"{head} | bytes {raw} | chars {seg.start}-{seg.end}"


def test_ids_mode_and_whitespace_glyphs(home):
    type_text(home, "a  b\tc\nd")
    _click(home, "Show whitespace")
    shown = "".join(_pane_spans(home).all_text_contents())
    assert shown == "a⋅⋅b→c↵d"
    _click(home, "Token IDs")
    ids = builtin("o200k_base").encode("a  b\tc\nd")
    texts = _pane_spans(home).all_text_contents()
    assert " ".join(t.strip() for t in texts) == " ".join(map(str, ids))


def test_marks_where_the_tokenizers_cut_differently(home):
    type_text(home, TEXT)
    segs = [builtin(t).segments(TEXT) for t in ("o200k_base", "cl100k_base", "llama3")]
    marked = unshared_boundaries(*segs)
    for k, (ss, mk) in enumerate(zip(segs, marked)):
        expected = [s.text for s in ss if s.start in mk]
        got = home.page.locator(PANES).nth(k).locator("span.m").all_text_contents()
        assert got == expected
    assert any(marked)
    _click(home, "Mark differences")
    expect(home.page.locator(f"{PANES} span.m")).to_have_count(0)


@pytest.mark.parametrize(
    "payload",
    ["<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>", '"><svg onload=alert(2)>'],
)
def test_user_text_is_text_never_markup(home, payload):
    type_text(home, f"before {payload} after")
    _click(home, "Show whitespace")
    view = home.page.locator(PANES).first
    assert payload.replace(" ", "⋅") in "".join(_pane_spans(home).all_text_contents())
    assert view.locator("img, script, svg").count() == 0
    assert home.page.locator(".tw-view img, .tw-view script, .tw-view svg").count() == 0
    home.page.wait_for_timeout(300)
    assert home.dialogs == []


@pytest.mark.parametrize("width", [1400, 400])
def test_tokens_never_wrap_inside_themselves(shared, width):
    """With whitespace shown, `⋅concisely` broke as `⋅concisel` / `y,`."""
    app_page = as_new(shared(width))
    words = "Please answer concisely, with examples, and explain your reasoning step by step. "
    type_text(app_page, words * 40)
    _click(app_page, "Show whitespace")
    split = app_page.page.locator(PANES).first.evaluate(
        """box => [...box.querySelectorAll('span')]
            .filter(s => s.getClientRects().length > 1)
            .map(s => s.textContent)"""
    )
    assert split == []
    # and the text does wrap: many lines, nothing wider than the column
    box = app_page.page.locator(PANES).first
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    assert box.evaluate("b => b.scrollHeight") > 200


def test_a_long_token_breaks_only_because_it_is_wider_than_the_column(phone):
    app_page = phone
    type_text(app_page, "x " + "=" * 400 + " y")
    box = app_page.page.locator(PANES).first
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")


def test_ten_kilobytes_three_tokenizers_under_150_kb_per_rerun(app_page):
    from bench.bench_views import Wire
    from bench.corpus import english_prose

    wire = Wire(app_page.page)  # attached before the page opens its websocket
    app_page.goto()
    type_text(app_page, english_prose(10_000))
    expect(app_page.page.locator(PANES)).to_have_count(3)
    sent = wire.run(lambda: app_page.main.get_by_text("Show whitespace", exact=True).click())
    app_page.settle()
    assert 10_000 < sent < 150_000
    assert app_page.page.locator(".tw-view").first.get_attribute("data-draw-ms") is not None


def test_chat_request_marks_what_the_format_adds(app_page):
    import json
    from urllib.parse import urlencode

    from tokenizer_core.workspace import pack_text

    attack = "<img src=x onerror=alert(1)>"
    msgs = [["user", f"Show {attack} as text"]]
    app_page.goto(query=urlencode({"tok": "llama-3.1", "mode": "chat", "zm": pack_text(json.dumps(msgs))}))
    box = app_page.page.locator(PANES)
    expect(box).to_have_count(1)  # the request's view only: no text view in chat mode
    expected = (  # Meta's published Llama 3.1 prompt format
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
        "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>"
        f"<|start_header_id|>user<|end_header_id|>\n\nShow {attack} as text<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    )
    spans = box.locator("span")
    assert "".join(spans.all_text_contents()) == expected.replace("\n", "")
    special = box.locator("span.s")
    assert special.first.text_content() == "<|begin_of_text|>"
    assert "<|eot_id|>" in special.all_text_contents()
    said = "".join(box.locator("span:not(.s)").all_text_contents())
    assert f"Show {attack} as text" in said and "<|" not in said
    assert special.first.evaluate("s => getComputedStyle(s).outlineStyle") == "dashed"
    special.first.hover()
    assert special.first.get_attribute("title").startswith("id 128000 (added by the chat format) | bytes")
    # the role name is template text, not a special token: the hover says what it is
    role = special.filter(has_text="user").first
    role.hover()
    assert "(added by the chat format)" in role.get_attribute("title")
    assert "special token" not in role.get_attribute("title")
    assert box.locator("img").count() == 0 and app_page.dialogs == []
    _click(app_page, "Show whitespace")
    assert "↵" in "".join(box.locator("span").all_text_contents())
    assert not app_page.exceptions()
