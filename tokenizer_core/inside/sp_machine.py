"""SentencePiece BPE taken apart (Mistral's classic vocabularies, Gemma): merged by the score of
the joined piece, with byte fallback to the vocabulary's ``<0x..>`` pieces."""

from __future__ import annotations

import re

from ..tokenizers.sentencepiece_model import NORMAL, UNUSED, USER_DEFINED
from ..tokenizers.splintr_engine import SplintrTokenizer
from .merges import merge_steps
from .records import (
    MAX_REPLAY_BYTES,
    SPACE_MARK,
    AppliedMerge,
    Machine,
    Normalisation,
    PreTokenPiece,
    Replay,
)


class SentencePieceMachine(Machine):
    """SentencePiece BPE (Mistral's classic vocabularies, Gemma): spaces become ▁, then the
    adjacent pair whose joined piece has the highest score is merged (leftmost on a tie) until
    no joined pair is a piece; a character with no piece falls back to its UTF-8 bytes
    (``<0x..>`` pieces). The model file's scores are used where it was read (Mistral); a
    vocabulary compiled into the engine (Gemma) lists its pieces best score first, so there a
    piece's place stands for its score (checked against the tokenizer's ids in the tests)."""

    kind = "sentencepiece"
    method = "scores"
    replays = True

    def __init__(self, tokenizer: SplintrTokenizer) -> None:
        super().__init__(tokenizer)
        self.splintr = tokenizer
        self.prefix = tokenizer.dummy_prefix
        self.markers = dict(tokenizer._whole)
        self.labels: dict[int, str] = {}
        self.score: dict[str, tuple[float, int]] = {}  # piece -> (score, id), pieces that merge
        self.scores_known = tokenizer.vocabulary is not None
        if tokenizer.vocabulary is not None:
            for i, (piece, score, kind) in enumerate(tokenizer.vocabulary):
                self.labels[i] = piece
                if kind in (NORMAL, USER_DEFINED, UNUSED):
                    self.score.setdefault(piece, (score, i))
            self.byte0 = next((i for i, v in enumerate(tokenizer.vocabulary) if v[0] == "<0x00>"), -1)
        else:
            table = [tokenizer.token_bytes(i) for i in range(tokenizer.base_vocab)]
            # the 256 byte pieces are 256 ids in a row whose bytes are 0x00..0xFF
            self.byte0 = next(
                (k for k, b in enumerate(table) if b == b"\x00"
                 and all(table[k + x : k + x + 1] == [bytes([x])] for x in range(256))), -1)  # fmt: skip
            special = set(tokenizer._names)
            for i, data in enumerate(table):
                if i in special:
                    self.labels[i] = tokenizer._names[i]
                    continue
                if self.byte0 <= i < self.byte0 + 256:
                    self.labels[i] = f"<0x{data[0]:02X}>"
                    continue
                try:
                    piece = data.decode("utf-8").replace(" ", SPACE_MARK)
                except UnicodeDecodeError:
                    continue
                if not piece:
                    continue
                self.labels[i] = piece
                self.score.setdefault(piece, (-float(i), i))
        if self.byte0 < 0:
            self.replays = False
        self.byte_fallback = self.byte0 >= 0
        # pieces holding ▁ after another character (Gemma's ">▁</"), with where each such ▁ is: the
        # text is not cut where one of them could form
        self.crossing = [
            (
                piece,
                [k for k in range(1, len(piece)) if piece[k] == SPACE_MARK and piece[k - 1] != SPACE_MARK],
            )
            for piece in self.score
            if _MARK_INSIDE.search(piece)
        ]

    def normalise(self, text: str) -> Normalisation | None:
        after = text.replace(" ", SPACE_MARK)
        if self.prefix and text:
            after = SPACE_MARK + after
        rule = "every space becomes \u2581 (a visible space mark), so a space is part of the word after it"
        if self.prefix:
            rule += "; one \u2581 is also put in front of the text, so its first word looks like every other"
        return Normalisation(text, after, rule)

    def pre_steps(self) -> tuple[str, ...]:
        words = (
            "SentencePiece has no pattern: it reads the whole text with \u2581 for each space. The text is "
            "shown cut before each run of \u2581, because "
        )
        if not self.crossing:
            return (words + "no piece of this vocabulary has \u2581 after another character: the merges "
                    "inside one such piece never reach another.",)  # fmt: skip
        return (words + f"only {len(self.crossing)} of its pieces {'has' if len(self.crossing) == 1 else 'have'} "
                "\u2581 after another character; where one of those could form, the text is not cut.",)  # fmt: skip

    def _crosses(self, marks: str, at: int) -> bool:
        """True when a vocabulary piece with ▁ after another character could form across
        position `at` of the text (spaces written as ▁)."""
        return any(
            marks[at - k : at - k + len(piece)] == piece for piece, ks in self.crossing for k in ks if at >= k
        )

    def pieces(self, text: str) -> list[PreTokenPiece]:
        out: list[PreTokenPiece] = []
        spans: list[tuple[int, int, bool]] = []
        pos = 0
        found = self.splintr._whole_re
        if found is not None:
            for m in found.finditer(text):
                if m.group() in self.markers:
                    spans += [(pos, m.start(), False), (m.start(), m.end(), True)]
                    pos = m.end()
        spans.append((pos, len(text), False))
        first = True
        for s, e, marker in spans:
            if s == e:
                continue
            lead = SPACE_MARK if self.prefix and first and s == 0 else ""
            first = False
            if marker:
                out.append(PreTokenPiece(len(out), s, e, text[s:e], marker=True, form=lead + text[s:e]))
                continue
            cuts: list[list[int]] = []
            marks = text.replace(" ", SPACE_MARK) if self.crossing else ""
            for m in _SP_WORD.finditer(text, s, e):
                if cuts and self.crossing and self._crosses(marks, m.start()):
                    cuts[-1][1] = m.end()
                else:
                    cuts.append([m.start(), m.end()])
            for a, b in cuts:
                form = (lead if a == 0 else "") + text[a:b].replace(" ", SPACE_MARK)
                out.append(PreTokenPiece(len(out), a, b, text[a:b], form=form if form != text[a:b] else ""))
        return out

    def replay(self, piece: str) -> Replay:
        name = piece.removeprefix(SPACE_MARK)
        if name in self.markers:  # a marker, after the ▁ SentencePiece puts in front of a text
            lead = (self.score[SPACE_MARK][1],) if name != piece else ()
            return Replay(piece, (piece,), (), True, (*lead, self.markers[name]))
        if not self.replays:
            return super().replay(piece)
        start = tuple(piece)
        if len(start) > MAX_REPLAY_BYTES:
            return Replay(piece, start, (), False, tuple(self.splintr.encode(piece.replace(SPACE_MARK, " "))),
                          problem=f"this piece has {len(start):,} characters; merges are shown for pieces of "
                          f"up to {MAX_REPLAY_BYTES}")  # fmt: skip
        score = self.score
        final, done = merge_steps(
            start, lambda a, b: -score[a + b][0] if a + b in score else None, lambda a, b: a + b
        )
        steps = tuple(
            AppliedMerge(
                n,
                left,
                right,
                score[left + right][1],
                pos,
                parts,
                score=-rank,
                rivals=tuple((a, b, -r) for a, b, r in rivals),
            )  # fmt: skip
            for n, (rank, pos, left, right, parts, rivals) in enumerate(done, 1)
        )
        ids: list[int] = []
        labels: list[str] = []
        for part in final:
            if part in score:
                ids.append(score[part][1])
                labels.append(part)
            else:  # no piece for this character: its bytes
                for b in part.encode("utf-8"):
                    ids.append(self.byte0 + b)
                    labels.append(f"<0x{b:02X}>")
        whole = len(final) == 1 and not steps and final[0] in score
        return Replay(piece, start, steps, whole, tuple(ids),
                      fallback=tuple(labels) if labels != list(final) else ())  # fmt: skip

    def label(self, token_id: int) -> str:
        return self.labels.get(token_id) or super().label(token_id)

    def is_byte_token(self, token_id: int) -> bool:
        return self.byte0 >= 0 and self.byte0 <= token_id < self.byte0 + 256

    def added_tokens(self, text: str) -> tuple[tuple[str, int, bool], ...]:
        names = self.splintr._special  # control tokens: a model's request starts with its BOS
        for bos in ("<bos>", "<s>"):
            if bos in names:
                return ((bos, names[bos], True),)
        return ()


_MARK_INSIDE = re.compile(f"[^{SPACE_MARK}]{SPACE_MARK}")
# SentencePiece text cut before each run of spaces (the ▁ marks) that follows another character
_SP_WORD = re.compile(r"[ \u2581]*[^ \u2581]+|[ \u2581]+")
