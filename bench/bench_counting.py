"""Counting throughput and coloured-view build time, in one run.

    python bench/bench_counting.py            # full run (10 MB, 5 repeats)
    python bench/bench_counting.py --quick    # 2 MB, 3 repeats
    python bench/bench_counting.py --only special   # section 1c alone

1. Counting 10 MB of mixed text (prose, code, Hindi, emoji): `Tokenizer.count()` of the core
   against raw `tiktoken.Encoding.encode_ordinary` on the same Encoding object, same run.
   Goal: core >= 0.9x raw. The core cuts large texts at newline points where the ids provably
   do not change and encodes the pieces in parallel: with the native engine (splintr over the
   same checked vocabulary, knowing no special token) where the family has one, else in
   tiktoken's thread pool. The "tiktoken engine" column is the core with the native engine
   switched off. The native engine's cache of pieces is cleared before each timed call, so
   repeats do not reuse the previous call's work (tiktoken keeps no such cache).
   1b. The same on English prose with `<|endoftext|>` written in about once per 7 KB (between
   documents and inside sentences), as in a dump of documents or a page about tokenizers.
   1c. Special-token text in the shapes of real files, 5 MB each (1 MB with --quick): lines
   of 7 KB each ending in ` <|endoftext|>` (a JSONL dump, a concatenated training file),
   `<|im_start|>` in the middle of each 7 KB line, 100 KB lines each ending in the marker,
   and no newline at all with the marker every 7 KB. Goal: core >= 0.9x raw on every shape.
2. Segments + HTML for 100 KB of the same text, per tokenizer. Goal: < 0.3 s.
3. The counter page's counts for 1 MB with the three default tokenizers (core), and the whole
   page run in Streamlit's AppTest (counts + first page of the coloured view).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import english_prose, mixed_text, with_special_text  # noqa: E402
from bench.timing import median_time  # noqa: E402
from tokenizer_core import count_table, load_builtin
from tokenizer_core.tokenizers import DEFAULT_IDS, TiktokenTokenizer, segments_html


def bench_counting(
    text: str,
    repeats: int,
    *,
    title: str = "1. Counting {mb:.1f} MB of mixed text",
    ids: tuple[str, ...] = ("o200k_base", "cl100k_base", "llama3", "tekken"),
) -> None:
    mb = len(text.encode("utf-8")) / 1e6
    print(f"\n{title.format(mb=mb)} (median of {repeats})")
    print(
        f"{'tokenizer':<14}{'tokens':>12}{'raw s':>8}{'raw MB/s':>10}{'core s':>8}{'core MB/s':>10}"
        f"{'core/raw':>10}{'tiktoken engine/raw':>21}"
    )
    for tid in ids:
        tok = load_builtin(tid)
        enc = tok.encoding
        plain = TiktokenTokenizer(
            tok.info, enc, normalize_nfc=tok.normalize_nfc, newline_safe=tok.newline_safe
        )
        n = len(enc.encode_ordinary(text))
        assert tok.count(text) == n and plain.count(text) == n
        raw = median_time(lambda: enc.encode_ordinary(text), repeats)
        core = median_time(lambda: _cold_count(tok, text), repeats)
        core_tt = median_time(lambda: plain.count(text), repeats)
        print(
            f"{tid:<14}{n:>12,}{raw:>8.3f}{mb / raw:>10.1f}{core:>8.3f}{mb / core:>10.1f}"
            f"{raw / core:>9.2f}x{raw / core_tt:>20.2f}x"
        )


def _cold_count(tok: TiktokenTokenizer, text: str) -> int:
    """`tok.count(text)` with the native engine's cache of pieces emptied first."""
    if tok.native is not None:
        tok.native.clear_cache()
    return tok.count(text)


def special_shapes(prose: str, n_chars: int) -> dict[str, str]:
    """Texts of about `n_chars` in which special-token text stands where real files put it.

    Lines are cut from `prose` with its newlines made spaces, so a line has no other newline.
    """
    flat = prose.replace("\n", " ")

    def lines(length: int, make) -> str:
        out: list[str] = []
        pos = size = 0
        while size < n_chars:
            chunk = flat[pos : pos + length] if pos + length <= len(flat) else flat[:length]
            pos = pos + length if pos + length <= len(flat) else length
            out.append(make(chunk))
            size += len(out[-1])
        return "".join(out)

    return {
        "7 KB lines, each ending in <|endoftext|>": lines(7_000, lambda c: c + " <|endoftext|>\n"),
        "7 KB lines, <|im_start|> mid-line": lines(
            7_000, lambda c: c[:3_500] + " <|im_start|> " + c[3_500:] + "\n"
        ),
        "100 KB lines, each ending in <|endoftext|>": lines(100_000, lambda c: c + " <|endoftext|>\n"),
        "no newline, <|endoftext|> every 7 KB": lines(7_000, lambda c: c + " <|endoftext|> "),
    }


def bench_special_shapes(prose: str, n_chars: int, repeats: int) -> None:
    ids = ("o200k_base", "cl100k_base", "llama3")
    print(
        f"\n1c. Special-token text in the shapes of real files, about {n_chars / 1e6:.0f} MB each (median of {repeats})"
    )
    print(f"{'shape':<44}{'tokenizer':<14}{'tokens':>11}{'raw s':>8}{'core s':>8}{'core/raw':>10}")
    for shape, text in special_shapes(prose, n_chars).items():
        for tid in ids:
            tok = load_builtin(tid)
            enc = tok.encoding
            n = len(enc.encode_ordinary(text))
            assert tok.count(text) == n, (shape, tid)
            raw = median_time(lambda: enc.encode_ordinary(text), repeats)
            core = median_time(lambda: _cold_count(tok, text), repeats)
            print(f"{shape:<44}{tid:<14}{n:>11,}{raw:>8.3f}{core:>8.3f}{raw / core:>9.2f}x")


def bench_view(text: str, repeats: int) -> None:
    sample = text.encode("utf-8")[:100_000].decode("utf-8", "ignore")
    print(
        f"\n2. Segments + HTML for {len(sample.encode('utf-8')) / 1e3:.0f} KB (median of {repeats}; goal < 0.3 s)"
    )
    print(f"{'tokenizer':<14}{'segments':>10}{'segments s':>12}{'html s':>9}{'total s':>9}")
    for tid in ("o200k_base", "cl100k_base", "llama3", "qwen"):
        tok = load_builtin(tid)
        segs = tok.segments(sample)
        seg_s = median_time(lambda: tok.segments(sample), repeats)
        html_s = median_time(lambda: segments_html(segs, show_whitespace=True), repeats)
        print(f"{tid:<14}{len(segs):>10,}{seg_s:>12.3f}{html_s:>9.3f}{seg_s + html_s:>9.3f}")


def bench_page(text: str, repeats: int) -> None:
    one_mb = text.encode("utf-8")[:1_000_000].decode("utf-8", "ignore")
    toks = [load_builtin(t) for t in DEFAULT_IDS]
    core = median_time(lambda: count_table(one_mb, toks, context_window=128_000), repeats)
    print(f"\n3. 1 MB on the counter page, default tokenizers {', '.join(DEFAULT_IDS)}")
    print(f"core counts (3 tokenizers): {core:.3f} s")
    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parent.parent
    at = AppTest.from_file(str(root / "streamlit_app.py"), default_timeout=120)
    at.run()
    t = time.perf_counter()
    at.session_state["workspace_text"] = one_mb
    at.run()
    page = time.perf_counter() - t
    assert not at.exception, at.exception
    from tests.helpers.count_cards import read_count_cards

    shown = read_count_cards(md.value for md in at.markdown)
    print(f"whole page run in AppTest after pasting 1 MB (counts + first part of the view): {page:.2f} s")
    print(f"counts shown: {shown}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="2 MB and 3 repeats")
    ap.add_argument("--only", choices=("counting", "special", "view", "page"), help="run one section")
    args = ap.parse_args()
    size, repeats = (2_000_000, 3) if args.quick else (10_000_000, 5)
    run = {args.only} if args.only else {"counting", "special", "view", "page"}
    text = mixed_text(10_000_000)
    text = text.encode("utf-8")[:size].decode("utf-8", "ignore")
    for tid in ("o200k_base", "cl100k_base", "llama3", "qwen"):
        _ = load_builtin(tid).native  # warm imports and the native engines; loads are not what is measured
    prose = english_prose(10_000_000).encode("utf-8")[:size].decode("utf-8", "ignore")
    if "counting" in run:
        bench_counting(text, repeats)
        special = with_special_text(prose)
        bench_counting(
            special,
            repeats,
            title=f"1b. Counting {{mb:.1f}} MB of prose with <|endoftext|> {special.count('<|endoftext|>'):,} times",
            ids=("o200k_base", "cl100k_base"),
        )
    if "special" in run:
        bench_special_shapes(english_prose(10_000_000), size // 2, repeats)
    if "view" in run:
        bench_view(text, repeats)
    if "page" in run:
        bench_page(text, 3)


if __name__ == "__main__":
    main()
