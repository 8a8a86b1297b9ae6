"""CSV in and out: translations files (separators, encodings, bad rows, clear errors) and the full table."""

from __future__ import annotations

import codecs
import csv
import io

import pytest

from tests.conftest import builtin
from tokenizer_core import LanguageError, language_table
from tokenizer_core.languages import language_rows_csv, parse_translations_csv, translations_csv


def csv_bytes(rows, *, delimiter=",", encoding="utf-8") -> bytes:
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter).writerows(rows)
    return buf.getvalue().encode(encoding)


def test_csv_good_file_with_names_codes_quotes_and_newlines(sample):
    data = csv_bytes([
        ["Language", "Text"],
        ["Hindi", "नमस्ते, दुनिया"],
        ["fr", 'Bonjour, "le monde"\net au revoir'],
        ["Welsh", "Diolch"],
    ])  # fmt: skip
    res = parse_translations_csv(data, filename="t.csv", known=sample)
    assert [l.code for l in res.languages] == ["hi", "fr", "welsh"]
    assert res.languages[1].text == 'Bonjour, "le monde"\net au revoir'
    assert res.languages[0].script == "Devanagari" and res.problems == []


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_other_separators(delimiter):
    data = csv_bytes([["language", "text"], ["Spanish", "hola, mundo"]], delimiter=delimiter)
    res = parse_translations_csv(data)
    assert res.delimiter == delimiter and res.languages[0].text == "hola, mundo"


def test_csv_with_bom_and_utf16():
    text = "language,text\nGreek,Γειά σου\n"
    assert parse_translations_csv(codecs.BOM_UTF8 + text.encode()).languages[0].text == "Γειά σου"
    assert parse_translations_csv(codecs.BOM_UTF16_LE + text.encode("utf-16-le")).languages[0].name == "Greek"


@pytest.mark.parametrize(
    ("header", "missing"),
    [
        ("lang_name,body", "'language' and no 'text'"),
        ("language,words_here", "'text'"),
        ("text,foo", "'language'"),
    ],
)
def test_csv_missing_columns_says_which_and_how_to_fix(header, missing):
    with pytest.raises(LanguageError) as exc:
        parse_translations_csv(f"{header}\nHindi,नमस्ते\n".encode(), filename="mine.csv")
    msg = str(exc.value)
    assert f"mine.csv has no {missing} column" in msg
    assert "language,text" in msg and header in msg


def test_csv_wrong_encoding_binary_and_empty_get_clear_messages():
    latin1 = "language,text\nFrench,café crème\n".encode("latin-1")
    with pytest.raises(LanguageError, match=r"not UTF-8 text .*invalid byte 0xe9.*Save it as UTF-8"):
        parse_translations_csv(latin1, filename="fr.csv")
    with pytest.raises(LanguageError, match="looks like a binary file"):
        parse_translations_csv(b"PK\x03\x04\x00\x00binary\x00zip", filename="x.csv")
    with pytest.raises(LanguageError, match="is empty"):
        parse_translations_csv(b"", filename="e.csv")
    with pytest.raises(LanguageError, match="is empty"):
        parse_translations_csv(b"   \n\n", filename="e.csv")


def test_csv_rows_with_empty_text_missing_name_or_duplicates_are_skipped_and_listed(sample):
    data = csv_bytes([
        ["language", "text"], ["Hindi", "नमस्ते"], ["Spanish", "   "], ["", "sin nombre"],
        ["hi", "दोबारा"], ["Tamil", "வணக்கம்"],
    ])  # fmt: skip
    res = parse_translations_csv(data, filename="t.csv", known=sample)
    assert [l.code for l in res.languages] == ["hi", "ta"]
    assert res.problems == [
        "Line 3 (Spanish): the text is empty, so the row was skipped.",
        "Line 4: no language name, so the row was skipped.",
        "Line 5 (hi): the same language as line 2; the first one was kept.",
    ]


def test_csv_unquoted_separator_in_a_text_is_reported_not_guessed():
    data = "language,text\nHindi,नमस्ते, दुनिया\nGreek,Γειά σου,,\n".encode()
    res = parse_translations_csv(data, filename="t.csv")
    assert [l.name for l in res.languages] == ["Greek"]  # trailing empty cells are fine
    expected = (
        "Line 2 (Hindi): 3 cells where the first line names 2 columns, so the row was skipped. "
        'Put a text that contains the separator in double quotes ("like, this").'
    )
    assert res.problems == [expected]


def test_csv_with_no_usable_row_is_an_error():
    with pytest.raises(LanguageError, match="no usable row.*Line 2 \\(Hindi\\): the text is empty"):
        parse_translations_csv(b"language,text\nHindi,\n", filename="t.csv")


def test_csv_round_trip_of_the_sample(sample):
    res = parse_translations_csv(translations_csv(sample).encode("utf-8"), known=sample)
    assert res.languages == sample


def test_rows_csv_has_every_row_and_empty_cells_for_missing_words(sample):
    rows = language_table(sample, [builtin("cl100k_base")], base="en")
    out = list(csv.DictReader(io.StringIO(language_rows_csv(rows))))
    assert len(out) == len(sample)
    zh = next(r for r in out if r["code"] == "zh")
    assert zh["words"] == "" and zh["tokens_per_word"] == ""
    en = next(r for r in out if r["code"] == "en")
    assert en["premium"] == "1.0" and int(en["tokens"]) == builtin("cl100k_base").count(sample[0].text)


def test_rows_that_cannot_be_used_count_toward_the_row_cap():
    # 5,000 rows with one cell too many: before, none counted and the file gave 5,000 warnings
    data = ("language,text\n" + "".join(f"L{i},a,b\n" for i in range(5_000))).encode()
    with pytest.raises(LanguageError, match="more than 500 rows"):
        parse_translations_csv(data, filename="bad.csv")
