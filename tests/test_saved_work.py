"""A page's saved work as the browser hands it back (tokenizer_core/saved_work.py): untrusted text,
read like any other input. Corrupt, tampered, oversized or old-version data gives nothing and a
note, never an exception; values of the wrong kind or keys a page does not keep are left out."""

from __future__ import annotations

import json

import pytest

from tokenizer_core.saved_work import FORMAT, VERSION, pack, unpack

SPEC = {
    "text": "str",
    "n": "int",
    "share": "float",
    "on": "bool",
    "ids": "strs",
    "chat_3": "str",
    "_v": "json",
}


def saved(values: dict, *, page: str = "chunks", **doc) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "page": page, "values": values, **doc})


def test_what_is_packed_comes_back():
    values = {
        "text": "héllo 👋",
        "n": 12,
        "share": 0.5,
        "on": True,
        "ids": ["a", "b"],
        "chat_3": "hi",
        "_v": [1],
    }
    text, left_out = pack("chunks", values)
    assert left_out == []
    assert unpack(text, "chunks", SPEC) == (values, [])


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("{not json", id="corrupt"),
        pytest.param("", id="empty"),
        pytest.param(None, id="nothing"),
        pytest.param(42, id="not-text"),
        pytest.param('"a string"', id="json-not-a-snapshot"),
        pytest.param(
            json.dumps({"format": "other", "version": 1, "page": "chunks", "values": {}}), id="other-format"
        ),
        pytest.param(saved({"text": "x"}, version=0), id="old-version"),
        pytest.param(saved({"text": "x"}, version=2), id="newer-version"),
        pytest.param(saved({"text": "x"}, version=True), id="version-true"),
        pytest.param(saved({"text": "x"}, page="bpe"), id="another-page"),
        pytest.param(saved({}).replace('"values": {}', '"values": [1, 2]'), id="values-not-an-object"),
        pytest.param("[" * 5_000 + "]" * 5_000, id="deeply-nested"),
        pytest.param(saved({"text": "x"}).replace('"x"', "[" * 100 + "]" * 100), id="deep-value"),
    ],
)
def test_bad_saved_work_gives_nothing_and_never_raises(raw):
    values, notes = unpack(raw, "chunks", SPEC)
    assert values == {}
    assert len(notes) <= 1
    assert all("Traceback" not in n and "Error" not in n for n in notes)
    if raw not in (None, ""):
        assert notes, "a quiet note says the saved work was not used"


def test_oversized_saved_work_is_not_read():
    raw = saved({"text": "x" * 3_000})
    assert unpack(raw, "chunks", SPEC, max_bytes=1_000) == (
        {},
        ["the saved work is larger than 1,000 bytes, so it was not used"],
    )


def test_values_of_the_wrong_kind_and_keys_the_page_does_not_keep_are_left_out():
    raw = saved(
        {
            "text": 5, "n": True, "share": "0.5", "on": 1, "ids": ["a", 3], "chat_x": "no",
            "chunks_load_sample": True,  # a button's key: Streamlit refuses to have it set
            "n_big": 1, "__proto__": {}, "n2": 10**30,
            "share2": 1,
        }
    )  # fmt: skip
    spec = {**SPEC, "n2": "int", "share2": "float"}
    values, notes = unpack(raw, "chunks", spec)
    assert values == {"share2": 1}
    assert notes == ["10 saved values could not be used and were left out"]


def test_numbers_must_be_finite_and_sane():
    raw = saved({"share": 1.0}).replace("1.0", "Infinity")
    assert unpack(raw, "chunks", SPEC)[0] == {}
    assert unpack(saved({"n": 10**20}), "chunks", SPEC)[0] == {}


def test_half_an_emoji_becomes_the_replacement_character():
    raw = saved({"text": "a"}).replace('"a"', '"a\\ud83d"')
    assert unpack(raw, "chunks", SPEC)[0] == {"text": "a\ufffd"}


def test_over_the_cap_the_largest_values_are_left_out_and_named():
    values = {"text": "x" * 5_000, "ids": ["a"] * 10, "n": 3}
    text, left_out = pack("chunks", values, max_bytes=1_000)
    assert left_out == ["text"]
    assert len(text.encode()) <= 1_000
    assert unpack(text, "chunks", SPEC, max_bytes=1_000)[0] == {"ids": ["a"] * 10, "n": 3}


def test_nothing_chosen_is_not_kept():
    text, _ = pack("chunks", {"text": None, "n": 1})
    assert unpack(text, "chunks", SPEC)[0] == {"n": 1}


# ------------------------------------------------------------------ a user's own tokenizer, kept


def test_a_kept_tokenizer_comes_back_byte_for_byte_and_damage_is_a_sentence():
    import base64
    import zlib

    from tokenizer_core.saved_work import KeptTokenizer, pack_tokenizer, unpack_tokenizer
    from tokenizer_core.tokenizers import is_own_id

    kept = KeptTokenizer(
        "custom-0123456789abcdef", "tiktoken", b"IQ== 0\nIg== 1\n" * 1000, "v.tiktoken", "mine", "r50k"
    )
    entry = pack_tokenizer(kept)
    assert unpack_tokenizer(json.loads(json.dumps(entry))) == (kept, None)
    assert len(entry["data"]) < len(kept.data)  # compressed
    assert is_own_id(kept.id) and not is_own_id("o200k_base") and not is_own_id(["custom-0123456789abcdef"])
    bomb = base64.b64encode(zlib.compress(b"\0" * 61_000_000, 9)).decode()
    for bad in (None, [], {**entry, "kind": "exe"}, {**entry, "pattern": "nope"}, {**entry, "id": "../x"},
                {**entry, "data": "%%%"}, {**entry, "data": entry["data"][:-8]}, {**entry, "data": bomb}):  # fmt: skip
        value, problem = unpack_tokenizer(bad)
        assert value is None and "not added again" in problem
