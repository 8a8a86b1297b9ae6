"""Image tokens, per model, by each provider's documented rule (the rules and sources: docs/preflight-rules.md).

An image's size and the images in a request come from :mod:`.image_input` (its names are
re-exported here: `image_size`, `data_url_size`, `image_part`...). Then each maker's rule:

* OpenAI: 512 px tiles (gpt-4o, gpt-4.1, gpt-4o-mini, gpt-5, gpt-5.1, o1, o3) or 32 px patches times
  a per-model multiplier (GPT-5.2 and later, gpt-4.1-mini and -nano, o4-mini), by the vision guide;
* Google: Gemini 2.x by the tokens page's 384 px / 768 px tile rule, Gemini 3 by its media resolution;
* Mistral: its own image encoder (mistral-common) for the models that take images (Pixtral);
* anyone else: not counted, with the reason.

    >>> image_tokens("gpt-4o", (1024, 1024), detail="high").tokens
    765
    >>> image_tokens("gpt-4o", (4096, 8192), detail="low").how
    '85 (low detail: the same at any size)'
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import SimpleNamespace
from typing import Any

from .entries import ANTHROPIC, GOOGLE, MISTRAL, MODELS, OPENAI, canonical_id
from .image_input import (
    FORMATS,
    ImageError,
    ImagePart,
    ImageSize,
    data_url_size,
    image_part,
    image_size,
    normalize_detail,
)

# ---------------------------------------------------------------------------------------------
# The rules


@dataclass(frozen=True, slots=True)
class ImageCount:
    tokens: int | None  # None: not counted (the note says why)
    how: str  # the rule in a user's words, e.g. "85 + 170 × 4 tiles (high detail)"
    note: str = ""  # "" or why the count is a ceiling / not made
    exact: bool = True


@dataclass(frozen=True, slots=True)
class _Tiles:
    """OpenAI's 512 px tile rule: base + tiles × tile (vision guide, "Tile-based image tokenization")."""

    base: int
    tile: int
    source: str = ""  # "" for the current guide, else which edition gives the constants


@dataclass(frozen=True, slots=True)
class _Patches:
    """OpenAI's 32 px patch rule: per detail level a maximum side and a patch budget (None: none)."""

    multiplier: Fraction
    sizing: Mapping[str, tuple[int, int | None]]  # detail -> (max side px, patch budget)
    auto: str  # the detail level "auto" sizes as
    earlier: bool = False  # sizing from the guide's earlier edition (deprecated models)


def _same(limit: tuple[int, int | None]) -> dict[str, tuple[int, int | None]]:
    return {"low": limit, "high": limit}


_GPT_5_6 = _Patches(
    Fraction(6, 5), {"low": (512, None), "high": (2048, 2500), "original": (65_535, None)}, "original"
)
_GPT_5_4 = _Patches(
    Fraction(6, 5), {"low": (2048, 6144), "high": (2048, 2500), "original": (6000, 10_000)}, "high"
)

# OpenAI's images and vision guide, the edition that lists the GPT-5.6 family (docs/preflight-rules.md).
OPENAI_RULES: dict[str, _Tiles | _Patches] = {
    "gpt-5.6-sol": _GPT_5_6,
    "gpt-5.6-terra": _GPT_5_6,
    "gpt-5.6-luna": _GPT_5_6,
    "gpt-5.5": _Patches(Fraction(6, 5), {"low": (512, None), "high": (2048, 2500), "original": (6000, 10_000)}, "original"),
    "gpt-5.4": _GPT_5_4,
    "gpt-5.4-mini": _GPT_5_4,
    "gpt-5.4-nano": _GPT_5_4,
    "gpt-5.2": _Patches(Fraction(6, 5), _same((2048, 6144)), "high"),
    "gpt-4.1-mini": _Patches(Fraction(162, 100), _same((2048, 6144)), "high"),
    # Deprecated: multipliers from the current edition, sizing (1,536 patches, 2048 px) from the
    # edition before it, which still listed them; detail does not change their count.
    "gpt-5-mini": _Patches(Fraction(6, 5), _same((2048, 1536)), "high", earlier=True),
    "gpt-5-nano": _Patches(Fraction(3, 2), _same((2048, 1536)), "high", earlier=True),
    "gpt-4.1-nano": _Patches(Fraction(246, 100), _same((2048, 1536)), "high", earlier=True),
    "o4-mini": _Patches(Fraction(172, 100), _same((2048, 1536)), "high", earlier=True),
    "gpt-5.1": _Tiles(70, 140),
    "gpt-5": _Tiles(70, 140),
    "gpt-5-chat-latest": _Tiles(70, 140, "the guide's earlier edition"),
    "gpt-4o": _Tiles(85, 170),
    "gpt-4.1": _Tiles(85, 170),
    "gpt-4.5-preview": _Tiles(85, 170, "the guide's earlier edition"),
    "gpt-4o-mini": _Tiles(2833, 5667),
    "o1": _Tiles(75, 150),
    "o1-pro": _Tiles(75, 150),
    "o3": _Tiles(75, 150),
    "computer-use-preview": _Tiles(65, 129, "the guide's earlier edition"),
    "gpt-4-turbo": _Tiles(85, 170, "the guide's 2024 edition (GPT-4 Turbo with vision)"),
}  # fmt: skip

# Models that take no image input (by their makers' model pages / mistral-common's tokenizers).
TAKES_NO_IMAGES = frozenset({
    "gpt-4", "gpt-3.5-turbo", "o3-mini", "text-davinci-003", "gpt-2", "gpt-oss-120b", "gpt-oss-20b",
    "text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002",
    "open-mistral-nemo-2407", "ministral-8b-2410", "mistral-small-2409", "mistral-large-2411",
    "mistral-large-2407", "codestral-2405", "open-mixtral-8x22b-2404", "mistral-7b-v0.3", "mixtral-8x7b",
    "mistral-7b-v0.2", "mistral-7b-v0.1", "llama-3.3-70b", "llama-3.2-3b", "llama-3.2-1b", "llama-3.1-405b",
    "llama-3.1-70b", "llama-3.1-8b", "llama-3-70b", "llama-3-8b", "qwen3-235b-a22b", "qwen3-32b",
    "qwen-2.5-72b", "gemma-2-27b", "gemma-2-9b",
})  # fmt: skip

# Mistral's vision models in the catalog: mistral-common's tokenizer for each has an image encoder.
MISTRAL_VISION = ("pixtral-12b-2409", "pixtral-large-2411")
GEMINI_3 = ("gemini-3-pro-preview", "gemini-3-flash-preview")
GEMINI_2 = (
    "gemini-2.5-pro",
    "gemini-2.5-flash",
    "gemini-2.5-flash-lite",
    "gemini-2.0-flash",
    "gemini-2.0-flash-lite",
)
# Gemini 3's tokens an image by media resolution ("media_resolution" page, Token counts).
GEMINI_3_RESOLUTION = {"low": 280, "medium": 560, "high": 1120, "ultra_high": 2240}
# GPT-5.6 at original detail keeps the image's size; a later edition of the guide says the API
# rejects an image over this many patches.
ORIGINAL_PATCH_LIMIT = 30_000

_DATE = re.compile(r"-\d{4}-\d{2}-\d{2}$")


def _n(value: int) -> str:
    return f"{value:,}"


def _fit(width: int, height: int, side: int) -> tuple[int, int]:
    """Scaled down (never up) so the longer side is at most `side`, the other rounded to the nearest pixel.

    Rounding to the nearest pixel is what OpenAI bills: 2049 × 513 costs 8 tiles on gpt-4.1 and
    2050 × 513 costs 4 (513 × 2048 / 2049 = 512.75 rounds to 513; / 2050 = 512.4995 to 512).
    """
    longest = max(width, height)
    if longest <= side:
        return width, height

    def scale(v: int) -> int:
        return max(1, (2 * v * side + longest) // (2 * longest))

    return scale(width), scale(height)


def _tile_grid(width: int, height: int) -> tuple[int, int]:
    w, h = _fit(width, height, 2048)
    if min(w, h) > 768:  # the shortest side scaled down to 768, the other rounded down; never scaled up
        w, h = (768, h * 768 // w) if w <= h else (w * 768 // h, 768)
    return math.ceil(w / 512), math.ceil(h / 512)


def _shrink_to_budget(width: int, height: int, budget: int) -> tuple[int, int]:
    """The guide's step B in exact arithmetic: the largest scale whose whole-patch grid fits `budget`.

    With s = sqrt(32² × budget / (w × h)), w × s / 32 is sqrt(w × budget / h), so its floor is an
    integer square root; the adjusted scale makes the binding side exactly that many patches.
    """
    pw = math.isqrt(width * budget // height)
    ph = math.isqrt(height * budget // width)
    if pw * height <= ph * width:  # the width's ratio floor(x) / x is the smaller one
        return max(1, 32 * pw), max(1, 32 * pw * height // width)
    return max(1, 32 * ph * width // height), max(1, 32 * ph)


def _patch_count(
    width: int, height: int, side: int, budget: int | None
) -> tuple[int, tuple[int, int] | None]:
    w, h = _fit(width, height, side)
    patches = math.ceil(w / 32) * math.ceil(h / 32)
    resized = (w, h) if (w, h) != (width, height) else None
    if budget is not None and patches > budget:
        w, h = _shrink_to_budget(w, h, budget)
        patches = math.ceil(w / 32) * math.ceil(h / 32)
        resized = (w, h)
    return patches, resized


def _max_patches(side: int, budget: int | None) -> int:
    cells = math.ceil(side / 32) ** 2
    return min(cells, budget) if budget is not None else min(cells, ORIGINAL_PATCH_LIMIT)


_UNKNOWN = "size unknown offline (an image by URL or file)"


def _openai(name: str, rule: _Tiles | _Patches, size: tuple[int, int] | None, detail: str) -> ImageCount:
    if isinstance(rule, _Tiles):
        if detail not in ("low", "high", "auto"):
            return ImageCount(None, "", f'{name} takes detail "low", "high" or "auto", not "{detail}".')
        source = f" ({rule.source})" if rule.source else ""
        if detail == "low":
            return ImageCount(rule.base, f"{_n(rule.base)} (low detail: the same at any size){source}")
        label = "high detail" if detail == "high" else "auto detail, sized as high, as OpenAI's guide says"
        if size is None:
            tiles = 8  # the most a fitted image can cover: 2048 × 768 px is 4 × 2 tiles
            return ImageCount(
                rule.base + tiles * rule.tile,
                f"{_n(rule.base)} + {_n(rule.tile)} × {tiles} tiles ({label}){source}",
                f"{_UNKNOWN}: counted at the most an image can cost at {detail} detail (8 tiles)",
                exact=False,
            )
        across, down = _tile_grid(*size)
        tiles = across * down
        return ImageCount(
            rule.base + tiles * rule.tile,
            f"{_n(rule.base)} + {_n(rule.tile)} × {tiles} tiles ({label}){source}",
        )
    sized_as = rule.auto if detail == "auto" else detail
    if sized_as not in rule.sizing and not (rule.earlier and detail == "auto"):
        levels = ", ".join(f'"{d}"' for d in (*rule.sizing, "auto"))
        return ImageCount(None, "", f'{name} takes detail {levels}, not "{detail}".')
    side, budget = rule.sizing.get(sized_as, rule.sizing["high"])
    multiplier = f"{float(rule.multiplier):g}"
    level = f"{detail} detail" + (f", sized as {sized_as}" if detail == "auto" and not rule.earlier else "")
    if rule.earlier:
        level = "any detail: detail does not change this model's count"
    note = ""
    exact = True
    if size is None:
        patches, resized = _max_patches(side, budget), None
        note = f"{_UNKNOWN}: counted at the most an image can cost at {detail} detail ({_n(patches)} patches)"
        exact = False
        if budget is None:
            note += f"; OpenAI rejects an image over {_n(ORIGINAL_PATCH_LIMIT)} patches at this detail"
    else:
        patches, resized = _patch_count(size[0], size[1], side, budget)
        if budget is None and patches > ORIGINAL_PATCH_LIMIT:
            note = (
                f"{_n(patches)} patches: OpenAI's guide says the API rejects an image over "
                f"{_n(ORIGINAL_PATCH_LIMIT)} patches at this detail"
            )
    tokens = math.ceil(patches * rule.multiplier)
    scaled = f" (the image scaled to {_n(resized[0])} × {_n(resized[1])} px)" if resized else ""
    how = f"{_n(patches)} patches{scaled} × {multiplier}, rounded up ({level})"
    return ImageCount(tokens, how, note, exact)


def _gemini(name: str, model_id: str, size: tuple[int, int] | None, detail: str) -> ImageCount:
    if model_id in GEMINI_3:
        level = "high" if detail in ("auto", "unspecified") else detail
        if level not in GEMINI_3_RESOLUTION:
            return ImageCount(
                None, "", f'{name} takes media resolution low, medium, high or ultra high, not "{detail}".'
            )
        tokens = GEMINI_3_RESOLUTION[level]
        default = ", Gemini 3's default" if level == "high" else ""
        return ImageCount(
            tokens,
            f"{_n(tokens)} (media resolution {level.replace('_', ' ')}{default})",
            "Google gives this as the most an image uses at this media resolution, at any size",
            exact=False,
        )
    if size is None:
        return ImageCount(
            None, "", f"{_UNKNOWN}: Google documents no largest count for an image on {name}; enter its size."
        )
    width, height = size
    # Google's page says larger images are "cropped and scaled as needed into tiles": the app counts
    # the 768 px tiles that cover the image, a reading Google's own counter may not match.
    note = "by Google's documented tile rule; Google's own count can differ"
    if detail not in ("auto", "unspecified"):
        note += f" (media resolution {detail.replace('_', ' ')} is not applied to this model)"
    if width <= 384 and height <= 384:
        return ImageCount(258, "258 (both sides at most 384 px)", note, exact=False)
    tiles = math.ceil(width / 768) * math.ceil(height / 768)
    return ImageCount(258 * tiles, f"258 × {tiles} tiles of 768 × 768 px", note, exact=False)


@cache
def _mistral_encoder(model_id: str) -> Any:
    """mistral-common's own image encoder for the model's tokenizer (its table of models)."""
    from mistral_common.tokens.tokenizers.mistral import MODEL_NAME_TO_TOKENIZER_CLS

    return MODEL_NAME_TO_TOKENIZER_CLS[model_id]().instruct_tokenizer.image_encoder


def _mistral(model_id: str, size: tuple[int, int] | None) -> ImageCount:
    encoder = _mistral_encoder(model_id)
    config = encoder.image_config
    biggest = config.max_image_size
    # The encoder sizes its token grid from the image's width and height alone; a stand-in with
    # that size spares decoding (or allocating) any pixels.
    across, down = encoder._image_to_num_tokens(SimpleNamespace(size=size or (biggest, biggest)))
    tokens = down * (across + 1)  # a token a patch, a row-break token ending each row (the last: image end)
    side = config.image_patch_size * config.spatial_merge_size
    how = f"{across} × {down} patches of {side} px + {down} row ends (Mistral's own image encoder)"
    if size is None:
        return ImageCount(
            tokens,
            how,
            f"{_UNKNOWN}: counted at the most an image can cost ({biggest} × {biggest} px)",
            exact=False,
        )
    return ImageCount(tokens, how)


def image_tokens(model: str, size: ImageSize | tuple[int, int] | None, *, detail: str = "auto") -> ImageCount:
    """The tokens one image costs on `model`, by its maker's documented rule.

    `size` None: an image whose size cannot be known offline (a URL, a file id), counted at the most
    its detail can cost, with a note. A model that takes no images, or has no published rule: tokens
    None and the reason in `note`.

    ``image_tokens("gpt-4o", (2048, 4096), detail="high") -> ImageCount(1105, "85 + 170 × 6 tiles (high detail)")``
    """
    dims = (size.width, size.height) if isinstance(size, ImageSize) else size
    if dims is not None and (dims[0] < 1 or dims[1] < 1):
        return ImageCount(None, "", f"An image of {dims[0]} × {dims[1]} pixels has no size to count.")
    detail = normalize_detail(detail)
    model_id = canonical_id(model)
    rule_id = model_id if model_id in OPENAI_RULES else _DATE.sub("", model_id)
    entry = MODELS.get(model_id) or MODELS.get(rule_id)
    name = entry.name if entry else model
    if rule_id in OPENAI_RULES:
        return _openai(name, OPENAI_RULES[rule_id], dims, detail)
    if entry is None:
        return ImageCount(None, "", f"{model} is not a model the app knows, so its images are not counted.")
    if entry.id in TAKES_NO_IMAGES:
        return ImageCount(None, "", f"{name} takes no images.")
    if entry.id in GEMINI_3 or entry.id in GEMINI_2:
        return _gemini(name, entry.id, dims, detail)
    if entry.id in MISTRAL_VISION:
        return _mistral(entry.id, dims)
    if entry.maker == ANTHROPIC:
        return ImageCount(
            None, "", f"{name}: Anthropic's API counts its tokens; the app counts none offline."
        )
    if entry.maker in (OPENAI, GOOGLE, MISTRAL):
        return ImageCount(None, "", f"{entry.maker} publishes no image token rule for {name}.")
    return ImageCount(
        None, "", f"No image token rule is published for {name}, so its images are not counted."
    )


__all__ = [
    "FORMATS", "TAKES_NO_IMAGES", "ImageCount", "ImageError", "ImagePart", "ImageSize", "data_url_size", "image_part",
    "image_size", "image_tokens",
]  # fmt: skip
