"""Inside a tokenizer: every step from your text to its ids and back, and the surprises they explain."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.tokenizers import DEFAULT_IDS, clean_text
from ui.inside import LIVE_CHARS, MAX_CHARS, SAMPLE, steps, surprise_section
from ui.live_text import live_text_area
from ui.saved_work import keep_work
from ui.state import get_tokenizers
from ui.widgets import show_unavailable, tokenizer_select, working_tokenizers

st.title("Inside a tokenizer")
st.caption(
    "Every step from your text to the numbers a model reads, and back, for the real tokenizers: the "
    "pieces, the bytes, the merges one by one, the fallback for rare characters, the ids."
)
if "inside_text" not in st.session_state:
    st.session_state["inside_text"] = SAMPLE
text = live_text_area(
    "inside_text", label="Your text", height=100, live_limit=LIVE_CHARS,
    placeholder="Type or paste a sentence, a number, a name, some code...",
    notes=(
        f"The steps follow your typing (up to {LIVE_CHARS:,} characters).",
        f"Over {LIVE_CHARS:,} characters the steps update when you press Ctrl+Enter (or Count).",
    ),
)  # fmt: skip
tokenizer_id = tokenizer_select("inside_tokenizer", label="Tokenizer", default=("o200k_base",), multi=False)
keep_work("inside")  # in the browser, for a reload (ui/saved_work.py); before any st.stop

if not text.strip():
    st.info("Type a few words above to see them taken apart.", icon=":material/edit:")
    st.stop()
if len(text) > MAX_CHARS:
    st.warning(
        f"Your text has {len(text):,} characters; the first {MAX_CHARS:,} are taken apart here.",
        icon=":material/content_cut:",
    )
    text = text[:MAX_CHARS]
text = clean_text(text)  # the same length; a lone surrogate could not be hashed for the caches

toks, errors = get_tokenizers([str(tokenizer_id)] if tokenizer_id else [])
show_unavailable(errors)
toks = working_tokenizers(toks, [text])

step_tab, why_tab = st.tabs(["Step by step", "Why did it count that?"])
with step_tab:
    if toks:
        steps(toks[0], text)
    else:
        st.info("Choose a tokenizer above.", icon=":material/arrow_upward:")
with why_tab:
    st.write(
        "The surprises behind many token counts, shown on your own words, side by side for the tokenizers "
        "you choose."
    )
    ids = tokenizer_select("inside_compare", label="Compare", default=DEFAULT_IDS)
    others, more_errors = get_tokenizers(list(ids or []))
    show_unavailable(more_errors)
    others = working_tokenizers(others, [text])
    if others:
        surprise_section(text, others)
    else:
        st.info("Choose at least one tokenizer to compare.", icon=":material/arrow_upward:")
