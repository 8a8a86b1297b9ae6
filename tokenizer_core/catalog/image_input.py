"""Images in a request: an image's size read from its header, and the images in content parts.

Width and height come from the file header (Pillow's format plugins read it; pixels are never
decoded); a base64 data URL is decoded only as far as the header needs. The tokens an image costs
are :mod:`tokenizer_core.catalog.images`' (which re-exports these names).

    >>> image_part({"type": "input_image", "file_id": "file-abc"})
    ImagePart(source='file', size=None, detail='auto', problem='')
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..tokenizers.textio import InputError

FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
# A header is in the first bytes of a file; a JPEG's size can come after large EXIF / ICC blocks.
# Past this much decoded data the search stops (memory stays bounded for any input).
MAX_HEADER_BYTES = 16 * 1024 * 1024


class ImageError(InputError):
    """An image whose size cannot be read; the message says why in a sentence for the user."""


@dataclass(frozen=True, slots=True)
class ImageSize:
    width: int
    height: int
    format: str  # "PNG", "JPEG", "GIF", "WEBP"


# ---------------------------------------------------------------------------------------------
# Reading the size from a header


class _Wrapped(Exception):
    """The base64 is broken into lines: read again with the line breaks taken out."""


class _Base64Stream(io.RawIOBase):
    """The bytes of a base64 payload, decoded on demand: reading bytes [a, b) decodes only the
    characters that hold them, 4 characters for every 3 bytes."""

    def __init__(self, text: str, start: int = 0) -> None:
        super().__init__()
        self._text = text  # the payload is text[start:], never copied out of a long URL
        self._start = start
        length = len(text) - start
        quads, rest = divmod(length, 4)
        pad = len(text[-2:]) - len(text[-2:].rstrip("=")) if rest == 0 and length else 0
        self._size = quads * 3 + {0: 0, 2: 1, 3: 2}.get(rest, 0) - pad
        self._pos = 0
        self.decoded = 0  # bytes decoded so far: the bound on the work and memory of a search

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: Any) -> int:
        start, end = self._pos, min(self._pos + len(buffer), self._size)
        if start >= end:
            return 0
        if self.decoded + end - start > MAX_HEADER_BYTES:
            raise ImageError(
                f"The image's size is not in its first {MAX_HEADER_BYTES // 2**20} MB, so it cannot be read."
            )
        first, last = start // 3, -(-end // 3)
        chars = self._text[self._start + first * 4 : self._start + last * 4]
        if len(chars) % 4:
            chars += "=" * (-len(chars) % 4)
        try:
            data = base64.b64decode(chars, validate=True)
        except (binascii.Error, ValueError):
            if _SPACE.search(chars):
                raise _Wrapped from None
            raise ImageError("The image's data is not valid base64.") from None
        chunk = data[start - first * 3 : end - first * 3]
        buffer[: len(chunk)] = chunk
        self.decoded += len(chunk)
        self._pos = start + len(chunk)
        return len(chunk)


def _webp_size(head: bytes) -> tuple[int, int]:
    """Width and height from a WebP file's first 30 bytes (RFC 9649: a VP8, VP8L or VP8X chunk).

    Pillow's WebP plugin creates the decoder, and with it the pixel canvas, when it opens a file,
    so the header is read here instead.
    """
    kind = head[12:16]
    if kind == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if kind == b"VP8L" and head[20] == 0x2F:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8X":
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    raise ImageError("The WebP image's header is damaged, so its size cannot be read.")


# JPEG frame headers (SOF0-3, 5-7, 9-11, 13-15): each holds the image's height and width.
_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def _png_size(head: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk (its first, by the PNG spec), when whole and its CRC
    holds; None: Pillow reads the file instead (and says what is wrong with it)."""
    if (
        len(head) < 33
        or head[8:16] != b"\x00\x00\x00\rIHDR"
        or zlib.crc32(head[12:29]) != int.from_bytes(head[29:33], "big")
    ):
        return None
    width, height = struct.unpack(">II", head[16:24])
    return (width, height) if 0 < width < 2**31 and 0 < height < 2**31 else None


def _jpeg_size(stream: io.BufferedReader) -> tuple[int, int] | None:
    """Width and height from a JPEG's frame header, found by stepping over the segments before it
    (each says its length, so their data, such as a large EXIF block, is never read); None:
    anything unusual, and Pillow reads the file instead."""
    stream.seek(2)
    for _ in range(256):
        head = stream.read(4)
        if len(head) < 4 or head[0] != 0xFF or head[1] in (0xD8, 0xDA, 0xD9, 0xFF, 0x01):
            return None
        length = int.from_bytes(head[2:4], "big")
        if head[1] in _SOF:
            frame = stream.read(5)
            height, width = struct.unpack(">HH", frame[1:5]) if len(frame) == 5 else (0, 0)
            return (width, height) if width and height else None
        if length < 2 or 0xD0 <= head[1] <= 0xD7:
            return None
        stream.seek(length - 2, io.SEEK_CUR)
    return None


def _read_size(stream: io.BufferedReader) -> ImageSize:
    from PIL import GifImagePlugin, JpegImagePlugin, PngImagePlugin

    head = stream.read(33)
    stream.seek(0)
    if not head:
        raise ImageError("The image is empty.")
    # PNG and JPEG, the common case, read here in a few small steps (Pillow's plugins, below,
    # cost more than the rest of a row's count); Pillow reads anything these do not take.
    if head.startswith(b"\x89PNG\r\n\x1a\n") and (size := _png_size(head)):
        return ImageSize(*size, "PNG")
    if head.startswith(b"\xff\xd8\xff"):
        size = _jpeg_size(stream)
        stream.seek(0)
        if size:
            return ImageSize(*size, "JPEG")
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        if len(head) < 30:
            raise ImageError("The WebP image is cut short before its size.")
        width, height = _webp_size(head)
        return ImageSize(width, height, "WEBP")
    # The plugin classes, not Image.open: Image.open refuses a very large image as a possible
    # "decompression bomb" after reading its header, and only the size is wanted here.
    openers = {
        "PNG": (head.startswith(b"\x89PNG\r\n\x1a\n"), PngImagePlugin.PngImageFile),
        "JPEG": (head.startswith(b"\xff\xd8\xff"), JpegImagePlugin.JpegImageFile),
        "GIF": (head[:6] in (b"GIF87a", b"GIF89a"), GifImagePlugin.GifImageFile),
    }
    for name, (signed, opener) in openers.items():
        if signed:
            try:
                image = opener(stream)
            except ImageError:
                raise
            except (SyntaxError, OSError, EOFError, ValueError, IndexError, struct.error):
                raise ImageError(
                    f"The {name} image's header is damaged or cut short, so its size cannot be read."
                ) from None
            width, height = image.size
            if width < 1 or height < 1:
                raise ImageError(f"The {name} image says it is {width} × {height} pixels.")
            return ImageSize(width, height, name)
    raise ImageError("This is not a PNG, JPEG, GIF or WebP image.")


def image_size(data: bytes) -> ImageSize:
    """The size and format of an image file, read from its header (its pixels are never decoded).

    ``image_size(png_bytes) -> ImageSize(width=640, height=480, format='PNG')``; a file that is not
    a PNG, JPEG, GIF or WebP image raises :class:`ImageError`.
    """
    return _read_size(io.BufferedReader(io.BytesIO(data)))


_DATA_URL = re.compile(r"data:([^,]*?),", re.IGNORECASE)
_SPACE = re.compile(r"\s")


def data_url_size(url: str) -> ImageSize:
    """The size of the image in a base64 data URL, decoding only the bytes its header spans.

    ``data_url_size("data:image/png;base64,iVBORw0KGgo...") -> ImageSize(..., format='PNG')``
    """
    match = _DATA_URL.match(url[:512])
    if not match:
        raise ImageError("The image's data URL does not start with data:<type>;base64, as it should.")
    if not match.group(1).lower().endswith(";base64"):
        raise ImageError("The image's data URL is not base64 (it needs ;base64 after its type).")
    return _base64_size(url, match.end())


def _base64_size(text: str, start: int) -> ImageSize:
    """The size of the image whose base64 is ``text[start:]`` (the text is not copied)."""
    if (len(text) - start) % 4 == 1 and not _SPACE.search(text, len(text) - 100):
        raise ImageError("The image's data is not valid base64 (its length cannot be).")
    try:
        return _read_size(io.BufferedReader(_Base64Stream(text, start), buffer_size=256))
    except _Wrapped:
        # Line breaks from an encoder that wraps its output: only the part a header search may
        # read is cleaned (at most MAX_HEADER_BYTES decoded, with room for the breaks).
        cleaned = _SPACE.sub("", text[start : start + MAX_HEADER_BYTES * 3])
        return _read_size(io.BufferedReader(_Base64Stream(cleaned), buffer_size=8192))


# ---------------------------------------------------------------------------------------------
# Finding images in a request's content parts


@dataclass(frozen=True, slots=True)
class ImagePart:
    """An image found in a request's content part, before any model is known."""

    source: str  # "data" (inline base64) | "url" (fetched by the provider: size unknown offline) | "file" (a file id)
    size: ImageSize | None  # known for inline data
    detail: str  # "low" | "high" | "auto" | "original" (OpenAI's); Gemini's media resolution as "low"...; "auto" when not given
    problem: str = ""  # a sentence when the part is broken (bad base64, not an image)


def normalize_detail(value: object) -> str:
    """A detail level as the rules read it: lower case, Gemini's "MEDIA_RESOLUTION_LOW" as "low", "auto" when none."""
    if not isinstance(value, str) or not value.strip():
        return "auto"
    value = value.strip().lower()
    return value.removeprefix("media_resolution_") if value.startswith("media_resolution_") else value


def _gemini_resolution(part: Mapping[str, Any]) -> str:
    resolution = part.get("media_resolution", part.get("mediaResolution"))
    if isinstance(resolution, Mapping):
        resolution = resolution.get("level")
    detail = normalize_detail(resolution)
    return "auto" if detail == "unspecified" else detail


def _from_url(url: object, detail: str) -> ImagePart:
    if not isinstance(url, str) or not url.strip():
        return ImagePart("url", None, detail, "The image part has no URL.")
    url = url.strip()
    if url[:5].lower() != "data:":
        return ImagePart("url", None, detail)
    try:
        return ImagePart("data", data_url_size(url), detail)
    except ImageError as exc:
        return ImagePart("data", None, detail, str(exc))


def _from_base64(data: object, detail: str) -> ImagePart:
    if not isinstance(data, str) or not data.strip():
        return ImagePart("data", None, detail, "The image part has no data.")
    try:
        return ImagePart("data", _base64_size(data, 0), detail)
    except ImageError as exc:
        return ImagePart("data", None, detail, str(exc))


def image_part(part: Mapping[str, Any]) -> ImagePart | None:
    """The image in one content part of a request, or None when the part is not an image.

    Chat Completions ``{"type": "image_url", "image_url": {"url", "detail"}}``, the Responses API's
    ``{"type": "input_image", "image_url" | "file_id", "detail"}``, Mistral's ``image_url`` given as a
    string, Gemini's ``inline_data`` / ``file_data`` (either spelling) and Anthropic's ``image`` blocks.
    """
    if not isinstance(part, Mapping):
        return None
    kind = part.get("type")
    if kind == "image_url":
        inner = part.get("image_url")
        if isinstance(inner, Mapping):
            return _from_url(inner.get("url"), normalize_detail(inner.get("detail")))
        return _from_url(inner, normalize_detail(part.get("detail")))
    if kind == "input_image":
        detail = normalize_detail(part.get("detail"))
        if part.get("image_url"):
            return _from_url(part.get("image_url"), detail)
        if part.get("file_id"):
            return ImagePart("file", None, detail)
        return ImagePart("url", None, detail, "The image part has neither an image_url nor a file_id.")
    if kind == "image" and isinstance(part.get("source"), Mapping):  # Anthropic Messages
        source = part["source"]
        if source.get("type") == "base64":
            return _from_base64(source.get("data"), "auto")
        return ImagePart("file" if source.get("type") == "file" else "url", None, "auto")
    for key in ("inline_data", "inlineData"):
        inline = part.get(key)
        if isinstance(inline, Mapping):
            mime = str(inline.get("mime_type", inline.get("mimeType", "image/")) or "image/")
            if not mime.lower().startswith("image/"):
                return None
            return _from_base64(inline.get("data"), _gemini_resolution(part))
    for key in ("file_data", "fileData"):
        file = part.get(key)
        if isinstance(file, Mapping):
            mime = str(file.get("mime_type", file.get("mimeType", "")) or "")
            if mime and not mime.lower().startswith("image/"):
                return None
            return ImagePart("file", None, _gemini_resolution(part))
    return None


__all__ = [
    "FORMATS", "ImageError", "ImagePart", "ImageSize", "data_url_size", "image_part", "image_size", "normalize_detail",
]  # fmt: skip
