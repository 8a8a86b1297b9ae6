"""The incremental BPE trainer (see tokenizer_core.bpe.model for the definitions it follows).

State: each distinct word as a list of symbol ids with its count; pair counts; an index pair
-> words that (may) contain it; a heap of (-count, tie key, pair) entries with lazy deletion.
A merge rewrites only the words in the pair's index and pushes the pairs whose count grew;
entries whose count fell are corrected when they reach the top of the heap.

For tie_break "first" the tie key is where the pair is first seen (word index, offset). That
position can only move later when an occurrence is removed from the pair's first word (the
pair is then marked dirty and its position recomputed when its entry reaches the top), and
earlier when a new occurrence appears (updated at once).
"""

from __future__ import annotations

import gc
import heapq
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace

from .model import BPEModel, BPEOptions, MergeStep, PairCount, Symbol, cut_long_words, plural, word_counts

_SHIFT = 32
_MASK = (1 << _SHIFT) - 1
_NEG_END = 1  # sorts after every negated code point / byte (see _largest_key)


def _largest_key(sym: Symbol) -> tuple[int, ...]:
    """A key that sorts symbols in reverse: key(x) < key(y) exactly when x > y.

    ``_largest_key("ab") -> (-97, -98, 1)``; the final 1 puts a longer string first.
    """
    if isinstance(sym, str):
        return tuple(-ord(c) for c in sym) + (_NEG_END,)
    return tuple(-b for b in sym) + (_NEG_END,)


def _moved(firstpos: dict[int, int], dirty: set[int], k: int, wi: int, span: int) -> None:
    """Pair `k` lost an occurrence in word `wi`: if that is its first word, mark it dirty (its
    first position is recomputed when it reaches the top of the heap)."""
    fp = firstpos.get(k)
    if fp is not None and fp // span == wi:
        dirty.add(k)


def _seen(firstpos: dict[int, int], k: int, pos: int) -> None:
    """Pair `k` has a new occurrence at `pos`: its first position is the earlier of the two."""
    fp = firstpos.get(k)
    if fp is None or pos < fp:
        firstpos[k] = pos


class BPETrainer:
    """Incremental BPE training, one merge per iteration.

    ``for step in BPETrainer(words, options): ...`` yields a MergeStep per merge;
    ``trainer.model()`` is the BPEModel of the merges done so far. Building the trainer counts
    the pairs (the expensive part); each merge then costs only the words containing the pair.
    `top_n` > 0 records that many candidate pairs per step (for stepping through training).
    """

    def __init__(
        self,
        corpus: str | Mapping[str, int] | Iterable[str],
        options: BPEOptions,
        *,
        top_n: int = 0,
    ) -> None:
        self.options = options.validate()
        self.top_n = max(0, int(top_n))
        self._t0 = time.perf_counter()
        counts = word_counts(corpus, self.options)
        self.words_cut = 0
        if self.options.max_word_chars is not None:
            counts, self.words_cut = cut_long_words(counts, self.options.max_word_chars)
        self.word_text: tuple[str, ...] = tuple(counts)
        self.word_freq: tuple[int, ...] = tuple(counts.values())
        self.steps: list[MergeStep] = []
        self.stop_reason = ""
        self._setup()

    # ------------------------------------------------------------------ initial state

    def _setup(self) -> None:
        opts = self.options
        marker = opts.end_marker
        sym: list[Symbol] = []
        if opts.byte_level:
            sym = [bytes([i]) for i in range(256)]
            if marker and marker.encode("utf-8") not in sym:
                sym.append(marker.encode("utf-8"))
        else:
            alphabet = set("".join(self.word_text))
            if marker:
                alphabet.add(marker)
            sym = sorted(alphabet)
        self.base: tuple[Symbol, ...] = tuple(sym)
        self._sym = sym
        self._sid: dict[Symbol, int] = {s: i for i, s in enumerate(sym)}
        self._slen: list[int] = [len(s) for s in sym]
        first = opts.tie_break == "first"
        largest = opts.tie_break == "largest"
        self._skey: list = [_largest_key(s) if largest else s for s in sym]
        self._vocab_size = len(sym)

        sid = self._sid
        words: list[list[int]] = []
        if opts.byte_level:
            mark = [sid[marker.encode("utf-8")]] if marker else []
            for w in self.word_text:
                words.append(list(w.encode("utf-8")) + mark)
        else:
            mark = [sid[marker]] if marker else []
            for w in self.word_text:
                words.append([sid[c] for c in w] + mark)
        self._words = words
        freqs = self.word_freq
        self._tokens = sum(len(w) * f for w, f in zip(words, freqs))
        self.initial_tokens = self._tokens

        counts: defaultdict[int, int] = defaultdict(int)
        where: defaultdict[int, set[int]] = defaultdict(set)
        shift = _SHIFT
        firstpos: dict[int, int] = {}
        # "first seen" positions: word index * span + offset of the pair's left symbol, in
        # start symbols (only the marker can be longer than one unit, and it is always last)
        self._span = span = max((len(w) for w in words), default=0) + 1
        for wi, w in enumerate(words):
            f = freqs[wi]
            if len(w) < 2:
                continue
            prev = w[0]
            for j in range(1, len(w)):
                cur = w[j]
                pid = (prev << shift) | cur
                counts[pid] += f
                where[pid].add(wi)
                if first and pid not in firstpos:
                    firstpos[pid] = wi * span + j - 1
                prev = cur
        self._counts = counts
        self._where = where
        self._first = firstpos
        self._dirty: set[int] = set()
        skey = self._skey
        if first:
            heap = [(-c, firstpos[p], p) for p, c in counts.items()]
        else:
            heap = [(-c, skey[p >> shift], skey[p & _MASK], p) for p, c in counts.items()]
        heapq.heapify(heap)
        self._heap = heap
        self.setup_seconds = time.perf_counter() - self._t0

    # --------------------------------------------------------------------- selection

    def _valid_top(self) -> tuple | None:
        """Pop heap entries until one is exact (current count and position); return it.

        Stale entries are refreshed or dropped (lazy deletion). Invariant: every pair with a
        positive count has an entry whose key is no worse than its true key.
        """
        heap = self._heap
        counts = self._counts
        first = self.options.tie_break == "first"
        while heap:
            entry = heap[0]
            negc, pid = entry[0], entry[-1]
            cur = counts.get(pid, 0)
            if cur <= 0 or -negc < cur:  # gone, or a better entry exists
                heapq.heappop(heap)
                continue
            if -negc > cur:  # count fell since the push: re-queue with the true count
                if first:
                    heapq.heapreplace(heap, (-cur, self._first[pid], pid))
                else:
                    heapq.heapreplace(heap, (-cur, entry[1], entry[2], pid))
                continue
            if first:
                if pid in self._dirty:
                    self._refresh_first(pid)
                true_pos = self._first[pid]
                if entry[1] < true_pos:
                    heapq.heapreplace(heap, (negc, true_pos, pid))
                    continue
                if entry[1] > true_pos:
                    heapq.heappop(heap)
                    continue
            return heapq.heappop(heap)
        return None

    def _refresh_first(self, pid: int) -> None:
        """Recompute where `pid` is first seen: the lowest word index that still holds it."""
        self._dirty.discard(pid)
        postings = self._where.get(pid)
        a, b = pid >> _SHIFT, pid & _MASK
        slen = self._slen
        span = self._span
        while postings:
            wi = min(postings)
            w = self._words[wi]
            off = 0
            for j in range(len(w) - 1):
                if w[j] == a and w[j + 1] == b:
                    self._first[pid] = wi * span + off
                    return
                off += slen[w[j]]
            postings.discard(wi)  # a stale posting: the word no longer holds the pair
        self._first.pop(pid, None)

    def _candidate(self, entry: tuple) -> PairCount:
        pid = entry[-1]
        a, b = pid >> _SHIFT, pid & _MASK
        seen = None
        if self.options.tie_break == "first":
            seen = divmod(entry[1], self._span)
        return PairCount(self._sym[a], self._sym[b], -entry[0], seen)

    # ----------------------------------------------------------------------- merging

    def _new_symbol(self, a: int, b: int) -> int:
        new = self._sym[a] + self._sym[b]
        c = self._sid.get(new)
        if c is None:
            c = len(self._sym)
            self._sym.append(new)
            self._sid[new] = c
            self._slen.append(len(new))
            self._skey.append(_largest_key(new) if self.options.tie_break == "largest" else new)
            self._vocab_size += 1
        return c

    def _merge(self, pid: int, a: int, b: int, c: int) -> tuple[int, int]:
        """Rewrite every word holding (a, b) with c; update counts. Returns (sites, words).

        For tie_break "first" it also keeps where each pair is first seen: a pair losing an
        occurrence in its first word is marked dirty, a new occurrence earlier than the pair's
        first position moves it there.
        """
        counts = self._counts
        where = self._where
        words = self._words
        freqs = self.word_freq
        first = self.options.tie_break == "first"
        firstpos = self._first
        dirty = self._dirty
        slen = self._slen
        span = self._span
        ab_len = slen[a] + slen[b]
        shift = _SHIFT
        added: set[int] = set()
        sites = 0
        changed = 0
        postings = where.pop(pid, ())
        for wi in postings:
            w = words[wi]
            m = w.count(a)
            if not m:
                continue
            n = len(w)
            f = freqs[wi]
            out: list[int] = []
            done = 0  # w[:done] is already copied to out (or merged)
            pos = wi * span  # "first" only: the position of w[done]
            i = -1
            for _ in range(m):
                i = w.index(a, i + 1)
                if i < done or i + 1 >= n or w[i + 1] != b:
                    continue  # inside the previous site (a == b), or not followed by b
                out.extend(w[done:i])
                if out:
                    p = out[-1]
                    counts[(p << shift) | a] -= f
                    k = (p << shift) | c
                    counts[k] += f
                    where[k].add(wi)
                    added.add(k)
                if i + 2 < n:
                    q = w[i + 2]
                    counts[(b << shift) | q] -= f
                    k = (c << shift) | q
                    counts[k] += f
                    where[k].add(wi)
                    added.add(k)
                if first:  # the same pairs again, for where each is first seen
                    for s in w[done:i]:
                        pos += slen[s]
                    if out:
                        p = out[-1]
                        _moved(firstpos, dirty, (p << shift) | a, wi, span)
                        _seen(firstpos, (p << shift) | c, pos - slen[p])
                    if i + 2 < n:
                        q = w[i + 2]
                        _moved(firstpos, dirty, (b << shift) | q, wi, span)
                        _seen(firstpos, (c << shift) | q, pos)
                    pos += ab_len
                out.append(c)
                sites += f
                done = i + 2
            if done:
                out.extend(w[done:])
                words[wi] = out
                changed += 1
        counts.pop(pid, None)
        heap = self._heap
        if first:
            firstpos.pop(pid, None)
            dirty.discard(pid)
            for k in added:
                cnt = counts[k]
                if cnt > 0:
                    heapq.heappush(heap, (-cnt, firstpos[k], k))
        else:
            skey = self._skey
            for k in added:
                cnt = counts[k]
                if cnt > 0:
                    heapq.heappush(heap, (-cnt, skey[k >> shift], skey[k & _MASK], k))
        return sites, changed

    # ------------------------------------------------------------------------ driving

    def _limit_reached(self) -> str:
        opts = self.options
        if opts.merges is not None and len(self.steps) >= opts.merges:
            return f"reached the requested {plural(opts.merges, 'merge')}"
        if opts.vocab_size is not None and self._vocab_size >= opts.vocab_size:
            if not self.steps:
                return (
                    f"the start vocabulary already has {self._vocab_size:,} symbols, which is at least "
                    f"the target of {opts.vocab_size:,}"
                )
            return f"reached the target vocabulary of {opts.vocab_size:,}"
        return ""

    def __iter__(self) -> Iterator[MergeStep]:
        gc_was_enabled = gc.isenabled()
        gc.disable()  # the loop allocates millions of small objects and frees none
        try:
            yield from self._run()
        finally:
            if gc_was_enabled:
                gc.enable()

    def _run(self) -> Iterator[MergeStep]:
        merge = self._merge
        min_freq = self.options.min_frequency
        top_n = self.top_n
        while True:
            reason = self._limit_reached()
            if reason:
                self.stop_reason = reason
                return
            entry = self._valid_top()
            if entry is None:
                self.stop_reason = "no pairs left: every word is a single token"
                return
            count = -entry[0]
            if count < min_freq:
                heapq.heappush(self._heap, entry)
                self.stop_reason = f"no pair occurs at least {min_freq:,} times (the best occurs {count:,})"
                return
            candidates: tuple[PairCount, ...] = ()
            tied, tied_more = 1, False
            if top_n:
                others = []
                seen = {entry[-1]}
                while len(others) < top_n - 1:
                    nxt = self._valid_top()
                    if nxt is None:
                        break
                    if nxt[-1] in seen:
                        continue
                    seen.add(nxt[-1])
                    others.append(nxt)
                for o in others:
                    heapq.heappush(self._heap, o)
                candidates = tuple(self._candidate(e) for e in [entry, *others])
                tied = sum(1 for cnd in candidates if cnd.count == count)
                tied_more = tied == len(candidates) and len(candidates) == top_n
            pid = entry[-1]
            a, b = pid >> _SHIFT, pid & _MASK
            c = self._new_symbol(a, b)
            sites, changed = merge(pid, a, b, c)
            self._tokens -= sites
            step = MergeStep(
                rank=len(self.steps) + 1, left=self._sym[a], right=self._sym[b], new=self._sym[c],
                token_id=c, count=count, vocab_size=self._vocab_size, corpus_tokens=self._tokens,
                words_changed=changed, candidates=candidates, tied=tied, tied_more=tied_more,
            )  # fmt: skip
            self.steps.append(step)
            yield step

    def model(self) -> BPEModel:
        """The model of the merges done so far."""
        return BPEModel(
            options=self.options, base=self.base, steps=tuple(self.steps), words=self.word_text,
            freqs=self.word_freq, initial_tokens=self.initial_tokens, stop_reason=self.stop_reason,
            seconds=time.perf_counter() - self._t0, words_cut=self.words_cut,
        )  # fmt: skip


def train_bpe(
    corpus: str | Mapping[str, int] | Iterable[str],
    options: BPEOptions | None = None,
    *,
    top_n: int = 0,
    progress: Callable[[int, int], None] | None = None,
    progress_every: int = 1,
) -> BPEModel:
    """Train BPE on raw text, a word -> count mapping, or a list of words (`options` default:
    ``BPEOptions()``, 100 merges over UTF-8 bytes of whitespace-split words).

    `progress(done, planned)` is called every `progress_every` merges (`planned` is the merge
    budget, or 0 when training to a vocabulary size). Raises BPEError for bad options.
    """
    options = options or BPEOptions()
    trainer = BPETrainer(corpus, options, top_n=top_n)
    planned = options.merges if options.merges is not None else 0
    every = max(1, progress_every)
    for step in trainer:
        if progress is not None and step.rank % every == 0:
            progress(step.rank, planned)
    return trainer.model()


def with_steps(model: BPEModel, k: int) -> BPEModel:
    """The model truncated to its first `k` merges: ``with_steps(m, 0).steps == ()``."""
    k = max(0, min(k, len(model.steps)))
    return replace(model, steps=model.steps[:k], stop_reason=f"first {k:,} merges of {len(model.steps):,}")


__all__ = ["BPETrainer", "train_bpe", "with_steps"]
