"""Work that survives a reload: each page's inputs kept in the browser's local storage.

A reload (F5) or a browser restart starts a new Streamlit session, which knows nothing of the
last one. So each page keeps its work in the browser, under ``tokenizer-workbench/<page>`` in
local storage (per browser profile, on the user's machine only; nothing is kept on the server),
and restores it when the page is opened in a new session:

* `keep_work(page)` places a small component (``st.components.v2``, no iframe). In a session's
  first visit of the page it reads the page's saved text and sends it to Python once; Python
  checks it (tokenizer_core.saved_work: a corrupt, edited or old text is ignored with a quiet
  note) and puts the values back in ``st.session_state``, then reruns.
* After that, each run builds the page's snapshot (the values of `PAGES[page]`, plus what a page
  adds: the workspace's chat, versions and prices, the BPE model's merges) and sends it to the
  browser only when it changed (by its digest), at most MAX_BYTES; what does not fit is named.
* A share link wins: a workspace opened on a link (not reloaded: the address bar of a reloaded
  workspace holds the user's own work) keeps the link's contents.
* "Clear my saved work" (the sidebar) removes every page's saved work from this browser.

Built on public APIs only (session state, callbacks, components v2), apart from ui/settings.py.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable

import streamlit as st

from tokenizer_core.bpe import BPEError, load_bpe_model, save_bpe_model
from tokenizer_core.pricing.table import PriceError, edits_from_json, edits_to_json
from tokenizer_core.saved_work import MAX_BYTES, digest, pack, unpack
from tokenizer_core.workspace.intake import read_messages, read_versions

PREFIX = "tokenizer-workbench/"
_CLEAR = "_tw_saved_clear"
_RELOADED = "_tw_saved_reloaded"  # the browser says the tab was reloaded (not opened on a link)
_PENDING = "_tw_saved_pending"  # (page, the browser's text): restored by the next run of the app  # a nonce: the browser removes every page's saved work once

# What each page keeps, by session-state key (or a regular expression of keys) and kind. Buttons,
# uploads, data editors and components are never here: Streamlit refuses to have them set.
PAGES: dict[str, dict[str, str]] = {
    "workspace": {
        "counter_text": "str", "counter_mode": "str", "counter_tokenizers": "strs", "counter_chat_tools": "str",
        "counter_special": "bool", "counter_ctx": "str", "counter_ctx_custom": "int", "counter_view": "str",
        "counter_ws": "bool", "counter_diff": "bool", "counter_out_tokens": "int", "counter_cached_tokens": "int",
        "counter_requests": "int", "counter_version_name": "str", "prices_rate": "str", "counter_sample": "str",
        "counter_part": "int", "counter_cmp_a": "int", "counter_cmp_b": "int", "counter_cmp_tok": "str",
        "_chat": "json", "_versions": "json", "_prices": "json",
    },
    "bpe": {
        "bpe_corpus_text": "str", "bpe_corpus_sample": "str", "bpe_format": "str", "bpe_symbols": "str",
        "bpe_marker": "str", "bpe_marker_custom": "str", "bpe_pretok": "str", "bpe_tie": "str", "bpe_stop": "str",
        "bpe_merges": "int", "bpe_vocab": "int", "bpe_minfreq": "int", "bpe_probe": "str",
        "bpe_words_order": "str", "bpe_reg_name": "str", "bpe_last_preset": "str",
        "_model": "str", "_fp": "str", "_step": "int", "_words": "json",
    },
    "languages": {
        "languages_selected": "strs", "languages_tokenizers": "strs", "languages_base": "str",
        "languages_requests": "int", "languages_in_tokens": "int", "languages_out_tokens": "int",
        "languages_share": "float", "languages_left": "str", "languages_right": "str", "languages_pair_tok": "str",
        "languages_pair_ws": "bool", "languages_cost_models": "strs", "prices_rate": "str", "_texts": "json",
    },
    "identifiers": {
        "identifiers_text": "str", "identifiers_sample": "str", "identifiers_tokenizers": "strs",
        "identifiers_language": "str", "identifiers_strings": "bool", "identifiers_comments": "bool",
        "identifiers_add_greedy": "bool", "identifiers_greedy_vocab": "str", "identifiers_greedy_text": "str",
        "identifiers_try_name": "str", "identifiers_filter": "str", "identifiers_builtins": "bool",
        "identifiers_styles": "strs", "identifiers_min_chars": "int", "identifiers_min_occ": "int",
        "identifiers_sort": "str", "identifiers_top_n": "int", "identifiers_split_mode": "str",
        "identifiers_inspect": "str", "identifiers_view_tok": "str", "identifiers_view_line": "int",
    },
    "chunks": {
        "chunks_text": "str", "chunks_sample": "str", "chunks_strategy": "str", "chunks_tokenizer": "str",
        "chunks_model": "str", "chunks_size": "int", "chunks_overlap_unit": "str", "chunks_overlap": "int",
        "chunks_overlap_pct": "float", "chunks_ws": "bool", "chunks_first": "int",
    },
}  # fmt: skip

_JS = """
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  const s = parentElement.__twSaved || (parentElement.__twSaved = { asked: null, cleared: null });
  if (data.ping) {  // the saved work is back in the session: ask for the run that shows it
    if (s.pinged !== data.ping) { s.pinged = data.ping; setTriggerValue("applied", data.ping); }
    return;
  }
  let store;
  try { store = window.localStorage; } catch (e) { store = null; }
  if (!store) {  // storage off (a private window that forbids it, a policy): say so once
    if (s.asked !== "off") { s.asked = "off"; setTriggerValue("stored", { key: data.key, raw: null, off: true }); }
    return;
  }
  try {
    if (data.clear && data.clear !== s.cleared) {
      s.cleared = data.clear;
      for (let i = store.length - 1; i >= 0; i--) {
        const k = store.key(i);
        if (k && k.startsWith(data.prefix)) store.removeItem(k);
      }
    }
    if (data.load) {  // a new session on this page: send what the browser kept, once
      if (s.asked !== data.key) {
        s.asked = data.key;
        const nav = performance.getEntriesByType("navigation")[0];
        const reloaded = !!nav && nav.type === "reload";
        setTriggerValue("stored", { key: data.key, raw: store.getItem(data.key), reloaded });
      }
      return;
    }
    if (typeof data.snapshot === "string") {
      store.setItem(data.key, data.snapshot);
      store.setItem(data.key + "#digest", data.digest);
    } else if (data.digest && store.getItem(data.key + "#digest") !== data.digest && s.resent !== data.digest) {
      s.resent = data.digest;  // a snapshot that never reached the browser: ask for it again, once
      setTriggerValue("resend", data.digest);
    }
  } catch (e) {  // full storage: Python says what was not kept
    setTriggerValue("failed", data.digest || "");
  }
}
"""

_component = st.components.v2.component("tw_saved_work", html="<span hidden></span>", js=_JS)


def _k(page: str, what: str) -> str:
    return f"_tw_saved_{what}/{page}"


# ------------------------------------------------------------------ what a page adds to its values


def _workspace_extra() -> dict:
    from .prices import price_edits
    from .workspace.chat_editor import current_messages
    from .workspace.versions import versions

    ss = st.session_state
    out: dict = {"_versions": [v.to_json() for v in versions()], "_prices": edits_to_json(price_edits())}
    if "counter_chat_msgs" in ss:
        out["_chat"] = [[m.role, m.content] for m in current_messages("counter_chat")]
    return out


def _workspace_restore(values: dict, notes: list[str]) -> bool:
    """Put the workspace's extras back; False: the page was opened on a share link, which wins
    (a reload of the page is not that: its address bar holds the user's own work)."""
    from .prices import set_price_edits
    from .workspace.chat_editor import set_messages
    from .workspace.versions import set_versions

    if st.query_params.to_dict() and not st.session_state.get(_RELOADED):
        return False  # opened on a link: its contents win
    if isinstance(values.get("_chat"), list):
        messages, found = read_messages(values["_chat"], where="the saved chat")
        notes += found
        set_messages("counter_chat", messages)
    if "_versions" in values:
        vs, found = read_versions(values["_versions"])
        notes += found
        set_versions(vs)
    if "_prices" in values:
        try:
            set_price_edits(edits_from_json(values["_prices"], where="the saved prices"))
        except PriceError as exc:
            notes.append(str(exc))
    return True


def _bpe_extra() -> dict:
    ss = st.session_state
    model = ss.get("bpe_model")
    if model is None:
        return {}
    return {
        "_model": save_bpe_model(model),
        "_fp": ss.get("bpe_fp") or "",
        "_step": int(ss.get("bpe_step") or 0),
        # the corpus's words and counts, which the page shows and a model file does not hold
        "_words": [list(model.words), list(model.freqs), model.words_cut]
        if model.source == "trained"
        else None,
    }


def _bpe_restore(values: dict, notes: list[str]) -> bool:
    from .bpe.model import set_model
    from .jobs import cancel_job

    if "_model" not in values:
        return True
    try:
        model = load_bpe_model(values["_model"])
    except BPEError as exc:
        notes.append(f"the saved BPE model was not used: {exc}")
        return True
    words = values.get("_words")
    if (
        isinstance(words, list) and len(words) == 3 and isinstance(words[0], list) and isinstance(words[1], list)
        and len(words[0]) == len(words[1]) and all(isinstance(w, str) for w in words[0])
        and all(isinstance(f, int) and not isinstance(f, bool) and f > 0 for f in words[1])
        and isinstance(words[2], int) and not isinstance(words[2], bool) and words[2] >= 0
    ):  # fmt: skip
        model = dataclasses.replace(
            model, words=tuple(words[0]), freqs=tuple(words[1]), words_cut=words[2], source="trained"
        )
    cancel_job("bpe")  # the first visit's training of the default corpus: the saved model wins
    st.session_state.pop("bpe_job", None)
    st.session_state.pop("bpe_autotrain", None)
    set_model(model, values.get("_fp") or None)
    step = values.get("_step", 1)
    st.session_state["bpe_step"] = max(0, min(step if isinstance(step, int) else 1, model.n_merges))
    return True


def _languages_extra() -> dict:
    from .languages.texts import TABLE

    records = st.session_state.get("languages_current") or st.session_state.get(TABLE)
    return {"_texts": records} if isinstance(records, list) else {}


def _languages_restore(values: dict, notes: list[str]) -> bool:
    from tokenizer_core.languages import EDITOR_COLUMNS

    from .languages.texts import EDITOR, TABLE

    texts = values.get("_texts")
    if not isinstance(texts, list):
        return True
    records = [
        {c: r[c] if isinstance(r.get(c), str) else "" for c in EDITOR_COLUMNS}
        for r in texts[:500]
        if isinstance(r, dict)
    ]
    if len(records) != len(texts):
        notes.append("some saved languages were not rows of the table and were left out")
    st.session_state[TABLE] = records
    st.session_state.pop("languages_current", None)
    st.session_state.pop(EDITOR, None)
    return True


_EXTRA: dict[str, tuple[Callable[[], dict], Callable[[dict, list[str]], bool]]] = {
    "workspace": (_workspace_extra, _workspace_restore),
    "bpe": (_bpe_extra, _bpe_restore),
    "languages": (_languages_extra, _languages_restore),
}


# ------------------------------------------------------------------ snapshot, restore, component


def snapshot(page: str) -> tuple[str, list[str]]:
    """The page's work as the text the browser keeps, and the keys left out to stay under the cap."""
    ss = st.session_state
    values = {key: ss[key] for key in PAGES[page] if key in ss and not key.startswith("_")}
    if page in _EXTRA:
        values.update(_EXTRA[page][0]())
    return pack(page, values, max_bytes=MAX_BYTES)


def restore(page: str, raw: object) -> list[str]:
    """Put a page's saved work (the browser's text) back into the session; returns notes on what
    could not be used. Never raises on bad input."""
    values, notes = unpack(raw, page, PAGES[page])
    if not values:
        return notes
    if page in _EXTRA and not _EXTRA[page][1](values, notes):
        return notes
    for key, value in values.items():
        if not key.startswith("_"):
            st.session_state[key] = value
    return notes


def _on_stored(page: str, widget: str) -> None:
    ss = st.session_state
    value = (ss.get(widget) or {}).get("stored")
    if ss.get(_k(page, "loaded")) or not isinstance(value, dict):
        return
    ss[_k(page, "loaded")] = True
    ss[_RELOADED] = value.get("reloaded") is True
    if value.get("off"):
        ss[_k(page, "notes")] = ["This browser does not let the page keep your work: it is lost on reload."]
        return
    if value.get("raw"):
        ss[_PENDING] = (page, value.get("raw"))


def apply_saved_work() -> None:
    """Put a page's saved work back in a run that draws no widget of the page; the browser then
    asks for the next run, which shows it. The entry file calls it before the page runs.

    Values written in a callback, or in a run that draws their widgets, make Streamlit warn about
    widgets that have a default; a run the browser asks for starts from them as from values the
    user set (a rerun asked for by the script itself would not).
    """
    ss = st.session_state
    if _PENDING not in ss:
        return
    page, raw = ss.pop(_PENDING)
    try:
        notes = restore(page, raw)
    except Exception:  # noqa: BLE001  (saved work must never stop a page)
        notes = ["the saved work could not be used"]
    if notes:
        ss[_k(page, "notes")] = [f"Your saved work on this page: {n}." for n in notes[:3]]
    st.caption("Restoring your work...")
    _component(key="_tw_saved_apply", data={"ping": uuid.uuid4().hex[:8]}, on_applied_change=lambda: None)
    st.stop()


def _on_resend(page: str) -> None:
    st.session_state.pop(_k(page, "sent"), None)


def _on_failed(page: str) -> None:
    st.session_state[_k(page, "notes")] = [
        "This browser's storage for the app is full: your latest work on this page is not kept after a reload."
    ]


def keep_work(page: str, *, in_fragment: bool = False, key: str | None = None) -> None:
    """Keep this page's work in the browser and restore it in a new session (see the module doc).
    Call once per run of the page, after the widgets whose values it keeps, outside any column.
    `in_fragment`: called in a fragment, whose own rerun would leave the rest of the page showing
    what it showed before the work was restored."""
    ss = st.session_state
    if _PENDING in ss and in_fragment:
        st.rerun()  # the whole app: the entry file restores the work (apply_saved_work)
    widget = key or f"_tw_saved_{page}"
    data: dict = {"key": PREFIX + page, "prefix": PREFIX, "clear": ss.pop(_CLEAR, None)}
    if not ss.get(_k(page, "loaded")):
        data["load"] = True
    else:
        text, left_out = snapshot(page)
        now = digest(text)
        if ss.get(_k(page, "held")) == now:  # just cleared: kept out until the page changes
            data["digest"] = None
        else:
            ss.pop(_k(page, "held"), None)
            data["digest"] = now
            if ss.get(_k(page, "sent")) != now:
                data["snapshot"] = text
                ss[_k(page, "sent")] = now
        ss[_k(page, "left_out")] = left_out
    _component(
        key=widget, data=data,
        on_stored_change=lambda: _on_stored(page, widget),
        on_resend_change=lambda: _on_resend(page),
        on_failed_change=lambda: _on_failed(page),
    )  # fmt: skip
    if left_out := ss.get(_k(page, "left_out")):
        st.caption(
            f"Too large to keep in this browser ({MAX_BYTES // 1_000_000} MB per page): "
            + ", ".join(_LABELS.get(k, k) for k in left_out)
            + ". It is lost on reload: save it to a file."
        )
    for note in ss.pop(_k(page, "notes"), []):
        st.toast(note, icon=":material/history:")


_LABELS = {
    "counter_text": "the text", "_chat": "the chat", "_versions": "the versions", "_model": "the trained model",
    "bpe_corpus_text": "the corpus", "identifiers_text": "the code", "chunks_text": "the document",
    "_texts": "your translations", "counter_chat_tools": "the tools",
}  # fmt: skip


def clear_saved_work() -> None:
    """Remove every page's saved work from this browser (the next run of any page does it)."""
    ss = st.session_state
    ss[_CLEAR] = uuid.uuid4().hex[:8]
    for page in PAGES:
        if ss.get(_k(page, "loaded")):
            ss[_k(page, "held")] = digest(snapshot(page)[0])
        ss.pop(_k(page, "sent"), None)


def saved_work_sidebar() -> None:
    """The sidebar's word on saved work and its Clear button."""
    with st.sidebar.expander("Your work in this browser", icon=":material/history:"):
        st.caption(
            "Each page keeps your texts, settings, chat, versions and trained model in this browser "
            "(local storage, up to 2 MB per page), so a reload or a restart finds them again. Nothing "
            "is kept on the server. Your own tokenizers are not kept: add them again after a reload."
        )
        if st.button("Clear my saved work", key="saved_work_clear", icon=":material/delete:",
                     on_click=clear_saved_work):  # fmt: skip
            st.caption("Cleared. What you change from now on is kept again.")
