"""The model picker: a labelled combobox that adds the model typed, and says why when it cannot.

Built with ``st.components.v2`` (no build step; HTML, CSS and JS in ui/components/model_picker.*).
Streamlit's multiselect adds every loose match on Enter ("Select N matches") and answers "No
results" without a reason; this one follows the ARIA combobox pattern:

* The text box is a ``role="combobox"`` with a visible label; the results are a ``listbox``
  whose active option follows the arrow keys (``aria-activedescendant``). Enter adds the active
  option only: the best match, or nothing when nothing matches. Escape closes the list.
* Results are ranked: the catalog's models whose name the query names first (so "llama 4" +
  Enter adds Llama 4 Scout, not the Llama 4 encoding); then the exact name (or API id); then the
  app's own entries before the models only the price source knows, each by how they match (names
  that start with what was typed, at a word boundary first; then names with every typed word as
  the start of one of their words; then any mention), then in catalog order. A typed number
  matches whole numbers only: "4" finds "Llama 4" and "GPT-4o", never "405B".
* A model already chosen is listed as chosen (Enter says so); a search for a model the app
  knows but cannot count (Claude, Gemini...) says why in place, above the results; no match
  says "no model or tokenizer matches".
* Chosen models are chips, each with a "Remove <name>" button.

The choice lives in ``st.session_state[key]`` (a list of ids; the page may set it, e.g. from a
share link); the browser sends each add or remove as a one-off event handled before the rerun.
Every piece of text is placed with ``textContent``, never parsed as HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from ui.components import read


@dataclass(frozen=True, slots=True)
class PickerOption:
    """One entry of the picker: what it shows and what a search matches."""

    id: str
    name: str
    detail: str = ""  # the second line: tokenizer, maker, price; or why it is not counted
    terms: str = ""  # more words a search matches (API id, maker, sizes)
    kind: str = "model"  # "model", "uncounted", "encoding", "own" or "source" (only the price source has it)


_COMPONENT = st.components.v2.component(
    "tw_model_picker",
    html=read("model_picker.html"),
    css=read("model_picker.css"),
    js=read("model_picker.js"),
)


def _on_action(key: str, valid: Callable[[str], bool]) -> None:
    event = (st.session_state.get(f"{key}_picker") or {}).get("action")
    if not isinstance(event, dict) or not isinstance(event.get("id"), str):
        return
    current = list(st.session_state.get(key, []))
    if event.get("op") == "add" and valid(event["id"]) and event["id"] not in current:
        st.session_state[key] = [*current, event["id"]]
    elif event.get("op") == "remove":
        st.session_state[key] = [i for i in current if i != event["id"]]


def model_picker(
    key: str,
    options: Sequence[PickerOption],
    *,
    label: str,
    notes: dict[str, str],
    placeholder: str = "Type a model or a tokenizer",
    source_heading: str = "Only in the price source (you choose the tokenizer):",
) -> list[str]:
    """The picker; returns the chosen ids (``st.session_state[key]``), in the order picked.

    `notes` maps a search word ("claude") to what the picker says in place when a search has it.
    Assign ``st.session_state[key]`` before the call to choose from Python.
    """
    ids = {o.id for o in options}
    chosen = [i for i in dict.fromkeys(st.session_state.get(key, [])) if i in ids]
    st.session_state[key] = chosen
    data = {
        "label": label,
        "placeholder": placeholder,
        "source_heading": source_heading,
        "options": [[o.id, o.name, o.detail, o.terms, o.kind] for o in options],  # lists: a third smaller
        "chosen": chosen,
        "notes": [{"keys": [k], "text": t} for k, t in notes.items()],
    }
    _COMPONENT(key=f"{key}_picker", data=data, on_action_change=lambda: _on_action(key, ids.__contains__))
    return st.session_state[key]
