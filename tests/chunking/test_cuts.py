"""Where a document may be cut: graphemes, prose separators, Markdown blocks, code definitions."""

from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.chunking.cuts import (
    code_layout,
    grapheme_boundaries,
    indentation_layout,
    is_grapheme_boundary,
    line_cuts,
    markdown_blocks,
    paragraph_cuts,
    python_layout,
    sentence_cuts,
    snap_down,
    word_cuts,
    word_starts,
)

TRICKY = st.lists(
    st.sampled_from(
        [
            "a",
            " ",
            "\n",
            "\r\n",
            "\r",
            "e\u0301",
            "\u0301",
            "👨\u200d👩\u200d👧",
            "🇫🇷",
            "🇫",
            "\u200d",
            "中",
            "क्षि",
            "\U0001f3fd",
            "👍\U0001f3fd",
            "\t",
            "x\u20dd",
            "\u1100\u1161\u11a8",
        ]  # fmt: skip
    ),
    max_size=25,
).map("".join)


def full_scan(text: str) -> set[int]:
    return {0, len(text)} | {m.end() for m in regex.finditer(r"\X", text)}


# ----------------------------------------------------------------------------- graphemes


def test_grapheme_boundary_known_cases():
    assert not is_grapheme_boundary("e\u0301x", 1)  # between e and its combining accent
    assert is_grapheme_boundary("e\u0301x", 2)
    assert not is_grapheme_boundary("a\r\nb", 2)  # CR LF is one cluster
    assert is_grapheme_boundary("a\r\nb", 3)
    family = "👨\u200d👩\u200d👧"
    assert [p for p in range(len(family) + 1) if is_grapheme_boundary(family, p)] == [0, len(family)]
    flags = "🇫🇷🇯🇵"  # two flags: a boundary only between the pairs
    assert [p for p in range(5) if is_grapheme_boundary(flags, p)] == [0, 2, 4]
    assert is_grapheme_boundary("ab", 0) and is_grapheme_boundary("ab", 2)


@settings(max_examples=300)
@given(TRICKY)
def test_grapheme_boundary_agrees_with_a_full_scan(text):
    expected = full_scan(text)
    assert {p for p in range(len(text) + 1) if is_grapheme_boundary(text, p)} == expected


@settings(max_examples=200)
@given(TRICKY, st.integers(0, 30), st.integers(0, 30))
def test_grapheme_boundaries_inside_a_range(text, a, b):
    a, b = sorted((min(a, len(text)), min(b, len(text))))
    assert grapheme_boundaries(text, a, b) == sorted(p for p in full_scan(text) if a < p < b)


def test_snap_down_goes_back_to_a_whole_cluster():
    text = "ab👨\u200d👩\u200d👧cd"
    assert snap_down(text, 5, 0) == 2
    assert snap_down(text, 2, 0) == 2
    assert snap_down("e\u0301", 1, 0) == 0


def test_grapheme_check_far_from_any_newline():
    text = "中" * 10_000 + "e\u0301" + "中" * 10
    assert not is_grapheme_boundary(text, 10_001)
    assert is_grapheme_boundary(text, 10_000) and is_grapheme_boundary(text, 10_002)


# ----------------------------------------------------------------------------- prose splitters


def test_paragraph_and_line_cuts_keep_separators_with_the_text_before():
    text = "one\ntwo\n\n\nthree\n  \nfour"
    assert paragraph_cuts(text, 0, len(text)) == [10, 19]
    assert text[:10] == "one\ntwo\n\n\n" and text[10:19] == "three\n  \n"
    assert line_cuts(text, 0, len(text)) == [4, 8, 9, 10, 16, 19]
    assert paragraph_cuts(text, 10, len(text)) == [19]  # only inside the range


def test_sentence_cuts():
    text = "It rained. Dr. Smith left early! Did he? e.g. not. 终于到了。然后呢"
    cuts = sentence_cuts(text, 0, len(text))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    assert pieces == ["It rained. ", "Dr. Smith left early! ", "Did he? e.g. not. ", "终于到了。", "然后呢"]


def test_sentence_cut_needs_a_capital_or_other_non_lowercase_start():
    assert sentence_cuts("version 2. then more", 0, 20) == []
    assert sentence_cuts('Done. 2 more. "Quoted." Yes', 0, 27) == [6, 14, 24]


def test_word_cuts_and_starts():
    text = "ab  cd\tef\n gh"
    assert word_cuts(text, 0, len(text)) == [4, 7, 11]
    assert word_starts(text, 0, len(text)) == [4, 7, 11]
    assert word_starts(text, 4, len(text)) == [4, 7, 11]
    assert word_cuts(" \u0301x", 0, 3) == []  # a combining mark after a space joins it


@settings(max_examples=150)
@given(TRICKY)
def test_splitters_never_cut_a_cluster(text):
    bounds = full_scan(text)
    for split in (paragraph_cuts, line_cuts, sentence_cuts, word_cuts):
        cuts = split(text, 0, len(text))
        assert cuts == sorted(set(cuts))
        assert all(0 < c < len(text) and c in bounds for c in cuts)


# ----------------------------------------------------------------------------- Markdown


def test_markdown_blocks_tile_the_text_with_sections():
    text = (
        "# Guide\n\nIntro text.\nSecond line.\n\n## Install\n\n```sh\npip install x\n\n\nmore\n```\n\n"
        "- one\n- two\n\nSetext title\n============\n\nBody.\n"
    )
    blocks = markdown_blocks(text)
    assert [(b.kind, text[b.start : b.end]) for b in blocks] == [
        ("heading", "# Guide\n\n"),
        ("paragraph", "Intro text.\nSecond line.\n\n"),
        ("heading", "## Install\n\n"),
        ("code", "```sh\npip install x\n\n\nmore\n```\n\n"),  # blank lines inside a fence stay
        ("list", "- one\n- two\n\n"),
        ("heading", "Setext title\n============\n\n"),
        ("paragraph", "Body.\n"),
    ]
    assert [b.section for b in blocks] == ["Guide", "Guide", "Guide > Install", "Guide > Install",
                                           "Guide > Install", "Setext title", "Setext title"]  # fmt: skip
    assert [b.level for b in blocks if b.kind == "heading"] == [1, 2, 1]


def test_markdown_unclosed_fence_and_leading_blank_lines():
    text = "\n\n```\ncode\n# not a heading\n"
    blocks = markdown_blocks(text)
    assert [(b.kind, text[b.start : b.end]) for b in blocks] == [
        ("blank", "\n\n"),
        ("code", "```\ncode\n# not a heading\n"),
    ]


@settings(max_examples=150)
@given(
    st.lists(
        st.sampled_from(["# H\n", "text\n", "\n", "```\n", "- a\n", "===\n", "---\n", "  \n", "x\r\n"]),
        max_size=20,
    ).map("".join)
)
def test_markdown_blocks_always_tile(text):
    blocks = markdown_blocks(text)
    assert "".join(text[b.start : b.end] for b in blocks) == text
    assert all(a.end == b.start for a, b in zip(blocks, blocks[1:]))


# ----------------------------------------------------------------------------- code


PYTHON = '''import os

# the comment above f stays with it
@decorator
def f():
    """doc"""
    return 1

X = 1
Y = 2

class A:
    def m(self):
        pass

    def n(self):
        pass
'''


def test_python_layout_top_level_definitions_with_decorators_and_comments():
    layout = python_layout(PYTHON)
    assert layout.method == "python"
    top_defs, top_any, inner = layout.levels
    line = lambda s: PYTHON.index(s)  # noqa: E731
    assert list(top_defs) == [line("# the comment"), line("X = 1"), line("class A")]
    assert list(top_any) == [line("# the comment"), line("X = 1"), line("Y = 2"), line("class A")]
    assert list(inner) == [line("    return 1"), line("    def n")]
    names = [name for _, _, name in layout.definitions]
    assert names == ["f", "A", "A.m", "A.n"]


def test_code_layout_falls_back_to_indentation():
    js = "import x from 'y';\n\nfunction a() {\n  return 1;\n}\nfunction b() {\n}\n\n// note\nconst c = 2;\n"
    assert python_layout(js) is None
    layout = code_layout(js)
    assert layout.method == "indentation"
    blocks, top = layout.levels
    assert [js[p:].split("\n")[0] for p in blocks] == ["function a() {", "function b() {", "// note"]
    assert "const c = 2;" in [js[p:].split("\n")[0] for p in top]


def test_indentation_layout_skips_closers():
    src = "if x:\n    y\nelse:\n    z\n\nend\n"
    assert [src[p:].split("\n")[0] for p in indentation_layout(src).levels[1]] == []
