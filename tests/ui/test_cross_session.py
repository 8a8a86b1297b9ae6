"""Two browser sessions on one server never see each other's data.

Results are cached for the whole process (st.cache_data), so two AppTest sessions in one test
process share them exactly as two users of one server do. Session A gives its tokenizer a
hostile name; session B must never see it, nor a count made with A's settings.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY, shown_counts
from tests.picker_helpers import choose
from tests.tokenizers.test_encoders import R50K_BYTES
from tokenizer_core import tokenizer_from_tiktoken_bytes
from tokenizer_core.identifiers import load_code_sample
from tokenizer_core.tokenizers import load_sample

HOSTILE = "ALICE-SECRET-BPE **bold** [x](https://evil.example)"


@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    yield
    st.cache_data.clear()


def _session() -> AppTest:
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, at.exception
    return at


def _everything_shown(at: AppTest) -> str:
    """Every label, value, caption and table cell or header the page shows, as one string."""
    parts: list[str] = []
    for m in at.metric:
        parts += [m.label, m.value, str(m.proto.help)]
    for kind in ("markdown", "caption", "text", "success", "error", "warning", "info"):
        parts += [str(e.value) for e in getattr(at, kind)]
    for df in at.dataframe:
        value = getattr(df.value, "data", df.value)
        parts += [str(c) for c in value.columns] + [value.to_string()]
        parts.append(str(df.proto))  # column_config headers
    for ms in at.multiselect:
        parts += [ms.format_func(o) for o in ms.options]
    return "\n".join(parts)


def _train_and_register(at: AppTest, name: str | None) -> str:
    """Train the default preset (first visit), register it under `name`; returns its id."""
    _ok(at.switch_page("app_pages/bpe.py").run())
    if name is not None:
        at.text_input(key="bpe_reg_name").input(name)
    _ok(at.button(key="bpe_register").click().run())
    own = at.session_state["session_tokenizers"]
    (tid,) = [t for t in own if t.startswith("trained-")]
    return tid


def test_same_trained_model_in_two_sessions_keeps_each_name():
    alice, bob = _session(), _session()
    a_id = _train_and_register(alice, HOSTILE)
    b_id = _train_and_register(bob, None)
    assert a_id == b_id  # same corpus and options: same model, so results may be shared...
    for at, page, key in [
        (alice, "app_pages/workspace.py", "workspace_tokenizers"),
        (bob, "app_pages/workspace.py", "workspace_tokenizers"),
        (alice, "app_pages/identifiers.py", "identifiers_tokenizers"),
        (bob, "app_pages/identifiers.py", "identifiers_tokenizers"),
    ]:
        _ok(at.switch_page(page).run())
        _ok(choose(at, key, ["o200k_base", a_id]))
    # ... but never the name the other session gave it
    shown = _everything_shown(bob)
    assert "ALICE" not in shown and "evil.example" not in shown
    assert "my BPE" in shown
    _ok(alice.switch_page("app_pages/identifiers.py").run())
    assert "ALICE" in _everything_shown(alice)


def test_same_trained_model_on_the_languages_page_keeps_each_name():
    alice, bob = _session(), _session()
    a_id = _train_and_register(alice, HOSTILE)
    _train_and_register(bob, None)
    for at in (alice, bob):
        _ok(at.switch_page("app_pages/languages.py").run())
        _ok(at.multiselect(key="languages_tokenizers").set_value(["o200k_base", a_id]).run())
    shown = _everything_shown(bob)
    assert "ALICE" not in shown and "evil.example" not in shown


def test_same_tiktoken_file_with_another_pattern_counts_with_its_own_pattern():
    text = load_sample("mixed")
    a_tok = tokenizer_from_tiktoken_bytes(R50K_BYTES, name=HOSTILE, pattern_id="o200k")
    b_tok = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="bob r50k", pattern_id="r50k")
    assert a_tok.count(text) != b_tok.count(text)  # the pattern changes the count
    assert a_tok.id != b_tok.id  # so it is part of the id (and of every cache key)
    alice, bob = _session(), _session()
    for at, tok in ((alice, a_tok), (bob, b_tok)):
        at.session_state["session_tokenizers"] = {tok.id: tok}
        _ok(at.run())
        _ok(choose(at, "workspace_tokenizers", [tok.id]))
    metrics = shown_counts(bob)
    assert metrics == {"bob r50k": f"{b_tok.count(text):,}"}
    assert "ALICE" not in _everything_shown(bob)


def test_special_tokens_are_part_of_an_uploaded_vocabulary_id():
    plain = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="a", pattern_id="r50k")
    with_eot = tokenizer_from_tiktoken_bytes(
        R50K_BYTES, name="a", pattern_id="r50k", special_tokens={"<|endoftext|>": 50256}
    )
    assert plain.id != with_eot.id
    assert plain.count("<|endoftext|>", allow_special=True) != with_eot.count(
        "<|endoftext|>", allow_special=True
    )


def test_identifiers_code_view_never_shows_another_sessions_name():
    code, _ = load_code_sample("Python: inventory service")
    alice, bob = _session(), _session()
    a_id = _train_and_register(alice, HOSTILE)
    _train_and_register(bob, None)
    for at in (alice, bob):
        _ok(at.switch_page("app_pages/identifiers.py").run())
        _ok(at.multiselect(key="identifiers_tokenizers").set_value([a_id]).run())
        at.session_state["identifiers_tab"] = "Code view"
        _ok(at.run())
    html = "\n".join(h.proto.body for h in bob.get("html"))
    assert "ALICE" not in html and "evil.example" not in html
    assert "calculate_total" in html  # the code view was drawn
    assert code
