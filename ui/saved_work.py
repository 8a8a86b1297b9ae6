"""Work that survives a reload: each page's inputs kept in the browser's local storage.

A reload (F5) or a browser restart starts a new Streamlit session, which knows nothing of the
last one. So each page keeps its work in the browser, under ``tokenizer-workbench/<page>`` in
local storage (per browser profile, on the user's machine only; nothing is kept on the server),
and restores it when the page is opened in a new session:

* `keep_work(page)` places a small component (``st.components.v2``, no iframe; its JS is
  ui/components/saved_work.js). Each run asks it for the page's saved text until the answer is
  here (a run cut short by the next never reaches the browser: Streamlit drops its messages);
  the browser reads once per session (`session_mark`) and sends it, again if no run says it
  came; Python checks it (tokenizer_core.saved_work: a corrupt, edited or old text is ignored
  with a quiet note) and puts the values back in ``st.session_state``, in a run that draws none
  of the page, then asks the browser for the run that shows them. A run the browser asked for
  before it had that answer (on a busy server, often) carries the page's old values, which
  Streamlit would take over the restored ones: it restores again (`_guard_the_restore`).
* After that, each run builds the page's snapshot (the values of `PAGES[page]`, plus what a page
  adds: the workspace's chat, versions and prices, the BPE model's merges) and sends it to the
  browser only when it changed (by its digest), at most MAX_BYTES; what does not fit is named.
* Light values (`LIGHT`: the BPE playground's step) are kept in a second, small entry per page
  (``tokenizer-workbench/<page>#light``): a click sends a few bytes, not the page's snapshot.
  They go back one run after the rest (the step needs the restored model on the page first).
* What the user changed before the restore came is theirs: the end of the session's first run of
  the page notes its values (`note_first_run`, called by the entry file); a key whose value differs
  from that when the saved work arrives is left alone, and a text the saved one would have replaced
  goes behind the box's "Restore the text you had before" button, with a toast.
* A share link wins: a workspace opened on a link (not reloaded: the address bar of a reloaded
  workspace holds the user's own work) keeps the link's contents.
* The user's own tokenizers are kept in the browser's IndexedDB (ui/saved_tokenizers.py); a
  page's saved choice that names one still on its way is put back as it arrives (`awaiting`).
* "Clear my saved work" (the sidebar) removes every page's saved work and every kept tokenizer
  from this browser.

Built on public APIs only (session state, callbacks, components v2).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

import streamlit as st

from tokenizer_core.saved_work import MAX_BYTES, digest, pack, unpack
from ui.components import read
from ui.saved_tokenizers import awaiting, clear_own_tokenizers, put_back_awaiting, still_coming
from ui.state import session_mark

PREFIX = "tokenizer-workbench/"
_CLEAR = "_tw_saved_clear"  # a nonce, sent in every run: the browser removes every page's saved work once
_RELOADED = "_tw_saved_reloaded"  # the browser says the tab was reloaded (not opened on a link)
_FIRST_DUE = "_tw_saved_first_due"  # the page whose first run is under way
_LIGHT_DUE = "_tw_saved_light_due"  # (page, light values): put back after the page drew its work
_LIGHT_NOW = "_tw_saved_light_now"  # the same, for the next run's start
_PENDING = "_tw_saved_pending"  # (page, the browser's text): restored by the next run of the app
_GUARD = "_tw_saved_guard"  # a restore not yet on screen: what it restored, the runs asked for since
_APPLIED = "_tw_saved_applied"  # the run asked for that this run is (its ping)
GUARD_RUNS = 3  # runs of the page as it was before a restore, each answered by restoring again

# What each page keeps, by session-state key (or a regular expression of keys) and kind. Buttons,
# uploads, data editors and components are never here: Streamlit refuses to have them set.
PAGES: dict[str, dict[str, str]] = {
    "workspace": {
        "workspace_text": "str", "workspace_mode": "str", "workspace_tokenizers": "strs", "workspace_chat_tools": "str",
        "workspace_special": "bool", "workspace_ctx": "str", "workspace_ctx_custom": "int", "workspace_view": "str",
        "workspace_ws": "bool", "workspace_diff": "bool", "workspace_out_tokens": "int", "workspace_cached_tokens": "int",
        "workspace_requests": "int", "workspace_version_name": "str", "prices_rate": "str", "workspace_sample": "str",
        "workspace_part": "int", "workspace_cmp_a": "int", "workspace_cmp_b": "int", "workspace_cmp_tok": "str",
        "workspace_share_chunks": "int", "workspace_share_chunk_tokens": "int", "workspace_share_answer": "int",
        "_chat": "json", "_chat_images": "json", "_versions": "json", "_prices": "json",
    },
    "bpe": {
        "bpe_corpus_text": "str", "bpe_corpus_sample": "str", "bpe_format": "str", "bpe_symbols": "str",
        "bpe_marker": "str", "bpe_marker_custom": "str", "bpe_pretok": "str", "bpe_tie": "str", "bpe_stop": "str",
        "bpe_merges": "int", "bpe_vocab": "int", "bpe_minfreq": "int", "bpe_probe": "str",
        "bpe_words_order": "str", "bpe_reg_name": "str", "bpe_last_preset": "str",
        "_model": "str", "_fp": "str", "_words": "json",
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
    "inside": {"inside_text": "str", "inside_tokenizer": "str", "inside_compare": "strs"},
    "datasets": {  # the settings and a pasted list; a dropped file is the browser's to give again
        "datasets_paste": "str", "datasets_models": "strs", "datasets_budget": "int", "datasets_output": "int",
        "datasets_tpm": "int", "datasets_epochs": "int", "datasets_file_models": "bool",
        "datasets_output_mode": "str", "datasets_output_share": "int", "datasets_enqueued": "int",
        "datasets_training_price": "float", "datasets_last": "json", "datasets_url_mode": "str",
        "datasets_url_w": "int", "datasets_url_h": "int",
    },
    "chunks": {
        "chunks_text": "str", "chunks_sample": "str", "chunks_strategy": "str", "chunks_tokenizer": "str",
        "chunks_model": "str", "chunks_size": "int", "chunks_overlap_unit": "str", "chunks_overlap": "int",
        "chunks_overlap_pct": "float", "chunks_ws": "bool", "chunks_first": "int",
    },
}  # fmt: skip

# Values that change with a click and are small: kept in a second entry per page
# (``tokenizer-workbench/<page>#light``), so a click sends a few bytes, not the page's whole
# snapshot (the BPE playground's holds the corpus and the trained model, up to 2 MB). They are
# put back after the page's other work (the step needs its model).
LIGHT: dict[str, dict[str, str]] = {"bpe": {"bpe_step": "int"}}
LIGHT_MAX_BYTES = 10_000

_component = st.components.v2.component(
    "tw_saved_work", html="<span hidden></span>", js=read("saved_work.js")
)


def _k(page: str, what: str) -> str:
    return f"_tw_saved_{what}/{page}"


# ------------------------------------------------------------------ what a page adds to its values

Extra = tuple[Callable[[], dict], Callable[[dict, list[str]], bool]]
# Per page: what it adds to its values (the workspace's chat, the BPE model...) and how it puts
# that back (False: leave the saved work unused). Registered by the page's `keep_work` call.
_EXTRA: dict[str, Extra] = {}


# ------------------------------------------------------------------ snapshot, restore, component


def snapshot(page: str) -> tuple[str, list[str]]:
    """The page's work as the text the browser keeps, and the keys left out to stay under the cap."""
    values = {
        key: st.session_state[key]
        for key in PAGES[page]
        if key in st.session_state and not key.startswith("_")
    }
    if page in _EXTRA:
        values.update(_EXTRA[page][0]())
    return pack(page, values, max_bytes=MAX_BYTES)


def light_snapshot(page: str) -> str | None:
    """The page's light values (`LIGHT`) as the text the browser keeps, None if it has none."""
    if page not in LIGHT:
        return None
    values = {key: st.session_state[key] for key in LIGHT[page] if key in st.session_state}
    return pack(page, values, max_bytes=LIGHT_MAX_BYTES)[0]


def note_first_run() -> None:
    """At the end of a session's first run of a page (the entry file calls it after the page, also
    when the page stopped early), note the values it showed: a value that differs from these when
    the saved work comes back is the user's, typed or chosen meanwhile, and is kept."""
    page = st.session_state.pop(_FIRST_DUE, None)
    if page in PAGES:
        st.session_state[_k(page, "first")] = {
            key: st.session_state[key]
            for key in PAGES[page]
            if key in st.session_state and not key.startswith("_")
        }


def _changed_by_user(page: str) -> set[str]:
    """The page's keys whose values changed since the session's first run of the page (the user
    typed or chose before the saved work came back): the restore leaves them as they are."""
    first = st.session_state.get(_k(page, "first"))
    if not isinstance(first, dict):
        return set()
    return {key for key, value in first.items() if st.session_state.get(key, value) != value}


def restore(page: str, raw: object, light: object = None) -> list[str]:
    """Put a page's saved work (the browser's text, and its light values) back into the session;
    returns notes on what could not be used. Never raises on bad input. A value the user changed
    in this session before the restore came is kept (a text the restore would have replaced goes
    behind the text box's Restore button)."""
    values, notes = unpack(raw, page, PAGES[page])
    if values and (page not in _EXTRA or _EXTRA[page][1](values, notes)):
        changed = _changed_by_user(page)
        for key, value in awaiting(values).items():
            if key.startswith("_"):
                continue
            if key not in changed:
                st.session_state[key] = value
            elif (
                key.endswith("_text")
                and isinstance(value, str)
                and value
                and value != st.session_state.get(key)
            ):
                st.session_state[key.removesuffix("_text") + "_previous"] = value
                notes.append(
                    "you typed before your saved text came back, so your typing stays; "
                    "**Restore the text you had before** brings the saved text back"
                )
    if page in LIGHT and light:
        kept, _ = unpack(light, page, LIGHT[page], max_bytes=LIGHT_MAX_BYTES)
        if kept:  # once the page has drawn its restored work (a slider's range may have changed)
            st.session_state[_LIGHT_DUE] = (page, kept)
    return notes


def _on_stored(page: str, widget: str) -> None:
    value = (st.session_state.get(widget) or {}).get("stored")
    if st.session_state.get(_k(page, "stored")) or not isinstance(value, dict):
        return
    st.session_state[_k(page, "stored")] = True  # the browser writes again once it is told so
    st.session_state.pop(_k(page, "sent"), None)
    st.session_state[_RELOADED] = value.get("reloaded") is True
    if value.get("off"):
        st.session_state[_k(page, "notes")] = [
            "This browser does not let the page keep your work: it is lost on reload."
        ]
        return
    if value.get("raw") or value.get("light"):
        st.session_state[_PENDING] = (page, value.get("raw"), value.get("light"))


def apply_saved_work() -> None:
    """Put a page's saved work back in a run that draws no widget of the page; the browser then
    asks for the next run, which shows it. The entry file calls it before the page runs.

    Values written in a callback, or in a run that draws their widgets, make Streamlit warn about
    widgets that have a default; a run the browser asks for starts from them as from values the
    user set (a rerun asked for by the script itself would not).
    """
    if still_coming():
        put_back_awaiting()  # a choice that names a tokenizer which came back since
    _guard_the_restore()
    if _LIGHT_NOW in st.session_state:
        # The light values go back one run after the rest: put back with the rest, a slider whose
        # range the restored work changes (the BPE step of a model of other size) came back at 0.
        for key, value in st.session_state.pop(_LIGHT_NOW).items():
            st.session_state[key] = value
        _ask_for_a_run()
    if _PENDING not in st.session_state:
        return
    page, raw, *light = st.session_state.pop(_PENDING)
    _restore_now(page, raw, light[0] if light else None)
    first = st.session_state.get(_k(page, "first")) or {}
    changed = {  # by the restore: (the page's value before, the restored one)
        key: (first[key], st.session_state[key])
        for key in PAGES[page]
        if key in first and key in st.session_state and st.session_state[key] != first[key]
    }
    st.session_state[_GUARD] = {
        "work": (page, raw, *light),
        "changed": changed,
        "pings": [],
        "left": GUARD_RUNS,
    }
    _ask_for_a_run(heard=PREFIX + page)


def _restore_now(page: str, raw: object, light: object) -> None:
    try:
        notes = restore(page, raw, light)
    except Exception:  # noqa: BLE001  (saved work must never stop a page)
        notes = ["the saved work could not be used"]
    if notes:
        st.session_state[_k(page, "notes")] = [f"Your saved work on this page: {n}." for n in notes[:3]]


def _guard_the_restore() -> None:
    """Between a restore and the run the browser asks for once it shows no widget of the page
    (`_ask_for_a_run`), a run it asked for from the page as it was before can come (a click, a
    timer, a message sent meanwhile: on a busy server, often). It carries that page's values, which
    Streamlit takes over the restored ones: the page would show them, and write them over the
    saved work. A run that finds a restored value back at the page's value before restores the
    work again and asks for the run again (at most GUARD_RUNS times); the run asked for, with the
    restored values in place, ends the guard."""
    guard = st.session_state.get(_GUARD)
    if guard is None:
        return
    applied = st.session_state.pop(_APPLIED, None)
    coming = still_coming()  # put back as own tokenizers come
    undone = [
        key for key, (before, _) in guard["changed"].items() if key not in coming and st.session_state.get(key) == before
    ]  # fmt: skip
    if not undone or guard["left"] <= 0:
        if applied in guard["pings"] or guard["left"] <= 0:
            del st.session_state[_GUARD]  # the browser shows the restored page
        return
    guard["left"] -= 1
    page, raw, *light = guard["work"]
    _restore_now(page, raw, light[0] if light else None)
    _ask_for_a_run()


def _ask_for_a_run(heard: str | None = None) -> None:
    """Ask the browser for the next run (`heard`: the page whose saved work is now here, so the
    browser stops sending it again)."""
    st.caption("Restoring your work...")
    data = {"ping": uuid.uuid4().hex[:8], "heard": heard}
    if _GUARD in st.session_state:
        st.session_state[_GUARD]["pings"].append(data["ping"])
    _component(key="_tw_saved_apply", data=data, on_applied_change=_on_applied)
    st.stop()


def _on_applied() -> None:
    st.session_state[_APPLIED] = (st.session_state.get("_tw_saved_apply") or {}).get("applied")


def _on_resend(page: str) -> None:
    st.session_state.pop(_k(page, "sent"), None)
    st.session_state.pop(_k(page, "light_sent"), None)


def _on_failed(page: str) -> None:
    st.session_state[_k(page, "notes")] = [
        "This browser's storage for the app is full: your latest work on this page is not kept after a reload."
    ]


def _offer(data: dict, page: str, text: str, *, entry: str, digest_key: str, text_key: str) -> None:
    """Put one of the page's entries (`entry` "" for its work, "light_" for its light values) in
    the component's `data`: its digest always, its text only when the browser does not have it
    yet; none while it is the one "Clear my saved work" just removed (until the page changes)."""
    now = digest(text)
    if st.session_state.get(_k(page, f"{entry}held")) == now:
        data[digest_key] = None
        return
    st.session_state.pop(_k(page, f"{entry}held"), None)
    data[digest_key] = now
    if st.session_state.get(_k(page, f"{entry}sent")) != now:
        data[text_key] = text
        st.session_state[_k(page, f"{entry}sent")] = now


def keep_work(
    page: str, *, extra: Extra | None = None, in_fragment: bool = False, key: str | None = None
) -> None:
    """Keep this page's work in the browser and restore it in a new session (see the module doc).
    Call once per run of the page, after the widgets whose values it keeps, outside any column.
    `in_fragment`: called in a fragment, whose own rerun would leave the rest of the page showing
    what it showed before the work was restored. `extra`: what the page keeps beyond the values of
    `PAGES[page]`, and how it puts that back."""
    if extra is not None:
        _EXTRA[page] = extra
    if _PENDING in st.session_state and in_fragment:
        st.rerun()  # the whole app: the entry file restores the work (apply_saved_work)
    due = st.session_state.get(_LIGHT_DUE)
    if due is not None and due[0] == page and _PENDING not in st.session_state:
        st.session_state[_LIGHT_NOW] = st.session_state.pop(_LIGHT_DUE)[1]
        st.rerun()  # the entry file puts them back (apply_saved_work)
    widget = key or f"_tw_saved_{page}"
    data: dict = {"key": PREFIX + page, "prefix": PREFIX, "clear": st.session_state.get(_CLEAR)}
    if not st.session_state.get(_k(page, "loaded")):
        st.session_state[_k(page, "loaded")] = True
        st.session_state[_FIRST_DUE] = page  # the end of this run notes what it showed (note_first_run)
    # Every run asks the browser for what it kept until its answer is here (`_on_stored`), not the
    # first run only: a run cut short by the next one (the browser sending an own tokenizer back,
    # a click) never reaches the browser, and the restore would then never come. The browser reads
    # once per session (the mark) and answers only when it kept something; it writes nothing until
    # a run says the answer is here (`restored`).
    stored = bool(st.session_state.get(_k(page, "stored")))
    if not stored:
        data["load"] = session_mark()
    data["restored"] = stored
    text, left_out = snapshot(page)
    _offer(data, page, text, entry="", digest_key="digest", text_key="snapshot")
    st.session_state[_k(page, "left_out")] = left_out
    light = light_snapshot(page)
    if light is not None:
        _offer(data, page, light, entry="light_", digest_key="light_digest", text_key="light")
    _component(
        key=widget, data=data,
        on_stored_change=lambda: _on_stored(page, widget),
        on_resend_change=lambda: _on_resend(page),
        on_failed_change=lambda: _on_failed(page),
    )  # fmt: skip
    if left_out := st.session_state.get(_k(page, "left_out")):
        st.caption(
            f"Too large to keep in this browser ({MAX_BYTES // 1_000_000} MB per page): "
            + ", ".join(_LABELS.get(k, k) for k in left_out)
            + ". It is lost on reload: save it to a file."
        )
    for note in st.session_state.pop(_k(page, "notes"), []):
        st.toast(note, icon=":material/history:")


_LABELS = {
    "workspace_text": "the text", "_chat": "the chat", "_versions": "the versions", "_model": "the trained model",
    "bpe_corpus_text": "the corpus", "identifiers_text": "the code", "chunks_text": "the document",
    "_texts": "your translations", "workspace_chat_tools": "the tools", "_chat_images": "the chat's images",
}  # fmt: skip


def clear_saved_work() -> None:
    """Remove every page's saved work from this browser (the next run of any page does it)."""
    st.session_state[_CLEAR] = uuid.uuid4().hex[:8]
    clear_own_tokenizers()
    for page in PAGES:
        if st.session_state.get(_k(page, "loaded")):
            st.session_state[_k(page, "held")] = digest(snapshot(page)[0])
            if (light := light_snapshot(page)) is not None:
                st.session_state[_k(page, "light_held")] = digest(light)
        st.session_state.pop(_k(page, "sent"), None)
        st.session_state.pop(_k(page, "light_sent"), None)


def saved_work_sidebar() -> None:
    """The sidebar's word on saved work and its Clear button."""
    with st.sidebar.expander("Your work in this browser", icon=":material/history:"):
        st.caption(
            "Each page keeps your texts, settings, chat, versions and trained model in this browser "
            "(local storage, up to 2 MB per page), and the tokenizers you added (up to 16 MB each "
            "once compressed, 64 MB in all), so a reload or a restart finds them again. Nothing is "
            "kept on the server. What you type before your saved work comes back is kept."
        )
        if st.button("Clear my saved work", key="saved_work_clear", icon=":material/delete:",
                     on_click=clear_saved_work):  # fmt: skip
            st.caption("Cleared. What you change from now on is kept again.")


def reloaded() -> bool:
    """True when the browser says this tab was reloaded (its address bar is the user's own, not a
    link someone opened)."""
    return st.session_state.get(_RELOADED) is True
