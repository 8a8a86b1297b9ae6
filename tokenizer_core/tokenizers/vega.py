"""An Altair chart as the Vega-Lite spec a page draws, with its data kept apart as tables.

    >>> spec = vega_lite_spec(alt.Chart(pd.DataFrame({"n": [1, 2]})).mark_bar().encode(x="n:Q"))
    >>> spec["data"], list(spec["datasets"])
    ({'name': 'table_0'}, ['table_0'])

Why not `st.altair_chart`: it checks the whole spec against the Vega-Lite schema on every run of
every session (about a tenth of a chart page's run), under a lock all sessions share, because it
switches Altair's global theme and data settings to convert. This does neither: the charts are
built by the core's own functions, whose specs the tests check against the schema, and the data
is left as tables for the page to send (Streamlit sends a spec's datasets as Arrow, as it does
for an Altair chart). The names are the data's place in the chart, so they stay the same from
run to run when only the numbers change.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd

# The parts of a chart that hold charts of their own (a layer, a concatenation, a facet's spec).
_PARTS = ("layer", "hconcat", "vconcat", "concat", "spec")


def vega_lite_spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The Vega-Lite spec of `chart`, unvalidated, each table it draws under `spec["datasets"]`
    (one per table, even if drawn twice) and referred to by name, as Streamlit draws Altair
    charts: without the size that Altair's default theme gives every view."""
    tables: dict[int, tuple[str, pd.DataFrame]] = {}

    def named(data: Any) -> Any:
        if not isinstance(data, pd.DataFrame):
            return data  # no data (a layer drawing its parent's), a name or a URL
        # not "data_0": Vega-Lite names its own data sources so, and a chart named like one draws nothing
        name, _ = tables.setdefault(id(data), (f"table_{len(tables)}", data))
        return alt.NamedData(name=name)

    def apart(part: Any) -> Any:
        if not isinstance(part, alt.SchemaBase):
            return part
        part = _shallow_copy(part)
        if "data" in part._kwds:
            part.data = named(part.data)
        for key in _PARTS:
            inner = part._kwds.get(key, alt.Undefined)
            if isinstance(inner, list):
                setattr(part, key, [apart(p) for p in inner])
            elif isinstance(inner, alt.SchemaBase):
                setattr(part, key, apart(inner))
        return part

    spec = apart(chart).to_dict(validate=False)
    _drop_default_view_size(spec)
    spec["datasets"] = {name: data for name, data in tables.values()}
    return spec


def _shallow_copy(part: alt.SchemaBase) -> alt.SchemaBase:
    """`part.copy(deep=False)` without running its class's constructor again: a layered chart's
    constructor deep-copies every layer to merge their parameters (done when it was built), which
    was most of the conversion's time."""
    copy = object.__new__(type(part))
    object.__setattr__(copy, "_args", part._args)  # SchemaBase keeps all it holds in these two
    object.__setattr__(copy, "_kwds", dict(part._kwds))
    return copy


def _drop_default_view_size(spec: dict[str, Any]) -> None:
    """Streamlit converts under Altair's "none" theme; under the default one, Altair adds a view
    size to the config, which would give every chart a fixed 300 px plot."""
    if alt.theme.active != "default":
        return
    theme = alt.theme.get()
    config = spec.get("config", {})
    view = config.get("view", {})
    for key, value in (theme() if theme else {}).get("config", {}).get("view", {}).items():
        if view.get(key) == value:
            del view[key]
    if "view" in config and not view:
        del config["view"]
    if "config" in spec and not config:
        del spec["config"]
