"""Reading and setting every kind of widget in Chromium by its key, for the settings tests.

Streamlit puts a widget's key on its element as the class ``st-key-<key>``. `settings(app)` reads
every keyed setting widget of the main area (select boxes, multiselects, number and text inputs,
text areas, the live text boxes, toggles and checkboxes, radios, segmented controls, sliders,
tabs) as ``{key: value}``, as the page shows it; the setters below change one widget each, the
way a user does, and wait for the rerun to finish.
"""

from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage

READ = r"""(root) => {
  const out = {};
  const keyOf = (el) => {
    const c = [...el.classList].find((x) => x.startsWith('st-key-'));
    return c ? c.slice(7) : null;
  };
  const text = (el) => (el ? el.innerText.trim() : null);
  const scope = document.querySelector(root);
  for (const el of scope.querySelectorAll('.stElementContainer[class*="st-key-"], .stTabs[class*="st-key-"]')) {
    const key = keyOf(el);
    if (!key || el.getBoundingClientRect().height === 0) continue;
    const t = (id) => el.querySelector(`[data-testid="${id}"]`);
    let v;
    if (el.classList.contains('stTabs')) {
      v = text(el.querySelector('[role="tab"][aria-selected="true"]'));
    } else if (t('stSelectbox')) {
      v = el.querySelector('input[role="combobox"]').value;
    } else if (t('stMultiSelect')) {
      v = [...el.querySelectorAll('[data-tag] span[title]')].map((s) => s.getAttribute('title'));
    } else if (t('stNumberInput') || t('stTextInput')) {
      v = el.querySelector('input').value;
    } else if (t('stTextArea')) {
      v = el.querySelector('textarea').value;
    } else if (t('stCheckbox')) {
      v = el.querySelector('input[type="checkbox"]').checked;
    } else if (t('stRadio')) {
      const c = el.querySelector('input[type="radio"]:checked');
      v = c ? text(c.closest('label')) : null;
    } else if (t('stButtonGroup')) {
      v = [...el.querySelectorAll('[role="radio"][aria-checked="true"], [role="checkbox"][aria-checked="true"]')].map(text);
    } else if (t('stSlider')) {
      v = [...el.querySelectorAll('input[type="range"]')].map((s) => s.value);
    } else if (key.endsWith('_picker')) {  // the model picker: its chosen names, in order
      const host = el.querySelector('[data-testid="stBidiComponentIsolated"]');
      const box = host && (host.shadowRoot || host);
      if (!box) continue;
      v = [...box.querySelectorAll('.tw-pick-chip')].map((c) => c.innerText.replace('\u00d7', '').trim());
    } else if (key.endsWith('_live_box')) {
      const host = el.querySelector('[data-testid="stBidiComponentIsolated"]');
      const box = host && (host.shadowRoot || host).querySelector('textarea');
      if (!box) continue;
      v = box.value;
    } else {
      continue;  // not a setting: a button, an upload, a table, a chart, a token view
    }
    out[key] = v;
  }
  return out;
}"""


def settings(app: AppPage, *, root: str = '[data-testid="stMain"]') -> dict[str, object]:
    """Every keyed setting widget shown in `root` (the main area by default), as shown."""
    return app.page.evaluate(READ, root)


def widget(app: AppPage, key: str):
    return app.page.locator(f".st-key-{key}").first


def choose(app: AppPage, key: str, option: str | re.Pattern) -> None:
    """A select box: open it and pick `option` (its label as shown, or a pattern of it). A rerun
    that redraws the box closes its list; the list is then opened again (up to 3 times)."""
    it = app.page.get_by_role("option", name=option, exact=True).first
    for _ in range(3):
        if not _open_list(app, key, it):
            raise AssertionError(f"{key}: no option {option!r} in the list")
        try:
            app.run(lambda: it.click(timeout=5_000))
            break
        except PlaywrightTimeout:
            app.page.keyboard.press("Escape")
    expect(widget(app, key).get_by_role("combobox")).to_have_value(option)


def _open_list(app: AppPage, key: str, option) -> bool:
    """Open the select box's list (its box, else its arrow) until `option` shows in it."""
    for opener in (
        widget(app, key).get_by_role("combobox"),
        widget(app, key).get_by_role("button", name="Open"),
    ):
        opener.click()
        try:
            option.wait_for(timeout=3_000)
            return True
        except PlaywrightTimeout:
            app.page.keyboard.press("Escape")
    return False


def _chooser(app: AppPage, key: str):
    """The model picker with this key (a component keyed ``<key>_picker``), else the multiselect."""
    picker = app.page.locator(f".st-key-{key}_picker")
    return picker.first if picker.count() else widget(app, key)


def unpick(app: AppPage, key: str, chip: str | re.Pattern) -> None:
    """A multiselect or the model picker: remove one chosen value (its label, or a pattern of
    "Remove <label>")."""
    name = chip if isinstance(chip, re.Pattern) else f"Remove {chip}"
    app.run(lambda: _chooser(app, key).get_by_role("button", name=name, exact=True).first.click())


def pick(app: AppPage, key: str, option: str, *, typed: str | None = None) -> None:
    """A multiselect or the model picker: add a value, found by typing `typed` (default: the
    option) into its search."""
    _chooser(app, key).locator("input").first.click()
    app.page.keyboard.type(typed or option)
    wanted = re.compile("^" + re.escape(option)) if typed else option
    app.run(lambda: app.page.get_by_role("option", name=wanted, exact=True).first.click())
    app.page.keyboard.press("Escape")


def number(app: AppPage, key: str, value: float | int) -> None:
    box = widget(app, key).locator("input").first
    box.fill(str(value))
    app.run(lambda: box.press("Enter"))
    assert float(box.input_value()) == float(value), (key, box.input_value())


def text(app: AppPage, key: str, value: str) -> None:
    """A text input (Enter) or a text area (Ctrl+Enter)."""
    area = widget(app, key).locator("textarea")
    box = area.first if area.count() else widget(app, key).locator("input").first
    box.fill(value)
    app.run(lambda: box.press("Control+Enter" if area.count() else "Enter"))


def live_text(app: AppPage, key: str, value: str) -> None:
    """A live text box (ui/live_text.py): it sends the text after a pause in typing."""
    box = widget(app, f"{key}_live_box").locator("textarea")
    app.run(lambda: box.fill(value))
    expect(box).to_have_value(value)


def flip(app: AppPage, key: str) -> None:
    """A toggle or checkbox."""
    w = widget(app, key)
    before = w.locator("input[type=checkbox]").is_checked()
    app.run(lambda: w.locator("label").first.click())
    expect(w.locator("input[type=checkbox]")).to_be_checked(checked=not before)


def radio(app: AppPage, key: str, option: str) -> None:
    app.run(lambda: widget(app, key).get_by_test_id("stRadio").get_by_text(option, exact=True).click())


def segment(app: AppPage, key: str, option: str) -> None:
    """A segmented control or pills (single choice)."""
    app.run(lambda: widget(app, key).get_by_role("radio", name=option, exact=True).click())


def slide(app: AppPage, key: str, steps: int) -> None:
    """A slider: `steps` presses of the right arrow (negative: left), one rerun each."""
    thumb = widget(app, key).locator("input[type=range]").first
    for _ in range(abs(steps)):
        before = thumb.input_value()
        thumb.focus()
        app.run(lambda: thumb.press("ArrowRight" if steps > 0 else "ArrowLeft"))
        expect(thumb).not_to_have_value(before)


def tab(app: AppPage, key: str, label: str) -> None:
    """Open a tab (tabs with a key rerun the page when another tab is opened)."""
    it = app.page.locator(f".st-key-{key}").get_by_role("tab", name=label, exact=True)
    if it.get_attribute("aria-selected") != "true":
        app.run(lambda: it.click())
    expect(it).to_have_attribute("aria-selected", "true")


# The app's pages, in its navigation's order.
TITLES = (
    "Prompt workspace",
    "Datasets",
    "BPE playground",
    "Language costs",
    "Code identifiers",
    "Chunk previewer",
)


def go(app: AppPage, title: str) -> None:
    """To the page with this title through the app's own navigation (the same browser session)."""
    app.run(lambda: app.page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click())
    expect(app.main.get_by_role("heading", name=title).first).to_be_visible()
    assert not app.exceptions(), title


def visit_every_other_page(app: AppPage, here: str) -> None:
    """Every other page through the app's navigation, then back to `here`."""
    for title in [t for t in TITLES if t != here] + [here]:
        go(app, title)


# Keeps every websocket the page opens, so that a test can close it: the browser reconnects
# to the same server session, as after a network drop.
KEEP_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (...args) { const s = new Native(...args); window.__sockets.push(s); return s; };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
})();"""


def keep_sockets(app: AppPage) -> None:
    """Call before the first goto: lets `reconnect` close the page's websocket."""
    app.page.add_init_script(KEEP_SOCKETS)


def reconnect(app: AppPage) -> None:
    """Drop the websocket; the page reconnects to the same session (within the server's
    disconnectedSessionTTL) and reruns."""
    before = app.page.evaluate("window.__sockets.length")
    app.page.evaluate("window.__sockets.forEach((s) => s.close())")
    app.page.wait_for_function(f"window.__sockets.length > {before}", timeout=30_000)
    app.page.locator("[data-testid='stApp'][data-test-connection-state='CONNECTED']").wait_for(timeout=30_000)
    app.settle()


def changed(before: dict, after: dict) -> list[str]:
    """Keys whose value the plan did not change (it must change every widget it meets)."""
    return sorted(k for k in after if k in before and before[k] == after[k])
