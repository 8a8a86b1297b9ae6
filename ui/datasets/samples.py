"""Small sets to try the page with: a Batch file and a fine-tuning file, built from public-domain
opening lines (no file to ship)."""

from __future__ import annotations

import json

SAMPLES = {
    "batch": "OpenAI Batch requests (40 summaries)",
    "finetune": "Chat fine-tuning examples (30, with weights)",
}
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


def sample_bytes(key: str) -> tuple[str, bytes]:
    """A sample set as (file name, JSONL bytes)."""
    rows = _batch() if key == "batch" else _finetune()
    name = "sample-batch.jsonl" if key == "batch" else "sample-finetune.jsonl"
    return name, ("\n".join(json.dumps(r) for r in rows) + "\n").encode()
