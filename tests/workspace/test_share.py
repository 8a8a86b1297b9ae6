"""Counting table, uploads decoding, share links, the layer rule, the counter chart."""

from __future__ import annotations

import codecs
import csv
import io
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ROOT, builtin
from tokenizer_core import CountRow, InputError, count_table, decode_text
from tokenizer_core.tokenizers import load_sample
from tokenizer_core.tokenizers.textio import sample_names
from tokenizer_core.workspace import pack_text, read_share_params, rows_to_csv, unpack_text
from tokenizer_core.workspace.counting import text_stats
from tokenizer_core.workspace.share import MAX_SHARED_TEXT_BYTES, share_params


def test_text_stats():
    s = text_stats("héllo world\nनमस्ते 😀")
    assert (s.characters, s.words, s.lines) == (20, 4, 2)
    assert s.utf8_bytes == len("héllo world\nनमस्ते 😀".encode())
    assert text_stats("") == text_stats("")
    assert text_stats("").lines == 0


def test_count_table_uses_the_real_counts():
    text = load_sample("mixed")
    toks = [builtin("o200k_base"), builtin("cl100k_base"), builtin("llama3")]
    rows = count_table(text, toks, context_window=128_000)
    for row, tok in zip(rows, toks):
        assert row.tokens == len(tok.encode(text))
        assert row.characters == len(text)
        assert row.chars_per_token == round(len(text) / row.tokens, 3)
        assert row.context_pct == round(100 * row.tokens / 128_000, 3)
    assert rows[0].tokens < rows[1].tokens  # o200k is more compact than cl100k on this mix


def test_count_table_empty_text_and_bad_window():
    rows = count_table("", [builtin("o200k_base")], context_window=10)
    assert rows[0].tokens == 0 and rows[0].chars_per_token is None
    with pytest.raises(ValueError, match="positive"):
        count_table("x", [builtin("o200k_base")], context_window=0)


def test_csv_has_a_header_and_one_line_per_tokenizer():
    rows = count_table("hello world", [builtin("o200k_base"), builtin("r50k_base")], context_window=100)
    parsed = list(csv.DictReader(io.StringIO(rows_to_csv(rows))))
    assert [r["tokenizer_id"] for r in parsed] == ["o200k_base", "r50k_base"]
    assert parsed[0]["tokens"] == "2" and set(parsed[0]) == set(CountRow.__dataclass_fields__)


@pytest.mark.parametrize(
    "data, expected",
    [
        ("plain ✓".encode(), "plain ✓"),
        (codecs.BOM_UTF8 + b"bom", "bom"),
        (codecs.BOM_UTF16_LE + "utf16 ✓".encode("utf-16-le"), "utf16 ✓"),
        (codecs.BOM_UTF16_BE + "be".encode("utf-16-be"), "be"),
    ],
)
def test_decode_text_accepts_utf8_and_utf16(data, expected):
    assert decode_text(data) == expected


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        (bytes(range(1, 32)) * 20, "binary"),
        ("café".encode("latin-1"), "not UTF-8"),
    ],
)
def test_decode_text_rejects_with_a_message(data, message):
    with pytest.raises(InputError, match=message) as exc:
        decode_text(data, filename="upload.txt")
    assert "upload.txt" in str(exc.value)


def test_samples_exist_and_the_mixed_one_has_everything_promised():
    assert {"mixed", "prose", "python", "json"} <= set(sample_names())
    mixed = load_sample("mixed")
    assert any("\u0900" <= c <= "\u097f" for c in mixed)  # Hindi
    assert any(ord(c) > 0x1F000 for c in mixed)  # emoji
    assert any(c.isdigit() for c in mixed) and "def " in mixed
    with pytest.raises(InputError):
        load_sample("nope")


@given(text=st.text(max_size=500))
def test_pack_unpack_round_trip(text):
    assert unpack_text(pack_text(text)) == text


def test_share_params_round_trip():
    params = share_params(
        tokenizers=["o200k_base", "llama3"], text="hi <b>\n😀", view="ids",
        context_window=8192, whitespace=True, allow_special=False,
    )  # fmt: skip
    state = read_share_params(params, known_tokenizers=["o200k_base", "llama3", "cl100k_base"])
    assert state.tokenizers == ["o200k_base", "llama3"]
    assert state.text == "hi <b>\n😀" and state.view == "ids"
    assert state.context_window == 8192 and state.whitespace is True and state.allow_special is False
    assert state.warnings == []


def test_chat_request_settings_round_trip():
    base = dict(
        tokenizers=["qwen"], text="hi", view="text", context_window=1, whitespace=False, allow_special=False
    )
    assert "chat" not in share_params(**base, system="ignored while chat is off")
    params = share_params(**base, chat=True, system="Be <b>brief</b>.\n😀")
    state = read_share_params(params, known_tokenizers=["qwen"])
    assert state.chat is True and state.system == "Be <b>brief</b>.\n😀" and state.warnings == []
    long = share_params(**base, chat=True, system="x" * (MAX_SHARED_TEXT_BYTES + 1))
    assert long["chat"] == "1" and "zs" not in long
    bad = read_share_params({"chat": "yes", "zs": "%%%"}, known_tokenizers=[])
    assert bad.chat is None and bad.system is None
    assert bad.warnings[0].startswith("chat system message: the shared text is damaged")
    assert bad.warnings[1] == "chat='yes' in the link should be 0 or 1"


def test_long_text_is_left_out_of_the_link():
    params = share_params(
        tokenizers=["o200k_base"], text="x" * (MAX_SHARED_TEXT_BYTES + 1), view="text",
        context_window=1, whitespace=False, allow_special=False,
    )  # fmt: skip
    assert "z" not in params


def test_damaged_links_give_warnings_not_exceptions():
    bomb = pack_text("a" * (MAX_SHARED_TEXT_BYTES * 10))
    state = read_share_params(
        {"tok": "o200k_base,nope", "z": "!!!notbase64", "view": "pixels", "ctx": "-5", "ws": "maybe"},
        known_tokenizers=["o200k_base"],
    )
    assert state.tokenizers == ["o200k_base"] and state.text is None
    assert len(state.warnings) == 5
    assert read_share_params({"z": bomb}, known_tokenizers=[]).warnings == ["the shared text is too long"]


def test_core_imports_without_streamlit():
    code = (
        "import sys, pkgutil, importlib, tokenizer_core\n"
        "for m in pkgutil.walk_packages(tokenizer_core.__path__, 'tokenizer_core.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert 'streamlit' not in sys.modules, 'streamlit was imported'\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_counter_chart_spec():
    from tokenizer_core.workspace.charts import token_count_chart

    rows = count_table("hello world", [builtin("o200k_base"), builtin("r50k_base")], context_window=100)
    spec = token_count_chart(rows).to_dict()
    data = next(iter(spec["datasets"].values()))
    assert [(d["tokenizer"], d["tokens"]) for d in data] == [("o200k_base", 2), ("r50k_base (gpt2)", 2)]
    assert spec["layer"][0]["mark"]["type"] == "bar"
    assert spec["layer"][0]["encoding"]["x"]["field"] == "tokens"


@pytest.mark.parametrize("z", ["!!!notbase64", "AAAA", pack_text("hello")[:-4], "_w"])
def test_a_damaged_text_in_a_link_is_said_in_words_not_an_exception_name(z):
    (warning,) = read_share_params({"z": z}, known_tokenizers=[]).warnings
    assert warning.startswith("the shared text is damaged (")
    assert "Error" not in warning and "(error)" not in warning and "incomplete)" not in warning
