"""Inside a tokenizer: every step from a text to its ids and back, for the real tokenizers, and
the surprises those steps explain ("Why did it count that?").

Pure: no Streamlit. The steps are records a page draws (:mod:`.walk`, :mod:`.steps`); the
coloured HTML is built and escaped here (:mod:`.html`).
"""

from .byte_alphabet import byte_display, byte_to_unicode
from .merges import merge_steps
from .pattern import Alternative, alternatives, cut, explain, split_top_level
from .records import (
    MAX_REPLAY_BYTES,
    AppliedMerge,
    Machine,
    Normalisation,
    PrefixSearch,
    PreTokenPiece,
    Replay,
    Segmentation,
)
from .steps import STEP_TITLES, Fallback, RoundTrip, SplitChar, TokenRow, Walkthrough, inspect_text
from .walk import machine_for, replayed_ids

__all__ = [
    "Alternative", "alternatives", "cut", "explain", "split_top_level",
    "STEP_TITLES", "Fallback", "RoundTrip", "SplitChar", "TokenRow", "Walkthrough", "inspect_text",
    "MAX_REPLAY_BYTES", "Machine", "AppliedMerge", "Normalisation", "PreTokenPiece", "Replay", "PrefixSearch", "Segmentation", "byte_display",
    "byte_to_unicode", "machine_for", "merge_steps", "replayed_ids",
]  # fmt: skip
