"""The "Inside a tokenizer" page in AppTest: the six steps, the merge stepper, the surprises,
and a sentence (never a traceback) for bad input."""

from __future__ import annotations

import pytest

from tests.conftest import builtin
from tokenizer_core.inside import inspect_text, machine_for

STEPS = [
    "1. Normalisation", "2. Pre-tokenization: cut into pieces", "3. Bytes", "4. Merges",
    "5. Fallback: characters the vocabulary lacks", "6. Ids and back",
]  # fmt: skip


PAGE = "app_pages/inside.py"
PAGE_TIMEOUT = 180


def _type(at, text: str) -> None:
    """What the live text box sends when the user pauses typing."""
    at.session_state["inside_text"] = text
    at.run()


def _text(at) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


def test_the_page_shows_every_step_and_the_surprises(page):
    heads = [s.value for s in page.subheader]
    assert heads[:6] == STEPS
    assert {"Case and a leading space", "Numbers", "Letters inside a token", "Whitespace and formatting",
            "Words vs tokens"} <= set(heads)  # fmt: skip
    words = _text(page)
    assert "regular expression, which is a short code" in words  # "regex" explained where it appears
    assert "Ġ" in words and "tokenizer_core" not in words


def test_the_merge_stepper_walks_to_the_tokenizers_ids(page):
    tok = builtin("o200k_base")
    piece = page.selectbox(key="inside_piece")
    chosen = piece.format_func(piece.value).split(": ", 1)[1].replace("⋅", " ")
    replay = machine_for(tok).replay(chosen)
    n = len(replay.steps)
    assert n >= 3 and page.session_state["inside_step"] == 0
    for k in range(1, n + 1):
        page.button(key="inside_next").click().run()
        assert page.session_state["inside_step"] == k
    assert f"ids {', '.join(map(str, tok.encode(chosen)))}" in _text(page)
    assert page.button(key="inside_next").disabled
    page.button(key="inside_prev").click().run()
    assert page.session_state["inside_step"] == n - 1


def test_a_sentencepiece_tokenizer_shows_its_space_mark(page):
    page.selectbox(key="inside_tokenizer").set_value("mistral_sp_v1").run()
    assert not page.exception
    words = _text(page)
    assert "SentencePiece" in words and "\u2581" in words


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "<|endoftext|>",
        "<img src=x onerror=alert(1)>",
        "😀👨\u200d👩\u200d👧 你好 東京",
        "word " * 6_000,
    ],
)
def test_bad_input_gets_a_sentence(page, text):
    _type(page, text)
    assert not page.exception
    words = (
        _text(page) + " ".join(str(i.value) for i in page.info) + " ".join(str(w.value) for w in page.warning)
    )
    if not text.strip():
        assert "Type a few words" in words
    elif len(text) > 20_000:
        assert "the first 20,000 are taken apart" in words
        assert sum(len(str(m.value)) for m in page.markdown) < 1_500_000
    else:
        assert [s.value for s in page.subheader][:6] == STEPS
    assert "<img src=x" not in "".join(str(m.value) for m in page.markdown if "tw-in" in str(m.value))


def test_a_model_trained_in_the_playground_is_taken_apart(page):
    """The playground's default (seed 002: characters with an end-of-word marker) registered as a
    tokenizer, then taken apart here, its merges stepped to its own ids."""
    page.switch_page("app_pages/bpe.py").run()
    page.button(key="bpe_register").click().run()
    (tok,) = [t for t in page.session_state["session_tokenizers"].values() if t.info.kind == "trained"]
    page.switch_page("app_pages/inside.py").run()
    _type(page, "the newest lowest")
    picker = page.selectbox(key="inside_tokenizer")  # a select box's options are the labels it shows
    picker.select_index(picker.options.index(f"{tok.info.name} (yours)")).run()
    assert not page.exception
    words_shown = _text(page)
    assert "Replayed on every piece of your text" in " ".join(str(s.value) for s in page.success)
    assert "single characters" in words_shown
    piece = page.selectbox(key="inside_piece")
    chosen = piece.format_func(piece.value).split(": ", 1)[1].replace("⋅", " ")
    for _ in machine_for(tok).replay(chosen).steps:
        page.button(key="inside_next").click().run()
    assert f"ids {', '.join(map(str, tok.encode(chosen)))}" in _text(page)


@pytest.mark.parametrize("kind", ["tiktoken", "hf"])
def test_a_users_upload_is_taken_apart_from_its_own_process(page, kind):
    """An uploaded .tiktoken and a byte-level BPE tokenizer.json, added in the sidebar (each then
    lives in a process of its own): the page walks them as the tokenizer built here would."""
    from tests.test_hosted import _data, local

    fixture = "tiktoken" if kind == "tiktoken" else "json-bytelevel"
    _, data, pattern = _data(fixture)
    page.radio(key="custom_tok_kind").set_value(kind).run()
    page.file_uploader(key="custom_tok_file").upload(
        f"mine.{'tiktoken' if kind == 'tiktoken' else 'json'}", data
    )
    page.run()
    if pattern:
        page.selectbox(key="custom_tok_pattern").set_value(pattern)
    page.text_input(key="custom_tok_name").input(fixture)
    page.button(key="custom_tok_add").click().run()
    (tok,) = page.session_state["session_tokenizers"].values()
    assert tok.pid is not None  # hosted
    page.switch_page("app_pages/inside.py").run()
    text = "the xylophonist zzyzx quizzically"
    _type(page, text)
    picker = page.selectbox(key="inside_tokenizer")
    picker.select_index(picker.options.index(f"{fixture} (yours)")).run()
    assert not page.exception and not page.error, (page.exception, [e.value for e in page.error])
    assert "Replayed on every piece of your text" in " ".join(str(s.value) for s in page.success)
    here = local(fixture)
    piece = page.selectbox(key="inside_piece")
    chosen = piece.format_func(piece.value).split(": ", 1)[1].replace("⋅", " ")
    replay = machine_for(here).replay(chosen)
    assert machine_for(tok).replay(chosen) == replay and len(replay.steps) >= 3
    assert f"Step 0 of {len(replay.steps)}" in [c.value for c in page.caption]
    tok.close()


def _piece_text(at) -> str:
    piece = at.selectbox(key="inside_piece")
    return piece.format_func(piece.value).split(": ", 1)[1].replace("⋅", " ")


def test_the_piece_chooser_follows_the_text_and_the_tokenizer(page):
    _type(page, "one two three naïve café antidisestablishmentarianism")
    first = _piece_text(page)
    _type(page, "zebra quizzically xylophonist")
    now = _piece_text(page)
    tok = builtin("o200k_base")
    walk = inspect_text(tok, "zebra quizzically xylophonist")
    assert now != first and now == visible(walk.pieces[walk.first_piece].text)
    page.selectbox(key="inside_tokenizer").set_value("mistral_sp_v1").run()
    tok = builtin("mistral_sp_v1")
    walk = inspect_text(tok, "zebra quizzically xylophonist")
    assert _piece_text(page) == visible(walk.pieces[walk.first_piece].text)


def visible(text: str) -> str:
    return text.replace("⋅", " ")


def test_sentencepiece_steps_labels_and_bos(page):
    """Mistral SP v1 on "a\\tb\\nc": the byte tokens are its <0x09> and <0x0A> pieces, the merges go
    by score, and the BOS its requests start with is the last step."""
    page.selectbox(key="inside_tokenizer").set_value("mistral_sp_v1").run()
    _type(page, "a\tb\nc strawberry")
    assert not page.exception
    heads = [s.value for s in page.subheader]
    assert heads[:7] == [
        "1. Normalisation", "2. Pre-tokenization: cut into pieces", "3. Bytes", "4. Merges by score",
        "5. Fallback: characters the vocabulary lacks", "6. Special tokens around the text", "7. Ids and back",
    ]  # fmt: skip
    labels = list(page.dataframe[-1].value["As the vocabulary writes it"])
    assert labels[:5] == ["\u2581a", "<0x09>", "b", "<0x0A>", "c"]
    words = _text(page)
    assert "every character had a token" not in words and "2 places needed byte tokens" in words
    assert "score" in words and "`<s>` (id 1) in front" in words
    assert "Replayed on every piece of your text" in " ".join(str(s.value) for s in page.success)


def test_tekken_shows_ranks_apart_from_ids(page):
    page.selectbox(key="inside_tokenizer").set_value("tekken").run()
    _type(page, "one strawberry")
    page.button(key="inside_next").click().run()
    words = _text(page)
    assert "the first 1,000 ids are special tokens" in words
    step = next(m.value for m in page.markdown if str(m.value).startswith("Step 1: join"))
    rank = int(step.split("(rank ")[1].split(",")[0].replace(",", ""))
    token_id = int(step.split(", id ")[1].split(")")[0].replace(",", ""))
    assert token_id == rank + 1_000


def test_a_replay_that_differs_never_says_the_same():
    from dataclasses import replace

    from ui.inside import _ending

    walk = inspect_text(builtin("o200k_base"), "hello")
    replay = machine_for(builtin("o200k_base")).replay("hello")
    assert "the same as the tokenizer's output" in _ending(replay, walk)
    differs = replace(walk, replay_same=False)
    assert "the same" not in _ending(replay, differs) and "differ" in _ending(replay, differs)
