"""Tokenizer Workbench core: real tokenizers, counting, chat requests, BPE, identifiers, languages,
chunking. Importable from a notebook; never imports Streamlit.

    >>> import tokenizer_core as tc
    >>> tok = tc.tokenizer_for("gpt-4")
    >>> tok.encode("hello world")
    [15339, 1917]
    >>> [(r.tokenizer, r.tokens) for r in tc.count_table("hello world", [tok, "gpt-4o"])]
    [('cl100k_base', 2), ('o200k_base', 2)]

This module holds the names a notebook user needs: load a tokenizer, count, chat requests, chunk,
train BPE and use the result as a tokenizer, compare languages, split identifiers, count a whole
set, and the errors. Wherever a tokenizer is taken, a model's name (``"gpt-4o"``, a catalog id)
or a tokenizer's (``"o200k_base"``) may be given instead, and a model's name implies its chat
format (``tc.count_request(chat, "llama-3.1-8b")``).
Everything else is imported from the package that owns it, one package per feature:

* `tokenizers`: the shared base (registry, engines, vocabulary files, patterns, segments, token
  HTML, text input). Every feature builds on it; it imports no feature.
* `catalog`: the models by their makers' names and their prices (from a pinned offline source),
  and a model's tokenizer by name, the second base: every feature may use it; it imports none.
* `workspace`: counts, chat formats, versions and share links.
* `bpe`: training and encoding a byte-pair encoding.  `identifiers`: code identifiers and the
  greedy teaching tokenizer.  `languages`: what the same text costs in each language.
  `chunking`: token-sized chunks for retrieval.  `jobs`: the worker pool.
* `datasets`: whole sets (a Batch file, a fine-tuning set, a table, a repository) counted per
  model, built on the features.

Each package's `charts` module (Altair) is imported on its own, so Altair loads only when drawn.
"""

from .bpe import BPEError, BPEModel, BPEOptions, load_bpe_model, save_bpe_model, train_bpe, trained_tokenizer
from .catalog import MODELS, PriceError, PriceTable, tokenizer_for
from .chunking import ChunkSettingsError, chunk_text, count_texts
from .datasets import count_dataset
from .identifiers import analyse_identifiers, split_identifier
from .languages import Language, LanguageError, language_table
from .tokenizers import (
    BUILTINS,
    InputError,
    Segment,
    Tokenizer,
    TokenizerFailed,
    TokenizerUnavailable,
    VocabularyError,
    decode_text,
    load_builtin,
    tokenizer_from_hf_json,
    tokenizer_from_tiktoken_bytes,
)
from .workspace import (
    CHAT_FORMATS,
    ChatRenderError,
    CountRow,
    Message,
    RequestCount,
    ToolsError,
    count_request,
    count_table,
)

__all__ = [
    # tokenizers
    "BUILTINS", "load_builtin", "tokenizer_for", "Tokenizer", "Segment", "tokenizer_from_hf_json", "tokenizer_from_tiktoken_bytes",
    "decode_text",
    # counting a text and a chat request
    "count_table", "CountRow", "MODELS", "CHAT_FORMATS", "Message", "count_request", "RequestCount",
    "PriceTable",
    # whole sets
    "count_dataset",
    # BPE
    "BPEOptions", "train_bpe", "BPEModel", "trained_tokenizer", "save_bpe_model", "load_bpe_model",
    # identifiers, languages, chunks
    "split_identifier", "analyse_identifiers", "Language", "language_table", "chunk_text", "count_texts",
    # errors
    "TokenizerFailed", "TokenizerUnavailable", "VocabularyError", "InputError", "ToolsError", "ChatRenderError",
    "PriceError", "BPEError", "LanguageError", "ChunkSettingsError",
]  # fmt: skip
