"""Charts of a counted set (pure: data in, an Altair chart out; imported on its own).

* :func:`histogram_chart`: rows by tokens, per model, with the model's limit as a rule.
* :func:`icicle_chart`: a repository's folders and files by tokens (an icicle: each level of
  folders is a band, each folder as wide as its share of the tokens).

    >>> from tokenizer_core.datasets.reduce import folder_totals
    >>> [(n.path, n.depth) for n in icicle_nodes(["a/x.py", "a/y.py", "b.md"], [3, 1, 4])][:3]
    [('a', 0), ('b.md', 0), ('a/x.py', 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import altair as alt
import pandas as pd

from .result import ModelSummary

MAX_DEPTH_SHOWN = 4
MIN_SHARE = 0.004
LABEL_SHARE = 0.08  # boxes at least this share of the tokens are labelled
# A label is drawn only where it fits its box on the narrowest chart the page draws (a phone's),
# so labels never run into each other: about 6 px a character at font size 10, 3 px padding.
NARROWEST_CHART_PX = 320
CHAR_PX = 6.2
LABEL_PAD_PX = 6


def box_label(name: str, share: float, *, width: float = NARROWEST_CHART_PX) -> str:
    """The label a box of `share` of the chart's width can hold: the name, cut with "…", or "".

    ``box_label("tokenizer_core", 0.5) -> "tokenizer_core"``; ``box_label("tokenizer_core", 0.1) -> "tok…"``
    """
    room = int((share * width - LABEL_PAD_PX) // CHAR_PX)
    if share < LABEL_SHARE or room < 3:
        return ""
    return name if len(name) <= room else name[: room - 1] + "…"


def histogram_frame(models: Sequence[ModelSummary]) -> pd.DataFrame:
    """The histogram bins of each model as rows: model, from, to, rows, limit (its window or budget
    when a row could reach it, else None)."""
    rows = []
    for m in models:
        limit = m.limit if m.limit and m.limit <= max(m.max, 1) * 1.5 else None
        rows += [{"model": m.name, "from": a, "to": b, "rows": c, "limit": limit} for a, b, c in m.histogram]
    return pd.DataFrame(rows, columns=["model", "from", "to", "rows", "limit"])


def histogram_chart(
    models: Sequence[ModelSummary], *, width: int | Literal["container"] = "container"
) -> alt.FacetChart:
    """Rows by tokens, one panel per model; a red dashed rule at the model's window or budget."""
    data = histogram_frame(models)
    bars = alt.Chart().mark_bar().encode(
        x=alt.X("from:Q", title="Tokens per row", bin="binned"),
        x2=alt.X2("to:Q"),
        y=alt.Y("rows:Q", title="Rows"),
        tooltip=[alt.Tooltip("model:N"), alt.Tooltip("from:Q", title="from", format=","),
                 alt.Tooltip("to:Q", title="to", format=","), alt.Tooltip("rows:Q", format=",")],
    )  # fmt: skip
    rule = (
        alt.Chart()
        .mark_rule(color="#d62728", strokeDash=[4, 3])
        .encode(x=alt.X("limit:Q"), tooltip=[alt.Tooltip("limit:Q", title="window or budget", format=",")])
    )
    layered = alt.LayerChart(layer=[bars, rule], data=data, width=width, height=140)
    return layered.facet(row=alt.Row("model:N", title=None)).resolve_scale(x="independent")


@dataclass(frozen=True, slots=True)
class IcicleNode:
    path: str
    name: str
    depth: int
    x0: int
    x1: int
    file: bool

    @property
    def tokens(self) -> int:
        return self.x1 - self.x0


def icicle_nodes(
    paths: Sequence[str], tokens: Sequence[int], *, max_depth: int = MAX_DEPTH_SHOWN
) -> list[IcicleNode]:
    """Folders and files laid out left to right (largest first) at each depth, down to `max_depth`."""
    tree: dict = {}
    for p, n in zip(paths, tokens):
        node = tree
        parts = p.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part + "/", {})
        node[parts[-1]] = max(int(n), 0)

    def size(node: dict | int) -> int:
        return node if isinstance(node, int) else sum(size(v) for v in node.values())

    total = max(1, size(tree))
    out: list[IcicleNode] = []
    level: list[tuple[str, dict, int]] = [("", tree, 0)]
    for depth in range(max_depth):
        nxt = []
        for prefix, node, x in level:
            small = 0
            for key, child in sorted(node.items(), key=lambda kv: -size(kv[1])):
                n = size(child)
                if n / total < MIN_SHARE:
                    small += n
                    continue
                path = prefix + key
                out.append(
                    IcicleNode(path.rstrip("/"), key.rstrip("/"), depth, x, x + n, isinstance(child, int))
                )
                if isinstance(child, dict):
                    nxt.append((path, child, x))
                x += n
            if small:
                out.append(IcicleNode(prefix + "(smaller)", "(smaller)", depth, x, x + small, True))
        level = nxt
    return sorted(out, key=lambda n: (n.depth, n.x0))


def icicle_chart(
    paths: Sequence[str], tokens: Sequence[int], *, width: int | Literal["container"] = "container"
) -> alt.LayerChart:
    """A repository's tokens by folder: one band per folder depth, each box as wide as its tokens."""
    nodes = icicle_nodes(paths, tokens)
    total = max(1, sum(max(int(t), 0) for t in tokens))
    data = pd.DataFrame(
        [{"path": n.path or "/", "name": n.name, "depth": n.depth, "x0": n.x0, "x1": n.x1, "tokens": n.tokens,
          "kind": "file" if n.file else "folder", "top": n.path.split("/")[0],
          "label": box_label(n.name, (n.x1 - n.x0) / total)} for n in nodes],
        columns=["path", "name", "depth", "x0", "x1", "tokens", "kind", "top", "label"],
    )  # fmt: skip
    base = alt.Chart(data).encode(
        x=alt.X("x0:Q", title="Tokens", axis=alt.Axis(format="~s")),
        x2=alt.X2("x1:Q"),
        y=alt.Y("depth:O", title="Folder depth", axis=alt.Axis(labels=False, ticks=False)),
        tooltip=[alt.Tooltip("path:N"), alt.Tooltip("kind:N"), alt.Tooltip("tokens:Q", format=",")],
    )
    boxes = base.mark_rect(stroke="white", strokeWidth=1).encode(color=alt.Color("top:N", legend=None))
    labels = base.mark_text(align="left", dx=3, fontSize=10, color="white").encode(
        x=alt.X("x0:Q"), text=alt.Text("label:N")
    )
    return alt.LayerChart(layer=[boxes, labels], width=width, height=32 * max(1, data["depth"].nunique()))


__all__ = ["IcicleNode", "box_label", "histogram_chart", "histogram_frame", "icicle_chart", "icicle_nodes"]
