"""Counting a text in the app (ui/counting.py): one call, typed rows named as the session names
its tokenizers, the counts stock tiktoken gives, and the tiers behind it (a session's last
answer, the count shared by every session)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.references import stock_tiktoken

TEXT = "Hello <|endoftext|> world! 日本語のテキスト 👩‍💻 x = f(y)\n"


@pytest.fixture(scope="module")
def stock(tmp_path_factory) -> dict:
    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken"))


def _page() -> None:
    import streamlit as st

    from tests.conftest import builtin
    from ui.counting import counts

    toks = [builtin(i) for i in st.session_state["ids"]]
    rows = counts(st.session_state["text"], toks, special=st.session_state.get("special", False), window=8192)
    st.session_state["rows"] = rows


def _run(**state) -> AppTest:
    at = AppTest.from_function(_page, default_timeout=60)
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


def test_counts_are_typed_rows_with_the_counts_stock_tiktoken_gives(stock):
    from tokenizer_core import CountRow

    ids = ["cl100k_base", "o200k_base"]
    for special in (False, True):
        rows = _run(text=TEXT, ids=ids, special=special).session_state["rows"]
        assert all(isinstance(r, CountRow) for r in rows)
        want = [
            len(stock[i].encode(TEXT, allowed_special="all") if special else stock[i].encode_ordinary(TEXT))
            for i in ids
        ]
        assert [(r.tokenizer_id, r.tokens) for r in rows] == list(zip(ids, want))
        assert rows[0].tokenizer == "cl100k_base" and rows[0].characters == len(TEXT)
        assert rows[0].context_window == 8192 and rows[0].context_pct == round(100 * want[0] / 8192, 3)


def test_a_session_names_a_count_another_session_made_its_own_way(tmp_path, monkeypatch):
    """The shared tier keeps numbers, never names: a user's tokenizer (one id) named differently
    in two sessions reads its own name in each, and the second session counts nothing."""
    import dataclasses

    import streamlit as st

    from tests.conftest import builtin
    from tokenizer_core.tokenizers import TiktokenTokenizer
    from ui import counting

    st.cache_data.clear()
    base = builtin("o200k_base")
    assert isinstance(base, TiktokenTokenizer)
    mine = [dataclasses.replace(base.info, name=name, kind="file") for name in ("mine", "mine (2)")]
    toks = [TiktokenTokenizer(info, base.encoding) for info in mine]
    text = TEXT + " counted in two sessions"
    first = counting.counts(text, [toks[0]], special=False, where=None)
    monkeypatch.setattr(TiktokenTokenizer, "count", lambda *a, **k: pytest.fail("counted again"))
    second = counting.counts(text, [toks[1]], special=False, where=None)
    assert first is not None and second is not None
    assert (first[0].tokenizer, second[0].tokenizer) == ("mine", "mine (2)")
    assert first[0].tokens == second[0].tokens


def test_a_sessions_rerun_of_the_same_text_counts_nothing(monkeypatch):
    import streamlit as st

    from tokenizer_core.tokenizers import TiktokenTokenizer

    at = _run(text=TEXT * 2, ids=["o200k_base"])
    first = at.session_state["rows"]
    st.cache_data.clear()  # the shared tier forgot it: the session's own last answer serves
    monkeypatch.setattr(TiktokenTokenizer, "count", lambda *a, **k: pytest.fail("counted again"))
    at.run()
    assert not at.exception and at.session_state["rows"] == first
