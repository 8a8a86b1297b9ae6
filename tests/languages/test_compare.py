"""Language comparison core: the bundled sample, metrics, the premium, user input and CSV."""

from __future__ import annotations

import codecs
import csv
import io
import unicodedata
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tokenizer_core import InputError, Language, LanguageError, language_table
from tokenizer_core.languages import (
    detect_script,
    language_rows_csv,
    language_tokens_html,
    languages_from_records,
    languages_to_records,
    load_parallel_sample,
    merge_translations,
    parallel_sample_info,
    parse_translations_csv,
    premium,
    published_comparison,
    split_marks,
    summarize,
    translations_csv,
)
from tokenizer_core.languages.compare import find_language, language_order, slug_code, word_count

# The languages the page compares, with the ISO 639-1 code and the writing system each uses.
REQUIRED = {
    "en": ("English", "Latn"), "es": ("Spanish", "Latn"), "fr": ("French", "Latn"),
    "de": ("German", "Latn"), "pt": ("Portuguese", "Latn"), "ru": ("Russian", "Cyrl"),
    "tr": ("Turkish", "Latn"), "ar": ("Arabic", "Arab"), "he": ("Hebrew", "Hebr"),
    "fa": ("Persian", "Arab"), "hi": ("Hindi", "Deva"), "bn": ("Bengali", "Beng"),
    "ur": ("Urdu", "Arab"), "ta": ("Tamil", "Taml"), "te": ("Telugu", "Telu"),
    "mr": ("Marathi", "Deva"), "th": ("Thai", "Thai"), "vi": ("Vietnamese", "Latn"),
    "id": ("Indonesian", "Latn"), "zh": ("Chinese (Simplified)", "Hans"), "ja": ("Japanese", "Jpan"),
    "ko": ("Korean", "Kore"), "sw": ("Swahili", "Latn"), "am": ("Amharic", "Ethi"),
    "my": ("Burmese", "Mymr"), "el": ("Greek", "Grek"),
}  # fmt: skip
NO_SPACES = {"zh", "ja", "th", "my"}  # written without spaces between words
RTL = {"ar", "he", "fa", "ur"}


@pytest.fixture(scope="module")
def sample() -> list[Language]:
    return load_parallel_sample()


def by_code(langs, *codes):
    d = {l.code: l for l in langs}
    return [d[c] for c in codes]


# ------------------------------------------------------------------------------ the sample


def test_sample_has_every_required_language_with_code_name_and_script(sample):
    codes = [l.code for l in sample]
    assert len(codes) == len(set(codes)) >= 24
    assert set(REQUIRED) <= set(codes)
    assert codes[0] == "en"
    for lang in sample:
        name, script_code = REQUIRED[lang.code]
        assert lang.name == name
        assert lang.script_code == script_code
        assert lang.script and lang.native_name
        assert lang.direction == ("rtl" if lang.code in RTL else "ltr")
        assert lang.whitespace_words is (lang.code not in NO_SPACES)


def test_sample_texts_are_clean_nfc_prose_in_their_own_script(sample):
    for lang in sample:
        t = lang.text
        assert t == t.strip() and 100 <= len(t) <= 1_000, lang.code
        assert unicodedata.is_normalized("NFC", t), lang.code
        assert "\ufffd" not in t and "\ud800" not in t
        # the same content: the 24-hour link appears in every version
        assert "24" in t, lang.code
        if lang.code != "en":
            assert t != by_code(sample, "en")[0].text


def test_sample_script_agrees_with_the_characters(sample):
    for lang in sample:
        guess = detect_script(lang.text)
        expected = {"Hans": "Hani", "Kore": "Hang"}.get(lang.script_code, lang.script_code)
        assert guess.script_code == expected, lang.code
        assert guess.direction == lang.direction
        assert guess.whitespace_words == lang.whitespace_words


def test_persian_and_urdu_use_their_own_letters_not_arabic_yeh_and_kaf(sample):
    for lang in by_code(sample, "fa", "ur"):
        assert "\u064a" not in lang.text and "\u0643" not in lang.text  # ي ك
        assert "\u06cc" in lang.text and "\u06a9" in lang.text  # ی ک


def test_provenance_is_stated_honestly():
    info = parallel_sample_info()
    assert info.n_languages >= 24
    text = info.provenance.lower()
    assert "written for tokenizer workbench" in text
    assert "machine assistance" in text
    assert "not been reviewed by native speakers" in text


# ------------------------------------------------------------------------------ metrics


@pytest.mark.parametrize("tid", [pytest.param(i, id=i) for i in ALL_IDS])
def test_counts_equal_the_tokenizers_own_counts(sample, tid):
    tok = builtin(tid)
    rows = language_table(sample, [tok], base="en")
    assert [r.code for r in rows] == [l.code for l in sample]
    for row, lang in zip(rows, sample):
        ids = tok.encode(lang.text)
        assert row.tokens == len(ids) == tok.count(lang.text)
        assert row.characters == len(lang.text)
        assert row.utf8_bytes == len(lang.text.encode("utf-8"))
        assert row.chars_per_token == len(lang.text) / len(ids)
        assert row.bytes_per_token == len(lang.text.encode("utf-8")) / len(ids)
        assert row.tokenizer_id == tid


def test_words_only_where_spaces_separate_words(sample):
    tok = builtin("o200k_base")
    rows = {r.code: r for r in language_table(sample, [tok], base="en")}
    for code in NO_SPACES:
        assert rows[code].words is None and rows[code].tokens_per_word is None
        assert "without spaces" in rows[code].words_note
    en = rows["en"]
    assert en.words == 63  # count the words of the English passage by hand: 63
    assert en.tokens_per_word == en.tokens / 63
    assert "syllable" in rows["vi"].words_note


@pytest.mark.parametrize("base", ["en", "hi", "zh", "ar", "my"])
def test_premium_of_the_base_is_exactly_one(sample, base):
    toks = [builtin(i) for i in ("o200k_base", "cl100k_base", "llama3")]
    rows = language_table(sample, toks, base=base)
    base_rows = [r for r in rows if r.code == base]
    assert len(base_rows) == 3
    assert all(r.premium == 1.0 and type(r.premium) is float and r.is_base for r in base_rows)
    for r in rows:
        assert r.base_code == base
        assert r.premium == r.tokens / r.base_tokens


def test_known_relations_from_the_literature(sample):
    """Petrov et al. 2023 / the seeds: Hindi needs more tokens than English under the GPT-4
    and GPT-2 tokenizers; o200k_base narrowed the gap; Burmese is among the most expensive."""
    toks = [builtin(i) for i in ("o200k_base", "cl100k_base", "r50k_base")]
    rows = {(r.code, r.tokenizer_id): r for r in language_table(sample, toks, base="en")}
    for tid in ("cl100k_base", "r50k_base"):
        assert rows["hi", tid].tokens > rows["en", tid].tokens
        assert rows["hi", tid].premium > 2
    assert rows["hi", "o200k_base"].tokens < rows["hi", "cl100k_base"].tokens
    assert rows["hi", "o200k_base"].premium < rows["hi", "cl100k_base"].premium
    # cl100k: Spanish 1.55 < Chinese 1.91 < Hindi 4.79 < Bengali 5.84 < Tamil 7.65 < Burmese 11.70
    cl = {c: rows[c, "cl100k_base"].premium for c in ("es", "hi", "ta", "my")}
    assert cl["es"] < cl["hi"] < cl["ta"] < cl["my"]
    # GPT-2 (r50k): Hindi 7.46, Burmese 16.89, both worse than under cl100k
    for c in ("hi", "my"):
        assert rows[c, "r50k_base"].premium > rows[c, "cl100k_base"].premium
    # English prose averages about four characters per token (seed 001)
    assert 3.5 <= rows["en", "cl100k_base"].chars_per_token <= 5


def test_published_comparison_lists_both_figures(sample):
    toks = [builtin("cl100k_base"), builtin("r50k_base")]
    comp = published_comparison(language_table(sample, toks, base="en"))
    pairs = {(c["language"], c["tokenizer"]): c for c in comp}
    assert pairs["Hindi", "cl100k_base"]["published (FLORES-200)"] == 4.79
    assert pairs["Burmese", "r50k_base (gpt2)"]["published (FLORES-200)"] == 16.89
    assert len(comp) == 8
    # another base: their figures are relative to English, so no comparison is offered
    assert published_comparison(language_table(sample, toks, base="hi")) == []


def test_summary_and_order(sample):
    tok = builtin("cl100k_base")
    rows = language_table(sample, [tok], base="en")
    (s,) = summarize(rows)
    prems = sorted(r.premium for r in rows if r.code != "en")
    assert s.languages == len(sample) - 1
    assert s.max_premium == prems[-1] and s.min_premium == prems[0]
    order = language_order(rows)
    assert order[0] == "English" and len(order) == len(sample)
    by_name = {r.language: r.premium for r in rows}
    assert [by_name[n] for n in order] == sorted(by_name.values())


@settings(max_examples=40)
@given(
    texts=st.lists(st.text(min_size=1, max_size=60).filter(lambda t: t.strip()), min_size=1, max_size=5),
    base_index=st.integers(min_value=0, max_value=4),
)
def test_premium_property_any_texts(texts, base_index):
    langs = [Language(f"x{i}", f"Lang {i}", "?", t.strip()) for i, t in enumerate(texts)]
    base = langs[base_index % len(langs)].code
    tok = builtin("o200k_base")
    rows = language_table(langs, [tok], base=base)
    base_tokens = tok.count(langs[base_index % len(langs)].text)
    for r, lang in zip(rows, langs):
        assert r.tokens == tok.count(lang.text)
        assert r.premium == r.tokens / base_tokens
        assert (r.premium == 1.0) if r.code == base else True


def test_premium_helper():
    assert premium(146, 73) == 2.0
    assert premium(73, 73) == 1.0
    assert premium(5, 0) is None


# ------------------------------------------------------------------------------ bad input


def test_empty_text_or_unknown_base_gets_a_clear_message(sample):
    tok = builtin("o200k_base")
    empty = [sample[0], Language("es", "Spanish", "Latin", "   ")]
    with pytest.raises(LanguageError, match="Spanish has no text"):
        language_table(empty, [tok], base="en")
    with pytest.raises(LanguageError, match="base language 'xx' is not among"):
        language_table(sample[:3], [tok], base="xx")
    with pytest.raises(LanguageError, match="No language to compare"):
        language_table([], [tok], base="en")
    with pytest.raises(LanguageError, match="used twice"):
        language_table([sample[0], sample[0]], [tok], base="en")
    with pytest.raises(LanguageError, match="Two languages are named 'English'"):
        language_table([sample[0], Language("en-x", "English", "Latin", "Hi")], [tok], base="en")
    assert issubclass(LanguageError, InputError)


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


def test_detect_script_examples():
    assert detect_script("नमस्ते दुनिया").script == "Devanagari"
    assert detect_script("こんにちは世界").script_code == "Jpan"
    assert detect_script("你好世界").whitespace_words is False
    assert detect_script("مرحبا بالعالم").direction == "rtl"
    assert detect_script("12345 !!").script == "Unknown"
    assert detect_script("").direction == "auto"


def test_find_and_slug(sample):
    assert find_language("HINDI", sample).code == "hi"
    assert find_language("हिन्दी", sample).code == "hi"
    assert find_language("zz", sample) is None
    assert slug_code("Scottish Gaelic") == "scottish-gaelic"
    assert slug_code("!!!") == "lang"


# ------------------------------------------------------------------------------ CSV


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


# ------------------------------------------------------------------------------ CSV out, HTML


def test_rows_csv_has_every_row_and_empty_cells_for_missing_words(sample):
    rows = language_table(sample, [builtin("cl100k_base")], base="en")
    out = list(csv.DictReader(io.StringIO(language_rows_csv(rows))))
    assert len(out) == len(sample)
    zh = next(r for r in out if r["code"] == "zh")
    assert zh["words"] == "" and zh["tokens_per_word"] == ""
    en = next(r for r in out if r["code"] == "en")
    assert en["premium"] == "1.0" and int(en["tokens"]) == builtin("cl100k_base").count(sample[0].text)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.append(dict(attrs))

    def handle_data(self, data):
        self.text.append(data)


@pytest.mark.parametrize(
    "attack", ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", '"><svg onload=alert(1)>']
)
def test_tokens_html_escapes_text_and_sets_direction(attack):
    tok = builtin("o200k_base")
    text = f"مرحبا {attack}"
    out = language_tokens_html(tok.segments(text), direction="rtl", lang="ar")
    p = _Tags()
    p.feed(out)
    assert set(p.tags) == {"div", "span"}
    assert p.attrs[0]["dir"] == "rtl" and p.attrs[0]["lang"] == "ar"
    assert "".join(p.text) == text


def test_tokens_html_rejects_odd_direction_and_lang():
    out = language_tokens_html([], direction='rtl" onclick="x', lang='en" onclick="x')
    assert out.startswith('<div class="tw-lang" dir="auto" style')
    assert "onclick" not in out


def test_split_marks_counts_vowel_signs_cut_from_their_letter(sample):
    hi = by_code(sample, "hi")[0].text
    # GPT-2's byte-level vocabulary has few Devanagari pieces: signs end up in their own tokens
    assert split_marks(builtin("r50k_base").segments(hi)) > 0
    assert split_marks(builtin("o200k_base").segments("Thank you")) == 0
    assert split_marks([]) == 0


def test_special_token_text_emoji_and_cjk_count_as_plain_text():
    text = "Reply <|endoftext|> now 🚀 你好 <|eot_id|>"
    langs = [Language("en", "English", "Latin", "Reply now"), Language("x", "Mixed", "?", text)]
    for tid in ("o200k_base", "llama3"):
        tok = builtin(tid)
        (_, row) = language_table(langs, [tok], base="en")
        assert row.tokens == len(tok.encode(text)) > 10
