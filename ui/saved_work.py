"""A user's work kept across a reload: each page's values in the browser's local storage, the
user's own tokenizers as files in its IndexedDB (JavaScript: ui/components/saved_work.js).

A reload starts a new session, whose first runs draw no page: each stops and waits for the
browser, which sends what the stage asks for, again every few seconds until the server moves on
(a message can be lost). So every widget is created from the saved values, and nothing the user
types can meet a late restore:

    asking  the browser sends every page's saved text and the ids and names of its tokenizers
    files   each own tokenizer is added again, from the server's copy of its file (by id, a hash
            of the file and its settings) or, when the server no longer has it, the browser's
    go      the values are in session state; the browser asks for the run that draws the page
            (values written in a run that also draws their widgets would make Streamlit warn)
    done    each run of a page gives the browser the page's values when they changed

A build takes seconds, and a newer run (a click) starts at once while the build's run goes on: a
build holds `SavedWork.building` and writes only to objects taken before it; each run waits for it.
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

from tokenizer_core import saved_work as core
from tokenizer_core.jobs import JobError
from tokenizer_core.tokenizers import ServerBusy, VocabularyError, escape_markdown, is_own_id
from tokenizer_core.tokenizers.vocab import sha256_bytes

from .components import read
from .state import session_tokenizers

PREFIX = "tokenizer-workbench/"
TRIES = 3  # adds of a tokenizer the server was too busy to start, a second apart
FILES_MB = 256  # the server's copies of own tokenizers' files, all sessions together
WAIT_S = 10  # a run that asked the browser waits this long for its answer (it asks again every 4 s)


def _keys(page: str, words: str) -> dict[str, str]:
    """A page's keys and kinds (tokenizer_core.saved_work) from "name:kind" words, the kind "str"
    when left out, the page's prefix added unless the name starts with "/":
    ``_keys("bpe", "merges:int /_fp") == {"bpe_merges": "int", "_fp": "str"}``."""
    pairs = (w.partition(":")[::2] for w in words.split())
    return {(n[1:] if n[0] == "/" else f"{page}_{n}"): kind or "str" for n, kind in pairs}


# What each page keeps. Buttons, uploads, data editors and components are never here: Streamlit
# refuses to have them set. Keys starting with "_" are what a page adds (`EXTRA`).
PAGES = {page: _keys(page, words) for page, words in {
    "workspace": "text mode tokenizers:strs chat_tools special:bool ctx ctx_custom:int view ws:bool diff:bool "
    "out_tokens:int cached_tokens:int requests:int version_name /prices_rate sample part:int cmp_a:int cmp_b:int "
    "cmp_tok share_chunks:int share_chunk_tokens:int share_answer:int /_chat:json /_chat_images:json /_versions:json /_prices:json",
    "bpe": "corpus_text corpus_sample format symbols marker marker_custom pretok tie stop merges:int vocab:int "
    "minfreq:int probe words_order reg_name last_preset /_model /_fp",
    "languages": "selected:strs tokenizers:strs base requests:int in_tokens:int out_tokens:int share:float left "
    "right pair_tok pair_ws:bool cost_models:strs /prices_rate /_texts:json",
    "identifiers": "text sample tokenizers:strs language strings:bool comments:bool add_greedy:bool greedy_vocab "
    "greedy_text try_name filter builtins:bool styles:strs min_chars:int min_occ:int sort top_n:int split_mode "
    "inspect view_tok view_line:int",
    "inside": "text tokenizer compare:strs",
    "datasets": "paste models:strs budget:int output:int tpm:int epochs:int file_models:bool output_mode "  # not a dropped file
    "output_share:int enqueued:int training_price:float last:json url_mode url_w:int url_h:int",
    "chunks": "text sample strategy tokenizer model size:int overlap_unit overlap:int overlap_pct:float ws:bool first:int",
}.items()}  # fmt: skip
# Values a click changes, kept in a small entry of their own ("<page>#light"): a click sends a few
# bytes, not the page's work (the BPE playground's holds its corpus and model, up to 2 MB).
LIGHT = {"bpe": {"bpe_step": "int"}}
# What a page keeps beyond its widgets' values (the workspace's chat, the BPE model), by module:
# `extra()` gives it, `restore(values, notes)` puts it back (False: the page's work is not used).
EXTRA = {"workspace": "ui.workspace.saved", "bpe": "ui.bpe.saved", "languages": "ui.languages.saved"}
LABELS = {"workspace_text": "the text", "_chat": "the chat", "_versions": "the versions", "_model": "the trained model",
          "bpe_corpus_text": "the corpus", "identifiers_text": "the code", "chunks_text": "the document",
          "_texts": "your translations", "workspace_chat_tools": "the tools"}  # fmt: skip
WHY = {
    "big": f"larger than {core.MAX_KEPT_FILE // 1_000_000} MB even compressed",
    "full": f"this browser already keeps {core.MAX_KEPT_ALL // 1_000_000} MB of your tokenizers",
    "refused": "this browser refused to keep it (its storage is full or switched off)",
}


@dataclass
class SavedWork:
    """All a session's saved-work state (st.session_state["saved_work"])."""

    stage: str = "asking"  # asking, files, go, done (the module doc)
    mark: str = field(default_factory=lambda: uuid.uuid4().hex[:12])  # tells the browser this session
    saved: dict[str, object] = field(default_factory=dict)  # the browser's texts by entry ("bpe#light" too)
    own: dict[str, str] = field(default_factory=dict)  # own tokenizers the browser keeps: id -> name
    files: dict[str, core.KeptTokenizer] = field(default_factory=dict)  # sent by the browser, not yet added
    failed: set[str] = field(default_factory=set)  # own tokenizers that could not be added again
    reloaded: bool = False  # the tab was reloaded (its address is the user's own, not a link)
    sent: dict[str, str] = field(default_factory=dict)  # by entry: digest of the text last given
    held: dict[str, str] = field(default_factory=dict)  # by entry: digest of the text cleared
    put: dict[str, dict] = field(default_factory=dict)  # files for the browser to keep, by id
    drop: set[str] = field(default_factory=set)  # ids the browser removes
    not_kept: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (name, why)
    notes: list[str] = field(default_factory=list)  # for toasts
    clear: str | None = None  # "Clear my saved work": the browser clears once per value
    building: threading.Lock = field(default_factory=threading.Lock)


def saved_work() -> SavedWork:
    if "saved_work" not in st.session_state:  # no browser (AppTest, a script): nothing to wait for
        st.session_state["saved_work"] = SavedWork(stage="asking" if st.context.headers else "done")
    return st.session_state["saved_work"]


_component = st.components.v2.component("tw_saved_work", html="<span hidden></span>", js=read("saved_work.js"))  # fmt: skip
# The server's copies of own tokenizers' files by id, for every session, the least recently used
# dropped first, all when no session is left (ui/jobs.py). A plain dict, not a Streamlit cache: a
# run a newer one cut short must still write it.
_FILES: OrderedDict[str, core.KeptTokenizer] = OrderedDict()
_FILES_LOCK = threading.Lock()


def _file(tid: str, kept: core.KeptTokenizer | None = None) -> core.KeptTokenizer | None:
    with _FILES_LOCK:
        if kept is not None:
            _FILES[tid] = kept
            while sum(len(f.data) for f in _FILES.values()) > FILES_MB * 1_000_000 and len(_FILES) > 1:
                _FILES.popitem(last=False)
        if tid in _FILES:
            _FILES.move_to_end(tid)
        return _FILES.get(tid)


def forget_server_copies() -> None:
    with _FILES_LOCK:
        _FILES.clear()


def restore_saved_work(add: Callable[..., tuple[str, str]]) -> None:
    """The entry file calls it before the page: stops the run (the stages of the module doc) until
    every page's saved work is in session state. `add`: ui.widgets.add_own_tokenizer."""
    work = saved_work()
    with work.building:  # an add in a run that this one cut short: its tokenizer reaches this run
        pass
    here = {*work.failed, *work.files, *session_tokenizers()}
    need = [t for t in work.own if t not in here and not _file(t)]
    data = {"stage": work.stage, "mark": work.mark, "prefix": PREFIX, "need": need, "clear": work.clear,
            "put": list(work.put.values()), "drop": sorted(work.drop), "max_all": core.MAX_KEPT_ALL}  # fmt: skip
    with st.sidebar:
        _component(key="_saved_work", data=data, on_answer_change=_on_answer, on_go_change=_on_go,
                   on_file_change=lambda: take_file(saved_work(), _value("file")), on_kept_change=_on_kept)  # fmt: skip
    if work.stage == "files":
        _add_back(work, add)
        if not need:
            _restore_pages(work)
            work.stage = "go"
            st.rerun()
    if work.stage != "done":
        st.container(key="saved_work_restoring").caption("Restoring your work...")  # the tests' marker too

        # The run goes on (the page says "running") until the browser's message starts the next
        # one, which moves the stage on: a page that looks finished never shows this. No headers: AppTest.
        heard = lambda: (work.stage, len(work.files), len(work.failed))  # noqa: E731
        before, until = heard(), time.monotonic() + WAIT_S
        while st.context.headers and heard() == before and time.monotonic() < until:
            time.sleep(0.02)
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
    pages, own = value.get("pages"), value.get("own")
    work.saved = pages if isinstance(pages, dict) else {}  # each text is read as untrusted (core.unpack)
    for e in own if isinstance(own, list) else []:
        if isinstance(e, dict) and is_own_id(e.get("id")) and isinstance(e.get("name"), str):
            work.own[e["id"]] = e["name"][:200]
    work.reloaded = value.get("reloaded") is True
    if value.get("off") or own is None:
        what = "your work" if value.get("off") else "your own tokenizers"
        work.notes.append(f"This browser does not let the app keep {what}: it is lost on reload.")
    work.stage = "files"


def take_file(work: SavedWork, value: object) -> None:
    """The browser sent a kept tokenizer's file the server asked for (checked: it is untrusted)."""
    if work.stage != "files" or not isinstance(value, dict) or value.get("id") not in work.own:
        return
    kept, problem = core.unpack_tokenizer(value.get("entry")) if value.get("entry") else (None, None)
    if kept is not None and kept.id == value["id"]:
        work.files[kept.id] = kept
    else:
        work.failed.add(value["id"])
        work.notes += [f"Your own tokenizers: {problem}."] if problem else []


def _on_go() -> None:
    work = saved_work()
    if work.stage == "go" and _value("go") == work.mark:
        work.stage = "done"


def _add_back(work: SavedWork, add: Callable[..., tuple[str, str]]) -> None:
    """Add again each own tokenizer whose file is here, writing only to objects taken before."""
    own, files, failed, notes = session_tokenizers(), work.files, work.failed, work.notes
    for tid, name in work.own.items():
        kept = files.get(tid) or _file(tid)
        if tid in own or tid in failed or kept is None:
            continue
        with work.building:
            for attempt in range(1, TRIES + 1):
                try:
                    tok_id, _ = add(
                        kept.kind, kept.data, file_name=kept.file_name, name=name, pattern_id=kept.pattern_id
                    )
                    _file(tok_id, kept)  # by the id the server gave it: a browser's claim is not copied
                except (VocabularyError, JobError) as exc:
                    if isinstance(exc, ServerBusy | JobError) and attempt < TRIES:
                        time.sleep(1)  # a process slot or memory may be free in a moment
                        continue
                    failed.add(tid)
                    notes.append(f"Your tokenizer {name or kept.file_name} was kept in this browser but could not be added again: {exc}")  # fmt: skip
                break  # added, or the last try failed
            files.pop(tid, None)


def _restore_pages(work: SavedWork) -> None:
    """Every page's saved values into session state (no widget of any page exists yet)."""
    own = session_tokenizers()
    for page, spec in PAGES.items():
        values, notes = core.unpack(work.saved.get(page), page, spec)
        try:
            if values and (page not in EXTRA or importlib.import_module(EXTRA[page]).restore(values, notes)):
                for key, value in values.items():
                    if isinstance(value, list):  # own tokenizers that did not come back are left out
                        value = [v for v in value if not is_own_id(v) or v in own]
                    if not key.startswith("_") and (not is_own_id(value) or value in own):
                        st.session_state[key] = value
                light = core.unpack(work.saved.get(page + "#light"), page, LIGHT.get(page, {}))[0]
                st.session_state.update(light)  # after the page's own (the BPE step needs the model)
        except Exception:  # noqa: BLE001  (saved work must never stop a page)
            notes = ["the saved work could not be used"]
        work.notes += [f"Your saved work on the {page} page: {n}." for n in notes[:3]]
    work.saved.clear()


def keep_work(page: str) -> None:
    """Give the browser this page's values when they changed. Call once per run of the page, after
    the widgets whose values it keeps, outside any column."""
    work = saved_work()
    values = {k: st.session_state[k] for k in PAGES[page] if k in st.session_state and not k.startswith("_")}
    values.update(importlib.import_module(EXTRA[page]).extra() if page in EXTRA else {})
    text, left_out = core.pack(page, values)
    light = {k: st.session_state[k] for k in LIGHT.get(page, {}) if k in st.session_state}
    data: dict = {"key": PREFIX + page}
    for entry, name, now_text in ((page, "text", text), (page + "#light", "light", light and core.pack(page, light)[0])):  # fmt: skip
        now = sha256_bytes(now_text.encode("utf-8", "surrogatepass"))[:16] if now_text else None
        if now is None or work.held.get(entry) == now:  # cleared: not kept again until it changes
            continue
        work.held.pop(entry, None)
        data[name + "_digest"] = now
        if work.sent.get(entry) != now:
            data[name], work.sent[entry] = now_text, now
    full = "This browser's storage for the app is full: your latest work on this page is not kept."
    _component(key=f"_saved_work_{page}", data=data, on_resend_change=work.sent.clear,
               on_failed_change=lambda: work.notes.append(full))  # fmt: skip
    if left_out:
        st.caption(
            f"Too large to keep in this browser ({core.MAX_BYTES // 1_000_000} MB per page): "
            + ", ".join(LABELS.get(k, k) for k in left_out) + ". It is lost on reload: save it to a file."
        )  # fmt: skip


def keep_own_tokenizer(kept: core.KeptTokenizer, work: SavedWork) -> None:
    """A tokenizer the user just added: the server keeps its file, the browser a copy. `work`:
    `saved_work()` taken before the build."""
    _file(kept.id, kept)
    work.not_kept.pop(kept.id, None)
    work.drop.discard(kept.id)
    if (entry := core.pack_tokenizer(kept)) is None:
        work.not_kept[kept.id] = (kept.name or kept.file_name, WHY["big"])
    else:
        work.put[kept.id] = entry


def _on_kept() -> None:
    work, value = saved_work(), _value("kept")
    e = work.put.pop(str(value.get("id")), None) if isinstance(value, dict) else None
    if e and value.get("why") != "kept":  # type: ignore[union-attr]
        work.not_kept[e["id"]] = (e["name"] or e["file_name"], WHY.get(str(value.get("why")), WHY["refused"]))


def forget_own_tokenizer(tokenizer_id: str) -> None:
    """The user removed this tokenizer: the browser removes it too."""
    work = saved_work()
    work.put.pop(tokenizer_id, None)
    work.not_kept.pop(tokenizer_id, None)
    work.drop.add(tokenizer_id)


def clear_saved_work() -> None:
    """Remove every page's saved work and every kept tokenizer from this browser; what the pages
    hold now is not written again until it changes."""
    work = saved_work()
    work.clear, work.put = uuid.uuid4().hex[:8], {}
    work.held.update(work.sent)
