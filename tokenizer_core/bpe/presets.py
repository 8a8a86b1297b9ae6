"""Preset corpora for the BPE playground: published worked examples, prose and code.

Each worked example is named by its words and carries its source; one given as word counts is
written out as text (each word repeated, in the source's order), so splitting it on whitespace
gives back exactly its counts and word order. Each preset carries the options that reproduce
the source's merges, and what the source shows.
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
    source: str = ""  # where the example comes from, in a sentence for the page's caption

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

_EXPLAINED_SIMPLY = "the article “Tokens and Tokenization in LLMs, Explained Simply”"
_TOKENS_IN_LLM = "the article “Tokens and Tokenization in LLM”"
_LESSON = "the beginner lesson “Tokenization” (RAG Foundations)"
_GEEKS = "“Tokens and Byte-Pair Encoding”, geekswithgeeks.com/en/llms/f-tokens"

BPE_PRESETS: dict[str, BPEPreset] = {
    p.name: p
    for p in (
        BPEPreset(
            "load / data / stream",
            BPEOptions(symbols="chars", end_marker="</w>", merges=12, tie_break="largest"),
            "The article's first merges are o+a, oa+d, l+oad, t+a, d+a, da+ta; it splits loading as "
            "load|i|ng|</w> and dataframe as data|f|r|a|m|e|</w>. Probe those words.",
            text=SEED_002_TEXT,
            probe="loading datasets reloading streamed dataframe",
            source=f"The worked example of {_EXPLAINED_SIMPLY}: ties go to the largest pair, words end in </w>.",
        ),
        BPEPreset(
            "get / set / reset",
            BPEOptions(symbols="chars", merges=4, tie_break="smallest"),
            "The merges are e+t (19), s+et (11), g+et (8), then e+r (4): two pairs share that count "
            "and the alphabetical rule picks e+r. 7 start symbols grow to 11.",
            text=counts_as_text({"get": 6, "set": 5, "reset": 3, "getter": 2, "setter": 2, "offset": 1}),
            probe="getter resets offset",
            source=f"The identifier example of {_TOKENS_IN_LLM}: ties go to the alphabetically smallest pair.",
        ),
        BPEPreset(
            "low lower lowest newest",
            BPEOptions(symbols="chars", end_marker="_", merges=5, tie_break="first"),
            "Ties go to the pair counted first, so l+o (5) beats o+w (5), and low+_ (3) beats e+s (3).",
            text="low low low lower lowest newest newest",
            probe="lowest newer slowest",
            source=f"The Python program of {_LESSON}: words end in _, ties go to the pair seen first.",
        ),
        BPEPreset(
            "lower lowest",
            BPEOptions(symbols="chars", end_marker="_", merges=3, tie_break="first"),
            "A diagram that merges e+r third is wrong for this corpus: after l+o and lo+w the pair "
            "low+e occurs twice (lower, lowest) and e+r only once, so merge 3 is low+e.",
            text="lower lowest",
            probe="lower lowest",
            source=f"The diagram of {_LESSON}, trained by its own algorithm.",
        ),
        BPEPreset(
            "low lower newest widest",
            BPEOptions(symbols="chars", merges=5, tie_break="first"),
            "The merges are e+s, es+t, l+o, lo+w, n+e, and the words end as low | low e r | ne w est | "
            "w i d est.",
            text=counts_as_text({"low": 5, "lower": 2, "newest": 6, "widest": 3}),
            probe="lowest widest newer",
            source=f"The classic word counts of Sennrich et al. (2016), as in {_GEEKS}.",
        ),
        BPEPreset(
            "English prose (4 KB)",
            BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=300, tie_break="smallest"),
            "Byte-level BPE with GPT-4's pre-tokenization: common words with their leading space "
            "(' the', ' and') become single tokens first.",
            file="english.txt",
            probe="The harbour master reads the list aloud.",
            source="Written for this app.",
        ),
        BPEPreset(
            "Python code (4 KB)",
            BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=300, tie_break="smallest"),
            "Code: indentation runs, 'self', 'item' and 'return' become tokens quickly.",
            file="python.txt",
            probe="def remove_stock(self, sku: str) -> int:",
            source="Written for this app.",
        ),
    )
}


__all__ = ["BPEPreset", "BPE_PRESETS", "counts_as_text"]
