"""The settings the issue saw forgotten, on the real pages: each page's widgets keep their values
when the user visits every other page and comes back (AppTest; the browser tests in
tests/e2e/test_settings_browser.py set every widget of every page)."""

from __future__ import annotations

import pytest

PAGES = ["app_pages/workspace.py", "app_pages/bpe.py", "app_pages/languages.py", "app_pages/identifiers.py",
         "app_pages/chunks.py"]  # fmt: skip


def visit_the_others_and_return(at, page: str) -> None:
    for other in PAGES:
        if other != page:
            at.switch_page(other).run()
            assert not at.exception, (other, at.exception)
    at.switch_page(page).run()
    assert not at.exception, at.exception


def test_bpe_playground_keeps_a_loaded_preset_and_its_options(app):
    at = app
    at.switch_page("app_pages/bpe.py").run()
    at.selectbox(key="bpe_corpus_sample").set_value("English prose (4 KB)").run()
    at.button(key="bpe_corpus_load_sample").click().run()
    assert at.number_input(key="bpe_merges").value == 300
    assert at.selectbox(key="bpe_pretok").value == "cl100k"
    at.slider(key="bpe_step").set_value(120).run()
    visit_the_others_and_return(at, "app_pages/bpe.py")
    assert at.number_input(key="bpe_merges").value == 300
    assert at.selectbox(key="bpe_pretok").value == "cl100k"
    assert at.slider(key="bpe_step").value == 120
    assert at.selectbox(key="bpe_corpus_sample").value == "English prose (4 KB)"
    assert not [i for i in at.info if "options changed" in i.value]
    assert [c for c in at.caption if c.value.startswith("Trains for 300 merges")]


def test_chunk_previewer_keeps_strategy_size_and_overlap(app):
    at = app
    at.switch_page("app_pages/chunks.py").run()
    at.selectbox(key="chunks_strategy").set_value("code").run()
    at.number_input(key="chunks_size").set_value(512).run()
    at.number_input(key="chunks_overlap").set_value(32).run()
    visit_the_others_and_return(at, "app_pages/chunks.py")
    assert at.selectbox(key="chunks_strategy").value == "code"
    assert at.number_input(key="chunks_size").value == 512
    assert at.number_input(key="chunks_overlap").value == 32


def test_code_identifiers_keeps_its_filters(app):
    at = app
    at.switch_page("app_pages/identifiers.py").run()
    at.number_input(key="identifiers_min_chars").set_value(5).run()
    at.toggle(key="identifiers_strings").set_value(True).run()
    visit_the_others_and_return(at, "app_pages/identifiers.py")
    assert at.number_input(key="identifiers_min_chars").value == 5
    assert at.toggle(key="identifiers_strings").value is True


def test_language_costs_keeps_base_language_and_workload(app):
    at = app
    at.switch_page("app_pages/languages.py").run()
    at.selectbox(key="languages_base").set_value("hi").run()
    at.number_input(key="languages_requests").set_value(5_000).run()
    visit_the_others_and_return(at, "app_pages/languages.py")
    assert at.selectbox(key="languages_base").value == "hi"
    assert at.number_input(key="languages_requests").value == 5_000


@pytest.mark.parametrize("mode_round_trip", [False, True], ids=["pages", "pages-and-chat-mode"])
def test_prompt_workspace_keeps_output_tokens_and_whitespace(app, mode_round_trip):
    at = app
    at.number_input(key="workspace_out_tokens").set_value(777).run()
    at.toggle(key="workspace_ws").set_value(True).run()
    at.toggle(key="workspace_diff").set_value(False).run()
    if mode_round_trip:  # the text view's widgets are not drawn in chat mode
        next(w for w in at.get("button_group") if w.key == "workspace_mode").set_value("chat").run()
        next(w for w in at.get("button_group") if w.key == "workspace_mode").set_value("text").run()
    visit_the_others_and_return(at, "app_pages/workspace.py")
    assert at.number_input(key="workspace_out_tokens").value == 777
    assert at.toggle(key="workspace_ws").value is True
    assert at.toggle(key="workspace_diff").value is False
