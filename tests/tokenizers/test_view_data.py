"""The light token view's data: offsets cover the text, ids are the tokenizer's, marks, escaping."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.helpers.token_view import pane_marks, pane_segments
from tokenizer_core import Segment
from tokenizer_core.tokenizers import (
    TokenPane,
    segments_html,
    token_view_data,
    unshared_boundaries,
    view_payload,
)

MIXED = "Hello, world! 🚀 नमस्ते\r\n\tcafé  naïve 12345 <|endoftext|> 你好 \u0301x"
ATTACKS = ["<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>", '"><svg onload=alert(2)>']


def _roundtrip(data: dict) -> dict:
    return json.loads(view_payload(data).decode("utf-8"))


def test_pieces_cover_the_text_with_the_tokenizers_ids(any_builtin):
    segs = any_builtin.segments(MIXED)
    data = _roundtrip(token_view_data(MIXED, [TokenPane(any_builtin.info.name, segs)]))
    pane = data["panes"][0]
    assert "text" not in pane  # the pieces spell the shared text: it is sent once
    assert sum(pane["len"]) == len(MIXED)
    assert pane_segments(data, 0) == [(s.start, s.end, s.ids) for s in segs]
    assert pane["ids"] == [i for s in segs for i in s.ids] == any_builtin.encode(MIXED)


def test_a_window_keeps_document_offsets():
    tok = builtin("cl100k_base")
    text = "first part. second part with more words"
    start = 12
    segs = [
        Segment(s.start + start, s.end + start, s.ids, s.text, s.data, s.special)
        for s in tok.segments(text[start:])
    ]
    data = token_view_data(text[start:], [TokenPane("t", segs)], base=start)
    got = pane_segments(data, 0)
    assert got[0][0] == start and got[-1][1] == len(text)
    assert [text[a:b] for a, b, _ in got] == [s.text for s in segs]


def test_marks_are_the_unshared_boundaries():
    a, b = builtin("o200k_base"), builtin("r50k_base")
    text = "Tokenizers disagree about supercalifragilistic words,    spaces and 2024-11-30 dates."
    sa, sb = a.segments(text), b.segments(text)
    ma, mb = unshared_boundaries(sa, sb)
    data = token_view_data(text, [TokenPane("a", sa, marked=ma), TokenPane("b", sb, marked=mb)])
    for k, (segs, marked) in enumerate(((sa, ma), (sb, mb))):
        expected = [i for i, s in enumerate(segs) if s.start in marked]
        assert expected, "the two tokenizers should cut this text differently"
        assert pane_marks(data, k) == expected


def test_special_tokens_multi_token_pieces_and_dropped_text_are_flagged():
    tok = builtin("cl100k_base")
    segs = tok.segments("a <|endoftext|> 🚀", allow_special=True)
    dropped = Segment(segs[-1].end, segs[-1].end + 2, (), "  ", b"  ")
    data = token_view_data("a <|endoftext|> 🚀  ", [TokenPane("t", [*segs, dropped])])
    pane = data["panes"][0]
    special = [i for i, s in enumerate(segs) if s.special]
    assert special and pane["sp"] == special
    counts = dict(zip(pane["n"][::2], pane["n"][1::2]))
    assert counts[len(segs)] == 0  # the dropped piece holds no id
    assert all(counts[i] == len(s.ids) for i, s in enumerate(segs) if len(s.ids) != 1)
    assert pane_segments(data, 0)[-1] == (dropped.start, dropped.end, ())


def test_bytes_are_sent_only_where_they_are_not_the_text():
    # after normalisation the token bytes spell "é" (NFC) while the input has "e" + U+0301
    seg = Segment(0, 2, (5,), "e\u0301", "é".encode())
    plain = Segment(2, 3, (6,), "x", b"x")
    pane = token_view_data("e\u0301x", [TokenPane("t", [seg, plain])])["panes"][0]
    assert pane["hex"] == {"0": "c3 a9"}
    long = Segment(0, 1, (1,), "a", bytes(range(30)))
    assert token_view_data("a", [TokenPane("t", [long])])["panes"][0]["hex"]["0"].endswith(" ...")


def test_pieces_that_do_not_spell_the_text_carry_their_own():
    segs = [Segment(0, 1, (1,), "a", b"a"), Segment(1, 2, (2,), "\ufffd", b"\xf0")]
    pane = token_view_data("ab", [TokenPane("t", segs)])["panes"][0]
    assert pane["text"] == "a\ufffd"


@pytest.mark.parametrize("attack", ATTACKS)
def test_user_text_and_names_travel_as_data_not_markup(attack):
    tok = builtin("o200k_base")
    text = f"x {attack} y"
    data = token_view_data(text, [TokenPane(attack, tok.segments(text), note=attack)])
    back = _roundtrip(data)
    assert back["text"] == text and back["panes"][0]["title"] == attack
    # the payload is JSON for the browser's JSON.parse; the drawing uses textContent (e2e tests)
    assert view_payload(data).startswith(b'{"v":1,')


def test_payload_is_compact_utf8():
    tok = builtin("o200k_base")
    text = "नमस्ते दुनिया " * 50
    payload = view_payload(token_view_data(text, [TokenPane("t", tok.segments(text))]))
    assert "नमस्ते".encode() in payload  # not \\u escapes (6 bytes a character)
    assert b", " not in payload.replace(text.encode(), b"")
    old = len(segments_html(tok.segments(text)).encode())
    assert len(payload) * 5 < old


def test_a_lone_surrogate_still_gives_valid_json():
    text = "a\ud800b"
    segs = [Segment(0, 3, (1,), text, text.encode("utf-8", "surrogatepass"))]
    payload = view_payload(token_view_data(text, [TokenPane("t", segs)]))
    assert json.loads(payload.decode("ascii"))["text"] == text


def test_options_are_checked():
    with pytest.raises(ValueError, match="mode must be"):
        token_view_data("a", [], mode="html")
    data = token_view_data("a", [], direction="sideways", lang='en" onload="x')
    assert data["dir"] == "auto" and data["lang"] == ""
    assert token_view_data("a", [], direction="rtl", lang="ar")["dir"] == "rtl"


@given(st.text(max_size=200))
def test_any_text_round_trips(text):
    tok = builtin("cl100k_base")
    segs = tok.segments(text)
    data = _roundtrip(token_view_data(text, [TokenPane("t", segs)]))
    got = pane_segments(data, 0)
    assert [(a, b) for a, b, _ in got] == [(s.start, s.end) for s in segs]
    assert "".join(data["text"][a:b] for a, b, _ in got) == "".join(s.text for s in segs)
