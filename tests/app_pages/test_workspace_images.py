"""The Prompt workspace's chat: an image attached to a message (an upload), counted per model by
its maker's rule, in the counts, the cost table, the saved work and the workspace file."""

from __future__ import annotations

import io
import json

from PIL import Image

from tests.app_pages.test_workspace import _chat
from tests.picker_helpers import choose

# OpenAI's vision guide, worked example: a 1024 × 1024 image at detail high is 4 tiles of 512 px
# (after scaling to 768 × 768), 85 + 170 × 4 = 765 tokens on gpt-4o.
GPT_4O_1024_HIGH = 765


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 120, 40)).save(out, "PNG")
    return out.getvalue()


def _upload_key(at, message: int) -> str:
    """The key of message `message`'s image box (a new one after each upload, so the file is let go)."""
    mid = at.session_state["workspace_chat_msgs"][message]
    gen = f"workspace_chat_upgen_{mid}"
    return f"workspace_chat_upload_{mid}_{at.session_state[gen] if gen in at.session_state else 0}"  # noqa: SIM401 (AppTest has no .get)


def _attach(at, message: int, name: str, data: bytes, *, detail: str = "auto"):
    at.file_uploader(key=_upload_key(at, message)).upload(name, data, "image/png").run()
    mid = at.session_state["workspace_chat_msgs"][message]
    iid = at.session_state[f"workspace_chat_imgs_{mid}"][-1]
    at.selectbox(key=f"workspace_chat_imgdetail_{iid}").set_value(detail).run()
    return at


def _input_tokens(at) -> dict[str, int]:
    costs = next(df.value for df in at.dataframe if "Per request $" in df.value.columns)
    return dict(zip(costs["Model"], costs["Input tokens"]))


def _said(at) -> str:
    return " ".join(m.value for m in at.markdown) + " " + " ".join(c.value for c in at.caption)


def test_a_1024_px_image_at_high_detail_adds_765_tokens_on_gpt_4o(app):
    choose(app, "workspace_tokenizers", ["gpt-4o", "llama-3.1-8b"])
    _chat(app, [("system", "Be brief."), ("user", "What is in this picture?")])
    before = _input_tokens(app)
    _attach(app, 1, "photo.png", _png(1024, 1024), detail="high")
    assert not app.exception
    after = _input_tokens(app)
    assert after["GPT-4o"] - before["GPT-4o"] == GPT_4O_1024_HIGH
    said = _said(app).replace("\\", "")
    assert "of which images: 765 tokens (85 + 170 × 4 tiles (high detail))" in said
    # Llama 3.1 8B reads text only: its images are not counted, and the page says why
    assert after["Llama 3.1 8B"] == before["Llama 3.1 8B"]
    assert "Llama 3.1 8B: the images are not counted. Llama 3.1 8B takes no images." in said.replace("**", "")
    notes = next(df.value for df in app.dataframe if "Per request $" in df.value.columns).set_index("Model")[
        "Note"
    ]
    assert "of which 765 image tokens" in notes["GPT-4o"] and "images not counted" in notes["Llama 3.1 8B"]
    # the image's size and name are kept, never the file
    mid = app.session_state["workspace_chat_msgs"][1]
    (iid,) = app.session_state[f"workspace_chat_imgs_{mid}"]
    img = app.session_state[f"workspace_chat_img_{iid}"]
    assert (img.name, img.width, img.height, img.format) == ("photo.png", 1024, 1024, "PNG")
    assert not [
        k for k in app.session_state if k.startswith("workspace_chat_upload_") and app.session_state[k]
    ]


def test_detail_low_is_85_and_removing_the_image_takes_it_out(app):
    choose(app, "workspace_tokenizers", ["gpt-4o"])
    _chat(app, [("user", "Describe it.")])
    before = _input_tokens(app)["GPT-4o"]
    _attach(app, 0, "wide.png", _png(4096, 2048), detail="low")
    assert _input_tokens(app)["GPT-4o"] - before == 85  # the guide: low detail is 85 at any size
    mid = app.session_state["workspace_chat_msgs"][0]
    (iid,) = app.session_state[f"workspace_chat_imgs_{mid}"]
    app.button(key=f"workspace_chat_imgrm_{iid}").click().run()
    assert _input_tokens(app)["GPT-4o"] == before
    assert "With the images" not in _said(app)


def test_a_file_that_is_not_an_image_gets_a_sentence(app):
    choose(app, "workspace_tokenizers", ["gpt-4o"])
    _chat(app, [("user", "Describe it.")])
    app.file_uploader(key=_upload_key(app, 0)).upload("notes.png", b"just some text", "image/png").run()
    assert not app.exception
    (warning,) = [w.value.replace("\\", "") for w in app.warning if "notes" in w.value]
    assert "not a PNG, JPEG, GIF or WebP image" in warning


def test_a_workspace_file_brings_back_the_images_and_their_tokens(app):
    choose(app, "workspace_tokenizers", ["gpt-4o"])
    _chat(app, [("user", "Describe it.")])
    before = _input_tokens(app)["GPT-4o"]
    doc = {"format": "tokenizer-workbench/workspace", "version": 1, "models": ["gpt-4o"], "mode": "chat",
           "messages": [["user", "Describe it."]], "images": [[0, "photo.png", 1024, 1024, "PNG", "high"]]}  # fmt: skip
    app.file_uploader(key="workspace_ws_file").upload(
        "ws.json", json.dumps(doc).encode(), "application/json"
    ).run()
    assert not app.exception
    assert _input_tokens(app)["GPT-4o"] - before == GPT_4O_1024_HIGH
    assert "photo.png" in " ".join(c.value for c in app.caption).replace("\\", "")


def test_an_images_name_is_shown_as_text_never_as_markdown(app):
    choose(app, "workspace_tokenizers", ["gpt-4o"])
    _chat(app, [("user", "Describe it.")])
    name = "![x](https:e.com) **b** <img src=x onerror=alert(1)>.png"
    app.file_uploader(key=_upload_key(app, 0)).upload(name, _png(16, 16), "image/png").run()
    (shown,) = [c.value for c in app.caption if "16 × 16 px PNG" in c.value]
    # every Markdown and HTML sign is escaped: an image link, bold, a tag would not render
    assert r"\!\[x\]\(" in shown and r"\*\*b\*\*" in shown and r"\<img" in shown
    assert shown.replace("\\", "").replace("\u2060", "").endswith(f"{name} · 16 × 16 px PNG")
