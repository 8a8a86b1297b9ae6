"""The BPE playground's training options: the limits, what each option does, and the options form."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BPEError, BPEOptions
from tokenizer_core.bpe import (
    MARKER_PRESETS,
    SYMBOL_KINDS,
    TIE_BREAKS,
    UNSPACED_MAX_CHARS,
    pretokenizer_labels,
)
from tokenizer_core.tokenizers import escape_markdown

MAX_CORPUS_CHARS = 2_000_000
MAX_MERGES = 10_000
MAX_VOCAB = 10_000
MAX_MIN_FREQUENCY = 1_000_000_000
MAX_WORD_CHARS = 1_000
CUSTOM = "custom"

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


def sentence(message: str) -> str:
    """``"the marker ..." -> "The marker ...."``: a core error message as a sentence."""
    message = message.strip()
    if not message:
        return message
    return message[0].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def options_form(word_counts_mode: bool) -> BPEOptions | None:
    """The training options, each explained; None (with a message) when they are unusable."""
    with st.container(border=True):
        c1, c2, c3 = st.columns([1, 1.4, 1])  # the middle one holds the longest choice (pre-tokenization)
        with c1:
            symbols = st.radio(
                "Start symbols", list(SYMBOL_KINDS), format_func=SYMBOL_KINDS.get, key="bpe_symbols", persist_state="session",
                horizontal=True, help=HELP["symbols"],
            )  # fmt: skip
            choices = [*MARKER_PRESETS, CUSTOM]
            marker_choice = st.selectbox(
                "End-of-word marker", choices, key="bpe_marker", persist_state="session", help=HELP["marker"],
                format_func=lambda m: "custom..." if m == CUSTOM else MARKER_PRESETS[m],
            )  # fmt: skip
            marker = marker_choice
            if marker_choice == CUSTOM:
                marker = st.text_input(
                    "Custom marker", key="bpe_marker_custom", persist_state="session", max_chars=12, placeholder="e.g. ▁ or </s>"
                ).strip()  # fmt: skip
                if not marker:
                    st.caption("Type a marker, or choose 'none'.")
        with c2:
            labels = pretokenizer_labels()
            pretok = st.selectbox(
                "Pre-tokenization", list(labels), format_func=labels.get, key="bpe_pretok", persist_state="session",
                help=HELP["pretok"], disabled=word_counts_mode,
            )  # fmt: skip
            tie = st.radio("Ties between equally frequent pairs", list(TIE_BREAKS), format_func=TIE_BREAKS.get,
                           key="bpe_tie", persist_state="session", help=HELP["tie"])  # fmt: skip
        with c3:
            stop = st.radio(
                "Stop after", ["merges", "vocab"], key="bpe_stop", persist_state="session", horizontal=True, help=HELP["stop"],
                format_func={"merges": "a number of merges", "vocab": "a vocabulary size"}.get,
            )  # fmt: skip
            # min/max make Streamlit refuse a value outside the range (the box then says so and
            # keeps the last valid value); the label says the range, and the Train button's
            # caption shows the values training will use.
            if stop == "merges":
                merges = int(st.number_input(f"Number of merges (0 to {MAX_MERGES:,})", 0, MAX_MERGES, step=10,
                                             key="bpe_merges", persist_state="session"))  # fmt: skip
                vocab = None
            else:
                vocab = int(st.number_input(f"Target vocabulary size (1 to {MAX_VOCAB:,})", 1, MAX_VOCAB, step=50,
                                            key="bpe_vocab", persist_state="session"))  # fmt: skip
                merges = None
            minfreq = int(st.number_input("Minimum pair frequency (1 or more)", 1, MAX_MIN_FREQUENCY,
                                          step=1, key="bpe_minfreq", persist_state="session", help=HELP["minfreq"]))  # fmt: skip
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
