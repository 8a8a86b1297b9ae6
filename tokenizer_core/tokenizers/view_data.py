"""Compact data for the light token view: the text once, then per tokenizer a few number lists.

The browser draws the spans (see ui/token_view.py), so nothing here is HTML and nothing needs
escaping: user text travels as a JSON string and is placed with ``textContent``. For 10 KB of
prose one tokenizer costs about 15-20 KB (segment lengths and token ids) instead of ~400 KB of
HTML with a style per span.

Format (version 1), a JSON object:

* ``text``: the shown text; ``base``: its offset in the whole document (tooltips show
  document offsets); ``mode`` "text" or "ids"; ``ws``: show whitespace glyphs;
  ``dir``/``lang``: writing direction and language of the text; ``empty``: message for no pieces.
* ``panes``: one per tokenizer, each with ``title``, ``note`` (after the title), ``caption``
  (under it), ``at`` (where its first piece starts in ``text``), ``len`` (each piece's length
  in characters), ``ids`` (all token ids, in order), ``n`` (pairs ``[piece, count]`` for the
  pieces that do not hold exactly one id), ``sp`` (pieces holding a special token), ``mk``
  (pieces to mark with a bar, as gaps between indexes), ``hex`` (``{piece: "bytes"}`` where the
  token bytes are not the piece's UTF-8, e.g. after normalisation) and, only when its pieces do
  not spell ``text``, its own ``text``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain
from operator import itemgetter, methodcaller

from .segments import Segment

VIEW_FORMAT = 1
_DIRECTIONS = ("ltr", "rtl", "auto")
_LANG = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")
_HEX_BYTES = 24  # the tooltip shows at most this many bytes, then " ..."


@dataclass(frozen=True, slots=True)
class TokenPane:
    """One tokenizer's column of a token view: a title, its segments and what to mark.

    `marked` holds character offsets (in document coordinates, like ``Segment.start``): a
    segment starting at one gets a bar on its left (see ``unshared_boundaries``).
    """

    title: str
    segments: Sequence[Segment]
    note: str = ""
    caption: str = ""
    marked: frozenset[int] = field(default_factory=frozenset)


def _hex(data: bytes) -> str:
    raw = data[:_HEX_BYTES].hex(" ")
    return raw + " ..." if len(data) > _HEX_BYTES else raw


def _pane(pane: TokenPane, text: str, base: int) -> dict:
    segs = pane.segments
    # Column by column, each in one pass that runs in C (a 10 KB text has ~2,500 segments per
    # tokenizer, and this runs on every keystroke); a Python loop only where a column has entries.
    pieces = list(map(_TEXT, segs))
    lens = list(map(len, pieces))
    groups = list(map(_IDS, segs))
    sizes = list(map(len, groups))
    starts = list(map(_START, segs))
    ids = list(chain.from_iterable(groups))
    joined = "".join(pieces)
    first = segs[0].start - base if segs else 0
    regular = (
        0 <= first <= len(text)
        and starts == list(accumulate(lens[:-1], initial=segs[0].start) if segs else [])
        and text[first : first + len(joined)] == joined
    )
    out: dict = {"title": pane.title, "at": first if regular else 0, "len": lens, "ids": ids}
    if pane.note:
        out["note"] = pane.note
    if pane.caption:
        out["caption"] = pane.caption
    if sizes.count(1) != len(sizes):
        out["n"] = [x for i, n in enumerate(sizes) if n != 1 for x in (i, n)]
    if any(special := list(map(_SPECIAL, segs))):
        out["sp"] = [i for i, sp in enumerate(special) if sp]
    if pane.marked:  # offsets where a piece starts (`starts` is ascending)
        at = [
            i for m in sorted(pane.marked) if (i := bisect_left(starts, m)) < len(starts) and starts[i] == m
        ]
        if at:
            out["mk"] = [b - a for a, b in zip([0, *at], at)]
    datas = list(map(_DATA, segs))
    # Each piece's bytes are its text's UTF-8 when all of them joined are and each has as many
    # bytes as its text has UTF-8 bytes (ASCII text: as many as characters).
    same = b"".join(datas) == joined.encode("utf-8", "surrogatepass") and (
        list(map(len, datas)) == lens if joined.isascii() else list(map(_UTF8, pieces)) == datas
    )
    if not same:  # some token bytes are not their piece's text
        hexes = {
            str(i): _hex(data)
            for i, (data, piece, n) in enumerate(zip(datas, pieces, sizes))
            if n and data != piece.encode("utf-8", "surrogatepass")
        }
        if hexes:
            out["hex"] = hexes
    if not regular:
        out["text"] = "".join(pieces)
        out["base"] = segs[0].start if segs else base
    return out


_START, _IDS, _TEXT, _DATA, _SPECIAL = (itemgetter(i) for i in (0, 2, 3, 4, 5))  # Segment's fields
_UTF8 = methodcaller("encode", "utf-8", "surrogatepass")


def token_view_data(
    text: str,
    panes: Iterable[TokenPane],
    *,
    base: int = 0,
    mode: str = "text",
    show_whitespace: bool = False,
    direction: str = "auto",
    lang: str = "",
    empty: str = "Nothing to show: the text is empty.",
    special_label: str = "special token",
) -> dict:
    """The view of `text` (which starts at offset `base` of the document) under each pane.

    `special_label` is what the hover text calls a piece marked special (``sp``), e.g. "added by
    the chat format" in a rendered chat request, where template text is marked too.

    ``token_view_data("ab", [TokenPane("t", [Segment(0, 2, (7,), "ab", b"ab")])])["panes"][0]``
    -> ``{"title": "t", "at": 0, "len": [2], "ids": [7]}``.
    """
    if mode not in ("text", "ids"):
        raise ValueError(f"mode must be 'text' or 'ids', not {mode!r}")
    return {
        "v": VIEW_FORMAT,
        "text": text,
        "base": base,
        "mode": mode,
        "ws": bool(show_whitespace),
        "dir": direction if direction in _DIRECTIONS else "auto",
        "lang": lang if _LANG.fullmatch(lang) else "",
        "empty": empty,
        "spl": special_label,
        "panes": [_pane(p, text, base) for p in panes],
    }


def view_payload(data: dict) -> bytes:
    """`data` as compact UTF-8 JSON (no spaces, no ``\\uXXXX`` for non-ASCII text): what is sent.

    Text with a lone surrogate (not valid UTF-8) is sent with JSON escapes instead, which the
    browser reads back as the same code units.
    """
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":")).encode("ascii")
