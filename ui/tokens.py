"""The coloured token view, called through this one function so the drawing can be swapped
(e.g. for a components-v2 view) in one place."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import streamlit as st

from tokenizer_core import Segment, segments_html


def show_tokens(
    segments: Sequence[Segment],
    *,
    mode: str = "text",
    show_whitespace: bool = False,
    marked: Iterable[int] = (),
) -> None:
    """Draw segments as coloured tokens (mode "text" or "ids"); `marked` offsets get a red bar,
    segments with ``special=True`` a dashed outline."""
    st.html(segments_html(segments, mode=mode, show_whitespace=show_whitespace, marked=marked))
