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
    MergeEncoder,
    bpe_symbol_label,
    bpe_words_at_step,
    export_agreement,
    model_id,
    probe_bpe,
    tiktoken_problem,
    trained_tokenizer,
)
from .io import load_bpe_model, save_bpe_model
from .limits import UNSPACED_MAX_CHARS, corpus_limit
from .model import (
    MARKER_PRESETS,
    SYMBOL_KINDS,
    TIE_BREAKS,
    BPEError,
    BPEModel,
    BPEOptions,
    count_words,
    plural,
    pretokenizer_labels,
)
from .presets import BPE_PRESETS
from .train import BPETrainer, train_bpe, with_steps
from .view import (
    bpe_candidate_rows,
    bpe_fired_rows,
    bpe_merge_rows,
    bpe_tokenizer_size,
    bpe_tokens_summary,
    bpe_vocabulary_help,
    bpe_words_html,
    explain_bpe_choice,
)

__all__ = [
    "bpe_candidate_rows",
    "bpe_fired_rows",
    "bpe_merge_rows",
    "BPE_PRESETS",
    "bpe_symbol_label",
    "bpe_tokenizer_size",
    "bpe_tokens_summary",
    "bpe_vocabulary_help",
    "bpe_words_at_step",
    "bpe_words_html",
    "BPEError",
    "BPEModel",
    "BPEOptions",
    "BPETrainer",
    "corpus_limit",
    "count_words",
    "explain_bpe_choice",
    "export_agreement",
    "load_bpe_model",
    "MARKER_PRESETS",
    "MergeEncoder",
    "model_id",
    "plural",
    "pretokenizer_labels",
    "probe_bpe",
    "save_bpe_model",
    "SYMBOL_KINDS",
    "TIE_BREAKS",
    "tiktoken_problem",
    "train_bpe",
    "trained_tokenizer",
    "UNSPACED_MAX_CHARS",
    "with_steps",
]
