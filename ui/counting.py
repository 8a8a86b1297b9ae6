"""Counting a text in the app: one owner, one call. `counts(text, tokenizers, special=...)`
returns a `CountRow` per tokenizer (named as this session names it) and holds every tier behind
it; `segments(...)` gives the pieces the token views draw, kept the same way. Every page that
counts a text, and the count route the text box asks while the user types (ui/count_api.py),
goes through here.

What happens on a keystroke in the prompt workspace's text box, in order:

1. The box (ui/live_text.py) waits for a pause in typing and POSTs the text to ``/api/counts``.
   `count_api.counts` checks the request and, in a thread of its own, `count_api._count` calls
   ``counts(text, tokenizers, special=..., where=None)``: no session, so only the shared tier
   (step 4) answers. The box writes the numbers on the count cards.
2. The box sends the text to Streamlit, which reruns the workspace's fast part alone (the
   `live_counts` fragment, app_pages/workspace.py), and it calls `counts` for the session.
3. This session's last answer (`_SessionTier`, under ``{where}_counted``): the same text, the
   same tokenizer objects and the same `special` return the rows kept, counting nothing. A run
   of the whole page right after the fast part's finds its counts here.
4. The count shared by every session (`_shared_tally`, an `st.cache_data` of a `Tally`: the
   tokens per tokenizer id and the text's size, nothing a session chose): a text up to
   ``in_process_max_chars("count")`` characters (1,000,000) is counted here, in the server's
   process, with a spinner from SPINNER_CHARS; the route's count of step 1 is found here.
5. A longer text goes to the worker pool (`ui.jobs.pooled_result`, the task `tally_task`, the
   session's own tokenizers sent as `portable` refs): a progress bar and a Cancel button while
   it runs, its tally shared by every session under the text's fingerprint
   (`ui.jobs.SharedResults`). Cancelled: None, with a message and a button to count again.
6. The rows are made from the tally with this session's tokenizers (`row_for`): their names
   are never cached, so no row is relabelled. Inside a tokenizer, `Tokenizer.count` splits the
   text into pieces and counts them with its native engine (tokenizer_core/tokenizers/).
7. Once the counts are on screen the browser asks for the rest (ui/fast_first.py); the token
   views ask `segments` for the part of the text on view: kept per session under
   ``{where}_segments`` while that part stays the same, and after a keystroke the segments of
   the text before it help (`Tokenizer.segments_after`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import streamlit as st

from tokenizer_core import CountRow, Segment, Tokenizer
from tokenizer_core.portable import portable_all
from tokenizer_core.tasks import tally_task
from tokenizer_core.workspace.counting import TextStats, row_for, text_stats

from .jobs import in_process_max_chars, pooled_result, show_stopped, text_digest

SPINNER_CHARS = 100_000  # texts from this long take a noticeable moment to count: say so meanwhile
DEFAULT_WINDOW = 128_000  # tokens: the rows' share of a context window, unless the page gives one


@dataclass(frozen=True)
class Tally:
    """What counting a text gives, the same for every session: the tokens of each tokenizer (in
    the order asked) and the text's size."""

    tokens: tuple[int, ...]
    stats: TextStats

    def rows(self, toks: Sequence[Tokenizer], *, window: int) -> list[CountRow]:
        """A row per tokenizer, named as this session names it."""
        return [row_for(t, n, self.stats, context_window=window) for t, n in zip(toks, self.tokens)]


def counts(
    text: str, tokenizers: Sequence[Tokenizer], *, special: bool, window: int = DEFAULT_WINDOW,
    where: str | None = "workspace", what: str = "text",
) -> list[CountRow] | None:  # fmt: skip
    """A `CountRow` per tokenizer of `text` (`special`: text such as <|endoftext|> counts as the
    special token), each measured against `window` tokens. `where` names the page (its session's
    tier and its job); None for a request outside any session (the count route: the shared tier
    only). None when the user cancelled a text counted in a worker (a message says so, naming
    the `what`). A user's tokenizer that fails raises TokenizerFailed, as `Tokenizer.count`."""
    toks = list(tokenizers)
    ids = tuple(t.id for t in toks)
    if where is None:
        return _shared_tally(text, ids, special, toks).rows(toks, window=window)
    kept = st.session_state.get(f"{where}_counted")
    if kept is not None and kept.holds(text, toks, special, window):
        return kept.rows
    refs = portable_all(toks) if len(text) > in_process_max_chars("count") else None
    if refs is None:
        with st.spinner("Counting...") if len(text) >= SPINNER_CHARS else nullcontext():
            tally = _shared_tally(text, ids, special, toks)
    else:
        job = f"{where}_count"
        outcome = pooled_result(
            job, ("count", text_digest(text), ids, special), tally_task, text, refs, allow_special=special,
            weight=1, label=f"Counting the {what}'s tokens...",
        )  # fmt: skip
        if outcome.error is not None:
            show_stopped(job, outcome, "Counting", what, again="Count again")
            return None
        tally = Tally(*outcome.value)
    rows = tally.rows(toks, window=window)
    st.session_state[f"{where}_counted"] = _SessionTier(text, toks, special, window, rows)
    return rows


@dataclass(frozen=True, eq=False)
class _SessionTier:
    """A session's last answer: what was counted (the text itself: compared by identity first,
    then by value) and by which tokenizer objects (a user's tokenizer replaced under the same id
    is another one)."""

    text: str
    toks: list[Tokenizer]
    special: bool
    window: int
    rows: list[CountRow]

    def holds(self, text: str, toks: list[Tokenizer], special: bool, window: int) -> bool:
        return (
            (self.special, self.window, len(self.toks)) == (special, window, len(toks))
            and all(a is b for a, b in zip(self.toks, toks))
            and (self.text is text or self.text == text)
        )


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)  # the workspace shows a spinner itself
def _shared_tally(text: str, ids: tuple[str, ...], special: bool, _toks: list[Tokenizer]) -> Tally:
    """The tally of a text for every session, by tokenizer id (an id is a hash of everything that
    changes a tokenizer's output)."""
    return Tally(tuple(t.count(text, allow_special=special) for t in _toks), text_stats(text))


def segments(
    text: str, tok: Tokenizer, *, start: int, end: int, special: bool, where: str = "workspace"
) -> list[Segment]:
    """`tok`'s segments of ``text[start:end]`` (offsets in `text`), kept for this session while
    the part on view stays the same: reruns that change nothing in it (a view option, the cost
    inputs, another page and back) reuse them. Typing changes the text: a cache shared by every
    session (which pickles what it keeps, ~2-3 ms per 1,000 segments) only cost time there."""
    key = f"{where}_segments"
    part = (text, start, end, special)
    kept = st.session_state.get(key)
    if kept is None or kept[0] != part:  # a keystroke: the segments of the text before it help
        earlier = kept[1] if kept is not None and kept[0][1] == start == 0 and kept[0][3] == special else {}
        kept = st.session_state[key] = (part, {}, earlier)
    segs = _made_by(tok, kept[1].get(tok.id))
    if segs is None:
        earlier = _made_by(tok, kept[2].pop(tok.id, None))
        segs = (
            tok.segments(text[start:end], allow_special=special)
            if earlier is None
            else tok.segments_after(text[start:end], previous=earlier, allow_special=special)
        )
        if start:
            segs = [Segment(s.start + start, s.end + start, s.ids, s.text, s.data, s.special) for s in segs]
        kept[1][tok.id] = (tok, segs)
    return segs


def _made_by(tok: Tokenizer, found: tuple[Tokenizer, list[Segment]] | None) -> list[Segment] | None:
    """Segments kept under `tok`'s id if this very tokenizer made them (a user's tokenizer
    replaced under the same id is another one): ``_made_by(tok, (tok, segs)) -> segs``."""
    return found[1] if found is not None and found[0] is tok else None
