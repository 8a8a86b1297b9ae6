"""Training in the BPE playground: the Train button, training in this process or the worker pool,
and its outcome (the model, or a message that stays until the next training)."""

from __future__ import annotations

import os

import streamlit as st

from tokenizer_core import BPEOptions
from tokenizer_core.bpe import plural
from tokenizer_core.tasks import train_bpe_task
from tokenizer_core.tokenizers import escape_markdown

from ..jobs import follow_job, start_job
from ..messages import clear_message, leave_message
from .model import set_model
from .options import MAX_MERGES, sentence

TOP_N = 8
# Larger corpora train in a worker process, off the interpreter every session shares. Measured
# (bench/bench_jobs.py, 1,000 merges, English prose, 2 shared cores): 1K chars 0.08 s in-process
# vs 0.16 s through the pool, 4K 0.22 vs 0.18 s, 16K 0.21 vs 0.36 s, 256K 0.84 vs 1.10 s,
# 1M 1.8 vs 1.9 s. The pool adds ~0.1-0.25 s (hand-off, the model pickled back), which is more than
# the work itself up to a few thousand characters (every preset); above that, training would
# hold the interpreter lock for 0.2 s to several seconds, stalling every other session's rerun.
BPE_IN_PROCESS_MAX_CHARS = int(os.environ.get("TW_BPE_IN_PROCESS_MAX_CHARS", "8000"))


def train_button(options: BPEOptions | None, *, disabled: bool) -> bool:
    """The Train button, with what training will do beside it; True when it was clicked."""
    tc1, tc2 = st.columns([1, 6], vertical_alignment="center")
    clicked = tc1.button("Train", key="bpe_train", type="primary", icon=":material/model_training:",
                         disabled=disabled)  # fmt: skip
    if options is not None:
        target = (
            plural(options.merges, "merge")
            if options.merges is not None
            else f"a vocabulary of {options.vocab_size:,}"
        )
        seen = "once" if options.min_frequency == 1 else f"{options.min_frequency:,} times"
        tc2.caption(f"Trains for {target}, pairs seen at least {seen}.")
    return clicked


def start_training(text: str, fmt: str, options: BPEOptions, fp: str) -> None:
    """Train in this process (small corpora) or in the worker pool; `training_outcome` collects it."""
    clear_message("bpe_train")
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
    elif outcome.error:
        leave_message(
            "bpe_train",
            f"Training failed: {escape_markdown(sentence(outcome.error))} Your corpus is unchanged.",
            kind="error",
            icon=":material/error:",
        )
    elif outcome.error is None:
        set_model(outcome.value, outcome.meta)
