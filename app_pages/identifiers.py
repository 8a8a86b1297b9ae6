"""Code identifiers: what names and code layout cost in tokens, per tokenizer."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.identifiers import CODE_LANGUAGES, TARGET_STYLES, GreedyTokenizer, IdentifierAnalysis
from tokenizer_core.jobs import JobError
from tokenizer_core.tokenizers import escape_markdown
from ui.identifiers.analysis import cached_analysis, with_names
from ui.identifiers.code_layout import layout_tab
from ui.identifiers.code_view import code_view_tab
from ui.identifiers.naming import styles_tab
from ui.identifiers.options import EXTENSIONS, SAMPLES, options_row, resolve_language
from ui.identifiers.summary import summary_metrics
from ui.identifiers.table import identifiers_tab
from ui.identifiers.teaching import greedy_vocab, teaching_tab
from ui.messages import show_notes
from ui.saved_work import keep_work
from ui.settings import kept_tabs
from ui.state import get_tokenizers
from ui.widgets import show_unavailable, text_source, working_tokenizers

MAX_CODE_CHARS = 1_000_000
TABS = ["Identifiers", "Code view", "Naming styles", "Layout", "Teaching mode"]

st.title("Code identifiers")
st.caption(
    "What your names and your code layout cost in tokens, for each tokenizer: every identifier split into "
    "words and tokens, snake_case vs camelCase, comments, indentation and blank lines."
)
keep_work("identifiers")  # in the browser, for a reload (ui/saved_work.py); before any st.stop
code = text_source(
    "identifiers", samples=SAMPLES, default_sample=next(iter(SAMPLES)), height=260, extensions=EXTENSIONS,
    label="Code", placeholder="Paste source code: Python, TypeScript, JavaScript, Go, Rust, Java, C, C++, C#, SQL, shell...",
)  # fmt: skip
ids, strings, comments, add_greedy = options_row()
toks, errors = get_tokenizers(ids)
show_unavailable(errors)
if code.strip() and len(code) <= MAX_CODE_CHARS:
    toks = working_tokenizers(toks, [code])
if add_greedy:
    vocab, _err = greedy_vocab()
    toks = [*toks, GreedyTokenizer(vocab)]
tok_ids = tuple(t.id for t in toks)

analysis: IdentifierAnalysis | None = None
language = ""
if not toks:
    st.info("Choose at least one tokenizer above.", icon=":material/arrow_upward:")
elif not code.strip():
    st.info(
        "Paste code, upload a source file or load a sample to see what its names cost.",
        icon=":material/code:",
    )
elif len(code) > MAX_CODE_CHARS:
    st.error(
        f"The code has {len(code):,} characters; this page analyses up to {MAX_CODE_CHARS:,} (about 30,000 lines). "
        "Paste one file or a part of it. Your text is kept above.", icon=":material/block:",
    )  # fmt: skip
else:
    language, reason = resolve_language(code)
    st.caption(f"Language: **{CODE_LANGUAGES[language].name}** ({escape_markdown(reason)}). "
               "Choose another above if this is wrong.")  # fmt: skip
    try:
        analysis = with_names(cached_analysis(code, language, tok_ids, strings, comments, toks), toks)
    except JobError as exc:
        st.error(f"The analysis failed: {escape_markdown(str(exc))} Your code is kept above.",
                 icon=":material/error:")  # fmt: skip
        st.stop()
    show_notes(analysis.notes, kind="warning", icon=":material/warning:")
    if not analysis.rows:
        st.info("No identifiers found in this code (keywords, strings and comments are not identifiers).",
                icon=":material/search_off:")  # fmt: skip
    summary_metrics(code, analysis)

tabs = kept_tabs(TABS, key="identifiers_tab")
for tab, label in zip(tabs, TABS):
    if not tab.open:
        continue
    with tab:
        if label == "Teaching mode":
            teaching_tab(toks)
        elif analysis is None:
            st.info("Nothing to show yet: add code above.", icon=":material/code:")
        elif label == "Identifiers":
            if analysis.rows:
                identifiers_tab(analysis, toks)
            else:
                st.info("No identifiers to list.")
        elif label == "Code view":
            code_view_tab(code, language, tok_ids, strings, comments, analysis, toks)
        elif label == "Naming styles":
            styles_tab(code, language, tok_ids, analysis, toks)
        elif label == "Layout":
            layout_tab(code, language, tok_ids, analysis, toks)
st.caption(
    "Keywords are never identifiers; builtins (print, len, console, String, COUNT...) are, and can be hidden. "
    f"Naming styles: {', '.join(TARGET_STYLES)}, single word and mixed."
)
