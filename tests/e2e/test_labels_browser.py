"""Labels, names and tables a user can read whole, in Chromium at 1400 and 400 px: every control
has an accessible name (an icon-only button was read as "delete icon"), no select box or label is
shortened with "…", the wide tables the issue named fit the page at 1400 px, and a chat message's
three buttons stay on one row on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage

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


SCENES = {
    "workspace": ("", []),
    "workspace-chat": ("", [chat_mode]),
    "workspace-versions": ("", [two_versions]),
    "bpe": ("bpe", []),
    "languages": ("languages", []),
    "identifiers": ("identifiers", []),
    "identifiers-styles": ("identifiers", [open_tab("Naming styles")]),
    "identifiers-teaching": ("identifiers", [open_tab("Teaching mode")]),
    "chunks": ("chunks", []),
}


@pytest.fixture(params=[1400, 400], ids=["1400px", "400px"])
def width(request) -> int:
    return request.param


@pytest.mark.parametrize("scene", list(SCENES))
def test_every_control_has_a_name_and_no_label_is_shortened(app_page, width, scene):
    app = app_page
    app.page.set_viewport_size({"width": width, "height": 1000})
    path, steps = SCENES[scene]
    app.goto(path)
    for step in steps:
        step(app)
    assert unnamed_controls(app) == []
    assert app.page.evaluate(SHORTENED) == []
    app.page.wait_for_function(GRIDS_DRAWN, timeout=15_000)  # a grid's headers come after its frame
    if width == 1400:  # a phone cannot show seven columns of numbers; a desktop can
        # except the identifiers table: four columns per tokenizer, its names pinned on the left
        assert [
            t for t in app.page.evaluate(SCROLLING_TABLES) if not t.startswith("grid: identifier |")
        ] == []
    else:  # static tables and the coloured splits wrap instead of running off the screen, except
        # the identifiers' splits: a token is never broken over two lines (issue 31, 12c), so a
        # column of three tokenizers' splits scrolls inside its own box on a phone
        assert [
            t
            for t in app.page.evaluate(SCROLLING_TABLES)
            if t.startswith("table: ") and not t.startswith("table: identifier\t")
        ] == []
    assert not app.exceptions()


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
