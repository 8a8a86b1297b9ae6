"""The BPE playground's corpus: the presets (a corpus with its options), the note on a preset, and
the corpus cut to the size limit with its warnings."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BPEOptions
from tokenizer_core.bpe import BPE_PRESETS, MARKER_PRESETS, corpus_limit
from tokenizer_core.tokenizers import escape_markdown

from .options import CUSTOM, MAX_CORPUS_CHARS


def preset_corpora() -> dict[str, str]:
    return {name: p.corpus() for name, p in BPE_PRESETS.items()}


def apply_preset(name: str) -> None:
    """Put a preset's options (and probe text) into the option widgets' state."""
    p = BPE_PRESETS[name]
    o = p.options
    st.session_state["bpe_format"] = "text"
    st.session_state["bpe_symbols"] = o.symbols
    st.session_state["bpe_marker"] = o.end_marker if o.end_marker in MARKER_PRESETS else CUSTOM
    if o.end_marker not in MARKER_PRESETS:
        st.session_state["bpe_marker_custom"] = o.end_marker
    st.session_state["bpe_pretok"] = o.pretokenizer
    st.session_state["bpe_tie"] = o.tie_break
    st.session_state["bpe_stop"] = "merges" if o.merges is not None else "vocab"
    st.session_state["bpe_merges"] = o.merges if o.merges is not None else 100
    st.session_state["bpe_vocab"] = o.vocab_size if o.vocab_size is not None else 1_000
    st.session_state["bpe_minfreq"] = o.min_frequency
    if p.probe:
        st.session_state["bpe_probe"] = p.probe


def follow_preset(text: str) -> str | None:
    """When the text just became a preset's corpus, take that preset's options and train it."""
    match = next((name for name, corpus in preset_corpora().items() if corpus == text), None)
    if match is not None and match != st.session_state.get("bpe_last_preset"):
        apply_preset(match)
        st.session_state["bpe_autotrain"] = (
            True  # as on the first visit: its merges, not the previous model's
        )
    st.session_state["bpe_last_preset"] = match
    return match


def preset_note(preset: str | None) -> None:
    """What the preset shows, and where its corpus comes from."""
    if preset is None:
        return
    st.info(
        f"**{escape_markdown(preset)}.** {escape_markdown(BPE_PRESETS[preset].note)}",
        icon=":material/school:",
    )
    if BPE_PRESETS[preset].source:
        st.caption(f"Source: {escape_markdown(BPE_PRESETS[preset].source)}")


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


def corpus_warnings(text: str, corpus: str, options: BPEOptions | None) -> None:
    """Say when training uses only the start of `text`, or when the end-of-word marker is in it."""
    if len(corpus) < len(text):
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
