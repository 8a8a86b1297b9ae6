"""The classic Mistral models' SentencePiece vocabularies v1, v3 and v7, from mistral-common.

PyPI mistral-common 1.13.1 ships each version as a SentencePiece `.model` file; the file is
read (the package is not imported), its sha256 checked against the pinned one, and its pieces
and scores handed to splintr's SentencePiece engine. Which model uses which version follows
mistral-common's own table (``MODEL_NAME_TO_TOKENIZER_CLS`` in
mistral_common/tokens/tokenizers/mistral.py) and the vocabularies of the open-weight releases.

v2 (mistral_instruct_tokenizer_240216) is not offered: its 32,768 ordinary pieces are v3's, and
mistral-common maps it only to API models Mistral has retired (mistral-small-2402,
mistral-large-2402 and the 2312 ids).

    >>> load_mistral_spm(MISTRAL_SPM["mistral_sp_v1"]).encode("Hello world")   # doctest: +SKIP
    [22557, 1526]
"""

from __future__ import annotations

from dataclasses import dataclass

from . import package_data
from .encoders import Tokenizer, TokenizerInfo
from .package_data import TokenizerUnavailable
from .sentencepiece_model import CONTROL, USER_DEFINED, ModelFileError, read_pieces
from .splintr_engine import SEPARATOR, SplintrTokenizer
from .vocab import sha256_bytes

MISTRAL_PIN = "mistral-common==1.13.1"
SPLINTR_PIN = "splintr-rs==0.22.0"


@dataclass(frozen=True, slots=True)
class SpmFile:
    """One SentencePiece file inside mistral-common, with its pinned sha256."""

    relative: str  # inside the mistral_common package
    sha256: str


SPM_FILES = {
    "mistral_sp_v1": SpmFile(
        "data/tokenizer.model.v1", "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055"
    ),
    "mistral_sp_v3": SpmFile(
        "data/mistral_instruct_tokenizer_240323.model.v3",
        "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
    ),
    "mistral_sp_v7": SpmFile(
        "data/mistral_instruct_tokenizer_241114.model.v7",
        "1b968b8dc352f42192367337c78ccc61e1eaddc6d641a579372d4f20694beb7a",
    ),
}


def load_mistral_spm(info: TokenizerInfo) -> Tokenizer:
    """A Mistral SentencePiece vocabulary, hash-checked, run by splintr's SentencePiece engine.

    Control tokens (``<s>``, ``[INST]``...) are text unless special tokens are allowed, as
    SentencePiece reads them; user-defined ones (``[REFERENCE_DOC_1]``) match in any text.
    """

    spec = SPM_FILES[info.id]
    fix = f"pip install --force-reinstall {MISTRAL_PIN}"
    path = package_data.package_file("mistral_common", spec.relative, MISTRAL_PIN, info.id)
    data = path.read_bytes()  # hashed and parsed from the same bytes
    digest = sha256_bytes(data)
    if digest != spec.sha256:
        raise TokenizerUnavailable(
            info.id, f"{path} hashes to {digest[:12]}..., not the pinned {spec.sha256[:12]}...", fix
        )
    try:
        pieces = read_pieces(data)
    except ModelFileError as exc:
        raise TokenizerUnavailable(info.id, f"{path} is not a SentencePiece model ({exc})", fix) from None
    if any(SEPARATOR in p.piece for p in pieces):
        raise TokenizerUnavailable(info.id, "a piece contains a newline, which this engine relies on", fix)
    try:
        import splintr
    except ImportError:
        raise TokenizerUnavailable(
            info.id, "the package splintr-rs is not installed", f"pip install {SPLINTR_PIN}"
        ) from None
    engine = splintr.SpmTokenizer(
        [p.piece for p in pieces], [p.score for p in pieces], bos_token_id=1, eos_token_id=2
    )
    special = {p.piece: i for i, p in enumerate(pieces) if p.type == CONTROL}
    whole = {p.piece: i for i, p in enumerate(pieces) if p.type == USER_DEFINED}
    return SplintrTokenizer(
        info, engine, base_vocab=len(pieces), whole=whole, special=special, dummy_prefix=True,
        vocabulary=pieces,
    )  # fmt: skip


def _source(version: str, sha: str) -> str:
    """Where a SentencePiece model comes from, in words (docs/tokenizers.md names the file)."""
    return (
        f"Mistral's SentencePiece model {version} from PyPI mistral-common 1.13.1, read as data (the "
        f"package is not imported); its sha256 {sha[:8]}... is pinned; run by splintr's SentencePiece engine"
    )


MISTRAL_SPM: dict[str, TokenizerInfo] = {
    "mistral_sp_v7": TokenizerInfo(
        "mistral_sp_v7", "Mistral SentencePiece v7", "Mistral",
        ("Mistral Large 24.11", "Pixtral Large (2411)"),
        32_768, _source("v7", SPM_FILES["mistral_sp_v7"].sha256), "Apache-2.0",
        notes="v3's ordinary pieces with control tokens for system prompts ([SYSTEM_PROMPT]).",
    ),
    "mistral_sp_v3": TokenizerInfo(
        "mistral_sp_v3", "Mistral SentencePiece v3", "Mistral",
        ("Mistral 7B v0.3", "Mixtral 8x22B", "Codestral 22B", "Mistral Large 2 (2407)"),
        32_768, _source("v3", SPM_FILES["mistral_sp_v3"].sha256), "Apache-2.0",
        notes="Text such as [INST] in your text is plain text, as SentencePiece reads it.",
    ),
    "mistral_sp_v1": TokenizerInfo(
        "mistral_sp_v1", "Mistral SentencePiece v1", "Mistral",
        ("Mistral 7B v0.1", "Mistral 7B v0.2", "Mixtral 8x7B"),
        32_000, _source("v1", SPM_FILES["mistral_sp_v1"].sha256), "Apache-2.0",
        notes="Mistral's first vocabulary: [INST] and [/INST] are ordinary text in it.",
    ),
}  # fmt: skip
