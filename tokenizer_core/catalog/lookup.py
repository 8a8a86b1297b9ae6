"""A model by name, for a notebook: the tokenizer that counts it and the chat format it is sent in.

Every top-level call that takes a tokenizer also takes a name, resolved here: a catalog model id
(``"gpt-4o"``, ``"llama-3.1-8b"``, also an older id such as ``"llama-3.1"``) or a built-in tokenizer
id (``"o200k_base"``). A tokenizer named this way is loaded once per process and kept.

    >>> tokenizer_for("gpt-4o").info.id
    'o200k_base'
    >>> chat_format_of("llama-3.1-8b")
    'llama31'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tokenizers.encoders import Tokenizer
from ..tokenizers.package_data import TokenizerUnavailable
from ..tokenizers.registry import BUILTINS, builtin
from .entries import MODELS, ModelEntry, canonical_id


def _model(name: str) -> ModelEntry | None:
    return MODELS.get(canonical_id(name.strip()))


def tokenizer_for(name: str) -> Tokenizer:
    """The tokenizer that counts a model (``"gpt-4o"``) or a built-in tokenizer by its id
    (``"cl100k_base"``), loaded once per process. Raises TokenizerUnavailable, saying why, for a
    model whose maker publishes no tokenizer or a name that is neither."""
    if not isinstance(name, str):
        raise TypeError(f"a model or tokenizer name is a string, not {type(name).__name__}")
    model = _model(name)
    if model is not None and model.tokenizer_id is None:
        raise TokenizerUnavailable(
            model.id, "its maker publishes no tokenizer", "count it with its maker's token-counting API"
        )
    tokenizer_id = model.tokenizer_id if model is not None else name.strip()
    if tokenizer_id not in BUILTINS:
        raise TokenizerUnavailable(
            name, "no model or tokenizer of that name",
            f"use a model id such as 'gpt-4o' (tokenizer_core.MODELS) or one of {', '.join(BUILTINS)}",
        )  # fmt: skip
    return builtin(tokenizer_id)


def chat_format_of(name: str) -> str | None:
    """The chat format id a model is sent in (``"llama-3.1-8b"`` -> ``"llama31"``); None for a
    tokenizer id or a model that takes no chat."""
    model = _model(name)
    return model.chat_format if model is not None else None


def as_tokenizer(tokenizer: Tokenizer | str) -> Tokenizer:
    """A Tokenizer as it is; a name as :func:`tokenizer_for` resolves it."""
    return tokenizer_for(tokenizer) if isinstance(tokenizer, str) else tokenizer


def as_tokenizers(tokenizers: Sequence[Tokenizer | str] | Tokenizer | str) -> list[Tokenizer]:
    """Each of a list resolved by :func:`as_tokenizer` (one name or Tokenizer alone is a list of one)."""
    if isinstance(tokenizers, str) or not isinstance(tokenizers, Sequence):
        return [as_tokenizer(tokenizers)]
    return [as_tokenizer(t) for t in tokenizers]


__all__ = ["as_tokenizer", "as_tokenizers", "chat_format_of", "tokenizer_for"]
