"""The "Inside a tokenizer" page's sections: the text and the tokenizer, the six steps (with the
merge stepper), and the surprises. Only app_pages/inside.py imports this package."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.inside import Replay, Walkthrough, inspect_text, machine_for
from tokenizer_core.inside.html import CSS, chips, pieces_html, text_html
from tokenizer_core.inside.surprises import Surprise, all_surprises
from tokenizer_core.tokenizers import Tokenizer, escape_markdown, markdown_code
from tokenizer_core.tokenizers.render import visible_whitespace

SAMPLE = "Hello world! It's 3.14159, not 1234567: one strawberry 🍓 in São Paulo, naïve café, Ελλάδα."
MAX_CHARS = 20_000  # taken apart; more is cut, and the page says so
DRAWN = 300  # pieces, tokens and table rows drawn at most
MAX_MERGE_PIECES = 400  # pieces offered in the merge chooser
PLAY_SECONDS = 0.9
STEP = "inside_step"
PLAYING = "inside_playing"


@st.cache_data(max_entries=32, ttl=3600, show_spinner=False)
def walkthrough(tokenizer_id: str, text: str, _tok: Tokenizer) -> Walkthrough:
    return inspect_text(_tok, text)


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def surprises(text: str, ids: tuple[str, ...], _toks: list[Tokenizer]) -> tuple[Surprise, ...]:
    return all_surprises(text, _toks)


def html(body: str) -> None:
    st.markdown(CSS + body, unsafe_allow_html=True)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# ----------------------------------------------------------------------------------- the steps


def normalisation(w: Walkthrough) -> None:
    st.subheader("1. Normalisation", anchor="normalisation")
    norm = w.normalisation
    if norm is None:
        st.write("This tokenizer has no normalisation step: it reads your text exactly as typed.")
        return
    st.write(f"This tokenizer first tidies the text: {norm.rule}.")
    c1, c2 = st.columns(2)
    with c1:
        st.caption("Before")
        html(text_html(norm.before, limit=2_000))
    with c2:
        st.caption("After" + ("" if norm.changed else " (the same: nothing in this text needed it)"))
        html(text_html(norm.after, limit=2_000))


def pretokenization(w: Walkthrough) -> None:
    st.subheader("2. Pre-tokenization: cut into pieces", anchor="pieces")
    if not w.patterns:
        st.write(
            "This tokenizer does not cut the text into pieces with a pattern first"
            + (
                ": it works on the whole text, where \u2581 marks each space, so a piece never needs to "
                "stop at a space."
                if w.kind == "sentencepiece"
                else "; the whole text goes to the next step as one piece."
            )
        )
        return
    st.write(
        "Before any token is chosen, the text is cut into pieces by a **pattern**: a regular "
        'expression, which is a short code that describes runs of characters ("letters", "up to 3 '
        'digits"). At each point of the text the first rule of the pattern that fits takes the next '
        "piece. Tokens never cross the border of a piece."
    )
    for pattern in w.patterns:
        st.code(pattern, language=None, wrap_lines=True)
    if w.alternatives:
        st.caption(
            "The pattern's rules, in order (the number under each piece below says which rule cut it):"
        )
        st.markdown("\n".join(f"{a.index}. {escape_markdown(a.words)}" for a in w.alternatives))
    elif len(w.patterns) > 1:
        st.caption(f"This tokenizer applies {len(w.patterns)} patterns, one after the other.")
    st.caption(
        f"{_plural(len(w.pieces), 'piece')}; they join back to the text exactly. Spaces are shown as ⋅."
    )
    html(pieces_html(w.pieces, limit=DRAWN))


def bytes_step(w: Walkthrough) -> None:
    st.subheader("3. Bytes", anchor="bytes")
    shown = w.pieces[:DRAWN]
    rows = {
        "Piece": [visible_whitespace(p.text) for p in shown],
        "UTF-8 bytes": [p.data.hex(" ") for p in shown],
        "Bytes": [len(p.data) for p in shown],
    }
    if machine_for_kind(w) == "bytes":
        st.write(
            "Each piece becomes its UTF-8 bytes: one byte for a plain English letter, two for é, three "
            "for most Chinese or Japanese characters, four for an emoji. This tokenizer's vocabulary "
            "writes every byte as one printable character (GPT-2's alphabet), so a space shows as **Ġ**, "
            "a line break as **Ċ**, and é as **Ã©**: that is why tokens in vocabulary files look odd."
        )
        rows["As the vocabulary writes it"] = [p.display for p in shown]
    else:
        st.write(
            "Each piece is, underneath, its UTF-8 bytes: one byte for a plain English letter, up to four "
            "for an emoji. This tokenizer works on characters and uses the bytes only for characters it "
            "has no token for (step 5)."
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if len(w.pieces) > DRAWN:
        st.caption(f"The first {DRAWN:,} of {len(w.pieces):,} pieces are listed.")


def machine_for_kind(w: Walkthrough) -> str:
    return (
        "bytes" if w.kind == "byte-bpe" or (w.kind == "hf-bpe" and w.pieces and _byte_level(w)) else "chars"
    )


def _byte_level(w: Walkthrough) -> bool:
    return "works on bytes" in w.fallback.sentence


def _default_piece(tok: Tokenizer, w: Walkthrough) -> int:
    """The first word that takes a few merges (a whole-token piece teaches nothing), else the
    first piece of any kind that does."""
    m = machine_for(tok)
    fallback = None
    for p in w.pieces[:MAX_MERGE_PIECES]:
        if p.marker or len(p.data) < 4 or len(m.replay(p.text).steps) < 3:
            continue
        if p.text.strip().isalpha():
            return p.index
        fallback = p.index if fallback is None else fallback
    return fallback or 0


def _shift(delta: int, n: int) -> None:
    st.session_state[STEP] = max(0, min(n, int(st.session_state.get(STEP, 0)) + delta))


def merges(tok: Tokenizer, w: Walkthrough) -> None:
    st.subheader("4. Merges", anchor="merges")
    m = machine_for(tok)
    if not m.replays or not w.pieces:
        st.write(f"Not shown for this tokenizer: {m.no_replay_reason()}.")
        return
    st.write(
        f"Inside each piece the tokenizer starts from single {'bytes' if m.byte_level else 'characters'} "
        "and joins neighbours, always the pair "
        "it learned earliest (its **rank**: rank 0 was learned first), until no learned pair is left. "
        "These are the real ranks of this tokenizer's vocabulary."
    )
    if w.replay_same:
        st.success(
            "Replayed on every piece of your text, these merges give exactly the tokenizer's own ids.",
            icon=":material/check_circle:",
        )
    elif w.replay_note:
        st.warning(w.replay_note[:1].upper() + w.replay_note[1:] + ".", icon=":material/warning:")
    offered = [p for p in w.pieces[:MAX_MERGE_PIECES] if p.text]
    options = [p.index for p in offered]
    if st.session_state.get("inside_piece") not in options:
        st.session_state["inside_piece"] = _default_piece(tok, w)
    labels = {p.index: f"{p.index + 1}: {visible_whitespace(p.text)[:40]}" for p in offered}
    index = st.selectbox(
        "Piece to take apart", options, format_func=labels.get, key="inside_piece", persist_state="session",
        help="Any piece of your text; the first one that takes a few merges is chosen for you.",
    )  # fmt: skip
    piece = w.pieces[index]
    replay = m.replay(piece.text)
    if st.session_state.get("inside_step_for") != (tok.id, piece.text):
        st.session_state["inside_step_for"] = (tok.id, piece.text)
        st.session_state[STEP] = 0
        st.session_state[PLAYING] = False
    stepper(replay, "single byte" if m.byte_level else "single character")


def stepper(replay: Replay, unit: str) -> None:
    if replay.problem:
        st.info(f"Merges not shown: {replay.problem}.", icon=":material/info:")
        return
    ids = ", ".join(map(str, replay.ids))
    if replay.whole:
        st.write(
            f"The whole piece is already one token of the vocabulary (id {ids}), so it is taken as it is: "
            "the tokenizer looks for the whole piece before merging anything. Choose a longer or rarer piece "
            "to see merges."
        )
        html(chips(list(replay.parts)))
        return
    n = len(replay.steps)
    playing = bool(st.session_state.get(PLAYING)) and n > 0

    @st.fragment(run_every=PLAY_SECONDS if playing else None)
    def controls() -> None:
        if st.session_state.get(PLAYING):
            k_now = int(st.session_state.get(STEP, 0))
            if k_now >= n:
                st.session_state[PLAYING] = False
                st.rerun()
            st.session_state[STEP] = k_now + 1
        k = min(int(st.session_state.get(STEP, 0)), n)
        st.session_state[STEP] = k
        row = st.container(horizontal=True, vertical_alignment="center")  # one row, on a phone too
        row.button("Previous", key="inside_prev", on_click=_shift, args=(-1, n), disabled=k <= 0)
        row.button("Next", key="inside_next", on_click=_shift, args=(1, n), disabled=k >= n)
        if row.button(
            "Pause" if st.session_state.get(PLAYING) else "Play", key="inside_play", disabled=n == 0
        ):
            now = not st.session_state.get(PLAYING)
            st.session_state[PLAYING] = now
            if now and k >= n:
                st.session_state[STEP] = 0
            st.rerun()
        row.caption(f"Step {k} of {n}")
        parts = replay.parts_at(k)
        if k == 0:
            alphabet = replay.start != tuple(replay.piece)
            st.write(
                f"Start: {_plural(len(parts), unit)}"
                + (", written in the vocabulary's byte alphabet (Ġ is the space)." if alphabet else ".")
            )
            html(chips(list(parts)))
        else:
            s = replay.steps[k - 1]
            st.markdown(
                f"Step {k}: join {markdown_code(s.left)} + {markdown_code(s.right)} (rank {s.rank:,}) → "
                f"{_plural(len(parts), 'part')} left."
            )
            html(chips(list(parts), on=s.position))
        if k >= n:
            st.markdown(
                f"No learned pair is left: the piece is {_plural(len(replay.ids), 'token')}, ids {ids}, "
                "the same as the tokenizer's output."
            )

    controls()


def fallback(w: Walkthrough) -> None:
    st.subheader("5. Fallback: characters the vocabulary lacks", anchor="fallback")
    st.write(w.fallback.sentence)
    if w.fallback.split:
        rows = pd.DataFrame(
            {
                "Text": [visible_whitespace(s.text) for s in w.fallback.split],
                "Byte tokens": [" | ".join(s.tokens) for s in w.fallback.split],
            }
        )
        st.dataframe(rows, hide_index=True, width="stretch")


def ids_and_back(w: Walkthrough) -> None:
    st.subheader("6. Ids and back", anchor="ids")
    st.write(
        f"Each token is replaced by its number in the vocabulary: {_plural(len(w.ids), 'token')}. The model "
        "only ever sees these numbers (each picks one row of its embedding table). To write text back, "
        "each id becomes its bytes again and the bytes are joined."
    )
    shown = w.tokens[:DRAWN]
    rows = pd.DataFrame(
        {
            "#": [t.position + 1 for t in shown],
            "Id": [t.id for t in shown],
            "Token as the vocabulary writes it": [t.label for t in shown],
            "This id decoded alone": [
                visible_whitespace(t.alone)
                if t.alone is not None
                else f"part of a character (bytes {t.data.hex(' ')}): not text on its own"
                for t in shown
            ],
        }
    )
    st.dataframe(rows, hide_index=True, width="stretch")
    if len(w.ids) > DRAWN:
        st.caption(f"The first {DRAWN:,} of {len(w.ids):,} tokens are listed.")
    rt = w.round_trip
    (st.success if rt.same else st.info)(rt.sentence, icon=":material/sync:")
    if not rt.same:
        html(text_html(rt.decoded, limit=2_000))


def steps(tok: Tokenizer, text: str) -> None:
    w = walkthrough(tok.id, text, tok)
    normalisation(w)
    pretokenization(w)
    bytes_step(w)
    merges(tok, w)
    fallback(w)
    ids_and_back(w)


# ------------------------------------------------------------------------------- the surprises


def surprise_section(text: str, toks: list[Tokenizer]) -> None:
    names = {t.id: t.info.name for t in toks}
    for s in surprises(text, tuple(t.id for t in toks), toks):
        st.subheader(s.title, anchor=f"why-{s.key}")
        st.write(s.why)
        for row in s.rows:
            st.markdown(f"**{escape_markdown(names.get(row.tokenizer_id, row.tokenizer_id))}**: "
                        f"{escape_markdown(row.finding)}")  # fmt: skip
            cells = []
            for label, cut in zip(s.labels, row.cuts[:8]):
                if not cut.pieces:
                    continue
                cells.append(
                    f'<div style="margin:0 0 2px 0"><span class="tw-more">{_esc(label)} · '
                    f"{_plural(cut.n, 'token')}</span> {chips(list(cut.pieces), limit=60)}</div>"
                )
            html("".join(cells))
        if s.extra:
            with st.expander("Your text, trimmed"):
                html(text_html(s.extra, limit=4_000))


def _esc(text: str) -> str:
    import html as h

    return h.escape(text)
