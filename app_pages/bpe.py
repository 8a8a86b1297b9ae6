"""BPE playground: train byte-pair encoding on your own corpus and step through every merge."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BPEModel
from tokenizer_core.bpe import BPE_PRESETS, bpe_words_at_step, bpe_words_html, corpus_limit, plural
from tokenizer_core.bpe.charts import merge_count_chart, training_chart
from tokenizer_core.tokenizers import escape_markdown
from ui.bpe.sections import (
    HELP,
    LIMITS,
    MAX_CORPUS_CHARS,
    MAX_TOKENS_SHOWN,
    MAX_VIEW_WORD_CHARS,
    MAX_WORD_CHARS,
    MAX_WORDS_SHOWN,
    apply_preset,
    corpus_to_train,
    encoder_for,
    fingerprint,
    follow_preset,
    merge_detail,
    merge_table,
    options_form,
    preset_corpora,
    probe_section,
    sentence,
    session_cached,
    shift_step,
    start_training,
    training_outcome,
    use_section,
)
from ui.widgets import text_source

ss = st.session_state

# ----------------------------------------------------------------------- sections


def results_header(model: BPEModel) -> None:
    n = model.n_merges
    start, end = model.initial_tokens, model.corpus_tokens_at(n)
    cols = st.columns(5)
    cols[0].metric("Merges learned", f"{n:,}")
    cols[1].metric("Vocabulary", f"{model.vocab_size_at(n):,}", help=f"{len(model.base):,} start symbols")
    if model.source == "file":
        cols[2].metric("Corpus tokens", f"{end:,}" if end else "–", help="As saved in the file")
        cols[3].metric("Distinct words", "–", help="A model loaded from a file has no corpus")
        cols[4].metric("Source", "file")
    else:
        pct = f"-{100 * (start - end) / start:.1f}%" if start else None
        cols[2].metric(
            "Corpus tokens", f"{end:,}", pct, delta_color="inverse", help=f"{start:,} before any merge"
        )
        cols[3].metric(
            "Distinct words", f"{len(model.words):,}", help=f"{plural(model.total_words, 'word')} in all"
        )
        cols[4].metric("Training time", f"{model.seconds:.2f} s")
    notes = [f"Stopped: {model.stop_reason}." if model.stop_reason else ""]
    if model.words_cut:
        notes.append(
            f"{model.words_cut:,} words longer than {MAX_WORD_CHARS:,} characters were cut into pieces."
        )
    notes.append(f"Options: {model.options.describe()}.")
    st.caption(escape_markdown(" ".join(n for n in notes if n)))


def charts(model: BPEModel, k: int) -> None:
    c1, c2, c3 = st.columns(3)
    c1.altair_chart(training_chart(model, measure="vocabulary size", step=k), width="stretch")
    c2.altair_chart(training_chart(model, measure="corpus tokens", step=k), width="stretch")
    c3.altair_chart(merge_count_chart(model, step=k), width="stretch")


def step_controls(n: int) -> int:
    if int(ss.get("bpe_step", 0)) > n:
        ss["bpe_step"] = n
    k = int(ss.get("bpe_step", min(1, n)))
    c1, c2, c3 = st.columns([2, 9, 2], vertical_alignment="bottom")
    c1.button("Previous", key="bpe_prev", on_click=shift_step, args=(-1, n), disabled=k <= 0,
              width="stretch", help="One merge back")  # fmt: skip
    if n > 0:
        k = int(c2.slider("Merges applied (step k)", 0, n, key="bpe_step",
                          help="Everything below shows the corpus and the probe after the first k merges."))  # fmt: skip
    else:
        c2.caption("No merges were learned, so there is nothing to step through.")
    c3.button("Next", key="bpe_next", on_click=shift_step, args=(1, n), disabled=k >= n,
              width="stretch", help="One merge forward")  # fmt: skip
    return k


def words_section(model: BPEModel, k: int) -> None:
    st.subheader(f"The corpus after {plural(k, 'merge')}")
    if not model.words:
        st.info("A model loaded from a file has no corpus. Probe it below, or train one to see its words.",
                icon=":material/info:")  # fmt: skip
        return
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    order = c2.segmented_control(
        "Order", ["corpus", "frequent"], key="bpe_words_order", default="corpus",
        format_func={"corpus": "Corpus order", "frequent": "Most frequent"}.get,
    ) or "corpus"  # fmt: skip
    views = session_cached(
        ("words", k, order),
        lambda: bpe_words_at_step(
            model,
            k,
            max_words=MAX_WORDS_SHOWN,
            max_tokens=MAX_TOKENS_SHOWN,
            max_word_chars=MAX_VIEW_WORD_CHARS,
            order=order,
            encoder=encoder_for(model),
        ),
    )
    shown = (
        f"all {len(views):,}" if len(views) == len(model.words) else f"{len(views):,} of {len(model.words):,}"
    )
    c1.caption(
        f"Showing {shown} distinct words (at most {MAX_WORDS_SHOWN:,}, or {MAX_TOKENS_SHOWN:,} tokens), each "
        f"with its count; a word longer than {MAX_VIEW_WORD_CHARS} characters is drawn split on its first "
        f"{MAX_VIEW_WORD_CHARS} (…: its last tokens may differ in the whole word). The corpus is "
        f"{model.corpus_tokens_at(k):,} tokens now ({model.initial_tokens:,} at the start). "
        "Same token, same colour."
    )
    st.html(bpe_words_html(views))


# --------------------------------------------------------------------------- page

st.title("BPE playground")
st.caption(
    "Train byte-pair encoding on your own corpus and watch every merge: which pair won and why, "
    "how the corpus shrinks, how a text of yours is split. Then use what it learned on every page."
)

if "bpe_initialized" not in ss:
    ss["bpe_initialized"] = True
    apply_preset(next(iter(BPE_PRESETS)))
    ss["bpe_autotrain"] = True

text = text_source("bpe_corpus", samples={n: (lambda c=c: c) for n, c in preset_corpora().items()},
                   label="Corpus", height=160, default_sample=next(iter(BPE_PRESETS)),
                   placeholder="Paste a corpus: prose, code, or one 'word count' per line")  # fmt: skip
preset = follow_preset(text)
fc1, fc2 = st.columns([2, 3], vertical_alignment="center")
fmt = fc1.radio("The corpus is", ["text", "counts"], key="bpe_format", horizontal=True, help=HELP["format"],
                format_func={"text": "running text", "counts": "word counts"}.get)  # fmt: skip
fc2.caption(LIMITS)
if preset is not None:
    st.info(
        f"**{escape_markdown(preset)}.** {escape_markdown(BPE_PRESETS[preset].note)}",
        icon=":material/school:",
    )
    if BPE_PRESETS[preset].source:
        st.caption(f"Source: {escape_markdown(BPE_PRESETS[preset].source)}")

options = options_form(fmt == "counts")
corpus, was_cut = corpus_to_train(text)
if was_cut:
    st.warning(
        f"The corpus is {len(text):,} characters; training uses only the first {len(corpus):,} "
        f"(the limit is {corpus_limit(text, max_chars=MAX_CORPUS_CHARS):,}"
        + ("; text written without spaces between words trains far more slowly" if corpus_limit(text, max_chars=MAX_CORPUS_CHARS) < MAX_CORPUS_CHARS else "")
        + ").", icon=":material/content_cut:",
    )  # fmt: skip
if options is not None and options.end_marker and options.end_marker in corpus:
    st.warning(
        f"The marker {escape_markdown(options.end_marker)} also occurs in your corpus. BPE cannot tell "
        "the two apart: they are the same symbol.", icon=":material/warning:",
    )  # fmt: skip

fp = fingerprint(corpus, fmt, options) if options is not None else ""
can_train = options is not None and bool(corpus.strip())
tc1, tc2 = st.columns([1, 6], vertical_alignment="center")
train_clicked = tc1.button("Train", key="bpe_train", type="primary", icon=":material/model_training:",
                           disabled=not can_train)  # fmt: skip
if options is not None:
    target = (
        plural(options.merges, "merge")
        if options.merges is not None
        else f"a vocabulary of {options.vocab_size:,}"
    )
    seen = "once" if options.min_frequency == 1 else f"{options.min_frequency:,} times"
    tc2.caption(f"Trains for {target}, pairs seen at least {seen}.")
if not corpus.strip():
    st.info("Paste a corpus, upload a text file or load a preset, then press Train.", icon=":material/edit:")
autotrain = ss.pop("bpe_autotrain", False)  # the first visit trains the default preset once
if can_train and (train_clicked or autotrain):
    start_training(corpus, fmt, options, fp)
training_outcome()
if err := ss.get("bpe_train_error"):
    st.error(
        f"Training failed: {escape_markdown(sentence(err))} Your corpus is unchanged.",
        icon=":material/error:",
    )

model: BPEModel | None = ss.get("bpe_model")
k = 0
if model is not None:
    if model.source == "file":
        st.info(f"Showing a model loaded from a file ({escape_markdown(model.options.describe())}).",
                icon=":material/upload_file:")  # fmt: skip
    elif ss.get("bpe_fp") != fp and can_train:
        st.info("The corpus or the options changed since this model was trained: press **Train** to retrain.",
                icon=":material/update:")  # fmt: skip
    st.divider()
    results_header(model)
    st.subheader("Step through the merges")
    k = step_controls(model.n_merges)
    charts(model, k)
    merge_detail(model, k)
    merge_table(model, k)
    words_section(model, k)
    probe_section(model, k)
st.divider()
use_section(model, k)
