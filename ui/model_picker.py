"""The model picker: a labelled combobox that adds the model typed, and says why when it cannot.

Built with ``st.components.v2`` (inline HTML/CSS/JS, no build step). Streamlit's multiselect adds
every loose match on Enter ("Select N matches") and answers "No results" without a reason; this
one follows the ARIA combobox pattern:

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


@dataclass(frozen=True, slots=True)
class PickerOption:
    """One entry of the picker: what it shows and what a search matches."""

    id: str
    name: str
    detail: str = ""  # the second line: tokenizer, maker, price; or why it is not counted
    terms: str = ""  # more words a search matches (API id, maker, sizes)
    kind: str = "model"  # "model", "uncounted", "encoding", "own" or "source" (only the price source has it)


_HTML = """
<div class="tw-pick">
  <label class="tw-pick-label"></label>
  <div class="tw-pick-chips" role="list"></div>
  <input class="tw-pick-input" type="text" role="combobox" aria-autocomplete="list"
         aria-expanded="false" autocomplete="off" spellcheck="false">
  <div class="tw-pick-status" role="status" aria-live="polite"></div>
  <div class="tw-pick-pop" hidden>
    <div class="tw-pick-note" hidden></div>
    <ul class="tw-pick-list" role="listbox"></ul>
  </div>
</div>
"""

_CSS = """
.tw-pick { font-family: var(--st-font, sans-serif); color: var(--st-text-color); }
.tw-pick-label { display: block; font-size: 0.875rem; margin-bottom: 0.25rem; }
.tw-pick-chips { display: flex; flex-wrap: wrap; gap: 0.3rem; margin-bottom: 0.3rem; }
.tw-pick-chips:empty { display: none; }
.tw-pick-chip { display: inline-flex; align-items: center; gap: 0.2rem; max-width: 100%;
  padding: 0.1rem 0.2rem 0.1rem 0.55rem; border-radius: 1rem; font-size: 0.85rem;
  background: var(--st-secondary-background-color); border: 1px solid var(--st-border-color, #d0d7de); }
.tw-pick-chip span { overflow-wrap: anywhere; }
.tw-pick-chip button { font: inherit; line-height: 1; border: 0; background: transparent; cursor: pointer;
  color: var(--st-text-color); padding: 0.15rem 0.35rem; border-radius: 1rem; }
.tw-pick-chip button:hover, .tw-pick-chip button:focus-visible { background: var(--st-border-color, #d0d7de); }
.tw-pick-input { box-sizing: border-box; width: 100%; padding: 0.5rem 0.75rem; font: inherit;
  color: var(--st-text-color); background: var(--st-secondary-background-color);
  border: 1px solid var(--st-border-color, transparent); border-radius: var(--st-base-radius, 0.5rem); }
.tw-pick-input:focus { outline: none; border-color: var(--st-primary-color); }
.tw-pick-status { font-size: 0.8rem; min-height: 1.1rem; opacity: 0.85; }
.tw-pick-pop { border: 1px solid var(--st-border-color, #d0d7de); border-radius: var(--st-base-radius, 0.5rem);
  background: var(--st-background-color); margin-top: 0.1rem; }
.tw-pick-note { font-size: 0.85rem; padding: 0.45rem 0.7rem; border-bottom: 1px solid var(--st-border-color, #d0d7de); }
.tw-pick-list { list-style: none; margin: 0; padding: 0.2rem 0; max-height: 19rem; overflow-y: auto; }
.tw-pick-list li { padding: 0.3rem 0.7rem; cursor: pointer; }
.tw-pick-list li .n { display: block; }
.tw-pick-list li .d { display: block; font-size: 0.78rem; opacity: 0.75; overflow-wrap: anywhere; }
.tw-pick-list li[aria-selected="true"] { background: var(--st-secondary-background-color);
  box-shadow: inset 3px 0 0 var(--st-primary-color); }
.tw-pick-list li[aria-disabled="true"] { cursor: default; opacity: 0.7; }
.tw-pick-list li.tw-pick-head { cursor: default; font-size: 0.75rem; opacity: 0.7; padding-top: 0.45rem; }
"""

_JS = r"""
const norm = (s) => (s || "").toLowerCase().replace(/[\s_\-\/:,()·]+/g, " ").trim();
const KIND_RANK = { model: 0, uncounted: 0, encoding: 0, own: 0, source: 1 };

const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// A query word as patterns: where it ends (or starts) with a digit, the number must end (start)
// there too, so "4" finds "llama 4" and "gpt 4o" but not "405b", and "3.1" not "3.10".
function matcher(w) {
  const body = esc(w) + (/\d$/.test(w) ? "(?!\\d)" : "");
  return { start: new RegExp("^" + body), any: new RegExp((/^\d/.test(w) ? "(?<!\\d)" : "") + body) };
}

// 0 exact, 1 prefix at a word boundary, 2 prefix, 3 every word starts a word of the name,
// 4 every word is in the name, id or terms; null: no match
function score(o, q, whole, parts) {
  const name = o._name, id = o._id;
  if (name === q || id === q) return 0;
  for (const s of [name, id]) {
    if (whole.start.test(s)) return (s.length === q.length || s[q.length] === " ") ? 1 : 2;
  }
  const nameWords = name.split(" ");
  if (parts.every((m) => nameWords.some((n) => m.start.test(n)))) return 3;
  if (parts.every((m) => m.any.test(o._all))) return 4;
  return null;
}

// A catalog model whose name the query names (score 3 or better) comes before everything else,
// an encoding of the same name included: "llama 4" + Enter adds Llama 4 Scout, not the encoding.
const namesModel = (h) => (h.o.kind === "model" || h.o.kind === "uncounted") && h.s <= 3;

function rank(options, query) {
  const q = norm(query);
  if (!q) return [];
  const whole = matcher(q);
  const parts = q.split(" ").map(matcher);
  const hits = [];
  options.forEach((o, i) => {
    const s = score(o, q, whole, parts);
    if (s !== null) hits.push({ o, s, i });
  });
  // models the query names first; then an exact name, wherever it is; then the app's own entries
  // before the price source's
  hits.sort((a, b) => namesModel(b) - namesModel(a) || (a.s > 0) - (b.s > 0)
    || KIND_RANK[a.o.kind] - KIND_RANK[b.o.kind] || a.s - b.s || a.i - b.i);
  return hits.map((h) => h.o);
}

function noteFor(notes, query) {
  const q = norm(query);
  if (q.length < 3) return "";
  const hit = notes.find((n) => n.keys.some((k) => q.includes(k) || (q.length >= 4 && k.startsWith(q))));
  return hit ? hit.text : "";
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const root = parentElement.querySelector(".tw-pick");
  const input = root.querySelector(".tw-pick-input");
  const chips = root.querySelector(".tw-pick-chips");
  const pop = root.querySelector(".tw-pick-pop");
  const list = root.querySelector(".tw-pick-list");
  const note = root.querySelector(".tw-pick-note");
  const status = root.querySelector(".tw-pick-status");
  let s = root.__tw;
  if (!s) {
    s = { data, results: [], active: -1, seq: 0 };
    root.__tw = s;
    const uid = "tw-pick-" + Math.random().toString(36).slice(2, 9);
    list.id = uid + "-list";
    input.id = uid + "-input";
    root.querySelector(".tw-pick-label").htmlFor = input.id;
    input.setAttribute("aria-controls", list.id);
    const send = (op, id) => { s.seq += 1; setTriggerValue("action", { op, id, seq: s.seq }); };
    s.send = send;
    const chosen = () => new Set(s.data.chosen);
    const close = () => {
      pop.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    };
    const setActive = (i) => {
      s.active = i;
      list.querySelectorAll("li[role=option]").forEach((li, j) => li.setAttribute("aria-selected", j === i ? "true" : "false"));
      const li = list.querySelector(`li[data-i="${i}"]`);
      if (li) { input.setAttribute("aria-activedescendant", li.id); li.scrollIntoView({ block: "nearest" }); }
      else input.removeAttribute("aria-activedescendant");
    };
    const add = (o) => {
      if (!o) {
        status.textContent = input.value.trim() ? `No model or tokenizer matches "${input.value.trim()}".` : "";
        return;
      }
      if (chosen().has(o.id)) { status.textContent = `${o.name} is already chosen.`; return; }
      status.textContent = `${o.name} added.`;
      input.value = "";
      close();
      send("add", o.id);
    };
    const render = () => {
      const q = input.value;
      const results = rank(s.data.options, q).slice(0, 60);
      s.results = results;
      const text = noteFor(s.data.notes, q);
      note.hidden = !text;
      note.textContent = text;
      list.replaceChildren();
      const picked = chosen();
      let shownSource = false;
      results.forEach((o, i) => {
        if (o.kind === "source" && !shownSource) {
          shownSource = true;
          const head = document.createElement("li");
          head.className = "tw-pick-head";
          head.setAttribute("role", "presentation");
          head.textContent = s.data.source_heading;
          list.appendChild(head);
        }
        const li = document.createElement("li");
        li.setAttribute("role", "option");
        li.id = `${list.id}-${i}`;
        li.dataset.i = String(i);
        const n = document.createElement("span");
        n.className = "n";
        n.textContent = o.name + (picked.has(o.id) ? " (chosen)" : "");
        const d = document.createElement("span");
        d.className = "d";
        d.textContent = picked.has(o.id) ? "Already chosen: it is in the list above." : o.detail;
        li.append(n, d);
        if (picked.has(o.id)) li.setAttribute("aria-disabled", "true");
        li.addEventListener("mousedown", (e) => { e.preventDefault(); add(o); });
        list.appendChild(li);
      });
      if (q.trim() && !results.length) {
        const li = document.createElement("li");
        li.className = "tw-pick-head";
        li.setAttribute("role", "presentation");
        li.textContent = text ? "Nothing to add for this search." : `No model or tokenizer matches "${q.trim()}".`;
        list.appendChild(li);
      }
      const open = !!q.trim();
      pop.hidden = !open;
      input.setAttribute("aria-expanded", open ? "true" : "false");
      setActive(results.length ? 0 : -1);
    };
    s.render = render;
    input.addEventListener("input", () => { status.textContent = ""; render(); });
    input.addEventListener("focus", () => { if (input.value.trim()) render(); });
    input.addEventListener("blur", close);
    input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (pop.hidden) { render(); return; }
        const n = s.results.length;
        if (!n) return;
        setActive(((s.active + (e.key === "ArrowDown" ? 1 : -1)) % n + n) % n);
      } else if (e.key === "Enter") {
        e.preventDefault();
        if (!input.value.trim()) return;
        add(s.results[s.active] || null);
      } else if (e.key === "Escape") {
        if (!pop.hidden) { e.preventDefault(); close(); }
      }
    });
  }
  data.options = data.options.map(([id, name, detail, terms, kind]) =>
    ({ id, name, detail, terms, kind, _name: norm(name), _id: norm(id), _all: norm(name + " " + id + " " + terms) }));
  s.data = data;
  root.querySelector(".tw-pick-label").textContent = data.label;
  input.placeholder = data.placeholder;
  const byId = new Map(data.options.map((o) => [o.id, o]));
  chips.replaceChildren();
  for (const id of data.chosen) {
    const o = byId.get(id);
    const chip = document.createElement("span");
    chip.className = "tw-pick-chip";
    chip.setAttribute("role", "listitem");
    const t = document.createElement("span");
    t.textContent = o ? o.name : id;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "\u00d7";
    b.setAttribute("aria-label", `Remove ${o ? o.name : id}`);
    b.title = `Remove ${o ? o.name : id}`;
    b.addEventListener("click", () => { status.textContent = `${o ? o.name : id} removed.`; s.send("remove", id); });
    chip.append(t, b);
    chips.appendChild(chip);
  }
  if (!pop.hidden) s.render();
}
"""

_COMPONENT = st.components.v2.component("tw_model_picker", html=_HTML, css=_CSS, js=_JS)


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
