"""Images attached to a workspace chat: each model's tokens for them (the catalog's rules), read
back from a saved chat or a workspace file with every bad value left out with a note."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from tokenizer_core.catalog.images import ImageError
from tokenizer_core.workspace.file import Workspace, load_workspace, save_workspace
from tokenizer_core.workspace.images import (
    MAX_IMAGES,
    ChatImage,
    attach_image,
    read_images,
    request_image_tokens,
)


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height)).save(out, "PNG")
    return out.getvalue()


# OpenAI's vision guide, its worked examples for gpt-4o (85 base + 170 a 512 px tile).
@pytest.mark.parametrize(
    ("size", "detail", "tokens"),
    [((1024, 1024), "high", 765), ((2048, 4096), "high", 1105), ((4096, 8192), "low", 85)],
)
def test_gpt_4o_gives_the_guides_worked_examples(size, detail, tokens):
    img = ChatImage(0, "a.png", *size, "PNG", detail)
    got = request_image_tokens([img], "gpt-4o")
    assert (got.tokens, got.count, got.note) == (tokens, 1, "")


def test_images_of_a_request_add_up_and_each_says_its_rule():
    images = [
        ChatImage(0, "big.png", 1024, 1024, "PNG", "high"),
        ChatImage(1, "small.jpg", 300, 200, "JPEG", "low"),
    ]
    got = request_image_tokens(images, "gpt-4o")
    assert got.tokens == 765 + 85
    assert got.how.startswith("big.png: 85 + 170 × 4 tiles") and "; small.jpg: 85 (low detail" in got.how


def test_no_images_add_nothing():
    assert request_image_tokens([], "gpt-4o").tokens == 0


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("llama-3.1-8b", "Llama 3.1 8B takes no images."),
        ("claude-sonnet-4-5", "Anthropic's API counts its tokens"),
        (None, "a tokenizer alone has no image rule"),
    ],
)
def test_a_model_without_a_rule_is_not_counted_and_says_why(model, words):
    got = request_image_tokens([ChatImage(0, "a.png", 512, 512, "PNG", "high")], model)
    assert got.tokens is None and words in got.note


def test_an_upload_is_kept_as_its_size_read_from_its_header():
    img = attach_image(2, "cat.png", _png(640, 480), detail="high")
    assert img == ChatImage(2, "cat.png", 640, 480, "PNG", "high")
    assert attach_image(0, "x.png", _png(8, 8), detail="ultra").detail == "auto"
    with pytest.raises(ImageError, match="not a PNG, JPEG, GIF or WebP image"):
        attach_image(0, "notes.txt", b"hello")


def test_saved_images_read_back_and_bad_ones_are_left_out_with_a_note():
    good = ChatImage(1, "a.png", 100, 50, "PNG", "low")
    value = [good.to_json(), [5, "b.png", 10, 10, "PNG", "low"], [0, "c.png", 0, 10, "PNG", "low"],
             [0, "d.png", 10, 10, "BMP", "low"], [0, "e.png", 10, 10, "PNG", "max"], "junk"]  # fmt: skip
    images, notes = read_images(value, n_messages=2)
    assert images == [good]
    (note,) = notes
    assert "5 images left out" in note and "its message the number 5 is not one of the chat's 2" in note
    assert read_images({"a": 1}, n_messages=1)[0] == []
    many, notes = read_images([good.to_json()] * (MAX_IMAGES + 3), n_messages=2)
    assert len(many) == MAX_IMAGES and f"the first {MAX_IMAGES} are kept" in notes[0]


def test_the_workspace_file_keeps_the_images_sizes_and_details():
    ws = Workspace(["gpt-4o"], "chat", "", [("user", "Describe it.")],
                   images=[ChatImage(0, "photo.png", 1024, 1024, "PNG", "high")])  # fmt: skip
    text = save_workspace(ws)
    assert json.loads(text)["images"] == [[0, "photo.png", 1024, 1024, "PNG", "high"]]
    back, notes = load_workspace(text, known_models=["gpt-4o"])
    assert not notes and back.images == ws.images
    # a file saved before images were kept has none
    assert "images" not in json.loads(save_workspace(Workspace()))
