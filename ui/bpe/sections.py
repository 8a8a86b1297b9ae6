"""App layer of the BPE playground: limits and option help, the model in the session state, training
in the worker pool, the options form, the merge detail and table, the probe, and using, saving or
loading a model."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from typing import TypeVar

import pandas as pd
import streamlit as st

from tokenizer_core import BPEError, BPEModel, BPEOptions, load_bpe_model, save_bpe_model, trained_tokenizer
from tokenizer_core.bpe import (
    BPE_PRESETS,
    MARKER_PRESETS,
    SYMBOL_KINDS,
    TIE_BREAKS,
    UNSPACED_MAX_CHARS,
    MergeEncoder,
    bpe_candidate_rows,
    bpe_fired_rows,
    bpe_merge_rows,
    bpe_symbol_label,
    bpe_tokens_summary,
    corpus_limit,
    explain_bpe_choice,
    export_agreement,
    model_id,
    plural,
    pretokenizer_labels,
    probe_bpe,
    tiktoken_problem,
    with_steps,
)
from tokenizer_core.tasks import train_bpe_task
from tokenizer_core.tokenizers import TokenPane, escape_markdown, legend_html, markdown_code

from ..jobs import follow_job, start_job
from ..state import register_session_tokenizer, session_tokenizers
from ..token_view import token_view

MAX_CORPUS_CHARS = 2_000_000
MAX_MERGES = 10_000
MAX_VOCAB = 10_000
MAX_MIN_FREQUENCY = 1_000_000_000
MAX_WORD_CHARS = 1_000
MAX_PROBE_CHARS = 5_000
MAX_WORDS_SHOWN = 300
MAX_TOKENS_SHOWN = 4_000  # tokens drawn in the corpus view: long CJK words made it 10 MB of HTML
MAX_VIEW_WORD_CHARS = 120  # a longer word is drawn split on its first 120 characters (then "…")
TOP_N = 8
# Larger corpora train in a worker process, off the interpreter every session shares. Measured
# (bench/bench_jobs.py, 1,000 merges, English prose, 2 shared cores): 1K chars 0.08 s in-process
# vs 0.16 s through the pool, 4K 0.22 vs 0.18 s, 16K 0.21 vs 0.36 s, 256K 0.84 vs 1.10 s,
# 1M 1.8 vs 1.9 s. The pool adds ~0.1-0.25 s (hand-off, the model pickled back), which is more than
# the work itself up to a few thousand characters (every preset); above that, training would
# hold the interpreter lock for 0.2 s to several seconds, stalling every other session's rerun.
BPE_IN_PROCESS_MAX_CHARS = int(os.environ.get("TW_BPE_IN_PROCESS_MAX_CHARS", "8000"))
CUSTOM = "custom"
ss = st.session_state
T = TypeVar("T")

LIMITS = (
    f"Limits: a corpus of up to {MAX_CORPUS_CHARS:,} characters (a longer one is cut to its first "
    f"{MAX_CORPUS_CHARS:,}; {UNSPACED_MAX_CHARS:,} for text written without spaces, such as Chinese, "
    f"Japanese or Thai, which trains far more slowly), at most {MAX_MERGES:,} merges or a vocabulary of "
    f"{MAX_VOCAB:,}; words "
    f"longer than {MAX_WORD_CHARS:,} characters are cut into {MAX_WORD_CHARS:,}-character pieces."
)
HELP = {
    "symbols": "What BPE starts from. UTF-8 bytes (as GPT tokenizers do): 256 start symbols, any text "
    "can be encoded, and the result runs on every page as fast as the built-in tokenizers. Characters: "
    "the letters of your corpus, as textbook examples do.",
    "marker": "A symbol added to the end of every word, so BPE can learn word endings (`low</w>` is a "
    "different token from `low` inside `lower`). The load / data / stream example uses </w>, "
    "low lower lowest newest uses _.",
    "pretok": "How the corpus is cut into words before counting pairs. Merges never cross a word "
    "boundary. Whitespace: words are what lies between spaces and line breaks, as in textbook examples. "
    "A GPT regex keeps the leading space with each word (' the') and splits off punctuation and numbers.",
    "tie": "When several pairs are equally frequent. Smallest/largest compare the pairs as text (left "
    "symbol first). First seen: the pair met first when scanning the distinct words in the order "
    "they first occur in the corpus, each word left to right.",
    "stop": "Stop after a number of merges, or once the vocabulary (start symbols + new tokens) "
    "reaches a size. Training also stops when no pair is left.",
    "minfreq": "Stop when the most frequent pair occurs fewer times than this.",
    "format": "Running text is cut into words by the pre-tokenization. Word counts: one "
    "'word count' per line (e.g. 'low 5'), like the low lower newest widest example.",
}


# --------------------------------------------------------------------------- state


def preset_corpora() -> dict[str, str]:
    return {name: p.corpus() for name, p in BPE_PRESETS.items()}


def apply_preset(name: str) -> None:
    """Put a preset's options (and probe text) into the option widgets' state."""
    p = BPE_PRESETS[name]
    o = p.options
    ss["bpe_format"] = "text"
    ss["bpe_symbols"] = o.symbols
    ss["bpe_marker"] = o.end_marker if o.end_marker in MARKER_PRESETS else CUSTOM
    if o.end_marker not in MARKER_PRESETS:
        ss["bpe_marker_custom"] = o.end_marker
    ss["bpe_pretok"] = o.pretokenizer
    ss["bpe_tie"] = o.tie_break
    ss["bpe_stop"] = "merges" if o.merges is not None else "vocab"
    ss["bpe_merges"] = o.merges if o.merges is not None else 100
    ss["bpe_vocab"] = o.vocab_size if o.vocab_size is not None else 1_000
    ss["bpe_minfreq"] = o.min_frequency
    if p.probe:
        ss["bpe_probe"] = p.probe


def follow_preset(text: str) -> str | None:
    """When the text just became a preset's corpus, take that preset's options and train it."""
    match = next((name for name, corpus in preset_corpora().items() if corpus == text), None)
    if match is not None and match != ss.get("bpe_last_preset"):
        apply_preset(match)
        ss["bpe_autotrain"] = True  # as on the first visit: its merges, not the previous model's
    ss["bpe_last_preset"] = match
    return match


def fingerprint(text: str, fmt: str, options: BPEOptions) -> str:
    return hashlib.sha1(f"{fmt}|{options!r}|".encode() + text.encode("utf-8", "surrogatepass")).hexdigest()


def set_model(model: BPEModel, fp: str | None) -> None:
    ss["bpe_model"] = model
    ss["bpe_model_id"] = model_id(model)
    ss["bpe_encoder"] = MergeEncoder(model)
    ss["bpe_fp"] = fp
    ss["bpe_step"] = min(1, model.n_merges)
    ss["bpe_view_cache"] = {}
    ss.pop("bpe_reg_msg", None)


def options_form(word_counts_mode: bool) -> BPEOptions | None:
    """The training options, each explained; None (with a message) when they are unusable."""
    with st.container(border=True):
        c1, c2, c3 = st.columns([1, 1.4, 1])  # the middle one holds the longest choice (pre-tokenization)
        with c1:
            symbols = st.radio(
                "Start symbols", list(SYMBOL_KINDS), format_func=SYMBOL_KINDS.get, key="bpe_symbols",
                horizontal=True, help=HELP["symbols"],
            )  # fmt: skip
            choices = [*MARKER_PRESETS, CUSTOM]
            marker_choice = st.selectbox(
                "End-of-word marker", choices, key="bpe_marker", help=HELP["marker"],
                format_func=lambda m: "custom..." if m == CUSTOM else MARKER_PRESETS[m],
            )  # fmt: skip
            marker = marker_choice
            if marker_choice == CUSTOM:
                marker = st.text_input(
                    "Custom marker", key="bpe_marker_custom", max_chars=12, placeholder="e.g. ▁ or </s>"
                ).strip()  # fmt: skip
                if not marker:
                    st.caption("Type a marker, or choose 'none'.")
        with c2:
            labels = pretokenizer_labels()
            pretok = st.selectbox(
                "Pre-tokenization", list(labels), format_func=labels.get, key="bpe_pretok",
                help=HELP["pretok"], disabled=word_counts_mode,
            )  # fmt: skip
            tie = st.radio("Ties between equally frequent pairs", list(TIE_BREAKS), format_func=TIE_BREAKS.get,
                           key="bpe_tie", help=HELP["tie"])  # fmt: skip
        with c3:
            stop = st.radio(
                "Stop after", ["merges", "vocab"], key="bpe_stop", horizontal=True, help=HELP["stop"],
                format_func={"merges": "a number of merges", "vocab": "a vocabulary size"}.get,
            )  # fmt: skip
            # min/max make Streamlit refuse a value outside the range (the box then says so and
            # keeps the last valid value); the label says the range, and the Train button's
            # caption shows the values training will use.
            if stop == "merges":
                merges = int(st.number_input(f"Number of merges (0 to {MAX_MERGES:,})", 0, MAX_MERGES, step=10,
                                             key="bpe_merges"))  # fmt: skip
                vocab = None
            else:
                vocab = int(st.number_input(f"Target vocabulary size (1 to {MAX_VOCAB:,})", 1, MAX_VOCAB, step=50,
                                            key="bpe_vocab"))  # fmt: skip
                merges = None
            minfreq = int(st.number_input("Minimum pair frequency (1 or more)", 1, MAX_MIN_FREQUENCY,
                                          step=1, key="bpe_minfreq", help=HELP["minfreq"]))  # fmt: skip
        with st.expander("What the options do", icon=":material/help:"):
            names = {"symbols": "Start symbols", "marker": "End-of-word marker", "pretok": "Pre-tokenization",
                     "tie": "Ties", "stop": "Stop after", "minfreq": "Minimum pair frequency",
                     "format": "The corpus is"}  # fmt: skip
            st.markdown("\n".join(f"- **{names[k]}**: {v}" for k, v in HELP.items()))
    try:
        return BPEOptions(
            symbols=symbols, end_marker=marker if marker != CUSTOM else "", pretokenizer=pretok,
            merges=merges, vocab_size=vocab, min_frequency=minfreq, tie_break=tie,
            max_word_chars=MAX_WORD_CHARS,
        ).validate()  # fmt: skip
    except BPEError as exc:
        st.error(escape_markdown(sentence(str(exc))), icon=":material/tune:")
        return None


def corpus_to_train(text: str) -> tuple[str, bool]:
    """The text within the size limit (cut at a space), and whether it was cut.

    Text mostly in scripts written without spaces (Chinese, Japanese, Thai...) has a lower
    limit: each run of it is one long, distinct word, which trains far more slowly.
    """
    limit = corpus_limit(text, max_chars=MAX_CORPUS_CHARS)
    if len(text) <= limit:
        return text, False
    cut = text.rfind(" ", limit - 1_000, limit)
    return text[: cut if cut > 0 else limit], True


def start_training(text: str, fmt: str, options: BPEOptions, fp: str) -> None:
    """Train in this process (small corpora) or in the worker pool; `training_outcome` collects it."""
    ss.pop("bpe_train_error", None)
    start_job(
        "bpe_job", train_bpe_task, text, fmt, options, top_n=TOP_N, max_steps=2 * MAX_MERGES,
        in_process=len(text) <= BPE_IN_PROCESS_MAX_CHARS, meta=fp, label="Counting words...",
    )  # fmt: skip


def training_outcome() -> None:
    """Progress bar and Cancel while training runs in the pool; the model (or the error) to the state."""
    outcome = follow_job("bpe_job", cancel_label="Cancel")
    if outcome is None:
        return
    if outcome.cancelled:
        st.info("Training cancelled. The model shown before (if any) is unchanged.", icon=":material/cancel:")
    elif outcome.error is not None:
        ss["bpe_train_error"] = outcome.error
    else:
        set_model(outcome.value, outcome.meta)


def sentence(message: str) -> str:
    """``"the marker ..." -> "The marker ...."``: a core error message as a sentence."""
    message = message.strip()
    if not message:
        return message
    return message[0].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def shift_step(delta: int, n: int) -> None:
    ss["bpe_step"] = max(0, min(n, int(ss.get("bpe_step", 0)) + delta))


def _highlight_chosen(row: pd.Series) -> list[str]:
    style = "background-color:#fff3b0;font-weight:600" if row.get("chosen") else ""
    return [style] * len(row)


def merge_detail(model: BPEModel, k: int) -> None:
    if not model.steps:
        return
    step = model.steps[max(k, 1) - 1]
    new = markdown_code(bpe_symbol_label(step.new))
    if k == 0:
        st.markdown(f"**Before any merge.** The pairs competing for merge 1 (it makes {new}):")
    else:
        st.markdown(
            f"**Merge {k}:** {markdown_code(bpe_symbol_label(step.left))} + "
            f"{markdown_code(bpe_symbol_label(step.right))} → {new} "
            f"({plural(step.count, 'occurrence')})"
        )
    if not step.candidates:
        st.caption("This model was loaded from a file: the pairs that competed were not saved.")
        return
    st.markdown(escape_markdown(explain_bpe_choice(model, step)))
    df = pd.DataFrame(bpe_candidate_rows(model, step))
    st.dataframe(
        df.style.apply(_highlight_chosen, axis=1), hide_index=True, width="content",
        column_config={
            "place": st.column_config.NumberColumn("#", width=40),
            "pair": st.column_config.TextColumn("Pair (left + right)", width=150),
            "count": st.column_config.NumberColumn("Count", format="localized", width=76),
            "chosen": st.column_config.CheckboxColumn("Merged", width=70),
            "tied": st.column_config.CheckboxColumn("Tied", width=56, help="As frequent as the merged pair"),
            "first seen": st.column_config.TextColumn("First seen", width=210),
        },
    )  # fmt: skip


def merge_table(model: BPEModel, k: int) -> None:
    if not model.steps:
        return
    rows = bpe_merge_rows(model, k)
    st.markdown(f"**Merges so far** ({len(rows):,} of {model.n_merges:,})")
    if not rows:
        st.caption("No merge applied yet: step forward.")
        return
    st.dataframe(
        pd.DataFrame(rows), hide_index=True, width="content", height=min(35 * (len(rows) + 1) + 3, 360),
        column_config={
            "rank": st.column_config.NumberColumn("Rank", width=56),
            "left": st.column_config.TextColumn("Left", width=72),
            "right": st.column_config.TextColumn("Right", width=72),
            "new": st.column_config.TextColumn("New symbol", width=96),
            "count": st.column_config.NumberColumn("Count", format="localized", width=80),
            "id": st.column_config.NumberColumn("Token id", width=72),
        },
    )  # fmt: skip


def encoder_for(model: BPEModel) -> MergeEncoder:
    enc = ss.get("bpe_encoder")
    if enc is None or enc.model is not model:
        enc = MergeEncoder(model)
        ss["bpe_encoder"] = enc
    return enc


def session_cached(key: tuple, compute: Callable[[], T]) -> T:
    """Results for the current model, kept in this session only (they show the user's corpus)."""
    cache: dict = ss.setdefault("bpe_view_cache", {})
    if key not in cache:
        if len(cache) >= 48:
            cache.pop(next(iter(cache)))
        cache[key] = compute()
    return cache[key]


def probe_section(model: BPEModel, k: int) -> None:
    st.subheader(
        f"Probe: your text with the first {plural(k, 'merge')}" if k else "Probe: your text before any merge"
    )
    ss.setdefault("bpe_probe", "lowest newer")
    text = st.text_input("Probe text", key="bpe_probe", help="Any text: it is encoded with the merges "
                         "learned so far, in the order they were learned.")  # fmt: skip
    if len(text) > MAX_PROBE_CHARS:
        st.warning(f"The probe is {len(text):,} characters; only the first {MAX_PROBE_CHARS:,} are shown.")
        text = text[:MAX_PROBE_CHARS]
    if not text:
        st.caption("Type something to see how the merges split it.")
        return
    result = session_cached(
        ("probe", k, text), lambda: probe_bpe(model, text, step=k, encoder=encoder_for(model))
    )
    st.caption(escape_markdown(bpe_tokens_summary(result)))
    token_view(
        result.text, [TokenPane("", list(result.segments))], key="bpe_probe_view", show_whitespace=True
    )
    st.html(legend_html([("hover", "token ids, bytes and offsets"), ("⋅ → ↵", "space, tab, newline")]))
    rows = bpe_fired_rows(result)
    if rows:
        st.markdown("**Which merges fired, in order**")
        st.dataframe(
            pd.DataFrame(rows), hide_index=True, width="stretch",
            column_config={"merge": st.column_config.NumberColumn("Merge #", width="small"),
                           "pair": "Pair", "new": "New symbol", "times": "Times",
                           "at characters": "At characters (0-based)"},
        )  # fmt: skip
    else:
        st.caption("No merge applies to this text yet.")


def _register(k: int | None) -> None:
    model: BPEModel | None = ss.get("bpe_model")
    if model is None:
        return
    if k is not None:
        model = with_steps(model, k)
    name = (ss.get("bpe_reg_name") or "").strip() or f"my BPE ({plural(model.n_merges, 'merge')})"
    try:
        tok = trained_tokenizer(model, name=name)
    except BPEError as exc:
        ss["bpe_reg_msg"] = ("error", f"Could not make a tokenizer: {escape_markdown(str(exc))}")
        return
    tok = register_session_tokenizer(tok)
    note = ""
    if not tiktoken_problem(model) and model.words:
        ag = export_agreement(model, tok.encoding)
        if ag.all_same:
            note = f" Checked: it splits all {ag.total:,} training words exactly as the merges above do."
        else:
            shown = ", ".join(escape_markdown(repr(w)) for w in ag.examples)
            note = (f" Note: it splits {ag.total - ag.same:,} of {ag.total:,} training words differently from the "
                    f"merges above (e.g. {shown}): the fast engine merges the pieces learned earliest first, "
                    "which can differ from replaying the merges one by one.")  # fmt: skip
    engine = (
        "the fast engine of the built-in tokenizers"
        if not tiktoken_problem(model)
        else "its merges one by one"
    )
    ss["bpe_reg_msg"] = (
        "success",
        f"Added **{escape_markdown(tok.info.name)}** ({tok.n_vocab:,} tokens, encoded by {engine}) to the "
        f"tokenizer list of every page, for this browser session.{note}",
    )


def _load_upload() -> None:
    ss.pop("bpe_upload_msg", None)
    file = ss.get("bpe_upload")
    if file is None:
        return
    try:
        model = load_bpe_model(file.getvalue())
    except BPEError as exc:
        ss["bpe_upload_msg"] = ("error", f"{escape_markdown(file.name)}: {escape_markdown(str(exc))}. "
                                "The model shown before is unchanged.")  # fmt: skip
        return
    set_model(model, None)
    ss["bpe_upload_msg"] = (
        "success",
        f"Loaded {plural(model.n_merges, 'merge')} from {escape_markdown(file.name)}.",
    )


def _show_msg(key: str) -> None:
    if msg := ss.get(key):
        kind, text = msg
        (st.success if kind == "success" else st.error)(
            text, icon=":material/check:" if kind == "success" else ":material/error:"
        )


def use_section(model: BPEModel | None, k: int) -> None:
    st.subheader("Use, save or load")
    c1, c2 = st.columns(2)
    with c1:
        st.markdown("**Use this tokenizer on every page**")
        if model is None or not model.steps:
            st.caption("Train (or load) a model with at least one merge first.")
        else:
            if tiktoken_problem(model):
                st.caption(
                    "Trained on characters or with an end-of-word marker, this tokenizer applies its merges "
                    "one by one: it counts and splits text exactly, just more slowly on long texts; characters "
                    "it never saw count as their UTF-8 bytes. Train on UTF-8 bytes without a marker to run "
                    "as fast as the built-in tokenizers."
                )
            else:
                st.caption(
                    "Trained on UTF-8 bytes without a marker: it runs as fast as the built-in tokenizers."
                )
            st.text_input(
                "Name",
                key="bpe_reg_name",
                placeholder=f"my BPE ({plural(model.n_merges, 'merge')})",
                max_chars=60,
            )
            partial = st.toggle(f"Only the first {plural(k, 'merge')} (the step shown)", key="bpe_reg_partial",
                                disabled=k == model.n_merges or k == 0)  # fmt: skip
            st.button(
                "Use this tokenizer on every page", key="bpe_register", type="primary", icon=":material/add_circle:",
                on_click=_register, args=(k if partial and 0 < k < model.n_merges else None,),
            )  # fmt: skip
            _show_msg("bpe_reg_msg")
            mine = [t for t in session_tokenizers().values() if t.info.kind == "trained"]
            if mine:
                st.caption("Yours in this session: " + ", ".join(escape_markdown(t.info.name) for t in mine))
    with c2:
        st.markdown("**Save or load the merges**")
        if model is not None:
            st.download_button(
                "Download the merges (JSON)", save_bpe_model(model), file_name=f"bpe-{model.n_merges}-merges.json",
                mime="application/json", key="bpe_download", icon=":material/download:", on_click="ignore",
            )  # fmt: skip
            st.caption("Versioned, readable JSON: the options, then one merge per line (left, right, count, "
                       "corpus tokens after it).")  # fmt: skip
        st.file_uploader(
            "Load a saved model (.json)", type=["json"], key="bpe_upload", on_change=_load_upload
        )
        _show_msg("bpe_upload_msg")
