"""Two languages side by side, drawn as tokens by one tokenizer."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Language, Segment, Tokenizer
from tokenizer_core.bpe import plural
from tokenizer_core.languages import LanguageRow, split_marks
from tokenizer_core.tokenizers import TokenPane, escape_markdown, legend_html, token_count, view_windows

from ..state import tokenizer_label
from ..token_view import token_view

MAX_PAIR_SEGMENTS = 4_000  # coloured pieces drawn per side
PAIR_CHARS = 12_000  # characters of a long text shown in the side-by-side view


@st.cache_data(max_entries=48, ttl=600, show_spinner=False)
def cached_segments(tokenizer_id: str, text: str, _tok: Tokenizer) -> list[Segment]:
    return _tok.segments(text)


def pair_section(chosen: list[Language], toks: list[Tokenizer], rows: list[LanguageRow], base: str) -> None:
    st.subheader("Side by side, in tokens")
    codes = [l.code for l in chosen]
    by_code = {l.code: l for l in chosen}
    c1, c2, c3, c4 = st.columns([3, 3, 3, 2.5], vertical_alignment="bottom")
    for key, want in (("languages_left", base), ("languages_right", "hi" if base != "hi" else "en")):
        if st.session_state.get(key) not in codes:
            st.session_state[key] = want if want in codes else codes[min(1, len(codes) - 1)]
    left = c1.selectbox(
        "Left", codes, format_func=lambda c: by_code[c].name, key="languages_left", persist_state="session"
    )
    right = c2.selectbox(
        "Right", codes, format_func=lambda c: by_code[c].name, key="languages_right", persist_state="session"
    )
    tok_ids = [t.id for t in toks]
    if st.session_state.get("languages_pair_tok") not in tok_ids:
        st.session_state["languages_pair_tok"] = tok_ids[0]
    tid = c3.selectbox(
        "Tokenizer", tok_ids, format_func=tokenizer_label, key="languages_pair_tok", persist_state="session"
    )
    ws = c4.toggle(
        "Show whitespace", key="languages_pair_ws", persist_state="session", help="space ⋅, tab →, newline ↵"
    )
    tok = next(t for t in toks if t.id == tid)
    st.html(legend_html([("colours", "one per token id"), ("hover", "token ids, bytes and offsets")]))
    cols = st.columns(2)
    for side, col, code in zip(("left", "right"), cols, (left, right)):
        lang = by_code[code]
        row = next(r for r in rows if r.code == code and r.tokenizer_id == tid)
        start, end, _ = view_windows(lang.text, PAIR_CHARS)[0]  # a long text: its first part
        segs = cached_segments(tid, lang.text[start:end], tok)
        with col:
            prem = f" · premium {row.premium:.2f}×" if row.premium is not None else ""
            st.markdown(
                f"**{escape_markdown(lang.name)}** · {plural(row.tokens, 'token')} · "
                f"{plural(len(lang.text), 'character')}{prem}"
            )
            if end < len(lang.text):
                st.caption(
                    f"Showing the first {end:,} of {len(lang.text):,} characters "
                    f"({token_count(segs):,} tokens); the counts above are for the whole text."
                )
            if len(segs) > MAX_PAIR_SEGMENTS:
                st.caption(f"Drawing the first {MAX_PAIR_SEGMENTS:,} of {len(segs):,} pieces.")
            if cut := split_marks(segs):
                st.caption(
                    f"{cut} token boundaries fall inside a syllable, between a letter and its vowel sign "
                    "or mark: the browser draws such a sign on a dotted circle ◌."
                )
            token_view(
                lang.text[start:end], [TokenPane("", segs[:MAX_PAIR_SEGMENTS])], key=f"languages_pair_view_{side}",
                base=start, direction=lang.direction, lang=lang.code if len(lang.code) <= 3 else "",
                show_whitespace=ws,
            )  # fmt: skip
