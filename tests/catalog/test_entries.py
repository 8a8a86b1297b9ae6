"""The model catalog: one line per model, each mapped to its tokenizer by the maker's own table
(tiktoken for OpenAI, mistral-common for Mistral), to a real chat format, and to a price the
source has; the one rule for a model's context window; models only the source knows."""

from __future__ import annotations

import doctest
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path

import pytest

from tests.conftest import builtin
from tokenizer_core import BUILTINS, CHAT_FORMATS, count_table
from tokenizer_core.catalog import choices, entries, prices, windows
from tokenizer_core.catalog.choices import (
    group_by_tokenizer,
    names_by_tokenizer,
    picker_options,
    resolve_choices,
    shared_tokenizer_note,
)
from tokenizer_core.catalog.entries import (
    CATALOG,
    DEFAULT_CHOICES,
    LEGACY_IDS,
    MODELS,
    builtin_names,
    canonical_id,
)
from tokenizer_core.catalog.prices import uncatalogued_models
from tokenizer_core.catalog.source import parse_ref, source_model
from tokenizer_core.catalog.windows import model_window, window_for
from tokenizer_core.workspace.counting import with_windows

DAY = date(2026, 12, 1)
ROOT = Path(__file__).parents[2]
# tiktoken names r50k_base's vocabulary "gpt2" for GPT-2 (the same ranks; the registry has it as r50k_base)
TIKTOKEN_ALIASES = {"gpt2": "r50k_base"}
PROBE = "Mistral's tokenizer, Tekken: 128k tokens — ¿qué tal? 日本語 and code: def f(x): return x**2\n"


def check_catalog(tokenizer_ids: Iterable[str], chat_format_ids: Iterable[str]) -> list[str]:
    """Problems in the catalog: unknown tokenizers or chat formats, id clashes."""
    tids, fids = set(tokenizer_ids), set(chat_format_ids)
    problems = [
        f"{m.id}: unknown tokenizer {m.tokenizer_id}"
        for m in CATALOG
        if m.tokenizer_id is not None and m.tokenizer_id not in tids
    ]
    problems += [
        f"{m.id}: unknown chat format {m.chat_format}"
        for m in CATALOG
        if m.chat_format and m.chat_format not in fids
    ]
    problems += [f"{m.id}: also a tokenizer id" for m in CATALOG if m.id in tids]
    problems += [
        f"{m.id}: a chat format without a tokenizer" for m in CATALOG if m.chat_format and not m.tokenizer_id
    ]
    problems += [
        f"{old}: legacy id of an unknown model {new}" for old, new in LEGACY_IDS.items() if new not in MODELS
    ]
    problems += [
        f"{m.id}: the price must be a reference 'provider:model' or None, not {m.price!r}"
        for m in CATALOG
        if m.price is not None and (not isinstance(m.price, str) or ":" not in m.price.strip(":"))
    ]
    return problems


def test_module_examples():
    for module in (entries, choices, prices, windows):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_catalog_points_at_real_tokenizers_formats_and_prices():
    assert check_catalog(BUILTINS, CHAT_FORMATS) == []
    assert len({m.id for m in CATALOG}) == len(CATALOG)
    missing = [m.price for m in CATALOG if m.price and source_model(m.price) is None]
    assert missing == []


def test_openai_models_use_the_tokenizer_tiktokens_own_tables_give_them():
    from tiktoken.model import MODEL_PREFIX_TO_ENCODING, MODEL_TO_ENCODING, encoding_name_for_model

    openai = [m for m in CATALOG if m.maker == "OpenAI"]
    assert len(openai) >= 30
    for m in openai:
        assert m.id in MODEL_TO_ENCODING or any(m.id.startswith(p) for p in MODEL_PREFIX_TO_ENCODING), m.id
        enc = encoding_name_for_model(m.id)
        assert TIKTOKEN_ALIASES.get(enc, enc) == m.tokenizer_id, m.id


def test_mistral_models_use_the_tokenizer_mistral_commons_own_table_gives_them():
    from mistral_common.tokens.tokenizers.instruct import InstructTokenizerV3
    from mistral_common.tokens.tokenizers.mistral import MODEL_NAME_TO_TOKENIZER_CLS
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    ours = builtin("tekken").encode(PROBE)
    tekken_models = []
    for name, make in MODEL_NAME_TO_TOKENIZER_CLS.items():
        instruct = make().instruct_tokenizer
        if isinstance(instruct.tokenizer, Tekkenizer):
            tekken_models.append(name)
            assert type(instruct) is InstructTokenizerV3, name  # the instruct v3 chat format
            assert instruct.tokenizer.encode(PROBE, bos=False, eos=False) == ours, name
    # every model mistral-common puts on Tekken is in the catalog, on Tekken, in instruct v3
    assert sorted(tekken_models) == ["ministral-8b-2410", "mistral-small-2409", "open-mistral-nemo-2407",
                                     "pixtral-12b-2409"]  # fmt: skip
    for name in tekken_models:
        assert (MODELS[name].tokenizer_id, MODELS[name].chat_format) == ("tekken", "mistral_v3")
    # every Mistral line of the catalog that the table names counts as the table's tokenizer does
    for m in CATALOG:
        if m.maker == "Mistral AI" and m.id in MODEL_NAME_TO_TOKENIZER_CLS:
            theirs = MODEL_NAME_TO_TOKENIZER_CLS[m.id]().instruct_tokenizer.tokenizer
            assert theirs.encode(PROBE, bos=False, eos=False) == builtin(m.tokenizer_id).encode(PROBE), m.id
    # the others are open-weight releases the table does not name: their repositories ship the
    # tokenizer (tokenizer.model.v1 for Mistral 7B v0.1 / v0.2 and Mixtral 8x7B, .v3 for Mistral 7B v0.3)
    others = {
        m.id: m.tokenizer_id
        for m in CATALOG
        if m.maker == "Mistral AI" and m.id not in MODEL_NAME_TO_TOKENIZER_CLS
    }
    assert others == {"mistral-7b-v0.1": "mistral_sp_v1", "mistral-7b-v0.2": "mistral_sp_v1",
                      "mixtral-8x7b": "mistral_sp_v1", "mistral-7b-v0.3": "mistral_sp_v3"}  # fmt: skip


def test_the_tokenizer_table_and_the_registry_name_tekkens_models_as_mistral_commons_table_does():
    names = sorted(MODELS[m].name for m in ("open-mistral-nemo-2407", "pixtral-12b-2409", "ministral-8b-2410",
                                             "mistral-small-2409"))  # fmt: skip
    row = next(line for line in (ROOT / "docs" / "tokenizers.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| Mistral Tekken |"))  # fmt: skip
    used_by = row.split("|")[2]
    assert sorted(n.strip() for n in used_by.split(",")) == names
    assert "Small 3" not in used_by
    assert sorted(BUILTINS["tekken"].info.models) == names


def test_claude_has_prices_and_no_tokenizer_of_ours():
    claude = [m for m in CATALOG if m.maker == "Anthropic"]
    assert {"claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5", "claude-sonnet-4-0"} <= {
        m.id for m in claude
    }
    for m in claude:
        assert (
            m.tokenizer_id is None and m.chat_format is None and m.price and m.price.startswith("anthropic:")
        )
    (c,) = resolve_choices(["claude-sonnet-4-5"])
    assert not c.counted and group_by_tokenizer([c]) == []


def test_models_the_source_has_and_the_catalog_does_not():
    """The makers' models the pinned source sells that the catalog does not list. A pin update
    that adds one changes this list: map it with one line in CATALOG (the suggestion is printed)
    or accept it here. Each can still be picked and counted with a tokenizer the user chooses."""
    from tiktoken.model import encoding_name_for_model

    extra = uncatalogued_models(on=DAY)
    assert extra and all(e.id.startswith("src:") and e.tokenizer_id is None for e in extra.values())
    assert not {e.price for e in extra.values()} & {m.price for m in CATALOG}
    mappable = {}
    for e in extra.values():
        provider, model_id = parse_ref(e.price)
        if provider != "openai":
            continue
        try:
            enc = encoding_name_for_model(model_id)
        except KeyError:
            continue
        enc = TIKTOKEN_ALIASES.get(enc, enc)
        if enc in BUILTINS:
            chat = "harmony" if enc == "o200k_harmony" else "openai"  # check the format before adding
            mappable[model_id] = f'_M("{model_id}", "{e.name}", OPENAI, "{enc}", "{chat}", "{e.price}"),'
    print("\n".join(mappable.values()))
    # OpenAI models tiktoken maps to a tokenizer the app has, left out of the catalog on purpose:
    # dated snapshots and previews, audio, image, search, realtime and fine-tuning entries, and
    # models the catalog lists under another line.
    assert set(mappable) == {
        "babbage-002", "chatgpt-4o-latest", "davinci-002", "ft:gpt-3.5-turbo-", "ft:gpt-4o", "ft:gpt-4o-mini",
        "gpt-3.5-turbo-0613", "gpt-3.5-turbo-1106", "gpt-3.5-turbo-16k", "gpt-3.5-turbo-instruct", "gpt-4-32k",
        "gpt-4-vision-preview", "gpt-4.5-preview", "gpt-4o-2024-05-13", "gpt-4o-audio-preview",
        "gpt-4o-mini-2024-07-18.ft-", "gpt-4o-mini-audio-preview", "gpt-4o-mini-realtime-preview",
        "gpt-4o-mini-transcribe", "gpt-4o-mini-tts", "gpt-4o-realtime-preview", "gpt-4o-search-preview",
        "gpt-4o-transcribe", "gpt-5-image", "gpt-5-image-mini", "gpt-5-search-api",
        "gpt-5.1-codex-mini", "gpt-5.3", "gpt-5.3-codex", "gpt-5.4-image-2", "gpt-5.5-cyber", "gpt-5.6-cyber",
        "o1-mini", "o1-preview", "o3-deep-research", "o4-mini-deep-research", "text-davinci-002",
        "ada", "babbage", "curie", "davinci", "gpt-oss-120b", "gpt-oss-20b", "gpt-oss-safeguard-20b",
    }  # fmt: skip


def test_a_model_only_the_source_has_is_counted_with_the_users_tokenizer_labelled_so():
    extra = uncatalogued_models(on=DAY)
    sid = next(i for i, e in extra.items() if e.name == "GPT-6 Astra")
    (waiting,) = resolve_choices([sid], source_models=extra)
    assert waiting.users_tokenizer and not waiting.counted and waiting.name == "GPT-6 Astra"
    (chosen,) = resolve_choices([sid], source_models=extra, users_tokenizers={sid: "o200k_base"})
    assert chosen.tokenizer_id == "o200k_base" and chosen.users_tokenizer and chosen.model.price
    price = prices.model_price(chosen.model, on=DAY, tokenizer_id=chosen.tokenizer_id)
    assert price.priced and price.tokenizer_id == "o200k_base" and price.model == "GPT-6 Astra"
    # a tokenizer that is not there is no choice
    (gone,) = resolve_choices([sid], source_models=extra, users_tokenizers={sid: "removed-upload"})
    assert gone.tokenizer_id is None


def test_one_rule_for_a_context_window_everywhere():
    gpt4 = resolve_choices(["gpt-4"])
    assert window_for(gpt4, chosen=128_000) == windows.ContextWindow(8_192, "GPT-4")
    assert window_for(resolve_choices(["cl100k_base"]), chosen=128_000).chosen
    both = resolve_choices(["gpt-4o", "gpt-5.5"])
    assert window_for(both, chosen=32_000) == windows.ContextWindow(128_000, "GPT-4o (the smallest)")
    assert model_window(MODELS["gpt-2"]) == 1_024  # the line's own, where the source has none
    assert model_window(MODELS["llama-3.1-405b"]) is None  # the source names no window: the page's is used
    # the text-mode table and the chat table use it: GPT-4's share is of its own 8,192 tokens
    text = "hello world " * 100
    rows = count_table(text, [builtin("cl100k_base"), builtin("o200k_base")], context_window=128_000)
    choices = resolve_choices(["gpt-4", "o200k_base"])
    measured = {r.tokenizer_id: r for r in with_windows(rows, group_by_tokenizer(choices), chosen=128_000)}
    assert measured["cl100k_base"].context_window == 8_192
    assert measured["cl100k_base"].context_pct == round(100 * builtin("cl100k_base").count(text) / 8_192, 3)
    assert measured["o200k_base"].context_window == 128_000


def test_old_ids_from_links_and_files_still_resolve():
    assert (
        canonical_id("llama-3.1") == "llama-3.1-8b"
        and canonical_id("mistral-nemo") == "open-mistral-nemo-2407"
    )
    assert canonical_id("gpt-4o") == "gpt-4o" and canonical_id("o200k_base") == "o200k_base"
    assert [c.id for c in resolve_choices(["llama-3.1", "llama-3.1-8b", "qwen-3"])] == [
        "llama-3.1-8b",
        "qwen3-32b",
    ]
    assert all(new in MODELS for new in LEGACY_IDS.values())


def test_encodings_stay_selectable_by_their_own_names():
    options = picker_options(list(BUILTINS))
    assert set(BUILTINS) <= set(options)
    (enc,) = resolve_choices(["cl100k_base"])
    assert enc.tokenizer_id == "cl100k_base" and enc.model is None and enc.chat_format is None
    # a picker lists models whose tokenizer is there, and those without a public one
    assert "llama-3.1-8b" not in picker_options(["o200k_base"]) and "claude-opus-4-1" in picker_options([])


def test_models_sharing_a_tokenizer_are_counted_once_and_named_as_the_picker_names_them():
    choices = resolve_choices(["gpt-4o", "gpt-5", "llama-3.1-8b", "o200k_base", "claude-haiku-4-5"])
    groups = group_by_tokenizer(choices)
    assert [g.tokenizer_id for g in groups] == ["o200k_base", "llama3"]
    assert groups[0].names == ["GPT-4o", "GPT-5", "o200k_base"]
    note = shared_tokenizer_note(groups, tokenizer_names=builtin_names())
    assert note == "GPT-4o and GPT-5 use o200k_base: counted once."
    assert names_by_tokenizer(choices) == {
        "o200k_base": "GPT-4o, GPT-5, o200k_base",
        "llama3": "Llama 3.1 8B",
    }


def test_no_name_doubles_its_brackets_or_carries_an_id():
    for m in CATALOG:
        assert m.label == m.name and not re.search(r"\)\s*\(", m.name), m.name
        assert "_" not in m.name, m.name


@pytest.mark.parametrize("mid", DEFAULT_CHOICES)
def test_defaults_are_catalog_models_with_prices(mid):
    assert MODELS[mid].tokenizer_id in BUILTINS and MODELS[mid].price


def test_a_source_model_is_listed_under_its_maker_not_its_seller():
    """Issue 31 (11): the source files "DeepSeek V4.1 Flash 1017" under Mistral, who sells it;
    DeepSeek made it (and Anthropic made the Claude models Google sells)."""
    found = prices.uncatalogued_models(on=date(2026, 12, 4))
    assert found["src:mistral:deepseek-v4-1-flash-1017"].maker == "DeepSeek"
    assert {e.maker for k, e in found.items() if k.startswith("src:google:claude-")} == {"Anthropic"}
    assert entries.maker_of("Grok 4", "X AI") == "X AI"  # no family known: the seller
