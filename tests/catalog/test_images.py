"""Image tokens by each provider's documented rule, and image sizes read from headers alone.

Known answers come from the providers' pages (OpenAI's "Images and vision" guide, Google's
"Understand and count tokens"), from mistral-common's own encoder run on real images, and from
openai-vision-cost (PyPI, pinned in requirements-dev.txt) where it follows the guide; see
docs/preflight-rules.md for each source and where the reference is not followed.
"""

from __future__ import annotations

import base64
import io
import itertools
import math
import tracemalloc
from functools import cache

import pytest
from PIL import Image

from tokenizer_core.catalog.entries import CATALOG, MISTRAL
from tokenizer_core.catalog.images import (
    MISTRAL_VISION,
    TAKES_NO_IMAGES,
    ImageCount,
    ImageError,
    ImagePart,
    ImageSize,
    data_url_size,
    image_part,
    image_size,
    image_tokens,
)
from tokenizer_core.tokenizers.textio import InputError

# --- OpenAI: tile models -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "detail", "tokens"),
    [
        pytest.param((1024, 1024), "high", 765, id="1024x1024-high"),
        pytest.param((2048, 4096), "high", 1105, id="2048x4096-high"),
        pytest.param((4096, 8192), "low", 85, id="4096x8192-low"),
    ],
)
def test_gpt_4o_matches_the_guides_worked_examples(size, detail, tokens):
    count = image_tokens("gpt-4o", size, detail=detail)
    assert (count.tokens, count.exact, count.note) == (tokens, True, "")


def test_the_how_says_the_rule_in_words():
    assert image_tokens("gpt-4o", (1024, 1024), detail="high").how == "85 + 170 × 4 tiles (high detail)"


@pytest.mark.parametrize(
    ("model", "base", "tile"),
    [
        pytest.param("gpt-4o", 85, 170, id="gpt-4o"),
        pytest.param("gpt-4.1", 85, 170, id="gpt-4.1"),
        pytest.param("gpt-4o-mini", 2833, 5667, id="gpt-4o-mini"),
        pytest.param("gpt-5", 70, 140, id="gpt-5"),
        pytest.param("gpt-5.1", 70, 140, id="gpt-5.1"),
        pytest.param("o1", 75, 150, id="o1"),
        pytest.param("o3", 75, 150, id="o3"),
    ],
)
def test_each_tile_model_uses_the_guides_base_and_tile_tokens(model, base, tile):
    assert image_tokens(model, (4096, 8192), detail="low").tokens == base
    assert image_tokens(model, (1024, 1024), detail="high").tokens == base + 4 * tile  # 768 x 768: 4 tiles


def test_auto_detail_on_a_tile_model_is_sized_as_high():
    # The guide: 'With "detail": "high" or "detail": "auto"' the tile rule applies.
    count = image_tokens("gpt-4o", (1024, 1024), detail="auto")
    assert count.tokens == 765 and "auto" in count.how


def test_a_small_image_is_not_scaled_up_to_768_px():
    # The guide: "Smaller images are not enlarged" and "If the shortest side exceeds 768px, scale it
    # down". A 300 x 300 image is one tile (85 + 170), not the 4 tiles of a 768 x 768 upscale.
    assert image_tokens("gpt-4o", (300, 300), detail="high").tokens == 255
    assert image_tokens("gpt-4o", (512, 512), detail="high").tokens == 255
    assert image_tokens("gpt-4o", (600, 400), detail="high").tokens == 85 + 2 * 170


def test_fitting_into_2048_rounds_to_the_nearest_pixel_as_openai_bills():
    # OpenAI's forum thread "Vision Pricing calculator: inaccurate resizing/rounding vs API costs":
    # gpt-4.1 billed 1,453 tokens for 2049 x 513 and 773 for 2050 x 513 (the same text with each),
    # 680 = 4 tiles of 170 apart: 513 * 2048 / 2049 = 512.75 stays 513 px, / 2050 = 512.4995 becomes 512.
    wide = image_tokens("gpt-4.1", (2049, 513), detail="high").tokens
    narrow = image_tokens("gpt-4.1", (2050, 513), detail="high").tokens
    assert wide is not None and narrow is not None and wide - narrow == 1453 - 773


def test_an_image_of_unknown_size_is_counted_at_the_most_its_detail_can_cost():
    high = image_tokens("gpt-4o", None, detail="high")
    assert high.tokens == 85 + 8 * 170 and not high.exact and "size unknown" in high.note
    # No fitted image costs more: the largest grid is 2048 x 768 px, 4 x 2 tiles.
    sizes = [(w, h) for w in range(1, 9000, 347) for h in range(1, 9000, 411)]
    assert max(image_tokens("gpt-4o", s, detail="high").tokens or 0 for s in sizes) <= high.tokens
    low = image_tokens("gpt-4o", None, detail="low")
    assert (low.tokens, low.exact) == (85, True)  # low detail costs the same at any size


def test_a_dated_snapshot_uses_its_models_rule():
    assert image_tokens("gpt-4o-2024-08-06", (1024, 1024), detail="high").tokens == 765


# --- OpenAI: patch models ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "size", "patches", "multiplier"),
    [
        # The guide's examples for a model with a 1,536-patch budget (1024 x 1024: 1,024 patches;
        # 1800 x 2400: scaled to 1056 x 1408, 1,452 patches), times each model's multiplier.
        pytest.param("o4-mini", (1024, 1024), 1024, 1.72, id="o4-mini-1024"),
        pytest.param("o4-mini", (1800, 2400), 1452, 1.72, id="o4-mini-1800x2400"),
        pytest.param("gpt-4.1-nano", (1024, 1024), 1024, 2.46, id="gpt-4.1-nano-1024"),
        pytest.param("gpt-4.1-nano", (1800, 2400), 1452, 2.46, id="gpt-4.1-nano-1800x2400"),
        pytest.param("gpt-5-nano", (1800, 2400), 1452, 1.5, id="gpt-5-nano-1800x2400"),
    ],
)
def test_patch_models_match_the_guides_worked_examples(model, size, patches, multiplier):
    count = image_tokens(model, size, detail="high")
    assert count.tokens == math.ceil(round(patches * multiplier, 6))  # "round up"
    assert f"{patches:,} patches" in count.how


def test_the_1800_by_2400_example_is_scaled_to_1056_by_1408():
    assert "1,056 × 1,408 px" in image_tokens("o4-mini", (1800, 2400), detail="high").how


@pytest.mark.parametrize(
    ("size", "tokens"),
    [
        # The current guide's examples for gpt-5.4 at high detail (2,500 patches, 2048 px, x 1.2).
        pytest.param((1024, 1024), 1229, id="1024x1024"),
        pytest.param((2048, 2048), 3000, id="2048x2048"),
    ],
)
def test_gpt_5_4_high_matches_the_guides_examples(size, tokens):
    assert image_tokens("gpt-5.4", size, detail="high").tokens == tokens


def test_auto_detail_follows_each_models_row_of_the_sizing_table():
    # gpt-5.4: "auto uses the same sizing behavior as high"; gpt-5.5 and GPT-5.6: "as original".
    assert image_tokens("gpt-5.4", (2048, 2048), detail="auto").tokens == 3000
    assert image_tokens("gpt-5.5", (2048, 2048), detail="auto").tokens == math.ceil(4096 * 1.2)
    assert image_tokens("gpt-5.6-sol", (2048, 2048), detail="auto").tokens == math.ceil(4096 * 1.2)


def test_gpt_5_6_original_keeps_the_size_and_says_when_openai_would_refuse():
    count = image_tokens("gpt-5.6-terra", (8000, 6000), detail="original")
    assert count.tokens == math.ceil(250 * 188 * 1.2)
    assert "30,000" in count.note


def guide_patches(width: int, height: int, budget: int) -> int:
    """Steps A-C of the guide's patch rule, transcribed as written (floating point)."""
    raw = math.ceil(width / 32) * math.ceil(height / 32)
    if raw <= budget:
        return raw
    r = math.sqrt(32**2 * budget / (width * height))
    r = r * min(
        math.floor(width * r / 32) / (width * r / 32), math.floor(height * r / 32) / (height * r / 32)
    )
    return math.ceil(math.floor(width * r) / 32) * math.ceil(math.floor(height * r) / 32)


def test_patch_counts_equal_the_guides_formula_as_written():
    sizes = [7, 100, 513, 769, 1000, 1025, 1500, 1800, 2000, 2047, 2048]
    for width, height in itertools.product(sizes, sizes):
        expected = guide_patches(width, height, 1536)
        assert image_tokens("o4-mini", (width, height), detail="high").how.startswith(f"{expected:,} patches")
        assert expected <= 1536


def test_detail_a_model_does_not_take_is_refused_with_a_sentence():
    count = image_tokens("gpt-5.2", (100, 100), detail="original")
    assert count.tokens is None and '"original"' in count.note
    assert image_tokens("gpt-4o", (100, 100), detail="medium").tokens is None


# --- the independent reference (openai-vision-cost 1.0.0) --------------------------------------

SIDES = [
    1,
    31,
    32,
    33,
    200,
    384,
    511,
    512,
    513,
    700,
    767,
    768,
    769,
    1000,
    1023,
    1024,
    1025,
    1500,
    1800,
    2047,
    2048,
]


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4.1", "gpt-4o-mini", "o1", "o1-pro", "o3"])
def test_tile_counts_equal_openai_vision_cost(model):
    # Within 2048 px the reference and the guide agree; past it the reference truncates the fitted
    # side where OpenAI rounds (see the 2049 x 513 test), so those sizes are not compared.
    from openai_vision_cost import calculate_tokens_only

    for width, height in itertools.product(SIDES, SIDES):
        for detail in ("high", "low"):
            ref = calculate_tokens_only(width, height, model, detail)["text_tokens"]
            assert image_tokens(model, (width, height), detail=detail).tokens == ref, (width, height, detail)


@pytest.mark.parametrize(("model", "multiplier"), [("o4-mini", 1.72), ("gpt-4.1-nano", 2.46)])
def test_patch_counts_equal_openai_vision_cost_below_the_budget(model, multiplier):
    # The reference's patch count agrees while no shrink is needed; it floors the product where the
    # guide now says "round up", and its shrink assumes the width binds (docs/preflight-rules.md).
    from openai_vision_cost import calculate_tokens_only

    for width, height in itertools.product(SIDES, SIDES):
        if math.ceil(width / 32) * math.ceil(height / 32) > 1536:
            continue  # shrunk to the budget: compared with the guide's formula above instead
        ref = calculate_tokens_only(width, height, model, "high")
        assert image_tokens(model, (width, height), detail="high").tokens == math.ceil(
            round(ref["image_tokens"] * multiplier, 6)
        )


# --- Gemini ------------------------------------------------------------------------------------


def test_gemini_2_tiles_match_googles_example():
    assert image_tokens("gemini-2.5-flash", (1600, 900)).tokens == 1548  # 3 x 2 tiles of 258
    assert image_tokens("gemini-2.0-flash", (384, 384)).tokens == 258
    assert image_tokens("gemini-2.5-pro", (385, 200)).tokens == 258  # one 768 x 768 tile


def test_gemini_2_of_unknown_size_is_not_counted():
    count = image_tokens("gemini-2.5-flash", None)
    assert count.tokens is None and "enter its size" in count.note


def test_gemini_3_counts_its_media_resolution():
    assert image_tokens("gemini-3-pro-preview", (1600, 900)).tokens == 1120  # the default: high
    assert image_tokens("gemini-3-flash-preview", None, detail="low").tokens == 280
    assert image_tokens("gemini-3-flash-preview", None, detail="ultra_high").tokens == 2240
    assert not image_tokens("gemini-3-pro-preview", (10, 10)).exact


# --- Mistral -----------------------------------------------------------------------------------


@cache
def mistral_common_encoder(model: str):
    """mistral-common's own image encoder for the model, from its table of models."""
    from mistral_common.tokens.tokenizers.mistral import MODEL_NAME_TO_TOKENIZER_CLS

    return MODEL_NAME_TO_TOKENIZER_CLS[model]().instruct_tokenizer.image_encoder


@pytest.mark.parametrize("model", MISTRAL_VISION)
@pytest.mark.parametrize("size", [(1, 1), (100, 50), (1024, 1024), (1025, 1024), (3000, 200), (1500, 2000)])
def test_mistral_counts_equal_mistral_commons_encoder_on_a_real_image(model, size):
    from mistral_common.protocol.instruct.chunk import ImageChunk

    encoder = mistral_common_encoder(model)
    expected = len(encoder(ImageChunk(image=Image.new("RGB", size, "white"))).tokens)
    count = image_tokens(model, size)
    assert (count.tokens, count.exact) == (expected, True)


def test_mistral_models_take_images_exactly_when_mistral_commons_tokenizer_has_an_encoder():
    from mistral_common.tokens.tokenizers.mistral import MODEL_NAME_TO_TOKENIZER_CLS

    for entry in (e for e in CATALOG if e.maker == MISTRAL):
        if entry.id in MODEL_NAME_TO_TOKENIZER_CLS:
            has_encoder = mistral_common_encoder(entry.id) is not None
            assert has_encoder == (entry.id in MISTRAL_VISION), entry.id
        assert (entry.id in MISTRAL_VISION) != (entry.id in TAKES_NO_IMAGES), entry.id


def test_a_mistral_image_of_unknown_size_is_counted_at_the_largest():
    count = image_tokens("pixtral-12b-2409", None)
    assert count.tokens == image_tokens("pixtral-12b-2409", (1024, 1024)).tokens and not count.exact


# --- models without a rule -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "words"),
    [
        pytest.param("gpt-4", "takes no images", id="gpt-4"),
        pytest.param("llama-3.1-8b", "takes no images", id="llama-text"),
        pytest.param("text-embedding-3-small", "takes no images", id="embedding"),
        pytest.param("claude-sonnet-4-5", "Anthropic", id="claude"),
        pytest.param("llama-4-scout", "No image token rule", id="llama-4"),
        pytest.param("gpt-5.5-pro", "publishes no image token rule", id="gpt-5.5-pro"),
        pytest.param("no-such-model", "not a model the app knows", id="unknown"),
    ],
)
def test_a_model_without_a_rule_is_not_counted_with_the_reason(model, words):
    count = image_tokens(model, (512, 512), detail="high")
    assert count.tokens is None and words in count.note


def test_every_catalog_model_gets_a_count_or_a_reason():
    for entry in CATALOG:
        for size in ((640, 480), None):
            count = image_tokens(entry.id, size, detail="high")
            assert isinstance(count, ImageCount)
            assert (count.tokens is not None and count.how) or count.note, entry.id


# --- reading sizes from headers ----------------------------------------------------------------


def encoded(image: Image.Image, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def data_url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode()


def jpeg_with_big_exif() -> bytes:
    exif = Image.Exif()
    exif[0x010E] = "x" * 60_000  # ImageDescription: a 60 KB APP1 block before the frame header
    return encoded(Image.new("RGB", (321, 123)), "JPEG", exif=exif.tobytes(), icc_profile=b"\0" * 200_000)


SAMPLES = {
    "png": (lambda: encoded(Image.new("RGB", (640, 480)), "PNG"), ImageSize(640, 480, "PNG")),
    "jpeg": (lambda: encoded(Image.new("RGB", (1023, 77)), "JPEG"), ImageSize(1023, 77, "JPEG")),
    "jpeg-big-exif": (jpeg_with_big_exif, ImageSize(321, 123, "JPEG")),
    "gif": (lambda: encoded(Image.new("P", (77, 88)), "GIF"), ImageSize(77, 88, "GIF")),
    "webp-lossy": (lambda: encoded(Image.new("RGB", (1234, 567)), "WEBP"), ImageSize(1234, 567, "WEBP")),
    "webp-lossless": (
        lambda: encoded(Image.new("RGB", (300, 9)), "WEBP", lossless=True),
        ImageSize(300, 9, "WEBP"),
    ),
    "webp-extended": (
        lambda: encoded(Image.new("RGBA", (5000, 3)), "WEBP", exif=b"Exif\0\0" + b"\0" * 64),
        ImageSize(5000, 3, "WEBP"),
    ),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_the_size_is_read_from_the_header(name):
    make, expected = SAMPLES[name]
    data = make()
    assert image_size(data) == expected
    assert data_url_size(data_url(data)) == expected


def test_the_jpeg_sample_has_its_frame_header_after_the_exif_block():
    data = jpeg_with_big_exif()
    assert data.index(b"\xff\xc0") > 200_000


def test_a_data_url_with_line_breaks_or_without_padding_is_read():
    data = encoded(Image.new("RGB", (31, 17)), "PNG")
    text = base64.b64encode(data).decode()
    wrapped = "\n".join(text[i : i + 76] for i in range(0, len(text), 76))
    assert data_url_size("data:image/png;base64," + wrapped) == ImageSize(31, 17, "PNG")
    assert data_url_size("data:image/png;base64," + text.rstrip("=")) == ImageSize(31, 17, "PNG")


@pytest.mark.parametrize(
    ("url", "words"),
    [
        pytest.param("data:image/png;base64,!!!!not base64", "not valid base64", id="bad-base64"),
        pytest.param(
            data_url(b"just some text, not an image at all"), "not a PNG, JPEG, GIF or WebP", id="text"
        ),
        pytest.param("data:image/png;base64,", "empty", id="empty"),
        pytest.param("data:image/png,rawbytes", "not base64", id="not-base64-url"),
        pytest.param("https://example.com/cat.png", "does not start with data:", id="not-data"),
        pytest.param(data_url(encoded(Image.new("RGB", (9, 9)), "PNG")[:12]), "cut short", id="cut-short"),
        pytest.param(
            data_url(encoded(Image.new("RGB", (9, 9)), "BMP")), "not a PNG, JPEG, GIF or WebP", id="bmp"
        ),
    ],
)
def test_a_bad_data_url_raises_a_sentence(url, words):
    with pytest.raises(ImageError, match=words) as info:
        data_url_size(url)
    assert isinstance(info.value, InputError)
    assert str(info.value).endswith(".") and str(info.value)[0].isupper()


@pytest.mark.parametrize(
    ("fmt", "options"),
    [
        ("PNG", {}),
        ("PNG", {"optimize": True}),
        ("JPEG", {}),
        ("JPEG", {"progressive": True}),
        ("JPEG", {"icc_profile": b"\0" * 70_000}),
    ],  # fmt: skip
    ids=["png", "png-optimized", "jpeg-baseline", "jpeg-progressive", "jpeg-icc-70k"],
)
def test_png_and_jpeg_sizes_read_in_steps_equal_pillows(fmt, options):
    """PNG and JPEG headers are read without Pillow's plugins (a few small reads); each size
    equals Pillow's own reading of the same file."""
    for size in [(1, 1), (513, 7), (4096, 2731), (65_000, 2)]:
        data = encoded(Image.new("L", size), fmt, **options)
        expected = Image.open(io.BytesIO(data)).size
        assert (image_size(data).width, image_size(data).height) == expected
        assert data_url_size(data_url(data)) == ImageSize(*expected, fmt)


def test_a_png_whose_header_checksum_is_wrong_is_refused_as_damaged():
    """The quick read takes only a header whose CRC holds; Pillow refuses the rest, as before."""
    data = bytearray(encoded(Image.new("RGB", (40, 30)), "PNG"))
    data[29] ^= 0xFF  # the IHDR chunk's CRC
    with pytest.raises(ImageError, match="damaged"):
        image_size(bytes(data))


def test_a_huge_pngs_header_is_read_without_its_pixels():
    data = encoded(Image.new("1", (10_000, 10_000)), "PNG")
    tracemalloc.start()
    try:
        size = image_size(data)
        from_url = data_url_size(data_url(data))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size == from_url == ImageSize(10_000, 10_000, "PNG")
    # Decoded pixels would take 12.5 MB even at one bit each (and the base64 text itself is 16 KB).
    assert peak < 1_000_000


@pytest.mark.parametrize("shape", ["chat-data-url", "gemini-inline"])
def test_an_inline_image_is_decoded_only_as_far_as_its_header(shape):
    png = encoded(Image.new("RGB", (64, 32)), "PNG")
    payload = base64.b64encode(png + b"\0" * 30_000_000).decode()  # 30 MB of data after the image
    if shape == "gemini-inline":
        part = {"inline_data": {"mime_type": "image/png", "data": payload}}
    else:
        part = {"type": "image_url", "image_url": {"url": "data:image/png;base64," + payload}}
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        found = image_part(part)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found is not None and found.size == ImageSize(64, 32, "PNG")
    assert peak < 1_000_000  # decoding (or copying) the whole payload would hold 30 MB or more


# --- finding images in content parts ---------------------------------------------------------------

PNG_URL = data_url(encoded(Image.new("RGB", (40, 30)), "PNG"))
PNG_SIZE = ImageSize(40, 30, "PNG")
PNG_B64 = PNG_URL.split(",", 1)[1]


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        pytest.param(
            {"type": "image_url", "image_url": {"url": PNG_URL, "detail": "low"}},
            ImagePart("data", PNG_SIZE, "low"),
            id="chat-data",
        ),
        pytest.param(
            {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
            ImagePart("url", None, "auto"),
            id="chat-url",
        ),
        pytest.param(
            {"type": "input_image", "image_url": PNG_URL, "detail": "high"},
            ImagePart("data", PNG_SIZE, "high"),
            id="responses-data",
        ),
        pytest.param(
            {"type": "input_image", "file_id": "file-abc", "detail": "original"},
            ImagePart("file", None, "original"),
            id="responses-file",
        ),
        pytest.param(
            {"type": "image_url", "image_url": PNG_URL}, ImagePart("data", PNG_SIZE, "auto"), id="mistral-str"
        ),
        pytest.param(
            {"type": "image_url", "image_url": "https://x.test/a.jpg"},
            ImagePart("url", None, "auto"),
            id="mistral-url",
        ),
        pytest.param(
            {"inline_data": {"mime_type": "image/png", "data": PNG_B64}},
            ImagePart("data", PNG_SIZE, "auto"),
            id="gemini-inline",
        ),
        pytest.param(
            {
                "inlineData": {"mimeType": "image/png", "data": PNG_B64},
                "mediaResolution": {"level": "MEDIA_RESOLUTION_LOW"},
            },
            ImagePart("data", PNG_SIZE, "low"),
            id="gemini-inline-camel",
        ),
        pytest.param(
            {"file_data": {"mime_type": "image/jpeg", "file_uri": "gs://b/a.jpg"}},
            ImagePart("file", None, "auto"),
            id="gemini-file",
        ),
        pytest.param(
            {"fileData": {"fileUri": "https://generativelanguage.googleapis.com/v1beta/files/x"}},
            ImagePart("file", None, "auto"),
            id="gemini-file-camel",
        ),
        pytest.param(
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
            ImagePart("data", PNG_SIZE, "auto"),
            id="anthropic",
        ),
    ],
)
def test_image_parts_of_each_api_are_found(part, expected):
    assert image_part(part) == expected


@pytest.mark.parametrize(
    "part",
    [
        {"type": "text", "text": "hello"},
        {"type": "input_text", "text": "hello"},
        {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
        {"text": "a Gemini text part"},
        {"inline_data": {"mime_type": "audio/wav", "data": "AAAA"}},
        {"file_data": {"mime_type": "application/pdf", "file_uri": "gs://b/a.pdf"}},
    ],
)
def test_other_parts_are_not_images(part):
    assert image_part(part) is None


def test_a_broken_image_part_carries_its_problem():
    part = image_part({"type": "image_url", "image_url": {"url": "data:image/png;base64,@@@@"}})
    assert part is not None and part.size is None and "base64" in part.problem
    empty = image_part({"type": "input_image"})
    assert empty is not None and empty.problem


def test_the_docstring_examples_hold():
    import doctest

    from tokenizer_core.catalog import image_input, images

    for module in (images, image_input):
        assert doctest.testmod(module).failed == 0, module.__name__
