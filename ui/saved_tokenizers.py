"""A user's own tokenizers kept across a reload: their files in the browser's IndexedDB.

The pages' work is in local storage (ui/saved_work.py), which holds about 5 MB per site; a real
vocabulary is 1.5-60 MB. So each tokenizer the user adds (the sidebar's "Your own tokenizers") is
sent to the browser once, compressed, with the settings it was added with, and kept there (up to
MAX_KEPT_FILE per file and MAX_KEPT_ALL in all; what is not kept is named in the sidebar). In a new
session the browser sends them back one at a time and each is added again through
`ui.widgets.add_own_tokenizer`, the one add path; its id is the one it had (the same bytes and
settings), so the pages whose saved work chose it find it again (`awaiting`). Every run asks
for them (the session's mark: the browser reads its store once per session), not the first only:
a run cut short by the next never reaches the browser. Removing a
tokenizer removes it from the browser; "Clear my saved work" clears them all.

Its JavaScript is ui/components/saved_tokenizers.js; the checks on what comes back are
tokenizer_core.saved_work.unpack_tokenizer.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

import streamlit as st

from tokenizer_core.saved_work import (
    MAX_KEPT_ALL,
    MAX_KEPT_FILE,
    KeptTokenizer,
    is_own_id,
    pack_tokenizer,
    unpack_tokenizer,
)
from tokenizer_core.tokenizers import escape_markdown

from .components import read
from .state import session_mark, session_tokenizers

_KEY = "_tw_own_kept"  # the component
_PUT = "_tw_own/put"  # {id: entry}: sent to the browser until it says it kept them
_DROP = "_tw_own/drop"  # ids the browser removes
_GOT = "_tw_own/got"  # keys the browser sent back (it sends the next one when told)
_NOT_KEPT = "_tw_own/not_kept"  # {id: (name, why)}
_NAMES = "_tw_own/names"  # {id: name} of what is being kept, for the words on what was not
_CLEAR = "_tw_own/clear"
_AWAITING = "_tw_own/awaiting"  # {key: value}: a page's saved choice that names a tokenizer still coming
_NOTES = "_tw_own/notes"

_component = st.components.v2.component(
    "tw_own_tokenizers", html="<span hidden></span>", js=read("saved_tokenizers.js")
)

_WHY = {
    "big": f"larger than {MAX_KEPT_FILE // 1_000_000} MB even compressed",
    "full": f"this browser already keeps {MAX_KEPT_ALL // 1_000_000} MB of your tokenizers",
    "refused": "this browser refused to keep it (its storage is full or switched off)",
    "off": "this browser does not let the app keep files",
}


def keep_own_tokenizer(kept: KeptTokenizer) -> None:
    """Keep a tokenizer the user just added in the browser (sent with the next run)."""
    label = kept.name or kept.file_name
    st.session_state.setdefault(_NOT_KEPT, {}).pop(kept.id, None)
    st.session_state.setdefault(_NAMES, {})[kept.id] = label
    if kept.id in st.session_state.get(_DROP, []):
        st.session_state[_DROP].remove(kept.id)
    entry = pack_tokenizer(kept)
    if entry is None:
        st.session_state[_NOT_KEPT][kept.id] = (label, _WHY["big"])
        return
    st.session_state.setdefault(_PUT, {})[kept.id] = entry


def forget_own_tokenizer(tokenizer_id: str) -> None:
    """The user removed this tokenizer: the browser removes it too."""
    st.session_state.get(_PUT, {}).pop(tokenizer_id, None)
    st.session_state.get(_NOT_KEPT, {}).pop(tokenizer_id, None)
    drop = st.session_state.setdefault(_DROP, [])
    if tokenizer_id not in drop:
        drop.append(tokenizer_id)


def clear_own_tokenizers() -> None:
    """On "Clear my saved work": the browser removes every kept tokenizer (this session keeps them)."""
    st.session_state[_CLEAR] = uuid.uuid4().hex[:8]
    st.session_state.pop(_PUT, None)


def awaiting(values: dict) -> dict:
    """A page's restored values without the own tokenizers this session does not have (yet): the
    browser may send them after the page's work. Those values are put back when they come."""
    own = session_tokenizers()
    out = dict(values)
    for key, value in values.items():
        ids = value if isinstance(value, list) else [value]
        missing = [i for i in ids if is_own_id(i) and i not in own]
        if missing:
            st.session_state.setdefault(_AWAITING, {})[key] = value
            if isinstance(value, list):
                out[key] = [i for i in value if i not in missing]
            else:
                del out[key]
    return out


def put_back_awaiting() -> None:
    """Put back the pages' saved choices whose own tokenizers are all here now."""
    own = session_tokenizers()
    waiting = st.session_state.get(_AWAITING, {})
    for key, value in list(waiting.items()):
        ids = value if isinstance(value, list) else [value]
        if all(i in own for i in ids if is_own_id(i)):
            st.session_state[key] = value
            del waiting[key]


def _on_kept() -> None:
    value = (st.session_state.get(_KEY) or {}).get("kept")
    if not isinstance(value, dict):
        return
    put, names = st.session_state.get(_PUT, {}), st.session_state.get(_NAMES, {})
    for tid in value.get("kept") or []:
        if isinstance(tid, str):
            put.pop(tid, None)
    for failed in value.get("failed") or []:
        tid = failed.get("id") if isinstance(failed, dict) else None
        if isinstance(tid, str) and tid in put:
            put.pop(tid)
            why = _WHY.get(str(failed.get("why")), _WHY["refused"])
            st.session_state.setdefault(_NOT_KEPT, {})[tid] = (names.get(tid, tid), why)


def _on_cleared() -> None:
    if (st.session_state.get(_KEY) or {}).get("cleared") == st.session_state.get(_CLEAR):
        st.session_state.pop(_CLEAR, None)


def _on_off() -> None:
    st.session_state[_NOTES] = [
        "This browser does not let the app keep files: your own tokenizers are lost on reload."
    ]


def add_back(value: object, add_own_tokenizer: Callable[..., tuple[str, str]]) -> None:
    """The browser sent one kept tokenizer back (`value`: its key in the store and the entry):
    add it again (the one add path), then put back the pages' choices that name it. Never
    raises: a damaged entry or a file that no longer adds gets a note in words."""
    if not isinstance(value, dict):
        return
    key = value.get("key")
    got = st.session_state.setdefault(_GOT, [])
    if isinstance(key, str) and len(key) <= 100:
        if key in got and key in session_tokenizers():
            return  # sent again (its answer was late): already added
        if key not in got:
            got.append(key)
    if value.get("entry") is None:
        return  # removed meanwhile
    kept, problem = unpack_tokenizer(value.get("entry"))
    notes = st.session_state.setdefault(_NOTES, [])
    if kept is None:
        notes.append(f"Your own tokenizers: {problem}.")
        return
    label = kept.name or kept.file_name
    try:
        add_own_tokenizer(
            kept.kind, kept.data, file_name=kept.file_name, name=kept.name, pattern_id=kept.pattern_id
        )
    except Exception as exc:  # noqa: BLE001  (VocabularyError, JobError: their words; anything else: none)
        from tokenizer_core import VocabularyError
        from tokenizer_core.jobs import JobError

        why = str(exc) if isinstance(exc, VocabularyError | JobError) else "it could not be read"
        notes.append(f"Your tokenizer {label} was kept in this browser but could not be added again: {why}")
        return
    st.session_state.setdefault(_NAMES, {})[kept.id] = label
    put_back_awaiting()


def own_tokenizers_kept(add_own_tokenizer: Callable[..., tuple[str, str]]) -> None:
    """Place the component that keeps the user's own tokenizers in the browser (every run, in
    the sidebar), and tell what was restored or could not be kept. `add_own_tokenizer`: the one
    add path (ui.widgets), which adds each tokenizer the browser sends back."""
    # `load` in every run, not the first only: a run cut short by the next never reaches the
    # browser. The browser reads its store once per session (the mark).
    data: dict = {"max_all": MAX_KEPT_ALL, "clear": st.session_state.get(_CLEAR), "load": session_mark()}
    data["put"] = list(st.session_state.get(_PUT, {}).values())
    data["drop"] = st.session_state.get(_DROP, [])
    data["got"] = st.session_state.get(_GOT, [])
    with st.sidebar:
        _component(
            key=_KEY, data=data,
            on_kept_change=_on_kept, on_back_change=lambda: add_back((st.session_state.get(_KEY) or {}).get("back"), add_own_tokenizer), on_off_change=_on_off, on_cleared_change=_on_cleared,
        )  # fmt: skip
    for note in st.session_state.pop(_NOTES, [])[:5]:
        st.toast(escape_markdown(note), icon=":material/upload_file:")


def not_kept_note() -> None:
    """In the sidebar's "Your own tokenizers": which of them this browser does not keep, and why."""
    own = session_tokenizers()
    for tid, (name, why) in st.session_state.get(_NOT_KEPT, {}).items():
        if tid in own:
            st.caption(
                f"Not kept in this browser: **{escape_markdown(name)}** ({escape_markdown(why)}). "
                "Add it again after a reload."
            )
