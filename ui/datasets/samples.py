"""Small sets to try the page with: Batch files (text, with images, one OpenAI would refuse) and a
fine-tuning file, built from public-domain opening lines and plain-colour images (no file to ship)."""

from __future__ import annotations

import base64
import functools
import io
import json

SAMPLES = {
    "batch": "OpenAI Batch requests (40 summaries)",
    "vision": "OpenAI Batch requests with images (24 captions)",
    "rejected": "A Batch file OpenAI would refuse (10 requests, 3 problems)",
    "finetune": "Chat fine-tuning examples (30, with weights)",
}
# Sizes of the sample's photos, as phones and scanners make them (each drawn as a plain colour:
# only the size decides the tokens)
_PHOTO_SIZES = [(1024, 1024), (4032, 3024), (1280, 720), (512, 512), (2048, 4096), (800, 600)]
_LINES = [
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness.",
    "Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, "
    "I thought I would sail about a little and see the watery part of the world.",
    "Happy families are all alike; every unhappy family is unhappy in its own way.",
    "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in "
    "want of a wife.",
    "Whan that Aprille with his shoures soote the droghte of March hath perced to the roote.",
    "Many years later, as he faced the firing squad, he was to remember that distant afternoon.",
    "The sun shone, having no alternative, on the nothing new.",
    "Stately, plump Buck Mulligan came from the stairhead, bearing a bowl of lather on which a mirror and a "
    "razor lay crossed.",
]


def _batch(n: int = 40) -> list[dict]:
    out = []
    for i in range(n):
        text = " ".join(_LINES[(i + k) % len(_LINES)] for k in range(1 + i % 6))
        body = {
            "model": "gpt-4o-mini",
            "messages": [
                {"role": "system", "content": "You summarise a passage in one sentence."},
                {"role": "user", "content": f"Summarise:\n\n{text}"},
            ],
            "max_tokens": 60 + 10 * (i % 4),
        }
        out.append({"custom_id": f"summary-{i + 1:03d}", "method": "POST", "url": "/v1/chat/completions",
                    "body": body})  # fmt: skip
    return out


def _finetune(n: int = 30) -> list[dict]:
    out = []
    for i in range(n):
        line = _LINES[i % len(_LINES)]
        messages = [
            {"role": "system", "content": "You name the book a first line comes from, tersely."},
            {"role": "user", "content": line},
            {"role": "assistant", "content": "A classic.", "weight": 0},
            {"role": "user", "content": "Which one exactly?"},
            {"role": "assistant", "content": f"The book that opens with: {line[:40]}...", "weight": 1},
        ]
        out.append({"messages": messages})
    return out


@functools.cache
def _photo(width: int, height: int) -> str:
    """A PNG of that size as a data URL (a plain colour compresses to a few KB)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (70 + width % 150, 110, 160)).save(buf, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _vision(n: int = 24) -> list[dict]:
    out = []
    for i in range(n):
        w, h = _PHOTO_SIZES[i % len(_PHOTO_SIZES)]
        content = [
            {"type": "text", "text": "Write a one-line caption for this photo for a product catalogue."},
            {
                "type": "image_url",
                "image_url": {"url": _photo(w, h), "detail": "low" if i % 4 == 3 else "high"},
            },
        ]
        body = {"model": "gpt-4o", "messages": [{"role": "user", "content": content}], "max_tokens": 40}
        out.append({"custom_id": f"photo-{i + 1:03d}", "method": "POST", "url": "/v1/chat/completions",
                    "body": body})  # fmt: skip
    return out


def _rejected() -> list[dict]:
    rows = _batch(10)
    rows[4]["custom_id"] = rows[1]["custom_id"]  # an id used twice
    rows[6]["body"]["model"] = "gpt-4.1-mini"  # a second model
    rows[8]["body"]["max_tokens"] = 50_000  # over gpt-4o-mini's output limit of 16,384
    return rows


def sample_bytes(key: str) -> tuple[str, bytes]:
    """A sample set as (file name, JSONL bytes)."""
    rows = {"batch": _batch, "vision": _vision, "rejected": _rejected, "finetune": _finetune}[key]()
    return f"sample-{key}.jsonl", ("\n".join(json.dumps(r) for r in rows) + "\n").encode()
