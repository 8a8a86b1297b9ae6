"""A user's own tokenizers kept across a reload: their files in the browser's IndexedDB.

The pages' work is in local storage (ui/saved_work.py), which holds about 5 MB per site; a real
vocabulary is 1.5-60 MB. So each tokenizer the user adds (the sidebar's "Your own tokenizers") is
sent to the browser once, compressed, with the settings it was added with, and kept there (up to
MAX_KEPT_FILE per file and MAX_KEPT_ALL in all; what is not kept is named in the sidebar). In a new
session the browser sends them back one at a time and each is added again through
`ui.widgets.add_own_tokenizer`, the one add path; its id is the one it had (the same bytes and
settings), so the pages whose saved work chose it find it again (`awaiting`), each as it comes.
Every run asks for them (the session's mark: the browser reads its store once per session), not
the first only: a run cut short by the next never reaches the browser. Removing a tokenizer
removes it from the browser; "Clear my saved work" clears them all.

Reading a file takes seconds, and Streamlit's fast reruns start a click's run at once, in a thread
of its own, while the run reading the file goes on until its next use of `st.session_state`,
where it is stopped. So an add writes only to objects it took before the build (`adding`,
`to_keep`, the session's tokenizers); it never writes a page's choice (the runs put choices
back, `own_tokenizers_kept`); and while an add is under way at the end of a run, the browser asks
for another run a second later, so that what a cut-short run added reaches the page.

Its JavaScript is ui/components/saved_tokenizers.js; the checks on what comes back are
tokenizer_core.saved_work.unpack_tokenizer.
"""

from __future__ import annotations

import contextlib
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
_TO_KEEP = "_tw_own/to_keep"  # [KeptTokenizer] added by the user, given to the browser in the next run
_BUILDING = "_tw_own/building"  # what is being added (a key sent back, an upload), maybe in a run cut short
_SHOWN = "_tw_own/shown"  # {key: the part of an awaiting choice put back so far}
_TRIES = "_tw_own/tries"  # {key: adds that failed for a reason not the file's}
TRIES = 3  # a tokenizer the server was too busy to add is tried this many times (one per 10 s)

_component = st.components.v2.component(
    "tw_own_tokenizers", html="<span hidden></span>", js=read("saved_tokenizers.js")
)

_WHY = {
    "big": f"larger than {MAX_KEPT_FILE // 1_000_000} MB even compressed",
    "full": f"this browser already keeps {MAX_KEPT_ALL // 1_000_000} MB of your tokenizers",
    "refused": "this browser refused to keep it (its storage is full or switched off)",
    "off": "this browser does not let the app keep files",
}


def adding() -> set[str]:
    """What is being added now (the keys of tokenizers sent back, "upload" for the sidebar's):
    taken before the build and left after it. While it is not empty when a run ends, the browser
    asks for another run a second later: an add that a newer run cut short (a click while the file
    is read) goes on after that run, and its tokenizer must then reach the page."""
    return st.session_state.setdefault(_BUILDING, set())


def to_keep() -> list[KeptTokenizer]:
    """Where the add path puts a tokenizer the user just added, to be kept in the browser: taken
    before the build (a list, not `st.session_state`: see ui.state.register_session_tokenizer),
    so a tokenizer built in a run that a newer one stopped is kept all the same."""
    return st.session_state.setdefault(_TO_KEEP, [])


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
    browser may send them after the page's work. They are put back as they come."""
    own = session_tokenizers()
    out = dict(values)
    for key, value in values.items():
        ids = value if isinstance(value, list) else [value]
        missing = [i for i in ids if is_own_id(i) and i not in own]
        if missing:
            st.session_state.setdefault(_AWAITING, {})[key] = value
            if isinstance(value, list):
                out[key] = [i for i in value if i not in missing]
                st.session_state.setdefault(_SHOWN, {})[key] = out[key]
            else:
                del out[key]
    return out


def still_coming() -> dict:
    """The pages' saved choices waiting for own tokenizers still on their way, by key."""
    return st.session_state.get(_AWAITING, {})


def put_back_awaiting() -> None:
    """Put back the pages' saved choices as their own tokenizers come: a list with the ones here
    so far (in the saved order) each time one more has come, whole once all have. A tokenizer
    that never comes (not kept in this browser, or its file no longer adds) does not keep the others
    out; the user's own changes meanwhile stand until one more comes."""
    own = session_tokenizers()
    waiting, shown = st.session_state.get(_AWAITING, {}), st.session_state.setdefault(_SHOWN, {})
    for key, value in list(waiting.items()):
        ids = value if isinstance(value, list) else [value]
        here = [i for i in ids if not is_own_id(i) or i in own]
        if len(here) == len(ids):
            st.session_state[key] = value
            del waiting[key]
            shown.pop(key, None)
        elif isinstance(value, list) and here != shown.get(key):
            st.session_state[key] = here
            shown[key] = here


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
    add it again (the one add path). Never raises: a damaged entry or a file that no longer adds
    gets a note in words. The pages' choices that name it are put back by the next script run
    (`own_tokenizers_kept`), not here.

    The build takes seconds, and a rerun asked for meanwhile starts at once in a thread of its
    own (Streamlit's fast reruns) while this one goes on until its next use of `st.session_state`,
    where Streamlit stops it. So all the state is taken first and, after the build, only those
    objects are written: what was built is always added and the key noted as here (`got`); a
    choice written from here could be undone by the newer run's picker, which did not have the
    tokenizer yet.
    """
    if not isinstance(value, dict):
        return
    key = value.get("key")
    key = key if isinstance(key, str) and len(key) <= 100 else None
    got, building = st.session_state.setdefault(_GOT, []), adding()
    notes, names = st.session_state.setdefault(_NOTES, []), st.session_state.setdefault(_NAMES, {})
    tries = st.session_state.setdefault(_TRIES, {})
    if key is not None and (key in building or (key in got and key in session_tokenizers())):
        return  # sent again (its answer was late): added, or being added by a run cut short
    kept, problem = (None, None) if value.get("entry") is None else unpack_tokenizer(value.get("entry"))
    if kept is not None:
        if key is not None:
            building.add(key)
        try:
            add_own_tokenizer(
                kept.kind, kept.data, file_name=kept.file_name, name=kept.name, pattern_id=kept.pattern_id
            )
        except Exception as exc:  # noqa: BLE001  (VocabularyError, JobError: their words; anything else: none)
            from tokenizer_core import VocabularyError
            from tokenizer_core.jobs import JobError
            from tokenizer_core.tokenizers import ServerBusy

            if isinstance(exc, ServerBusy | JobError) and key is not None:
                tries[key] = tries.get(key, 0) + 1
                if tries[key] < TRIES:
                    return  # not noted as here: the browser sends it again in 10 s, and it is tried again
            why = str(exc) if isinstance(exc, VocabularyError | JobError) else "it could not be read"
            label = kept.name or kept.file_name
            notes.append(
                f"Your tokenizer {label} was kept in this browser but could not be added again: {why}"
            )
        else:
            names[kept.id] = kept.name or kept.file_name
        finally:  # also when stopped before the build: the browser sends it again (not in `got`)
            building.discard(key)
    elif problem is not None:  # (no entry: removed meanwhile)
        notes.append(f"Your own tokenizers: {problem}.")
    if key is not None and key not in got:
        got.append(key)


def _here(own: dict) -> list[str]:
    """The keys the browser sent back that are done with: added and put back in the choices that
    name them, or failed. The browser sends the next one when it finds its key here, and sends a
    key again when it does not in time. A key is held back only while it is added but not yet put
    back (added by a run cut short after this run put the choices back)."""
    shown, held = st.session_state.get(_SHOWN, {}), set()
    for key, value in st.session_state.get(_AWAITING, {}).items():
        ids = value if isinstance(value, list) else [value]
        held.update(i for i in ids if i in own and i not in shown.get(key, ()))
    return [k for k in st.session_state.get(_GOT, []) if k not in held]


def own_tokenizers_kept(add_own_tokenizer: Callable[..., tuple[str, str]]) -> None:
    """Place the component that keeps the user's own tokenizers in the browser (every run, in
    the sidebar), and tell what was restored or could not be kept. `add_own_tokenizer`: the one
    add path (ui.widgets), which adds each tokenizer the browser sends back."""
    pending = st.session_state.get(_TO_KEEP) or []
    for kept in list(pending):  # taken out once kept: a run cut short meanwhile leaves it for the next
        keep_own_tokenizer(kept)
        with contextlib.suppress(ValueError):  # (a run in another thread took it out first)
            pending.remove(kept)
    if st.session_state.get(_AWAITING):
        put_back_awaiting()  # tokenizers that came back, in this run's callback or a run cut short
    # `load` in every run, not the first only: a run cut short by the next never reaches the
    # browser. The browser reads its store once per session (the mark).
    data: dict = {"max_all": MAX_KEPT_ALL, "clear": st.session_state.get(_CLEAR), "load": session_mark()}
    data["put"] = list(st.session_state.get(_PUT, {}).values())
    data["drop"] = st.session_state.get(_DROP, [])
    data["got"] = _here(session_tokenizers())
    # new each run while an add is under way: the element's JavaScript runs again only when its
    # data changes, and each run must ask for the next until the add is done
    data["adding"] = uuid.uuid4().hex[:8] if st.session_state.get(_BUILDING) else None
    with st.sidebar:
        _component(
            key=_KEY, data=data,
            on_kept_change=_on_kept, on_back_change=lambda: add_back((st.session_state.get(_KEY) or {}).get("back"), add_own_tokenizer), on_off_change=_on_off, on_cleared_change=_on_cleared,
            on_poll_change=lambda: None,
        )  # fmt: skip
    for note in _drained(st.session_state.get(_NOTES))[:5]:
        st.toast(escape_markdown(note), icon=":material/upload_file:")


def _drained(items: list | None) -> list:
    """The items of a list in the session's state, taken out of it in place (a run cut short may
    still append to that very list)."""
    if not items:
        return []
    out = items[:]
    del items[: len(out)]
    return out


def not_kept_note() -> None:
    """In the sidebar's "Your own tokenizers": which of them this browser does not keep, and why."""
    own = session_tokenizers()
    for tid, (name, why) in st.session_state.get(_NOT_KEPT, {}).items():
        if tid in own:
            st.caption(
                f"Not kept in this browser: **{escape_markdown(name)}** ({escape_markdown(why)}). "
                "Add it again after a reload."
            )
