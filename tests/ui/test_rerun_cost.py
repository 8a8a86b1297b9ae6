"""What a counter rerun no longer does on every keystroke, and that the page shows the same.

The segment and view-data builders were rewritten column by column for speed: they are checked
here against the straightforward token-by-token definition (kept below as the specification),
and against invariants that need no implementation at all. The counts chart is drawn from a
spec built once per set of tokenizers: it must equal what Streamlit draws from the Altair chart.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tests.picker_helpers import choose
from tests.tokenizers.test_segments import tricky_text
from tokenizer_core import Segment
from tokenizer_core.tokenizers import TokenPane, token_view_data
from tokenizer_core.tokenizers.segments import boundary_offsets, resegment, segments_from_pieces, token_count


def spec_segments_from_pieces(ids, pieces, *, special_ids=frozenset(), offset=0) -> list[Segment]:
    """The definition: tokens are taken one by one; a token whose bytes do not end a character
    waits for the next ones; what is left at the end is decoded with replacement."""
    out, pending_ids, pending, pos = [], [], [], offset
    for tid, piece in zip(ids, pieces):
        pending_ids.append(tid)
        pending.append(piece)
        data = b"".join(pending)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.reason == "unexpected end of data":
                continue
            raise
        out.append(
            Segment(
                pos,
                pos + len(text),
                tuple(pending_ids),
                text,
                data,
                any(t in special_ids for t in pending_ids),
            )
        )
        pos += len(text)
        pending_ids, pending = [], []
    if pending:
        data = b"".join(pending)
        text = data.decode("utf-8", errors="replace")
        out.append(Segment(pos, pos + len(text), tuple(pending_ids), text, data))
    return out


def spec_pane(pane: TokenPane, text: str, base: int) -> dict:
    """The definition of one pane of the view data (see view_data.py's format), segment by segment."""
    segs, out = pane.segments, {}
    first = segs[0].start - base if segs else 0
    pos, regular = first, 0 <= first <= len(text)
    lens, ids, counts, special, hexes, marks, last = [], [], [], [], {}, [], 0
    for i, seg in enumerate(segs):
        if regular and (seg.start - base != pos or text[pos : pos + len(seg.text)] != seg.text):
            regular = False
        pos += len(seg.text)
        lens.append(len(seg.text))
        ids.extend(seg.ids)
        if len(seg.ids) != 1:
            counts += (i, len(seg.ids))
        if seg.special:
            special.append(i)
        if seg.ids and seg.data != seg.text.encode("utf-8", "surrogatepass"):
            raw = seg.data[:24].hex(" ")
            hexes[str(i)] = raw + " ..." if len(seg.data) > 24 else raw
        if pane.marked and seg.start in pane.marked:
            marks.append(i - last)
            last = i
    out = {"title": pane.title, "at": first if regular else 0, "len": lens, "ids": ids}
    for key, value in (("note", pane.note), ("caption", pane.caption), ("n", counts), ("sp", special),
                       ("mk", marks), ("hex", hexes)):  # fmt: skip
        if value:
            out[key] = value
    if not regular:
        out["text"] = "".join(s.text for s in segs)
        out["base"] = segs[0].start if segs else base
    return out


byte_tokens = st.lists(
    st.tuples(st.integers(0, 50), st.binary(min_size=1, max_size=5)), max_size=30
)  # arbitrary bytes: valid UTF-8 or not


@settings(max_examples=300)
@given(text=tricky_text, offset=st.integers(0, 5), cut=st.integers(1, 4))
def test_segments_from_pieces_is_the_definition_on_text_cut_anywhere(text, offset, cut):
    data = text.encode("utf-8", "surrogatepass")
    pieces = [data[i : i + cut] for i in range(0, len(data), cut)]  # characters split across tokens
    ids = list(range(len(pieces)))
    special = frozenset(ids[::3])
    try:  # a lone surrogate is no UTF-8: both refuse it (tokenizers replace it before encoding)
        want = spec_segments_from_pieces(ids, pieces, special_ids=special, offset=offset)
    except UnicodeDecodeError:
        with pytest.raises(UnicodeDecodeError):
            segments_from_pieces(ids, pieces, special_ids=special, offset=offset)
        return
    got = segments_from_pieces(ids, pieces, special_ids=special, offset=offset)
    assert got == want
    assert b"".join(s.data for s in got) == data and [i for s in got for i in s.ids] == ids
    assert "".join(s.text for s in got) == data.decode("utf-8", "replace")


@settings(max_examples=300)
@given(tokens=byte_tokens)
def test_segments_from_pieces_is_the_definition_on_any_bytes(tokens):
    ids, pieces = [t for t, _ in tokens], [p for _, p in tokens]
    try:
        want = spec_segments_from_pieces(ids, pieces, special_ids={7})
    except UnicodeDecodeError:
        want = None
    try:
        got = segments_from_pieces(ids, pieces, special_ids={7})
    except UnicodeDecodeError:
        got = None
    assert got == want


@settings(max_examples=60)
@given(text=tricky_text, base=st.integers(0, 3), every=st.integers(1, 4))
def test_view_data_is_the_definition_for_every_tokenizer(text, base, every):
    panes = []
    for tid in ("o200k_base", "cl100k_base", "llama3", "qwen", "gemma3", "mistral_sp_v3"):
        segs = [Segment(s.start + base, s.end + base, *s[2:]) for s in builtin(tid).segments(text)]
        marked = frozenset(s.start for s in segs[::every])
        panes.append(TokenPane(tid, segs, note="n", marked=marked))
        assert token_count(segs) == len(builtin(tid).encode(text, allow_special=False)) or tid == "qwen"
        assert boundary_offsets(segs) == frozenset({s.start for s in segs} | {s.end for s in segs})
    data = token_view_data(text, panes, base=base)
    assert data["panes"] == [spec_pane(p, text, base) for p in panes]


def test_a_pane_whose_pieces_do_not_spell_the_text_carries_its_own():
    segs = [Segment(0, 2, (1,), "ab", b"ab"), Segment(2, 3, (2, 3), "X", b"\xc3\xa9")]
    pane = TokenPane("t", segs)
    for text in ("abc", "abX", "a"):
        assert token_view_data(text, [pane])["panes"][0] == spec_pane(pane, text, 0)


def test_the_counts_chart_is_what_streamlit_draws_from_the_altair_chart():
    from streamlit.testing.v1 import AppTest

    def page():
        import streamlit as st

        from tokenizer_core import count_table, load_builtin
        from tokenizer_core.workspace.charts import token_count_chart
        from ui.workspace.counts import counts_chart_spec

        toks = [load_builtin(t) for t in ("o200k_base", "cl100k_base", "llama3")]
        rows = count_table("Counted twice 🚀, drawn the same.", toks, context_window=128_000)
        st.altair_chart(token_count_chart(rows), width="stretch")
        st.vega_lite_chart(counts_chart_spec(rows), width="stretch")

    at = AppTest.from_function(page, default_timeout=60)
    at.run()
    assert not at.exception
    altair, ours = (el.proto for el in at.get("vega_lite_chart"))
    a, b = json.loads(altair.spec), json.loads(ours.spec)
    assert [d.data.data for d in altair.datasets] == [d.data.data for d in ours.datasets]  # same Arrow bytes
    assert a.pop("data") == {"name": altair.datasets[0].name} and b.pop("data") == {
        "name": ours.datasets[0].name
    }
    assert a == b  # the same spec but for the dataset's name (ours keeps one name as the counts change)
    for field in ("use_container_width", "theme", "width_config", "height_config", "id", "selection_mode"):
        if hasattr(altair, field):
            assert getattr(altair, field) == getattr(ours, field), field


def test_typing_builds_the_counts_chart_once_per_set_of_tokenizers(app, monkeypatch):
    from tokenizer_core.workspace import charts

    built = []
    real = charts.token_count_chart
    monkeypatch.setattr(charts, "token_count_chart", lambda rows: built.append(len(rows)) or real(rows))
    import ui.workspace.counts as view

    monkeypatch.setattr(view, "token_count_chart", charts.token_count_chart)
    for text in ("one", "one two", "one two three"):
        app.session_state["workspace_text"] = text
        app.run()
        assert not app.exception
    assert len(built) <= 1  # the spec is kept; only the counts change between keystrokes
    choose(app, "workspace_tokenizers", ["r50k_base", "qwen"])
    assert not app.exception and built[-1:] == [2]  # other tokenizers: another chart


edit = st.tuples(tricky_text, tricky_text, tricky_text, tricky_text)  # head, old middle, new middle, tail


@settings(max_examples=300)
@given(parts=edit, cut=st.integers(1, 4), cut2=st.integers(1, 4))
def test_resegment_is_the_full_grouping_of_the_new_tokens(parts, cut, cut2):
    # tokens that split characters anywhere, differently in the middle, so that a character may
    # be cut at the edges of the edit: only ids decide, so any bytes-to-id map will do
    head, old_mid, new_mid, tail = (p.encode("utf-8", "surrogatepass") for p in parts)
    vocab: dict[bytes, int] = {}

    def tokens(*chunks: tuple[bytes, int]) -> list[int]:
        out = []
        for data, n in chunks:
            out += [vocab.setdefault(data[i : i + n], len(vocab)) for i in range(0, len(data), n)]
        return out

    old_ids = tokens((head, cut), (old_mid, cut2), (tail, cut))
    new_ids = tokens((head, cut), (new_mid, cut), (tail, cut))
    pieces = {v: k for k, v in vocab.items()}
    special = frozenset(range(0, len(vocab), 5))
    as_bytes = lambda ids: [pieces[i] for i in ids]  # noqa: E731
    try:
        previous = segments_from_pieces(old_ids, as_bytes(old_ids), special_ids=special)
        want = spec_segments_from_pieces(new_ids, as_bytes(new_ids), special_ids=special)
    except UnicodeDecodeError:  # a lone surrogate's bytes are no UTF-8
        return
    assert resegment(previous, new_ids, pieces=as_bytes, special_ids=special) == want


@settings(max_examples=60, deadline=None)
@given(parts=edit, special=st.booleans())
def test_segments_after_an_edit_are_the_segments_of_the_new_text(parts, special):
    head, old_mid, new_mid, tail = parts
    old, new = head + old_mid + tail, head + new_mid + tail
    for tid in ALL_IDS:
        tok = builtin(tid)
        previous = tok.segments(old, allow_special=special)
        assert tok.segments_after(new, previous=previous, allow_special=special) == tok.segments(
            new, allow_special=special
        ), tid


def test_a_keystroke_groups_only_the_tokens_it_changed(app, monkeypatch):
    from tokenizer_core.tokenizers import encoders
    from tokenizer_core.tokenizers import segments as module

    text = "Hello there, 😀 नमस्ते 你好. " * 200
    app.session_state["workspace_text"] = text
    app.run()
    grouped = []
    real = module.segments_from_pieces
    counted = lambda ids, *a, **k: grouped.append(len(ids)) or real(ids, *a, **k)  # noqa: E731
    monkeypatch.setattr(module, "segments_from_pieces", counted)
    monkeypatch.setattr(encoders, "segments_from_pieces", counted)  # what segments() calls
    app.session_state["workspace_text"] = text + "!"
    app.run()
    assert not app.exception
    assert grouped and max(grouped) < 10  # not the ~2,000 tokens of the text, per tokenizer
