"""What the BPE page shows, built without Streamlit: explanations, tables, escaped HTML, charts."""

from __future__ import annotations

import pytest

from tokenizer_core import BPEOptions, train_bpe
from tokenizer_core.bpe import (
    BPE_PRESETS,
    bpe_candidate_rows,
    bpe_fired_rows,
    bpe_merge_rows,
    bpe_symbol_label,
    bpe_words_at_step,
    bpe_words_html,
    count_words,
    explain_bpe_choice,
    probe_bpe,
)
from tokenizer_core.bpe.charts import MAX_POINTS, merge_count_chart, training_chart, training_frame
from tokenizer_core.bpe.encode import WordView
from tokenizer_core.bpe.presets import counts_as_text

SEED_000 = {"get": 6, "set": 5, "reset": 3, "getter": 2, "setter": 2, "offset": 1}
SEED_002 = BPE_PRESETS["load / data / stream"]


def test_explanations_name_the_rule_that_decided():
    m0 = train_bpe(SEED_000, BPEOptions(symbols="chars", merges=4, tie_break="smallest"), top_n=8)
    # seed 000: "Two pairs share the fourth-highest count, and an alphabetical rule selects e and r"
    text = explain_bpe_choice(m0, m0.steps[3])
    assert text.startswith("2 pairs share the top count 4.")
    assert "alphabetically smallest pair" in text and "(e + r) comes before" in text
    assert explain_bpe_choice(m0, m0.steps[0]).startswith("(e + t) won outright: 19 occurrences")
    m2 = train_bpe(SEED_002.corpus(), SEED_002.options, top_n=8)
    text = explain_bpe_choice(m2, m2.steps[0])
    assert text.startswith("3 pairs share the top count 100.")
    assert "alphabetically largest pair" in text and "(o + a) comes after (l + o)" in text
    m4 = train_bpe(
        {"low": 5, "lower": 2, "newest": 6, "widest": 3},
        BPEOptions(symbols="chars", merges=5, tie_break="first"),
        top_n=8,
    )
    text = explain_bpe_choice(m4, m4.steps[0])  # e+s and s+t tie at 9, both first seen in "newest"
    assert "Ties go to the pair seen first" in text
    assert "(e + s) first appears at word 3 'newest', position 3" in text


def test_candidate_and_merge_rows():
    m = train_bpe(SEED_000, BPEOptions(symbols="chars", merges=4, tie_break="smallest"), top_n=8)
    rows = bpe_candidate_rows(m, m.steps[3])
    # "Tied" marks the pairs as frequent as the merged one, not the merged pair itself
    assert rows[0] == {"place": 1, "pair": "e + r", "count": 4, "chosen": True, "tied": False}
    assert [r["chosen"] for r in rows].count(True) == 1
    assert [r["tied"] for r in rows if r["count"] == 4] == [False, True]
    assert not any(r["tied"] for r in rows if r["count"] < 4)
    outright = bpe_candidate_rows(m, m.steps[0])  # e+t (19) won outright: nothing is tied
    assert outright[0]["chosen"] and outright[0]["count"] > outright[1]["count"]
    assert not any(r["tied"] for r in outright)
    assert bpe_merge_rows(m, 2) == [
        {"rank": 1, "left": "e", "right": "t", "new": "et", "count": 19, "id": 7},
        {"rank": 2, "left": "s", "right": "et", "new": "set", "count": 11, "id": 8},
    ]
    first = train_bpe({"ab": 2, "ba": 2}, BPEOptions(symbols="chars", merges=1, tie_break="first"), top_n=4)
    assert bpe_candidate_rows(first, first.steps[0])[0]["first seen"] == "word 1 'ab', position 0"


def test_symbol_labels_show_whitespace_and_bad_bytes():
    assert bpe_symbol_label(b" the") == "\u22c5the"
    assert bpe_symbol_label(b"\n\n") == "\u21b5\u21b5"
    assert bpe_symbol_label(b"\xe2\x82") == "\\xe2\\x82"
    assert bpe_symbol_label("</w>") == "</w>"


def test_words_html_escapes_every_token_and_word():
    views = [WordView("<img src=x onerror=alert(1)>", 3, (("<img", 300), (" src=x onerror=alert(1)>", 301)))]
    html = bpe_words_html(views)
    assert "<img" not in html and "&lt;img" in html
    assert "onerror=alert(1)&gt;" in html and "×3" in html
    assert "No words" in bpe_words_html([])


def test_words_at_step_and_probe_rows():
    m = train_bpe(SEED_002.corpus(), SEED_002.options)
    views = bpe_words_at_step(m, 12)
    assert [(v.word, v.count) for v in views[:3]] == [("load", 20), ("loader", 20), ("loading", 20)]
    rows = bpe_fired_rows(probe_bpe(m, "data data"))
    assert rows[0] == {"merge": 4, "pair": "t + a", "new": "ta", "times": 2, "at characters": "2, 7"}


def test_training_charts_mark_the_step():
    m = train_bpe(SEED_002.corpus(), SEED_002.options)
    spec = training_chart(m, measure="vocabulary size", step=5).to_dict()
    assert len(spec["layer"]) == 2 and spec["layer"][1]["mark"]["type"] == "rule"
    frame = training_frame(m)
    assert list(frame["merges"]) == list(range(13))
    assert list(frame["vocabulary size"]) == [13 + i for i in range(13)]  # 13 start symbols
    assert frame["corpus tokens"].iloc[0] == m.initial_tokens
    bars = merge_count_chart(m, step=3).to_dict()
    assert bars["layer"][0]["mark"]["type"] == "bar"
    with pytest.raises(ValueError, match="measure"):
        training_chart(m, measure="speed")


def test_long_runs_are_thinned_for_drawing():
    text = BPE_PRESETS["Python code (4 KB)"].corpus() + BPE_PRESETS["English prose (4 KB)"].corpus()
    m = train_bpe(text * 3, BPEOptions(pretokenizer="cl100k", merges=1800))
    frame = training_frame(m)
    assert len(frame) <= MAX_POINTS + 2 and frame["merges"].iloc[-1] == len(m.steps)
    assert merge_count_chart(m).to_dict()["layer"][0]["mark"]["type"] == "line"


def test_counts_as_text_gives_back_the_counts_in_order():
    counts = {"get": 6, "set": 5, "reset": 3, "getter": 2, "setter": 2, "offset": 1}
    assert count_words(counts_as_text(counts)) == counts
    assert list(count_words(counts_as_text(counts))) == list(counts)


def test_words_html_colours_are_classes():
    views = [WordView("lower", 2, (("low", 300), ("er", 301))), WordView("low", 5, (("low", 300),))]
    out = bpe_words_html(views)
    body = out.rsplit("</style>", 1)[1]
    assert "style=" not in body and body.count('class="tw-tok h') == 3


def test_plural_and_probe_summary_count_what_is_drawn():
    from tokenizer_core.bpe import bpe_tokens_summary, plural

    assert (plural(1, "merge"), plural(0, "merge"), plural(1200, "merge")) == (
        "1 merge",
        "0 merges",
        "1,200 merges",
    )
    m = train_bpe(SEED_002.corpus(), SEED_002.options)  # words end in </w>
    probe = probe_bpe(m, "loading datasets  reloading")
    drawn = [s for s in probe.segments if s.text]
    words = [s for s in drawn if not s.text.isspace()]
    spaces = [s for s in drawn if s.text.isspace()]
    assert (len(words), len(spaces), probe.n_tokens) == (10, 3, 16)  # 3 markers, drawn inside words
    assert bpe_tokens_summary(probe) == (
        "16 tokens for 27 characters: 10 in the words, 3 for spaces (⋅) and 3 end-of-word markers "
        "(in the last piece of each word; hover it)"
    )
    plain = train_bpe(SEED_000, BPEOptions(symbols="chars", merges=4, tie_break="smallest"))
    assert (
        bpe_tokens_summary(probe_bpe(plain, "getter"))
        == "3 tokens for 6 characters (2.00 characters per token)"
    )
