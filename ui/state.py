"""App-layer state: tokenizers cached once per process, user tokenizers per browser session.

Built-in tokenizers are loaded at most once per server process (`st.cache_resource`). A
tokenizer a user uploads or trains lives in their own `st.session_state`, so two users never
see each other's, and it appears on every page next to the built-in ones.

Results are cached for every session (`st.cache_data`) by tokenizer id, and an id is a hash of
everything that changes a tokenizer's output. A tokenizer's *name* is chosen per session, so a
cached value never holds one. The counts of a text keep numbers only (ui/counting.py); the
language table's rows are labelled by id (`unnamed`) and the page puts this session's names on
them afterwards (`named`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

import streamlit as st

from tokenizer_core import BUILTINS, Tokenizer, TokenizerUnavailable, VocabularyError
from tokenizer_core.tokenizers import TokenizerInfo, builtin_infos
from tokenizer_core.tokenizers.registry import builtin
from ui.sessions import current_session_id

_SESSION_KEY = "session_tokenizers"
R = TypeVar("R")


def _loaded_builtin(tokenizer_id: str) -> Tokenizer:
    # the process's one cache of built-in tokenizers (the registry's), shared with the jobs that
    # run in this process: each tokenizer is held once
    return builtin(tokenizer_id)


@st.cache_resource(show_spinner="Loading tokenizer (once per server)...", max_entries=32)
def _cached_builtin(tokenizer_id: str) -> Tokenizer:
    return _loaded_builtin(tokenizer_id)  # the same object, loaded once


def builtin_tokenizer(tokenizer_id: str) -> Tokenizer:
    """A built-in tokenizer, loaded once per server: also for a request outside any session
    (ui/count_api.py), which gets it without the page's spinner (there is no page to show it on,
    and Streamlit logs a warning for each one it is asked for outside a run). Raises
    TokenizerUnavailable with the fix."""
    if current_session_id() is None:
        return _loaded_builtin(tokenizer_id)
    return _cached_builtin(tokenizer_id)


def session_tokenizers() -> dict[str, Tokenizer]:
    """This browser session's own tokenizers (uploaded or trained), by id."""
    return st.session_state.setdefault(_SESSION_KEY, {})


def register_session_tokenizer(tokenizer: Tokenizer, *, into: dict | None = None) -> Tokenizer:
    """Make `tokenizer` available on every page for this session only; returns it.

    Names label metrics, chart bars and table columns, so a name that a built-in or another of
    this session's tokenizers already has gets a number ("o200k_base (2)"). The same file added
    again replaces the earlier one.

    `into`: the session's tokenizers (`session_tokenizers()`) taken before a build that takes
    seconds. A rerun asked for meanwhile (a keystroke, a click) starts at once in a thread of its
    own, and Streamlit stops this run at its next use of `st.session_state`: registering through
    the dict taken before, which is no such use, the built tokenizer is never lost to that stop.
    """
    own = session_tokenizers() if into is None else into
    old = own.pop(tokenizer.id, None)
    if old is not None and old is not tokenizer:
        close_tokenizer(old)
    taken = {i.name.casefold() for i in builtin_infos()} | {t.info.name.casefold() for t in own.values()}
    name, n = tokenizer.info.name, 1
    while name.casefold() in taken:
        n += 1
        name = f"{tokenizer.info.name} ({n})"
    if name != tokenizer.info.name:
        tokenizer.info = dataclasses.replace(tokenizer.info, name=name)
    own[tokenizer.id] = tokenizer
    return tokenizer


def remove_session_tokenizer(tokenizer_id: str) -> None:
    close_tokenizer(session_tokenizers().pop(tokenizer_id, None))


# A session's own uploaded tokenizers at most: each runs in a process of its own (up to
# TW_OWN_TOKENIZER_MEMORY_MB each).
MAX_OWN_TOKENIZERS = 8


def check_room_for_own_tokenizer() -> None:
    """Raise VocabularyError when this session already has MAX_OWN_TOKENIZERS own tokenizers."""
    if len(session_tokenizers()) >= MAX_OWN_TOKENIZERS:
        raise VocabularyError(
            f"you already have {MAX_OWN_TOKENIZERS} of your own tokenizers, the most a session can "
            "have; remove one below to add another"
        )


def close_tokenizer(tok: object) -> None:
    """End the process of a user's tokenizer that runs in one (others need nothing)."""
    close = getattr(tok, "close", None)
    if callable(close):
        close()


def tokenizer_infos() -> list[TokenizerInfo]:
    """Built-in tokenizers followed by this session's own, in display order."""
    return builtin_infos() + [t.info for t in session_tokenizers().values()]


def tokenizer_label(tokenizer_id: str) -> str:
    """Display name for an id (falls back to the id itself)."""
    if tokenizer_id in BUILTINS:
        return BUILTINS[tokenizer_id].info.name
    tok = session_tokenizers().get(tokenizer_id)
    return f"{tok.info.name} (yours)" if tok else tokenizer_id


def get_tokenizer(tokenizer_id: str) -> Tokenizer:
    """The tokenizer with this id; raises TokenizerUnavailable with the fix."""
    own = session_tokenizers().get(tokenizer_id)
    if own is not None:
        return own
    return _cached_builtin(tokenizer_id)


def get_tokenizers(ids: list[str]) -> tuple[list[Tokenizer], list[TokenizerUnavailable]]:
    """Load several; the ones that fail are returned as errors, the others still work."""
    loaded: list[Tokenizer] = []
    errors: list[TokenizerUnavailable] = []
    for tid in ids:
        try:
            loaded.append(get_tokenizer(tid))
        except TokenizerUnavailable as exc:
            errors.append(exc)
    return loaded, errors


def unnamed(rows: Sequence[R], *, field: str = "tokenizer") -> list[R]:
    """Rows (dataclasses with `tokenizer_id` and `field`) labelled by id, for a shared cache."""
    return [dataclasses.replace(r, **{field: r.tokenizer_id}) for r in rows]  # type: ignore[misc]


def named(rows: Sequence[R], toks: Sequence[Tokenizer], *, field: str = "tokenizer") -> list[R]:
    """Rows from a shared cache labelled with this session's tokenizer names."""
    names = {t.id: t.info.name for t in toks}
    return [
        dataclasses.replace(r, **{field: names.get(r.tokenizer_id, r.tokenizer_id)})  # type: ignore[misc]
        for r in rows
    ]
