"""The user's languages from the page's table rows: problems reported, the rest kept; merging uploads."""

from __future__ import annotations

import pytest

from tokenizer_core import Language
from tokenizer_core.languages import (
    editor_row,
    languages_from_records,
    languages_to_records,
    merge_translations,
)
from tokenizer_core.languages.premiums import word_count
from tokenizer_core.languages.records import find_language, slug_code


def test_records_from_the_editor_report_problems_and_keep_the_rest(sample):
    records = languages_to_records(sample[:4])
    records[1]["text"] = ""  # Spanish emptied
    records.append({"code": None, "language": "Welsh", "script": None, "whitespace_words": None,
                    "text": "Diolch am gysylltu â ni."})  # fmt: skip
    records.append(
        {"code": None, "language": None, "script": None, "whitespace_words": None, "text": "orphan"}
    )
    records.append(
        {
            "code": float("nan"),
            "language": float("nan"),
            "script": None,
            "whitespace_words": None,
            "text": None,
        }
    )
    records.append(
        {"code": "", "language": "English", "script": "", "whitespace_words": None, "text": "again"}
    )
    langs, problems = languages_from_records(records, known=sample)
    assert [l.code for l in langs] == ["en", "fr", "de", "welsh"]
    assert langs[3].script == "Latin" and langs[3].whitespace_words and langs[3].direction == "ltr"
    assert any("Spanish has no text" in p for p in problems)
    assert any("Row 6 has a text but no language name" in p for p in problems)
    assert any("English (code en) appears twice, on rows 1 and 8" in p for p in problems)
    assert len(problems) == 3


def test_a_repeated_name_with_another_code_gets_its_code_added(sample):
    records = languages_to_records(sample[:1]) + [{"code": "en-GB", "language": "English", "text": "Cheers."}]
    langs, problems = languages_from_records(records, known=sample)
    assert problems == []
    assert [(l.code, l.name) for l in langs] == [("en", "English (en)"), ("en-GB", "English (en-GB)")]


def test_a_new_language_without_spaces_or_right_to_left_is_detected():
    langs, problems = languages_from_records(
        [{"language": "Lao", "text": "ຂອບໃຈທີ່ຕິດຕໍ່ພວກເຮົາ"}, {"language": "Yiddish", "text": "א דאַנק פֿאַר שרײַבן"}]
    )
    assert problems == []
    lao, yi = langs
    assert (lao.script, lao.whitespace_words, word_count(lao)) == ("Lao", False, None)
    assert (yi.script, yi.direction) == ("Hebrew", "rtl")


def test_huge_text_is_refused_with_the_limit():
    langs, problems = languages_from_records([{"language": "Big", "text": "a " * 600_000}])
    assert langs == [] and "limit is 1,000,000" in problems[0]


def test_find_and_slug(sample):
    assert find_language("HINDI", sample).code == "hi"
    assert find_language("हिन्दी", sample).code == "hi"
    assert find_language("zz", sample) is None
    assert slug_code("Scottish Gaelic") == "scottish-gaelic"
    assert slug_code("!!!") == "lang"


def test_merge_translations_replaces_by_code_and_appends(sample):
    records = languages_to_records(sample[:3])
    records[2]["text"] = ""  # what the user was typing stays as is
    incoming = [
        Language("es", "Spanish", "Latin", "Hola."),
        Language("cy", "Welsh", "Latin", "Diolch."),
    ]
    merged, replaced, added = merge_translations(records, incoming, known=sample)
    assert [r["code"] for r in merged] == ["en", "es", "fr", "cy"]
    assert merged[1]["text"] == "Hola." and merged[2]["text"] == ""
    assert (replaced, added) == (["Spanish"], ["Welsh"])


@pytest.mark.parametrize(
    ("cell", "tick"),
    [
        (True, True),
        (False, False),
        ("no", False),
        ("yes", True),
        (None, None),
        ("maybe", None),
        (float("nan"), None),
    ],
)
def test_an_editor_row_holds_texts_and_a_yes_no_or_none(cell, tick):
    row = editor_row(
        {"language": "Welsh", "text": "Bore da", "code": None, "whitespace_words": cell, "other": 1}
    )
    assert row == {"code": "", "language": "Welsh", "script": "", "whitespace_words": tick, "text": "Bore da"}
