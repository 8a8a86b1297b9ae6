"""Token windows: a text cut into windows of at most a number of tokens, with overlap.

Each window's count is the tokenizer's own count of its text; the safe cuts
(:mod:`tokenizer_core.chunking.safe_cuts`) and the token units
(:mod:`tokenizer_core.chunking.units`) save counting what is already known.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tokenizers.encoders import Tokenizer
from .counting import count_texts
from .cuts import GraphemeCursor
from .fit import fit_within
from .safe_cuts import cut_rule, first_safe_cut, last_safe_cut
from .units import TokenUnits, token_units


@dataclass(frozen=True, slots=True)
class Window:
    """One token window: ``text[start:end]`` with its real token count and overlap."""

    start: int
    end: int
    tokens: int
    overlap_tokens: int = 0
    note: str = ""


@dataclass
class WindowStats:
    """What the window builder did, for the trace shown to users."""

    counted_texts: int = 0
    counted_chars: int = 0
    repaired: int = 0


def _split_count(
    text: str, units: TokenUnits, start: int, end: int, rule: str | None
) -> tuple[list[tuple[int, int]], int] | None:
    """Pieces to count for ``text[start:end]`` and the tokens known without counting.

    With safe cuts c1 <= c2 inside the span, the count is count(head) + tokens between c1 and
    c2 (read from the units) + count(tail). Returns None when the whole span must be counted.
    """
    c1 = first_safe_cut(text, start, end, rule)
    if c1 is None:
        return None
    c2 = last_safe_cut(text, c1 - 1, end, rule)
    if c2 is None or c2 < c1:
        return None
    k1, k2 = units.index_of(c1), units.index_of(c2)
    if k1 is None or k2 is None:
        return None
    return [(start, c1), (c2, end)], int(units.cum[k2] - units.cum[k1])


def _real_counts(
    text: str, tokenizer: Tokenizer, units: TokenUnits, spans: list[tuple[int, int]], stats: WindowStats
) -> list[int]:
    """Real token counts of ``text[s:e]`` for each span, batched, with the safe-cut shortcut."""
    rule = cut_rule(tokenizer)
    texts: list[str] = []
    plan: list[tuple[int, int, int]] = []  # (first text index, number of texts, known tokens)
    for s, e in spans:
        split = _split_count(text, units, s, e, rule) if rule and e - s > 200 else None
        if split is None:
            plan.append((len(texts), 1, 0))
            texts.append(text[s:e])
        else:
            pieces, known = split
            plan.append((len(texts), len(pieces), known))
            texts.extend(text[a:b] for a, b in pieces)
    counts = count_texts(texts, tokenizer)
    stats.counted_texts += len(texts)
    stats.counted_chars += sum(map(len, texts))
    return [known + sum(counts[i : i + n]) for i, n, known in plan]


def token_windows(
    text: str,
    tokenizer: Tokenizer,
    *,
    size: int,
    overlap: int = 0,
    start: int = 0,
    end: int | None = None,
    units: TokenUnits | None = None,
    stats: WindowStats | None = None,
    graphemes: GraphemeCursor | None = None,
) -> list[Window]:
    """Cut ``text[start:end]`` into windows of at most `size` tokens, `overlap` tokens shared.

    Windows end on grapheme boundaries: a window never cuts a character or a cluster such as
    an emoji ZWJ sequence, unless that cluster alone is above `size` (the window's note then
    names it). Each window's count is the tokenizer's count of the window's own text. A
    position is in at most two windows. ``token_windows("a b c d", cl100k, size=2)`` -> "a b" |
    " c d". The work grows linearly with the text at every size (see :class:`_WindowBuilder`).
    A caller cutting many ranges of one text in order passes one `graphemes` cursor for all.
    """
    stats = stats if stats is not None else WindowStats()
    end = len(text) if end is None else end
    if end <= start:
        return []
    if units is None:
        units = token_units(tokenizer, text[start:end])
        if start:
            units = TokenUnits(units.ends + start, units.cum, units.fast)
    if int(units.ends[0]) != start or int(units.ends[-1]) != end:
        raise ValueError("token units do not cover the text range")
    graphemes = graphemes if graphemes is not None and graphemes.text is text else GraphemeCursor(text)
    windows = _WindowBuilder(text, tokenizer, size, overlap, start, end, units, stats, graphemes).run()
    return _with_overlaps(text, tokenizer, windows, units, stats)


class _WindowBuilder:
    """Token windows, left to right, in one loop (no recursion, whatever the text).

    Where a window starts on a token unit, its end is planned from the units (the furthest
    unit end within the budget that is also a grapheme boundary) and planned windows are
    counted in batches; a window whose own count is above the budget is shortened by units.
    Where units cannot plan a window (no grapheme boundary among the unit ends in reach, as in
    scripts whose tokens end inside clusters, or a start that is not a unit end), the window is
    fitted by real counts of its own prefixes over grapheme boundaries (:func:`fit_within`), up to a
    limit read from the units. Either way a window costs a few counts of about its own length,
    so the whole text costs about linear work at every size.
    """

    _SHORTEN_TRIES = 8  # shortening by units this many times without fitting: fit by counts
    _STEP_BACK = 64  # unit ends looked at for a grapheme boundary before fitting by counts

    def __init__(
        self,
        text: str,
        tok: Tokenizer,
        size: int,
        overlap: int,
        start: int,
        end: int,
        units: TokenUnits,
        stats: WindowStats,
        graphemes: GraphemeCursor,
    ) -> None:
        self.text, self.tok, self.size, self.overlap = text, tok, size, overlap
        self.start, self.end, self.units, self.stats = start, end, units, stats
        self.ends, self.cum, self.last = units.ends, units.cum, len(units.ends) - 1
        self.graphemes = graphemes
        self._fitted: tuple[int, Window] | None = None  # the last window fitted by counts

    def count(self, a: int, b: int) -> int:
        self.stats.counted_texts += 1
        self.stats.counted_chars += b - a
        return self.tok.count(self.text[a:b])

    def whole(self, pos: int) -> bool:
        """True where a window may end: a grapheme boundary, or the end of the range."""
        return pos == self.end or self.graphemes.is_boundary(pos)

    def planned_end(self, s_idx: int) -> int | None:
        """Unit index where the window from unit `s_idx` ends by the units' counts, or None."""
        top = min(int(np.searchsorted(self.cum, self.cum[s_idx] + self.size, side="right")) - 1, self.last)
        for j in range(top, max(s_idx, top - self._STEP_BACK), -1):
            if self.whole(int(self.ends[j])):
                return j
        return None

    def fitted(self, s: int) -> Window:
        """The window from `s` fitted by real counts (see :func:`fit_within`)."""
        if self._fitted is not None and self._fitted[0] == s:
            return self._fitted[1]
        k = min(int(np.searchsorted(self.ends, s, side="right")), self.last)
        j = min(int(np.searchsorted(self.cum, self.cum[k] + self.size + 1)), self.last)
        hi = int(self.ends[j])
        hi = hi if self.whole(hi) else min(self.end, self.graphemes.next_after(hi))
        p, n, note = fit_within(self.text, self.count, self.graphemes, s, hi, self.end, self.size)
        window = Window(s, p, n, note=note)
        self._fitted = (s, window)
        return window

    def end_from(self, s: int) -> tuple[int, bool]:
        """Where the window from `s` ends (planned or fitted) and whether it cuts a cluster."""
        s_idx = self.units.index_of(s)
        e_idx = self.planned_end(s_idx) if s_idx is not None else None
        if e_idx is not None:
            return int(self.ends[e_idx]), False
        window = self.fitted(s)
        return window.end, bool(window.note)

    def next_start(self, s: int, e: int, before: int) -> int:
        """Where the window after ``[s, e)`` starts; `before` ended the window before that one.

        About `overlap` tokens before `e`, on a grapheme boundary, never before `before` (a
        position is in at most two windows); at `e` when that window would bring no new text
        or would have to cut a cluster.
        """
        if self.overlap == 0 or e >= self.end:
            return e
        lo = max(s + 1, before)
        e_idx = self.units.index_of(e)
        if e_idx is not None:
            n_idx = int(np.searchsorted(self.cum, self.cum[e_idx] - self.overlap, side="left"))
            n_idx = max(n_idx, int(np.searchsorted(self.ends, lo, side="left")))
            while n_idx < e_idx and not self.whole(int(self.ends[n_idx])):
                n_idx += 1
            q = int(self.ends[n_idx])
        else:  # the smallest whole-cluster start whose tail up to e fits the overlap
            cands = ([lo] if self.whole(lo) else []) + self.graphemes.between(lo, e)
            first, last = 0, len(cands)
            while first < last:
                mid = (first + last) // 2
                if self.count(cands[mid], e) <= self.overlap:
                    last = mid
                else:
                    first = mid + 1
            q = cands[first] if first < len(cands) else e
        if q >= e:
            return e
        nxt, cut = self.end_from(q)
        return e if nxt <= e or cut else q

    def plan(self, s: int, before: int, limit: int) -> list[tuple[int, int, int]]:
        """Up to `limit` windows ``(start, end, before)`` planned from units, starting at `s`."""
        out: list[tuple[int, int, int]] = []
        while len(out) < limit and s < self.end:
            s_idx = self.units.index_of(s)
            e_idx = self.planned_end(s_idx) if s_idx is not None else None
            if e_idx is None:
                break
            e = int(self.ends[e_idx])
            out.append((s, e, before))
            s, before = self.next_start(s, e, before), e
        return out

    def shorten(self, a: int, b: int, n: int) -> Window | None:
        """Step the end of the planned window ``[a, b)`` back over units until its own count fits."""
        s_idx, e_idx = self.units.index_of(a), self.units.index_of(b)
        if s_idx is None or e_idx is None:
            return None
        for _ in range(self._SHORTEN_TRIES):
            target = self.cum[e_idx] - max(1, n - self.size)
            e2 = min(int(np.searchsorted(self.cum, target, side="right")) - 1, e_idx - 1)
            while e2 > s_idx and not self.whole(int(self.ends[e2])):
                e2 -= 1
            if e2 <= s_idx:
                return None
            e_idx = e2
            n = self.count(a, int(self.ends[e_idx]))
            if n <= self.size:
                return Window(a, int(self.ends[e_idx]), n)
        return None

    def accept(self, out: list[Window], window: Window, before: int) -> tuple[int, int]:
        """Add a repaired or fitted window; returns the next (start, before)."""
        if out and window.end <= out[-1].end:  # it brings nothing new: go on from the last end
            return out[-1].end, out[-1].end
        out.append(window)
        if window.note:  # never overlap into a cut cluster
            return window.end, window.end
        return self.next_start(window.start, window.end, before), window.end

    def run(self) -> list[Window]:
        out: list[Window] = []
        s = before = self.start
        batch = 64  # planned windows counted per call; shrinks after a miss, grows after a hit
        while s < self.end:
            plan = self.plan(s, before, batch)
            if not plan:
                s, before = self.accept(out, self.fitted(s), before)
                continue
            counts = _real_counts(self.text, self.tok, self.units, [(a, b) for a, b, _ in plan], self.stats)
            bad = next((k for k, n in enumerate(counts) if n > self.size), None)
            out.extend(Window(a, b, n) for (a, b, _), n in zip(plan[:bad], counts[:bad]))
            if bad is None:
                a, b, bf = plan[-1]
                s, before = self.next_start(a, b, bf), b
                batch = min(1024, batch * 2)
                continue
            a, b, bf = plan[bad]
            self.stats.repaired += 1
            s, before = self.accept(out, self.shorten(a, b, counts[bad]) or self.fitted(a), bf)
            batch = max(1, batch // 4)
        return out


def _with_overlaps(
    text: str, tokenizer: Tokenizer, windows: list[Window], units: TokenUnits, stats: WindowStats
) -> list[Window]:
    """Measure each window's real overlap with the one before (a count of the shared text)."""
    spans = [(w.start, prev.end) for prev, w in zip(windows, windows[1:]) if w.start < prev.end]
    if not spans:
        return windows
    counts = iter(_real_counts(text, tokenizer, units, spans, stats))
    out = [windows[0]]
    for prev, w in zip(windows, windows[1:]):
        if w.start < prev.end:
            w = Window(w.start, w.end, w.tokens, next(counts), w.note)
        out.append(w)
    return out
