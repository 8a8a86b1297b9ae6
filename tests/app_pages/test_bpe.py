"""The BPE playground page, headless: train presets, step, probe, register, bad input."""

from __future__ import annotations

import pytest

from tests.picker_helpers import picker_names
from tokenizer_core.bpe import BPE_PRESETS

SEED_000 = "get / set / reset"
SEED_004 = "low lower newest widest"


PAGE = "app_pages/bpe.py"


def _metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _frame(at, column: str):
    """The first data frame that has `column` (Styler-wrapped frames included)."""
    for df in at.dataframe:
        value = df.value
        value = getattr(value, "data", value)
        if column in value.columns:
            return value
    raise AssertionError(f"no data frame with a {column!r} column")


def _load_preset(at, name: str):
    at.selectbox(key="bpe_corpus_sample").set_value(name)
    at.button(key="bpe_corpus_load_sample").click().run()
    assert not at.exception, at.exception
    return at


def test_first_visit_trains_seed_002_and_explains_merge_1(page):
    at = page
    assert _metric(at, "Merges learned") == "12"
    assert at.slider(key="bpe_step").value == 1
    text = _markdown(at)
    assert "**Merge 1:** `o` + `a` → `oa`" in text
    assert "alphabetically largest pair" in text  # three pairs tie at 100; o+a sorts last
    merges = _frame(at, "new")
    assert list(merges["new"]) == ["oa"]
    candidates = _frame(at, "chosen")
    assert candidates.iloc[0]["pair"] == "o + a" and bool(candidates.iloc[0]["chosen"])
    assert list(candidates["count"][:3]) == [100, 100, 100]


def test_step_with_next_previous_and_slider(page):
    at = page
    at.button(key="bpe_next").click().run()
    assert at.slider(key="bpe_step").value == 2
    assert "**Merge 2:** `oa` + `d` → `oad`" in _markdown(at)
    at.slider(key="bpe_step").set_value(6).run()
    merges = _frame(at, "new")
    # seed 002 prints these first merges
    assert list(zip(merges["left"], merges["right"])) == [
        ("o", "a"), ("oa", "d"), ("l", "oad"), ("t", "a"), ("d", "a"), ("da", "ta"),
    ]  # fmt: skip
    at.button(key="bpe_prev").click().run()
    assert at.slider(key="bpe_step").value == 5
    assert not at.exception


def test_probe_shows_tokens_and_the_merges_that_fired(page):
    at = page
    at.slider(key="bpe_step").set_value(12).run()
    at.text_input(key="bpe_probe").input("dataframe").run()
    assert not at.exception
    fired = _frame(at, "at characters")
    assert list(fired["pair"])[:3] == ["t + a", "d + a", "da + ta"]  # merges 4, 5, 6 make "data"
    # seed 002 prints: dataframe -> ['data', 'f', 'r', 'a', 'm', 'e', '</w>']
    assert any(c.value.startswith("7 tokens for 9 characters") for c in at.caption)


def test_loading_a_preset_takes_its_options_and_trains_the_seed(page):
    at = _load_preset(page, SEED_000)
    assert at.radio(key="bpe_tie").value == "smallest"
    assert at.radio(key="bpe_symbols").value == "chars"
    assert at.number_input(key="bpe_merges").value == 4
    # trained right away, as on the first visit: no stale results under a "press Train" note
    assert _metric(at, "Merges learned") == "4"
    assert not any("changed since this model was trained" in i.value for i in at.info)
    assert any(c.value.startswith("Source: The identifier example of the article") for c in at.caption)
    at.slider(key="bpe_step").set_value(4).run()
    merges = _frame(at, "new")
    # seed 000 prints the merges e+t (19), s+et (11), g+et (8), e+r (4)
    assert list(merges["new"]) == ["et", "set", "get", "er"]
    assert list(merges["count"]) == [19, 11, 8, 4]
    assert "2 pairs share the top count 4" in _markdown(at)


def test_first_seen_explanation_names_the_words(page):
    at = _load_preset(page, SEED_004)
    at.button(key="bpe_train").click().run()
    at.slider(key="bpe_step").set_value(3).run()
    text = _markdown(at)
    # seed 004: merge 3 is l+o, tied with o+w at 7, both first seen in the word "low"
    assert "**Merge 3:** `l` + `o` → `lo`" in text
    assert (
        "first appears at word 1 'low', position 0, before (o + w) at word 1 'low', position 1"
        in text.replace("\\", "")
    )


def test_stale_model_notice_and_retrain(page):
    at = page
    at.number_input(key="bpe_merges").set_value(3).run()
    assert any("changed since this model was trained" in i.value for i in at.info)
    at.button(key="bpe_train").click().run()
    assert _metric(at, "Merges learned") == "3"
    assert not any("changed since" in i.value for i in at.info)


def test_byte_level_prose_registers_a_tiktoken_tokenizer(page):
    at = _load_preset(page, "English prose (4 KB)")
    at.number_input(key="bpe_merges").set_value(50).run()
    at.button(key="bpe_train").click().run()
    assert _metric(at, "Merges learned") == "50"
    at.text_input(key="bpe_reg_name").input("harbour bpe").run()
    at.button(key="bpe_register").click().run()
    assert not at.exception
    mine = [t for t in at.session_state["session_tokenizers"].values() if t.info.kind == "trained"]
    assert [t.info.name for t in mine] == ["harbour bpe"]
    assert type(mine[0]).__name__ == "TiktokenTokenizer" and mine[0].n_vocab == 306
    assert any("Checked: it splits all" in s.value and "fast engine" in s.value for s in at.success)
    assert any("(306 tokens; encoded by" in s.value for s in at.success)  # as the Vocabulary figure says
    assert _metric(at, "Vocabulary") == "306"  # 256 bytes + 50 merges
    # the counter page now offers it
    at.switch_page("app_pages/workspace.py").run()
    assert "harbour bpe (yours)" in picker_names(at, "workspace_tokenizers")


def test_character_model_registers_as_python_tokenizer(page):
    at = page
    at.button(key="bpe_register").click().run()
    mine = [t for t in at.session_state["session_tokenizers"].values() if t.info.kind == "trained"]
    assert len(mine) == 1 and type(mine[0]).__name__ == "BPETokenizer"
    assert mine[0].count("loading") == 4  # load i ng </w>


def test_the_added_message_and_the_vocabulary_figure_agree(page):
    """Seed 002: 13 characters (the end marker among them) + 12 merges = a vocabulary of 25; as a
    tokenizer it also has the 256 byte fallbacks, which the message names (it said "281 tokens"
    beside "Vocabulary 25" with no word on them)."""
    at = page
    assert _metric(at, "Vocabulary") == "25"
    vocab_help = next(m.proto.help for m in at.metric if m.label == "Vocabulary")
    assert "13 start symbols" in vocab_help and "12 merged tokens" in vocab_help
    assert "256 byte fallbacks" in vocab_help and "281 tokens" in vocab_help
    at.button(key="bpe_register").click().run()
    (msg,) = [s.value for s in at.success]
    assert (
        "(281 tokens: its vocabulary of 25 + 256 byte fallbacks for characters not seen in training;" in msg
    )
    (tok,) = [t for t in at.session_state["session_tokenizers"].values() if t.info.kind == "trained"]
    assert tok.n_vocab == 281
    assert tok.decode(tok.encode("😀")) == "😀"  # an unseen character: its bytes, the fallbacks


def test_empty_corpus_and_bad_options_show_messages(page):
    at = page
    at.text_area(key="bpe_corpus_text").input("").run()
    assert at.button(key="bpe_train").disabled
    assert any("Paste a corpus" in i.value for i in at.info)
    at.text_area(key="bpe_corpus_text").input("some text here").run()
    at.selectbox(key="bpe_marker").set_value("custom").run()
    at.text_input(key="bpe_marker_custom").input("a b").run()
    assert any(e.value.startswith("The end\\-of\\-word marker cannot contain spaces") for e in at.error)
    assert at.button(key="bpe_train").disabled
    assert not at.exception


def test_word_counts_format_and_its_errors(page):
    at = page
    at.text_area(key="bpe_corpus_text").input("low 5\nlower 2\nnewest 6\nwidest 3").run()
    at.radio(key="bpe_format").set_value("counts").run()
    at.radio(key="bpe_symbols").set_value("chars").run()
    at.selectbox(key="bpe_marker").set_value("").run()
    at.radio(key="bpe_tie").set_value("first").run()
    at.number_input(key="bpe_merges").set_value(5).run()
    at.button(key="bpe_train").click().run()
    at.slider(key="bpe_step").set_value(5).run()
    # seed 004's dictionary written as word counts gives seed 004's merges
    assert list(_frame(at, "new")["new"]) == ["es", "est", "lo", "low", "ne"]
    at.text_area(key="bpe_corpus_text").input("low 5\nlower two").run()
    at.button(key="bpe_train").click().run()
    assert any(e.value.startswith("Training failed: Line 2") and "two" in e.value for e in at.error)
    assert not at.exception


def test_oversized_corpus_is_cut_with_a_warning(page):
    at = page
    big = "word " * 450_000  # 2.25 M characters
    at.text_area(key="bpe_corpus_text").input(big).run()
    assert any("training uses only the first" in w.value for w in at.warning)
    assert not at.exception


def test_all_presets_train_without_errors(page):
    at = page
    for name in BPE_PRESETS:
        at = _load_preset(at, name)
        at.button(key="bpe_train").click().run()
        assert not at.exception, name
        assert not at.error, name


def test_target_vocabulary_below_the_start_symbols_learns_nothing(page):
    at = page
    at.radio(key="bpe_symbols").set_value("bytes").run()
    at.selectbox(key="bpe_marker").set_value("").run()
    at.radio(key="bpe_stop").set_value("vocab").run()
    at.number_input(key="bpe_vocab").set_value(100).run()
    at.button(key="bpe_train").click().run()
    assert not at.exception
    assert _metric(at, "Merges learned") == "0"
    assert any("already has 256 symbols" in c.value for c in at.caption)
    assert any("nothing to step through" in c.value for c in at.caption)


@pytest.mark.parametrize("symbols", ["bytes", "chars"])
def test_emoji_cjk_and_special_token_text(page, symbols):
    at = page
    corpus = "日本語のテキスト 🚀🚀 <|endoftext|> naïve café नमस्ते\n" * 20
    at.text_area(key="bpe_corpus_text").input(corpus).run()
    at.radio(key="bpe_symbols").set_value(symbols).run()
    at.selectbox(key="bpe_pretok").set_value("cl100k").run()
    at.number_input(key="bpe_merges").set_value(30).run()
    at.button(key="bpe_train").click().run()
    at.slider(key="bpe_step").set_value(30).run()
    at.text_input(key="bpe_probe").input("🚀 <|endoftext|> テキスト").run()
    assert not at.exception and not at.error
    assert _metric(at, "Merges learned") == "30"
    at.button(key="bpe_register").click().run()
    tok = next(t for t in at.session_state["session_tokenizers"].values() if t.info.kind == "trained")
    assert tok.decode(tok.encode(corpus)) == corpus
    assert tok.count(corpus) < len(corpus.encode("utf-8"))
