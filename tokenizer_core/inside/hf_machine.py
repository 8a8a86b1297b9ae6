"""A Hugging Face ``tokenizer.json`` taken apart: its normaliser, its pre-tokenizer's steps, and
its model replayed: BPE (merges in file order), WordPiece (longest match first) or Unigram (the
best cut by score, Viterbi), each checked against the tokenizer's own ids in the tests."""

from __future__ import annotations

import json
import re
from typing import Any

import regex

from ..tokenizers.encoders import engine_guard
from ..tokenizers.hf_engine import HFTokenizer
from .byte_alphabet import byte_display
from .merges import merge_steps
from .pattern import Alternative, alternatives
from .records import (
    MAX_REPLAY_BYTES,
    SPACE_MARK,
    Machine,
    Normalisation,
    PrefixSearch,
    PreTokenPiece,
    Replay,
    Segmentation,
    _steps,
)


class HFBPEMachine(Machine):
    """A ``tokenizer.json``: its normaliser, its pre-tokenizer, then its model: BPE (merges in
    file order), WordPiece (longest match first) or Unigram (the best cut by score)."""

    kind = "hf-bpe"

    def __init__(self, tokenizer: HFTokenizer) -> None:
        super().__init__(tokenizer)
        inner = tokenizer.tokenizer
        self.inner = inner
        self.byte_level = tokenizer.byte_level
        model = json.loads(inner.model.__getstate__())
        self.model_type = model.get("type", "")
        self._problem = ""
        self.vocab: dict[str, int] = {}
        self.unk = model.get("unk_token")
        self.byte_fallback = bool(model.get("byte_fallback"))
        if self.model_type == "BPE":
            self.method = "merges"
            if (
                model.get("dropout")
                or model.get("continuing_subword_prefix")
                or model.get("end_of_word_suffix")
            ):
                self._problem = "this tokenizer's file uses BPE options this page does not replay"
            else:
                self.vocab = model.get("vocab", {})
        elif self.model_type == "WordPiece":
            self.kind, self.method = "wordpiece", "longest"
            self.vocab = model.get("vocab", {})
            self.prefix = model.get("continuing_subword_prefix") or ""
            self.max_chars = int(model.get("max_input_chars_per_word") or 100)
        elif self.model_type == "Unigram":
            self.kind, self.method = "unigram", "viterbi"
            entries = model.get("vocab", [])
            self.scores = [float(sc) for _, sc in entries]
            for i, (piece, _) in enumerate(entries):
                self.vocab.setdefault(piece, i)
            self.unk_id = model.get("unk_id")
            self.unk = entries[self.unk_id][0] if self.unk_id is not None else None
            self.unk_score = min(self.scores, default=0.0) - 10.0  # tokenizers' own penalty
            self.longest = max(map(len, self.vocab), default=1)
        else:
            self._problem = (
                f"this tokenizer is a {self.model_type or 'different'} model, which this page does not replay"
            )
        self.replays = not self._problem
        self.unk_label = str(self.unk) if self.unk is not None else ""
        self.merge_ranks: dict[tuple[str, str], int] = {}
        for rank, m in enumerate(model.get("merges", []) if self.method == "merges" and self.replays else []):
            pair = tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m)
            self.merge_ranks.setdefault(pair, rank)  # type: ignore[arg-type]
        self.ignore_merges = bool(model.get("ignore_merges"))
        added = inner.get_added_tokens_decoder()
        self.markers = {t.content: i for i, t in added.items() if not t.special and t.content}
        self._marker_re = (
            regex.compile("|".join(regex.escape(m) for m in sorted(self.markers, key=len, reverse=True)))
            if self.markers
            else None
        )
        pre = inner.pre_tokenizer
        self._pre = json.loads(pre.__getstate__()) if pre is not None else None
        self._patterns = _split_patterns(self._pre)
        # With no pre-tokenizer, a BPE whose tokens never hold ▁ after another character (Llama 2's
        # file: the normaliser puts the ▁ in) merges nothing across the start of a ▁ run, so the
        # text is shown cut there, as SentencePiece's is; the ids are the same.
        self._cut_at_marks = (
            pre is None
            and self.method == "merges"
            and not self.byte_level
            and not any(_MARK_INSIDE.search(t) for t in self.vocab)
        )

    def normalise(self, text: str) -> Normalisation | None:
        norm = self.inner.normalizer
        if norm is None:
            return None
        steps = json.loads(norm.__getstate__())
        if steps.get("type") == "Sequence" and not steps.get("normalizers"):
            return None
        with engine_guard(self.tokenizer.id):  # a user's file may panic in Rust: a message, not a crash
            after = norm.normalize_str(text)
        return Normalisation(text, after, _normaliser_words(steps))

    def patterns(self) -> tuple[str, ...]:
        return self._patterns

    def pre_steps(self) -> tuple[str, ...]:
        return tuple(_pre_tokenizer_words(self._pre)) if self._pre is not None else ()

    def pieces(self, text: str) -> list[PreTokenPiece]:
        out: list[PreTokenPiece] = []
        spans: list[tuple[int, int, bool]] = []
        pos = 0
        if self._marker_re is not None:
            for m in self._marker_re.finditer(text):
                spans.append((pos, m.start(), False))
                spans.append((m.start(), m.end(), True))
                pos = m.end()
        spans.append((pos, len(text), False))
        pre = self.inner.pre_tokenizer
        single = alternatives(self._patterns[0]) if len(self._patterns) == 1 else ()
        for s, e, marker in spans:
            if s == e:
                continue
            if marker:
                out.append(PreTokenPiece(len(out), s, e, text[s:e], marker=True))
                continue
            stretch = text[s:e]
            with engine_guard(self.tokenizer.id):
                if pre is not None:
                    cuts = pre.pre_tokenize_str(stretch)
                elif self._cut_at_marks:
                    cuts = [(m.group(), m.span()) for m in _MARK_WORD.finditer(stretch)]
                else:
                    cuts = [(stretch, (0, len(stretch)))]
            at = 0
            for form, (a, b) in cuts:
                if a > at:  # text the pre-tokenizer dropped: shown, but it gets no token
                    out.append(PreTokenPiece(len(out), s + at, s + a, stretch[at:a], dropped=True))
                if a < at:  # pieces that overlap (a step that repeats text): not drawn twice
                    a = at
                if b <= a and not form:
                    continue
                # a byte-level model is given the piece's bytes in its own alphabet, made here
                seen = "" if self.byte_level or form == stretch[a:b] else form
                out.append(PreTokenPiece(len(out), s + a, s + max(a, b), stretch[a:b],
                                         _rule_of(single, stretch, a, b), form=seen))  # fmt: skip
                at = max(at, b)
            if at < len(stretch):
                out.append(PreTokenPiece(len(out), s + at, e, stretch[at:], dropped=True))
        return out

    def no_replay_reason(self) -> str:
        return self._problem or super().no_replay_reason()

    def replay(self, piece: str) -> Replay:
        if piece in self.markers:
            return Replay(piece, (piece,), (), True, (self.markers[piece],))
        if not self.replays:
            return super().replay(piece)
        if self.method == "longest":
            return self._wordpiece(piece)
        if self.method == "viterbi":
            return self._unigram(piece)
        word = byte_display(piece.encode("utf-8")) if self.byte_level else piece
        start: list[str] = []
        for ch in word:
            if ch in self.vocab:
                start.append(ch)
            elif self.byte_fallback and all(f"<0x{b:02X}>" in self.vocab for b in ch.encode("utf-8")):
                start.extend(f"<0x{b:02X}>" for b in ch.encode("utf-8"))
            elif self.unk is not None and self.unk in self.vocab:
                start.append(self.unk)
            else:
                return Replay(piece, tuple(word), (), False, tuple(self.tokenizer.encode(piece)),
                              problem="a character of this piece is in no token of the vocabulary")  # fmt: skip
        if (self.ignore_merges or len(start) == 1) and word in self.vocab:
            return Replay(piece, tuple(start), (), True, (self.vocab[word],))
        if len(start) > MAX_REPLAY_BYTES:
            return Replay(piece, tuple(start), (), False, tuple(self.tokenizer.encode(piece)),
                          problem=f"this piece has {len(start):,} parts; merges are shown for pieces of "
                          f"up to {MAX_REPLAY_BYTES}")  # fmt: skip
        ranks = self.merge_ranks
        final, done = merge_steps(start, lambda a, b: ranks.get((a, b)), lambda a, b: a + b)
        return Replay(piece, tuple(start), _steps(done, str), False, tuple(self.vocab[p] for p in final))

    def _wordpiece(self, word: str) -> Replay:
        """Greedy longest-match-first, as BERT's WordPiece: from each point, the longest entry
        of the vocabulary that starts there (``##`` in front after the first), else the whole
        word is the unknown token."""
        unk = (self.vocab[self.unk],) if self.unk in self.vocab else ()
        if len(word) > self.max_chars:
            return Replay(word, (), (), False, unk, search=(PrefixSearch(0, (), None),))
        found: list[str] = []
        search: list[PrefixSearch] = []
        start = 0
        while start < len(word):
            tried: list[str] = []
            hit = None
            at = start
            for end in range(len(word), at, -1):
                cand = (self.prefix if at else "") + word[at:end]
                tried.append(cand)
                if cand in self.vocab:
                    hit, start = cand, end
                    break
            search.append(PrefixSearch(at, tuple(tried), hit))
            if hit is None:
                return Replay(word, (), (), False, unk, search=tuple(search))
            found.append(hit)
        whole = len(found) == 1
        return Replay(
            word, tuple(found), (), whole, tuple(self.vocab[f] for f in found), search=tuple(search)
        )

    def _unigram(self, piece: str) -> Replay:
        """The cut of `piece` whose scores sum highest (Viterbi), as tokenizers' Unigram does it:
        a character no entry starts with alone costs the unknown token's score; unknown
        characters in a row become one unknown token; with byte fallback, their bytes."""
        if len(piece) > MAX_REPLAY_BYTES * 4:
            return Replay(piece, (), (), False, tuple(self.tokenizer.encode(piece)),
                          problem=f"this piece is {len(piece):,} characters long; the best cut is shown for "
                          f"pieces of up to {MAX_REPLAY_BYTES * 4:,}")  # fmt: skip
        n = len(piece)
        unk = -1
        # best[e]: (score, start, entry id) of the best way to reach character e; two per point
        # (the best and the next best) give the best other cut.
        best: list[tuple[float, int, int] | None] = [None] * (n + 1)
        best[0] = (0.0, 0, unk)
        top2: list[list[tuple[float, int, int, int]]] = [[] for _ in range(n + 1)]
        top2[0] = [(0.0, 0, unk, 0)]
        for s in range(n):
            here = best[s]
            if here is None:
                continue
            single = False
            for e in range(s + 1, min(n, s + self.longest) + 1):
                tid = self.vocab.get(piece[s:e])
                if tid is None:
                    continue
                single = single or e == s + 1
                self._reach(best, top2, s, e, tid, self.scores[tid])
            if not single:
                self._reach(best, top2, s, s + 1, unk, self.unk_score)
        cut = self._path(best, n)
        chosen = Segmentation(tuple(piece[s:e] if t != unk else piece[s:e] for s, e, t in cut),
                              tuple(self.scores[t] if t != unk else self.unk_score for s, e, t in cut))  # fmt: skip
        other = self._other(top2, n, cut, piece)
        ids: list[int] = []
        labels: list[str] = []
        fused: list[tuple[int, int, int]] = []
        for s, e, t in cut:  # unknown characters in a row are one unknown token
            if t == unk and fused and fused[-1][2] == unk:
                fused[-1] = (fused[-1][0], e, unk)
            else:
                fused.append((s, e, t))
        for s, e, t in fused:
            if t != unk:
                ids.append(t)
                labels.append(piece[s:e])
                continue
            data = piece[s:e].encode("utf-8")
            names = [f"<0x{b:02X}>" for b in data]
            if self.byte_fallback and all(x in self.vocab for x in names):
                ids.extend(self.vocab[x] for x in names)
                labels.extend(names)
            elif self.unk_id is not None:
                ids.append(self.unk_id)
                labels.append(str(self.unk))
            else:
                return Replay(piece, tuple(piece), (), False, tuple(self.tokenizer.encode(piece)),
                              problem="a character of this piece is in no token of the vocabulary")  # fmt: skip
        shown = tuple(labels) if tuple(labels) != chosen.pieces else ()
        return Replay(piece, chosen.pieces, (), len(cut) == 1 and not shown, tuple(ids), fallback=shown,
                      best=chosen, runner_up=other)  # fmt: skip

    @staticmethod
    def _reach(best: list, top2: list, s: int, e: int, tid: int, score: float) -> None:
        here = best[s]
        cand = here[0] + score
        if best[e] is None or cand > best[e][0]:
            best[e] = (cand, s, tid)
        for k, (sc, _, _, _) in enumerate(top2[s]):
            row = top2[e]
            row.append((sc + score, s, tid, k))
            row.sort(key=lambda r: -r[0])
            del row[2:]

    @staticmethod
    def _path(best: list, n: int) -> list[tuple[int, int, int]]:
        out = []
        e = n
        while e > 0:
            _, s, t = best[e]
            out.append((s, e, t))
            e = s
        return out[::-1]

    def _other(self, top2: list, n: int, chosen: list, piece: str) -> Segmentation | None:
        """The best cut other than `chosen` (from the two best ways to reach each point)."""
        for k in range(len(top2[n])):
            path: list[tuple[int, int, int, float]] = []
            e, kk = n, k
            while e > 0:
                sc, s, t, prev = top2[e][kk]
                before = top2[s][prev][0]
                path.append((s, e, t, sc - before))
                e, kk = s, prev
            path.reverse()
            if [(s, e, t) for s, e, t, _ in path] != chosen:
                return Segmentation(tuple(piece[s:e] for s, e, _, _ in path), tuple(x for *_, x in path))
        return None

    def label(self, token_id: int) -> str:
        tok = self.inner.id_to_token(token_id)
        return tok if tok is not None else super().label(token_id)

    def added_tokens(self, text: str) -> tuple[tuple[str, int, bool], ...]:
        if self.inner.post_processor is None or not text:
            return ()
        held: Any = self.tokenizer
        with held._lock, engine_guard(self.tokenizer.id):
            self.inner.encode_special_tokens = True
            enc = self.inner.encode(text[:200], add_special_tokens=True)
        ids, toks, mask = enc.ids, enc.tokens, enc.special_tokens_mask
        body = [i for i, m in enumerate(mask) if not m]
        if not body:
            return ()
        lo, hi = body[0], body[-1]
        return tuple((toks[i], ids[i], i < lo) for i in range(len(ids)) if mask[i] and (i < lo or i > hi))


_MARK_INSIDE = re.compile(f"[^{SPACE_MARK}]{SPACE_MARK}")
_MARK_WORD = re.compile(f"{SPACE_MARK}*[^{SPACE_MARK}]+|{SPACE_MARK}+")


def _rule_of(alts: tuple[Alternative, ...], text: str, a: int, b: int) -> int | None:
    for alt in alts:
        m = regex.compile(alt.source).match(text, a)
        if m is not None and m.end() == b:
            return alt.index
    return None


def _split_patterns(pre: dict | None) -> tuple[str, ...]:
    """The regular expressions of a tokenizer.json pre-tokenizer (its JSON), in order (ByteLevel's
    own GPT-2 pattern when it uses one)."""
    if pre is None:
        return ()
    found: list[str] = []

    def visit(step: dict) -> None:
        kind = step.get("type")
        if kind == "Sequence":
            for s in step.get("pretokenizers", []):
                visit(s)
        elif kind == "Split":
            pat = step.get("pattern", {})
            found.append(pat.get("Regex") or regex.escape(pat.get("String", "")))
        elif kind == "ByteLevel" and step.get("use_regex", True):
            from ..tokenizers.patterns import R50K

            found.append(R50K)
        elif kind in ("Whitespace", "WhitespaceSplit"):
            found.append(r"\w+|[^\w\s]+" if kind == "Whitespace" else r"\S+")

    visit(pre)
    return tuple(found)


_BEHAVIOUR = {
    "Removed": "the matches are dropped",
    "Isolated": "each match is a piece of its own",
    "MergedWithPrevious": "each match joins the piece before it",
    "MergedWithNext": "each match joins the piece after it",
    "Contiguous": "matches in a row make one piece",
}


def _pre_tokenizer_words(step: dict) -> list[str]:
    """The steps of a tokenizer.json pre-tokenizer (its JSON) in order, one sentence each.

    ``_pre_tokenizer_words({"type": "WhitespaceSplit"}) -> ["Cut at spaces, tabs and line breaks, which are dropped."]``
    """
    kind = step.get("type", "")
    if kind == "Sequence":
        return [w for s in step.get("pretokenizers", []) for w in _pre_tokenizer_words(s)]
    if kind == "Metaspace":
        mark = step.get("replacement", SPACE_MARK)
        first = step.get("prepend_scheme", "always" if step.get("add_prefix_space", True) else "never")
        words = f"Each space becomes {mark} (a visible space mark)"
        if first in ("always", "first"):
            words += f", one {mark} is put in front of the text"
        return [words + (f", and the text is cut before each {mark}." if step.get("split", True) else
                         "; the text is not cut.")]  # fmt: skip
    if kind == "BertPreTokenizer":
        return ["Cut at spaces, tabs and line breaks, which are dropped, and around every punctuation "
                "mark, which becomes a piece of its own (BERT's rule)."]  # fmt: skip
    if kind == "Whitespace":
        return ["Cut into runs of letters, digits and _ and runs of other visible characters; spaces, tabs "
                "and line breaks are dropped."]  # fmt: skip
    if kind == "WhitespaceSplit":
        return ["Cut at spaces, tabs and line breaks, which are dropped."]
    if kind == "ByteLevel":
        words = "Every byte is written as one printable character (GPT-2's alphabet: a space is Ġ)"
        if step.get("add_prefix_space"):
            words += ", a space is put in front of the text"
        return [words + (", and the text is cut by GPT-2's pattern." if step.get("use_regex", True) else ".")]
    if kind == "Split":
        pat = step.get("pattern", {})
        what = (
            f"the pattern {pat['Regex']}"
            if "Regex" in pat
            else json.dumps(pat.get("String", ""), ensure_ascii=False)
        )
        behaviour = _BEHAVIOUR.get(step.get("behavior", ""), "")
        invert = " (the pattern matches the pieces kept)" if step.get("invert") else ""
        return [f"Cut at {what}{invert}" + (f": {behaviour}." if behaviour else ".")]
    if kind == "Digits":
        return ["Digits are cut from the rest" + (", each digit a piece of its own." if step.get("individual_digits")
                                                   else ", a run of digits one piece.")]  # fmt: skip
    if kind == "Punctuation":
        return ["Every punctuation mark is cut from the text around it."]
    if kind == "UnicodeScripts":
        return ["Cut where the script changes (Latin, Han, Cyrillic...)."]
    if kind == "CharDelimiterSplit":
        return [
            f"Cut at every {json.dumps(step.get('delimiter', ''), ensure_ascii=False)}, which is dropped."
        ]
    return [f"A {kind} step."]


def _normaliser_words(step: dict) -> str:
    """What a tokenizer.json normaliser does, in words."""
    kind = step.get("type", "")
    words = {
        "NFC": "Unicode NFC (accents joined to their letters)",
        "NFKC": "Unicode NFKC (accents joined, look-alike characters such as ﬁ or full-width letters made plain)",
        "NFD": "Unicode NFD (accents split from their letters)",
        "NFKD": "Unicode NFKD",
        "Lowercase": "everything lower-cased",
        "Strip": "spaces at the ends removed",
        "StripAccents": "accents removed",
        "Prepend": f"{step.get('prepend', '')!r} put in front",
        "Replace": "a replacement ({} becomes {})".format(
            json.dumps(step.get("pattern", {}).get("String", "…"), ensure_ascii=False),
            json.dumps(step.get("content", ""), ensure_ascii=False),
        ),
        "BertNormalizer": "BERT's clean-up (control characters removed, Chinese characters spaced, optional lower-casing)",
        "Precompiled": "SentencePiece's own character table (NFKC-like)",
    }
    if kind == "Sequence":
        return "; ".join(_normaliser_words(s) for s in step.get("normalizers", [])) or "nothing"
    return words.get(kind, f"a {kind} step")
