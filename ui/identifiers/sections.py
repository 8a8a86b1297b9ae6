"""App layer of the code identifiers page: cached analyses, the language and teaching vocabulary
read from the session, the options row and the tabs after the first."""

from __future__ import annotations

import dataclasses
import os

import pandas as pd
import streamlit as st

from tokenizer_core import InputError, Tokenizer, analyse_identifiers, decode_text, split_identifier
from tokenizer_core.bpe import plural
from tokenizer_core.identifiers import (
    CODE_EXTENSIONS,
    CODE_LANGUAGES,
    CODE_SAMPLES,
    LAYOUT_DEFINITIONS,
    MAX_VIEW_CHARS,
    MAX_VIEW_LINES,
    SEED_VOCAB,
    GreedyTokenizer,
    GreedyVocabError,
    IdentifierAnalysis,
    code_heatmap_html,
    code_view_window,
    cost_legend_html,
    detect_code_language,
    extract_identifiers,
    greedy_split,
    layout_costs,
    lex_code,
    load_code_sample,
    naming_costs,
    parse_vocab,
    pieces_html,
    rewrite_costs,
    style_summary,
)
from tokenizer_core.identifiers.charts import (
    indentation_chart,
    kind_share_chart,
    layout_breakdown_chart,
    rewrite_chart,
    style_tokens_chart,
)
from tokenizer_core.portable import portable_all
from tokenizer_core.tasks import analyse_identifiers_task
from tokenizer_core.tokenizers import TEXT_EXTENSIONS, escape_markdown, markdown_code

from ..jobs import run_in_worker
from ..widgets import tokenizer_select

AUTO = "auto"
SAMPLES = {label: (lambda label=label: load_code_sample(label)[0]) for label in CODE_SAMPLES}
EXTENSIONS = tuple(dict.fromkeys((*TEXT_EXTENSIONS, *CODE_EXTENSIONS)))
SEED_EXAMPLES = {  # the seed's four printed splits (tokenization seed, greedy example)
    "def calculate_total(items):": ["def", "calc", "ulate", "_", "total", "(", "items", ")", ":"],
    "getUserById(id)": ["get", "User", "By", "Id", "(", "id", ")"],
    "response.json()": ["response", ".", "json", "(", ")"],
    "qx9_zz": ["q", "x", "9", "_", "z", "z"],
}
# A larger file is analysed in a worker process, off the interpreter every session shares (with
# the tokenizers sent along; the teaching vocabulary keeps it in this process). Measured (bench/bench_jobs.py, Python code,
# 3 tokenizers, 2 cores under heavy load): 4K chars 0.05 s in-process vs 0.18 s through the pool,
# 16K 0.31 vs 0.32 s, 64K 1.0 vs 1.2 s, 256K 4.4 vs 6.4 s. Up to ~10K characters (every sample) the
# hand-off costs more than the work; above, the analysis would hold the lock for 0.2 s to seconds.
IDENT_IN_PROCESS_MAX_CHARS = int(os.environ.get("TW_IDENT_IN_PROCESS_MAX_CHARS", "10000"))
# ------------------------------------------------------------------ cached work


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


@st.cache_data(max_entries=8, show_spinner=False)
def sample_languages() -> dict[str, str]:
    return {text: lang for text, lang in (load_code_sample(label) for label in CODE_SAMPLES)}


# ------------------------------------------------------------------ helpers


def uploaded_name(code: str) -> str | None:
    """The uploaded file's name, if the text area still holds exactly that file."""
    file = st.session_state.get("identifiers_upload")
    if file is None:
        return None
    try:
        return file.name if decode_text(file.getvalue(), filename=file.name) == code else None
    except InputError:
        return None


def resolve_language(code: str) -> tuple[str, str]:
    choice = st.session_state.get("identifiers_language", AUTO)
    if choice != AUTO and choice in CODE_LANGUAGES:
        return choice, "chosen by you"
    sample = sample_languages().get(code)
    if sample:
        return sample, "the sample's language"
    return detect_code_language(code, filename=uploaded_name(code))


def greedy_vocab() -> tuple[tuple[str, ...], str | None]:
    """The teaching vocabulary from its text area (the seed's if it does not parse)."""
    text = st.session_state.get("identifiers_greedy_vocab")
    if text is None:
        return SEED_VOCAB, None
    try:
        return parse_vocab(text), None
    except GreedyVocabError as exc:
        return SEED_VOCAB, str(exc)


def options_row() -> tuple[list[str], bool, bool, bool]:
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    with c1:
        ids = tokenizer_select("identifiers_tokenizers")
    with c2:
        st.selectbox(
            "Language", [AUTO, *CODE_LANGUAGES], key="identifiers_language",
            format_func=lambda k: "Detect (file name, then content)" if k == AUTO else CODE_LANGUAGES[k].name,
            help="Detected from the uploaded file's name, else guessed from the code. Choose it if the guess is wrong.",
        )  # fmt: skip
    t1, t2, t3 = st.columns([1, 1, 2])
    strings = t1.toggle("Count words in strings", key="identifiers_strings",
                        help="Off: text inside string literals is skipped, as it is not code.")  # fmt: skip
    comments = t2.toggle("Count words in comments", key="identifiers_comments",
                         help="Off: comments are skipped. Keywords never count as identifiers.")  # fmt: skip
    greedy = t3.toggle(
        "Compare with the teaching tokenizer",
        key="identifiers_add_greedy",
        help="Adds the small greedy longest-match tokenizer of the Teaching mode tab (its vocabulary is there).",
    )
    return ids, strings, comments, greedy


def naming_table(name: str, toks: list[Tokenizer], *, caption: str) -> None:
    costs = cached_naming(name, tuple(t.id for t in toks), toks)
    records = []
    for c in costs:
        rec: dict[str, object] = {"style": c.style + (" (as written)" if c.original else ""), "name": c.text}
        for t in toks:
            rec[f"{t.info.name}"] = c.tokens[t.id]
            rec[f"{t.info.name} after a space"] = c.tokens_after_space[t.id]
        records.append(rec)
    st.markdown(caption)
    # a static table: its headers wrap, so every tokenizer's columns fit the page (a data grid
    # cut "Llama 3 after a space" at 1400 px and needed sideways scrolling on a phone)
    st.table(pd.DataFrame(records), hide_index=True)
    if len(costs) == 1:
        st.caption("A single word reads the same in every style except for its case.")
    st.caption("kebab-case is a valid name only in shell, CSS, Lisp and URLs; it is shown for comparison.")


def code_view_tab(code: str, language: str, ids: tuple, strings: bool, comments: bool,
                  analysis: IdentifierAnalysis, toks: list[Tokenizer]) -> None:  # fmt: skip
    lines = max(1, code.count("\n") + (0 if code.endswith("\n") else 1))
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    tid = c1.selectbox("Colour by the tokens of", list(analysis.tokenizer_ids), key="identifiers_view_tok",
                       format_func=dict(zip(analysis.tokenizer_ids, analysis.tokenizer_names)).get)  # fmt: skip
    start = int(
        c2.number_input(f"Start at line (of {lines:,})", 1, max(1, lines), 1, key="identifiers_view_line")
    )
    first, last = code_view_window(code, start)
    last = min(last, lines)
    st.html(cost_legend_html())
    st.html(cached_code_view(code, language, ids, strings, comments, tid, first, last, toks))
    more = (f" At most {MAX_VIEW_LINES:,} lines (about {MAX_VIEW_CHARS:,} characters) are drawn at once so the "
            "page stays fast: change the start line to move.") if (first > 1 or last < lines) else ""  # fmt: skip
    st.caption(
        f"Lines {first:,}–{last:,} of {lines:,}.{more} Each name is coloured by what it costs where it stands "
        "(tokens overlapping it, so a leading space or dot merged into its first token counts). "
        "Comments are grey and strings blue; hover a name for details."
    )


def styles_tab(
    code: str, language: str, ids: tuple, analysis: IdentifierAnalysis, toks: list[Tokenizer]
) -> None:
    builtins = st.session_state.get("identifiers_builtins", True)
    summaries = style_summary(analysis, include_builtins=builtins)
    c1, c2 = st.columns(2)
    with c1:
        if summaries:
            st.altair_chart(style_tokens_chart(summaries, analysis.tokenizer_ids, analysis.tokenizer_names),
                            width="stretch")  # fmt: skip
            st.caption("Mean tokens of a name alone in each style found in the code. Styles differ in length "
                       "too: hover a bar for the mean characters and tokens per character.")  # fmt: skip
        else:
            st.info("No identifiers in code to group by style.")
    with c2:
        rewrites = cached_rewrites(code, language, ids, toks)
        st.altair_chart(
            rewrite_chart(rewrites, analysis.tokenizer_ids, analysis.tokenizer_names), width="stretch"
        )
        st.caption(
            "Every identifier of two or more words in the code (builtins left alone) rewritten in one style, and "
            "the whole file counted again. A what-if for counting: the result need not compile."
        )
    st.dataframe(
        pd.DataFrame([{"style": r.style, "names renamed": r.renamed,
                       **{n: r.tokens[t] for t, n in zip(analysis.tokenizer_ids, analysis.tokenizer_names)}}
                      for r in rewrites]),
        hide_index=True,
    )  # fmt: skip
    st.subheader("Try a name")
    typed = st.text_input("Identifier", value="get_user_by_id", key="identifiers_try_name", max_chars=200)
    name = "_".join(typed.split())
    if not name:
        st.info("Type an identifier to see it in every naming style.")
    elif not split_identifier(name).words:
        st.warning("That name has no letters or digits to rewrite. Try e.g. get_user_by_id.")
    else:
        note = " (spaces read as word breaks)" if name != typed.strip() else ""
        naming_table(name, toks, caption=f"{markdown_code(name)}{note} in every naming style")


def layout_tab(
    code: str, language: str, ids: tuple, analysis: IdentifierAnalysis, toks: list[Tokenizer]
) -> None:
    report = cached_layout(code, language, ids, toks)
    stats = report.stats
    cols = st.columns(5)
    cols[0].metric("Indentation", stats.indentation.describe())
    cols[1].metric("Lines", f"{stats.lines:,}")
    cols[2].metric("Blank lines", f"{stats.blank_lines:,}")
    cols[3].metric("Comment-only lines", f"{stats.comment_lines:,}")
    cols[4].metric("Docstrings", f"{stats.docstrings:,}")
    c1, c2 = st.columns(2)
    c1.altair_chart(layout_breakdown_chart(report, analysis.tokenizer_names), width="stretch")
    c2.altair_chart(indentation_chart(report, analysis.tokenizer_names), width="stretch")
    st.altair_chart(kind_share_chart(analysis), width="stretch")
    with st.expander("How these numbers are measured", icon=":material/functions:", expanded=True):
        st.markdown(
            "Every figure is a difference of two exact token counts of whole files:\n\n"
            "- **comments contribute** = tokens(file) − tokens(file *without comments*)\n"
            "- **docstrings contribute** = tokens(file) − tokens(file *without docstrings*) (Python)\n"
            "- **blank lines contribute** = tokens(file) − tokens(file *without blank lines*)\n"
            "- **indentation contributes** = tokens(file) − tokens(file with *no indentation*)\n"
            "- **re-indented**: the level of a line = leading tabs + leading spaces ÷ the detected unit "
            f"({stats.indentation.describe()}); each level rewritten as a tab, 2 or 4 spaces, leftover "
            "alignment spaces kept.\n"
            "- **where the tokens go**: each token counts once, for the most important kind of character it "
            "covers (identifier > keyword > string > comment > number > punctuation > whitespace), so the "
            "kinds add up to the file's tokens.\n\n"
            "Each variant is made from the original file on its own, so the contributions overlap a little "
            "(a comment's indentation is in both) and need not add up.\n\n"
            + "\n".join(
                f"- *{escape_markdown(k)}*: {escape_markdown(v)}" for k, v in LAYOUT_DEFINITIONS.items()
            )
        )
    pivot = pd.DataFrame(report.records()).pivot(index="variant", columns="tokenizer", values="tokens")
    pivot = pivot.reindex([v for v in report.tokens]).rename(
        columns=dict(zip(analysis.tokenizer_ids, analysis.tokenizer_names))
    )
    st.dataframe(pivot, column_config={"variant": "File"})


def teaching_tab(toks: list[Tokenizer]) -> None:
    st.markdown(
        "The article “Tokens and Tokenization in LLM” explains subwords with a tiny tokenizer: cut the text into letter runs, digit "
        "runs and single symbols, then at each position take **the longest piece in the vocabulary** (ignoring "
        "case); a character no piece starts with is a token on its own. Edit the vocabulary and see the splits change."
    )
    if "identifiers_greedy_vocab" not in st.session_state:
        st.session_state["identifiers_greedy_vocab"] = "\n".join(SEED_VOCAB)

    def reset() -> None:
        st.session_state["identifiers_greedy_vocab"] = "\n".join(SEED_VOCAB)

    c1, c2 = st.columns([1, 2])
    with c1:
        st.text_area("Vocabulary (one piece per line)", key="identifiers_greedy_vocab", height=300)
        st.button("Reset to the article's vocabulary", key="identifiers_greedy_reset", on_click=reset,
                  icon=":material/restart_alt:")  # fmt: skip
    vocab, error = greedy_vocab()
    with c2:
        if error:
            st.error(
                f"{escape_markdown(error)}. Using the article's vocabulary until it is fixed.",
                icon=":material/error:",
            )
        text = st.text_input(
            "Text", value="def calculate_total(items):", key="identifiers_greedy_text", max_chars=2_000
        )
        greedy = GreedyTokenizer(vocab)
        result = greedy_split(text, vocab)
        st.html(f'<div class="tw-greedy" style="font-family:monospace;font-size:1.05rem;line-height:2;line-break:anywhere">'
                f"{pieces_html(greedy.segments(text), show_whitespace=True)}</div>")  # fmt: skip
        st.markdown(f"**{plural(len(text), 'character')} → {plural(result.count, 'token')}** "
                    f"({plural(result.unknown, 'unknown character')})"
                    if text else "Type some text to split.")  # fmt: skip
        if text and toks:
            st.caption("The same text in the real tokenizers: " + ", ".join(
                f"{escape_markdown(t.info.name)} {t.count(text)}" for t in toks))  # fmt: skip
        if result.steps:
            st.dataframe(
                pd.DataFrame([{"position": s.pos, "chunk": s.chunk, "piece": s.piece,
                               "in vocabulary": s.known, "lengths tried": s.tried} for s in result.steps[:500]]),
                hide_index=True, height=220,
            )  # fmt: skip
    st.markdown("**The article's four examples** with this vocabulary")
    rows = []
    for sample, expected in SEED_EXAMPLES.items():
        pieces = list(greedy_split(sample, vocab).pieces)
        rows.append({"text": sample, "characters": len(sample), "tokens": len(pieces), "pieces": " | ".join(pieces),
                     "as printed in the article": " | ".join(expected), "same as the article": pieces == expected})  # fmt: skip
    st.dataframe(pd.DataFrame(rows), hide_index=True)
