"""The BPE playground: train a byte-pair encoding step by step, then use it as a tokenizer.

Data flows word counts -> `model` (pre-tokenization into words of symbols, :class:`BPEOptions`,
the :class:`BPEModel` result) -> `train` (the incremental trainer: one :class:`MergeStep` per
merge) -> `encode` (apply the merges: :class:`BPETokenizer`, probes of one text, export to a
tiktoken vocabulary) -> `view` (rows and escaped HTML for the page). `io` saves and loads a model,
`presets` are ready-made corpora, `charts` draws the training curves
(``tokenizer_core.bpe.charts``, imported on its own so Altair loads only when drawn), and
`reference` is the textbook loop, slow and short, that the trainer is tested against.
"""

from .encode import (
    BPETokenizer,
    MergeEncoder,
    Probe,
    bpe_symbol_label,
    bpe_words_at_step,
    export_agreement,
    model_id,
    probe_bpe,
    tiktoken_problem,
    to_tiktoken,
    tokenizer_info,
    trained_tokenizer,
)
from .io import load_bpe_model, save_bpe_model
from .limits import UNSPACED_MAX_CHARS, corpus_limit, unspaced_share
from .model import (
    MARKER_PRESETS,
    SYMBOL_KINDS,
    TIE_BREAKS,
    BPEError,
    BPEModel,
    BPEOptions,
    MergeStep,
    PairCount,
    count_words,
    parse_word_counts,
    plural,
    pretokenizer_labels,
    word_counts,
)
from .presets import BPE_PRESETS, BPEPreset
from .train import BPETrainer, train_bpe, with_steps
from .view import (
    bpe_candidate_rows,
    bpe_fired_rows,
    bpe_first_seen_label,
    bpe_merge_rows,
    bpe_pair_label,
    bpe_tokenizer_size,
    bpe_tokens_summary,
    bpe_vocabulary_help,
    bpe_words_html,
    explain_bpe_choice,
)

__all__ = [
    "UNSPACED_MAX_CHARS", "corpus_limit", "unspaced_share",
    "BPEError", "BPEModel", "BPEOptions", "BPEPreset", "BPETokenizer", "BPETrainer", "BPE_PRESETS",
    "MARKER_PRESETS", "MergeEncoder", "MergeStep", "PairCount", "Probe", "SYMBOL_KINDS", "TIE_BREAKS",
    "bpe_candidate_rows", "bpe_fired_rows", "bpe_first_seen_label", "bpe_merge_rows", "bpe_pair_label",
    "bpe_symbol_label", "bpe_tokenizer_size", "bpe_tokens_summary", "bpe_vocabulary_help", "bpe_words_at_step",
    "bpe_words_html", "count_words",
    "explain_bpe_choice", "export_agreement", "load_bpe_model", "model_id", "parse_word_counts", "plural",
    "pretokenizer_labels", "probe_bpe", "save_bpe_model", "tiktoken_problem", "to_tiktoken",
    "tokenizer_info", "train_bpe", "trained_tokenizer", "with_steps", "word_counts",
]  # fmt: skip
