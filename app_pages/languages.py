"""Language costs: what the same content costs in tokens, and in money, in each language."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Language, Tokenizer
from tokenizer_core.bpe import plural
from tokenizer_core.languages import LanguageRow, language_rows_csv, split_marks, summarize
from tokenizer_core.languages.charts import premium_heatmap, tokens_chart
from tokenizer_core.tokenizers import TokenPane, escape_markdown, legend_html, token_count, view_windows
from ui.languages.sections import (
    SEEN,
    SELECTED,
    about_section,
    cached_segments,
    cached_table,
    cost_section,
    keep_valid,
    texts_section,
)
from ui.state import get_tokenizers, named, tokenizer_label
from ui.token_view import token_view
from ui.widgets import show_unavailable, tokenizer_select, working_tokenizers

DEFAULT_TOKENIZERS = ("o200k_base", "cl100k_base", "llama3", "qwen", "tekken")
MAX_PAIR_SEGMENTS = 4_000  # coloured pieces drawn per side
PAIR_CHARS = 12_000  # characters of a long text shown in the side-by-side view

# ------------------------------------------------------------------------------ metrics


def summary_metrics(rows: list[LanguageRow], base_name: str) -> None:
    sums = summarize(rows)
    if not sums:
        st.info(
            f"Add a second language to compare it with {escape_markdown(base_name)}.", icon=":material/info:"
        )
        return
    cols = st.columns(min(len(sums), 5))
    for i, s in enumerate(sums):
        with cols[i % len(cols)]:
            st.metric(
                escape_markdown(s.tokenizer), f"{s.median_premium:.2f}×",
                help=f"Median premium over {s.languages} languages: tokens ÷ tokens in "
                f"{escape_markdown(base_name)}.",
            )  # fmt: skip
            st.caption(
                f"median premium  \nmost: {escape_markdown(s.max_language)} {s.max_premium:.2f}×  \n"
                f"least: {escape_markdown(s.min_language)} {s.min_premium:.2f}×"
            )


def table_section(rows: list[LanguageRow]) -> None:
    df = pd.DataFrame([{f: getattr(r, f) for f in LanguageRow.__dataclass_fields__} for r in rows])
    # a language's note is the same on each of its rows: said once under the table, not in a column
    notes = dict.fromkeys((r.language, r.words_note) for r in rows if r.words_note)
    df = df.drop(columns=["base_code", "base_tokens", "is_base", "code", "words_note"])
    st.dataframe(
        df, hide_index=True, width="stretch", height=360,
        column_config={
            "language": st.column_config.TextColumn("Language", pinned=True), "script": "Script",
            "tokenizer_id": None, "tokenizer": st.column_config.TextColumn("Tokenizer", pinned=True),
            "tokens": st.column_config.NumberColumn("Tokens", format="localized"),
            "characters": st.column_config.NumberColumn("Characters", format="localized"),
            "utf8_bytes": st.column_config.NumberColumn("UTF-8 bytes", format="localized"),
            "words": st.column_config.NumberColumn("Words", help="Whitespace-delimited; empty for scripts without spaces between words (see the notes under the table)."),
            "chars_per_token": st.column_config.NumberColumn("Chars / token", format="%.2f"),
            "bytes_per_token": st.column_config.NumberColumn("Bytes / token", format="%.2f"),
            "tokens_per_word": st.column_config.NumberColumn("Tokens / word", format="%.2f"),
            "premium": st.column_config.NumberColumn("Premium", format="%.3f×"),
        },
    )  # fmt: skip
    if notes:
        st.caption(
            "  \n".join(f"**{escape_markdown(lang)}**: {escape_markdown(note)}" for lang, note in notes)
        )


# ---------------------------------------------------------------------------- side by side


def pair_section(chosen: list[Language], toks: list[Tokenizer], rows: list[LanguageRow], base: str) -> None:
    st.subheader("Side by side, in tokens")
    codes = [l.code for l in chosen]
    by_code = {l.code: l for l in chosen}
    c1, c2, c3, c4 = st.columns([3, 3, 3, 2.5], vertical_alignment="bottom")
    for key, want in (("languages_left", base), ("languages_right", "hi" if base != "hi" else "en")):
        if st.session_state.get(key) not in codes:
            st.session_state[key] = want if want in codes else codes[min(1, len(codes) - 1)]
    left = c1.selectbox("Left", codes, format_func=lambda c: by_code[c].name, key="languages_left")
    right = c2.selectbox("Right", codes, format_func=lambda c: by_code[c].name, key="languages_right")
    tok_ids = [t.id for t in toks]
    if st.session_state.get("languages_pair_tok") not in tok_ids:
        st.session_state["languages_pair_tok"] = tok_ids[0]
    tid = c3.selectbox("Tokenizer", tok_ids, format_func=tokenizer_label, key="languages_pair_tok")
    ws = c4.toggle("Show whitespace", key="languages_pair_ws", help="space ⋅, tab →, newline ↵")
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


# ------------------------------------------------------------------------------------ page

st.title("Language costs")
st.caption(
    "The same content costs a different number of tokens in each language. Measure it on a bundled "
    "support reply in 26 languages or on your own translations, with every tokenizer the app has, "
    "and see what it means for your bill."
)
about_section()

languages, problems = texts_section()
for p in problems:
    st.warning(escape_markdown(p), icon=":material/warning:")
codes = [l.code for l in languages]
names = {l.code: l.name for l in languages}

c1, c2, c3 = st.columns([4, 3, 2], vertical_alignment="bottom")
with c1:
    keep_valid(SELECTED, codes, default=codes, add_new=True)
    st.session_state[SEEN] = codes
    selected = st.multiselect("Languages", codes, format_func=lambda c: names.get(c, c), key=SELECTED)
with c2:
    ids = tokenizer_select("languages_tokenizers", default=DEFAULT_TOKENIZERS)
chosen = [l for l in languages if l.code in selected]
with c3:
    base_opts = [l.code for l in chosen]
    if base_opts and st.session_state.get("languages_base") not in base_opts:
        st.session_state["languages_base"] = "en" if "en" in base_opts else base_opts[0]
    base = st.selectbox(
        "Base language", base_opts, format_func=lambda c: names.get(c, c), key="languages_base",
        help="Premiums are relative to this language (premium 1.00).", disabled=not base_opts,
    )  # fmt: skip

toks, errors = get_tokenizers(ids)
show_unavailable(errors)
if chosen:
    toks = working_tokenizers(toks, [l.text for l in chosen])
if not languages:
    st.info(
        "No language has a text: reset to the bundled sample or type a text in the table above.",
        icon=":material/edit_note:",
    )
elif not chosen:
    st.info("Choose at least one language above.", icon=":material/arrow_upward:")
elif not ids:
    st.info("Choose at least one tokenizer above.", icon=":material/arrow_upward:")
elif toks and base:
    base_name = names[base]
    rows = named(cached_table(tuple(chosen), tuple(t.id for t in toks), base, toks), toks)
    summary_metrics(rows, base_name)
    st.altair_chart(premium_heatmap(rows, base_name=base_name), width="stretch", key="languages_heatmap")
    st.altair_chart(tokens_chart(rows), width="stretch", key="languages_bars")
    with st.expander(
        "The full table: tokens, characters, bytes, words and premium per language and tokenizer",
        icon=":material/table:",
    ):
        table_section(rows)
    st.download_button(
        "Download the full table (CSV)", language_rows_csv(rows), file_name="language_premiums.csv",
        mime="text/csv", icon=":material/download:", key="languages_table_csv", on_click="ignore",
    )  # fmt: skip
    cost_section(chosen, base, base_name)
    pair_section(chosen, toks, rows, base)
