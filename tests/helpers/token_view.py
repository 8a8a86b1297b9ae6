"""Read the light token view's data back (`tokenizer_core.tokenizers.view_data` packs it; the
browser draws it): each piece's document offsets and ids, and the marked pieces."""

from __future__ import annotations


def pane_segments(data: dict, index: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Read pane `index` back as ``(start, end, ids)`` in document offsets.

    The inverse of `view_data`'s packing: ``token_view_data`` then ``pane_segments`` gives each
    segment's offsets and ids.
    """
    pane = data["panes"][index]
    counts = dict(zip(pane.get("n", [])[::2], pane.get("n", [])[1::2]))
    pos = pane.get("base", data["base"]) + pane["at"]
    k = 0
    out = []
    for i, n in enumerate(pane["len"]):
        c = counts.get(i, 1)
        out.append((pos, pos + n, tuple(pane["ids"][k : k + c])))
        k += c
        pos += n
    return out


def pane_marks(data: dict, index: int) -> list[int]:
    """The indexes of pane `index`'s marked pieces (undoing the gap encoding)."""
    out, i = [], 0
    for gap in data["panes"][index].get("mk", []):
        i += gap
        out.append(i)
    return out
