"""An image attached to a chat message in a real Chromium: uploaded from the message's image
button, kept as its size, counted per model by its maker's rule (gpt-4o: OpenAI's worked example)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.settings_driver import choose

pytestmark = pytest.mark.e2e


def test_an_uploaded_image_is_counted_for_gpt_4o_kept_across_a_reload_and_gpt_4_says_why_not(
    app_page, tmp_path
):
    app = app_page
    photo = tmp_path / "photo.png"
    buffer = io.BytesIO()
    Image.new("RGB", (1024, 1024), (30, 90, 160)).save(buffer, "PNG")
    photo.write_bytes(buffer.getvalue())
    app.goto()
    app.run(lambda: app.main.get_by_text("Chat request", exact=True).click())
    app.page.locator("[class*='st-key-workspace_chat_imgpop_']").nth(1).get_by_role("button").click()
    uploader = app.page.get_by_test_id("stFileUploaderDropzoneInput").last
    app.run(lambda: uploader.set_input_files(str(photo)))
    expect(app.main.get_by_text("photo.png · 1,024 × 1,024 px PNG")).to_be_visible()
    # detail high: OpenAI's vision guide gives 765 tokens for a 1024 × 1024 image on gpt-4o
    app.page.keyboard.press("Escape")  # the image button's popover closes
    key = app.page.locator("[class*='st-key-workspace_chat_imgdetail_']").first.get_attribute("class")
    choose(app, re.search(r"st-key-(workspace_chat_imgdetail_\w+)", key or "").group(1), "detail: high")
    said = app.main.get_by_test_id("stMarkdownContainer")
    expect(said.filter(has_text=re.compile(r"GPT-4o: [\d,]+ tokens with its images, of which images: 765 tokens "
                                           r"\(85 \+ 170 × 4 tiles \(high detail\)\)"))).to_be_visible()  # fmt: skip
    expect(said.filter(has_text="GPT-4: the images are not counted. GPT-4 takes no images.")).to_be_visible()
    # a reload keeps the image as it was kept (its name, size and detail; never the file)
    app.run(lambda: app.page.reload())
    expect(app.main.get_by_text("photo.png · 1,024 × 1,024 px PNG")).to_be_visible(timeout=30_000)
    expect(said.filter(has_text=re.compile(r"GPT-4o: .*of which images: 765 tokens"))).to_be_visible()
    expect(app.page.get_by_text("could not be used")).to_have_count(0)
    # removed: the lines go
    app.run(lambda: app.main.get_by_role("button", name="Remove image 1 of message 2").click())
    expect(app.main.get_by_text("With the images")).to_have_count(0)
    assert not app.exceptions()
