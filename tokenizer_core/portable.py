"""A tokenizer as data another process can rebuild: how a user's own tokenizer reaches a worker.

Built-in tokenizers travel as their id (each worker loads them once). A user's tokenizer (an
uploaded `.tiktoken` or `tokenizer.json`, a model trained on the BPE page) travels as what it
is made of, and the worker rebuilds it once per id (ids are hashes of that content)::

    ref = portable(tok)          # "cl100k_base", or a PortableTokenizer
    rebuild(ref).count(text)     # in the worker: the same counts as tok.count(text)
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass

from .tokenizers import BUILTINS, HFTokenizer, TiktokenTokenizer, Tokenizer, TokenizerInfo
from .tokenizers.registry import builtin

_REBUILT_KEPT = 4  # a worker keeps this many users' tokenizers rebuilt (each can be tens of MB)


@dataclass(frozen=True, eq=False)
class PortableTokenizer:
    """What a worker needs to rebuild a user's tokenizer (`engine`: tiktoken, hf or bpe)."""

    info: TokenizerInfo
    engine: str
    data: tuple

    @property
    def id(self) -> str:
        return self.info.id


TokenizerRef = str | PortableTokenizer  # a built-in's id, or a user's tokenizer as data


def portable(tok: Tokenizer) -> TokenizerRef | None:
    """`tok` in a form a worker can rebuild (a user's under its id, not the name they gave it);
    None for a kind of tokenizer that cannot travel.

    ``portable(load_builtin("cl100k_base")) == "cl100k_base"``.
    """
    if tok.info.kind == "builtin" and tok.id in BUILTINS:
        return tok.id
    info = dataclasses.replace(tok.info, name=tok.id)  # the name a session chose stays with it
    from .hosted import HostedTokenizer

    if isinstance(tok, HostedTokenizer):  # the uploaded file itself: the worker builds it as the upload was
        return PortableTokenizer(info, "upload", tok.portable_data())
    if isinstance(tok, TiktokenTokenizer):
        enc = tok.encoding
        data: tuple = (enc.name, enc._pat_str, enc._mergeable_ranks, enc._special_tokens,
                       tok.normalize_nfc, tok.newline_safe)  # fmt: skip
        return PortableTokenizer(info, "tiktoken", data)
    if isinstance(tok, HFTokenizer):
        return PortableTokenizer(
            info, "hf", (tok.tokenizer.to_str(), dict(tok.special_tokens), tok.newline_safe)
        )
    from .bpe.encode import BPETokenizer

    if isinstance(tok, BPETokenizer):
        return PortableTokenizer(info, "bpe", (tok.model,))
    return None


def portable_all(toks: list[Tokenizer]) -> tuple[TokenizerRef, ...] | None:
    """Every tokenizer of `toks` as `portable`, or None if one of them cannot travel."""
    refs = tuple(portable(t) for t in toks)
    return None if any(r is None for r in refs) else refs  # type: ignore[return-value]


_rebuilt: OrderedDict[str, Tokenizer] = OrderedDict()


def cached_builtin(tokenizer_id: str) -> Tokenizer:
    """A built-in tokenizer, loaded once per process (the registry's one cache, shared with every
    other caller of the process)."""
    return builtin(tokenizer_id)


def rebuild(ref: TokenizerRef) -> Tokenizer:
    """The tokenizer `ref` stands for (a built-in loaded, a user's rebuilt), kept for reuse."""
    if isinstance(ref, str):
        return cached_builtin(ref)
    tok = _rebuilt.get(ref.id)
    if tok is None:
        tok = _build(ref)
        _rebuilt[ref.id] = tok
        while len(_rebuilt) > _REBUILT_KEPT:
            _rebuilt.popitem(last=False)
    _rebuilt.move_to_end(ref.id)
    return tok


def _build(ref: PortableTokenizer) -> Tokenizer:
    if ref.engine == "tiktoken":
        import tiktoken

        name, pat_str, ranks, specials, nfc, newline_safe = ref.data
        enc = tiktoken.Encoding(name, pat_str=pat_str, mergeable_ranks=ranks, special_tokens=specials)
        return TiktokenTokenizer(ref.info, enc, normalize_nfc=nfc, newline_safe=newline_safe)
    if ref.engine == "hf":
        import tokenizers

        text, specials, newline_safe = ref.data
        for added_are_special in (False, True):
            tk = tokenizers.Tokenizer.from_str(text)
            tok = HFTokenizer(ref.info, tk, added_are_special=added_are_special, newline_safe=newline_safe)
            if dict(tok.special_tokens) == specials:
                return tok
        raise ValueError(f"the tokenizer {ref.info.name!r} could not be rebuilt with its special tokens")
    if ref.engine == "upload":
        from .hosted import build_upload

        kind, data, pattern_id = ref.data
        uploaded = build_upload(kind, data, ref.info.name, pattern_id)
        uploaded.info = ref.info  # its id is the upload's (a hash of the bytes and settings)
        return uploaded
    if ref.engine == "bpe":
        from .bpe.encode import BPETokenizer

        return BPETokenizer(ref.info, ref.data[0])
    raise ValueError(f"unknown tokenizer engine {ref.engine!r}")


__all__ = ["PortableTokenizer", "TokenizerRef", "cached_builtin", "portable", "portable_all", "rebuild"]
