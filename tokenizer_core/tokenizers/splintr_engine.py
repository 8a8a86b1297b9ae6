"""A SentencePiece-style vocabulary run by splintr's Rust engine, behind the common interface.

splintr (PyPI splintr-rs) merges SentencePiece pieces exactly, but its entry points do not
match what the models' own tokenizers do with marker tokens: its ordinary call splits every
marker (Gemma's ``<start_of_turn>``), its raw call keeps them whole but also turns 54 "agent"
markers of its own (``<|think|>``, ``<|im_start|>``...) into ids above the real vocabulary.
So this wrapper finds the markers itself and lets the engine encode only the ordinary text
between them:

* `whole`: tokens matched wherever they appear in a text, as the model's tokenizer does
  (Gemma's ``<start_of_turn>``, Mistral's ``[REFERENCE_DOC_1]``);
* `special`: control tokens matched only with ``allow_special`` (``<bos>``, ``[INST]``); as
  plain text otherwise, as SentencePiece itself always reads them;
* `dummy_prefix`: SentencePiece's leading ``▁`` (Mistral): the text is read as if it began
  with a space, once; text after a whole-matched token goes on without one.

Every id it returns is below `base_vocab`; a test compares the ids with SentencePiece and
Hugging Face tokenizers on random text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .encoders import Tokenizer, TokenizerInfo, clean_text, engine_guard
from .segments import Segment, segments_from_pieces

if TYPE_CHECKING:
    import numpy as np

# Encoded after a whole-matched token, text must not get SentencePiece's leading "▁". The
# engine always adds it, so such text is encoded behind a newline, which no piece contains in
# the vocabularies that use this (checked when they load): the newline's own ids come first
# and nothing merges across it.
SEPARATOR = "\n"


_BRACKETS = "<>[]"


def _bracketed(name: str) -> bool:
    """``<...>`` or ``[...]`` with no bracket or space inside: ``_bracketed("<b>") -> True``."""
    inner = name[1:-1]
    return (
        len(name) > 2
        and (name[0], name[-1]) in (("<", ">"), ("[", "]"))
        and not any(c in _BRACKETS or c.isspace() for c in inner)
    )


def marker_pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    """A regex that finds every one of `names` in a text (and, for bracketed names, other
    bracketed words too: callers keep only the names); None for no names.

    Thousands of alternatives make a regex crawl (Gemma 3 has 6,318 markers: 14 s per MB), so
    when every name is bracketed the regex finds any ``<word>`` or ``[word]`` instead; no name
    can start inside such a word, so nothing is missed. Otherwise, the names longest first.
    ``[m.group() for m in marker_pattern(["<b>"]).finditer("a<b><i>")] -> ["<b>", "<i>"]``
    """
    if not names:
        return None
    if all(_bracketed(n) for n in names):
        longest = max(map(len, names)) - 2
        inner = r"[^<>\[\]\s]"
        return re.compile(rf"<{inner}{{1,{longest}}}>|\[{inner}{{1,{longest}}}\]")
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


class SplintrTokenizer(Tokenizer):
    """A splintr engine (``encode_ordinary`` and ``decode_token_bytes``) with the model's own
    marker rules; see the module docstring for `whole`, `special` and `dummy_prefix`."""

    def __init__(
        self,
        info: TokenizerInfo,
        engine: Any,
        *,
        base_vocab: int,
        whole: Mapping[str, int],
        special: Mapping[str, int],
        dummy_prefix: bool = False,
        vocabulary: Sequence[tuple[str, float, int]] | None = None,
    ) -> None:
        self.info = info
        # the model file's pieces as (piece, score, type) per id, when it was read (not for a
        # vocabulary compiled into the engine): the Inside page replays and labels with them
        self.vocabulary = vocabulary
        self.engine = engine
        self.base_vocab = base_vocab
        self.dummy_prefix = dummy_prefix
        self._whole = dict(whole)
        self._special = dict(special)
        self._markers = {**self._whole, **self._special}
        self._names = {i: t for t, i in self._markers.items()}
        self._special_ids = frozenset(self._names)
        self._whole_ids = frozenset(self._whole.values())
        self._whole_re = marker_pattern(list(self._whole))
        self._all_re = marker_pattern(list(self._markers))
        self._all_names = self._markers
        self._sep_ids: list[int] | None = None

    @property
    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._markers)

    @property
    def n_vocab(self) -> int:
        return self.base_vocab

    def _pieces(self, text: str, allow_special: bool) -> list[str | int]:
        """The text cut into ordinary stretches (str) and marker ids (int), in order."""
        pattern = self._all_re if allow_special else self._whole_re
        if pattern is None:
            return [text] if text else []
        out: list[str | int] = []
        pos = 0
        names = self._all_names if allow_special else self._whole
        for m in pattern.finditer(text):
            if m.group() not in names:
                continue  # a bracketed word that is no marker: ordinary text
            if m.start() > pos:
                out.append(text[pos : m.start()])
            out.append(names[m.group()])
            pos = m.end()
        if pos < len(text):
            out.append(text[pos:])
        return out

    def _separator_ids(self) -> list[int]:
        if self._sep_ids is None:
            self._sep_ids = list(self.engine.encode_ordinary(SEPARATOR))
        return self._sep_ids

    def _encode_marked(self, text: str, allow_special: bool) -> tuple[list[int], set[int]]:
        """The ids, and the positions of the ids whose leading space SentencePiece added.

        A stretch of text is "fresh" at the start and after a control token (as when a chat
        request is encoded call by call): it gets the dummy prefix. After a whole-matched
        token the text goes on as one normalised text, without it.
        """
        ids: list[int] = []
        added: set[int] = set()
        fresh = True
        for piece in self._pieces(text, allow_special):
            if isinstance(piece, int):
                if self.dummy_prefix and fresh and piece in self._whole_ids:
                    added.add(len(ids))  # "[REF]x" is read as "▁[REF]x": a lone "▁" token
                    ids.append(self._separator_ids()[0])
                ids.append(piece)
                fresh = piece not in self._whole_ids
            elif not self.dummy_prefix:
                ids.extend(self.engine.encode_ordinary(piece))
            elif fresh:
                added.add(len(ids))
                ids.extend(self.engine.encode_ordinary(piece))
                fresh = False
            else:
                sep = self._separator_ids()
                more = list(self.engine.encode_ordinary(SEPARATOR + piece))
                if more[: len(sep)] != sep:
                    raise RuntimeError(f"{self.info.name}: the engine merged text across a newline")
                ids.extend(more[len(sep) :])
        if ids and max(ids) >= self.base_vocab:  # never an id the real model does not have
            raise RuntimeError(f"{self.info.name}: the engine returned id {max(ids)} above its vocabulary")
        return ids, added

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        with engine_guard(self.info.id):
            return self._encode_marked(clean_text(text), allow_special)[0]

    def count_many(self, texts: Sequence[str], *, allow_special: bool = False) -> list[int]:
        return [len(self.encode(t, allow_special=allow_special)) for t in texts]

    def ordinary_id_arrays(self, pieces: Sequence[str]) -> list[np.ndarray]:
        """Token ids of each piece (markers that match anywhere included) as int64 arrays."""
        import numpy as np

        return [np.asarray(self.encode(p), dtype=np.int64) for p in pieces]

    def token_bytes(self, token_id: int) -> bytes:
        if token_id in self._names:
            return self._names[token_id].encode("utf-8")
        if not 0 <= token_id < self.base_vocab:
            return b""
        with engine_guard(self.info.id):
            return bytes(self.engine.decode_token_bytes(token_id))

    def decode(self, ids: Sequence[int]) -> str:
        data = b"".join(self.token_bytes(i) for i in ids)
        if self.dummy_prefix and ids and ids[0] not in self._names and data.startswith(b" "):
            data = data[1:]  # SentencePiece drops the leading "▁" it added
        return data.decode("utf-8", errors="replace")

    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        text = clean_text(text)
        with engine_guard(self.info.id):
            ids, added = self._encode_marked(text, allow_special)
        pieces = [self.token_bytes(i) for i in ids]
        for k in added:  # the "▁" SentencePiece added is no text of the input
            pieces[k] = pieces[k].removeprefix(b" ")
        segs = segments_from_pieces(ids, pieces, special_ids=self._special_ids)
        out: list[Segment] = []
        carry: tuple[int, ...] = ()
        for seg in segs:  # an added lone "▁" covers no text: it joins the next segment
            if seg.start == seg.end and not seg.special:
                carry += seg.ids
                continue
            out.append(seg._replace(ids=carry + seg.ids) if carry else seg)
            carry = ()
        if carry:
            out.append(Segment(len(text), len(text), carry, "", b""))
        if "".join(seg.text for seg in out) != text:
            # a literal "▁" decodes as the space it stands for: one character for one, so the
            # offsets hold and each segment takes its text from the input
            out = [seg._replace(text=text[seg.start : seg.end], data=text[seg.start : seg.end].encode("utf-8"))
                   for seg in out]  # fmt: skip
        return out
