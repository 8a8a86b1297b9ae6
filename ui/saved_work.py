"""A user's work kept across a reload: each page's values in the browser's local storage, the
user's own tokenizers as files in its IndexedDB (JavaScript: ui/components/saved_work.js).

A reload starts a new session. Its first runs draw no page: they ask the browser what it kept,
add the user's own tokenizers again, put every page's saved values into session state and only
then let the page run. So every widget is created from the saved values, and nothing the user
typed or clicked can meet a late restore. Each stage stops the run (`st.stop`) and waits for the
browser, which sends what the stage asks for again until the server moves on (a message can be
lost):

    asking  the browser sends every page's saved text and the ids and names of its tokenizers
    files   each own tokenizer is added again; its file comes from the server's copy (by id, a
            hash of the file and its settings) or, when the server no longer has it, from the browser
    go      the values are in session state; the browser asks for the run that draws the page
            (values written in a run that also draws their widgets would make Streamlit warn)
    done    each run of a page gives the browser the page's values when they changed

A build takes seconds, and a newer run (a click) starts at once while the build's run goes on
until its next use of session state. So a build holds `SavedWork.building`, and writes only to
objects taken before it; each run waits for the lock before it reads the session's tokenizers.
"""

from __future__ import annotations

import importlib
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from tokenizer_core import VocabularyError
from tokenizer_core import saved_work as core
from tokenizer_core.jobs import JobError
from tokenizer_core.saved_work import KeptTokenizer
from tokenizer_core.tokenizers import ServerBusy, escape_markdown

from .components import read
from .state import session_tokenizers

PREFIX = "tokenizer-workbench/"
TRIES = 3  # adds of a tokenizer the server was too busy to start, one second apart
FILES_MB = 256  # the server's copies of own tokenizers' files, all sessions together

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
        "_chat": "json", "_versions": "json", "_prices": "json",
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
        "datasets_training_price": "float", "datasets_last": "json",
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

# What a page keeps beyond its widgets' values (the workspace's chat, the BPE model), by module:
# `extra()` gives it, `restore(values, notes)` puts it back (False: the page's work is not used).
EXTRA = {"workspace": "ui.workspace.saved", "bpe": "ui.bpe.saved", "languages": "ui.languages.saved"}
LABELS = {
    "workspace_text": "the text", "_chat": "the chat", "_versions": "the versions", "_model": "the trained model",
    "bpe_corpus_text": "the corpus", "identifiers_text": "the code", "chunks_text": "the document",
    "_texts": "your translations", "workspace_chat_tools": "the tools",
}  # fmt: skip
WHY = {
    "big": f"larger than {core.MAX_KEPT_FILE // 1_000_000} MB even compressed",
    "full": f"this browser already keeps {core.MAX_KEPT_ALL // 1_000_000} MB of your tokenizers",
    "refused": "this browser refused to keep it (its storage is full or switched off)",
}


@dataclass
class SavedWork:
    """All a session's saved-work state (st.session_state["saved_work"])."""

    stage: str = "asking"  # asking, files, go, done (see the module doc)
    mark: str = field(default_factory=lambda: uuid.uuid4().hex[:12])  # the session, to the browser
    saved: dict[str, str] = field(default_factory=dict)  # the browser's texts by page ("bpe#light")
    own: dict[str, str] = field(default_factory=dict)  # own tokenizers the browser keeps: id -> name
    files: dict[str, KeptTokenizer] = field(default_factory=dict)  # sent by the browser, not yet added
    failed: set[str] = field(default_factory=set)
    reloaded: bool = False  # the tab was reloaded (its address is the user's own, not a link)
    sent: dict[str, str] = field(default_factory=dict)  # digest of the text last given, by entry
    held: dict[str, str] = field(default_factory=dict)  # digest of the text cleared, by entry
    put: dict[str, dict] = field(default_factory=dict)  # files for the browser to keep, by id
    drop: list[str] = field(default_factory=list)  # ids the browser removes
    not_kept: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (name, why)
    notes: list[str] = field(default_factory=list)  # for a toast
    clear: str | None = None
    building: threading.Lock = field(default_factory=threading.Lock)


def saved_work() -> SavedWork:
    if "saved_work" not in st.session_state:
        # no browser (a test's AppTest, a script): nothing kept, nothing to wait for
        st.session_state["saved_work"] = SavedWork(stage="asking" if st.context.headers else "done")
    return st.session_state["saved_work"]


_component = st.components.v2.component(
    "tw_saved_work", html="<span hidden></span>", js=read("saved_work.js")
)


# The server's copies of own tokenizers' files by id, newest used last, for every session: a
# reload adds them again without the browser sending them. Not a Streamlit cache: a run that a
# newer one cut short must still be able to write it (a cached call may stop it).
_FILES: OrderedDict[str, KeptTokenizer] = OrderedDict()
_FILES_LOCK = threading.Lock()


def _file(tid: str, kept: KeptTokenizer | None = None) -> KeptTokenizer | None:
    with _FILES_LOCK:
        if kept is not None:
            _FILES[tid] = kept
            while sum(len(f.data) for f in _FILES.values()) > FILES_MB * 1_000_000 and len(_FILES) > 1:
                _FILES.popitem(last=False)
        if tid in _FILES:
            _FILES.move_to_end(tid)
        return _FILES.get(tid)


# ------------------------------------------------------------------ the session's first runs


def restore_saved_work(add: Callable[..., tuple[str, str]]) -> None:
    """Called by the entry file before the page runs: the stages of the module doc; stops the run
    until the browser has answered and every page's saved work is in session state. `add`: the one
    add path of own tokenizers (ui.widgets.add_own_tokenizer)."""
    work = saved_work()
    with work.building:  # an add of a run a newer one cut short: its tokenizer reaches this run
        pass
    for kept in work.files.values():  # (its own copy: the server's may be gone)
        _file(kept.id, kept)
    need = [t for t in work.own if t not in work.failed and t not in work.files and not _file(t)]
    need = [t for t in need if t not in session_tokenizers()]
    with st.sidebar:
        _component(
            key="_saved_work", data={
                "stage": work.stage, "mark": work.mark, "prefix": PREFIX, "need": need, "clear": work.clear,
                "put": list(work.put.values()), "drop": work.drop, "max_all": core.MAX_KEPT_ALL,
            },
            on_answer_change=_on_answer, on_file_change=_on_file, on_kept_change=_on_kept,
            on_go_change=_on_go,
        )  # fmt: skip
    if work.stage == "files":
        _add_back(work, add)
        if not need:
            _restore_pages(work)
            work.stage = "go"
            st.rerun()
    if work.stage != "done":
        st.container(key="saved_work_restoring").caption("Restoring your work...")  # the tests' marker too
        st.stop()
    for note in work.notes[:5]:
        st.toast(escape_markdown(note), icon=":material/history:")
    work.notes.clear()


def _value(name: str) -> object:
    return (st.session_state.get("_saved_work") or {}).get(name)


def _on_answer() -> None:
    work, value = saved_work(), _value("answer")
    if work.stage != "asking" or not isinstance(value, dict):
        return
    pages = value.get("pages")
    work.saved = {k: v for k, v in pages.items() if isinstance(v, str)} if isinstance(pages, dict) else {}
    own = value.get("own")
    for entry in own if isinstance(own, list) else []:
        if isinstance(entry, dict) and core.is_own_id(entry.get("id")) and isinstance(entry.get("name"), str):
            work.own[entry["id"]] = entry["name"][:200]
    work.reloaded = value.get("reloaded") is True
    if value.get("off") or own is None:
        what = "your work" if value.get("off") else "your own tokenizers"
        work.notes.append(f"This browser does not let the app keep {what}: it is lost on reload.")
    work.stage = "files"


def _on_file() -> None:
    take_file(saved_work(), _value("file"))


def take_file(work: SavedWork, value: object) -> None:
    """The browser sent a kept tokenizer's file the server asked for: checked, added by the run."""
    if work.stage != "files" or not isinstance(value, dict) or value.get("id") not in work.own:
        return
    kept, problem = core.unpack_tokenizer(value.get("entry")) if value.get("entry") else (None, None)
    if kept is not None and kept.id == value["id"]:
        work.files[kept.id] = kept
    else:
        work.failed.add(value["id"])
        if problem:
            work.notes.append(f"Your own tokenizers: {problem}.")


def _on_go() -> None:
    work = saved_work()
    if work.stage == "go" and _value("go") == work.mark:
        work.stage = "done"


def _add_back(work: SavedWork, add: Callable[..., tuple[str, str]]) -> None:
    """Add again each own tokenizer whose file is here; only objects taken before are written."""
    own, files, failed, notes = session_tokenizers(), work.files, work.failed, work.notes
    for tid, name in work.own.items():
        kept = files.get(tid) or _file(tid)
        if tid in own or tid in failed or kept is None:
            continue
        with work.building:
            for attempt in range(1, TRIES + 1):
                try:
                    add(kept.kind, kept.data, file_name=kept.file_name, name=name, pattern_id=kept.pattern_id)
                    break
                except (VocabularyError, JobError) as exc:
                    if isinstance(exc, ServerBusy | JobError) and attempt < TRIES:
                        time.sleep(1)  # a process slot or memory may be free in a moment
                        continue
                    failed.add(tid)
                    notes.append(
                        f"Your tokenizer {name or kept.file_name} was kept in this browser but could not be "
                        f"added again: {exc}"
                    )
                    break
            files.pop(tid, None)


def _restore_pages(work: SavedWork) -> None:
    """Every page's saved values into session state (before any widget of the page exists)."""
    own = session_tokenizers()
    for page, spec in PAGES.items():
        values, notes = core.unpack(work.saved.pop(page, None), page, spec)
        try:
            if values and (page not in EXTRA or importlib.import_module(EXTRA[page]).restore(values, notes)):
                for key, value in values.items():
                    if isinstance(value, list):  # own tokenizers that did not come back are left out
                        value = [v for v in value if not core.is_own_id(v) or v in own]
                    if not key.startswith("_") and (not core.is_own_id(value) or value in own):
                        st.session_state[key] = value
        except Exception:  # noqa: BLE001  (saved work must never stop a page)
            notes = ["the saved work could not be used"]
        light, light_notes = core.unpack(work.saved.pop(page + "#light", None), page, LIGHT.get(page, {}))
        if values and light:  # after the page's own (the BPE step needs the restored model)
            st.session_state.update(light)
        work.notes += [f"Your saved work on the {page} page: {n}." for n in notes[:3]]


# ------------------------------------------------------------------ each run of a page


def keep_work(page: str) -> None:
    """Give the browser this page's values when they changed. Call once per run of the page, after
    the widgets whose values it keeps, outside any column."""
    work = saved_work()
    values = {k: st.session_state[k] for k in PAGES[page] if k in st.session_state and not k.startswith("_")}
    if page in EXTRA:
        values.update(importlib.import_module(EXTRA[page]).extra())
    text, left_out = core.pack(page, values, max_bytes=core.MAX_BYTES)
    light = {k: st.session_state[k] for k in LIGHT.get(page, {}) if k in st.session_state}
    data: dict = {"key": PREFIX + page}
    for entry, name, entry_text in (
        (page, "text", text),
        (page + "#light", "light", core.pack(page, light)[0] if light else None),
    ):
        now = core.digest(entry_text) if entry_text else None
        if now is None or work.held.get(entry) == now:  # cleared: not kept again until it changes
            continue
        work.held.pop(entry, None)
        data[("" if name == "text" else "light_") + "digest"] = now
        if work.sent.get(entry) != now:
            data[name], work.sent[entry] = entry_text, now
    _component(key=f"_saved_work_{page}", data=data, on_resend_change=lambda: work.sent.clear(),
               on_failed_change=lambda: work.notes.append(
                   "This browser's storage for the app is full: your latest work on this page is not kept."))  # fmt: skip
    if left_out:
        st.caption(
            f"Too large to keep in this browser ({core.MAX_BYTES // 1_000_000} MB per page): "
            + ", ".join(LABELS.get(k, k) for k in left_out) + ". It is lost on reload: save it to a file."
        )  # fmt: skip


def reloaded() -> bool:
    """True when the browser says this tab was reloaded (not opened on a link)."""
    return saved_work().reloaded


# ------------------------------------------------------------------ own tokenizers, the sidebar


def keep_own_tokenizer(kept: KeptTokenizer, work: SavedWork) -> None:
    """A tokenizer the user just added: the server keeps its file, the browser a copy. `work`:
    `saved_work()` taken before the build."""
    _file(kept.id, kept)
    work.not_kept.pop(kept.id, None)
    if kept.id in work.drop:
        work.drop.remove(kept.id)
    entry = core.pack_tokenizer(kept)
    if entry is None:
        work.not_kept[kept.id] = (kept.name or kept.file_name, WHY["big"])
    else:
        work.put[kept.id] = entry


def _on_kept() -> None:
    work, value = saved_work(), _value("kept")
    if (
        isinstance(value, dict)
        and (entry := work.put.pop(str(value.get("id")), None))
        and value.get("why") != "kept"
    ):
        work.not_kept[entry["id"]] = (
            entry["name"] or entry["file_name"],
            WHY.get(str(value.get("why")), WHY["refused"]),
        )


def forget_own_tokenizer(tokenizer_id: str) -> None:
    """The user removed this tokenizer: the browser removes it too."""
    work = saved_work()
    work.put.pop(tokenizer_id, None)
    work.not_kept.pop(tokenizer_id, None)
    if tokenizer_id not in work.drop:
        work.drop.append(tokenizer_id)


def not_kept_note() -> None:
    """In the sidebar's "Your own tokenizers": which of them this browser does not keep, and why."""
    own = session_tokenizers()
    for tid, (name, why) in saved_work().not_kept.items():
        if tid in own:
            st.caption(
                f"Not kept in this browser: **{escape_markdown(name)}** ({escape_markdown(why)}). "
                "Add it again after a reload."
            )


def building() -> threading.Lock:
    """Held while a tokenizer is built (see the module doc)."""
    return saved_work().building


def clear_saved_work() -> None:
    """Remove every page's saved work and every kept tokenizer from this browser. What is on the
    pages now is not written again until it changes."""
    work = saved_work()
    work.clear, work.put = uuid.uuid4().hex[:8], {}
    work.held.update(work.sent)


def saved_work_sidebar() -> None:
    """The sidebar's word on saved work and its Clear button."""
    with st.sidebar.expander("Your work in this browser", icon=":material/history:"):
        st.caption(
            "Each page keeps your texts, settings, chat, versions and trained model in this browser "
            "(local storage, up to 2 MB per page), and the tokenizers you added (up to 16 MB each "
            "once compressed, 64 MB in all), so a reload or a restart finds them again. The server "
            "keeps a copy of your tokenizers' files only to spare sending them again."
        )
        if st.button("Clear my saved work", key="saved_work_clear", icon=":material/delete:",
                     on_click=clear_saved_work):  # fmt: skip
            st.caption("Cleared. What you change from now on is kept again.")
