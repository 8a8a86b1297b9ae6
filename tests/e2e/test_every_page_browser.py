"""Every page in Chromium on a phone (400 px) and a desktop (1400 px), in the states a user
reaches with a click or two (a chat, saved versions, each tab):

- nothing is wider than the screen, and no chart's text is cut or outside its chart;
- every control has an accessible name (an icon-only button was read as "delete icon");
- no select box or label is shortened with "…";
- the wide tables fit the page at 1400 px, and static tables wrap on a phone;
- a chat message's three buttons stay on one row on a phone.

Each page is loaded once per width and walked through its states (`Tour`); each test checks one
state. (No request leaving the server and no warning in the log are checked for every browser
test by the fixtures in conftest.py.)"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage, page_of_its_own

pytestmark = pytest.mark.e2e

CONTROLS = {"button", "textbox", "combobox", "checkbox", "switch", "radio", "slider", "tab", "spinbutton"}

# Select boxes whose shown value is wider than the box, and labels shortened with an ellipsis
# (the hidden labels of icon buttons are meant to be outside their box).
SHORTENED = r"""() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const out = [];
  for (const e of main.querySelectorAll('input[role="combobox"]'))
    if (seen(e) && e.value && e.scrollWidth > e.clientWidth + 1) out.push('value: ' + e.value);
  for (const e of main.querySelectorAll('[data-testid="stWidgetLabel"] p, [data-testid="stWidgetLabel"] label, button p, [data-testid="stMetricLabel"] p, .st-key-workspace_counts [data-testid="stMarkdownContainer"] > p:first-child'))
    if (seen(e) && !e.closest('[class*="st-key-icons_"]') && e.scrollWidth > e.clientWidth + 1) out.push('label: ' + e.innerText.trim());
  // an input wider than its column runs under the next one (and hides its buttons)
  for (const w of main.querySelectorAll('[data-testid="stSelectbox"], [data-testid="stMultiSelect"], [data-testid="stNumberInput"], [data-testid="stTextInput"]'))
    if (seen(w) && w.scrollWidth > w.clientWidth + 1) out.push('wider than its column: ' + w.innerText.trim().split('\n')[0]);
  return out;
}"""

# Tables that need sideways scrolling: a data grid's scroller, or an HTML table's frame.
SCROLLING_TABLES = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const out = [];
  for (const g of main.querySelectorAll('[data-testid="stDataFrame"]')) {
    const s = g.querySelector('.dvn-scroller');
    if (!s || s.getBoundingClientRect().width === 0) continue;
    if (s.scrollWidth > s.clientWidth + 2) {
      const heads = [...g.querySelectorAll('table[role="grid"] th')].map(h => h.innerText.trim()).filter(Boolean);
      out.push('grid: ' + heads.join(' | '));
    }
  }
  for (const t of main.querySelectorAll('.tw-splits, .tw-costs, .stTable')) {
    if (t.getBoundingClientRect().width > 0 && t.scrollWidth > t.clientWidth + 2) out.push('table: ' + t.innerText.trim().slice(0, 60));
  }
  return out;
}"""

# Every data grid on view has drawn its header row (before that it reads as a grid of no columns).
GRIDS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
  .every(g => { const s = g.querySelector('.dvn-scroller');
    return !s || s.getBoundingClientRect().width === 0
      || [...g.querySelectorAll('table[role="grid"] th')].some(h => h.innerText.trim()); })"""


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


def unnamed_controls(app: AppPage) -> list[tuple[str, str]]:
    """Controls in Chromium's accessibility tree with no name, or only an icon's ("delete icon")."""
    for box in app.main.locator("textarea.tw-live-box").all():  # named by its component's script
        expect(box).to_have_attribute("aria-label", re.compile(r"\S"))
    cdp = app.page.context.new_cdp_session(app.page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    bad = []
    for n in nodes:
        role = (n.get("role") or {}).get("value")
        if n.get("ignored") or role not in CONTROLS:
            continue
        name = ((n.get("name") or {}).get("value") or "").strip()
        if not name or name.endswith(" icon"):
            bad.append((role, name))
    return bad


def chat_mode(app: AppPage) -> None:
    app.run(lambda: app.main.get_by_text("Chat request", exact=True).click())


def two_versions(app: AppPage) -> None:
    for name in ("v1", "v2"):
        box = app.main.get_by_role("textbox", name="Version name")
        box.fill(name)
        app.run(lambda box=box: box.press("Enter"))
        app.run(lambda: app.main.get_by_role("button", name="Save the prompt as a version").click())


def open_tab(label: str):
    def go(app: AppPage) -> None:
        app.run(lambda: app.main.get_by_role("tab", name=label).click())

    return go


Step = Callable[[AppPage], None]
# Each page's states, in the order one visit walks them: (state, the step that reaches it from the
# one before). The first is the page as it loads.
WALKS: dict[str, list[tuple[str, Step | None]]] = {
    "": [("workspace", None), ("workspace-versions", two_versions), ("workspace-chat", chat_mode)],
    "datasets": [("datasets", None)],
    "bpe": [("bpe", None)],
    "inside": [("inside", None)],
    "languages": [("languages", None)],
    "identifiers": [
        ("identifiers", None),
        ("identifiers-styles", open_tab("Naming styles")),
        ("identifiers-teaching", open_tab("Teaching mode")),
        ("identifiers-layout", open_tab("Layout")),
    ],
    "chunks": [("chunks", None)],
}
PATH = {state: path for path, walk in WALKS.items() for state, _ in walk}
HEADINGS = {
    "": "Prompt workspace",
    "datasets": "Datasets",
    "bpe": "BPE playground",
    "inside": "Inside a tokenizer",
    "languages": "Language costs",
    "identifiers": "Code identifiers",
    "chunks": "Chunk previewer",
}
WIDTHS = {400: "phone-400px", 1400: "desktop-1400px"}


def _look(app: AppPage) -> dict:
    """What the tests check in one state of a page, read once."""
    _wait_for_charts(app)
    look = {
        "exceptions": app.exceptions(),
        "wider": app.page.evaluate(WIDER_THAN_SCREEN),
        "cut": app.page.evaluate(CUT_CHART_TEXT),
        "unnamed": unnamed_controls(app),
        "shortened": app.page.evaluate(SHORTENED),
    }
    app.page.wait_for_function(GRIDS_DRAWN, timeout=15_000)  # a grid's headers come after its frame
    look["scrolling"] = app.page.evaluate(SCROLLING_TABLES)
    return look


class Tour:
    """Each page loaded once per width, in a new browser context (a first load at that width: a
    phone's starts with the sidebar closed), and walked through its states; what each state
    looks like is kept for the tests. A step that fails is every later state's failure."""

    def __init__(self, browser, server_url: str) -> None:
        self.browser, self.server_url = browser, server_url
        self.looks: dict[tuple[int, str], dict | str] = {}

    def look(self, width: int, state: str) -> dict:
        if (width, state) not in self.looks:
            self._walk(width, PATH[state])
        look = self.looks[(width, state)]
        if isinstance(look, str):
            pytest.fail(look, pytrace=False)
        return look

    def _walk(self, width: int, path: str) -> None:
        app = page_of_its_own(self.browser, self.server_url, width)
        state = f"/{path} loading"
        try:
            app.goto(path)
            expect(app.main.get_by_role("heading", name=HEADINGS[path]).first).to_be_visible()
            for state, step in WALKS[path]:
                if step:
                    step(app)
                self.looks[(width, state)] = _look(app) | {"offsite": app.offsite}
        except Exception as e:  # noqa: BLE001 (each test of a later state reports it)
            for later, _ in WALKS[path]:
                self.looks.setdefault((width, later), f"{width} px, at {state}: {type(e).__name__}: {e}")
        finally:
            app.page.context.close()


@pytest.fixture(scope="module")
def tour(browser, server_url) -> Tour:
    return Tour(browser, server_url)


@pytest.fixture(params=list(WIDTHS), ids=list(WIDTHS.values()))
def width(request) -> int:
    return request.param


@pytest.mark.parametrize("path", list(HEADINGS), ids=[p or "counter" for p in HEADINGS])
def test_every_page_fits_the_screen_and_its_charts(tour, width, path):
    tabs = ["identifiers-styles", "identifiers-layout"] if path == "identifiers" else []
    for state in [WALKS[path][0][0], *tabs]:
        look = tour.look(width, state)
        assert look["exceptions"] == [], state
        assert look["wider"] == [], f"{state}: wider than the screen"
        assert look["cut"] == [], f"{state}: chart text cut"
        assert look["offsite"] == [], f"requests left the server: {look['offsite'][:5]}"


@pytest.mark.parametrize("path", [p for p in HEADINGS if p != "bpe"], ids=lambda p: p or "counter")
def test_each_page_opens_by_url_without_errors(tour, path):
    """Its heading shows (or its walk fails) and no exception: the desktop load of the walk."""
    look = tour.look(1400, WALKS[path][0][0])
    assert look["exceptions"] == []


LABELLED = [
    "workspace", "workspace-chat", "workspace-versions", "bpe", "inside", "languages",
    "identifiers", "identifiers-styles", "identifiers-teaching", "chunks",
]  # fmt: skip


@pytest.mark.parametrize("state", LABELLED)
def test_every_control_has_a_name_and_no_label_is_shortened(tour, width, state):
    look = tour.look(width, state)
    assert look["unnamed"] == []
    assert look["shortened"] == []
    if width == 1400:  # a phone cannot show seven columns of numbers; a desktop can
        # except the identifiers table: four columns per tokenizer, its names pinned on the left
        assert [t for t in look["scrolling"] if not t.startswith("grid: identifier |")] == []
    else:  # static tables and the coloured splits wrap instead of running off the screen, except
        # the identifiers' splits: a token is never broken over two lines (issue 31, 12c), so a
        # column of three tokenizers' splits scrolls inside its own box on a phone
        assert [
            t
            for t in look["scrolling"]
            if t.startswith("table: ") and not t.startswith("table: identifier\t")
        ] == []
    assert look["exceptions"] == []


def test_icon_buttons_are_named_after_what_they_do(app_page):
    app = app_page
    app.goto("")
    chat_mode(app)
    for name in ("Move message 1 down", "Move message 2 up", "Remove message 1", "Remove message 2"):
        expect(app.main.get_by_role("button", name=name, exact=True)).to_have_count(1)
    expect(app.main.get_by_role("button", name="Move message 1 up", exact=True)).to_be_disabled()
    expect(app.main.get_by_role("textbox", name="Text of message 1", exact=True)).to_have_count(1)
    app.run(lambda: app.main.get_by_role("button", name="Remove message 1", exact=True).click())
    expect(app.main.get_by_role("combobox", name="Message 1")).to_have_value("User")
    two_versions(app)
    expect(app.main.get_by_role("button", name="Remove version v2", exact=True)).to_have_count(1)
    app.run(lambda: app.main.get_by_role("button", name="Remove version v1", exact=True).click())
    expect(app.main.get_by_role("button", name="Remove version v1", exact=True)).to_have_count(0)


def test_a_chat_message_keeps_its_buttons_on_one_row_on_a_phone(app_page):
    app = app_page
    app.page.set_viewport_size({"width": 400, "height": 1000})
    app.goto("")
    chat_mode(app)
    boxes = [
        app.main.get_by_role("button", name=name, exact=True).bounding_box()
        for name in ("Move message 2 up", "Move message 2 down", "Remove message 2")
    ]
    assert len({round(b["y"]) for b in boxes}) == 1, boxes  # one row
    role = app.main.get_by_role("combobox", name="Message 2").bounding_box()
    text = app.main.get_by_role("textbox", name="Text of message 2").bounding_box()
    assert text["y"] + text["height"] - role["y"] < 330  # was about 460 with the buttons stacked


def test_the_sidebar_names_the_remove_button_after_the_tokenizer(app_page):
    app = app_page
    app.goto("bpe")  # the first visit trains the default preset
    app.run(lambda: app.main.get_by_role("button", name="Use this tokenizer on every page").click())
    sidebar = app.page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Your own tokenizers").click()
    remove = sidebar.get_by_role("button", name=re.compile(r"^Remove my BPE \(\d+ merges\)$"))
    expect(remove).to_have_count(1)
    assert unnamed_controls(app) == []
    app.run(lambda: remove.click())
    expect(remove).to_have_count(0)
