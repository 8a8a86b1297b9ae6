"""What the BPE playground shows, as data and escaped HTML (no Streamlit here).

Tables are lists of plain dicts (a page turns them into data frames); HTML is self-contained
and every piece of user text goes through ``html.escape``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..tokenizers.render import token_class, token_css, token_hue
from .encode import Probe, WordView, bpe_symbol_label
from .model import BPEModel, MergeStep, PairCount, Symbol, plural

_CSS = (
    ".tw-bpe-words{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:0.9rem;"
    "line-height:1.5;color:#1f2328;background:#ffffff;border:1px solid #d0d7de;border-radius:6px;"
    "padding:0.5rem 0.6rem;max-height:26rem;overflow-y:auto;display:flex;flex-wrap:wrap;gap:0.35rem 0.6rem}"
    ".tw-bpe-words .w{display:inline-flex;align-items:center;gap:1px;white-space:pre}"
    ".tw-bpe-words .tw-tok{padding:1px 3px;margin:0}"
    ".tw-bpe-words .n{font-size:0.72rem;color:#57606a;margin-left:3px}"
)


def bpe_pair_label(left: Symbol, right: Symbol) -> str:
    """``bpe_pair_label("lo", "w") -> "lo + w"`` (whitespace made visible)."""
    return f"{bpe_symbol_label(left)} + {bpe_symbol_label(right)}"


def bpe_words_html(views: Sequence[WordView], *, empty: str = "No words to show.") -> str:
    """Each word as coloured tokens followed by its count: ``low`` ``er`` ×2.

    Colours come from the token id, so a token has the same colour in every word. Styles are
    classes of one stylesheet in front of the view (only the colours in use).
    """
    if not views:
        return f'<style>{_CSS}</style><div class="tw-bpe-words"><em>{html.escape(empty)}</em></div>'
    parts = ['<div class="tw-bpe-words">']
    hues: set[int] = set()
    for v in views:
        spans = []
        for sym, tid in v.tokens:
            label = bpe_symbol_label(sym)
            hues.add(token_hue(tid))
            title = f"token id {tid}: {label!r}"
            spans.append(
                f'<span class="{token_class([tid])}" title="{html.escape(title)}">{html.escape(label)}</span>'
            )
        if v.cut:  # only its first characters were split: say so, never pretend it ends here
            spans.append('<span class="n" title="the word goes on">…</span>')
        about = (
            f"first {sum(len(bpe_symbol_label(s)) for s, _ in v.tokens):,} of {len(v.word):,} characters: "
            if v.cut
            else ""
        )
        parts.append(
            f'<span class="w" title="{html.escape(v.word[:200])} ({about}{len(v.tokens)} tokens)">'
            f'{"".join(spans)}<span class="n">×{v.count:,}</span></span>'
        )
    parts.append("</div>")
    return f"<style>{_CSS}</style>" + token_css(hues) + "".join(parts)


def _sym_kind(model: BPEModel) -> str:
    return "bytes" if model.options.byte_level else "characters"


def bpe_first_seen_label(model: BPEModel, cand: PairCount) -> str:
    """Where a candidate is first seen: ``"word 3 'newest', position 3"``."""
    if cand.first_seen is None:
        return ""
    wi, off = cand.first_seen
    word = model.words[wi] if wi < len(model.words) else "?"
    unit = "byte" if model.options.byte_level else "position"
    return f"word {wi + 1} {word!r}, {unit} {off}"


def explain_bpe_choice(model: BPEModel, step: MergeStep) -> str:
    """Why this pair was merged, in one or two plain sentences (no markup)."""
    chosen = f"({bpe_pair_label(step.left, step.right)})"
    cands = step.candidates
    if not cands:
        return f"{chosen} was the most frequent pair, with {step.count:,} occurrences."
    if step.tied <= 1:
        if len(cands) > 1:
            return (
                f"{chosen} won outright: {step.count:,} occurrences, ahead of "
                f"({bpe_pair_label(cands[1].left, cands[1].right)}) with {cands[1].count:,}."
            )
        return f"{chosen} was the only pair left, with {step.count:,} occurrences."
    n = f"At least {step.tied}" if step.tied_more else str(step.tied)
    rule = model.options.tie_break
    runner = cands[1]
    runner_label = f"({bpe_pair_label(runner.left, runner.right)})"
    head = f"{n} pairs share the top count {step.count:,}. "
    if rule == "smallest":
        return (
            head + f"Ties go to the alphabetically smallest pair (left symbol first, then right, "
            f"compared as {_sym_kind(model)}): {chosen} comes before {runner_label}."
        )
    if rule == "largest":
        return (
            head + f"Ties go to the alphabetically largest pair (left symbol first, then right, "
            f"compared as {_sym_kind(model)}): {chosen} comes after {runner_label}."
        )
    return (
        head + "Ties go to the pair seen first, scanning the words in corpus order and each word "
        f"left to right: {chosen} first appears at {bpe_first_seen_label(model, cands[0])}, before "
        f"{runner_label} at {bpe_first_seen_label(model, runner)}."
    )


def bpe_candidate_rows(model: BPEModel, step: MergeStep) -> list[dict]:
    """The pairs that competed for a merge: rank among them, pair, count, chosen, tie note."""
    rows = []
    top = step.count
    for i, c in enumerate(step.candidates or (PairCount(step.left, step.right, step.count),)):
        row = {
            "place": i + 1,
            "pair": bpe_pair_label(c.left, c.right),
            "count": c.count,
            "chosen": i == 0,
            # tied with the merged pair (never the merged pair itself, nor anything when it won outright)
            "tied": i > 0 and c.count == top,
        }
        if model.options.tie_break == "first":
            row["first seen"] = bpe_first_seen_label(model, c)
        rows.append(row)
    return rows


def bpe_merge_rows(model: BPEModel, k: int | None = None) -> list[dict]:
    """The merge table up to merge `k`: rank, left, right, new symbol, count, token id."""
    steps = model.steps if k is None else model.steps[: max(0, k)]
    return [
        {
            "rank": s.rank, "left": bpe_symbol_label(s.left), "right": bpe_symbol_label(s.right),
            "new": bpe_symbol_label(s.new), "count": s.count, "id": s.token_id,
        }
        for s in steps
    ]  # fmt: skip


def bpe_fired_rows(result: Probe, text_len_cap: int = 24) -> list[dict]:
    """The probe trace: which merge fired, on which pair, at which characters of the text."""
    rows = []
    for f in result.fired:
        where = ", ".join(str(s) for s in f.starts[:12]) + (" ..." if len(f.starts) > 12 else "")
        rows.append(
            {
                "merge": f.rank, "pair": bpe_pair_label(f.left, f.right), "new": bpe_symbol_label(f.new),
                "times": len(f.starts), "at characters": where,
            }
        )  # fmt: skip
    return rows


BYTE_FALLBACKS = (
    256  # a character-level model as a tokenizer: one token per byte value, for unseen characters
)


def bpe_vocabulary_help(model: BPEModel, k: int) -> str:
    """What the vocabulary after `k` merges is made of, and what a tokenizer made from it adds.

    ``"13 start symbols (characters) + 12 merged tokens. As a tokenizer it also has 256 byte
    fallbacks (one per byte value) for characters not seen in training: 281 tokens."``
    """
    size = model.vocab_size_at(k)
    base = len(model.base)
    head = f"{plural(base, 'start symbol')} ({_sym_kind(model)}) + {plural(size - base, 'merged token')}."
    if model.options.byte_level:
        return f"{head} Every byte value is a start symbol, so as a tokenizer it has these {size:,} tokens."
    return (
        f"{head} As a tokenizer it also has {BYTE_FALLBACKS} byte fallbacks (one per byte value) for "
        f"characters not seen in training: {size + BYTE_FALLBACKS:,} tokens."
    )


def bpe_tokenizer_size(model: BPEModel) -> str:
    """The model's size as a tokenizer, in the words of the Vocabulary figure: ``"306 tokens"``
    (byte-level), ``"281 tokens: its vocabulary of 25 + 256 byte fallbacks for characters not seen
    in training"`` (character-level)."""
    size = len(model.vocab)
    if model.options.byte_level:
        return plural(size, "token")
    return (
        f"{size + BYTE_FALLBACKS:,} tokens: its vocabulary of {size:,} + {BYTE_FALLBACKS} byte fallbacks "
        "for characters not seen in training"
    )


def bpe_tokens_summary(result: Probe) -> str:
    """The probe's token count, split into what the view draws.

    ``"5 tokens for 12 characters (2.40 characters per token)"``; with spaces or end-of-word
    markers: ``"16 tokens for 27 characters: 10 in the words, 3 for spaces (⋅) and 3 end-of-word
    markers (in the last piece of each word; hover it)"``.
    """
    n = result.n_tokens
    chars = len(result.text)
    if not n:
        return "no tokens (empty text)"
    head = f"{plural(n, 'token')} for {plural(chars, 'character')}"
    markers = sum(1 for t in result.tokens if t.start == t.end)
    spaces = sum(1 for t in result.tokens if t.start < t.end and result.text[t.start : t.end].isspace())
    if not markers and not spaces:
        return f"{head} ({chars / n:.2f} characters per token)"
    parts = [f"{n - markers - spaces:,} in the words"]
    if spaces:
        parts.append(f"{spaces:,} for {'a space' if spaces == 1 else 'spaces'} (⋅)")
    if markers:
        parts.append(f"{plural(markers, 'end-of-word marker')} (in the last piece of each word; hover it)")
    return f"{head}: " + ", ".join(parts[:-1]) + " and " + parts[-1]


__all__ = [
    "bpe_candidate_rows", "explain_bpe_choice", "bpe_fired_rows", "bpe_first_seen_label", "bpe_merge_rows", "bpe_pair_label",
    "bpe_tokens_summary", "bpe_tokenizer_size", "bpe_vocabulary_help", "bpe_words_html",
]  # fmt: skip
