"""The identifier tables' coloured splits on a phone: a token is never broken across two lines
(a break inside "Started" read as "Starte|d", one boundary more than the tokenizer made), and a
name breaks only between its words ("gewicht_g|ramm" looked like a cut too)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

# Tokens drawn on more than one line: a range over a token's text gets one box per line.
SPLIT_TOKENS = """root => [...root.querySelectorAll('span.tw-tok')]
  .filter(s => !s.textContent.includes('\\n'))
  .filter(s => {
    const range = document.createRange();
    range.selectNodeContents(s);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    return tops.size > 1;
  })
  .map(s => s.textContent)"""

# Identifier names broken inside a word: the name's cell may break only at its <wbr>s, between
# words, so each of its text pieces stays on one line.
SPLIT_NAMES = """root => [...root.querySelectorAll('tbody tr td:first-child')]
  .filter(td => [...td.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).some(n => {
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    return tops.size > 1;
  }))
  .map(td => td.textContent)"""


@pytest.mark.parametrize("width", [400, 1400])
def test_identifier_splits_never_break_inside_a_token(app_page, width):
    app = app_page
    app.page.set_viewport_size({"width": width, "height": 1000})
    app.goto("identifiers")  # the first sample, three tokenizers
    splits = app.page.locator(".tw-splits").first
    expect(splits.locator("span.tw-tok").first).to_be_visible()
    costs = app.page.locator(".tw-costs").first
    expect(costs.locator("span.tw-tok").first).to_be_attached()
    assert splits.locator("span.tw-tok").count() > 100
    assert splits.evaluate(SPLIT_TOKENS) == []
    assert costs.evaluate(SPLIT_TOKENS) == []
    assert splits.evaluate(SPLIT_NAMES) == []
    # the split table scrolls inside its own box; the page itself does not scroll sideways
    assert app.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert not app.exceptions()
