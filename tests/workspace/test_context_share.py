"""One context window, shared: the documents' third common mistake as one bar."""

from __future__ import annotations

from tokenizer_core.workspace.context_share import context_share, share_bar_html


def test_parts_add_up_and_say_when_they_do_not_fit():
    s = context_share(window=8_192, prompt=1_500, chunks=10, chunk_tokens=512, answer=2_000)
    assert s.parts == (("your prompt", 1_500), ("10 retrieved chunks", 5_120), ("the answer", 2_000))
    assert s.used == 8_620 and s.over and "428 more than the window of 8,192" in s.sentence()
    fits = context_share(window=128_000, prompt=1_500, chunks=10, chunk_tokens=512, answer=2_000)
    assert not fits.over and fits.sentence().endswith("119,380 left.")
    assert fits.sentence().startswith("Your prompt ")


def test_the_bar_is_escaped_and_marks_the_window_end_when_over():
    over = share_bar_html(context_share(window=100, prompt=80, chunks=1, chunk_tokens=50, answer=20))
    assert "border-left:3px solid" in over and "left:66.667%" in over
    fits = share_bar_html(context_share(window=1_000, prompt=80, chunks=1, chunk_tokens=50, answer=20))
    assert "border-left" not in fits and "width:8.000%" in fits
