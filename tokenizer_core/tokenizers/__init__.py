"""The shared base: real tokenizers behind one interface, and the text and HTML around them.

Data flows `registry` (which tokenizers exist; loads each offline, its vocabulary checked by hash
via `vocab` and split by a `patterns` regex) or `uploads` (a user's own file, checked) ->
`encoders` (:class:`Tokenizer`: text -> ids -> `segments`, exact substrings with their ids; the
tiktoken engine there, Hugging Face's in `hf_engine`) -> `render` (escaped, coloured token HTML) or
`view_data` (compact token view data that the app draws in the browser).
`textio` turns uploaded bytes into text first. Every feature package builds on this one; it
imports none of them.

    >>> from tokenizer_core.tokenizers import load_builtin
    >>> load_builtin("cl100k_base").encode("hello world")
    [15339, 1917]
"""

from .encoders import (
    TiktokenTokenizer,
    Tokenizer,
    TokenizerFailed,
    TokenizerInfo,
    clean_text,
    split_for_batch,
    view_windows,
)
from .hf_engine import HFTokenizer
from .notes import some_of, summarised
from .patterns import PATTERNS
from .registry import (
    BUILTINS,
    DEFAULT_IDS,
    NO_PUBLIC_TOKENIZER,
    TokenizerUnavailable,
    builtin_infos,
    load_builtin,
)
from .render import escape_markdown, legend_html, markdown_code, segments_html
from .segments import Segment, token_count, unshared_boundaries
from .textio import MAX_TEXT_BYTES, TEXT_EXTENSIONS, InputError, decode_text, load_sample
from .uploads import is_own_id, tokenizer_from_hf_json, tokenizer_from_tiktoken_bytes
from .view_data import TokenPane, token_view_data, view_payload
from .vocab import ServerBusy, VocabularyError, vocabulary_file_problem

__all__ = [
    "builtin_infos",
    "BUILTINS",
    "clean_text",
    "decode_text",
    "DEFAULT_IDS",
    "escape_markdown",
    "HFTokenizer",
    "InputError",
    "is_own_id",
    "legend_html",
    "load_builtin",
    "load_sample",
    "markdown_code",
    "MAX_TEXT_BYTES",
    "NO_PUBLIC_TOKENIZER",
    "PATTERNS",
    "Segment",
    "segments_html",
    "some_of",
    "split_for_batch",
    "summarised",
    "TEXT_EXTENSIONS",
    "TiktokenTokenizer",
    "token_count",
    "token_view_data",
    "Tokenizer",
    "tokenizer_from_hf_json",
    "tokenizer_from_tiktoken_bytes",
    "TokenizerFailed",
    "TokenizerInfo",
    "TokenizerUnavailable",
    "TokenPane",
    "unshared_boundaries",
    "view_payload",
    "view_windows",
    "vocabulary_file_problem",
    "ServerBusy",
    "VocabularyError",
]
