"""Message lists for people: a few lines, whatever the count (tokenizer_core/tokenizers/notes.py)."""

from __future__ import annotations

from tokenizer_core.tokenizers import some_of, summarised
from tokenizer_core.tokenizers.notes import MAX_NOTES


def test_a_short_list_is_kept_as_it_is():
    assert summarised(["a", "b"]) == ["a", "b"]


def test_a_long_list_is_its_first_lines_and_one_line_counting_the_rest():
    notes = [f"row {i}: bad" for i in range(20_000)]
    lines = summarised(notes)
    assert len(lines) == MAX_NOTES
    assert lines[:-1] == notes[: MAX_NOTES - 1]
    assert lines[-1] == f"… and {20_000 - MAX_NOTES + 1:,} more like these (20,000 in all)."


def test_one_very_long_line_is_cut():
    (line,) = summarised(["x" * 1_300_000])
    assert len(line) <= 400 and line.endswith("…")


def test_some_of_names_three_and_counts_the_rest():
    assert some_of(["'a'", "'b'", "'c'", "'d'", "'e'"]) == "'a', 'b', 'c' and 2 more"
    assert some_of(["'a'"]) == "'a'"
