"""One colour per tokenizer id, the same on every chart of every page; legends that fit a phone.

Built-in tokenizers take the palette in registry order, so o200k_base is always the first
colour. Any other id (an uploaded or trained tokenizer, the teaching tokenizer) is hashed into
the colours the built-ins leave free: stable across reruns, sessions and server restarts.
Charts use :func:`colour_scale` as their Altair colour scale, so a legend entry and its bars
always agree.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .registry import BUILTINS

# Tableau 10 first (distinct, colour-blind aware), then sixteen more that stay apart from them.
PALETTE: tuple[str, ...] = (
    "#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2", "#72b7b2", "#9d755d", "#eeca3b",
    "#ff9da6", "#79706e", "#1b9e77", "#7570b3", "#d95f02", "#66a61e", "#e7298a", "#a6761d",
    "#17becf", "#393b79", "#8c6d31", "#843c39", "#bcbd22", "#7b4173", "#3182bd", "#637939",
    "#e6550d", "#ce6dbd",
)  # fmt: skip


def tokenizer_hex(tokenizer_id: str) -> str:
    """A tokenizer's colour on every chart, as a hex string: ``tokenizer_hex("o200k_base") -> "#4c78a8"``.

    Built-ins by registry order; other ids hashed (sha256, not Python's per-process `hash`)
    into the palette colours no built-in uses.
    """
    builtins = list(BUILTINS)
    if tokenizer_id in builtins:
        return PALETTE[builtins.index(tokenizer_id) % len(PALETTE)]
    free = PALETTE[len(builtins) :] or PALETTE
    digest = hashlib.sha256(tokenizer_id.encode("utf-8", "surrogatepass")).digest()
    return free[int.from_bytes(digest[:4], "big") % len(free)]


def tokenizer_hexes(tokenizer_ids: Sequence[str]) -> list[str]:
    """Hex colours for several ids, in order: ``tokenizer_hexes(["cl100k_base"]) -> ["#f58518"]``."""
    return [tokenizer_hex(t) for t in tokenizer_ids]


def lighter(colour: str, share: float) -> str:
    """`colour` mixed with white (share 0..1): ``lighter("#000000", 0.5) -> "#808080"``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * max(0.0, min(1.0, share))) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


# Room around every chart: Vega's default leaves a rotated axis title a pixel or two outside.
PADDING = {"left": 6, "top": 4, "right": 8, "bottom": 4}
LEGEND_COLUMNS = 2  # two columns of names fit a 400 px phone screen and read well at 1400 px
LEGEND_ROW_PX = 18


def bottom_legend_px(entries: int, *, columns: int = LEGEND_COLUMNS, title: bool = False) -> int:
    """Height a bottom legend of `entries` names takes: ``bottom_legend_px(5) -> 66``.

    Streamlit fits a chart into its height, legend included, so a chart with a legend under
    it adds this to its height to keep its bars as tall.
    """
    rows = -(-max(entries, 1) // max(columns, 1))
    return rows * LEGEND_ROW_PX + 12 + (16 if title else 0)


def bottom_legend(*, title: str | None = None, columns: int = LEGEND_COLUMNS) -> Any:
    """An `alt.Legend` under the chart, in `columns` columns, names never shortened."""
    import altair as alt

    return alt.Legend(
        orient="bottom", direction="horizontal", columns=columns, title=title, labelLimit=0,
        symbolLimit=0, columnPadding=12,
    )  # fmt: skip


def tokenizer_color_encoding(
    tokenizer_ids: Sequence[str],
    labels: Sequence[str] | None = None,
    *,
    field: str = "tokenizer:N",
    legend: bool = True,
    title: str | None = None,
) -> Any:
    """The `alt.Color` encoding of a chart whose `field` holds tokenizer labels: each label in
    its tokenizer's colour, legend (if any) under the chart in the ids' order."""
    import altair as alt

    scale = colour_scale(tokenizer_ids, labels)
    return alt.Color(
        field, scale=scale, sort=scale.domain, legend=bottom_legend(title=title) if legend else None
    )


def colour_scale(tokenizer_ids: Sequence[str], labels: Sequence[str] | None = None) -> Any:
    """An `alt.Scale` mapping each label (default: the id) to its tokenizer's colour.

    Charts show names, not ids, so the domain is the labels and the range their ids' colours:
    ``colour_scale(["o200k_base"], ["o200k_base"]).to_dict()["range"] -> ["#4c78a8"]``.
    """
    import altair as alt  # only charts need it; importing the package stays light

    labels = list(labels) if labels is not None else list(tokenizer_ids)
    if len(labels) != len(tokenizer_ids):
        raise ValueError(
            f"{len(tokenizer_ids)} tokenizer ids but {len(labels)} labels: pass one label per id"
        )
    pairs = dict(zip(labels, tokenizer_hexes(tokenizer_ids)))  # a label twice keeps one colour
    return alt.Scale(domain=list(pairs), range=list(pairs.values()))


__all__ = [
    "LEGEND_COLUMNS", "PADDING", "PALETTE", "bottom_legend", "bottom_legend_px", "colour_scale", "lighter",
    "tokenizer_color_encoding", "tokenizer_hex", "tokenizer_hexes",
]  # fmt: skip
