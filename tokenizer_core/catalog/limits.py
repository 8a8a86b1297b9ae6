"""What a provider takes in one request, besides the context window: output limits, the models
that can be fine-tuned and their per-example limits, and the embeddings endpoint's limits.

Each figure is the provider's own, with its source in ``docs/preflight-rules.md``. A model missing
from a table has no figure here: the checks then say what they could not check, never guess.

    >>> output_limit("gpt-4o"), output_limit("llama-3.1-8b")
    (16384, None)
    >>> FINE_TUNABLE["gpt-4o-mini"].example_limit
    65536
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

# OpenAI's model pages ("Max output tokens"), read 2026-12. A row's max_tokens above it is refused.
OUTPUT_LIMITS: dict[str, int] = {
    "gpt-5.5": 128_000,
    "gpt-5.1": 128_000,
    "gpt-5": 128_000,
    "gpt-5-mini": 128_000,
    "gpt-5-nano": 128_000,
    "o4-mini": 100_000,
    "o3": 100_000,
    "o3-pro": 100_000,
    "o3-mini": 100_000,
    "o1": 100_000,
    "o1-pro": 100_000,
    "gpt-4.1": 32_768,
    "gpt-4.1-mini": 32_768,
    "gpt-4.1-nano": 32_768,
    "gpt-4o": 16_384,
    "gpt-4o-mini": 16_384,
    "gpt-4-turbo": 4_096,
    "gpt-4": 8_192,
    "gpt-3.5-turbo": 4_096,
}
# The chat API's reference, max_tokens: "deprecated in favor of max_completion_tokens, and is not
# compatible with o-series models"; the GPT-5 models answer the same 400 ("Unsupported parameter:
# 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."). By family.
NO_MAX_TOKENS_PREFIXES = ("o1", "o3", "o4", "gpt-5")
OUTPUT_LIMITS_SOURCE = "OpenAI's model pages (platform.openai.com/docs/models), read 2026-12"


def output_limit(model_id: str) -> int | None:
    """The most output tokens a request to the model may ask for, or None where no figure is known."""
    return OUTPUT_LIMITS.get(model_id)


@dataclass(frozen=True, slots=True)
class FineTunable:
    """A model OpenAI fine-tunes: the snapshot trained, the longest example it trains on whole
    (None: the guide gives no figure, the context window applies), and its list training price."""

    snapshot: str
    example_limit: int | None
    training_usd_per_million: Decimal


# OpenAI's fine-tuning guide ("Which models can be fine-tuned", "Token limits") and its pricing
# page (fine-tuning: training per 1M tokens), read 2026-12. Examples over the limit are cut, not
# refused; the price is a list price the page lets the user replace.
FINE_TUNABLE: dict[str, FineTunable] = {
    "gpt-4.1": FineTunable("gpt-4.1-2025-04-14", None, Decimal("25.00")),
    "gpt-4.1-mini": FineTunable("gpt-4.1-mini-2025-04-14", None, Decimal("5.00")),
    "gpt-4.1-nano": FineTunable("gpt-4.1-nano-2025-04-14", None, Decimal("1.50")),
    "gpt-4o": FineTunable("gpt-4o-2024-08-06", 65_536, Decimal("25.00")),
    "gpt-4o-mini": FineTunable("gpt-4o-mini-2024-07-18", 65_536, Decimal("3.00")),
    "gpt-3.5-turbo": FineTunable("gpt-3.5-turbo-0125", 16_385, Decimal("8.00")),
}
FINE_TUNING_SOURCE = "OpenAI's fine-tuning guide and pricing page, read 2026-12"
MIN_TRAINING_EXAMPLES = 10  # the fine-tuning guide: "at least 10 examples"

# OpenAI's embeddings guide and API reference ("Create embeddings"): each input is counted on its
# own and may hold at most 8,192 tokens; a request takes at most 2,048 inputs and 300,000 tokens.
EMBEDDING_INPUT_TOKENS = 8_192
EMBEDDING_REQUEST_TOKENS = 300_000

# OpenAI Batch ("Create batch" in the API reference and the Batch guide): an input file holds
# at most 50,000 requests and 200 MB; an embeddings batch at most 50,000 inputs in all.
BATCH_MAX_REQUESTS = 50_000
BATCH_MAX_BYTES = 200 * 1024 * 1024
BATCH_MAX_EMBEDDING_INPUTS = 50_000

# Anthropic Message Batches (its batch processing guide, "Batch limitations"): at most 100,000
# requests or 256 MB a batch, whichever comes first.
ANTHROPIC_BATCH_MAX_REQUESTS = 100_000
ANTHROPIC_BATCH_MAX_BYTES = 256 * 1024 * 1024


__all__ = [
    "ANTHROPIC_BATCH_MAX_BYTES", "ANTHROPIC_BATCH_MAX_REQUESTS", "BATCH_MAX_BYTES", "BATCH_MAX_EMBEDDING_INPUTS", "BATCH_MAX_REQUESTS", "EMBEDDING_INPUT_TOKENS",
    "EMBEDDING_REQUEST_TOKENS", "FINE_TUNABLE", "NO_MAX_TOKENS_PREFIXES", "FINE_TUNING_SOURCE", "MIN_TRAINING_EXAMPLES", "OUTPUT_LIMITS",
    "OUTPUT_LIMITS_SOURCE", "FineTunable", "output_limit",
]  # fmt: skip
