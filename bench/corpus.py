"""Benchmark corpora built offline from what every Python install has, reproducibly.

* English prose: CPython's own documentation prose (`pydoc_data.topics`, ~0.46 MB) and the
  docstrings of the standard library (~1.8 MB), split into paragraphs and shuffled with a fixed
  seed; repeated (reshuffled each round) until the requested size. Repetition keeps the set of
  distinct words at about 32,000; real 10 MB web prose has more. Both sides of every comparison
  use the same corpus.
* Python code: the standard library's own `.py` files, in sorted path order.
* Mixed: prose, code and the multilingual lines of the app's samples, interleaved.

Corpora are cached in bench/out/ (ignored by git). Sizes are in bytes of UTF-8 (MB = 10^6).
"""

from __future__ import annotations

import ast
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/x.py` from anywhere finds tokenizer_core
    sys.path.insert(0, str(ROOT))
OUT = Path(__file__).resolve().parent / "out"
STDLIB = Path(os.__file__).parent


def _stdlib_files() -> list[Path]:
    skip = {"test", "tests", "site-packages", "idlelib", "lib2to3", "__pycache__"}
    return sorted(p for p in STDLIB.rglob("*.py") if not skip.intersection(p.relative_to(STDLIB).parts))


def _prose_paragraphs() -> list[str]:
    import pydoc_data.topics as topics

    paragraphs: list[str] = []
    for text in topics.topics.values():
        paragraphs.extend(p.strip() for p in text.split("\n\n"))
    for path in _stdlib_files():
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    paragraphs.extend(p.strip() for p in doc.split("\n\n"))
    # keep paragraphs that read as prose: mostly letters and spaces, several words
    return [
        p
        for p in paragraphs
        if len(p.split()) >= 6 and sum(c.isalpha() or c.isspace() for c in p) > 0.85 * len(p)
    ]


def _fill(chunks: list[str], n_bytes: int, seed: int, sep: str) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < n_bytes:
        order = chunks[:]
        rng.shuffle(order)
        for chunk in order:
            out.append(chunk)
            size += len(chunk.encode("utf-8")) + len(sep)
            if size >= n_bytes:
                break
    text = sep.join(out)
    return text.encode("utf-8")[:n_bytes].decode("utf-8", "ignore")


def _cached(name: str, build) -> str:
    OUT.mkdir(exist_ok=True)
    path = OUT / name
    if not path.exists():
        path.write_text(build(), encoding="utf-8")
    return path.read_text(encoding="utf-8")


def english_prose(n_bytes: int = 10_000_000, *, seed: int = 0) -> str:
    """About `n_bytes` of English prose (see the module docstring for what it is)."""
    return _cached(f"prose_{n_bytes}_{seed}.txt", lambda: _fill(_prose_paragraphs(), n_bytes, seed, "\n\n"))


def python_code(n_bytes: int = 10_000_000) -> str:
    """About `n_bytes` of real Python source from the standard library."""

    def build() -> str:
        parts: list[str] = []
        size = 0
        for path in _stdlib_files():
            try:
                src = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            parts.append(src)
            size += len(src.encode("utf-8"))
            if size >= n_bytes:
                break
        return "".join(parts).encode("utf-8")[:n_bytes].decode("utf-8", "ignore")

    return _cached(f"code_{n_bytes}.txt", build)


def mixed_text(n_bytes: int = 10_000_000, *, seed: int = 0) -> str:
    """Prose, code and non-English lines (Hindi, emoji...) interleaved in ~2 KB blocks."""

    def build() -> str:
        from tokenizer_core.tokenizers import load_sample

        prose = english_prose(n_bytes // 2, seed=seed)
        code = python_code(n_bytes // 3)
        sample = load_sample("mixed")
        rng = random.Random(seed)
        blocks = [prose[i : i + 2000] for i in range(0, len(prose), 2000)]
        blocks += [code[i : i + 2000] for i in range(0, len(code), 2000)]
        blocks += [sample] * max(1, (n_bytes // 6) // len(sample.encode("utf-8")))
        rng.shuffle(blocks)
        return "\n".join(blocks).encode("utf-8")[:n_bytes].decode("utf-8", "ignore")

    return _cached(f"mixed_{n_bytes}_{seed}.txt", build)


def with_special_text(text: str, *, every: int = 7_000, special: str = "<|endoftext|>") -> str:
    """`text` with `special` written into it about once per `every` characters, as in a dump of
    documents joined by an end-of-text marker or a page about tokenizers: alternately on a
    line of its own after the next newline and inside a line after the next space (right at
    the spot when neither comes within `every` characters).

    ``with_special_text("a b\\nc d\\n", every=2)`` -> ``"a b\\n<|endoftext|>\\nc <|endoftext|>d\\n"``.
    """
    out: list[str] = []
    pos, k = 0, 0
    while pos + every < len(text):
        at = pos + every
        sep, marker = ("\n", special + "\n") if k % 2 == 0 else (" ", special)
        found = text.find(sep, at, at + every)
        cut = found + 1 if found >= 0 else at
        out += [text[pos:cut], marker]
        pos, k = cut, k + 1
    out.append(text[pos:])
    return "".join(out)


if __name__ == "__main__":
    for fn in (english_prose, python_code, mixed_text):
        text = fn(10_000_000)
        print(
            f"{fn.__name__}: {len(text.encode('utf-8')):,} bytes, {len(set(text.split())):,} distinct words"
        )
