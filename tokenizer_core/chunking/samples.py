"""Bundled sample documents for the chunk previewer, and a long document for stress tests."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class ChunkSample:
    """A bundled sample document and the strategy that suits it."""

    id: str
    label: str
    filename: str
    strategy: str


CHUNK_SAMPLES: dict[str, ChunkSample] = {
    s.id: s
    for s in (
        ChunkSample("markdown", "Markdown guide with headings", "retrieval_guide.md", "markdown"),
        ChunkSample(
            "prose", "Essay (prose, a little Hindi, Japanese, emoji)", "river_essay.txt", "recursive"
        ),
        ChunkSample("python", "Python module", "inventory.py", "code"),
    )
}


def load_chunk_sample(sample_id: str) -> str:
    """Text of a bundled sample document: ``load_chunk_sample("python")``."""
    if sample_id not in CHUNK_SAMPLES:
        raise KeyError(f"no chunk sample {sample_id!r}; choose one of {list(CHUNK_SAMPLES)}")
    path = resources.files("tokenizer_core") / "data" / "chunk_samples" / CHUNK_SAMPLES[sample_id].filename
    return path.read_text(encoding="utf-8")


def long_document(chars: int = 1_000_000) -> str:
    """About `chars` characters of Markdown: the samples repeated as numbered parts.

    A stress test for the page (a 1 MB document must chunk and render without freezing).
    """
    guide, essay, code = (load_chunk_sample(k) for k in ("markdown", "prose", "python"))
    parts: list[str] = []
    total, k = 0, 0
    while total < chars:
        k += 1
        part = f"# Part {k}\n\n{essay}\n{guide.replace('# Preparing', f'## {k}. Preparing', 1)}\n```python\n{code}```\n\n"
        parts.append(part)
        total += len(part)
    return "".join(parts)


# A file's extension -> the strategy that suits it.
SUITED_STRATEGIES: dict[str, str] = {
    "md": "markdown", "markdown": "markdown", "py": "code", "js": "code", "ts": "code", "go": "code",
    "rs": "code", "java": "code", "c": "code", "cpp": "code", "rb": "code", "php": "code",
}  # fmt: skip


def suited_strategy(text: str, *, filename: str | None = None) -> str | None:
    """The strategy that suits a bundled sample, or a file by its extension (None: no advice).

    ``suited_strategy("x", filename="notes.md") -> "markdown"``.
    """
    for sample in CHUNK_SAMPLES.values():
        if text == load_chunk_sample(sample.id):
            return sample.strategy
    if filename and "." in filename:
        return SUITED_STRATEGIES.get(filename.rsplit(".", 1)[-1].lower())
    return None
