"""The "Inside a tokenizer" page's sections: the text and the tokenizer, the steps the tokenizer
really has (with the replay stepper), and the surprises. Only app_pages/inside.py imports this
package."""

from __future__ import annotations

import html as _html

import pandas as pd
import streamlit as st

from tokenizer_core.inside import Replay, Walkthrough, inspect_text, machine_for
from tokenizer_core.inside.html import CSS, chips, pieces_html, text_html, token_text_html
from tokenizer_core.inside.steps import MAX_CHOOSER_PIECES
from tokenizer_core.inside.surprises import Surprise, all_surprises
from tokenizer_core.tokenizers import Tokenizer, escape_markdown, markdown_code
from tokenizer_core.tokenizers.render import visible_whitespace

SAMPLE = "Hello world! It's 3.14159, not 1234567: one strawberry 🍓 in São Paulo, naïve café, Ελλάδα."
MAX_CHARS = 20_000  # taken apart; more is cut, and the page says so
LIVE_CHARS = 5_000  # the steps follow the typing up to here; above, Ctrl+Enter
DRAWN = 300  # pieces, tokens and table rows drawn at most
PLAY_SECONDS = 0.9
STEP = "inside_step"
PLAYING = "inside_playing"
PIECE = "inside_piece"
PIECE_FOR = "inside_piece_for"
TRIED_SHOWN = 6  # WordPiece candidates listed per token (the rest are counted)

# What the replay step is called, per way of building tokens (Machine.method)
METHOD_TITLES = {
    "merges": "Merges",
    "scores": "Merges by score",
    "longest": "Longest match first",
    "viterbi": "The best cut by score",
    "": "Tokens",
}


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


def step_titles(w: Walkthrough) -> list[tuple[str, str]]:
    """The steps this tokenizer really has, in its order: (anchor, title)."""
    out = [
        ("normalisation", "Normalisation"),
        ("pieces", "Pre-tokenization: cut into pieces"),
        ("bytes", "Bytes"),
        ("merges", METHOD_TITLES.get(w.method, "Tokens")),
        ("fallback", "Fallback: characters the vocabulary lacks"),
    ]
    if w.added:
        out.append(("special", "Special tokens around the text"))
    out.append(("ids", "Ids and back"))
    return out


def _head(w: Walkthrough, anchor: str) -> None:
    for n, (a, title) in enumerate(step_titles(w), 1):
        if a == anchor:
            st.subheader(f"{n}. {title}", anchor=anchor)
            return


# ----------------------------------------------------------------------------------- the steps


def normalisation(w: Walkthrough) -> None:
    _head(w, "normalisation")
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
    _head(w, "pieces")
    if w.pre_steps:
        st.write("Before any token is chosen, the text is cut into pieces, in these steps:")
        st.markdown("\n".join(f"{k}. {escape_markdown(s)}" for k, s in enumerate(w.pre_steps, 1)))
    elif not w.patterns:
        st.write(
            "This tokenizer does not cut the text into pieces first; the whole text goes to the next step "
            "as one piece."
        )
    if w.patterns:
        st.write(
            (
                "The cutting uses"
                if w.pre_steps
                else "Before any token is chosen, the text is cut into pieces by"
            )
            + " a **pattern**: a regular expression, which is a short code that describes runs of characters "
            '("letters", "up to 3 digits"). At each point of the text the first rule of the pattern that '
            "fits takes the next piece. Tokens never cross the border of a piece."
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
    kept, dropped = len(w.kept), len(w.dropped)
    if dropped:
        st.caption(
            f"{_plural(kept, 'piece')}, and {_plural(dropped, 'stretch')} of text the pre-tokenizer drops "
            "(marked dropped, struck through): it gets no token. Spaces are shown as ⋅."
        )
    else:
        st.caption(f"{_plural(kept, 'piece')}; they join back to the text exactly. Spaces are shown as ⋅.")
    html(pieces_html(w.pieces, limit=DRAWN))


def bytes_step(w: Walkthrough) -> None:
    _head(w, "bytes")
    shown = w.kept[:DRAWN]
    rows = {
        "Piece": [visible_whitespace(p.text) for p in shown],
        "UTF-8 bytes": [p.data.hex(" ") for p in shown],
        "Bytes": [len(p.data) for p in shown],
    }
    if w.byte_level:
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
            "has no token for (the fallback step)."
        )
        if any(p.form for p in shown):
            rows["As the model receives it"] = [visible_whitespace(p.seen) for p in shown]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if len(w.kept) > DRAWN:
        st.caption(f"The first {DRAWN:,} of {len(w.kept):,} pieces are listed.")


def _shift(delta: int, n: int) -> None:
    st.session_state[STEP] = max(0, min(n, int(st.session_state.get(STEP, 0)) + delta))


def _rank_words(w: Walkthrough) -> str:
    """What a merge's rank is, for this tokenizer, in one or two sentences."""
    if w.kind == "hf-bpe":
        return "A pair's rank is its place in the tokenizer file's list of merges."
    words = (
        "A token's rank is its place in the vocabulary's list (the single bytes come first, then the "
        "merged tokens)"
    )
    if w.rank_offset:
        return (
            f"{words}. In this vocabulary the first {w.rank_offset:,} ids are special tokens, so a token's "
            f"id is its rank plus {w.rank_offset:,}."
        )
    return words + "; here it is also the token's id."


def merges(tok: Tokenizer, w: Walkthrough) -> None:
    _head(w, "merges")
    m = machine_for(tok)
    if not m.replays or not w.kept:
        st.write(f"Not shown for this tokenizer: {m.no_replay_reason()}.")
        return
    unit = "bytes" if m.byte_level else "characters"
    if w.method == "merges":
        st.write(
            f"Inside each piece the tokenizer starts from single {unit} and joins neighbours, always the "
            "pair with the lowest **rank**, until no pair joins into a token. "
            + _rank_words(w)
            + " These are the real ranks of this tokenizer's vocabulary."
        )
    elif w.method == "scores":
        known = getattr(m, "scores_known", True)
        st.write(
            "This is SentencePiece BPE. Inside each piece it starts from single characters and joins the "
            "neighbours whose joined piece has the highest **score** in the vocabulary (the leftmost pair "
            "on a tie), until no joined pair is a piece. A character with no piece of its own falls back "
            "to its bytes at the end."
            + (
                ""
                if known
                else " This copy of the vocabulary does not carry the scores, but it lists its pieces best "
                "score first, so here a piece's score is shown as minus its place in the list."
            )
        )
    elif w.method == "longest":
        st.write(
            "This is WordPiece. From the start of each piece it takes the **longest** vocabulary entry that "
            "fits, trying shorter and shorter prefixes; the rest of the word goes on with a ## in front "
            "(a continuation). If nothing fits at some point, the whole word becomes the unknown token."
        )
    elif w.method == "viterbi":
        st.write(
            "This is a Unigram model. Every vocabulary entry has a **score** (the log of how likely it "
            "is); of all the ways to cut a piece into entries, the tokenizer keeps the one whose scores "
            "add up highest (found with the Viterbi algorithm)."
        )
    st.page_link(
        "app_pages/bpe.py",
        label="Where ranks come from: the BPE playground",
        icon=":material/merge:",
    )
    if w.replay_same:
        st.success(
            "Replayed on every piece of your text, this gives exactly the tokenizer's own ids.",
            icon=":material/check_circle:",
        )
    elif w.replay_note:
        st.warning(w.replay_note[:1].upper() + w.replay_note[1:] + ".", icon=":material/warning:")
    offered = [p for p in w.pieces[:MAX_CHOOSER_PIECES] if p.text and not p.dropped]
    options = [p.index for p in offered]
    here = (tok.id, w.text)
    if st.session_state.get(PIECE_FOR) != here or st.session_state.get(PIECE) not in options:
        # a new text or tokenizer: its own first interesting piece, never the old one's number
        st.session_state[PIECE] = w.first_piece
        st.session_state[PIECE_FOR] = here
    labels = {p.index: f"{p.index + 1}: {visible_whitespace(p.text)[:40]}" for p in offered}
    index = st.selectbox(
        "Piece to take apart", options, format_func=labels.get, key=PIECE, persist_state="page",
        help="Any piece of your text; the first one that takes a few steps is chosen for you.",
    )  # fmt: skip
    piece = w.pieces[index]
    replay = m.replay(piece.seen)
    if st.session_state.get("inside_step_for") != (tok.id, piece.seen):
        st.session_state["inside_step_for"] = (tok.id, piece.seen)
        st.session_state[STEP] = 0
        st.session_state[PLAYING] = False
    if w.method == "longest":
        wordpiece(replay, w)
    elif w.method == "viterbi":
        unigram(replay, w)
    else:
        stepper(replay, "single byte" if m.byte_level else "single character", w)


def _ending(replay: Replay, w: Walkthrough) -> str:
    ids = ("id " if len(replay.ids) == 1 else "ids ") + ", ".join(map(str, replay.ids))
    n = _plural(len(replay.ids), "token")
    if w.replay_same:
        return f"the piece is {n}, {ids}, the same as the tokenizer's output."
    return (
        f"the replay gives {n}, {ids}; the tokenizer's own ids for your text differ from the replay, "
        "so trust the ids in the last step."
    )


def _fell_back(replay: Replay) -> None:
    if replay.fallback:
        st.markdown(
            "Characters with no piece of their own fall back to their bytes, so the tokens are: "
            + " ".join(markdown_code(x) for x in replay.fallback)
        )


def stepper(replay: Replay, unit: str, w: Walkthrough) -> None:
    if replay.problem:
        st.info(f"Steps not shown: {replay.problem}.", icon=":material/info:")
        return
    ids = ", ".join(map(str, replay.ids))
    if replay.whole:
        st.write(
            f"The whole piece is already one token of the vocabulary (id {ids}), so it is taken as it is. "
            "Choose a longer or rarer piece to see merges."
        )
        html(chips(list(replay.parts)))
        return
    n = len(replay.steps)
    playing = bool(st.session_state.get(PLAYING)) and n > 0
    offset = w.rank_offset

    def rank(value: float) -> str:
        if w.method == "scores":
            return f"score {value:,g}"
        return f"rank {int(value) - offset:,}" + (f", id {int(value):,}" if offset else "")

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
            value = s.score if s.score is not None else s.rank
            st.markdown(
                f"Step {k}: join {markdown_code(s.left)} + {markdown_code(s.right)} ({rank(value)}) → "
                f"{_plural(len(parts), 'part')} left."
            )
            html(chips(list(parts), on=s.position))
            if len(s.rivals) > 1:
                better = "highest score" if w.method == "scores" else "lowest rank"
                st.caption(
                    f"Why this pair: of the pairs that could join now, it has the {better}. The others: "
                    + "; ".join(f"{a} + {b} ({rank(r)})" for a, b, r in s.rivals[1:])
                    + ("…" if len(s.rivals) >= 6 else ".")
                )
        if k >= n:
            st.markdown(("No joined pair is a piece" if w.method == "scores" else "No pair joins into a token")
                        + ": " + _ending(replay, w))  # fmt: skip
            _fell_back(replay)

    controls()


def wordpiece(replay: Replay, w: Walkthrough) -> None:
    if replay.problem:
        st.info(f"Steps not shown: {replay.problem}.", icon=":material/info:")
        return
    lines = []
    for k, s in enumerate(replay.search, 1):
        tried = list(s.tried)
        shown = tried if len(tried) <= TRIED_SHOWN else [*tried[: TRIED_SHOWN - 1], "…", tried[-1]]
        where = "the start" if s.start == 0 else f"character {s.start + 1}"
        found = f"found {markdown_code(s.found)}" if s.found else "nothing fits: the whole word is unknown"
        lines.append(
            f"{k}. From {where}: tried {', '.join(x if x == '…' else markdown_code(x) for x in shown)} → {found}"
            + (f" ({_plural(len(tried), 'try')})" if len(tried) > TRIED_SHOWN else "")
        )
    if replay.search and replay.search[0].tried == () and replay.search[0].found is None:
        lines = ["The piece is longer than this tokenizer's longest word: it is the unknown token."]
    st.markdown("\n".join(lines))
    if replay.start:
        html(chips(list(replay.start)))
    st.markdown(_ending(replay, w)[:1].upper() + _ending(replay, w)[1:])


def unigram(replay: Replay, w: Walkthrough) -> None:
    if replay.problem or replay.best is None:
        st.info(f"Steps not shown: {replay.problem or 'no cut was found'}.", icon=":material/info:")
        return
    best = replay.best
    st.markdown(f"The cut kept, total score **{best.total:,.2f}**:")
    html(chips(list(best.pieces), subs=[f"{x:.2f}" for x in best.scores]))
    if replay.runner_up is not None:
        other = replay.runner_up
        st.markdown(
            f"The best other cut adds up to **{other.total:,.2f}** "
            f"({best.total - other.total:,.2f} less), so it loses:"
        )
        html(chips(list(other.pieces), subs=[f"{x:.2f}" for x in other.scores]))
    else:
        st.write("There is no other way to cut this piece into vocabulary entries.")
    st.markdown(_ending(replay, w)[:1].upper() + _ending(replay, w)[1:])
    _fell_back(replay)


def fallback(w: Walkthrough) -> None:
    _head(w, "fallback")
    st.write(w.fallback.sentence)
    if w.fallback.split:
        rows = pd.DataFrame(
            {
                "Text": [visible_whitespace(s.text) for s in w.fallback.split],
                "Tokens as the vocabulary writes them": [" | ".join(s.tokens) for s in w.fallback.split],
            }
        )
        st.dataframe(rows, hide_index=True, width="stretch")


def special_tokens(w: Walkthrough) -> None:
    if not w.added:
        return
    _head(w, "special")
    before = [f"{markdown_code(label)} (id {tid})" for label, tid, first in w.added if first]
    after = [f"{markdown_code(label)} (id {tid})" for label, tid, first in w.added if not first]
    parts = []
    if before:
        parts.append(f"{', '.join(before)} in front")
    if after:
        parts.append(f"{', '.join(after)} at the end")
    st.markdown(
        f"Last, the tokenizer's own post-processing puts {' and '.join(parts)} of a text the model reads "
        f"(+{len(w.added)}). The counts on this page and the ids below leave "
        f"{'it' if len(w.added) == 1 else 'them'} out: a chat request adds its own markers (see the workspace)."
    )


def ids_and_back(w: Walkthrough) -> None:
    _head(w, "ids")
    st.write(
        f"Each token is replaced by its number in the vocabulary: {_plural(len(w.ids), 'token')}. The model "
        "only ever sees these numbers (each picks one row of its embedding table). To write text back, "
        "each id becomes its bytes again and the bytes are joined."
    )
    st.caption("Your text, token by token: point at a token to see its id and which characters it covers.")
    html(token_text_html(w.text, w.tokens, w.offsets, limit=DRAWN))
    shown = w.tokens[:DRAWN]
    spans = list(w.offsets[:DRAWN]) + [(0, 0)] * (len(shown) - len(w.offsets[:DRAWN]))
    rows = pd.DataFrame(
        {
            "#": [t.position + 1 for t in shown],
            "Id": [t.id for t in shown],
            "As the vocabulary writes it": [t.label for t in shown],
            "Shown as (decoded alone)": [
                visible_whitespace(t.alone)
                if t.alone is not None
                else f"part of a character (bytes {t.data.hex(' ')}): not text on its own"
                for t in shown
            ],
            "Characters": [f"{a + 1}–{b}" if b > a + 1 else f"{b}" if b > a else "" for a, b in spans],
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
    special_tokens(w)
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
                    f'<div style="margin:0 0 2px 0"><span class="tw-more">{_html.escape(label)} · '
                    f"{_plural(cut.n, 'token')}</span> {chips(list(cut.pieces), limit=60)}</div>"
                )
            html("".join(cells))
        if s.extra:
            with st.expander("Your text, trimmed"):
                html(text_html(s.extra, limit=4_000))
