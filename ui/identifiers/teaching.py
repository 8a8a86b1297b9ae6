"""The Teaching mode tab: the article's greedy longest-match tokenizer, with a vocabulary to edit."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.bpe import plural
from tokenizer_core.identifiers import (
    SEED_VOCAB,
    GreedyTokenizer,
    GreedyVocabError,
    greedy_split,
    parse_vocab,
    pieces_html,
)
from tokenizer_core.tokenizers import escape_markdown

from ..counting import counts

SEED_EXAMPLES = {  # the seed's four printed splits (tokenization seed, greedy example)
    "def calculate_total(items):": ["def", "calc", "ulate", "_", "total", "(", "items", ")", ":"],
    "getUserById(id)": ["get", "User", "By", "Id", "(", "id", ")"],
    "response.json()": ["response", ".", "json", "(", ")"],
    "qx9_zz": ["q", "x", "9", "_", "z", "z"],
}


def greedy_vocab() -> tuple[tuple[str, ...], str | None]:
    """The teaching vocabulary from its text area (the seed's if it does not parse)."""
    text = st.session_state.get("identifiers_greedy_vocab")
    if text is None:
        return SEED_VOCAB, None
    try:
        return parse_vocab(text), None
    except GreedyVocabError as exc:
        return SEED_VOCAB, str(exc)


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
        st.text_area(
            "Vocabulary (one piece per line)",
            key="identifiers_greedy_vocab",
            persist_state="session",
            height=300,
        )
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
            "Text",
            value="def calculate_total(items):",
            key="identifiers_greedy_text",
            persist_state="session",
            max_chars=2_000,
        )
        greedy = GreedyTokenizer(vocab)
        result = greedy_split(text, vocab)
        st.html(f'<div class="tw-greedy" style="font-family:monospace;font-size:1.05rem;line-height:2;line-break:anywhere">'
                f"{pieces_html(greedy.segments(text), show_whitespace=True)}</div>")  # fmt: skip
        st.markdown(f"**{plural(len(text), 'character')} → {plural(result.count, 'token')}** "
                    f"({plural(result.unknown, 'unknown character')})"
                    if text else "Type some text to split.")  # fmt: skip
        if text and toks and (rows := counts(text, toks, special=False, where="identifiers_greedy")):
            st.caption("The same text in the real tokenizers: " + ", ".join(
                f"{escape_markdown(r.tokenizer)} {r.tokens}" for r in rows))  # fmt: skip
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
