"""A link to copy: the address in a read-only box (selected when focused) and a "Copy link" button.

Built with ``st.components.v2``. A code block (st.code) showed the share link before; its
highlighter is drawn again on every run of the page, and with a 10 KB prompt packed into the
link that cost ~14 ms of the browser's time per keystroke (bench/bench_live.py, the link left
out and put back). The link is placed with ``value``, never parsed as HTML.
"""

from __future__ import annotations

import streamlit as st

_HTML = """
<div class="tw-link">
  <input class="tw-link-text" type="text" readonly spellcheck="false">
  <button type="button" class="tw-link-copy">Copy link</button>
</div>
"""

_CSS = """
.tw-link { display: flex; gap: 0.5rem; align-items: center; font-family: var(--st-font, sans-serif); }
.tw-link-text {
  flex: 1; min-width: 0; box-sizing: border-box; padding: 0.45rem 0.6rem;
  font-family: var(--st-code-font, ui-monospace, monospace); font-size: 0.85rem;
  color: var(--st-text-color); background: var(--st-secondary-background-color);
  border: 1px solid var(--st-border-color, transparent); border-radius: var(--st-base-radius, 0.5rem);
}
.tw-link-text:focus { outline: none; border-color: var(--st-primary-color); }
.tw-link-copy {
  font: inherit; font-size: 0.875rem; padding: 0.4rem 0.8rem; cursor: pointer; color: var(--st-text-color);
  background: var(--st-background-color); border: 1px solid var(--st-border-color, #ccc);
  border-radius: var(--st-button-radius, 0.5rem);
}
.tw-link-copy:hover { border-color: var(--st-primary-color); color: var(--st-primary-color); }
"""

_JS = """
export default function ({ data, parentElement }) {
  const box = parentElement.querySelector(".tw-link-text");
  const button = parentElement.querySelector(".tw-link-copy");
  box.setAttribute("aria-label", data.label);
  if (box.value !== data.link) box.value = data.link;
  if (button.__tw) return;
  button.__tw = true;
  box.addEventListener("focus", () => box.select());
  button.addEventListener("click", async () => {
    box.focus();
    box.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(box.value);  // a secure page (https or localhost) only
      copied = true;
    } catch (e) {
      copied = document.execCommand ? document.execCommand("copy") : false;
    }
    button.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
    setTimeout(() => { button.textContent = "Copy link"; }, 2000);
  });
}
"""

_box = st.components.v2.component("tw_link_box", html=_HTML, css=_CSS, js=_JS)


def link_box(link: str, *, key: str, label: str = "Link") -> None:
    """Show `link` to copy (`label` names the box for screen readers)."""
    _box(key=key, data={"link": link, "label": label})
