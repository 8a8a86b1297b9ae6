"""The shared base: real tokenizers behind one interface, and the text and HTML around them.

Data flows `registry` (which tokenizers exist; loads each offline, its vocabulary checked by hash
via `vocab` and split by a `patterns` regex) -> `encoders` (:class:`Tokenizer`: text -> ids ->
`segments`, exact substrings with their ids) -> `render` (escaped, coloured token HTML) or
`view_data` (compact token view data that the app draws in the browser).
`textio` turns uploaded bytes into text first. Every feature package builds on this one; it
imports none of them.

    >>> from tokenizer_core.tokenizers import load_builtin
    >>> load_builtin("cl100k_base").encode("hello world")
    [15339, 1917]
"""

from .colours import (
    LEGEND_COLUMNS,
    PADDING,
    PALETTE,
    bottom_legend,
    bottom_legend_px,
    colour_scale,
    lighter,
    tokenizer_color_encoding,
    tokenizer_hex,
    tokenizer_hexes,
)
from .encoders import (
    HFTokenizer,
    TiktokenTokenizer,
    Tokenizer,
    TokenizerFailed,
    TokenizerInfo,
    clean_text,
    split_for_batch,
    view_windows,
)
from .notes import MAX_NOTES, short, some_of, summarised
from .patterns import PATTERNS, Pattern
from .registry import (
    BUILTINS,
    DEFAULT_IDS,
    NO_PUBLIC_TOKENIZER,
    TokenizerUnavailable,
    builtin_infos,
    load_builtin,
    model_index,
    tokenizer_from_encoding,
    tokenizer_from_hf_json,
    tokenizer_from_tiktoken_bytes,
)
from .render import (
    escape_markdown,
    legend_html,
    markdown_code,
    segments_html,
    token_background,
    token_class,
    token_css,
    token_hue,
    visible_whitespace,
)
from .segments import Segment, boundary_offsets, segments_from_pieces, token_count, unshared_boundaries
from .textio import MAX_TEXT_BYTES, TEXT_EXTENSIONS, InputError, decode_text, load_sample, sample_names
from .view_data import TokenPane, pane_marks, pane_segments, token_view_data, view_payload
from .vocab import VocabularyError, vocabulary_file_problem

__all__ = [
    # registry, engines, vocabulary files, patterns
    "BUILTINS", "DEFAULT_IDS", "HFTokenizer", "PATTERNS", "Pattern", "TiktokenTokenizer",
    "Tokenizer", "TokenizerFailed", "TokenizerInfo", "TokenizerUnavailable", "VocabularyError", "builtin_infos",
    "clean_text", "load_builtin", "split_for_batch", "tokenizer_from_encoding",
    "tokenizer_from_hf_json", "tokenizer_from_tiktoken_bytes", "view_windows",
    "NO_PUBLIC_TOKENIZER", "model_index", "vocabulary_file_problem",
    # message lists for people: capped and summarised
    "MAX_NOTES", "short", "some_of", "summarised",
    # segments and token HTML
    "Segment", "boundary_offsets", "escape_markdown", "legend_html", "markdown_code",
    "segments_from_pieces", "segments_html", "token_background", "token_class", "token_css", "token_count", "token_hue",
    "unshared_boundaries", "visible_whitespace",
    # the light token view's data (drawn in the browser by the app)
    "TokenPane", "pane_marks", "pane_segments", "token_view_data", "view_payload",
    # one colour per tokenizer on every chart
    "LEGEND_COLUMNS", "PADDING", "PALETTE", "bottom_legend", "bottom_legend_px", "colour_scale", "lighter",
    "tokenizer_color_encoding", "tokenizer_hex", "tokenizer_hexes",
    # text input
    "MAX_TEXT_BYTES", "TEXT_EXTENSIONS", "InputError", "decode_text", "load_sample", "sample_names",
]  # fmt: skip
