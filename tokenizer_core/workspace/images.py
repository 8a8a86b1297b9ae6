"""Images attached to a chat request's messages, and what they add to each model's count.

An image is kept as its size and format (read from the file's header when it is attached; its
pixels are never needed) with its name and detail level. Each model counts the request's images by
its maker's rule, :func:`tokenizer_core.catalog.images.image_tokens`, the same code the dataset
counter applies to an image part of a Batch row.

    >>> img = ChatImage(1, "cat.png", 1024, 1024, "PNG", "high")
    >>> request_image_tokens([img], "gpt-4o").tokens
    765
    >>> request_image_tokens([img], "llama-3.1-8b").note
    'Llama 3.1 8B takes no images.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..catalog.images import FORMATS, ImageSize, image_size, image_tokens
from ..tokenizers import clean_text
from .limits import MAX_MESSAGES, shown

DETAILS = ("auto", "low", "high")  # OpenAI's detail levels, as the chat editor offers them
MAX_IMAGES = 20  # images in one request, in the editor or a saved chat (each is a row of widgets)
MAX_NAME = 120  # characters of an image's file name kept


@dataclass(frozen=True, slots=True)
class ChatImage:
    """An image attached to message `message` (its index in the request): size and format, no pixels."""

    message: int
    name: str
    width: int
    height: int
    format: str  # "PNG", "JPEG", "GIF", "WEBP"
    detail: str = "auto"  # one of DETAILS

    @property
    def size(self) -> ImageSize:
        return ImageSize(self.width, self.height, self.format)

    def to_json(self) -> list:
        """``[message, name, width, height, format, detail]``: what a saved chat keeps of it."""
        return [self.message, self.name, self.width, self.height, self.format, self.detail]


def attach_image(message: int, name: str, data: bytes, *, detail: str = "auto") -> ChatImage:
    """An uploaded file as a ChatImage: its size read from its header (raises ImageError with a
    sentence for a file that is not a PNG, JPEG, GIF or WebP image).

    ``attach_image(0, "cat.png", png_bytes).width -> 1024``
    """
    size = image_size(data)
    return ChatImage(message, clean_text(name)[:MAX_NAME] or "image", size.width, size.height, size.format,
                     detail if detail in DETAILS else "auto")  # fmt: skip


@dataclass(frozen=True, slots=True)
class RequestImages:
    """What a request's images add for one model: `tokens` None when the model's images are not
    counted (`note` says why); `how` is the rule in words, for each image."""

    tokens: int | None
    how: str
    note: str = ""
    exact: bool = True
    count: int = 0  # images in the request


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def request_image_tokens(images: Sequence[ChatImage], model: str | None) -> RequestImages:
    """The tokens a request's images add on `model` (a catalog model id; None for an encoding or a
    tokenizer alone, which has no image rule), by its maker's documented rule.

    ``request_image_tokens([ChatImage(0, "a.png", 2048, 4096, "PNG", "high")], "gpt-4o")``
    -> ``RequestImages(1105, "a.png: 85 + 170 × 6 tiles (high detail)")``
    """
    if not images:
        return RequestImages(0, "")
    if model is None:
        return RequestImages(
            None, "", "a tokenizer alone has no image rule (pick a model)", count=len(images)
        )
    counts = [image_tokens(model, img.size, detail=img.detail) for img in images]
    refused = [c for c in counts if c.tokens is None]
    if refused:
        reasons = list(dict.fromkeys(c.note for c in refused))
        return RequestImages(None, "", " ".join(reasons), count=len(images))
    how = "; ".join(f"{img.name}: {c.how}" if len(images) > 1 else c.how for img, c in zip(images, counts))
    notes = " ".join(dict.fromkeys(c.note for c in counts if c.note))
    return RequestImages(
        sum(c.tokens or 0 for c in counts), how, notes, all(c.exact for c in counts), count=len(images)
    )


def _image_problem(item: object, n_messages: int) -> str | None:
    if not (isinstance(item, (list, tuple)) and len(item) == 6):
        return "expected [message, name, width, height, format, detail]"
    message, name, width, height, fmt, detail = item
    if not isinstance(message, int) or isinstance(message, bool) or not 0 <= message < n_messages:
        return f"its message {shown(message)} is not one of the chat's {n_messages}"
    if not isinstance(name, str):
        return f"its name is {shown(name)}, not text"
    for what, v in (("width", width), ("height", height)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 < v < 2**31:
            return f"its {what} {shown(v)} is not a number of pixels"
    if fmt not in FORMATS:
        return f"its format {shown(fmt)} is not one of {', '.join(FORMATS)}"
    if detail not in DETAILS:
        return f"its detail {shown(detail)} is not one of {', '.join(DETAILS)}"
    return None


def read_images(
    value: object, *, n_messages: int, where: str = "the saved chat"
) -> tuple[list[ChatImage], list[str]]:
    """Images from their saved form (a list of :meth:`ChatImage.to_json`) and the problems: the
    bad ones and those over MAX_IMAGES are left out, with one problem for all of them.

    ``read_images([[0, "a.png", 10, 10, "PNG", "low"]], n_messages=1)[0][0].width -> 10``
    """
    if not isinstance(value, list):
        return [], [f"{where}'s images are left out: they are {shown(value)}, not a list"]
    problems = []
    if len(value) > MAX_IMAGES:
        problems.append(f"{where} has {len(value):,} images; the first {MAX_IMAGES} are kept")
    out, bad = [], []
    for n, item in enumerate(value[:MAX_IMAGES], start=1):
        if (problem := _image_problem(item, min(n_messages, MAX_MESSAGES))) is None:
            message, name, width, height, fmt, detail = item
            out.append(ChatImage(message, clean_text(name)[:MAX_NAME] or "image", width, height, fmt, detail))
        else:
            bad.append(f"image {n}: {problem}")
    if bad:
        more = f"; and {len(bad) - 3:,} more" if len(bad) > 3 else ""
        problems.append(f"{where}: {_plural(len(bad), 'image')} left out ({'; '.join(bad[:3])}{more})")
    return out, problems


__all__ = [
    "DETAILS",
    "MAX_IMAGES",
    "ChatImage",
    "RequestImages",
    "attach_image",
    "read_images",
    "request_image_tokens",
]
