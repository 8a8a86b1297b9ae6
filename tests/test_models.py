"""The catalog of models by name: every entry points at a real tokenizer and chat format."""

from __future__ import annotations

from tokenizer_core import BUILTINS, CHAT_FORMATS
from tokenizer_core.counter.models import (
    CATALOG,
    DEFAULT_CHOICES,
    MODELS,
    builtin_names,
    check_catalog,
    group_by_tokenizer,
    picker_options,
    resolve_choices,
    shared_tokenizer_note,
)


def test_catalog_points_at_real_tokenizers_and_formats():
    assert check_catalog(BUILTINS, CHAT_FORMATS) == []
    assert len({m.id for m in CATALOG}) == len(CATALOG)


def test_searching_the_labels_finds_models_by_the_names_people_type():
    labels = [MODELS[i].label.casefold() for i in picker_options(list(BUILTINS)) if i in MODELS]
    for query in ("4o", "gpt-5", "gpt-4.1", "o3", "o4-mini", "gpt-3.5", "embedding-3", "llama 3.1", "llama 3.3",
                  "qwen3", "qwen2.5", "nemo", "70b"):  # fmt: skip
        assert any(query in label for label in labels), query
    assert MODELS["gpt-4o"].label == "GPT-4o · o200k_base (4o mini, chatgpt-4o)"


def test_encodings_stay_selectable_by_their_own_names():
    options = picker_options(list(BUILTINS))
    assert set(BUILTINS) <= set(options)
    (enc,) = resolve_choices(["cl100k_base"])
    assert enc.tokenizer_id == "cl100k_base" and enc.model is None and enc.chat_format is None


def test_models_sharing_a_tokenizer_are_counted_once():
    choices = resolve_choices(["gpt-4o", "gpt-5", "llama-3.1", "o200k_base"])
    groups = group_by_tokenizer(choices)
    assert [g.tokenizer_id for g in groups] == ["o200k_base", "llama3"]
    assert groups[0].names == ["GPT-4o", "GPT-5", "o200k_base"]
    note = shared_tokenizer_note(groups, tokenizer_names=builtin_names())
    assert note == "GPT-4o and GPT-5 use o200k_base: counted once."


def test_defaults_are_three_models_on_three_tokenizers():
    assert len({MODELS[i].tokenizer_id for i in DEFAULT_CHOICES}) == 3
