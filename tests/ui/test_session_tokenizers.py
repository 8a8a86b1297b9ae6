"""A user's own tokenizers appear on every page next to the built-in ones, and give real counts.

The issue says an uploaded or trained tokenizer "then appears on every page like the built-in
ones". Each kind the app can hold is tried: a `.tiktoken` upload (tiktoken engine), a Hugging
Face `tokenizer.json` (tokenizers engine) and a character-level model from the BPE playground
(pure Python engine).
"""

from __future__ import annotations

import pytest

from tests.conftest import ok, shown_counts
from tests.picker_helpers import choose, picker_data, picker_names
from tests.tokenizers.test_encoders import R50K_BYTES, _hf_json
from tokenizer_core import (
    BPEOptions,
    chunk_text,
    tokenizer_from_hf_json,
    tokenizer_from_tiktoken_bytes,
    train_bpe,
    trained_tokenizer,
)
from tokenizer_core.chunking import load_chunk_sample
from tokenizer_core.hosted import HostedTokenizer
from tokenizer_core.identifiers import load_code_sample
from tokenizer_core.languages import load_parallel_sample
from tokenizer_core.tokenizers import load_sample


def _trained():
    model = train_bpe("low lower lowest newest widest " * 20, BPEOptions(symbols="chars", merges=10))
    tok = trained_tokenizer(model, name="seed words")
    assert type(tok).__name__ == "BPETokenizer"  # the pure Python engine
    return tok


OWN = {
    "tiktoken": lambda: tokenizer_from_tiktoken_bytes(R50K_BYTES, name="my gpt2", pattern_id="r50k"),
    "hf": lambda: tokenizer_from_hf_json(_hf_json(), name="tiny hf"),
    "trained": _trained,
    # as the sidebar adds an upload: the tokenizer in a process of its own
    "hosted-tiktoken": lambda: HostedTokenizer("tiktoken", R50K_BYTES, name="my gpt2", pattern_id="r50k"),
    "hosted-hf": lambda: HostedTokenizer("hf", _hf_json(), name="tiny hf"),
}


@pytest.fixture(params=list(OWN))
def own(request):
    tok = OWN[request.param]()
    yield tok
    if isinstance(tok, HostedTokenizer):
        tok.close()


@pytest.fixture
def with_own(app, own):
    app.session_state["session_tokenizers"] = {own.id: own}
    return app, own


def test_counter_counts_with_it(with_own):
    at, own = with_own
    ok(at.run())
    assert f"{own.info.name} (yours)" in picker_names(at, "workspace_tokenizers")
    ok(choose(at, "workspace_tokenizers", ["o200k_base", own.id]))
    assert shown_counts(at)[own.info.name] == f"{own.count(load_sample('mixed')):,}"


def test_identifiers_page_counts_with_it(with_own):
    at, own = with_own
    ok(at.switch_page("app_pages/identifiers.py").run())
    ok(at.multiselect(key="identifiers_tokenizers").set_value([own.id]).run())
    text, _ = load_code_sample("Python: inventory service")
    assert shown_counts(at)[f"{own.info.name} tokens"] == f"{own.count(text):,}"
    df = next(d.value for d in at.dataframe if "identifier" in d.value.columns)
    row = df[df["identifier"] == "calculate_total"].iloc[0]
    assert row[f"{own.id} tokens"] == own.count("calculate_total")  # shown headed by its name


def test_languages_page_counts_with_it(with_own):
    at, own = with_own
    ok(at.switch_page("app_pages/languages.py").run())
    ok(at.multiselect(key="languages_tokenizers").set_value(["cl100k_base", own.id]).run())
    from tests.app_pages.test_languages import chart_data

    cells = {(d["language"], d["tokenizer"]): d for d in chart_data(at, 0)}
    sample = {l.code: l for l in load_parallel_sample()}
    name = own.info.name
    assert cells["Hindi", name]["tokens"] == own.count(sample["hi"].text)
    assert cells["English", name]["premium"] == 1


def test_chunk_previewer_chunks_with_it(with_own):
    at, own = with_own
    ok(at.switch_page("app_pages/chunks.py").run())
    select = at.selectbox(key="chunks_tokenizer")
    ok(select.select_index(select.options.index(f"{own.info.name} (yours)")).run())
    text = load_chunk_sample("markdown")
    expected = chunk_text(text, own, strategy="markdown", size=128)
    assert shown_counts(at)["Chunks"] == f"{len(expected.chunks):,}"
    assert shown_counts(at)["Max tokens"] == f"{max(c.tokens for c in expected.chunks):,}"
    assert not at.error


def test_removing_it_drops_it_from_every_choice(app):
    own = OWN["tiktoken"]()
    app.session_state["session_tokenizers"] = {own.id: own}
    ok(app.run())
    ok(choose(app, "workspace_tokenizers", ["o200k_base", own.id]))
    app.session_state["session_tokenizers"] = {}
    ok(app.run())
    assert picker_data(app, "workspace_tokenizers")["chosen"] == ["o200k_base"]
    ok(app.switch_page("app_pages/chunks.py").run())
    assert own.id not in app.selectbox(key="chunks_tokenizer").options


def _register_three() -> None:
    import streamlit as st

    from tests.tokenizers.test_encoders import R50K_BYTES, _hf_json
    from tokenizer_core import tokenizer_from_hf_json, tokenizer_from_tiktoken_bytes
    from ui.state import register_session_tokenizer, session_tokenizers

    if not session_tokenizers():
        register_session_tokenizer(
            tokenizer_from_tiktoken_bytes(R50K_BYTES, name="o200k_base", pattern_id="r50k")
        )
        register_session_tokenizer(tokenizer_from_hf_json(_hf_json(), name="Llama 3"))
        register_session_tokenizer(tokenizer_from_hf_json(_hf_json(), name="again"))  # same file: replaces
    st.write(sorted(t.info.name for t in session_tokenizers().values()))


def test_a_name_already_taken_gets_a_number():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_register_three).run()
    assert not at.exception, at.exception
    assert at.session_state["session_tokenizers"]  # kept for the session
    names = sorted(t.info.name for t in at.session_state["session_tokenizers"].values())
    assert names == ["again", "o200k_base (2)"]


def test_an_upload_whose_process_is_killed_gets_a_sentence_and_the_others_count(app, monkeypatch):
    from tests.test_hosted import _killing
    from tokenizer_core.tokenizers import load_builtin

    own = OWN["hosted-tiktoken"]()
    try:
        app.session_state["session_tokenizers"] = {own.id: own}
        ok(app.run())
        ok(choose(app, "workspace_tokenizers", ["o200k_base", own.id]))
        # killed under one call: started again, the page sees nothing
        killed = _killing(monkeypatch, 1)
        text = "A text no one counted before: the quick brown fox, 12345."
        app.session_state["workspace_text"] = text
        ok(app.run())
        assert len(killed) == 1 and not app.error
        assert shown_counts(app) == {
            "o200k_base": f"{load_builtin('o200k_base').count(text):,}",
            "my gpt2": f"{load_builtin('r50k_base').count(text):,}",
        }
        # killed under every call: a sentence, and the other tokenizer counts
        killed = _killing(monkeypatch, 1_000)
        text += " Again."
        app.session_state["workspace_text"] = text
        ok(app.run())
        assert killed
        errors = " ".join(e.value for e in app.error).replace("\\", "")
        assert "my gpt2" in errors and "cannot tokenize this text: its process stopped" in errors
        assert "Traceback" not in errors
        assert shown_counts(app).get("o200k_base") == f"{load_builtin('o200k_base').count(text):,}", (
            errors,
            shown_counts(app),
        )
    finally:
        own.close()
