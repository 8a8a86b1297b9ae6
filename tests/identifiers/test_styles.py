"""Naming styles and word splitting, by the rules documented in tokenizer_core/identifiers/styles.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.identifiers import STYLES, TARGET_STYLES, split_identifier
from tokenizer_core.identifiers.styles import classify_style, convert_style, split_words, style_variants

SPLITS = [
    # the cases
    ("parseHTTPResponse2xx", ["parse", "HTTP", "Response", "2xx"], "camelCase"),
    ("getUserById", ["get", "User", "By", "Id"], "camelCase"),
    ("__init__", ["init"], "single word"),
    ("user_id_v2", ["user", "id", "v2"], "snake_case"),
    ("größe", ["größe"], "single word"),
    # acronyms
    ("XMLHttpRequest", ["XML", "Http", "Request"], "PascalCase"),
    ("IOError", ["IO", "Error"], "PascalCase"),
    ("HTMLParser", ["HTML", "Parser"], "PascalCase"),
    ("userIDs", ["user", "IDs"], "camelCase"),
    ("URLsByHost", ["URLs", "By", "Host"], "PascalCase"),
    ("userID", ["user", "ID"], "camelCase"),
    # digits (the documented rule)
    ("utf8", ["utf8"], "single word"),
    ("int32", ["int32"], "single word"),
    ("HTTP2Server", ["HTTP2", "Server"], "PascalCase"),
    ("x86_64", ["x86", "64"], "snake_case"),
    ("MAX_RETRIES_3", ["MAX", "RETRIES", "3"], "SCREAMING_SNAKE"),
    ("vector3d", ["vector", "3d"], "camelCase"),
    ("base64Encode", ["base64", "Encode"], "camelCase"),
    ("i18n", ["i18n"], "single word"),
    ("k8s", ["k8s"], "single word"),
    ("a11y", ["a11y"], "single word"),
    # styles
    ("_private_name", ["private", "name"], "snake_case"),
    ("MAX_SIZE", ["MAX", "SIZE"], "SCREAMING_SNAKE"),
    ("my-func", ["my", "func"], "kebab-case"),
    ("apt-get", ["apt", "get"], "kebab-case"),
    ("get_userName", ["get", "user", "Name"], "mixed"),
    ("Snake_Case", ["Snake", "Case"], "mixed"),
    ("snake-and_kebab", ["snake", "and", "kebab"], "mixed"),
    ("Kebab-Case", ["Kebab", "Case"], "mixed"),
    ("TIMEOUT", ["TIMEOUT"], "single word"),
    ("User", ["User"], "single word"),
    ("x", ["x"], "single word"),
    ("$scope", ["scope"], "single word"),
    ("camelCase_", ["camel", "Case"], "camelCase"),
    # unicode
    ("Größe_Tabelle", ["Größe", "Tabelle"], "mixed"),
    ("größe_tabelle", ["größe", "tabelle"], "snake_case"),
    ("ÜberKlasse", ["Über", "Klasse"], "PascalCase"),
    ("getÄpfel", ["get", "Äpfel"], "camelCase"),
    ("数据处理", ["数据处理"], "single word"),
    ("gro\u0308ße", ["gro\u0308ße"], "single word"),  # combining mark stays in its word
]


@pytest.mark.parametrize(("name", "words", "style"), SPLITS, ids=[s[0] for s in SPLITS])
def test_split_and_style(name, words, style):
    assert split_words(name) == words
    assert classify_style(name) == style


def test_affixes_are_kept_apart():
    s = split_identifier("__init__")
    assert (s.prefix, s.words, s.suffix, s.core) == ("__", ("init",), "__", "init")
    s = split_identifier("_private_name")
    assert (s.prefix, s.words, s.spans) == ("_", ("private", "name"), ((1, 8), (9, 13)))


@pytest.mark.parametrize("name", ["_", "__", "$", "$$"])
def test_names_without_letters(name):
    s = split_identifier(name)
    assert s.words == () and classify_style(name) == "single word"
    assert all(convert_style(name, style) == name for style in TARGET_STYLES)


CONVERSIONS = [
    ("get_user_by_id", {"snake_case": "get_user_by_id", "camelCase": "getUserById", "PascalCase": "GetUserById",
                        "kebab-case": "get-user-by-id", "SCREAMING_SNAKE": "GET_USER_BY_ID"}),
    ("parseHTTPResponse2xx", {"snake_case": "parse_http_response_2xx", "camelCase": "parseHttpResponse2xx",
                              "PascalCase": "ParseHttpResponse2xx", "kebab-case": "parse-http-response-2xx",
                              "SCREAMING_SNAKE": "PARSE_HTTP_RESPONSE_2XX"}),
    ("_private_name", {"camelCase": "_privateName", "PascalCase": "_PrivateName", "kebab-case": "_private-name"}),
    ("__dunder_name__", {"camelCase": "__dunderName__", "SCREAMING_SNAKE": "__DUNDER_NAME__"}),
    ("x86_64", {"camelCase": "x86_64", "PascalCase": "X86_64", "kebab-case": "x86-64"}),
    ("größe_in_kg", {"camelCase": "größeInKg", "SCREAMING_SNAKE": "GRÖSSE_IN_KG"}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "expected"), CONVERSIONS, ids=[c[0] for c in CONVERSIONS])
def test_convert_style(name, expected):
    for style, text in expected.items():
        assert convert_style(name, style) == text


def test_style_variants_and_bad_style():
    assert style_variants("user_id") == {
        "snake_case": "user_id", "camelCase": "userId", "PascalCase": "UserId", "kebab-case": "user-id",
        "SCREAMING_SNAKE": "USER_ID",
    }  # fmt: skip
    with pytest.raises(ValueError, match="style must be one of"):
        convert_style("x", "Title Case")
    assert set(TARGET_STYLES) < set(STYLES)


# Words of two or more letters: with one-letter words camel/PascalCase is ambiguous (see below).
WORD = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzäöü"), min_size=2, max_size=8)


def test_one_letter_words_are_ambiguous_in_pascal_case():
    # "a a" in PascalCase is "AA", which reads back as one acronym: the split cannot be undone
    assert convert_style("a_a", "PascalCase") == "AA"
    assert split_words("AA") == ["AA"]
    assert split_words(convert_style("a_b_c", "camelCase")) == ["a", "BC"]


@settings(max_examples=200)
@given(words=st.lists(WORD, min_size=2, max_size=5), style=st.sampled_from(TARGET_STYLES))
def test_rewriting_lowercase_words_gives_that_style_and_keeps_the_words(words, style):
    name = convert_style("_".join(words), style)
    assert classify_style(name) == style
    assert [w.lower() for w in split_words(name)] == words


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from("aBcD9_-$éÖ数\u0308x"), max_size=24))
def test_word_spans_are_in_order_inside_the_name(name):
    s = split_identifier(name)
    pos = len(s.prefix)
    for (start, end), word in zip(s.spans, s.words):
        assert pos <= start < end <= len(name) - len(s.suffix)
        assert name[start:end] == word
        assert "_" not in word and "-" not in word
        pos = end
    # nothing but separators is left out of the words
    covered = set().union(*(range(a, b) for a, b in s.spans)) if s.spans else set()
    rest = [name[i] for i in range(len(s.prefix), len(name) - len(s.suffix)) if i not in covered]
    assert all(c in "_-" for c in rest)
    assert classify_style(name) in STYLES
