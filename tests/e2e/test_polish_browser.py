"""What a new user meets on each page, checked where only a browser can see it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage, streamlit_server
from tokenizer_core.chunking import EMBEDDING_MODELS

pytestmark = pytest.mark.e2e


def _pick(app: AppPage, label: str, option: str) -> None:
    """Choose `option` in the main area's selectbox labelled `label`."""
    app.main.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    app.run(lambda: app.page.get_by_role("option", name=option).first.click())


def test_picking_an_embedding_model_logs_no_streamlit_warning(browser):
    """Streamlit logs a "default value but also set via the Session State API" warning once per
    server process, so this test has a server of its own: leaving `streamlit_server` fails on
    any traceback or stacked warning in its log."""
    model = next(m for m in EMBEDDING_MODELS if m.limit == 512)
    with streamlit_server() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            app = AppPage(context.new_page(), url)
            app.goto("chunks")
            _pick(app, "Embedding model", f"{model.name} ({model.limit:,})")
            size = app.main.get_by_test_id("stNumberInput").filter(has_text="Chunk size").locator("input")
            expect(size).to_have_value("512")
            assert app.exceptions() == []
        finally:
            context.close()


CHIPS = """() => Array.from(document.querySelectorAll('[data-testid="stMultiSelect"]')).map(ms => {
  const box = ms.querySelector('[data-testid="stMultiSelectTagsContainer"]');
  const b = box.getBoundingClientRect();
  return {
    box: [box.scrollWidth, box.clientWidth],
    chips: Array.from(box.querySelectorAll('span:has(> button) > span')).map(t => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, sw: t.scrollWidth, cw: t.clientWidth,
              inside: r.left >= b.left - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1};
    }),
  };
})"""


@pytest.mark.parametrize("width", [400, 1400])
def test_multiselect_chips_show_their_whole_labels(browser, server_url, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        app = AppPage(context.new_page(), server_url)
        app.goto("languages")  # 26 languages and 5 tokenizers chosen: the most chips of any page
        boxes = app.page.evaluate(CHIPS)
        assert len(boxes) >= 2 and all(b["chips"] for b in boxes[:2])
        for b in boxes:
            sw, cw = b["box"]
            assert sw <= cw + 1, f"chips scroll sideways ({sw} px in {cw} px)"
            for chip in b["chips"]:
                assert chip["sw"] <= chip["cw"], f"chip {chip['text']!r} is cut"
                assert chip["inside"], f"chip {chip['text']!r} is outside its box"
        assert "Portuguese" in [c["text"] for c in boxes[0]["chips"]]
    finally:
        context.close()


HEATMAP_CONTRAST = """() => {
  const lum = (c) => {
    const m = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2];
  };
  const chart = Array.from(document.querySelectorAll('[data-testid="stVegaLiteChart"]'))
    .find(c => c.querySelector('.mark-rect') && c.querySelector('.mark-text'));
  const out = [], rects = Array.from(chart.querySelectorAll('.mark-rect path'));
  chart.querySelectorAll('.mark-text text').forEach(t => {
    const r = t.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const under = rects.find(p => {
      const q = p.getBoundingClientRect();
      return q.left <= x && x <= q.right && q.top <= y && y <= q.bottom;
    });
    if (!under) return;
    const a = lum(getComputedStyle(t).fill), b = lum(getComputedStyle(under).fill);
    out.push({text: t.textContent, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)});
  });
  return out;
}"""


def test_heatmap_numbers_are_readable_on_every_cell(app_page):
    app_page.goto("languages")
    chart = app_page.main.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator(".mark-text text").first).to_be_attached(timeout=30_000)
    cells = app_page.page.evaluate(HEATMAP_CONTRAST)
    assert len(cells) >= 26 * 5
    poor = [c for c in cells if c["contrast"] < 4.5]  # WCAG AA for normal text
    assert poor == [], poor[:5]


def test_chunk_size_histogram_counts_whole_chunks(app_page):
    app_page.goto("chunks")  # the default sample: a few chunks, so a short count axis
    chart = app_page.main.get_by_test_id("stVegaLiteChart").first
    labels = chart.locator('g[aria-label^="Y-axis"] .role-axis-label text')
    expect(labels.first).to_be_attached(timeout=30_000)
    ticks = [t.strip() for t in labels.all_text_contents()]
    assert len(ticks) >= 2 and all(t.isdigit() for t in ticks), ticks
    assert chart.bounding_box()["height"] >= 300
