"""BPE playground: train byte-pair encoding on your own corpus and step through every merge."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BPEModel
from tokenizer_core.bpe import BPE_PRESETS
from tokenizer_core.tokenizers import escape_markdown
from ui.bpe.corpus import (
    apply_preset,
    corpus_to_train,
    corpus_warnings,
    follow_preset,
    preset_corpora,
    preset_note,
)
from ui.bpe.model import fingerprint
from ui.bpe.options import HELP, LIMITS, options_form
from ui.bpe.probe import probe_section
from ui.bpe.steps import charts, merge_detail, merge_table, results_header, step_controls
from ui.bpe.training import start_training, train_button, training_outcome
from ui.bpe.use import use_section
from ui.bpe.words import words_section
from ui.messages import show_message
from ui.saved_work import keep_work
from ui.widgets import text_source

st.title("BPE playground")
st.caption(
    "Train byte-pair encoding on your own corpus and watch every merge: which pair won and why, "
    "how the corpus shrinks, how a text of yours is split. Then use what it learned on every page."
)

if "bpe_initialized" not in st.session_state:
    st.session_state["bpe_initialized"] = True
    apply_preset(next(iter(BPE_PRESETS)))
    st.session_state["bpe_autotrain"] = True

text = text_source("bpe_corpus", samples={n: (lambda c=c: c) for n, c in preset_corpora().items()},
                   label="Corpus", height=160, default_sample=next(iter(BPE_PRESETS)),
                   placeholder="Paste a corpus: prose, code, or one 'word count' per line")  # fmt: skip
preset = follow_preset(text)
fc1, fc2 = st.columns([2, 3], vertical_alignment="center")
fmt = fc1.radio("The corpus is", ["text", "counts"], key="bpe_format", persist_state="session", horizontal=True, help=HELP["format"],
                format_func={"text": "running text", "counts": "word counts"}.get)  # fmt: skip
fc2.caption(LIMITS)
preset_note(preset)

options = options_form(fmt == "counts")
corpus, _was_cut = corpus_to_train(text)
corpus_warnings(text, corpus, options)

fp = fingerprint(corpus, fmt, options) if options is not None else ""
can_train = options is not None and bool(corpus.strip())
train_clicked = train_button(options, disabled=not can_train)
if not corpus.strip():
    st.info("Paste a corpus, upload a text file or load a preset, then press Train.", icon=":material/edit:")
autotrain = st.session_state.pop("bpe_autotrain", False)  # the first visit trains the default preset once
if can_train and (train_clicked or autotrain):
    start_training(corpus, fmt, options, fp)
training_outcome()
show_message("bpe_train")

model: BPEModel | None = st.session_state.get("bpe_model")
k = 0
if model is not None:
    if model.source == "file":
        st.info(f"Showing a model loaded from a file ({escape_markdown(model.options.describe())}).",
                icon=":material/upload_file:")  # fmt: skip
    elif st.session_state.get("bpe_fp") != fp and can_train:
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
keep_work("bpe")  # in the browser, for a reload (ui/saved_work.py)
