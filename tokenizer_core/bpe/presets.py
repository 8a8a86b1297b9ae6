"""Preset corpora for the BPE playground: each seed's worked example, prose and code.

A seed corpus given as word counts is written out as text (each word repeated, in the seed's
order), so splitting it on whitespace gives back exactly the seed's counts and word order.
Each preset carries the options that reproduce its seed, and what the seed printed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from .model import BPEOptions


@dataclass(frozen=True)
class BPEPreset:
    """A corpus with the options that go with it and a note on what to look for."""

    name: str
    options: BPEOptions
    note: str
    text: str = ""
    file: str = ""
    probe: str = ""

    def corpus(self) -> str:
        """The preset's text (read from tokenizer_core/data/bpe for the larger ones)."""
        if self.file:
            return (resources.files("tokenizer_core") / "data" / "bpe" / self.file).read_text(
                encoding="utf-8"
            )
        return self.text


def counts_as_text(counts: Mapping[str, int]) -> str:
    """``{"low": 2, "lower": 1} -> "low low\\nlower"``: one line per word, in order."""
    return "\n".join(" ".join([w] * n) for w, n in counts.items())


SEED_002_TEXT = (
    "load loader loading loaded reload " * 20 + "data dataset datasets " * 15 + "stream streaming " * 10
).strip()

BPE_PRESETS: dict[str, BPEPreset] = {
    p.name: p
    for p in (
        BPEPreset(
            "Seed 002: load / data / stream (ties: largest, </w>)",
            BPEOptions(symbols="chars", end_marker="</w>", merges=12, tie_break="largest"),
            "Seed 002 prints the first merges (o+a, oa+d, l+oad, t+a, d+a, da+ta) and tokenizes "
            "loading as load|i|ng|</w> and dataframe as data|f|r|a|m|e|</w>. Probe those words.",
            text=SEED_002_TEXT,
            probe="loading datasets reloading streamed dataframe",
        ),
        BPEPreset(
            "Seed 000: get / set identifiers (ties: smallest)",
            BPEOptions(symbols="chars", merges=4, tie_break="smallest"),
            "Seed 000 prints e+t (19), s+et (11), g+et (8), then e+r (4): two pairs share that "
            "count and the alphabetical rule picks e+r. 7 start symbols grow to 11.",
            text=counts_as_text({"get": 6, "set": 5, "reset": 3, "getter": 2, "setter": 2, "offset": 1}),
            probe="getter resets offset",
        ),
        BPEPreset(
            "Seed 001: low lower lowest newest (first seen, _)",
            BPEOptions(symbols="chars", end_marker="_", merges=5, tie_break="first"),
            "Seed 001's program: ties go to the pair its Counter saw first, so l+o (5) beats o+w "
            "(5), and low+_ (3) beats e+s (3).",
            text="low low low lower lowest newest newest",
            probe="lowest newer slowest",
        ),
        BPEPreset(
            "Seed 001 diagram: lower lowest",
            BPEOptions(symbols="chars", end_marker="_", merges=3, tie_break="first"),
            "The diagram in seed 001 merges e+r third, but its own algorithm does not: after l+o and "
            "lo+w the pair low+e occurs twice (lower, lowest) and e+r only once, so merge 3 is low+e.",
            text="lower lowest",
            probe="lower lowest",
        ),
        BPEPreset(
            "Seed 004: low / lower / newest / widest (first seen, no marker)",
            BPEOptions(symbols="chars", merges=5, tie_break="first"),
            "Seed 004 prints e+s, es+t, l+o, lo+w, n+e and ends with low | low e r | ne w est | w i d est.",
            text=counts_as_text({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
            probe="lowest widest newer",
        ),
        BPEPreset(
            "English prose (4 KB)",
            BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=300, tie_break="smallest"),
            "Byte-level BPE with GPT-4's pre-tokenization: common words with their leading space "
            "(' the', ' and') become single tokens first.",
            file="english.txt",
            probe="The harbour master reads the list aloud.",
        ),
        BPEPreset(
            "Python code (4 KB)",
            BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=300, tie_break="smallest"),
            "Code: indentation runs, 'self', 'item' and 'return' become tokens quickly.",
            file="python.txt",
            probe="def remove_stock(self, sku: str) -> int:",
        ),
    )
}


__all__ = ["BPEPreset", "BPE_PRESETS", "counts_as_text"]
