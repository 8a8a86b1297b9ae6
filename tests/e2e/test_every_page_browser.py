"""Every page on a phone (400 px) and a desktop (1400 px): nothing wider than the screen, no
chart text cut or outside its chart. (No request leaving the server and no warning in the log
are checked for every browser test by the fixtures in conftest.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage

pytestmark = pytest.mark.e2e

PAGES = [
    ("", "Prompt workspace"),
    ("datasets", "Datasets"),
    ("bpe", "BPE playground"),
    ("inside", "Inside a tokenizer"),
    ("languages", "Language costs"),
    ("identifiers", "Code identifiers"),
    ("chunks", "Chunk previewer"),
]
IDENTIFIER_TABS = ["Naming styles", "Layout"]  # tabs with charts besides the first

# Elements whose right edge is beyond the viewport, unless a scrolling or clipping ancestor
# inside the viewport holds them (a wide table scrolls inside its own frame, which is fine).
WIDER_THAN_SCREEN = """() => {
  const vw = window.innerWidth, out = [];
  if (document.documentElement.scrollWidth > vw) out.push('document scrollWidth ' + document.documentElement.scrollWidth);
  const main = document.querySelector('[data-testid="stMain"]');
  if (main && main.scrollWidth > main.clientWidth + 1) out.push('main scrollWidth ' + main.scrollWidth);
  for (const el of (main || document.body).querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= vw + 1) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    let held = false;
    for (let a = el.parentElement; a && a !== main; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox !== 'visible' && a.getBoundingClientRect().right <= vw + 1) { held = true; break; }
    }
    if (!held) {
      const name = el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
      out.push(name + ' right=' + Math.round(r.right) + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
    }
  }
  return out.slice(0, 12);
}"""

# Text of every chart (titles, legends, axes): inside the chart's own box and not shortened
# with "…" by Vega's label limit.
CUT_CHART_TEXT = """() => {
  const out = [];
  document.querySelectorAll('[data-testid="stVegaLiteChart"]').forEach((chart, i) => {
    const box = chart.getBoundingClientRect();
    chart.querySelectorAll('svg text').forEach(t => {
      const s = (t.textContent || '').trim();
      if (!s) return;
      const r = t.getBoundingClientRect();
      if (r.width === 0) return;
      if (s.endsWith('…')) out.push('chart ' + i + ': shortened "' + s + '"');
      else if (r.left < box.left - 1 || r.right > box.right + 1 || (r.top + r.bottom) / 2 < box.top || (r.top + r.bottom) / 2 > box.bottom)
        out.push('chart ' + i + ': "' + s + '" outside the chart (' + Math.round(r.left) + '-' + Math.round(r.right) +
                 ' x ' + Math.round(r.top) + '-' + Math.round(r.bottom) + ' of ' + Math.round(box.left) + '-' + Math.round(box.right) + ' x ' + Math.round(box.top) + '-' + Math.round(box.bottom) + ')');
    });
  });
  return out.slice(0, 12);
}"""


def _wait_for_charts(app: AppPage) -> None:
    charts = app.main.get_by_test_id("stVegaLiteChart")
    for i in range(charts.count()):
        expect(charts.nth(i).locator("svg .mark-group").first).to_be_attached(timeout=30_000)
    app.page.wait_for_timeout(400)  # charts sized to their container draw once more


def _check(app: AppPage, where: str) -> None:
    _wait_for_charts(app)
    assert app.exceptions() == [], where
    wide = app.page.evaluate(WIDER_THAN_SCREEN)
    assert wide == [], f"{where}: wider than the screen: {wide}"
    cut = app.page.evaluate(CUT_CHART_TEXT)
    assert cut == [], f"{where}: chart text cut: {cut}"


@pytest.fixture(params=[400, 1400], ids=["phone-400px", "desktop-1400px"])
def sized_page(request, browser, server_url):
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    app = AppPage(page, server_url)
    yield app
    context.close()
    assert app.offsite == [], f"requests left the server: {app.offsite[:5]}"


@pytest.mark.parametrize("path, heading", PAGES, ids=[p or "counter" for p, _ in PAGES])
def test_every_page_fits_the_screen_and_its_charts(sized_page, path, heading):
    app = sized_page
    app.goto(path)
    expect(app.main.get_by_role("heading", name=heading).first).to_be_visible()
    _check(app, f"/{path}")
    if path == "identifiers":
        for tab in IDENTIFIER_TABS:
            app.run(lambda tab=tab: app.main.get_by_role("tab", name=tab).click())
            _check(app, f"/{path} tab {tab}")
