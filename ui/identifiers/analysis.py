"""The code identifiers page's analyses, cached for every session (a large file analysed in a
worker process), and labelled with this session's tokenizer names."""

from __future__ import annotations

import dataclasses
import os

import streamlit as st

from tokenizer_core import Tokenizer, analyse_identifiers
from tokenizer_core.identifiers import (
    IdentifierAnalysis,
    code_heatmap_html,
    extract_identifiers,
    layout_costs,
    lex_code,
    naming_costs,
    rewrite_costs,
)
from tokenizer_core.portable import portable_all
from tokenizer_core.tasks import analyse_identifiers_task

from ..jobs import run_in_worker

# A larger file is analysed in a worker process, off the interpreter every session shares (with
# the tokenizers sent along; the teaching vocabulary keeps it in this process). Measured (bench/bench_jobs.py, Python code,
# 3 tokenizers, 2 cores under heavy load): 4K chars 0.05 s in-process vs 0.18 s through the pool,
# 16K 0.31 vs 0.32 s, 64K 1.0 vs 1.2 s, 256K 4.4 vs 6.4 s. Up to ~10K characters (every sample) the
# hand-off costs more than the work; above, the analysis would hold the lock for 0.2 s to seconds.
IDENT_IN_PROCESS_MAX_CHARS = int(os.environ.get("TW_IDENT_IN_PROCESS_MAX_CHARS", "10000"))


# Analyses of a big file are hundreds of MB (a 1 MB minified file: ~400 MB): few entries, short ttl.
@st.cache_data(max_entries=4, ttl=600, show_spinner="Reading identifiers and counting tokens...")
def cached_analysis(
    code: str, language: str, ids: tuple[str, ...], strings: bool, comments: bool, _toks: list[Tokenizer]
) -> IdentifierAnalysis:
    refs = portable_all(_toks) if len(code) > IDENT_IN_PROCESS_MAX_CHARS else None
    if refs is not None:
        analysis = run_in_worker(
            analyse_identifiers_task, code, language, refs, strings=strings, comments=comments
        )
    else:
        extraction = extract_identifiers(code, language, include_strings=strings, include_comments=comments)
        analysis = analyse_identifiers(code, _toks, extraction=extraction)
    # shared by every session: labelled by id; this session's names go on in `with_names`
    return dataclasses.replace(analysis, tokenizer_names=analysis.tokenizer_ids)


def with_names(analysis: IdentifierAnalysis, toks: list[Tokenizer]) -> IdentifierAnalysis:
    """A cached analysis labelled with this session's tokenizer names."""
    names = {t.id: t.info.name for t in toks}
    return dataclasses.replace(
        analysis, tokenizer_names=tuple(names.get(i, i) for i in analysis.tokenizer_ids)
    )


@st.cache_data(max_entries=8, ttl=600, show_spinner="Drawing the code...")
def cached_code_view(
    code: str, language: str, ids: tuple[str, ...], strings: bool, comments: bool,
    tokenizer_id: str, first: int, last: int, _toks: list[Tokenizer],
) -> str:  # fmt: skip
    analysis = cached_analysis(code, language, ids, strings, comments, _toks)
    lexed = lex_code(code, language)
    extraction = extract_identifiers(
        code, language, include_strings=strings, include_comments=comments, lexed=lexed
    )
    k = analysis.tokenizer_ids.index(tokenizer_id)
    # no tokenizer name in the hover titles: a name is chosen per session, this HTML is shared
    return code_heatmap_html(
        code, extraction.occurrences, analysis.occurrence_tokens[tokenizer_id],
        alone={r.name: r.costs[k].alone_tokens for r in analysis.rows}, first_line=first, last_line=last,
        lexed=lexed, words={r.name: r.words for r in analysis.rows},
    )  # fmt: skip


@st.cache_data(max_entries=4, ttl=600, show_spinner="Re-indenting and re-counting the file...")
def cached_layout(code: str, language: str, ids: tuple[str, ...], _toks: list[Tokenizer]):
    return layout_costs(code, lex_code(code, language), _toks)


@st.cache_data(max_entries=4, ttl=600, show_spinner="Rewriting every name in each style and re-counting...")
def cached_rewrites(code: str, language: str, ids: tuple[str, ...], _toks: list[Tokenizer]):
    return rewrite_costs(code, extract_identifiers(code, language), _toks)


@st.cache_data(max_entries=256, ttl=3600, show_spinner=False)
def cached_naming(name: str, ids: tuple[str, ...], _toks: list[Tokenizer]):
    return naming_costs(name, _toks)
