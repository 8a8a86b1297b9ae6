"""How each tokenizer cuts the text: the coloured view of the text, one pane per tokenizer, a
part of a long text at a time."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer, TokenizerFailed
from tokenizer_core.bpe import plural
from tokenizer_core.tokenizers import TokenPane, legend_html, token_count, unshared_boundaries, view_windows

from ..counting import segments
from ..failures import show_failure
from ..fast_first import rerun_parts
from ..token_view import token_view

PART_CHARS = 12_000  # characters per page of the coloured view
MAX_SPANS = 6_000  # segments drawn per tokenizer and page
VIEW_LABELS = {"text": "Text", "ids": "Token IDs", "hide": "Hide"}


def token_views(text: str, toks: list[Tokenizer], allow_special: bool, *, rerun: list[str]) -> None:
    """The views, drawn in a fragment; choosing the view or whitespace reruns the fragments
    `rerun` (that one, and the one whose share link keeps them)."""
    st.subheader("How each tokenizer cuts the text")
    again = {"on_change": rerun_parts, "args": (rerun,)}
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    with c1:
        st.session_state.setdefault("workspace_view", "text")
        mode = st.segmented_control(
            "View", list(VIEW_LABELS), format_func=VIEW_LABELS.get, key="workspace_view", persist_state="session", **again,
        ) or "text"  # fmt: skip
    ws = c2.toggle(
        "Show whitespace",
        key="workspace_ws",
        persist_state="session",
        help="space ⋅, tab →, newline ↵",
        **again,
    )
    diff = c3.toggle(
        "Mark differences", key="workspace_diff", persist_state="session", value=True, disabled=len(toks) < 2,
        help="A red bar marks a token boundary that not every tokenizer shown has.",
    )  # fmt: skip
    if mode == "hide":
        st.caption("Coloured view hidden. The counts above cover the whole text.")
        return
    windows = view_windows(text, PART_CHARS)
    part = 0
    if len(windows) > 1:
        part = int(st.number_input(
            f"Part (the text is shown in {len(windows)} parts of about {PART_CHARS:,} characters)",
            min_value=1, max_value=len(windows), value=1, step=1, key="workspace_part", persist_state="session",
        )) - 1  # fmt: skip
        part = min(part, len(windows) - 1)
    start, end, exact = windows[part]
    seg_lists, drawn = [], []
    for t in toks:  # a user's tokenizer may fail on one part of a text it counted whole
        try:
            seg_lists.append(segments(text, t, start=start, end=end, special=allow_special))
            drawn.append(t)
        except TokenizerFailed as exc:
            show_failure(exc)
    toks = drawn
    marked = unshared_boundaries(*seg_lists) if diff and len(toks) > 1 else [frozenset()] * len(toks)
    if len(windows) > 1:
        note = "" if exact else " Near the start of this part a token may differ from the whole-text count."
        st.caption(f"Characters {start:,}–{end:,} of {len(text):,}.{note}")
    legend = [("hover", "token ids, bytes and offsets")]
    if diff and len(toks) > 1:
        legend.append(("red bar", "boundary not shared by every tokenizer shown"))
    if allow_special:
        legend.append(("dashed outline", "special token"))
    st.html(legend_html(legend))
    panes = []
    for tok, segs, mk in zip(toks, seg_lists, marked):
        shown = segs[:MAX_SPANS]
        caption = (
            f"Drawing the first {len(shown):,} of {len(segs):,} pieces of this part."
            if len(shown) < len(segs)
            else ""
        )
        panes.append(
            TokenPane(
                tok.info.name, shown, note=f"{plural(token_count(segs), 'token')} in this part", caption=caption,
                marked=mk,
            )
        )  # fmt: skip
    token_view(text[start:end], panes, key="workspace_token_view", base=start, mode=mode, show_whitespace=ws)
