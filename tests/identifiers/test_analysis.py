"""Identifier analysis per tokenizer: alone, in context, alignment, styles, shares, CSV."""

from __future__ import annotations

import csv
import io

import pytest

from tests.conftest import builtin
from tokenizer_core.identifiers import (
    analyse_identifiers,
    extract_identifiers,
    filter_rows,
    identifier_records,
    identifiers_csv,
    load_code_file,
    naming_costs,
    rewrite_costs,
    split_identifier,
    style_summary,
)
from tokenizer_core.identifiers.analysis import KIND_PRIORITY, token_cuts, word_alignment
from tokenizer_core.identifiers.greedy import GreedyTokenizer
from tokenizer_core.identifiers.naming import rewrite_code

REAL = ["o200k_base", "cl100k_base", "llama3"]
SEED_CODE = "def calculate_total(items):\n    return getUserById(id) + response.json() + qx9_zz\n"


@pytest.fixture(scope="module")
def seed_analysis():
    ex = extract_identifiers(SEED_CODE, "python")
    return analyse_identifiers(SEED_CODE, [GreedyTokenizer()], extraction=ex)


def test_seed_splits_through_the_analysis(seed_analysis):
    # known answers: the seed's greedy tokenizer and its printed splits
    calc = seed_analysis.row("calculate_total").costs[0]
    assert calc.pieces == ("calc", "ulate", "_", "total") and calc.alone_tokens == 4
    assert calc.aligned is False and calc.words_cut == 1  # "calc|ulate" cuts the word "calculate"
    user = seed_analysis.row("getUserById").costs[0]
    assert user.pieces == ("get", "User", "By", "Id") and user.aligned is True and user.words_cut == 0
    qx = seed_analysis.row("qx9_zz").costs[0]
    assert qx.pieces == ("q", "x", "9", "_", "z", "z") and qx.alone_tokens == 6
    assert qx.words_cut == 2  # words qx9 and zz are both cut
    assert seed_analysis.row("items").costs[0].pieces == ("items",)


def test_most_expensive_first(seed_analysis):
    order = [r.name for r in seed_analysis.rows]
    # qx9_zz costs a token per character: it must come before every cheaper name
    assert order[0] == "qx9_zz"
    ratios = [r.tokens_per_char for r in seed_analysis.rows]
    assert ratios == sorted(ratios, reverse=True)


def test_alignment_helpers():
    split = split_identifier("calculate_total")
    assert word_alignment(split, [4, 9, 10]) == (False, 1)
    assert word_alignment(split, [9]) == (True, 0)  # calculate|_total: a token may span "_total"
    assert word_alignment(split_identifier("_"), [1]) == (True, 0)
    segs = GreedyTokenizer().segments("calculate_total")
    assert token_cuts(segs, 0, 15) == [4, 9, 10]


@pytest.fixture(scope="module")
def inventory():
    text, lang = load_code_file("inventory.py")
    ex = extract_identifiers(text, lang)
    toks = [builtin(t) for t in REAL]
    return text, ex, toks, analyse_identifiers(text, toks, extraction=ex)


def test_in_context_tokens_are_the_file_tokens_over_the_name(inventory):
    text, ex, toks, an = inventory
    for k, tok in enumerate(toks):
        segs = tok.segments(text)
        assert an.file_tokens[tok.id] == tok.count(text) == sum(len(s.ids) for s in segs)
        for o, n in zip(ex.occurrences, an.occurrence_tokens[tok.id]):
            expected = sum(len(s.ids) for s in segs if s.start < o.end and s.end > o.start)
            assert n == expected
        for row in an.rows[:25]:
            c = row.costs[k]
            assert "".join(c.pieces) == row.name
            assert c.alone_tokens == tok.count(row.name)
            context = "".join(c.context_pieces)
            assert row.name in context  # the first use, with what merged around it
            uses = [n for o, n in zip(ex.occurrences, an.occurrence_tokens[tok.id]) if o.name == row.name]
            assert c.context_total == sum(uses) and c.context_first == uses[0]


def test_leading_space_or_punctuation_is_part_of_the_context_split(inventory):
    text, ex, toks, an = inventory
    row = an.row("calculate_total")
    for c in row.costs:
        # the definition "def calculate_total(" : the first piece carries the space before the name
        assert c.context_pieces[0].startswith(" ")
        assert c.pieces[0] == c.context_pieces[0].lstrip()


def test_kinds_add_up_and_identifier_share(inventory):
    text, ex, toks, an = inventory
    for tok in toks:
        kinds = an.kind_tokens[tok.id]
        assert set(kinds) == set(KIND_PRIORITY)
        assert sum(kinds.values()) == an.file_tokens[tok.id]
        # a token counts for identifiers iff it overlaps an identifier's characters
        spans = [(o.start, o.end) for o in ex.occurrences]
        overlapping = sum(
            len(s.ids) for s in tok.segments(text) if any(a < s.end and s.start < b for a, b in spans)
        )
        assert kinds["identifier"] == overlapping
        assert 0.2 < an.identifier_share(tok.id) < 0.6


def test_naming_costs_match_real_counts():
    toks = [builtin(t) for t in REAL]
    costs = naming_costs("getUserById", toks)
    assert [c.text for c in costs] == [
        "get_user_by_id",
        "getUserById",
        "GetUserById",
        "get-user-by-id",
        "GET_USER_BY_ID",
    ]
    assert [c.original for c in costs] == [False, True, False, False, False]
    for c in costs:
        for t in toks:
            assert c.tokens[t.id] == t.count(c.text)
            assert c.tokens_after_space[t.id] == t.count(" " + c.text)
    assert [c.text for c in naming_costs("items", toks)] == ["items", "Items", "ITEMS"]


def test_rewrite_code_renames_multiword_names_only():
    code = "user_id = get_user(user_id)  # user_id\nprint(len(x), MAX_SIZE)\n"
    ex = extract_identifiers(code, "python")
    new, changed = rewrite_code(code, ex, "camelCase")
    assert new == "userId = getUser(userId)  # user_id\nprint(len(x), maxSize)\n"
    assert changed == 3
    costs = rewrite_costs(code, ex, [builtin("cl100k_base")])
    assert costs[0].style == "as written" and costs[0].tokens["cl100k_base"] == builtin("cl100k_base").count(
        code
    )
    camel = next(c for c in costs if c.style == "camelCase")
    assert camel.tokens["cl100k_base"] == builtin("cl100k_base").count(new)


def test_style_summary_and_filters(inventory):
    text, ex, toks, an = inventory
    summaries = style_summary(an)
    snake = next(s for s in summaries if s.style == "snake_case")
    rows = [r for r in an.rows if r.style == "snake_case" and r.where == "code"]
    assert snake.identifiers == len(rows)
    assert snake.mean_tokens["cl100k_base"] == pytest.approx(
        sum(r.costs[1].alone_tokens for r in rows) / len(rows)
    )
    assert all(r.style == "camelCase" for r in filter_rows(an.rows, styles=["camelCase"]))
    assert {r.name for r in filter_rows(an.rows, query="RESERV")} == {"MAX_RESERVATION_MINUTES", "reserve_stock",
                                                                      "reserved", "include_reserved"}  # fmt: skip
    assert not any(r.builtin for r in filter_rows(an.rows, include_builtins=False))
    assert all(r.occurrences >= 5 for r in filter_rows(an.rows, min_occurrences=5))
    builtins_hidden = style_summary(an, include_builtins=False)
    assert sum(s.identifiers for s in builtins_hidden) == sum(1 for r in an.rows if not r.builtin)


def test_records_and_csv(inventory):
    text, ex, toks, an = inventory
    records = identifier_records(an)
    assert len(records) == len(an.rows)
    first = records[0]
    assert list(first)[:6] == ["identifier", "occurrences", "style", "words", "chars", "tokens/char"]
    assert first["o200k_base split"] == "|".join(an.rows[0].costs[0].pieces)
    parsed = list(csv.DictReader(io.StringIO(identifiers_csv(an))))
    assert len(parsed) == len(an.rows)
    row = next(r for r in parsed if r["identifier"] == "größe_in_kg")
    assert row["words"] == "größe in kg" and row["style"] == "snake_case"
    assert int(row["cl100k_base tokens"]) == builtin("cl100k_base").count("größe_in_kg")
    subset = identifiers_csv(an, an.rows[:2])
    assert len(list(csv.DictReader(io.StringIO(subset)))) == 2
    assert identifiers_csv(an, []).startswith("identifier,")


def test_empty_code_and_no_identifiers():
    tok = builtin("cl100k_base")
    for code in ["", "   \n", "# only a comment\n", "'''just a string'''\n"]:
        an = analyse_identifiers(code, [tok], extraction=extract_identifiers(code, "python"))
        assert an.rows == () and an.file_tokens["cl100k_base"] == tok.count(code)
        assert an.identifier_share("cl100k_base") == 0.0


@pytest.mark.parametrize("tid", ["o200k_base", "cl100k_base", "qwen", "tekken", "r50k_base"])
def test_fast_alone_splits_equal_segments(tid):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from tokenizer_core.identifiers.analysis import alone_splits

    tok = builtin(tid)

    @settings(max_examples=60)
    @given(st.lists(st.text(alphabet=st.sampled_from("abcXYZ_09$-ßé数\u0308 "), min_size=1, max_size=20),
                    min_size=1, max_size=8))  # fmt: skip
    def check(names):
        got = alone_splits(tok, names)
        for name in names:
            segs = tok.segments(name)
            assert got[name] == (tuple(s.text for s in segs), tuple(s.ids for s in segs))

    check()
